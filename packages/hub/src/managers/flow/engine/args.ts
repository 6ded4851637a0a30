import { FLOW_DELAY_MAX_SECONDS, invalidParameter } from '@hearth/contract';
import type { FlowCardArgDefinition } from '../registry';

/**
 * Where a card's `[[token]]` references are looked up: the trigger's local tokens (`[[id]]`, also written
 * `[[trigger::id]]`), the tokens of advanced-flow nodes (`[[trigger::<node>::<id>]]`, `[[action::<node>::<id>]]`,
 * `[[card::<node>::error]]`) and the global tokens (`[[<owner uri>|<id>]]`).
 */
export interface TokenScope {
  readonly local: Readonly<Record<string, unknown>>;
  readonly nodes?: Readonly<Record<string, unknown>>;
  global(fullId: string): { value: unknown } | undefined;
}

const REFERENCE = /\[\[([^\]]+)\]\]/g;
const ONLY_REFERENCE = /^\[\[([^\]]+)\]\]$/;

/** The value a reference names, or `undefined` when nothing has that name (the flow is then broken). */
export function resolveToken(reference: string, scope: TokenScope): { value: unknown } | undefined {
  if (reference.includes('|')) return scope.global(reference);
  if (scope.nodes && reference in scope.nodes) return { value: scope.nodes[reference] };
  const local = reference.startsWith('trigger::') ? reference.slice('trigger::'.length) : reference;
  if (local in scope.local) return { value: scope.local[local] };
  return undefined;
}

/**
 * Replaces token references in an argument. An argument that is exactly one reference takes the token's value
 * with its type (a number stays a number); references inside a longer text are written out as text.
 */
export function substituteTokens(value: unknown, scope: TokenScope): unknown {
  if (typeof value === 'string') {
    const only = ONLY_REFERENCE.exec(value);
    if (only) {
      const found = resolveToken(only[1] as string, scope);
      if (!found) throw invalidParameter('args', `The token ${only[1]} is missing`);
      return found.value;
    }
    return value.replace(REFERENCE, (_match, reference: string) => {
      const found = resolveToken(reference, scope);
      if (!found) throw invalidParameter('args', `The token ${reference} is missing`);
      return found.value === null || found.value === undefined ? '' : String(found.value);
    });
  }
  if (Array.isArray(value)) return value.map((item) => substituteTokens(item, scope));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, substituteTokens(item, scope)]));
  return value;
}

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const DATE = /^(0[1-9]|[12]\d|3[01])-(0[1-9]|1[0-2])-\d{4}$/;
const COLOR = /^#[0-9a-f]{6}$/i;

function fail(name: string, why: string): never {
  throw invalidParameter(`args.${name}`, why);
}

/** One argument checked and brought to its type's form (a numeric text becomes a number, `"true"` a boolean). */
function coerce(definition: FlowCardArgDefinition, value: unknown): unknown {
  const { name } = definition;
  switch (definition.type) {
    case 'number':
    case 'range': {
      const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof number !== 'number' || !Number.isFinite(number)) fail(name, 'Must be a number');
      if (definition.min !== undefined && number < definition.min) fail(name, `Must be at least ${definition.min}`);
      if (definition.max !== undefined && number > definition.max) fail(name, `Must be at most ${definition.max}`);
      return number;
    }
    case 'checkbox':
      if (value === true || value === 'true') return true;
      if (value === false || value === 'false') return false;
      return fail(name, 'Must be true or false');
    case 'dropdown': {
      const id = String(value);
      if (definition.values && !definition.values.some((v) => v.id === id))
        fail(name, `Must be one of ${definition.values.map((v) => v.id).join(', ')}`);
      return id;
    }
    case 'time':
      if (typeof value !== 'string' || !TIME.test(value)) fail(name, 'Must be a time as HH:mm');
      return value;
    case 'date':
      if (typeof value !== 'string' || !DATE.test(value)) fail(name, 'Must be a date as dd-mm-yyyy');
      return value;
    case 'color':
      if (typeof value !== 'string' || !COLOR.test(value)) fail(name, 'Must be a colour as #rrggbb');
      return value;
    case 'autocomplete':
      // The value is the whole object the autocomplete answered, extra fields included.
      if (!value || typeof value !== 'object' || Array.isArray(value)) fail(name, 'Must be one of the suggestions');
      return value;
    case 'device':
      if (typeof value === 'string' && value) return { id: value };
      if (!value || typeof value !== 'object' || typeof (value as { id?: unknown }).id !== 'string')
        fail(name, 'Must be a device');
      return value;
    default:
      // text, code and the types the hub passes through as they are
      return typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
  }
}

/**
 * The arguments a card runs with: token references replaced, then each declared argument checked against its
 * type. A missing argument (other than an optional one) or a wrong one is a 400 naming it; arguments the card
 * does not declare pass unchanged.
 */
export function prepareArgs(
  definitions: readonly FlowCardArgDefinition[] | undefined,
  raw: Readonly<Record<string, unknown>>,
  scope: TokenScope,
): Record<string, unknown> {
  const args = substituteTokens(raw, scope) as Record<string, unknown>;
  for (const definition of definitions ?? []) {
    const value = args[definition.name];
    if (value === undefined || value === null || value === '') {
      if (definition.required === false) continue;
      fail(definition.name, 'Missing argument');
    }
    args[definition.name] = coerce(definition, value);
  }
  return args;
}

/** The token references an argument value holds (to tell whether a flow uses a token that is gone). */
export function tokenReferences(value: unknown, found: string[] = []): string[] {
  if (typeof value === 'string') for (const match of value.matchAll(REFERENCE)) found.push(match[1] as string);
  else if (Array.isArray(value)) for (const item of value) tokenReferences(item, found);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) tokenReferences(item, found);
  return found;
}

/** Milliseconds of a flow's `{number, multiplier}` delay or duration (`null` for none); refuses what is not one. */
export function delayMs(delay: { number: string; multiplier: number } | null | undefined, field: string): number | null {
  if (delay === null || delay === undefined) return null;
  const number = Number(delay.number);
  if (!Number.isFinite(number) || number < 0) throw invalidParameter(`${field}.number`, 'Must be a number of 0 or more');
  const seconds = number * delay.multiplier;
  if (seconds > FLOW_DELAY_MAX_SECONDS)
    throw invalidParameter(`${field}.number`, `Must be at most a year (${FLOW_DELAY_MAX_SECONDS} seconds) in all`);
  return Math.round(seconds * 1000);
}
