import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';
import { pairDevice, untilAppRunning } from '../../testing/pairing';
import { privateHandlers } from '../../testing/private';
import { threadManager } from '../thread';
import { zigbeeManager } from '../zigbee';
import { matterManager } from '.';

type Json = Record<string, unknown>;

/** A developer's app with a Matter plug on Wi-Fi, installed through the devkit. */
const wifiMatterApp = {
  id: 'com.example.matterwifi',
  version: '1.0.0',
  sdk: 3,
  name: { en: 'Matter Wi-Fi plugs' },
  author: { name: 'Dev Eloper', email: 'dev@example.test' },
  drivers: [
    {
      id: 'plug',
      name: 'Plug',
      class: 'socket',
      capabilities: ['onoff', 'dim'],
      connectivity: ['matter', 'wifi'],
      simulation: 'light',
    },
  ],
};

describe('Matter, Thread and Zigbee calls of the simulated radios, over HTTP', () => {
  let t: TestHub;
  let thermostat: string;
  let node: string;
  let plug: string;
  let plugNode: string;

  const pair = (driverId: string, event: string, data?: unknown) => pairDevice(t, driverId, { event, data });

  beforeAll(async () => {
    t = await startTestHub();
    await untilAppRunning(t);
    thermostat = await pair('homey:app:com.hearth.virtual:matter', 'matter_code', { code: '34970112332' });
    await t.call('POST', '/devkit/app', { manifest: wifiMatterApp, run: false });
    await untilAppRunning(t, 'com.example.matterwifi');
    plug = await pair('homey:app:com.example.matterwifi:plug', 'list_devices');
    const nodes = (await t.call<Json[]>('GET', '/matter/nodes')).body;
    node = String(nodes.find((n) => n.deviceId === thermostat)?.id);
    plugNode = String(nodes.find((n) => n.deviceId === plug)?.id);
  });
  afterAll(() => t.stop());

  it("reads a node's attributes from its device's capabilities", async () => {
    await t.call('PUT', `/devices/device/${thermostat}/capability/target_temperature`, { value: 21.5 });
    const attributes = await t.call<Json[]>('GET', `/matter/node/${node}/attributes`);
    expect(attributes.status).toBe(200);
    expect(attributes.body).toEqual(
      expect.arrayContaining([
        { endpoint: 0, cluster: 0x28, clusterName: 'BasicInformation', attribute: 9, attributeName: 'SoftwareVersion', value: 1 },
        {
          endpoint: 1,
          cluster: 0x201,
          clusterName: 'Thermostat',
          attribute: 0x12,
          attributeName: 'OccupiedHeatingSetpoint',
          value: 2150,
        },
      ]),
    );
    await t.call('PUT', `/devices/device/${plug}/capability/dim`, { value: 0.5 });
    const plugAttributes = (await t.call<Json[]>('GET', `/matter/node/${plugNode}/attributes`)).body;
    expect(plugAttributes).toEqual(
      expect.arrayContaining([expect.objectContaining({ clusterName: 'LevelControl', value: 127 })]),
    );
    expect((await t.call('GET', '/matter/node/999/attributes')).status).toBe(404);
  });

  it('answers the network of a node on its own transport only', async () => {
    const thread = await t.call<Json>('GET', `/matter/node/${node}/thread-network`);
    const topology = await t.call<{ networkName: string; nodes: Json[] }>('GET', '/thread/topology');
    expect(thread.body).toMatchObject({ networkName: topology.body.networkName, role: 'child' });
    expect(thread.body.rloc16).toBe(topology.body.nodes.find((n) => n.deviceId === thermostat)?.rloc16);
    const wifi = await t.call<Json>('GET', `/matter/node/${plugNode}/wifi-network`);
    expect(wifi.body).toMatchObject({ ssid: expect.any(String), rssi: expect.any(Number) });
    const wrong = await t.call<Json>('GET', `/matter/node/${node}/wifi-network`);
    expect(wrong).toMatchObject({
      status: 400,
      body: { error_description: `Invalid Parameter: id. Node ${node} is on Thread, not Wi-Fi` },
    });
    expect((await t.call('GET', `/matter/node/${plugNode}/thread-network`)).status).toBe(400);
  });

  it('resolves addresses, interviews again and reports diagnostics', async () => {
    const address = await t.call<{ addresses: string[]; port: number }>('POST', `/matter/node/${node}/resolve-address`);
    expect(address.body.port).toBe(5540);
    expect(address.body.addresses[0]).toMatch(/^fd00:/);
    const updated = await t.call<Json>('POST', `/matter/node/${node}/force-update`);
    expect(updated.body).toMatchObject({ id: node, deviceId: thermostat });
    expect(Date.parse(String(updated.body.lastInterviewAt))).toBeGreaterThan(Date.now() - 60_000);
    const report = await t.call<Json>('POST', `/matter/node/${node}/diagnostic-report`);
    expect(report.body).toMatchObject({
      node: { id: node, lastInterviewAt: updated.body.lastInterviewAt },
      address: address.body,
    });
    expect(Array.isArray(report.body.attributes)).toBe(true);
  });

  it('installs the available firmware of a node, and only that version', async () => {
    expect((await t.call('GET', `/matter/node/${node}/firmware-update`)).body).toEqual({
      softwareVersion: 1,
      available: { softwareVersion: 2, softwareVersionString: '1.1.0' },
    });
    const wrong = await t.call<Json>('POST', `/matter/node/${node}/firmware-update`, { softwareVersion: 7 });
    expect(wrong.status).toBe(400);
    expect(String(wrong.body.error_description)).toContain('softwareVersion');
    expect((await t.call('POST', `/matter/node/${node}/firmware-update`, {})).status).toBe(400);
    expect((await t.call('POST', `/matter/node/${node}/firmware-update`, { softwareVersion: 2 })).body).toMatchObject({
      softwareVersion: 2,
    });
    expect((await t.call('GET', `/matter/node/${node}/firmware-update`)).body).toEqual({ softwareVersion: 2, available: null });
    expect((await t.call('POST', `/matter/node/${node}/firmware-update`, { softwareVersion: 2 })).status).toBe(409);
    const software = (await t.call<Json[]>('GET', `/matter/node/${node}/attributes`)).body.find(
      (a) => a.attributeName === 'SoftwareVersion',
    );
    expect(software?.value).toBe(2);
  });

  it('shares a node with another controller through a (private) commissioning window, then removes its fabric', async () => {
    expect((await t.call<Json>('POST', '/matter/open-commissioning-window', { deviceId: thermostat })).body).toMatchObject({
      error: 'private_operation',
    });
    const call = privateHandlers(t, matterManager);
    const window = (await call('openCommissioningWindow', { body: { deviceId: thermostat, timeout: 180 } })) as Json;
    expect(String(window.manualPairingCode)).toMatch(/^\d{11}$/);
    expect(Date.parse(String(window.expiresAt)) - Date.now()).toBeGreaterThan(170_000);
    const fabrics = await t.call<{ fabricIndex: number; isCurrent: boolean }[]>('GET', `/matter/fabrics?deviceId=${thermostat}`);
    expect(fabrics.body.map((f) => [f.fabricIndex, f.isCurrent])).toEqual([
      [1, true],
      [2, false],
    ]);
    expect((await t.call('GET', `/matter/node/${node}/fabrics`)).body).toEqual(fabrics.body);
    expect((await t.call('DELETE', `/matter/node/${node}/fabric/1`)).status).toBe(409);
    expect((await t.call('DELETE', `/matter/node/${node}/fabric/9`)).status).toBe(404);
    expect((await t.call('DELETE', `/matter/node/${node}/fabric/x`)).status).toBe(400);
    expect((await t.call('DELETE', `/matter/node/${node}/fabric/2`)).status).toBe(204);
    await call('openCommissioningWindow', { body: { deviceId: thermostat } });
    expect((await t.call('POST', '/matter/delete-fabric', { deviceId: thermostat, fabricIndex: 2 })).status).toBe(204);
    expect((await t.call<Json[]>('GET', `/matter/fabrics?deviceId=${thermostat}`)).body).toHaveLength(1);
    expect((await t.call('POST', '/matter/delete-fabric', { deviceId: 'nope', fabricIndex: 2 })).status).toBe(404);
    expect((await t.call('GET', '/matter/fabrics')).status).toBe(400);
  });

  it('Thread: private CLI commands, enable and disable, reset and border router scans', async () => {
    expect((await t.call<Json>('POST', '/thread/execute-command', { command: 'state' })).body).toMatchObject({
      error: 'private_operation',
    });
    for (const path of ['/thread/disable', '/thread/enable', '/thread/discovered-border-routers']) {
      expect((await t.call('GET', path)).status, path).toBe(403);
    }
    const call = privateHandlers(t, threadManager);
    const run = async (command: string) => ((await call('executeCommand', { body: { command } })) as { output: string[] }).output;
    const dataset = (await t.call<Json>('GET', '/thread/topology')).body;
    expect(await run('state')).toEqual(['leader', 'Done']);
    expect(await run('networkname')).toEqual([String(dataset.networkName), 'Done']);
    expect((await run('child table')).some((line) => line.includes('Matter'))).toBe(true);
    await expect(run('factoryreset now')).rejects.toMatchObject({ code: 'invalid_parameter' });

    expect(await call('getDiscoveredBorderRouters')).toEqual([]);
    const routers = (await call('rescanBorderRouters')) as Json[];
    expect(routers).toEqual(
      expect.arrayContaining([expect.objectContaining({ sameNetwork: true, networkName: dataset.networkName })]),
    );
    expect(await call('getDiscoveredBorderRouters')).toEqual(routers);

    expect(await call('apiDisable')).toEqual({ enabled: false });
    expect((await t.call<Json>('GET', '/thread/state')).body).toMatchObject({ enabled: false, role: 'disabled' });
    expect(await run('state')).toEqual(['disabled', 'Done']);
    await expect(run('channel')).rejects.toMatchObject({ code: 'conflict' });
    await expect(call('rescanBorderRouters')).rejects.toMatchObject({ code: 'conflict' });
    expect(await call('apiEnable')).toEqual({ enabled: true });

    const before = (await t.call<Json>('GET', '/thread/state')).body.networkName;
    const reset = (await call('apiReset')) as { enabled: boolean; dataset: Json };
    expect(reset.enabled).toBe(true);
    expect(reset.dataset.extendedPanId).not.toBe(dataset.extendedPanId);
    expect((await t.call<Json>('GET', '/thread/state')).body.networkName).toBe(before);
    expect(await call('getDiscoveredBorderRouters')).toEqual([]);
  });

  it("the older description's private tools: PAA certificates, interview, make-device, read-basic-info", async () => {
    for (const path of [
      '/matter/update-dcl-paa-certs',
      `/matter/interview?nodeId=${node}`,
      `/matter/make-device?nodeId=${node}`,
      `/matter/read-basic-info?nodeId=${node}`,
    ]) {
      const refused = await t.call<Json>('GET', path);
      expect(refused.status, path).toBe(403);
      expect(refused.body.error, path).toBe('private_operation');
    }
    const call = privateHandlers(t, matterManager);

    // The ledger follows the paaSettings option: the test ledger adds the test vendors (who made these nodes).
    expect((await t.call<Json>('GET', '/matter/state')).body.paaCertificatesUpdatedAt).toBeNull();
    const main = (await call('updateDclPaaCerts')) as { source: string; certificates: { vendorId: number }[]; updatedAt: string };
    expect(main.source).toBe('https://on.dcl.csa-iot.org');
    expect(main.certificates.map((c) => c.vendorId)).not.toContain(65521);
    expect((await t.call<Json>('GET', '/matter/state')).body.paaCertificatesUpdatedAt).toBe(main.updatedAt);
    await t.call('PUT', '/matter/option/paaSettings', { value: { testNet: true } });
    const test = (await call('updateDclPaaCerts')) as { source: string; certificates: { vendorId: number }[] };
    expect(test.source).toContain('test-net');
    expect(test.certificates.map((c) => c.vendorId)).toContain(65521);
    expect(test.certificates.length).toBeGreaterThan(main.certificates.length);
    await t.call('DELETE', '/matter/option/paaSettings');

    // Basic information is the node's BasicInformation cluster, as the attributes call reads it.
    await t.call('PUT', `/devices/device/${plug}`, { name: 'Desk plug' });
    const info = (await call('readBasicInfo', { query: { nodeId: plugNode } })) as Json;
    const attributes = (await t.call<Json[]>('GET', `/matter/node/${plugNode}/attributes`)).body;
    const basic = (name: string) => attributes.find((a) => a.attributeName === name)?.value;
    expect(info).toEqual({
      nodeId: plugNode,
      vendorId: basic('VendorID'),
      vendorName: basic('VendorName'),
      productName: basic('ProductName'),
      nodeLabel: 'Desk plug',
      softwareVersion: basic('SoftwareVersion'),
      reachable: true,
    });

    const interviewed = (await call('interviewNode', { query: { nodeId: plugNode } })) as Json;
    expect(interviewed).toMatchObject({ id: plugNode, deviceId: plug });
    expect((await t.call<Json>('POST', `/matter/node/${plugNode}/diagnostic-report`)).body.node).toMatchObject({
      lastInterviewAt: interviewed.lastInterviewAt,
    });

    // A node commissioned by pairing has its device already: make-device answers it and makes no second one.
    const before = Object.keys((await t.call<Json>('GET', '/devices/device')).body).length;
    expect(await call('makeDevice', { query: { nodeId: plugNode } })).toEqual({
      nodeId: plugNode,
      deviceId: plug,
      created: false,
    });
    expect(Object.keys((await t.call<Json>('GET', '/devices/device')).body)).toHaveLength(before);

    for (const name of ['interviewNode', 'makeDevice', 'readBasicInfo']) {
      await expect(call(name, { query: { nodeId: '999' } }), name).rejects.toMatchObject({ code: 'not_found' });
    }
  });

  it('Zigbee: flashing the coordinator firmware (private) keeps its network', async () => {
    expect((await t.call('PUT', '/zigbee/flash-firmware')).status).toBe(403);
    const before = (await t.call<Json>('GET', '/zigbee/state')).body;
    expect(before.firmwareVersion).toBe('7.4.1.0');
    const flashed = (await privateHandlers(t, zigbeeManager)('flashFirmware')) as Json;
    expect(flashed).toMatchObject({ previousFirmwareVersion: '7.4.1.0', firmwareVersion: '7.4.4.0', panId: before.panId });
    expect((await t.call<Json>('GET', '/zigbee/state')).body.firmwareVersion).toBe('7.4.4.0');
  });
});
