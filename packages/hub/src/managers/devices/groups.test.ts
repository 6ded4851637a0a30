import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';
import { pairDevice, untilAppRunning } from '../../testing/pairing';

type Json = Record<string, unknown>;
interface Device {
  id: string;
  name: string;
  class: string;
  zone: string;
  driverId: string;
  capabilities: string[];
  capabilitiesObj: Record<string, { value: unknown }>;
  data: { groupDevices?: string[] };
}

describe('device groups over HTTP', () => {
  let t: TestHub;
  let plug: string;
  let lamp: string;
  let spare: string;
  let button: string;

  const pair = (driverId: string) => pairDevice(t, driverId);
  const device = async (id: string) => (await t.call<Device>('GET', `/devices/device/${id}`)).body;

  beforeAll(async () => {
    t = await startTestHub();
    await untilAppRunning(t);
    plug = await pair('homey:app:com.hearth.virtual:virtualsocket');
    lamp = await pair('homey:app:com.hearth.virtual:socket');
    spare = await pair('homey:app:com.hearth.virtual:socket');
    button = await pair('homey:app:com.hearth.virtual:virtualbutton');
  });
  afterAll(() => t.stop());

  it('groups devices of one class into a device with the capabilities they share, and sets each of them', async () => {
    const created = await t.call<Device>('POST', '/devices/group', { name: 'Sockets', devices: [plug, lamp] });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({
      name: 'Sockets',
      class: 'socket',
      driverId: 'homey:app:com.hearth.virtual:group',
      capabilities: ['onoff'],
      data: { groupDevices: [plug, lamp] },
    });
    const group = created.body.id;
    expect((await t.call('PUT', `/devices/device/${group}/capability/onoff`, { value: true })).status).toBe(204);
    expect((await device(plug)).capabilitiesObj.onoff?.value).toBe(true);
    expect((await device(lamp)).capabilitiesObj.onoff?.value).toBe(true);
    expect((await device(spare)).capabilitiesObj.onoff?.value).toBe(false);
    expect((await device(group)).capabilitiesObj.onoff?.value).toBe(true);
    // A value the capability refuses reaches nobody.
    expect((await t.call('PUT', `/devices/device/${group}/capability/onoff`, { value: 'on' })).status).toBe(400);
    expect((await device(plug)).capabilitiesObj.onoff?.value).toBe(true);
  });

  it('refuses groups of unknown devices, of mixed classes, of groups, or without a name', async () => {
    const cases: [Json, string][] = [
      [{ name: 'G', devices: [plug, 'nope'] }, 'Invalid Parameter: group.devices.1. No device with id nope'],
      [{ name: 'G', devices: [plug, button] }, 'group.devices'],
      [{ name: 'G', devices: [] }, 'devices'],
      [{ devices: [plug] }, 'name'],
    ];
    for (const [group, message] of cases) {
      const answer = await t.call<Json>('POST', '/devices/group', group);
      expect(answer.status, message).toBe(400);
      expect(String(answer.body.error_description), message).toContain(message);
    }
    const inner = (await t.call<Device>('POST', '/devices/group', { name: 'Inner', devices: [spare] })).body.id;
    const nested = await t.call<Json>('POST', '/devices/group', { name: 'Outer', devices: [inner] });
    expect(String(nested.body.error_description)).toContain('A group cannot hold another group');
    expect((await t.call('DELETE', `/devices/device/${inner}`)).status).toBe(204);
  });

  it('renames, moves and changes the devices of a group; takes a device out but never the last', async () => {
    const group = (await t.call<Device>('POST', '/devices/group', { name: 'Two', devices: [lamp, spare] })).body.id;
    const zones = (await t.call<Record<string, Json>>('GET', '/zones/zone')).body;
    const root = Object.values(zones).find((z) => z.parent === null)?.id as string;
    const kitchen = (await t.call<{ id: string }>('POST', '/zones/zone', { name: 'Kitchen', parent: root, icon: 'kitchen' })).body
      .id;
    const updated = await t.call<Device>('PUT', `/devices/group/${group}`, {
      name: 'Kitchen sockets',
      zone: kitchen,
      devices: [lamp, spare, plug],
    });
    expect(updated.body).toMatchObject({ name: 'Kitchen sockets', zone: kitchen, data: { groupDevices: [lamp, spare, plug] } });
    expect((await t.call('PUT', `/devices/group/${group}`, { devices: [lamp, button] })).status).toBe(400);
    expect((await t.call('PUT', `/devices/group/${lamp}`, { name: 'Not a group' })).status).toBe(404);

    const smaller = await t.call<Device>('DELETE', `/devices/group/${group}/device/${plug}`);
    expect(smaller.body.data.groupDevices).toEqual([lamp, spare]);
    expect((await t.call('DELETE', `/devices/group/${group}/device/${plug}`)).status).toBe(404);
    await t.call('DELETE', `/devices/group/${group}/device/${spare}`);
    const last = await t.call<Json>('DELETE', `/devices/group/${group}/device/${lamp}`);
    expect(last).toMatchObject({ status: 409, body: { error: 'conflict' } });
  });

  it('drops a deleted device from its groups, and a group left empty goes too', async () => {
    const doomed = await pair('homey:app:com.hearth.virtual:socket');
    const group = (await t.call<Device>('POST', '/devices/group', { name: 'Doomed', devices: [doomed, spare] })).body.id;
    expect((await t.call('DELETE', `/devices/device/${doomed}`)).status).toBe(204);
    expect((await device(group)).data.groupDevices).toEqual([spare]);
    expect((await t.call('DELETE', `/devices/device/${spare}`)).status).toBe(204);
    expect((await t.call('GET', `/devices/device/${group}`)).status).toBe(404);
  });
});
