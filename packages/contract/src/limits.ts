import { Type } from 'typebox';

/**
 * What every request's input must meet, whatever its operation declares: the rules the servers' validation
 * applies to path parameters, query strings and bodies, so a class of bad input is refused in one place rather
 * than route by route.
 */
export const INPUT_LIMITS = {
  /** Nesting of a whole path, query or body value (a scalar is 0 levels deep, `{}` and `[]` are 1). */
  maxDepth: 32,
  /**
   * Free-form values (an object declared without properties, a value of any type, the undeclared properties of
   * an open object): how deep they nest and how long they are as JSON text, unless their declaration says.
   */
  freeForm: { maxDepth: 16, maxJsonLength: 64 * 1024 },
  /** Integers declared without bounds stay within the range a number holds exactly. */
  integer: { minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER },
} as const;

/** The JSON Schema keywords (beyond the standard ones) that declare a free-form value's limits. */
export interface FreeFormLimits {
  /** Levels the value may nest (a scalar is 0, `{}` and `[]` are 1). */
  maxDepth?: number;
  /** Characters of the value's JSON text. */
  maxJsonLength?: number;
}

/**
 * A free-form object input declared with its own limits, where the defaults of {@link INPUT_LIMITS.freeForm} do
 * not fit (an app's manifest is long).
 */
export const FreeFormObject = (limits: FreeFormLimits) =>
  Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true, ...limits });

/** An app's manifest (`app.json`): as deep as free-form values, but as long as a request body may be. */
export const APP_MANIFEST_LIMITS: FreeFormLimits = { maxDepth: INPUT_LIMITS.freeForm.maxDepth, maxJsonLength: 1024 * 1024 };

/** Whether `value` nests deeper than `limit` levels. Recursion stops at the limit, so any depth is safe to ask. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (limit <= 0) return true;
  for (const child of Object.values(value)) if (nestsDeeperThan(child, limit - 1)) return true;
  return false;
}

/** Whether `value`'s JSON text is longer than `limit` characters (anything nesting past the input limit is). */
export function longerAsJsonThan(value: unknown, limit: number): boolean {
  if (nestsDeeperThan(value, INPUT_LIMITS.maxDepth)) return true;
  return (JSON.stringify(value)?.length ?? 0) > limit;
}

/** One broken rule: where (a JSON pointer into the part) and what, worded as the schema validator words its own. */
export interface InputProblem {
  keyword: 'text' | 'finite' | 'maxDepth';
  instancePath: string;
  params: Record<string, unknown>;
  message: string;
}

/**
 * NUL cannot be stored in PostgreSQL text, and a UTF-16 surrogate without its pair has no UTF-8 form: neither is
 * text any store or mail can carry. With the `u` flag a paired surrogate is one code point, so only lone ones match.
 */
const LONE_SURROGATE = /[\ud800-\udfff]/u;
const isText = (value: string) => !value.includes('\u0000') && !LONE_SURROGATE.test(value);

const pointer = (path: string, key: string) => `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;

/**
 * The first value in `input` that breaks a rule every input meets: text that is not well-formed Unicode or holds
 * NUL (in values and in keys), a number that is not finite (`1e400` parses as Infinity), nesting deeper than
 * {@link INPUT_LIMITS.maxDepth}. `null` when there is none.
 */
export function inputProblem(input: unknown): InputProblem | null {
  const walk = (value: unknown, path: string, depth: number): InputProblem | null => {
    if (typeof value === 'string') {
      if (isText(value)) return null;
      return { keyword: 'text', instancePath: path, params: {}, message: 'must be text without NUL or unpaired surrogates' };
    }
    if (typeof value === 'number') {
      if (Number.isFinite(value)) return null;
      return { keyword: 'finite', instancePath: path, params: {}, message: 'must be a finite number' };
    }
    if (typeof value !== 'object' || value === null) return null;
    if (depth >= INPUT_LIMITS.maxDepth) {
      const limit = INPUT_LIMITS.maxDepth;
      return { keyword: 'maxDepth', instancePath: path, params: { limit }, message: `must not nest deeper than ${limit} levels` };
    }
    for (const [key, child] of Object.entries(value)) {
      const at = pointer(path, key);
      if (!isText(key)) {
        return { keyword: 'text', instancePath: at, params: {}, message: 'must be named without NUL or unpaired surrogates' };
      }
      const problem = walk(child, at, depth + 1);
      if (problem) return problem;
    }
    return null;
  };
  return walk(input, '', 0);
}

type SchemaNode = Record<string, unknown>;

const isNode = (value: unknown): value is SchemaNode => typeof value === 'object' && value !== null && !Array.isArray(value);
const typesOf = (node: SchemaNode): unknown[] =>
  Array.isArray(node.type) ? node.type : node.type === undefined ? [] : [node.type];

/** A schema that takes any value: no type and nothing else that would narrow it. */
const isAnyValue = (node: SchemaNode) =>
  ['type', 'anyOf', 'oneOf', 'allOf', 'not', 'const', 'enum', '$ref', 'properties', 'items'].every(
    (key) => node[key] === undefined,
  );

/** An object without declared properties whose values may be anything (an open `{}` or a record of any value). */
function isFreeFormObject(node: SchemaNode): boolean {
  if (!typesOf(node).includes('object')) return false;
  if (isNode(node.properties) && Object.keys(node.properties).length > 0) return false;
  const patterns = isNode(node.patternProperties) ? Object.values(node.patternProperties) : [];
  if (patterns.length > 0) return patterns.some((value) => isNode(value) && isAnyValue(value));
  return (
    node.additionalProperties === undefined ||
    node.additionalProperties === true ||
    (isNode(node.additionalProperties) && isAnyValue(node.additionalProperties))
  );
}

const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs'];
const SUBSCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
const SUBSCHEMAS = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'propertyNames', 'contains'];

function withLimits(node: unknown): unknown {
  if (!isNode(node)) return node;
  const limited: SchemaNode = {};
  for (const [key, value] of Object.entries(node)) {
    if (SUBSCHEMA_MAPS.includes(key) && isNode(value)) {
      limited[key] = Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, withLimits(schema)]));
    } else if (SUBSCHEMA_LISTS.includes(key) && Array.isArray(value)) limited[key] = value.map(withLimits);
    else if (SUBSCHEMAS.includes(key)) limited[key] = withLimits(value);
    else limited[key] = value;
  }
  if (isAnyValue(limited) || isFreeFormObject(limited)) {
    limited.maxDepth ??= INPUT_LIMITS.freeForm.maxDepth;
    limited.maxJsonLength ??= INPUT_LIMITS.freeForm.maxJsonLength;
  } else if (
    typesOf(limited).includes('object') &&
    limited.patternProperties === undefined &&
    (limited.additionalProperties ?? true) === true
  ) {
    // An open object with declared properties: what it does not declare is free-form.
    limited.additionalProperties = { ...INPUT_LIMITS.freeForm };
  }
  if (typesOf(limited).includes('integer')) {
    if (limited.minimum === undefined && limited.exclusiveMinimum === undefined) limited.minimum = INPUT_LIMITS.integer.minimum;
    if (limited.maximum === undefined && limited.exclusiveMaximum === undefined) limited.maximum = INPUT_LIMITS.integer.maximum;
  }
  return limited;
}

const limitedSchemas = new WeakMap<object, SchemaNode>();

/**
 * `schema` as the server validates (and documents) an input: free-form values get the default depth and length
 * limits of {@link INPUT_LIMITS.freeForm} unless they declare their own, and unbounded integers the safe range.
 */
export function inputSchema<S extends object>(schema: S): SchemaNode {
  let limited = limitedSchemas.get(schema);
  if (!limited) {
    limited = withLimits(schema) as SchemaNode;
    limitedSchemas.set(schema, limited);
  }
  return limited;
}
