import { join } from 'node:path';

/**
 * The folder of a hub's Matter fabric (the controller's root certificate, operational credentials and peers):
 * beside its database in its data directory. Its own module so that backup and restore need no matter.js.
 */
export const fabricDir = (dataDir: string, hubId: string) => join(dataDir, `${hubId}.matter`);
