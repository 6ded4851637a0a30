/**
 * The entries of `source` that `translation` lacks or holds as another kind (text, function, group), by dotted path.
 * Empty when the translation is complete. The type check finds the same gaps; this finds them in catalogues built at
 * run time or cast.
 */
export function missingKeys(source: object, translation: unknown, path = ''): string[] {
  const missing: string[] = [];
  const other = (typeof translation === 'object' && translation !== null ? translation : {}) as Record<string, unknown>;
  for (const [key, value] of Object.entries(source)) {
    const at = path ? `${path}.${key}` : key;
    const theirs = other[key];
    if (typeof value === 'object' && value !== null) missing.push(...missingKeys(value, theirs, at));
    else if (typeof theirs !== typeof value || theirs === '') missing.push(at);
  }
  return missing;
}
