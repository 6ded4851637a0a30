/**
 * The sign-ins as the Security page lists them: this device's first (the cloud lists them by when they began), then
 * the most recently used.
 */
export const inOrder = <S extends { current?: boolean; lastUsedAt: string }>(sessions: readonly S[]): S[] =>
  [...sessions].sort(
    (a, b) => Number(Boolean(b.current)) - Number(Boolean(a.current)) || b.lastUsedAt.localeCompare(a.lastUsedAt),
  );
