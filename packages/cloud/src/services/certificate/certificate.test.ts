import { randomBytes, X509Certificate } from 'node:crypto';
import { get, createServer as httpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { hubSecret } from '@hearth/contract/hub-secret';
import forge from 'node-forge';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Cloud } from '../../server';
import { call, describeOnDatabases, hubSecretQuery, readJson, startTestCloud } from '../../testing';

type AltName = { type: 2; value: string } | { type: 7; ip: string } | { type: 6; value: string };

/** A hub's key and its signing request for `altNames`, as a hub makes them. */
function signingRequest(altNames: AltName[], commonName = 'anything') {
  const keys = forge.pki.rsa.generateKeyPair(2048);
  const csr = forge.pki.createCertificationRequest();
  csr.publicKey = keys.publicKey;
  csr.setSubject([{ name: 'commonName', value: commonName }]);
  if (altNames.length > 0) csr.setAttributes([{ name: 'extensionRequest', extensions: [{ name: 'subjectAltName', altNames }] }]);
  csr.sign(keys.privateKey, forge.md.sha256.create());
  return { csr: forge.pki.certificationRequestToPem(csr), key: forge.pki.privateKeyToPem(keys.privateKey) };
}

/** Some other CA's certificate (PEM). */
function anotherAuthority() {
  const keys = forge.pki.rsa.generateKeyPair(2048);
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = keys.publicKey;
  certificate.serialNumber = '01';
  certificate.validity.notBefore = new Date(Date.now() - 60_000);
  certificate.validity.notAfter = new Date(Date.now() + 86_400_000);
  certificate.setSubject([{ name: 'commonName', value: 'Another CA' }]);
  certificate.setIssuer([{ name: 'commonName', value: 'Another CA' }]);
  certificate.setExtensions([{ name: 'basicConstraints', cA: true }]);
  certificate.sign(keys.privateKey, forge.md.sha256.create());
  return forge.pki.certificateToPem(certificate);
}

/** Fetches `https://127.0.0.1:<port>/` trusting only `ca`; answers the body, or the TLS error's code. */
const fetchTrusting = (port: number, ca: string) =>
  new Promise<string>((resolve) => {
    get({ host: '127.0.0.1', port, path: '/', ca }, (response) => {
      let body = '';
      response.on('data', (chunk) => {
        body += chunk;
      });
      response.on('end', () => resolve(body));
    }).on('error', (error: NodeJS.ErrnoException) => resolve(`error ${error.code}`));
  });

describeOnDatabases('Cloud certificate authority', (backend) => {
  let cloud: Cloud;
  const hubId = randomBytes(12).toString('hex');
  const secret = hubSecretQuery(hubId);
  const ask = (csr: string, withSecret = secret) =>
    call(cloud, 'GET', `/certificate/homey?secret=${withSecret}&csr=${encodeURIComponent(csr)}`, null);

  beforeAll(async () => {
    cloud = await startTestCloud(backend);
  });
  afterAll(() => cloud?.stop());

  it('signs a hub’s request for its local secure address, and a client trusting the CA reaches it over TLS', async () => {
    const request = signingRequest([
      { type: 7, ip: '127.0.0.1' },
      { type: 2, value: `${hubId}.local` },
    ]);
    const answer = await ask(request.csr);
    expect(answer.status).toBe(200);
    const issued = await readJson(answer);
    expect(issued.names).toEqual(['127.0.0.1', `${hubId}.local`]);
    expect((await readJson(await call(cloud, 'GET', '/certificate/ca', null))).certificate).toBe(issued.ca);

    const certificate = new X509Certificate(issued.certificate);
    const ca = new X509Certificate(issued.ca);
    expect(certificate.verify(ca.publicKey)).toBe(true);
    expect(certificate.checkIssued(ca)).toBe(true);
    expect(ca.ca).toBe(true);
    expect(certificate.ca).toBe(false);
    // The hub id names it, whatever the request said.
    expect(certificate.subject).toBe(`CN=${hubId}`);
    expect(certificate.subjectAltName).toContain('IP Address:127.0.0.1');
    expect(certificate.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(new Date(certificate.validTo).getTime() - Date.now()).toBeGreaterThan(89 * 86_400_000);

    // A TLS server with the hub's key and certificate: trusted through the CA, not without it.
    const server = httpsServer({ key: request.key, cert: issued.certificate }, (_req, res) => res.end('hub'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      expect(await fetchTrusting(port, issued.ca)).toBe('hub');
      expect(await fetchTrusting(port, anotherAuthority())).toMatch(/^error /);
    } finally {
      server.close();
    }
  });

  it('refuses forged secrets and requests that are not one, or ask for what a hub may not have', async () => {
    const good = signingRequest([{ type: 7, ip: '192.168.1.20' }]);
    expect((await ask(good.csr, encodeURIComponent(`${hubId}.forged`))).status).toBe(403);
    expect((await ask(good.csr, encodeURIComponent(hubSecret('another-secret', hubId)))).status).toBe(403);
    // One bit of the public key's modulus changed: the request's signature no longer verifies.
    const der = Buffer.from(good.csr.replace(/-----[^-]+-----|\s/g, ''), 'base64');
    der[120] = (der[120] as number) ^ 1;
    const tampered = `-----BEGIN CERTIFICATE REQUEST-----\n${der.toString('base64')}\n-----END CERTIFICATE REQUEST-----`;
    for (const csr of [
      `-----BEGIN CERTIFICATE REQUEST-----\n${'A'.repeat(120)}\n-----END CERTIFICATE REQUEST-----`,
      tampered,
      signingRequest([]).csr,
      signingRequest([{ type: 2, value: '*.example.com' }]).csr,
      signingRequest([{ type: 6, value: 'https://example.com' }]).csr,
    ]) {
      const refused = await ask(csr);
      expect(refused.status).toBe(400);
      expect((await readJson(refused)).error).toBe('invalid_parameter');
    }
  });
});
