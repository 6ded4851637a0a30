import { type Static, type TObject, type TSchema, Type } from 'typebox';
import type { ErrorCode } from '../errors';
import type { hubManager, Operation } from '../operation';

type Declare = ReturnType<typeof hubManager>;

/** How one `/option/<name>` setting of a manager is declared: the value's schema and the scopes to read and write it. */
export interface OptionSpec<V extends TSchema = TSchema> {
  readonly value: V;
  readonly read: string | null;
  readonly write: string | null;
  readonly description?: string;
}

type OptionOps<N extends string, V extends TSchema> = {
  [K in `getOption${Capitalize<N>}`]: Operation<undefined, undefined, undefined, TObject<{ value: V }>>;
} & {
  [K in `setOption${Capitalize<N>}`]: Operation<undefined, undefined, TObject<{ value: V }>, TObject<{ value: V }>>;
} & {
  [K in `unsetOption${Capitalize<N>}`]: Operation<undefined, undefined, undefined, undefined>;
};

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

/** The operations of every option in `specs`, flattened into one group: `getOptionX`, `setOptionX`, `unsetOptionX`. */
export type OptionOperations<S extends Record<string, OptionSpec>> = UnionToIntersection<
  { [N in keyof S & string]: OptionOps<N, S[N]['value']> }[keyof S & string]
>;

const capitalize = (name: string): string => `${name.charAt(0).toUpperCase()}${name.slice(1)}`;

/**
 * Declares `GET`, `PUT` and `DELETE /option/<name>` for each option of a manager. `GET` answers `{value}`
 * (the stored value or the hub's default), `PUT` takes `{value}` validated against the option's schema and
 * answers the stored `{value}`, `DELETE` restores the default.
 */
export function declareOptions<const S extends Record<string, OptionSpec>>(op: Declare, specs: S): OptionOperations<S> {
  const group: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(specs)) {
    const Value = Type.Object({ value: spec.value });
    const title = capitalize(name);
    group[`getOption${title}`] = op({
      name: `getOption${title}`,
      method: 'GET',
      path: `/option/${name}`,
      scope: spec.read,
      response: Value,
      summary: spec.description ?? `The ${name} option.`,
    });
    group[`setOption${title}`] = op({
      name: `setOption${title}`,
      method: 'PUT',
      path: `/option/${name}`,
      scope: spec.write,
      body: Value,
      response: Value,
      summary: `Sets the ${name} option.`,
    });
    group[`unsetOption${title}`] = op({
      name: `unsetOption${title}`,
      method: 'DELETE',
      path: `/option/${name}`,
      scope: spec.write,
      summary: `Restores the ${name} option to its default.`,
    });
  }
  return group as OptionOperations<S>;
}

/** `GET /state` of a manager (newer description): the manager's current state as one open object. */
export const declareState = (op: Declare, scope = 'homey.system.readonly') =>
  op({
    name: 'getState',
    method: 'GET',
    path: '/state',
    scope,
    response: Type.Object({}, { additionalProperties: true }),
    summary: "The manager's state.",
  });

/**
 * `POST /command` of a radio manager (zwave, zigbee, ble): a named command with its options. `radio` names the
 * radio in the summary, e.g. `the Zigbee coordinator`.
 */
export const declareRadioCommand = (op: Declare, radio: string, real?: { summary: string; errors: readonly ErrorCode[] }) =>
  op({
    name: 'runCommand',
    summary: real?.summary ?? `Runs a named command of ${radio} (simulated) with its options; answers what the command answers.`,
    ...(real ? { errors: real.errors } : {}),
    method: 'POST',
    path: '/command',
    scope: 'homey.system',
    body: Type.Object({
      command: Type.String({ minLength: 1, maxLength: 100 }),
      opts: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    }),
    response: Type.Unknown(),
  });

/**
 * A value of `schema` or `null`, as one JSON-Schema type list rather than an `anyOf`: a wrong value is then
 * reported against the field itself ("Expected: object,null"), not against the `null` branch.
 */
export function Nullable<T extends TSchema>(schema: T) {
  const { type, ...rest } = schema as unknown as { type: string };
  return Type.Unsafe<Static<T> | null>({ ...rest, type: [type, 'null'] });
}

/** An open JSON object (entities whose fields vary): serialized as-is. */
export const OpenObject = Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true });

/** The uuid pattern ids and map keys follow (seed section 5). */
export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

/**
 * A map whose keys are uuids (seed section 5: card, widget and line map keys; a mood's devices). The rule is part
 * of the schema, so the API reference shows it and validation names the offending key (`cards.<key>`).
 */
export const UuidKeyed = <T extends TSchema>(value: T) =>
  Type.Record(Type.String(), value, { propertyNames: { pattern: UUID_PATTERN } });

export const IdParams = Type.Object({ id: Type.String({ minLength: 1 }) });
export const UuidParams = Type.Object({ id: Type.String({ pattern: UUID_PATTERN }) });

/** A list answer: a map of id to item. */
export const ItemMap = Type.Record(Type.String(), OpenObject);
