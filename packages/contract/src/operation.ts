import type { Static, TSchema } from 'typebox';
import type { ErrorCode } from './errors';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/** Who serves an operation: a hub manager (under `/api/manager/{manager}`) or a cloud service (under its base). */
export type OperationOwner = { kind: 'hub'; manager: string } | { kind: 'cloud'; service: string; base: string };

/**
 * One operation, declared once. Servers register routes from it; clients derive methods from it;
 * OpenAPI documents are generated from it.
 */
export interface Operation<
  P extends TSchema | undefined = TSchema | undefined,
  Q extends TSchema | undefined = TSchema | undefined,
  B extends TSchema | undefined = TSchema | undefined,
  R extends TSchema | undefined = TSchema | undefined,
> {
  /** The operation's name as the ecosystem's client calls it, e.g. `getZones`. */
  readonly name: string;
  readonly owner: OperationOwner;
  readonly method: HttpMethod;
  /** Path relative to the owner's base, with `:name` parameters, e.g. `/zone/:id`. */
  readonly path: string;
  /** Scope required, or `null` for none. */
  readonly scope: string | null;
  /** `false` for calls that need no authentication at all (ping, login). Defaults to `true`. */
  readonly auth: boolean;
  /** Private (internal) calls are refused to every session that is not internal. */
  readonly private: boolean;
  readonly params: P;
  readonly query: Q;
  readonly body: B;
  /**
   * When set, the whole JSON body is one parameter of this name (`zone`, `flow`, …), not an object of
   * fields: over the socket's `api` event it arrives as `args[bodyRoot]`.
   */
  readonly bodyRoot: string | undefined;
  /**
   * The body's media types when it is not JSON (the OAuth2 token endpoint takes a form), first the one the API
   * reference's "Try it" sends.
   */
  readonly consumes?: readonly string[];
  readonly response: R;
  /** HTTP status of a successful answer (200 unless declared). */
  readonly successStatus: number;
  readonly errors: readonly ErrorCode[];
  readonly summary: string;
  /**
   * More about the operation for the API reference, after its summary. Every operation that asks for no scope
   * says here why a session with any scopes at all may call it.
   */
  readonly description: string;
  readonly deprecated: boolean;
  /**
   * How long a client waits for the answer when that is longer than its usual call timeout (10 s): a devkit run
   * unpacks and starts an app, 300 000 ms in the ecosystem's clients.
   */
  readonly timeoutMs?: number;
  /** An example request and answer the API reference shows (and "Try it" starts from). */
  readonly examples?: OperationExamples;
}

/**
 * A hand-written example call for the API reference: the request's path and query parameters by name, its body (the
 * whole body, also for a `bodyRoot` operation) and the answer. Each part must validate against the operation's own
 * schema for it (checked by `examples.test.ts`).
 */
export interface OperationExamples {
  readonly params?: Readonly<Record<string, unknown>>;
  readonly query?: Readonly<Record<string, unknown>>;
  readonly body?: unknown;
  readonly response?: unknown;
}

export type AnyOperation = Operation<TSchema | undefined, TSchema | undefined, TSchema | undefined, TSchema | undefined>;

type StaticOr<S, Else> = S extends TSchema ? Static<S> : Else;

export type OperationParams<O extends AnyOperation> = StaticOr<O['params'], Record<string, never>>;
export type OperationQuery<O extends AnyOperation> = StaticOr<O['query'], Record<string, never>>;
export type OperationBody<O extends AnyOperation> = StaticOr<O['body'], undefined>;
export type OperationResult<O extends AnyOperation> = StaticOr<O['response'], unknown>;

type Simplify<T> = { [K in keyof T]: T[K] } & {};
type BodyArgs<O extends AnyOperation> = O['body'] extends TSchema
  ? O['bodyRoot'] extends string
    ? { [K in O['bodyRoot']]: Static<O['body']> }
    : Static<O['body']>
  : unknown;

/** The flat argument object a client passes: path parameters, query parameters and body fields by name. */
export type OperationArgs<O extends AnyOperation> = Simplify<
  StaticOr<O['params'], unknown> & StaticOr<O['query'], unknown> & BodyArgs<O>
>;

export interface OperationInput<
  P extends TSchema | undefined = TSchema | undefined,
  Q extends TSchema | undefined = TSchema | undefined,
  B extends TSchema | undefined = TSchema | undefined,
  R extends TSchema | undefined = TSchema | undefined,
  BR extends string | undefined = string | undefined,
> {
  name: string;
  method: HttpMethod;
  path: string;
  scope: string | null;
  auth?: boolean;
  private?: boolean;
  params?: P;
  query?: Q;
  body?: B;
  bodyRoot?: BR;
  consumes?: readonly string[];
  response?: R;
  successStatus?: number;
  errors?: readonly ErrorCode[];
  summary?: string;
  description?: string;
  deprecated?: boolean;
  timeoutMs?: number;
  examples?: OperationExamples;
}

type Field<I, K extends string> = I extends { [P in K]: infer S extends TSchema } ? S : undefined;

type Declared<I extends OperationInput> = Operation<
  Field<I, 'params'>,
  Field<I, 'query'>,
  Field<I, 'body'>,
  Field<I, 'response'>
> & {
  readonly bodyRoot: I extends { bodyRoot: infer R extends string } ? R : undefined;
  readonly auth: I extends { auth: false } ? false : boolean;
};

function declare<const I extends OperationInput>(owner: OperationOwner, input: I): Declared<I> {
  const pathParams = [...input.path.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]);
  const declaredParams = Object.keys((input.params as { properties?: object } | undefined)?.properties ?? {});
  for (const name of pathParams) {
    if (!declaredParams.includes(name as string)) {
      throw new Error(`Operation ${input.name}: path parameter :${name} has no schema in params`);
    }
  }
  return Object.freeze({
    owner,
    auth: true,
    private: false,
    successStatus: 200,
    errors: [],
    summary: '',
    description: '',
    deprecated: false,
    ...input,
    params: input.params,
    query: input.query,
    body: input.body,
    bodyRoot: input.bodyRoot,
    response: input.response,
  }) as unknown as Declared<I>;
}

/** Declares the operations of one hub manager. */
export function hubManager(manager: string) {
  const owner: OperationOwner = { kind: 'hub', manager };
  return <const I extends OperationInput>(input: I) => declare(owner, input);
}

/** Declares the operations of one cloud service mounted under `base`. */
export function cloudService(service: string, base: string) {
  const owner: OperationOwner = { kind: 'cloud', service, base };
  return <const I extends OperationInput>(input: I) => declare(owner, input);
}

/** The full path of an operation on its server, with `:name` parameters. */
export function fullPath(operation: AnyOperation): string {
  const { owner } = operation;
  const base = owner.kind === 'hub' ? `/api/manager/${owner.manager}` : owner.base;
  return `${base}${operation.path}`;
}

/** A stable id, unique across the whole contract: `hub:zones.getZones`, `cloud:cloud.getAuthenticatedUser`. */
export function operationId(operation: AnyOperation): string {
  const { owner } = operation;
  return owner.kind === 'hub' ? `hub:${owner.manager}.${operation.name}` : `cloud:${owner.service}.${operation.name}`;
}

/** The group an operation belongs to on its client: the hub manager or the cloud service. */
export function operationGroup(operation: AnyOperation): string {
  return operation.owner.kind === 'hub' ? operation.owner.manager : operation.owner.service;
}
