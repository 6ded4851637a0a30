import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extract } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';
import { commissionMatter } from '../../testing/matter';
import { untilAppRunning } from '../../testing/pairing';
import { backupDirectory } from '../backup';
import { RESTORE_NOTE, type RestoreNote, stagedRestoreDirectory } from '../backup/restore';
import { startVirtualPlug, type VirtualDeviceProcess } from './virtual-devices/process';

type Json = Record<string, unknown>;

/**
 * The hub's Matter fabric travels in its backup: a hub commissions a matter.js plug and is backed up; the archive
 * is restored into a new hub (another id and data folder, through the restore the hub applies at start, as after a
 * cloud download), which then controls the plug with the backed-up hub's credentials.
 */
describe("A backup restored into a new hub keeps control of the old hub's Matter nodes", () => {
  const scratch = mkdtempSync(join(tmpdir(), 'hearth-matter-backup-'));
  let plug: VirtualDeviceProcess;
  let t: TestHub;
  let deviceId: string;

  beforeAll(async () => {
    [plug, t] = await Promise.all([
      startVirtualPlug(join(scratch, 'plug')),
      startTestHub({ id: randomBytes(12).toString('hex'), dataDir: join(scratch, 'old') }),
    ]);
    await untilAppRunning(t);
    deviceId = (await commissionMatter(t, plug.manualPairingCode)).id;
  });
  afterAll(async () => {
    await t?.stop();
    await plug?.stop();
    rmSync(scratch, { recursive: true, force: true });
  });

  it('switches the plug from the new hub after a backup and restore', async () => {
    const archive = await t.call<{ fileName: string; id: string }>('POST', '/backup/backup', {});
    expect(archive.status).toBe(200);
    const file = join(backupDirectory(t.hub.context), archive.body.fileName);
    // The old hub is gone (one controller per fabric identity), as when a broken hub is replaced.
    await t.stop();

    const config = { id: randomBytes(12).toString('hex'), dataDir: join(scratch, 'new') };
    const staged = stagedRestoreDirectory(config);
    mkdirSync(staged, { recursive: true });
    await extract({ file, cwd: staged });
    const note: RestoreNote = { backupId: archive.body.id, name: null, stagedAt: new Date().toISOString() };
    writeFileSync(join(staged, RESTORE_NOTE), JSON.stringify(note));
    t = await startTestHub(config);
    await untilAppRunning(t);

    expect((await t.call<Json[]>('GET', '/matter/nodes')).body).toEqual([expect.objectContaining({ deviceId })]);
    const on = plug.next((line) => line.event === 'onoff' && line.value === true, 20_000);
    const write = await t.call('PUT', `/devices/device/${deviceId}/capability/onoff`, { value: true });
    expect(write.status).toBe(204);
    await expect(on).resolves.toEqual({ event: 'onoff', value: true });
  });
});
