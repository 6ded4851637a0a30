import { X509Certificate } from 'node:crypto';
import { HearthError } from '@hearth/contract';
import { compactVerify, decodeProtectedHeader } from 'jose';

/** What an app store signs about one transaction (the fields of a StoreKit 2 signed transaction). */
export interface ReceiptPayload {
  transactionId: string;
  productId: string;
  bundleId: string;
  /** Milliseconds since the epoch. */
  purchaseDate: number;
  /** When a subscription period ends, in milliseconds; absent for one-time purchases. */
  expiresDate?: number;
}

const ALGORITHMS = ['ES256', 'ES384', 'RS256', 'PS256'];
const refused = (why: string) => new HearthError('invalid_grant', `The receipt is refused: ${why}`);

function parseChain(x5c: unknown): X509Certificate[] {
  if (!Array.isArray(x5c) || x5c.length < 1 || x5c.length > 4) throw refused('its header carries no certificate chain');
  try {
    return x5c.map((der) => new X509Certificate(Buffer.from(String(der), 'base64')));
  } catch {
    throw refused('a certificate of its chain cannot be read');
  }
}

const validAt = (certificate: X509Certificate, now: number) =>
  Date.parse(certificate.validFrom) <= now && now <= Date.parse(certificate.validTo);

/**
 * Verifies a signed receipt: the JWS header's chain must lead, certificate by certificate (each issued and signed
 * by the next, every issuer a CA, all valid today), to the configured root; the JWS must be signed by the chain's
 * first certificate; and the payload must name a transaction, product and app. Anything else is refused.
 */
export async function verifyReceipt(jws: string, rootPem: string | null | undefined, now: number): Promise<ReceiptPayload> {
  if (!rootPem)
    throw new HearthError('unavailable', 'No receipt root certificate is configured on this cloud (HEARTH_STORE_RECEIPT_ROOT)');
  const root = new X509Certificate(rootPem);
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(jws);
  } catch {
    throw refused('it is not a signed receipt');
  }
  if (!header.alg || !ALGORITHMS.includes(header.alg)) throw refused(`its algorithm ${String(header.alg)} is not accepted`);
  const chain = parseChain(header.x5c);
  // The store may include the root itself at the end; it is trusted only as the configured one.
  const last = chain[chain.length - 1] as X509Certificate;
  if (chain.length > 1 && last.fingerprint256 === root.fingerprint256) chain.pop();
  if (!validAt(root, now)) throw refused('the root certificate is not valid today');
  for (const [index, certificate] of chain.entries()) {
    const issuer = chain[index + 1] ?? root;
    if (!certificate.checkIssued(issuer) || !certificate.verify(issuer.publicKey))
      throw refused('its certificate chain does not lead to the trusted root');
    if (!issuer.ca) throw refused('a certificate of its chain was issued by one that is no authority');
    if (!validAt(certificate, now)) throw refused('a certificate of its chain has expired or is not valid yet');
  }
  if ((chain[0] as X509Certificate).ca) throw refused('it is signed by an authority’s certificate, not a signing one');
  let payload: Partial<ReceiptPayload>;
  try {
    const verified = await compactVerify(jws, (chain[0] as X509Certificate).publicKey, { algorithms: [header.alg] });
    payload = JSON.parse(new TextDecoder().decode(verified.payload));
  } catch {
    throw refused('its signature does not match its content');
  }
  if (
    typeof payload.transactionId !== 'string' ||
    payload.transactionId === '' ||
    typeof payload.productId !== 'string' ||
    typeof payload.bundleId !== 'string' ||
    typeof payload.purchaseDate !== 'number' ||
    (payload.expiresDate !== undefined && typeof payload.expiresDate !== 'number')
  )
    throw refused('it lacks the transaction, product, app or dates');
  return payload as ReceiptPayload;
}
