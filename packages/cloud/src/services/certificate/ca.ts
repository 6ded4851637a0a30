import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import { CERTIFICATE_LIMITS, invalidParameter } from '@hearth/contract';
import forge from 'node-forge';
import type { CloudContext } from '../../platform/context';

const CA_ID = 'current';
const CA_LIFETIME_YEARS = 10;
/** Names a hub certificate may carry: its addresses and a few DNS names, no wildcards. */
const MAX_NAMES = 8;
const DNS_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/i;

export interface CertificateAuthority {
  certificatePem: string;
  certificate: forge.pki.Certificate;
  privateKey: forge.pki.rsa.PrivateKey;
}

const serial = () => `01${randomBytes(15).toString('hex')}`;

function createAuthority(name: string, now: number) {
  // forge uses Node's native key generation here.
  const keys = forge.pki.rsa.generateKeyPair(2048);
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = keys.publicKey;
  certificate.serialNumber = serial();
  certificate.validity.notBefore = new Date(now - 60_000);
  certificate.validity.notAfter = new Date(now + CA_LIFETIME_YEARS * 365 * 86_400_000);
  const subject = [
    { name: 'commonName', value: name },
    { name: 'organizationName', value: 'Hearth' },
  ];
  certificate.setSubject(subject);
  certificate.setIssuer(subject);
  certificate.setExtensions([
    { name: 'basicConstraints', cA: true, pathLenConstraint: 0, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  certificate.sign(keys.privateKey, forge.md.sha256.create());
  return {
    certificate_pem: forge.pki.certificateToPem(certificate),
    private_key_pem: forge.pki.privateKeyToPem(keys.privateKey),
  };
}

/** The cloud's CA: made on first start, stored, and the same for every node. */
export async function loadCertificateAuthority(context: CloudContext): Promise<CertificateAuthority> {
  const { db } = context.database;
  let row = await db.selectFrom('certificate_authority').selectAll().where('id', '=', CA_ID).executeTakeFirst();
  if (!row) {
    await db
      .insertInto('certificate_authority')
      .values({
        id: CA_ID,
        ...createAuthority(`Hearth local CA (${new URL(context.config.publicUrl).host})`, context.clock.now()),
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
    row = await db.selectFrom('certificate_authority').selectAll().where('id', '=', CA_ID).executeTakeFirstOrThrow();
  }
  return {
    certificatePem: row.certificate_pem,
    certificate: forge.pki.certificateFromPem(row.certificate_pem),
    privateKey: forge.pki.privateKeyFromPem(row.private_key_pem) as forge.pki.rsa.PrivateKey,
  };
}

/** The names a request asks for: the IP addresses and DNS names of its subjectAltName extension. */
function requestedNames(csr: forge.pki.CertificateSigningRequest): { ips: string[]; dns: string[] } {
  const extensions =
    (
      csr.getAttribute({ name: 'extensionRequest' }) as {
        extensions?: { name: string; altNames?: { type: number; value: string; ip?: string }[] }[];
      } | null
    )?.extensions ?? [];
  const altNames = extensions.find((e) => e.name === 'subjectAltName')?.altNames ?? [];
  const ips = altNames.filter((n) => n.type === 7).map((n) => n.ip ?? '');
  const dns = altNames.filter((n) => n.type === 2).map((n) => n.value.toLowerCase());
  if (altNames.some((n) => n.type !== 7 && n.type !== 2))
    throw invalidParameter('csr', 'Only IP addresses and DNS names may be asked for');
  if (ips.some((ip) => isIP(ip) === 0)) throw invalidParameter('csr', 'An IP address of the request is not one');
  if (dns.some((name) => !DNS_NAME.test(name)))
    throw invalidParameter('csr', 'A DNS name of the request is not one (no wildcards)');
  if (ips.length + dns.length === 0) throw invalidParameter('csr', 'The request names no address (subjectAltName)');
  if (ips.length + dns.length > MAX_NAMES) throw invalidParameter('csr', `At most ${MAX_NAMES} names`);
  return { ips, dns };
}

/**
 * Signs a hub's certificate from its request: the hub's own key (the request's signature must verify), the hub id
 * as common name whatever the request says, and its subject alternative names, for TLS servers only.
 */
export function signHubCertificate(authority: CertificateAuthority, hubId: string, csrPem: string, now: number) {
  let csr: forge.pki.CertificateSigningRequest;
  try {
    csr = forge.pki.certificationRequestFromPem(csrPem);
  } catch {
    throw invalidParameter('csr', 'Not a PEM certificate signing request (PKCS#10, RSA key)');
  }
  let verified = false;
  try {
    verified = csr.verify();
  } catch {
    // forge throws, rather than answering false, on some damaged signatures.
  }
  if (!verified) throw invalidParameter('csr', 'The request’s signature does not verify');
  const { ips, dns } = requestedNames(csr);
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = csr.publicKey as forge.pki.PublicKey;
  certificate.serialNumber = serial();
  const notBefore = new Date(now - 60_000);
  const notAfter = new Date(now + CERTIFICATE_LIMITS.lifetimeDays * 86_400_000);
  certificate.validity.notBefore = notBefore;
  certificate.validity.notAfter = notAfter;
  certificate.setSubject([{ name: 'commonName', value: hubId }]);
  certificate.setIssuer(authority.certificate.subject.attributes);
  certificate.setExtensions([
    { name: 'basicConstraints', cA: false, critical: true },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames: [...ips.map((ip) => ({ type: 7, ip })), ...dns.map((value) => ({ type: 2, value }))] },
    { name: 'authorityKeyIdentifier', keyIdentifier: authority.certificate.generateSubjectKeyIdentifier().getBytes() },
  ]);
  certificate.sign(authority.privateKey, forge.md.sha256.create());
  return {
    certificate: forge.pki.certificateToPem(certificate),
    ca: authority.certificatePem,
    names: [...ips, ...dns],
    notBefore: notBefore.toISOString(),
    notAfter: notAfter.toISOString(),
  };
}
