import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';
import { untilAppRunning } from '../../testing/pairing';
import { MATTER_DRIVER_ID } from './fabric';

type Json = Record<string, unknown>;

describe('Matter migrations', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'hearth-matter-migrations-'));
  const config = { id: randomBytes(12).toString('hex'), dataDir: join(scratch, 'hub') };
  let t: TestHub | undefined;
  afterAll(async () => {
    await t?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('moves devices stored under the old driver id `matteronoff` to the cluster-based driver', async () => {
    t = await startTestHub(config);
    await untilAppRunning(t);
    const { devices } = t.hub.services;
    const driver = devices.driverOf({ driverId: MATTER_DRIVER_ID } as Parameters<typeof devices.driverOf>[0]);
    const device = devices.create(driver!, {
      name: 'Old plug',
      data: { id: 'peer1:1', matter: { peerId: 'peer1', nodeId: '1', endpoint: 1 } },
      capabilities: ['onoff'],
    });
    // As a hub before the rename stored it: the old id, and the migration not applied yet.
    const old = 'homey:app:com.hearth.virtual:matteronoff';
    t.hub.context.db.prepare('UPDATE device SET driver_id = ? WHERE id = ?').run(old, device.id);
    t.hub.context.db.prepare("DELETE FROM migration WHERE id = 'matter-001-cluster-driver-id'").run();
    await t.stop();

    t = await startTestHub(config);
    const migrated = (await t.call<Json>('GET', `/devices/device/${device.id}`)).body;
    expect(migrated).toMatchObject({ name: 'Old plug', driverId: MATTER_DRIVER_ID });
  });
});
