import { createECDH, createPublicKey, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { hubSecret } from '@hearth/contract/hub-secret';
import ece from 'http_ece';
import { jwtVerify } from 'jose';
import forge from 'node-forge';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Cloud } from '../../server';
import {
  call,
  createUser,
  describeOnDatabases,
  INTERNAL_SECRET,
  internalToken,
  type Json,
  readJson,
  startTestCloud,
} from '../../testing';

/** A self-signed certificate for 127.0.0.1 that the push service below serves and the cloud is told to trust. */
function loopbackCertificate() {
  const keys = forge.pki.rsa.generateKeyPair(2048);
  const certificate = forge.pki.createCertificate();
  certificate.publicKey = keys.publicKey;
  certificate.serialNumber = randomBytes(8).toString('hex');
  certificate.validity.notBefore = new Date(Date.now() - 60_000);
  certificate.validity.notAfter = new Date(Date.now() + 86_400_000);
  const name = [{ name: 'commonName', value: 'push.test' }];
  certificate.setSubject(name);
  certificate.setIssuer(name);
  certificate.setExtensions([{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }]);
  certificate.sign(keys.privateKey, forge.md.sha256.create());
  return { cert: forge.pki.certificateToPem(certificate), key: forge.pki.privateKeyToPem(keys.privateKey) };
}

/** A browser's push subscription: its key pair and auth secret, as `PushSubscription.toJSON().keys` gives them. */
function browserSubscription() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return { ecdh, auth, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } };
}

/**
 * A push service on loopback over HTTPS: `/push/<name>` decrypts what it gets with that subscription's private key
 * (RFC 8291), checks the VAPID signature (RFC 8292) and records it; `/push/gone` answers 410 as an expired one does.
 */
async function pushService(
  tls: { cert: string; key: string },
  subscriptions: Record<string, ReturnType<typeof browserSubscription>>,
) {
  const received: { name: string; payload: Json; vapidKey: string; audience: unknown; ttl: string | undefined }[] = [];
  const server: Server = createServer(tls, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const name = String(request.url).replace('/push/', '');
      const subscription = subscriptions[name];
      if (!subscription) return response.writeHead(410).end();
      try {
        const [, token, vapidKey] = /^vapid t=([^,]+), k=(.+)$/.exec(String(request.headers.authorization)) ?? [];
        const point = Buffer.from(String(vapidKey), 'base64url');
        const publicKey = createPublicKey({
          key: {
            kty: 'EC',
            crv: 'P-256',
            x: point.subarray(1, 33).toString('base64url'),
            y: point.subarray(33).toString('base64url'),
          },
          format: 'jwk',
        });
        const { payload } = await jwtVerify(String(token), publicKey, { algorithms: ['ES256'] });
        expect(request.headers['content-encoding']).toBe('aes128gcm');
        const clear = ece.decrypt(Buffer.concat(chunks), {
          version: 'aes128gcm',
          privateKey: subscription.ecdh,
          authSecret: subscription.auth,
        });
        received.push({
          name,
          payload: JSON.parse(clear.toString('utf8')),
          vapidKey: String(vapidKey),
          audience: payload.aud,
          ttl: request.headers.ttl as string,
        });
        response.writeHead(201).end();
      } catch {
        response.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describeOnDatabases('Cloud push notifications', (backend) => {
  let cloud: Cloud;
  let internal: string;
  let service: Awaited<ReturnType<typeof pushService>>;
  const phone = browserSubscription();
  const outsiderPhone = browserSubscription();
  const hubId = randomBytes(12).toString('hex');
  let owner: { id: string; token: string };
  let outsider: { id: string; token: string };

  const push = (body: unknown, secret = hubSecret(INTERNAL_SECRET, hubId), token: string | null = internal) =>
    call(cloud, 'POST', `/notifications/push?secret=${encodeURIComponent(secret)}`, token, body);
  const devicesOf = async (user: { token: string }) =>
    ((await readJson(await call(cloud, 'GET', '/cloud/user/me', user.token))).devices as Json[]).map((d) => d.name).sort();

  beforeAll(async () => {
    const tls = loopbackCertificate();
    service = await pushService(tls, { phone, outsider: outsiderPhone });
    cloud = await startTestCloud(backend, { pushAllowPrivateEndpoints: true, pushCa: tls.cert });
    internal = await internalToken(cloud);
    owner = await createUser(cloud, `push-owner-${backend}@hearth.test`);
    outsider = await createUser(cloud, `push-outsider-${backend}@hearth.test`);
    expect(
      (await call(cloud, 'POST', '/cloud/homey/', internal, { data: { _id: hubId, name: 'Home', model: 'hearth-pro-5q' } }))
        .status,
    ).toBe(201);
    expect((await call(cloud, 'POST', `/cloud/homey/${hubId}/activate`, internal, { userId: owner.id })).status).toBe(200);
    const register = async (user: { id: string; token: string }, device: Json) =>
      expect((await call(cloud, 'POST', `/cloud/user/${user.id}/device`, user.token, { device })).status).toBe(201);
    await register(owner, {
      name: 'Phone',
      platform: 'web',
      token: `${service.origin}/push/phone`,
      publicKey: JSON.stringify(phone.keys),
    });
    await register(owner, {
      name: 'Old laptop',
      platform: 'web',
      token: `${service.origin}/push/gone`,
      publicKey: JSON.stringify(browserSubscription().keys),
    });
    await register(owner, { name: 'Tablet', platform: 'ios', token: 'apns-token' });
    await register(outsider, {
      name: 'Theirs',
      platform: 'web',
      token: `${service.origin}/push/outsider`,
      publicKey: JSON.stringify(outsiderPhone.keys),
    });
  });
  afterAll(async () => {
    await cloud?.stop();
    await service?.close();
  });

  it('pushes to the web devices of the household, encrypted for each and signed with the cloud’s VAPID key', async () => {
    const { publicKey } = await readJson(await call(cloud, 'GET', '/notifications/push/vapid', null));
    const data = { title: 'Doorbell', body: 'Someone is at the front door', url: '/flows', extra: { zone: 'Hall' } };
    const answer = await push({ batch: [owner.id, outsider.id], data });
    expect(answer.status).toBe(200);
    // The phone got it; the expired subscription was removed; the iOS device and the outsider were skipped.
    expect(await readJson(answer)).toEqual({ sent: 1, removed: 1, failed: 0, skipped: 2 });
    expect(service.received).toEqual([
      { name: 'phone', payload: data, vapidKey: publicKey, audience: service.origin, ttl: '86400' },
    ]);
    expect(await devicesOf(owner)).toEqual(['Phone', 'Tablet']);
    expect(await devicesOf(outsider)).toEqual(['Theirs']);
  });

  it('refuses callers other than the provider’s hubs, forged secrets and bad notifications, sending nothing', async () => {
    const before = service.received.length;
    const data = { title: 'x' };
    expect((await push({ batch: [owner.id], data }, hubSecret(INTERNAL_SECRET, hubId), owner.token)).status).toBe(403);
    expect((await push({ batch: [owner.id], data }, hubSecret(INTERNAL_SECRET, hubId), null)).status).toBe(401);
    expect((await readJson(await push({ batch: [owner.id], data }, `${hubId}.forged`))).error).toBe('forbidden');
    expect((await push({ batch: [owner.id], data }, hubSecret('another-secret', hubId))).status).toBe(403);
    for (const body of [{ batch: [], data }, { batch: ['nope'], data }, { batch: [owner.id], data: {} }, { batch: [owner.id] }]) {
      const refused = await push(body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
    }
    const tooBig = await push({ batch: [owner.id], data: { title: 'x', blob: 'y'.repeat(4000) } });
    expect([tooBig.status, (await readJson(tooBig)).error]).toEqual([413, 'payload_too_large']);
    expect(service.received.length).toBe(before);
  });
});
