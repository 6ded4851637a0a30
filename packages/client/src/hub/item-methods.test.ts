// The methods people reach for on items (issue 21): each is a thin call of a manager operation, checked here
// against a real hub by reading the result back through a second client.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoHub } from '../../../hub/src/runtime/seed';
import { APIError, type CoreHubAPI, Device, Flow, HubAPI } from '../node';
import { type RunningHub, startRealHub } from '../testing/servers';

let hub: RunningHub;
let api: CoreHubAPI;
let reader: CoreHubAPI;

beforeAll(async () => {
  hub = await startRealHub();
  seedDemoHub(hub.hub, { historyDays: 0 });
  api = await HubAPI.local({ address: hub.url, token: hub.token });
  reader = await HubAPI.local({ address: hub.url, token: hub.token });
});
afterAll(async () => {
  api.destroy();
  reader.destroy();
  await hub.stop();
});

type Capabilities = Record<string, { setable?: boolean; value?: unknown; min?: number }>;
const withSetable = async (capabilityId: string) => {
  const devices = await api.devices.getDevices();
  const device = Object.values(devices).find((candidate) => candidate.capabilitiesObj?.[capabilityId]?.setable);
  if (!device) throw new Error(`the demo hub has no device with a settable ${capabilityId}`);
  return device;
};
const storedValue = async (deviceId: string, capabilityId: string) => {
  const device = (await reader.devices.getDevice({ id: deviceId })) as { capabilitiesObj: Capabilities };
  return device.capabilitiesObj[capabilityId]?.value;
};

describe('item methods (real hub)', () => {
  it('device.setCapabilityValue writes the value the hub then answers', async () => {
    const device = await withSetable('onoff');
    expect(device).toBeInstanceOf(Device);
    const target = (await storedValue(device.id, 'onoff')) !== true;
    await device.setCapabilityValue('onoff', target);
    expect(await storedValue(device.id, 'onoff')).toBe(target);
    await device.setCapabilityValue('onoff', !target);
    expect(await storedValue(device.id, 'onoff')).toBe(!target);
  });

  it("device.setCapabilityValue rejects with the hub's error and leaves the value as it was", async () => {
    const device = await withSetable('onoff');
    const before = await storedValue(device.id, 'onoff');
    const refused = await device.setCapabilityValue('onoff', 'sideways').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(APIError);
    expect((refused as APIError).statusCode).toBe(400);
    const missing = await device.setCapabilityValue('no_such_capability', true).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(APIError);
    expect((missing as APIError).statusCode).toBe(404);
    expect(await storedValue(device.id, 'onoff')).toBe(before);
  });

  it('flow.trigger runs the flow, flow.disable stops it being started, flow.enable lets it run again', async () => {
    const device = await withSetable('onoff');
    const created = (await api.flow.createFlow({
      flow: {
        name: 'Item methods: switch on',
        trigger: { uri: 'homey:manager:system', id: 'hub_started' },
        conditions: [],
        actions: [{ uri: `homey:device:${device.id}`, id: 'onoff_set', args: { value: true } }],
      },
    })) as { id: string };
    const flows = await api.flow.getFlows();
    const flow = flows[created.id];
    expect(flow).toBeInstanceOf(Flow);
    if (!flow) throw new Error('the created flow is not listed');
    // The flow's trigger card reads as it did (`flow.trigger.uri`) while `flow.trigger()` starts the flow.
    expect([flow.trigger.uri, flow.trigger.id]).toEqual(['homey:manager:system', 'hub_started']);
    expect(JSON.parse(JSON.stringify(flow)).trigger).toEqual(flow.toJSON().trigger);
    expect(flow.toJSON().trigger).toMatchObject({ uri: 'homey:manager:system', id: 'hub_started' });

    await device.setCapabilityValue('onoff', false);
    await flow.trigger();
    expect(await storedValue(device.id, 'onoff')).toBe(true);

    await flow.disable();
    expect(((await reader.flow.getFlow({ id: flow.id })) as { enabled: boolean }).enabled).toBe(false);
    await device.setCapabilityValue('onoff', false);
    const refused = await flow.trigger().catch((error: unknown) => error);
    expect((refused as APIError).statusCode).toBe(409);
    expect(await storedValue(device.id, 'onoff')).toBe(false);

    await flow.enable();
    expect(((await reader.flow.getFlow({ id: flow.id })) as { enabled: boolean }).enabled).toBe(true);
    await flow.trigger();
    expect(await storedValue(device.id, 'onoff')).toBe(true);
  });
});
