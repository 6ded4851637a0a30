import cors from '@fastify/cors';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { INPUT_LIMITS } from '../limits';
import { installErrorHandling, sendClientError, sendError } from './errors';
import { RATE_LIMIT_HEADERS } from './limits/headers';
import { installMetrics } from './metrics';
import { type ReferenceOptions, registerReference } from './reference';
import { requestIdGenerator } from './request-id';
import { freeFormKeywords, lazyCheck, withInputRules } from './validation';

export interface ApiServerOptions {
  /** Shown as the API reference's title, e.g. `Hearth hub`. */
  title: string;
  version: string;
  description: string;
  logger?: FastifyServerOptions['logger'];
  /** Largest accepted request body in bytes (default 1 MiB). */
  bodyLimit?: number;
  /** Prefix of the Prometheus metric names, e.g. `hearth_hub`. */
  metricsPrefix?: string;
  /** Response headers browsers may read (CORS), besides the rate-limit fields. */
  exposedHeaders?: string[];
  /**
   * The token that lets a scraper elsewhere read `/metrics` (`HEARTH_METRICS_TOKEN`); without it only direct
   * requests from loopback are served.
   */
  metricsToken?: string | null;
  /**
   * Which proxies' `X-Forwarded-For` names the client (Fastify's `trustProxy`: `true` for any, or addresses and
   * CIDR ranges). Per-address limits count the address found; without it they count the proxy's.
   */
  trustProxy?: boolean | string | string[];
  /** How the API reference at `/docs` presents itself (by default titled after `title`). */
  reference?: Omit<ReferenceOptions, 'title'> & { title?: string };
}

const { freeForm } = INPUT_LIMITS;
/** What the reference says about the rules every input meets (see `INPUT_LIMITS`). */
const INPUT_RULES =
  'Every path parameter, query and body is refused with 400 `invalid_parameter` naming the field when text holds a NUL ' +
  'character or a UTF-16 surrogate without its pair, when a number is not finite (`1e400`), or when it nests deeper ' +
  `than ${INPUT_LIMITS.maxDepth} levels. Integers declared without bounds stay within ±${Number.MAX_SAFE_INTEGER}. ` +
  'Free-form values (objects without declared fields, values of any type, the undeclared fields of an open object) ' +
  `nest at most \`maxDepth\` levels and are at most \`maxJsonLength\` characters as JSON: ${freeForm.maxDepth} and ` +
  `${freeForm.maxJsonLength} unless the schema says otherwise.`;

function createValidators() {
  // Path and query values arrive as strings and are coerced to their declared types; JSON bodies keep their
  // own types, so `"5"` sent for a number is a wrong type and answered 400, not silently converted.
  const options = { strict: false, useDefaults: true, allErrors: false } as const;
  const coercing = addFormats(new Ajv({ ...options, coerceTypes: 'array', keywords: freeFormKeywords }));
  const exact = addFormats(new Ajv({ ...options, coerceTypes: false, keywords: freeFormKeywords }));
  return { coercing, exact };
}

/**
 * A Fastify instance with what every Hearth server shares: the uniform error body, schema validation,
 * CORS for browser clients, and the OpenAPI 3.1 document (`/openapi.json`) with a browsable reference
 * (`/docs`) generated from the registered operations, and Prometheus metrics at `/metrics` (for loopback, or with the metrics token).
 */
export async function createApiServer(options: ApiServerOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    ...(options.trustProxy ? { trustProxy: options.trustProxy } : {}),
    genReqId: requestIdGenerator(options.trustProxy),
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 500 },
    // Refusals made before any route runs (a path that does not decode, a parameter over the limit above, a URL
    // over Node's header limit) answer the same uniform body as every other error.
    frameworkErrors: sendError,
    clientErrorHandler: sendClientError,
  });
  const { coercing, exact } = createValidators();
  // Compiled on a route's first request: a server declares hundreds of operations and most are never called, so
  // compiling them all at start held their generated code for nothing.
  app.setValidatorCompiler(({ schema, httpPart }) =>
    lazyCheck(() => withInputRules((httpPart === 'body' ? exact : coercing).compile(schema))),
  );
  installErrorHandling(app);
  // The id the logs name a request by, so a person or client reporting a failure can quote it.
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  await app.register(cors, {
    origin: true,
    credentials: false,
    allowedHeaders: ['Authorization', 'Content-Type', 'X-Homey-ID', 'Idempotency-Key'],
    exposedHeaders: [...RATE_LIMIT_HEADERS, 'X-Request-Id', ...(options.exposedHeaders ?? [])],
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
  });
  await registerReference(
    app,
    { title: options.title, version: options.version, description: `${options.description}\n\n${INPUT_RULES}` },
    { title: `${options.title} API reference`, ...options.reference },
  );
  installMetrics(app, options.metricsPrefix ?? 'hearth', { token: options.metricsToken ?? null });
  return app;
}
