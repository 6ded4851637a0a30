import { Type } from 'typebox';
import { cloudService } from '../operation';

export { DateTime, open } from './schemas';

/** What the `apps` service's declarations share (not exported from the package: the schemas built from them are). */
export const op = cloudService('apps', '/apps');

export const AppId = Type.String({ minLength: 3, maxLength: 200, pattern: '^[a-z0-9]+(\\.[a-z0-9_-]+)+$' });
const BuildId = Type.String({ pattern: '^[0-9]{1,12}$' });
export const Version = Type.String({ pattern: '^\\d+\\.\\d+\\.\\d+(-[0-9A-Za-z.-]+)?$', maxLength: 64 });
export const AppParams = Type.Object({ appId: AppId });
export const BuildParams = Type.Object({ appId: AppId, buildId: BuildId });
