import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestHub } from '../../testing/hub';
import { plugAndHub, startOtherController } from '../../testing/matter';
import { privateHandlers } from '../../testing/private';
import { matterManager } from '.';
import type { MatterControllerNode } from './stack/controller-node';
import { readNodeFabrics } from './stack/node-admin';
import type { VirtualDeviceProcess } from './virtual-devices/process';

type Json = Record<string, unknown>;
type Fabric = { fabricIndex: number; isCurrent: boolean; vendorId: number };

/**
 * Every call of the matter manager against a matter.js plug in its own process, commissioned onto the hub's
 * fabric: answers are read from the plug (its attributes, fabrics, addresses), and the multi-admin calls are
 * checked with a second, bare matter.js controller joining and leaving the plug.
 */
describe("The matter manager's calls, answered by a commissioned matter.js plug", () => {
  const rig = plugAndHub('calls', { commission: true });
  let plug: VirtualDeviceProcess;
  let other: MatterControllerNode;
  let t: TestHub;
  let deviceId: string;
  let node: string;

  beforeAll(async () => {
    ({ plug, hub: t, deviceId } = rig);
    other = await startOtherController(rig.scratch);
    node = String((await t.call<Json[]>('GET', '/matter/nodes')).body[0]?.id);
  });
  afterAll(() => other?.stop());

  it('lists the commissioned node with its device, and 404 for any other id', async () => {
    const nodes = (await t.call<Json[]>('GET', '/matter/nodes')).body;
    expect(nodes).toEqual([
      expect.objectContaining({ id: node, deviceId, vendorId: 0xfff1, productName: 'Virtual plug', reachable: true }),
    ]);
    expect((await t.call<Json>('GET', `/matter/node/${node}`)).body).toEqual(nodes[0]);
    expect((await t.call<Json>('GET', '/matter/state')).body).toMatchObject({ controller: 'matter.js', running: true, nodes: 1 });
    for (const path of ['/matter/node/999', '/matter/node/999/attributes', '/matter/node/999/fabrics']) {
      expect((await t.call<Json>('GET', path)).body, path).toMatchObject({ error: 'not_found' });
    }
  });

  it("reads the node's attributes from the plug itself", async () => {
    const onoff = async () =>
      (await t.call<Json[]>('GET', `/matter/node/${node}/attributes`)).body.find((a) => a.clusterName === 'OnOff');
    await t.call('PUT', `/devices/device/${deviceId}/capability/onoff`, { value: true });
    expect(await onoff()).toEqual({
      endpoint: 1,
      cluster: 6,
      clusterName: 'OnOff',
      attribute: 0,
      attributeName: 'onOff',
      value: true,
    });
    // A change at the plug is what a read answers next: the read goes to the plug.
    const changed = plug.next((line) => line.event === 'onoff' && line.value === false);
    plug.press('off');
    await changed;
    expect((await onoff())?.value).toBe(false);
    const attributes = (await t.call<Json[]>('GET', `/matter/node/${node}/attributes`)).body;
    expect(attributes).toContainEqual({
      endpoint: 0,
      cluster: 0x28,
      clusterName: 'BasicInformation',
      attribute: 1,
      attributeName: 'vendorName',
      value: 'Hearth Matter Lab',
    });
    const call = privateHandlers(t, matterManager);
    expect(await call('readBasicInfo', { query: { nodeId: node } })).toEqual({
      nodeId: node,
      vendorId: 0xfff1,
      vendorName: 'Hearth Matter Lab',
      productName: 'Virtual plug',
      nodeLabel: 'Virtual plug',
      // The virtual devices say they run software version 1 (virtual-devices/node.ts).
      softwareVersion: 1,
      reachable: true,
    });
  });

  it('pings the node, resolves its address, interviews it again and reports diagnostics', async () => {
    expect((await t.call<Json>('POST', `/matter/node/${node}/ping`)).body).toEqual({
      id: node,
      reachable: true,
      rttMs: expect.any(Number),
    });
    const address = (await t.call<Json>('POST', `/matter/node/${node}/resolve-address`)).body;
    expect(address).toMatchObject({ id: node, port: plug.port, transport: 'ip' });
    expect((address.addresses as string[]).length).toBeGreaterThan(0);
    const interviewed = (await t.call<Json>('POST', `/matter/node/${node}/force-update`)).body;
    expect(interviewed).toMatchObject({ id: node, deviceId });
    expect(interviewed.attributesRead).toBeGreaterThan(20);
    const report = (await t.call<Json>('POST', `/matter/node/${node}/diagnostic-report`)).body;
    expect(report).toMatchObject({ node: { id: node, lastInterviewAt: interviewed.lastInterviewAt }, address });
    expect(report.fabrics).toHaveLength(1);
  });

  it('says there is no DCL instead of inventing firmware or attestation authorities', async () => {
    const firmware = (await t.call<Json>('GET', `/matter/node/${node}/firmware-update`)).body;
    expect(firmware).toEqual({ softwareVersion: 1, available: null, reason: expect.stringContaining('(DCL)') });
    const install = await t.call<Json>('POST', `/matter/node/${node}/firmware-update`, { softwareVersion: 2 });
    expect(install).toMatchObject({ status: 409, body: { error: 'conflict' } });
    await expect(privateHandlers(t, matterManager)('updateDclPaaCerts')).rejects.toMatchObject({ code: 'conflict' });
  });

  it('answers Thread and Wi-Fi information only for a node that has that network', async () => {
    for (const network of ['thread-network', 'wifi-network']) {
      const answer = await t.call<Json>('GET', `/matter/node/${node}/${network}`);
      expect(answer.status, network).toBe(400);
      expect(String(answer.body.error_description)).toContain('Network Diagnostics');
    }
  });

  it('shares the node with another controller, which the hub can then take off the node', async () => {
    const call = privateHandlers(t, matterManager);
    expect((await t.call<Json>('POST', '/matter/open-commissioning-window', { deviceId })).body).toMatchObject({
      error: 'private_operation',
    });
    const window = (await call('openCommissioningWindow', { body: { deviceId, timeout: 180 } })) as Json;
    expect(String(window.manualPairingCode)).toMatch(/^\d{11}$/);
    await other.commission(String(window.manualPairingCode));
    const fabrics = (await t.call<Fabric[]>('GET', `/matter/node/${node}/fabrics`)).body;
    expect(fabrics.map((f) => [f.fabricIndex, f.isCurrent])).toEqual([
      [1, true],
      [2, false],
    ]);
    expect((await t.call('GET', `/matter/fabrics?deviceId=${deviceId}`)).body).toEqual(fabrics);
    expect((await t.call<Json>('DELETE', `/matter/node/${node}/fabric/1`)).body).toMatchObject({ error: 'conflict' });
    expect((await t.call<Json>('DELETE', `/matter/node/${node}/fabric/9`)).body).toMatchObject({ error: 'not_found' });
    expect((await t.call('DELETE', `/matter/node/${node}/fabric/x`)).status).toBe(400);
    expect((await t.call<Json>('POST', '/matter/delete-fabric', { deviceId: 'nope', fabricIndex: 2 })).status).toBe(404);
    expect((await t.call('POST', '/matter/delete-fabric', { deviceId, fabricIndex: 2 })).status).toBe(204);
    expect((await t.call<Fabric[]>('GET', `/matter/node/${node}/fabrics`)).body).toHaveLength(1);
    expect((await t.call('GET', '/matter/fabrics')).status).toBe(400);
  });

  it("the older description's private tools interview the node and answer its existing device", async () => {
    const call = privateHandlers(t, matterManager);
    expect(await call('interviewNode', { query: { nodeId: node } })).toMatchObject({ id: node, deviceId });
    const before = Object.keys((await t.call<Json>('GET', '/devices/device')).body).length;
    expect(await call('makeDevice', { query: { nodeId: node } })).toEqual({ nodeId: node, deviceId, created: false });
    expect(Object.keys((await t.call<Json>('GET', '/devices/device')).body)).toHaveLength(before);
    for (const name of ['interviewNode', 'makeDevice', 'readBasicInfo']) {
      await expect(call(name, { query: { nodeId: '999' } }), name).rejects.toMatchObject({ code: 'not_found' });
    }
  });

  it("removing the node takes the hub off the node's fabric and deletes its device", async () => {
    // A third controller stays on the node and sees the hub's fabric go (the second one's peer left the node).
    const third = await startOtherController(join(rig.scratch, 'third'));
    const window = (await privateHandlers(t, matterManager)('openCommissioningWindow', { body: { deviceId } })) as Json;
    const shared = await third.commission(String(window.manualPairingCode));
    const peer = third.peer(shared.peerId)!;
    expect(await readNodeFabrics(peer)).toHaveLength(2);
    expect((await t.call('DELETE', `/matter/node/${node}`)).status).toBe(204);
    expect(await readNodeFabrics(peer)).toEqual([expect.objectContaining({ isCurrent: true })]);
    expect((await t.call('GET', `/devices/device/${deviceId}`)).status).toBe(404);
    expect((await t.call<Json[]>('GET', '/matter/nodes')).body).toEqual([]);
    await third.stop();
  });
});
