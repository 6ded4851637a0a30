import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Cloud } from '@hearth/cloud';
import { resolveLocalhostNames } from '@hearth/contract/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cloudCall, newCloudUser, startEmbeddedCloud } from '../testing/cloud';
import { startTestHub, type TestHub } from '../testing/hub';
import { until } from '../testing/until';

const SECRET = 'hub-claim-test-internal-secret';
// biome-ignore lint/suspicious/noExplicitAny: the test reads open JSON answers
type Json = Record<string, any>;

// `<hub id>.connect.localhost`, the relay origin, resolves to this machine.
resolveLocalhostNames();

describe('an unowned hub shows the short code that claims it', () => {
  let cloud: Cloud;
  let hub: TestHub;
  let offline: TestHub;
  const root = mkdtempSync(join(tmpdir(), 'hearth-claim-'));
  const id = randomBytes(12).toString('hex');
  const claimOf = async (of: TestHub) => {
    const answer = await fetch(`${of.url}/api/manager/cloud/claim`);
    expect(answer.status).toBe(200);
    return (await answer.json()) as Json;
  };

  beforeAll(async () => {
    cloud = await startEmbeddedCloud({ internalClientSecret: SECRET, demoHubs: [], publicUrl: 'http://cloud.hearth.test' });
    hub = await startTestHub({
      id,
      name: 'Attic',
      dataDir: join(root, 'linked'),
      cloudUrl: cloud.url,
      cloudClientSecret: SECRET,
    });
    offline = await startTestHub({ id: randomBytes(12).toString('hex'), dataDir: join(root, 'offline'), cloudUrl: null });
  });
  afterAll(async () => {
    await hub?.stop();
    await offline?.stop();
    await cloud?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  it('tells a request through the cloud’s relay only that nobody owns the hub, never its code', async () => {
    expect(await hub.hub.cloudRegistration).toBe(true);
    await (await hub.hub.tunnel)?.whenConnected();
    const relayUrl = `http://${id}.connect.localhost:${new URL(cloud.url).port}`;
    const relayed = await until(
      async () => (await (await fetch(`${relayUrl}/api/manager/cloud/claim`)).json()) as Json,
      (claim) => claim.state === 'unclaimed',
    );
    expect(relayed).toEqual({ state: 'unclaimed', code: null, expiresAt: null, claimUrl: null, claimQr: null });
    // On the hub's own network, the same question gets the code.
    expect((await claimOf(hub)).code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
  });

  it('answers the code without a session, with a claim link and its QR, until someone claims the hub', async () => {
    expect(await hub.hub.cloudRegistration).toBe(true);
    const shown = await until(
      () => claimOf(hub),
      (claim) => claim.state === 'unclaimed',
    );
    expect(shown.code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
    const typed = `${shown.code.slice(0, 4)}-${shown.code.slice(4)}`;
    // The account page's address as people's browsers reach the cloud, with the code filled in.
    expect(shown.claimUrl).toBe(`${cloud.url}/hubs/claim#code=${typed}`);
    expect(Buffer.from(shown.claimQr.replace(/^data:image\/svg\+xml;base64,/, ''), 'base64').toString()).toContain('<svg');
    expect(Date.parse(shown.expiresAt)).toBeGreaterThan(Date.now() + 10 * 60_000);
    // Asked again, the same code (it is not renewed on every look).
    expect((await claimOf(hub)).code).toBe(shown.code);
    // The hub's journal holds the code as it printed it.
    const journal = hub.hub.context.journal.tail(50).join('\n');
    expect(journal).toContain(`claim it with the code ${typed}`);

    const person = await newCloudUser(cloud, SECRET, 'new-owner@example.test');
    const claimed = await cloudCall(cloud, 'POST', '/cloud/homey/claim', person, { code: typed });
    expect(claimed.status).toBe(200);
    expect(claimed.body).toMatchObject({ _id: id, role: 'owner' });
    const after = await until(
      () => claimOf(hub),
      (claim) => claim.state === 'claimed',
      10_000,
    );
    expect(after).toEqual({ state: 'claimed', code: null, expiresAt: null, claimUrl: null, claimQr: null });
  });

  it('says a hub without a cloud cannot be claimed', async () => {
    expect((await claimOf(offline)).state).toBe('no_cloud');
  });
});
