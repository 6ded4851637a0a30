import { Type } from 'typebox';
import { cloudService } from '../operation';

const op = cloudService('icons', '/icons');

/** The icon service's limits (seed section 9: icon default size 32). */
export const ICONS_LIMITS = {
  defaultSize: 32,
  minSize: 8,
  maxSize: 1024,
  /** Largest SVG document accepted, uploaded or fetched, in bytes. */
  maxSvgBytes: 100 * 1024,
  maxUrlLength: 2000,
  /** How long fetching an icon from a `url` may take. */
  fetchTimeoutMs: 5000,
} as const;

export const IconCreated = Type.Object({
  _id: Type.String(),
  id: Type.String(),
  /** Where the icon is served (`GET /icons/icon/{iconId}`). */
  url: Type.String(),
});

export const iconsOperations = {
  getIcon: op({
    name: 'getIcon',
    method: 'GET',
    path: '/icon/:iconId',
    scope: null,
    auth: false,
    params: Type.Object({ iconId: Type.String({ minLength: 1, maxLength: 100 }) }),
    query: Type.Object({
      size: Type.Optional(
        Type.Integer({ minimum: ICONS_LIMITS.minSize, maximum: ICONS_LIMITS.maxSize, default: ICONS_LIMITS.defaultSize }),
      ),
    }),
    errors: ['not_found', 'invalid_parameter'],
    summary: `A stored icon as SVG (\`image/svg+xml\`), \`size\` pixels wide and high (${ICONS_LIMITS.minSize}–${ICONS_LIMITS.maxSize}, default ${ICONS_LIMITS.defaultSize}).`,
  }),
  createIcon: op({
    name: 'createIcon',
    method: 'POST',
    path: '/icon',
    scope: null,
    query: Type.Object({
      url: Type.Optional(
        Type.String({ minLength: 1, maxLength: ICONS_LIMITS.maxUrlLength, pattern: '^[hH][tT][tT][pP][sS]?://' }),
      ),
    }),
    body: Type.Object({ svg: Type.Optional(Type.String({ minLength: 1, maxLength: ICONS_LIMITS.maxSvgBytes })) }),
    response: IconCreated,
    successStatus: 201,
    errors: ['invalid_parameter', 'missing_parameter', 'payload_too_large', 'forbidden'],
    summary:
      'Stores an SVG icon, given as the `svg` field of the body or fetched from the http(s) address in the `url` query (at most 100 KB, within 5 s). The SVG must be well-formed and carry no scripts, event handlers, foreign content or outside references. The same icon stored twice keeps one id.',
  }),
} as const;
