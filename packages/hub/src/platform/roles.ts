import { hasScope, intersectScopes, scopeCovers } from '@hearth/contract';
import type { UserRole } from './identity/users';

/**
 * Every scope of the hub (seed, section 6): each area with its readonly variant (speech has none) and the
 * narrower sub-scopes. A granted scope covers every scope that extends it by further segments, so
 * `homey.device` covers `homey.device.readonly` and `homey.device.control`, and `homey` covers all.
 */
export const hubScopes = [
  'homey',
  ...['alarm', 'app', 'device', 'flow', 'insights', 'logic', 'mood', 'dashboard', 'zone', 'notifications', 'presence', 'user']
    .concat(['updates', 'system', 'geolocation'])
    .flatMap((area) => [`homey.${area}`, `homey.${area}.readonly`]),
  'homey.speech',
  'homey.app.control',
  'homey.device.control',
  'homey.flow.start',
  'homey.mood.set',
  'homey.presence.self',
  'homey.user.self',
] as const;

/** Whether `scope` is one a session may request: a scope of the table above. */
export const isKnownScope = (scope: string): boolean => (hubScopes as readonly string[]).includes(scope);

/**
 * The scopes each role may hold; a session's `intersectedScopes` are its requested scopes cut down to these.
 *
 * | role    | may                                                                                         |
 * |---------|---------------------------------------------------------------------------------------------|
 * | owner   | everything (`homey`)                                                                        |
 * | manager | everything (`homey`); only the owner may hand the hub over or grant installer access        |
 * | user    | use and change the home (devices, flows, alarms, moods, dashboards, logic, presence, speech, |
 * |         | notifications, app settings); read zones, users, apps, insights, updates, system, location  |
 * | guest   | read the home, switch devices, start flows, set moods, set its own presence and account    |
 */
export const roleScopes: Readonly<Record<UserRole, readonly string[]>> = {
  owner: ['homey'],
  manager: ['homey'],
  user: [
    'homey.alarm',
    'homey.app.readonly',
    'homey.app.control',
    'homey.dashboard',
    'homey.device',
    'homey.flow',
    'homey.geolocation.readonly',
    'homey.insights.readonly',
    'homey.logic',
    'homey.mood',
    'homey.notifications',
    'homey.presence',
    'homey.speech',
    'homey.system.readonly',
    'homey.updates.readonly',
    'homey.user.readonly',
    'homey.user.self',
    'homey.zone.readonly',
  ],
  guest: [
    'homey.alarm.readonly',
    'homey.dashboard.readonly',
    'homey.device.readonly',
    'homey.device.control',
    'homey.flow.readonly',
    'homey.flow.start',
    'homey.geolocation.readonly',
    'homey.mood.readonly',
    'homey.mood.set',
    'homey.notifications.readonly',
    'homey.presence.readonly',
    'homey.presence.self',
    'homey.system.readonly',
    'homey.user.readonly',
    'homey.user.self',
    'homey.zone.readonly',
  ],
};

/** Owners and managers run the household: they see and manage every member's account and sessions. */
export const managesHousehold = (role: string): boolean => role === 'owner' || role === 'manager';

/** Whether the caller runs the household and its session holds `scope` for doing so. */
export const isHouseholdAdmin = (principal: { role: string; scopes: readonly string[] | null }, scope: string): boolean =>
  managesHousehold(principal.role) && hasScope(principal.scopes, scope);

/** Whether the role may hold `scope`. */
export const roleAllows = (role: UserRole, scope: string): boolean => roleScopes[role].some((have) => scopeCovers(have, scope));

/**
 * A session's `intersectedScopes`: its requested scopes cut down to what the user's role may hold. A
 * session with no scopes set requests everything, so it gets the role's scopes.
 */
export function intersectedScopes(requested: readonly string[] | null, role: UserRole): string[] {
  return intersectScopes(requested ?? ['homey'], roleScopes[role]);
}
