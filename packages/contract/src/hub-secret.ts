import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A hub's secret for the cloud calls that take one in the query (`secret`, as the wire has it: backups). The
 * provider's hubs hold the internal client's secret; each sends a secret derived from it and its own id, so the
 * internal secret itself never travels in a URL (where logs and proxies keep it) and a leaked hub secret speaks
 * for that one hub only. It names the hub: `<hub id>.<HMAC-SHA256 of the id, base64url>`. Node only (the hub and
 * the cloud), never the client library.
 */
export function hubSecret(internalSecret: string, hubId: string): string {
  return `${hubId}.${mac(internalSecret, hubId)}`;
}

/** The hub a secret names, when it is one `internalSecret` made; `null` otherwise. */
export function hubOfSecret(internalSecret: string, secret: string): string | null {
  const dot = secret.indexOf('.');
  if (dot <= 0) return null;
  const hubId = secret.slice(0, dot);
  const given = Buffer.from(secret.slice(dot + 1));
  const expected = Buffer.from(mac(internalSecret, hubId));
  return given.length === expected.length && timingSafeEqual(given, expected) ? hubId : null;
}

const mac = (key: string, hubId: string) => createHmac('sha256', key).update(`hearth-hub-secret:${hubId}`).digest('base64url');

/**
 * Signs a webhook delivery's JSON text for the hub it goes to, keyed with that hub's secret: the value of the
 * `x-hearth-signature` header, `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<text>">`.
 */
export function signWebhookDelivery(hubSecretValue: string, text: string, unixSeconds: number): string {
  return `t=${unixSeconds},v1=${createHmac('sha256', hubSecretValue).update(`${unixSeconds}.${text}`).digest('hex')}`;
}

/**
 * Whether `header` signs `text` with the hub's secret, no longer ago than `maxAgeSeconds` (nor that far ahead, for
 * clocks apart): a forged, altered or replayed-later delivery is refused.
 */
export function verifyWebhookDelivery(
  hubSecretValue: string,
  text: string,
  header: string,
  nowSeconds: number,
  maxAgeSeconds: number,
): boolean {
  const match = /^t=(\d{1,12}),v1=([0-9a-f]{64})$/.exec(header);
  if (!match) return false;
  const t = Number(match[1]);
  if (Math.abs(nowSeconds - t) > maxAgeSeconds) return false;
  const expected = Buffer.from(signWebhookDelivery(hubSecretValue, text, t));
  const given = Buffer.from(header);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Where a hub answers the cloud's proof that it serves an origin: `GET <origin>${ORIGIN_PROOF_PATH}?nonce=…`. */
export const ORIGIN_PROOF_PATH = '/.well-known/hearth-origin-proof';

/**
 * A hub's answer to the cloud's origin check: the HMAC-SHA256 (base64url), keyed with the hub's secret, of the
 * cloud's fresh nonce and the hub's id. Only the hub (and the cloud, which derives every hub's secret) can make
 * it, so an origin that answers it is served by that hub, or by someone the hub's secret was given to.
 */
export function originProof(hubSecretValue: string, hubId: string, nonce: string): string {
  return createHmac('sha256', hubSecretValue).update(`hearth-origin-proof:${hubId}:${nonce}`).digest('base64url');
}

/** Whether `proof` is the hub's answer to `nonce` (see {@link originProof}). */
export function verifyOriginProof(hubSecretValue: string, hubId: string, nonce: string, proof: string): boolean {
  const given = Buffer.from(proof);
  const expected = Buffer.from(originProof(hubSecretValue, hubId, nonce));
  return given.length === expected.length && timingSafeEqual(given, expected);
}
