import { randomBytes } from 'node:crypto';
import type { Cloud } from '@hearth/cloud';
import { HUB_LOGIC_WEBHOOK_ID, WEBHOOK_SIGNATURE_HEADER } from '@hearth/contract';
import { hubSecret, signWebhookDelivery } from '@hearth/contract/hub-secret';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmbeddedCloud } from '../../testing/cloud';
import { startTestHub, type TestHub } from '../../testing/hub';
import { until } from '../../testing/until';

const SECRET = 'hub-webhook-test-internal-secret';

describe('a webhook call at the cloud runs a flow on the hub', () => {
  let cloud: Cloud;
  let t: TestHub;
  const hubId = randomBytes(12).toString('hex');

  beforeAll(async () => {
    cloud = await startEmbeddedCloud({ internalClientSecret: SECRET, webhookRetryBaseMs: 50 });
    t = await startTestHub({ id: hubId, cloudUrl: cloud.url, cloudClientSecret: SECRET });
    expect(await t.hub.cloudRegistration).toBe(true);
  });
  afterAll(async () => {
    await t?.stop();
    await cloud?.stop();
  });

  const variable = async () => (await t.call<{ value: string }>('GET', `/logic/variable/${doorbellId}`)).body.value;
  let doorbellId = '';

  it('registers the hub for its webhook address, delivers a call to it and starts the flow with the tag', async () => {
    const created = await t.call<{ id: string }>('POST', '/logic/variable', { name: 'Doorbell', type: 'string', value: '' });
    doorbellId = created.body.id;
    const flow = await t.call('POST', '/flow/flow', {
      name: 'Doorbell from anywhere',
      trigger: { uri: 'homey:manager:logic', id: 'webhook', args: { event: 'doorbell' } },
      conditions: [],
      actions: [
        {
          uri: 'homey:manager:logic',
          id: 'variable_set',
          args: { variable: { id: doorbellId, name: 'Doorbell' }, value: 'rang [[tag]]' },
        },
      ],
    });
    expect(flow.status).toBeLessThan(300);

    const registered = await t.call<{ url: string }>('PUT', '/logic/cloudwebhook', {});
    expect(registered.status).toBe(200);
    const { url } = registered.body;
    expect(url.startsWith(`${cloud.url}/webhooks/webhook/${HUB_LOGIC_WEBHOOK_ID}?key=`)).toBe(true);
    // The same address while the key is kept.
    expect((await t.call<{ url: string }>('PUT', '/logic/cloudwebhook', {})).body.url).toBe(url);

    const answer = await fetch(`${url}&event=doorbell&tag=front`);
    expect(answer.status).toBe(202);
    expect(await answer.json()).toMatchObject({ deliveries: 1 });
    expect(await until(variable, (value) => value === 'rang front')).toBe('rang front');

    // A POST with the event in its body works too; another event starts nothing.
    const posted = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ event: 'doorbell', tag: 'back' }),
    });
    expect(posted.status).toBe(202);
    expect(await until(variable, (value) => value === 'rang back')).toBe('rang back');
    await fetch(`${url}&event=other&tag=side`);
    const recorded = async () => (await t.call<{ webhookEvents: number }>('GET', '/logic/state')).body.webhookEvents;
    expect(await until(recorded, (count) => count === 3)).toBe(3);
    expect(await variable()).toBe('rang back');
  });

  it('stops answering the old address once renewed, and a wrong key reaches nobody', async () => {
    const old = (await t.call<{ url: string }>('PUT', '/logic/cloudwebhook', {})).body.url;
    const renewed = (await t.call<{ url: string }>('PUT', '/logic/cloudwebhook', { renew: true })).body.url;
    expect(renewed).not.toBe(old);
    expect(await (await fetch(`${old}&event=doorbell&tag=old`)).json()).toMatchObject({ deliveries: 0 });
    expect(await (await fetch(`${renewed.replace(/key=.*/, 'key=guess')}&event=doorbell`)).json()).toMatchObject({
      deliveries: 0,
    });
    await fetch(`${renewed}&event=doorbell&tag=renewed`);
    expect(await until(variable, (value) => value === 'rang renewed')).toBe('rang renewed');
  });

  it('refuses deliveries the cloud did not sign, and acts on a delivery once', async () => {
    const key = (await t.call<{ url: string }>('PUT', '/logic/cloudwebhook', {})).body.url.split('key=')[1] as string;
    const delivery = JSON.stringify({
      id: randomBytes(12).toString('hex'),
      webhookId: HUB_LOGIC_WEBHOOK_ID,
      homeyId: hubId,
      data: { $key: key },
      query: { key, event: 'doorbell', tag: 'direct' },
      body: null,
      headers: {},
      receivedAt: new Date().toISOString(),
    });
    const send = (signature: string | null, text = delivery) =>
      fetch(`${t.url}/api/manager/cloud/webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(signature ? { [WEBHOOK_SIGNATURE_HEADER]: signature } : {}) },
        body: JSON.stringify({ delivery: text }),
      });
    const now = Math.floor(Date.now() / 1000);
    const mine = hubSecret(SECRET, hubId);
    for (const signature of [
      null,
      'garbage',
      signWebhookDelivery(hubSecret('another-secret', hubId), delivery, now),
      signWebhookDelivery(mine, delivery, now - 3600),
      signWebhookDelivery(mine, `${delivery} `, now),
    ]) {
      const refused = await send(signature);
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { error: string }).error).toBe('forbidden');
    }
    const garbled = '{"not":"a delivery"}';
    expect((await send(signWebhookDelivery(mine, garbled, now), garbled)).status).toBe(400);
    expect(await variable()).not.toBe('rang direct');

    const first = await send(signWebhookDelivery(mine, delivery, now));
    expect(await first.json()).toMatchObject({ duplicate: false });
    expect(await until(variable, (value) => value === 'rang direct')).toBe('rang direct');
    await t.call('PUT', `/logic/variable/${doorbellId}`, { value: '' });
    const again = await send(signWebhookDelivery(mine, delivery, now));
    expect(await again.json()).toMatchObject({ duplicate: true });
    expect(await variable()).toBe('');
  });

  it('delivers through the hub’s relay tunnel when its registered address does not answer', async () => {
    await (await t.hub.tunnel)?.whenConnected();
    const hubs = () => cloud.context.database.db.updateTable('hubs').where('id', '=', hubId);
    // The hub is away from the cloud's network: only its tunnel reaches it.
    await hubs().set({ local_url: 'http://127.0.0.1:1' }).execute();
    try {
      const url = (await t.call<{ url: string }>('PUT', '/logic/cloudwebhook', {})).body.url;
      const answer = await fetch(`${url}&event=doorbell&tag=relayed`);
      expect(await answer.json()).toMatchObject({ deliveries: 1 });
      expect(await until(variable, (value) => value === 'rang relayed')).toBe('rang relayed');
      // The hub acted before the cloud recorded its answer: wait for the record.
      const latest = () =>
        cloud.context.database.db
          .selectFrom('webhook_deliveries')
          .select(['state', 'attempts'])
          .where('hub_id', '=', hubId)
          .orderBy('created_at', 'desc')
          .executeTakeFirstOrThrow();
      const row = await until(latest, (found) => found.state !== 'pending');
      expect(row).toMatchObject({ state: 'delivered', attempts: 1 });
    } finally {
      await hubs().set({ local_url: t.url }).execute();
    }
  });
});
