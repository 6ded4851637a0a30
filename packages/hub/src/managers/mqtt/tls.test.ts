import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:tls';
import { Aedes } from 'aedes';
import forge from 'node-forge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';
import { until } from '../../testing/until';
import { mqttBrokerFromEnvironment } from './environment';

type Json = Record<string, unknown>;

/** A key pair made by Node (fast), in the form node-forge signs with. */
function keys() {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    privateKey: forge.pki.privateKeyFromPem(privateKey.export({ type: 'pkcs1', format: 'pem' }).toString()),
    publicKey: forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString()),
  };
}

type Name = { name: string; value: string }[];

/** A certificate for a day, of `subject`'s key, signed by `issuer`'s. */
function certificate(
  key: forge.pki.PublicKey,
  serial: string,
  subject: Name,
  issuer: Name,
  extensions: object[],
  signer: forge.pki.rsa.PrivateKey,
) {
  const cert = forge.pki.createCertificate();
  cert.publicKey = key;
  cert.serialNumber = serial;
  cert.validity.notBefore = new Date();
  cert.validity.notAfter = new Date(Date.now() + 86_400_000);
  cert.setSubject(subject);
  cert.setIssuer(issuer);
  cert.setExtensions(extensions);
  cert.sign(signer, forge.md.sha256.create());
  return forge.pki.certificateToPem(cert);
}

/** A certificate authority of the household's own, and a broker certificate for 127.0.0.1 it signed. */
function ownCa() {
  const ca = keys();
  const caName = [{ name: 'commonName', value: 'Home test CA' }];
  const caPem = certificate(
    ca.publicKey,
    '01',
    caName,
    caName,
    [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', keyCertSign: true },
    ],
    ca.privateKey,
  );
  const server = keys();
  const certPem = certificate(
    server.publicKey,
    '02',
    [{ name: 'commonName', value: '127.0.0.1' }],
    caName,
    [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
    ca.privateKey,
  );
  return { caPem, certPem, keyPem: server.privatePem };
}

/**
 * A broker on TLS with a certificate of the household's own CA (aedes behind Node's TLS server): the bridge refuses
 * it, and says why, until the CA is given in the broker setting (`ca`) or the hub's environment (`HUB_MQTT_CA`); then
 * it connects.
 */
describe('MQTT over TLS with a CA of its own', () => {
  let t: TestHub;
  let broker: Aedes;
  let server: Server;
  let url: string;
  const { caPem, certPem, keyPem } = ownCa();
  const state = () => t.call<Json>('GET', '/mqtt/state');

  beforeAll(async () => {
    broker = await Aedes.createBroker();
    server = createServer({ key: keyPem, cert: certPem }, broker.handle);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const address = server.address();
    url = `mqtts://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    t = await startTestHub();
  });
  const files = mkdtempSync(join(tmpdir(), 'hearth-mqtt-ca-'));
  afterAll(async () => {
    await t?.stop();
    rmSync(files, { recursive: true, force: true });
    await new Promise<void>((resolve) => broker.close(() => resolve()));
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('refuses the broker’s certificate without the CA, and says why', async () => {
    expect((await t.call('PUT', '/mqtt/broker', { url })).status).toBe(200);
    const refused = await until(state, (s) => s.body.state === 'disconnected');
    expect(refused.body).toMatchObject({ state: 'disconnected', customCa: false });
    expect(String(refused.body.lastError)).toMatch(/certificate/i);
  });

  it('connects once the CA is set, and never reads it back', async () => {
    const saved = await t.call<Json>('PUT', '/mqtt/broker', { url, ca: caPem });
    expect(saved.status).toBe(200);
    const connected = await until(state, (s) => s.body.state === 'connected');
    expect(connected.body).toMatchObject({ state: 'connected', url, customCa: true, lastError: null });
    expect(JSON.stringify(connected.body)).not.toContain('BEGIN CERTIFICATE');
  });

  it('a CA that is not a PEM certificate is a 400', async () => {
    const wrong = await t.call<Json>('PUT', '/mqtt/broker', { url, ca: 'my-ca' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('invalid_parameter');
  });

  it('HUB_MQTT_CA: a hub whose environment names the CA file connects to the broker', async () => {
    const caFile = join(files, 'home-ca.pem');
    writeFileSync(caFile, caPem);
    const fromEnvironment = await startTestHub({
      mqtt: mqttBrokerFromEnvironment({ HUB_MQTT_URL: url, HUB_MQTT_CA: caFile }),
    });
    try {
      const connected = await until(
        () => fromEnvironment.call<Json>('GET', '/mqtt/state'),
        (s) => s.body.state !== 'connecting',
      );
      expect(connected.body).toMatchObject({ state: 'connected', url, source: 'environment', customCa: true, lastError: null });
    } finally {
      await fromEnvironment.stop();
    }
  });

  it('HUB_MQTT_CA: a file that cannot be read or holds no certificate stops the start, naming the variable', () => {
    expect(() => mqttBrokerFromEnvironment({ HUB_MQTT_URL: url, HUB_MQTT_CA: join(files, 'missing.pem') })).toThrow(
      /^HUB_MQTT_CA: cannot read .*missing\.pem: ENOENT/,
    );
    const notPem = join(files, 'not-pem.txt');
    writeFileSync(notPem, 'my-ca');
    expect(() => mqttBrokerFromEnvironment({ HUB_MQTT_URL: url, HUB_MQTT_CA: notPem })).toThrow(/holds no PEM certificate/);
    expect(() => mqttBrokerFromEnvironment({ HUB_MQTT_CA: notPem })).toThrow(/HUB_MQTT_URL is not/);
    expect(mqttBrokerFromEnvironment({})).toBeNull();
  });
});
