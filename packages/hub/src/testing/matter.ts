import { join } from 'node:path';
import { systemClock } from '../core/clock';
import { MATTER_DRIVER_ID } from '../managers/matter/fabric';
import { MatterControllerNode } from '../managers/matter/stack/controller-node';
import type { TestHub } from './hub';

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
