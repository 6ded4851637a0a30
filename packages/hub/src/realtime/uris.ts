import { type AnyOperation, HearthError, hubOperations } from '@hearth/contract';

/** Item types of `homey:<type>:<id>` URIs and the manager that owns each. */
export const itemTypeManagers: Readonly<Record<string, string>> = {
  device: 'devices',
  capability: 'devices',
  driver: 'drivers',
  pairsession: 'drivers',
  app: 'apps',
  zone: 'zones',
  flow: 'flow',
  flowfolder: 'flow',
  advancedflow: 'flow',
  flowcardtrigger: 'flow',
  flowcardcondition: 'flow',
  flowcardaction: 'flow',
  flowtoken: 'flowtoken',
  variable: 'logic',
  log: 'insights',
  user: 'users',
  session: 'sessions',
  alarm: 'alarms',
  mood: 'moods',
  dashboard: 'dashboards',
  notification: 'notifications',
};

const managerGroups = hubOperations as unknown as Record<string, Record<string, AnyOperation>>;

/** The declared operations of a manager, or `undefined` for a manager the hub does not have. */
export const managerOperations = (manager: string): Record<string, AnyOperation> | undefined =>
  Object.hasOwn(managerGroups, manager) ? managerGroups[manager] : undefined;

/**
 * The scopes that let a session read a manager: those of its reading operations (GET, other than the
 * system-wide `getState`). A session may subscribe when it holds any of them; each event is still filtered
 * by its own scope.
 */
export function readScopesOf(manager: string): string[] {
  const operations = Object.values(managerOperations(manager) ?? {});
  const reads = operations.filter((op) => op.method === 'GET' && op.name !== 'getState' && op.scope !== null && !op.private);
  const scopes = [...new Set(reads.map((op) => op.scope as string))];
  return scopes.length > 0 ? scopes : ['homey.system.readonly'];
}

/** The manager a subscription URI belongs to; throws a coded error for URIs the hub does not publish. */
export function managerOfUri(uri: unknown): string {
  if (typeof uri !== 'string') throw new HearthError('invalid_parameter_type', 'Invalid Parameter Type: uri. Expected: string');
  const manager = /^homey:manager:([a-z][a-z0-9-]*)$/.exec(uri)?.[1];
  if (manager !== undefined) {
    if (!managerOperations(manager)) throw new HearthError('not_found', `Unknown manager: ${manager}`);
    return manager;
  }
  const item = /^homey:([a-z]+):([^:\s]+)$/.exec(uri);
  const owner = item ? itemTypeManagers[item[1] as string] : undefined;
  if (owner === undefined) throw new HearthError('invalid_parameter', `Invalid Parameter: uri. Unknown URI ${uri}`);
  return owner;
}
