import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { installErrorHandling, sendClientError, sendError } from './errors';
import { installMetrics } from './metrics';

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
  /** Response headers browsers may read (CORS). */
  exposedHeaders?: string[];
}

function createValidators() {
  // Path and query values arrive as strings and are coerced to their declared types; JSON bodies keep their
  // own types, so `"5"` sent for a number is a wrong type and answered 400, not silently converted.
  const options = { strict: false, useDefaults: true, allErrors: false } as const;
  const coercing = addFormats(new Ajv({ ...options, coerceTypes: 'array' }));
  const exact = addFormats(new Ajv({ ...options, coerceTypes: false }));
  return { coercing, exact };
}

/**
 * A Fastify instance with what every Hearth server shares: the uniform error body, schema validation,
 * CORS for browser clients, and the OpenAPI 3.1 document (`/openapi.json`) with a browsable reference
 * (`/docs`) generated from the registered operations, and Prometheus metrics at `/metrics`.
 */
export async function createApiServer(options: ApiServerOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 500 },
    // Refusals made before any route runs (a path that does not decode, a parameter over the limit above, a URL
    // over Node's header limit) answer the same uniform body as every other error.
    frameworkErrors: sendError,
    clientErrorHandler: sendClientError,
  });
  const { coercing, exact } = createValidators();
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? exact : coercing).compile(schema));
  installErrorHandling(app);
  await app.register(cors, {
    origin: true,
    credentials: false,
    allowedHeaders: ['Authorization', 'Content-Type', 'X-Homey-ID', 'Idempotency-Key'],
    exposedHeaders: options.exposedHeaders ?? [],
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: options.title, version: options.version, description: options.description },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'none', deepLinking: true } });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  installMetrics(app, options.metricsPrefix ?? 'hearth');
  return app;
}
