import { afterAll, describe, expect, it } from 'vitest';
import { devicesAndHub } from '../../testing/matter';
import { ack, connectRealtime, type Realtime } from '../../testing/socket';
import { until } from '../../testing/until';

type Json = Record<string, unknown>;

/**
 * Matter devices in the home's automations, with the ecosystem's device card ids: a door contact (a virtual device
 * in its own process) opening reaches a socket client as a capability event and runs the flow "back door opens →
 * turn the light on", which switches the light's own On/Off through the hub's device-control path.
 */
describe('a Matter contact sensor driving a flow and the realtime socket', () => {
  const rig = devicesAndHub('flow', ['contact-sensor', 'dimmable-light']);
  let realtime: Realtime | undefined;
  afterAll(() => realtime?.close());

  it('runs “contact opens → light on” end to end, and a socket client sees the contact open', async () => {
    const sensor = await rig.commission('contact-sensor');
    const light = await rig.commission('dimmable-light');
    expect((await rig.write('dimmable-light', 'onoff', false)).status).toBe(204);

    const flow = await rig.hub.call<{ id: string; broken: boolean }>('POST', '/flow/flow', {
      name: 'Back door opens: light on',
      trigger: { uri: `homey:device:${sensor.id}`, id: 'alarm_contact_true' },
      conditions: [],
      actions: [{ uri: `homey:device:${light.id}`, id: 'on' }],
    });
    expect(flow.status, JSON.stringify(flow.body)).toBe(200);
    expect(flow.body.broken).toBe(false);

    realtime = await connectRealtime(rig.hub);
    const events: Json[] = [];
    realtime.api.on(`homey:device:${sensor.id}`, (event: string, data: Json) => {
      if (event === 'capability') events.push(data);
    });
    expect(await ack(realtime.api, 'subscribe', `homey:device:${sensor.id}`)).toEqual([null]);

    const lightOn = rig.devices['dimmable-light'].next((line) => line.event === 'onoff' && line.value === true);
    rig.devices['contact-sensor'].send('contact open');
    // The light itself says it was turned on: the flow ran on the sensor's report.
    await expect(lightOn).resolves.toMatchObject({ event: 'onoff', value: true });
    const seen = await until(
      () => events,
      (list) => list.some((e) => e.capabilityId === 'alarm_contact' && e.value === true),
    );
    expect(seen).toContainEqual(expect.objectContaining({ capabilityId: 'alarm_contact', value: true }));
    expect((await rig.read('dimmable-light')).capabilitiesObj.onoff?.value).toBe(true);
  });
});
