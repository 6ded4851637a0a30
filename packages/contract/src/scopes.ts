/**
 * Scope matching shared by hub and cloud. A granted scope covers a required one when they are equal or
 * the required scope extends the granted one by further dot segments: `homey.device` covers
 * `homey.device.readonly` and `homey.device.control`, `homey` covers every `homey.*` scope, while
 * `homey.device.readonly` covers only itself.
 */
export function scopeCovers(granted: string, required: string): boolean {
  return required === granted || required.startsWith(`${granted}.`);
}

/**
 * Whether a session's scopes allow an operation that requires `required`.
 * `granted === null` means the session has no scope set, which passes every check (seed, section 6).
 */
export function hasScope(granted: readonly string[] | null, required: string | null): boolean {
  if (required === null || granted === null) return true;
  return granted.some((scope) => scopeCovers(scope, required));
}

/** The scopes of `requested` that `allowed` covers: a session's `intersectedScopes`. */
export function intersectScopes(requested: readonly string[], allowed: readonly string[]): string[] {
  const result = new Set<string>();
  for (const want of requested) {
    if (allowed.some((have) => scopeCovers(have, want))) result.add(want);
    else for (const have of allowed) if (scopeCovers(want, have)) result.add(have);
  }
  return [...result];
}

/**
 * Every scope a hub operation requires, sorted: what a personal access token may be given. Kept as a list (not
 * derived from the operations) so a browser page can offer it without loading the whole contract; `scopes.test.ts`
 * checks it against the operations.
 */
export const HUB_SCOPES = [
  'homey.alarm',
  'homey.alarm.readonly',
  'homey.app',
  'homey.app.control',
  'homey.app.readonly',
  'homey.dashboard',
  'homey.dashboard.readonly',
  'homey.device',
  'homey.device.control',
  'homey.device.readonly',
  'homey.energy',
  'homey.energy.readonly',
  'homey.flow',
  'homey.flow.readonly',
  'homey.flow.start',
  'homey.geolocation',
  'homey.geolocation.readonly',
  'homey.insights',
  'homey.insights.readonly',
  'homey.logic',
  'homey.logic.readonly',
  'homey.mood',
  'homey.mood.readonly',
  'homey.mood.set',
  'homey.notifications',
  'homey.notifications.readonly',
  'homey.presence',
  'homey.presence.readonly',
  'homey.presence.self',
  'homey.speech',
  'homey.system',
  'homey.system.readonly',
  'homey.updates',
  'homey.updates.readonly',
  'homey.user',
  'homey.user.readonly',
  'homey.user.self',
  'homey.zone',
  'homey.zone.readonly',
] as const;
