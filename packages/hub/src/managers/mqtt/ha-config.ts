/** Reading the loosely typed values of a Home Assistant discovery config. */

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
export const text = (value: unknown): string | undefined => (typeof value === 'string' && value.length > 0 ? value : undefined);
export const num = (value: unknown, fallback: number): number =>
  typeof value === 'number' && Number.isFinite(value) ? value : fallback;
/** Payloads may be given as numbers or booleans (`"pl_on": 1`): they are compared and sent as text. */
export const payloadText = (value: unknown, fallback: string): string =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : fallback;
