import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { HubConfig } from '../config';
import { systemClock } from '../core/clock';
import { MATTER_DRIVER_ID } from '../managers/matter/fabric';
import { MatterControllerNode } from '../managers/matter/stack/controller-node';
import {
  startVirtualDevices,
  startVirtualPlug,
  type VirtualDeviceKind,
  type VirtualDeviceProcess,
} from '../managers/matter/virtual-devices/process';
import { startTestHub, type TestHub } from './hub';
import { untilAppRunning } from './pairing';
import { until } from './until';

type Json = Record<string, unknown>;

/** A device the hub's pair session added, as the HTTP API answers it. */
export type PairedMatterDevice = Json & { id: string; class: string; capabilities: string[] };

/** Opens a pair session of the built-in Matter driver and sends it a pairing code; answers the emit's response. */
export async function emitMatterCode(t: TestHub, code: string) {
  const session = (await t.call<{ id: string }>('POST', '/drivers/pairsession', { type: 'pair', driverId: MATTER_DRIVER_ID }))
    .body.id;
  const found = await t.call<Json[] & Json>('POST', `/drivers/pairsession/${session}/emit`, {
    event: 'matter_code',
    data: { code },
  });
  return { session, found };
}

/** Commissions a node through the hub's HTTP pair session and adds its first endpoint's device. */
export async function commissionMatter(t: TestHub, code: string): Promise<PairedMatterDevice> {
  const { session, found } = await emitMatterCode(t, code);
  if (found.status !== 200) throw new Error(`Commissioning answered ${found.status}: ${JSON.stringify(found.body)}`);
  const added = await t.call<PairedMatterDevice>('POST', `/drivers/pairsession/${session}/device`, found.body[0]);
  if (added.status !== 200) throw new Error(`Adding the device answered ${added.status}: ${JSON.stringify(added.body)}`);
  return added.body;
}

/**
 * A second, bare matter.js controller (another ecosystem's, in a multi-admin test): its own fabric in `dir`, on
 * the real clock; what it reports is ignored.
 */
export async function startOtherController(dir: string): Promise<MatterControllerNode> {
  const controller = new MatterControllerNode({
    storageDir: join(dir, 'other-controller'),
    port: 0,
    commissionTimeoutMs: 60_000,
    subscribeTimeoutMs: 45_000,
    clock: systemClock,
    onReport: () => {},
    onReachability: () => {},
    onError: () => {},
  });
  await controller.start();
  return controller;
}

/**
 * What a Matter test works with: a matter.js plug in its own process and a hub started side by side in one scratch
 * folder (the plug's fabric in `plug/`, the hub's data in `hub/`). Tests may replace `plug` or `hub` (a restarted
 * plug, a restored hub); whatever is there at the end is stopped.
 */
export interface PlugAndHub {
  readonly scratch: string;
  plug: VirtualDeviceProcess;
  hub: TestHub;
  /** The device the plug's first endpoint became, when the rig commissioned it. */
  deviceId: string;
}

/**
 * Declares a suite's plug and hub: started before its tests (the hub's built-in apps running, the plug commissioned
 * through the pair session when `commission` is set), stopped and removed after them.
 */
export function plugAndHub(name: string, options: { hub?: Partial<HubConfig>; commission?: boolean } = {}): PlugAndHub {
  const rig = { scratch: mkdtempSync(join(tmpdir(), `hearth-matter-${name}-`)), deviceId: '' } as PlugAndHub;
  beforeAll(async () => {
    [rig.plug, rig.hub] = await Promise.all([
      startVirtualPlug(join(rig.scratch, 'plug')),
      startTestHub({ id: randomBytes(12).toString('hex'), dataDir: join(rig.scratch, 'hub'), ...options.hub }),
    ]);
    await untilAppRunning(rig.hub);
    if (options.commission) rig.deviceId = (await commissionMatter(rig.hub, rig.plug.manualPairingCode)).id;
  });
  afterAll(async () => {
    await rig.hub?.stop();
    await rig.plug?.stop();
    rmSync(rig.scratch, { recursive: true, force: true });
  });
  return rig;
}

/** A device of the hub as the HTTP API answers it, with its capability values. */
export type HubDevice = Json & {
  id: string;
  class: string;
  capabilities: string[];
  capabilitiesObj: Record<string, { value: unknown }>;
};

/** What a suite of several device kinds works with: the devices (one process), a hub, and each kind's device id. */
export interface DevicesAndHub<Kind extends VirtualDeviceKind> {
  readonly devices: Record<Kind, VirtualDeviceProcess>;
  hub: TestHub;
  /** Commissions a kind's device through the hub's pair session; answers the hub device it became. */
  commission(kind: Kind): Promise<HubDevice>;
  /** The hub device a kind became, read now over HTTP. */
  read(kind: Kind): Promise<HubDevice>;
  /** Reads the kind's hub device until `ok` accepts it (5 s), and answers the last one read. */
  until(kind: Kind, ok: (device: HubDevice) => boolean): Promise<HubDevice>;
  /** Asks the kind's device for an attribute's value until it is `expected` (5 s); answers the last value. */
  deviceState(kind: Kind, attribute: string, expected: unknown): Promise<unknown>;
  /** Sets a capability over HTTP; answers the status. */
  write(kind: Kind, capability: string, value: unknown): Promise<{ status: number; body: unknown }>;
}

/**
 * Declares a suite's virtual devices (all in one process, each its own node) and hub, started before its tests and
 * stopped and removed after them.
 */
export function devicesAndHub<Kind extends VirtualDeviceKind>(name: string, kinds: readonly Kind[]): DevicesAndHub<Kind> {
  const scratch = mkdtempSync(join(tmpdir(), `hearth-matter-${name}-`));
  const ids = new Map<Kind, string>();
  const idOf = (kind: Kind) => {
    const id = ids.get(kind);
    if (!id) throw new Error(`The ${kind} was not commissioned`);
    return id;
  };
  const rig: DevicesAndHub<Kind> = {
    devices: {} as Record<Kind, VirtualDeviceProcess>,
    hub: undefined as unknown as TestHub,
    async commission(kind) {
      const added = (await commissionMatter(rig.hub, rig.devices[kind].manualPairingCode)) as HubDevice;
      ids.set(kind, added.id);
      return added;
    },
    read: async (kind) => (await rig.hub.call<HubDevice>('GET', `/devices/device/${idOf(kind)}`)).body,
    until: (kind, ok) => until(() => rig.read(kind), ok, 5_000),
    deviceState: (kind, attribute, expected) =>
      until(
        () => rig.devices[kind].get(attribute),
        (value) => value === expected,
        5_000,
      ),
    write: (kind, capability, value) => rig.hub.call('PUT', `/devices/device/${idOf(kind)}/capability/${capability}`, { value }),
  };
  beforeAll(async () => {
    const [hub, devices] = await Promise.all([
      startTestHub({ id: randomBytes(12).toString('hex'), dataDir: join(scratch, 'hub') }),
      startVirtualDevices(
        kinds.map((kind) => ({ kind })),
        join(scratch, 'devices'),
      ),
    ]);
    rig.hub = hub;
    for (const device of devices) rig.devices[device.kind as Kind] = device;
    await untilAppRunning(hub);
    // Two processes start at once; on a loaded machine that takes longer than the default hook timeout.
  }, 180_000);
  afterAll(async () => {
    await rig.hub?.stop();
    await Object.values<VirtualDeviceProcess>(rig.devices)[0]?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });
  return rig;
}
