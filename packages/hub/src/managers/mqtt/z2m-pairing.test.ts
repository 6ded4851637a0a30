import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../core/clock';
import { startTestHub, type TestHub } from '../../testing/hub';
import { MOSQUITTO_URL, testPrefix, Z2M_DEVICES } from '../../testing/mqtt';
import { bridgedDevices } from '../../testing/mqtt-devices';
import { until } from '../../testing/until';
import type { StandInDevice } from './virtual-devices/zigbee2mqtt-stand-in';
import { Zigbee2MqttStandIn } from './virtual-devices/zigbee2mqtt-stand-in';

type Json = Record<string, unknown>;
type Joined = { ieeeAddress: string; friendlyName: string | null; status: string; deviceId: string | null };
type Session = { id: string; devices: string[]; radio: (Json & { stage?: string; joined?: Joined[] }) | null };

const DRIVER = 'homey:app:com.hearth.mqtt:zigbee2mqtt';

/** An Aqara motion sensor, as zigbee2mqtt lists it once interviewed. */
const MOTION: StandInDevice = {
  ieee_address: '0x00158d00045b2c71',
  type: 'EndDevice',
  friendly_name: '0x00158d00045b2c71',
  network_address: 7012,
  supported: true,
  interview_completed: true,
  power_source: 'Battery',
  definition: {
    model: 'RTCGQ11LM',
    vendor: 'Aqara',
    description: 'Motion sensor',
    exposes: [
      { type: 'binary', name: 'occupancy', property: 'occupancy', access: 1, value_on: true, value_off: false },
      { type: 'numeric', name: 'illuminance', property: 'illuminance', access: 1, unit: 'lx' },
      { type: 'numeric', name: 'battery', property: 'battery', access: 1, unit: '%', value_min: 0, value_max: 100 },
    ],
  },
};
const SIREN: StandInDevice = { ...MOTION, ieee_address: '0x00158d00045b2c72', friendly_name: 'Too late' };

/**
 * Pairing a Zigbee device from the hub's pair session, against Mosquitto, with a STAND-IN FOR zigbee2mqtt (no Zigbee
 * radio here; the stand-in answers the bridge's requests and tells of joins as zigbee2mqtt does). The hub runs on a
 * fake clock, so sessions expire and windows are renewed when the test moves the clock.
 */
describe('pairing Zigbee devices through zigbee2mqtt from a pair session', () => {
  const base = testPrefix('z2m-pairing');
  const clock = new FakeClock(Date.now());
  let t: TestHub;
  let z2m: Zigbee2MqttStandIn;
  const { device, bridgeState } = bridgedDevices(() => t, DRIVER);
  const openSession = async (zoneId?: string) => {
    const opened = await t.call<Session>('POST', '/drivers/pairsession', { type: 'pair', driverId: DRIVER, zoneId });
    expect(opened.status).toBe(200);
    return opened.body.id;
  };
  const session = (id: string) => t.call<Session>('GET', `/drivers/pairsession/${id}`);
  const permitJoin = (id: string) => t.call<Json>('POST', `/drivers/pairsession/${id}/emit`, { event: 'permit_join' });
  const permitRequests = () => z2m.requests.filter((r) => r.name === 'permit_join').map((r) => r.body.time);

  beforeAll(async () => {
    z2m = await Zigbee2MqttStandIn.start({
      url: MOSQUITTO_URL,
      baseTopic: base,
      devices: Z2M_DEVICES as StandInDevice[],
      now: () => clock.now(),
    });
    t = await startTestHub({ mqtt: { url: MOSQUITTO_URL, baseTopic: base } }, { clock });
    await until(
      () => device('Kettle plug'),
      (d) => d !== undefined,
    );
  });
  afterAll(async () => {
    await t?.stop();
    await z2m?.stop();
  });

  it('opens the network while the session lasts, lists what joins, and adds it to the session’s zone and devices', async () => {
    const zones = (await t.call<Record<string, { id: string; parent: string | null }>>('GET', '/zones/zone')).body;
    const home = Object.values(zones).find((z) => !z.parent);
    const hall = await t.call<{ id: string }>('POST', '/zones/zone', { name: 'Hall', icon: 'hallway', parent: home?.id });
    expect(hall.body).toMatchObject({ name: 'Hall' });
    const id = await openSession(hall.body.id);
    const opened = await permitJoin(id);
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({ stage: 'open', permitJoinEnd: expect.any(String), joined: [] });
    expect(permitRequests()).toEqual([254]);
    expect(z2m.permitJoin).toBe(true);
    expect((await bridgeState((s) => (s.zigbee2mqtt as Json | null)?.permitJoin === true)).body.zigbee2mqtt).toMatchObject({
      permitJoin: true,
    });

    await z2m.join(MOTION, { occupancy: true, illuminance: 310, battery: 97 });
    const joined = await until(
      () => session(id),
      (s) => s.body.radio?.joined?.[0]?.status === 'added',
    );
    const added = joined.body.radio?.joined?.[0];
    expect(added).toMatchObject({ ieeeAddress: MOTION.ieee_address, friendlyName: MOTION.friendly_name, status: 'added' });
    expect(joined.body.devices).toEqual([added?.deviceId]);
    const sensor = await t.call<Json & { zone: string; capabilities: string[] }>('GET', `/devices/device/${added?.deviceId}`);
    expect(sensor.body).toMatchObject({ name: MOTION.friendly_name, zone: hall.body.id, driverId: DRIVER });
    expect(sensor.body.capabilities).toEqual(expect.arrayContaining(['alarm_motion', 'measure_luminance', 'measure_battery']));
    expect((await device(MOTION.friendly_name))?.capabilitiesObj.alarm_motion?.value).toBe(true);

    // While the person waits (the view's heartbeats), the window is asked again before zigbee2mqtt's 254 s run out.
    const firstEnd = (await session(id)).body.radio?.permitJoinEnd;
    for (let s = 0; s < 220; s += 44) {
      expect((await t.call('POST', `/drivers/pairsession/${id}/heartbeat`)).status).toBe(200);
      await clock.advance(44_000);
    }
    expect(permitRequests()).toEqual([254]);
    // 30 s before the end it is asked again; the clock waits for zigbee2mqtt's answer (its 10 s timeout is the hub's).
    await clock.advance(10_000);
    const renewed = await until(
      () => session(id),
      (s) => s.body.radio?.permitJoinEnd !== firstEnd,
    );
    expect(Date.parse(String(renewed.body.radio?.permitJoinEnd))).toBeGreaterThan(Date.parse(String(firstEnd)));
    expect(permitRequests()).toEqual([254, 254]);

    // Closing the session closes the network: nothing joins any more.
    expect((await t.call('DELETE', `/drivers/pairsession/${id}`)).status).toBe(204);
    await until(permitRequests, (times) => times.length === 3);
    expect(permitRequests()).toEqual([254, 254, 0]);
    await until(
      () => z2m.permitJoin,
      (open) => !open,
    );
    await expect(z2m.join(SIREN)).rejects.toThrow(/network is closed/);
    expect((await bridgeState((s) => (s.zigbee2mqtt as Json | null)?.permitJoin === false)).body.zigbee2mqtt).toMatchObject({
      permitJoin: false,
    });
  });

  it('a session that expires (no heartbeats) closes the network; another session still open keeps it open', async () => {
    const before = permitRequests().length;
    const first = await openSession();
    const second = await openSession();
    expect((await permitJoin(first)).status).toBe(200);
    // The second session shares the window already open: zigbee2mqtt is not asked again.
    expect((await permitJoin(second)).status).toBe(200);
    expect(permitRequests().slice(before)).toEqual([254]);
    expect((await t.call('DELETE', `/drivers/pairsession/${second}`)).status).toBe(204);
    expect(z2m.permitJoin).toBe(true);
    await clock.advance(65_000);
    await until(permitRequests, (times) => times.length === before + 2);
    expect(permitRequests().slice(before)).toEqual([254, 0]);
    expect((await session(first)).status).toBe(404);
  });

  it('zigbee2mqtt refusing is a 502 the session shows, and only pair sessions open the network', async () => {
    z2m.refuse = 'Adapter not ready';
    const id = await openSession();
    const refused = await permitJoin(id);
    expect(refused.status).toBe(502);
    expect(refused.body).toMatchObject({ error: 'app_error', error_description: expect.stringContaining('Adapter not ready') });
    expect((await session(id)).body.radio).toMatchObject({ stage: 'failed' });
    z2m.refuse = null;

    const lamp = await device('Living room/Lamp');
    const unpair = await t.call<Session>('POST', '/drivers/pairsession', {
      type: 'unpair',
      driverId: DRIVER,
      deviceId: lamp?.id,
    });
    const wrong = await permitJoin(unpair.body.id);
    expect(wrong.status).toBe(409);
  });
});
