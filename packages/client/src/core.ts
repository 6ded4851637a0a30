/**
 * The platform-free core of the Hearth client: bring your own fetch, socket factory and store through a
 * {@link Platform}. The `@hearth/client` entry points (Node and browser) bind these for you.
 */
export {
  CloudAPI as CoreCloudAPI,
  type CloudAPIOptions,
  type CloudServices,
  type CloudToken,
  ICON_DEFAULT_SIZE,
  REFRESH_MEMO_MS,
  STATUS_SECRET_HEADER,
} from './cloud/CloudAPI';
export { CloudHub, type CloudHubData, CloudUser, type CloudUserData } from './cloud/CloudUser';
export { APIError, errorFor, messages, NotFoundError, OfflineError, ParameterError, TimeoutError } from './core/errors';
export { findOperation } from './core/operations';
export type { ClientSocket, MdnsResolve, Platform, SocketFactory, SocketOptions } from './core/platform';
export { Secrets } from './core/secrets';
export {
  BROWSER_STORAGE_KEY,
  checkStorageAdapter,
  MemoryStorageAdapter,
  type StorageAdapter,
  type StoredState,
  type WebStorage,
  WebStorageAdapter,
} from './core/storage';
export { DEFAULT_TIMEOUT, errorMessage, Transport } from './core/transport';
export { type DiscoveryResult, discover, type HubAddresses, PING_TIMEOUTS, ping, type Strategy } from './hub/discovery';
export type { CapabilityEvent, ManagerEventPayloads, ManagerListeners } from './hub/events';
export {
  HubAPI as CoreHubAPI,
  type HubAPIOptions,
  type HubManager,
  type HubManagers,
  type HubSession,
  hubCall,
} from './hub/HubAPI';
export { CapabilityInstance, DEVICE_REFRESH, Device, Flow, Item, type ItemData, isFlowBroken } from './hub/items';
export { Manager } from './hub/Manager';
export { REALTIME, Realtime } from './hub/Realtime';
