import { generateKeyPairSync, X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Server as HttpServer } from 'node:http';
import { createServer } from 'node:https';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { cloudOperations } from '@hearth/contract';
import { hubSecret } from '@hearth/contract/hub-secret';
import type { HubConfig } from '../config';
import type { CloudLink } from './client';

/** A certificate with less than this left is renewed at start: the CA signs for 90 days. */
const RENEW_BEFORE_MS = 30 * 86_400_000;

/** The key, certificate and CA certificate of the hub's secure address, kept in `<dataDir>/<hub id>.tls/`. */
export interface HubTls {
  key: string;
  certificate: string;
  ca: string;
}

const tlsDirectory = (config: Pick<HubConfig, 'dataDir' | 'id'>) => join(config.dataDir, `${config.id}.tls`);

/** The address the certificate is for: the host the hub listens on, loopback for "every interface". */
export function secureHost(config: Pick<HubConfig, 'host'>): string {
  return config.host === '0.0.0.0' || config.host === '::' || config.host === '' ? '127.0.0.1' : config.host;
}

/** A certificate kept from before, if it is for `host` and not close to its end. */
function keptCertificate(directory: string, host: string, now: number): HubTls | null {
  const files = ['key.pem', 'certificate.pem', 'ca.pem'].map((name) => join(directory, name));
  if (!files.every((file) => existsSync(file))) return null;
  const [key, certificate, ca] = files.map((file) => readFileSync(file, 'utf8')) as [string, string, string];
  try {
    const x509 = new X509Certificate(certificate);
    const covers = isIP(host) ? x509.checkIP(host) !== undefined : x509.checkHost(host) !== undefined;
    if (!covers || Date.parse(x509.validTo) - now < RENEW_BEFORE_MS) return null;
    return { key, certificate, ca };
  } catch {
    return null;
  }
}

/**
 * The hub's TLS certificate for its local secure address, signed by the cloud's CA (`GET /certificate/homey`): a
 * request made with the hub's own key (which never leaves the hub), for the address it listens on. A certificate
 * kept from before is used until 30 days before its end.
 */
export async function obtainCertificate(config: HubConfig, link: CloudLink, now = Date.now()): Promise<HubTls> {
  const { cloudClientSecret, id } = config;
  if (!cloudClientSecret) throw new Error('A hub gets its certificate from its cloud: it has no cloud secret');
  const directory = tlsDirectory(config);
  const host = secureHost(config);
  const kept = keptCertificate(directory, host, now);
  if (kept) return kept;
  // Node makes the key (fast, native); forge writes the PKCS#10 request Node has no API for. Loaded only here:
  // it is large, and a hub asks for a certificate once in 60 days.
  const { default: forge } = await import('node-forge');
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const csr = forge.pki.createCertificationRequest();
  csr.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  csr.setSubject([{ name: 'commonName', value: id }]);
  const altNames = isIP(host) ? [{ type: 7, ip: host }] : [{ type: 2, value: host }];
  csr.setAttributes([{ name: 'extensionRequest', extensions: [{ name: 'subjectAltName', altNames }] }]);
  csr.sign(forge.pki.privateKeyFromPem(key), forge.md.sha256.create());
  const signed = await link.call(cloudOperations.certificate.getCertificate, {
    secret: hubSecret(cloudClientSecret, id),
    csr: forge.pki.certificationRequestToPem(csr),
  });
  mkdirSync(directory, { recursive: true, mode: 0o700 });
  writeFileSync(join(directory, 'key.pem'), key, { mode: 0o600 });
  writeFileSync(join(directory, 'certificate.pem'), signed.certificate);
  writeFileSync(join(directory, 'ca.pem'), signed.ca);
  return { key, certificate: signed.certificate, ca: signed.ca };
}

/**
 * Serves the hub's HTTP server over TLS on a second port: each request and upgrade is handed to the HTTP server's
 * own listeners (the API and the realtime socket alike), so both ports serve the same hub, and a request's address
 * stays the caller's.
 */
export async function serveSecure(http: HttpServer, tls: HubTls, host: string, port: number) {
  const server = createServer({ key: tls.key, cert: tls.certificate });
  server.on('request', (request, response) => http.emit('request', request, response));
  server.on('upgrade', (request, socket, head) => http.emit('upgrade', request, socket, head));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  return {
    server,
    port: bound,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
