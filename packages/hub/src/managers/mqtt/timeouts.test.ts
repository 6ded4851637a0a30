import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../core/clock';
import { startTestHub, type TestHub } from '../../testing/hub';
import { type BrokerRelay, connectClient, MOSQUITTO_URL, relayTo, testPrefix, Z2M_DEVICES } from '../../testing/mqtt';
import { bridgedDevices } from '../../testing/mqtt-devices';
import { pending, until } from '../../testing/until';
import { CONFIRM_TIMEOUT_MS } from './confirm';
import { BROKER_DOWN } from './shared';

type Json = Record<string, unknown>;

/**
 * What runs on the hub's clock, moved by the test instead of waited for: the write confirmation's timeout and the
 * reconnection back-off. Through the HTTP API, against Mosquitto (behind a relay the test cuts, so the broker every
 * test shares stays up), on a topic prefix of this file's own.
 */
describe('the MQTT bridge on a fake clock', () => {
  const base = testPrefix('timeouts');
  const clock = new FakeClock();
  let relay: BrokerRelay;
  let t: TestHub;
  /** Plays zigbee2mqtt on the real broker (not behind the relay); answers `/set` only when a test says so. */
  let z2m: MqttClient;
  const sets: { topic: string; payload: Json }[] = [];
  const { device, value, availability, bridgeState } = bridgedDevices(() => t, 'homey:app:com.hearth.mqtt:');
  const publish = (topic: string, payload: unknown, retain = false) =>
    z2m.publishAsync(`${base}/${topic}`, JSON.stringify(payload), { qos: 1, retain });
  const plugId = async () =>
    (
      await until(
        () => device('Kettle plug'),
        (d) => d !== undefined,
      )
    )?.id;
  const putOnoff = async (on: boolean) =>
    t.call<Json>('PUT', `/devices/device/${await plugId()}/capability/onoff`, { value: on });
  /** Waits until the hub's command reached zigbee2mqtt's `/set` topic. */
  const commandSent = () =>
    until(
      () => sets.length,
      (n) => n === 1,
    );

  beforeAll(async () => {
    relay = await relayTo(MOSQUITTO_URL);
    z2m = await connectClient(MOSQUITTO_URL);
    z2m.on('message', (topic, payload) => sets.push({ topic, payload: JSON.parse(payload.toString()) }));
    await z2m.subscribeAsync(`${base}/+/set`);
    await publish('bridge/devices', Z2M_DEVICES, true);
    await publish('Kettle plug', { state: 'OFF', power: 0 }, true);
    t = await startTestHub({ mqtt: { url: relay.url, baseTopic: base } }, { clock });
    await bridgeState((s) => s.state === 'connected');
    await until(
      () => value('Kettle plug', 'onoff'),
      (v) => v === false,
    );
  });
  afterAll(async () => {
    await t?.stop();
    // Retained messages outlive the test on a shared broker: an empty retained message deletes them.
    for (const topic of ['bridge/devices', 'Kettle plug']) await z2m?.publishAsync(`${base}/${topic}`, '', { retain: true });
    await z2m?.endAsync(true);
    await relay?.close();
  });

  it('a write zigbee2mqtt does not confirm fails with 504 when the clock passes the timeout, and the value stays', async () => {
    sets.length = 0;
    const write = pending(putOnoff(true));
    await commandSent();
    expect(sets).toEqual([{ topic: `${base}/Kettle plug/set`, payload: { state: 'ON' } }]);
    await clock.advance(CONFIRM_TIMEOUT_MS - 1);
    expect(write.done).toBe(false);
    await clock.advance(1);
    const answer = await write.answer;
    expect(answer.status).toBe(504);
    expect(answer.body).toMatchObject({
      error: 'timeout',
      error_description: 'Kettle plug did not confirm onoff within 10 s',
      statusCode: 504,
    });
    expect(await value('Kettle plug', 'onoff')).toBe(false);
  });

  it('a write confirmed late, but within the timeout, succeeds and stores the value', async () => {
    sets.length = 0;
    const write = pending(putOnoff(true));
    await commandSent();
    await clock.advance(CONFIRM_TIMEOUT_MS - 1_000);
    expect(write.done).toBe(false);
    // A state that carries other values does not confirm the write.
    await publish('Kettle plug', { power: 2 });
    await until(
      () => value('Kettle plug', 'measure_power'),
      (v) => v === 2,
    );
    expect(write.done).toBe(false);
    await publish('Kettle plug', { state: 'ON', power: 2 });
    expect((await write.answer).status).toBe(204);
    expect(await value('Kettle plug', 'onoff')).toBe(true);
    // The timer was cancelled: moving past it changes nothing.
    await clock.advance(CONFIRM_TIMEOUT_MS);
    expect(await value('Kettle plug', 'onoff')).toBe(true);
  });

  it('a write waiting when the broker goes away fails at once as unavailable, not after the timeout', async () => {
    sets.length = 0;
    const write = pending(putOnoff(false));
    await commandSent();
    await relay.cut();
    const answer = await write.answer;
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ error: 'unavailable' });
    await relay.restore();
    const before = await bridgeState((s) => s.state === 'disconnected' && s.nextAttemptAt !== null);
    await clock.set(Date.parse(String(before.body.nextAttemptAt)));
    await bridgeState((s) => s.state === 'connected');
    expect(await value('Kettle plug', 'onoff')).toBe(true);
  });

  it('marks the devices unavailable while the broker is away, backs off on the clock, and comes back', async () => {
    await relay.cut();
    const down = await bridgeState((s) => s.state === 'disconnected' && s.nextAttemptAt !== null);
    expect(down.body.nextAttemptAt).toBe(new Date(clock.now() + 1_000).toISOString());
    expect(await availability('Kettle plug', false)).toMatchObject({ available: false, unavailableMessage: BROKER_DOWN });
    const refused = await putOnoff(false);
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ error: 'unavailable', error_description: expect.stringContaining(BROKER_DOWN) });
    // Each failed attempt doubles the wait: 1 s, 2 s, 4 s … on the hub's clock.
    const first = Date.parse(String(down.body.nextAttemptAt));
    await clock.set(first);
    const second = await bridgeState((s) => s.state === 'disconnected' && s.nextAttemptAt !== down.body.nextAttemptAt);
    expect(Date.parse(String(second.body.nextAttemptAt))).toBe(first + 2_000);
    await clock.set(first + 2_000);
    const third = await bridgeState((s) => s.state === 'disconnected' && s.nextAttemptAt !== second.body.nextAttemptAt);
    expect(Date.parse(String(third.body.nextAttemptAt))).toBe(first + 6_000);
    // The broker is back, but the bridge tries only when its wait is over: the clock, not a real timer, decides.
    await relay.restore();
    expect((await t.call<Json>('GET', '/mqtt/state')).body).toMatchObject({ state: 'disconnected' });
    await clock.set(first + 6_000);
    const back = await bridgeState((s) => s.state === 'connected');
    expect(back.body).toMatchObject({ lastError: null, nextAttemptAt: null });
    expect(await availability('Kettle plug', true)).toMatchObject({ available: true, unavailableMessage: null });
    // Subscribed again: a state published now is followed, and writes are confirmed again.
    sets.length = 0;
    const write = pending(putOnoff(false));
    await commandSent();
    await publish('Kettle plug', { state: 'OFF' });
    expect((await write.answer).status).toBe(204);
    expect(await value('Kettle plug', 'onoff')).toBe(false);
  });
});
