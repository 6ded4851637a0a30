/** How the pages name a household role. */
export const ROLE_LABELS: Record<string, string> = {
  owner: 'Owner',
  manager: 'Manager',
  user: 'User',
  guest: 'Guest',
};

/** The registry's state of a hub, in words. */
export const stateLabel = (state: string): string =>
  ({ activated: 'Registered and claimed', released: 'Released', online: 'Online', offline: 'Offline' })[state] ??
  (state ? state[0]?.toUpperCase() + state.slice(1) : 'Unknown');
