import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { logoSvg, pageScript, pageStyle, searchPlugin } from './browser';

/** How a server's API reference at `/docs` presents itself. */
export interface ReferenceOptions {
  /** The page's title and banner, e.g. `Hearth cloud API reference`. */
  title: string;
  /** A line above the operations: where a token for "Authorize" comes from. */
  hint?: string;
  /**
   * The OAuth2 sign-in "Authorize" offers besides a pasted Bearer token: the authorization code with PKCE of a
   * public client whose redirect address is this reference's `/docs/static/oauth2-redirect.html`.
   */
  oauth?: { clientId: string; authorizationUrl: string; tokenUrl: string };
  /** What each operation group (hub manager, cloud service) is, shown under its name. */
  groups?: Readonly<Record<string, string>>;
}

interface OpenApiOperation {
  tags?: string[];
  security?: Record<string, string[]>[];
}

/** Where Swagger UI's own files are: the package that serves them ships them in its `static` folder. */
const swaggerUiFiles = join(dirname(createRequire(import.meta.url).resolve('@fastify/swagger-ui/package.json')), 'static');

/**
 * Swagger UI's large files, compressed once on first request and kept: 1.9 MB of JavaScript is about 0.5 MB as
 * brotli. (The package serves them uncompressed; they are the same for every request, so this is a cache of
 * immutable content, not per-process state that matters across nodes.)
 */
function serveCompressed(app: FastifyInstance, prefix: string): void {
  const files: Record<string, string> = {
    'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
    'swagger-ui-standalone-preset.js': 'application/javascript; charset=utf-8',
    'swagger-ui.css': 'text/css; charset=utf-8',
  };
  const cache = new Map<string, Buffer>();
  const load = (name: string, encoding: 'br' | 'gzip' | 'identity'): Buffer => {
    const key = `${name}:${encoding}`;
    let data = cache.get(key);
    if (!data) {
      const raw = readFileSync(join(swaggerUiFiles, name));
      data =
        encoding === 'br'
          ? brotliCompressSync(raw, {
              params: { [constants.BROTLI_PARAM_QUALITY]: 6, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
            })
          : encoding === 'gzip'
            ? gzipSync(raw, { level: 9 })
            : raw;
      cache.set(key, data);
    }
    return data;
  };
  for (const [name, type] of Object.entries(files)) {
    app.get(`${prefix}/static/${name}`, { schema: { hide: true } }, async (request: FastifyRequest, reply: FastifyReply) => {
      const accepted = String(request.headers['accept-encoding'] ?? '');
      const encoding = /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : 'identity';
      reply.header('content-type', type).header('cache-control', 'public, max-age=86400').header('vary', 'accept-encoding');
      if (encoding !== 'identity') reply.header('content-encoding', encoding);
      return reply.send(load(name, encoding));
    });
  }
}

/**
 * The OpenAPI 3.1 document (`/openapi.json`) and the reference page at `/docs`: Swagger UI in its base layout
 * under a Hearth banner (no framework top bar), with a search over operations, the groups described, and OAuth2
 * sign-in when offered.
 */
export async function registerReference(
  app: FastifyInstance,
  info: { title: string; version: string; description: string },
  options: ReferenceOptions,
): Promise<void> {
  const groups = options.groups ?? {};
  const oauth = options.oauth;
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info,
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          ...(oauth
            ? {
                oauth2: {
                  type: 'oauth2',
                  description: 'Sign in with a Hearth account (authorization code with PKCE).',
                  flows: {
                    authorizationCode: { authorizationUrl: oauth.authorizationUrl, tokenUrl: oauth.tokenUrl, scopes: {} },
                  },
                },
              }
            : {}),
        },
      },
    },
    transformObject: (documentObject) => {
      const document = (documentObject as { openapiObject: Record<string, unknown> }).openapiObject;
      const used = new Set<string>();
      const paths = (document.paths ?? {}) as Record<string, Record<string, OpenApiOperation>>;
      for (const item of Object.values(paths)) {
        for (const operation of Object.values(item)) {
          for (const tag of operation.tags ?? []) used.add(tag);
          // Every call that takes a Bearer token also takes the one the OAuth2 sign-in gives.
          if (oauth && operation.security?.some((s) => 'bearer' in s))
            operation.security = [...operation.security, { oauth2: [] }];
        }
      }
      document.tags = [...used].sort().map((name) => ({ name, ...(groups[name] ? { description: groups[name] } : {}) }));
      return document;
    },
  });
  const prefix = '/docs';
  serveCompressed(app, prefix);
  const logo = `data:image/svg+xml;base64,${Buffer.from(logoSvg).toString('base64')}`;
  await app.register(swaggerUi, {
    routePrefix: prefix,
    theme: {
      title: options.title,
      favicon: [{ filename: 'favicon.svg', rel: 'icon', sizes: 'any', type: 'image/svg+xml', content: Buffer.from(logoSvg) }],
      css: [{ filename: 'hearth.css', content: pageStyle }],
      js: [{ filename: 'hearth.js', content: pageScript({ title: options.title, logo, hint: options.hint ?? '' }) }],
    },
    uiConfig: {
      layout: 'BaseLayout',
      docExpansion: 'none',
      // Without deep links: they put a link inside each operation's toggle button (axe nested-interactive).
      deepLinking: false,
      filter: true,
      defaultModelsExpandDepth: -1,
      displayRequestDuration: true,
      persistAuthorization: true,
      // Swagger UI's initializer writes functions by their source text; these run in the page. Only the API
      // preset: the stand-alone one adds the framework's top bar.
      presets: [new Function('return function ApisPreset() { return SwaggerUIBundle.presets.apis(); }')()],
      plugins: [
        new Function(`return function DownloadUrl(system) { return SwaggerUIBundle.plugins.DownloadUrl(system); }`)(),
        new Function(`return ${searchPlugin}`)(),
      ],
    },
    // The page reads the document labelled OpenAPI 3.0: Swagger UI resolves a 3.1 document through ApiDOM, which
    // kept the page busy for seconds after it appeared (4 s of long tasks against 0.9 s here). The schemas are the
    // same; `/openapi.json` stays 3.1 for tools.
    transformSpecificationClone: true,
    transformSpecification: (document) => ({ ...document, openapi: '3.0.3' }),
    ...(oauth ? { initOAuth: { clientId: oauth.clientId, usePkceWithAuthorizationCodeGrant: true } } : {}),
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
