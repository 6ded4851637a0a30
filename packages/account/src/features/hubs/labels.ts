import { strings } from '../../app/strings';

/** How the pages name a household role (an unknown one as it is). */
export const roleLabel = (role: string): string => (strings.roles as Record<string, string | undefined>)[role] ?? role;

/** The registry's state of a hub, in words. */
export const stateLabel = (state: string): string =>
  (strings.hubStates as Record<string, string | undefined>)[state] ??
  (state ? state[0]?.toUpperCase() + state.slice(1) : strings.hubStates.unknown);
