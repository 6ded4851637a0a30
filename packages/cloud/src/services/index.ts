import type { CloudService } from '../platform/context';
import { cloudAccountService } from './cloud';

/** Every service the cloud serves. Adding a service means adding it here. */
export const services: readonly CloudService[] = [cloudAccountService];
