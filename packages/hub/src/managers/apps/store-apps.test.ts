import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appsRoot } from '../../runtime/manifest';
import { runOverDevkit } from '../../testing/devkit';
import { startTestHub, type TestHub } from '../../testing/hub';
import { pairDevice, untilAppRunning } from '../../testing/pairing';
import { until } from '../../testing/until';

type Json = Record<string, unknown>;
interface Device {
  capabilitiesObj: Record<string, { value: unknown }>;
  images: { type: string; imageObj: { url: string } }[];
}
interface Trace {
  status: string;
  trigger: { tokens: Json };
}

const LUMEN = 'com.lumenco.lights';
const GUARDIAN = 'com.guardian.security';
const SOUNDWAVE = 'com.soundwave.speakers';
const WATTWISE = 'com.wattwise.meter';
const TINKER = 'net.tinker.blinds';

/**
 * The demo world's other apps with code (Lumen & Co, Guardian, SoundWave, WattWise, Tinker Blinds), each run over
 * the devkit calls and used through real HTTP: paired, switched through their capability listeners, and their
 * flow cards run by the hub's engine.
 */
describe('the other demo store apps', () => {
  let t: TestHub;

  const device = async (id: string) => (await t.call<Device>('GET', `/devices/device/${id}`)).body;
  const value = async (id: string, capability: string) => (await device(id)).capabilitiesObj[capability]?.value;
  const set = (id: string, capability: string, to: unknown) =>
    t.call(`PUT`, `/devices/device/${id}/capability/${capability}`, { value: to });
  const run = (kind: 'condition' | 'action', appId: string, card: string, args: Json) =>
    t.call<Json>('POST', `/flow/flowcard${kind}/${encodeURIComponent(`homey:app:${appId}`)}/${card}/run`, { args });
  const flow = (name: string, appId: string, trigger: string, args: Json) =>
    t.call<{ id: string }>('POST', '/flow/flow', {
      name,
      trigger: { uri: `homey:app:${appId}`, id: trigger, args },
      conditions: [],
      actions: [],
    });
  const ran = (flowId: string) =>
    until(
      async () => (await t.call<Trace[]>('GET', `/flow/flow/${flowId}/trace`)).body,
      (list) => list.some((trace) => trace.status === 'completed'),
    );

  beforeAll(async () => {
    t = await startTestHub();
    const env: Record<string, Record<string, string>> = { [TINKER]: { TINKER_TRAVEL_MS: '50' } };
    for (const id of [LUMEN, GUARDIAN, SOUNDWAVE, WATTWISE, TINKER])
      await runOverDevkit(t, join(appsRoot, 'store', id), env[id] ?? {});
    for (const id of [LUMEN, GUARDIAN, SOUNDWAVE, WATTWISE, TINKER]) await untilAppRunning(t, id);
  }, 60_000);
  afterAll(async () => {
    await t.stop();
  });

  it('Lumen & Co: a bulb joins, switches on when dimmed, and takes a scene that its condition and trigger see', async () => {
    const bulb = await pairDevice(t, `homey:app:${LUMEN}:bulb-e27`, { event: 'zigbee_join' });
    const changed = await flow('Scene changed', LUMEN, 'scene_changed', { device: { id: bulb } });
    expect((await set(bulb, 'dim', 0.5)).status).toBe(204);
    expect(
      await until(
        () => value(bulb, 'onoff'),
        (on) => on === true,
      ),
    ).toBe(true);
    expect((await run('action', LUMEN, 'set_scene', { device: { id: bulb }, scene: 'read' })).status).toBe(200);
    expect(await value(bulb, 'dim')).toBe(0.8);
    expect(await value(bulb, 'light_mode')).toBe('temperature');
    expect((await ran(changed.body.id))[0]?.trigger.tokens).toMatchObject({ scene: 'read' });
    expect((await run('condition', LUMEN, 'scene_is', { device: { id: bulb }, scene: 'read' })).body).toEqual({ result: true });
    expect((await run('condition', LUMEN, 'scene_is', { device: { id: bulb }, scene: 'relax' })).body).toEqual({ result: false });
  });

  it('Guardian: arms and disarms, and a press of the panic button starts its flow', async () => {
    const button = await pairDevice(t, `homey:app:${GUARDIAN}:button`);
    const pressed = await flow('Panic', GUARDIAN, 'panic_pressed', { device: { id: button } });
    expect((await run('action', GUARDIAN, 'arm', {})).status).toBe(200);
    expect((await run('condition', GUARDIAN, 'is_armed', {})).body).toEqual({ result: true });
    expect((await run('action', GUARDIAN, 'disarm', {})).status).toBe(200);
    expect((await run('condition', GUARDIAN, 'is_armed', {})).body).toEqual({ result: false });
    expect((await set(button, 'button', true)).status).toBe(204);
    expect(await ran(pressed.body.id)).not.toHaveLength(0);
  });

  it("SoundWave: plays a playlist track by track, with each track's cover as the speaker's album art", async () => {
    const speaker = await pairDevice(t, `homey:app:${SOUNDWAVE}:speaker`);
    // A new speaker shows the track it would play first.
    const first = 'Here Comes the Sun – The Beatles';
    expect(
      await until(
        () => value(speaker, 'speaker_track'),
        (track) => track === first,
      ),
    ).toBe(first);
    const changed = await flow('New track', SOUNDWAVE, 'track_changed', { device: { id: speaker } });
    expect((await run('action', SOUNDWAVE, 'play_playlist', { device: { id: speaker }, playlist: 'dinner' })).status).toBe(200);
    expect(await value(speaker, 'speaker_track')).toBe('Blue in Green – Miles Davis');
    expect(await value(speaker, 'speaker_playing')).toBe(true);
    expect((await ran(changed.body.id))[0]?.trigger.tokens).toMatchObject({ track: 'Blue in Green', artist: 'Miles Davis' });
    const art = (await device(speaker)).images.find((image) => image.type === 'media');
    const cover = async () =>
      (await fetch(`${t.url}${art?.imageObj.url}`, { headers: { authorization: `Bearer ${t.token}` } })).text();
    expect(await cover()).toContain('Blue in Green');
    expect((await run('action', SOUNDWAVE, 'next_track', { device: { id: speaker } })).status).toBe(200);
    expect(await value(speaker, 'speaker_track')).toBe('Take Five – The Dave Brubeck Quartet');
    expect(await cover()).toContain('Take Five');
    expect((await set(speaker, 'speaker_playing', false)).status).toBe(204);
    expect((await run('condition', SOUNDWAVE, 'is_playing', { device: { id: speaker } })).body).toEqual({ result: false });
  });

  it('WattWise: reads the meter into power, energy and its own tariff capability, and reports them to a flow', async () => {
    const meter = await pairDevice(t, `homey:app:${WATTWISE}:p1`);
    const power = (await until(
      () => value(meter, 'measure_power'),
      (watts) => typeof watts === 'number',
    )) as number;
    expect(power).toBeGreaterThan(0);
    expect(['low', 'normal']).toContain(await value(meter, 'wattwise_tariff'));
    expect((await set(meter, 'wattwise_tariff', 'low')).status).toBe(400);
    const report = await run('action', WATTWISE, 'report', { device: { id: meter } });
    expect(report.body).toMatchObject({ power: expect.any(Number), energy: expect.any(Number) });
    expect((await run('condition', WATTWISE, 'power_above', { device: { id: meter }, watts: 0 })).body).toEqual({ result: true });
  });

  it('Tinker Blinds: learns a blind, travels to a position, and starts the flows waiting for it to close', async () => {
    const blinds = await pairDevice(t, `homey:app:${TINKER}:blinds`, { event: 'rf_learn' });
    const closed = await flow('Blinds closed', TINKER, 'fully_closed', { device: { id: blinds } });
    expect((await run('condition', TINKER, 'is_open', { device: { id: blinds } })).body).toEqual({ result: true });
    expect((await run('action', TINKER, 'set_position', { device: { id: blinds }, position: 0 })).status).toBe(200);
    expect(await ran(closed.body.id)).not.toHaveLength(0);
    expect(await value(blinds, 'windowcoverings_state')).toBe('idle');
    expect((await run('condition', TINKER, 'is_open', { device: { id: blinds } })).body).toEqual({ result: false });
    expect((await set(blinds, 'windowcoverings_state', 'up')).status).toBe(204);
    expect(
      await until(
        () => value(blinds, 'windowcoverings_set'),
        (position) => position === 1,
      ),
    ).toBe(1);
  });
});
