import type { HubManager } from '../platform/context';
import { systemManager } from './system';

/** Every manager the hub serves, in start order. Adding a manager means adding it here. */
export const managers: readonly HubManager[] = [systemManager];
