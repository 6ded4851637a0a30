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
