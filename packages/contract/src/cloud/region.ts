import { Type } from 'typebox';
import { cloudService } from '../operation';

const op = cloudService('region', '/region');

/** The request header carrying the status secret of `GET /region/api/system/status`. */
export const STATUS_SECRET_HEADER = 'x-hearth-status-secret';

export const CloudRegion = Type.Object({ region: Type.String() });

export const CloudSystemStatus = Type.Object({
  ok: Type.Boolean(),
  region: Type.String(),
  version: Type.String(),
  /** Seconds since this cloud node started. */
  uptime: Type.Number(),
  startedAt: Type.String({ format: 'date-time' }),
  database: Type.Object({ ok: Type.Boolean(), kind: Type.String(), latencyMs: Type.Number() }),
});

export const regionOperations = {
  getRegion: op({
    name: 'getRegion',
    method: 'GET',
    path: '/',
    scope: null,
    auth: false,
    response: CloudRegion,
    summary: 'The region this cloud serves (`HEARTH_REGION`).',
  }),
  getSystemStatus: op({
    name: 'getSystemStatus',
    method: 'GET',
    path: '/api/system/status',
    scope: null,
    auth: false,
    response: CloudSystemStatus,
    errors: ['missing_token', 'forbidden', 'unavailable'],
    summary: `The health of this cloud node (uptime, database) for monitors. Needs the status secret (\`HEARTH_STATUS_SECRET\`) in the \`${STATUS_SECRET_HEADER}\` header instead of a token.`,
  }),
} as const;
