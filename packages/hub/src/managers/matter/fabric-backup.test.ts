import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { extract } from 'tar';
import { describe, expect, it } from 'vitest';
import { startTestHub } from '../../testing/hub';
import { plugAndHub } from '../../testing/matter';
import { untilAppRunning } from '../../testing/pairing';
import { backupDirectory } from '../backup';
import { RESTORE_NOTE, type RestoreNote, stagedRestoreDirectory } from '../backup/restore';

type Json = Record<string, unknown>;

/**
 * The hub's Matter fabric travels in its backup: a hub commissions a matter.js plug and is backed up; the archive
 * is restored into a new hub (another id and data folder, through the restore the hub applies at start, as after a
 * cloud download), which then controls the plug with the backed-up hub's credentials.
 */
describe("A backup restored into a new hub keeps control of the old hub's Matter nodes", () => {
  const rig = plugAndHub('backup', { commission: true });

  it('switches the plug from the new hub after a backup and restore', async () => {
    const archive = await rig.hub.call<{ fileName: string; id: string }>('POST', '/backup/backup', {});
    expect(archive.status).toBe(200);
    const file = join(backupDirectory(rig.hub.hub.context), archive.body.fileName);
    // The old hub is gone (one controller per fabric identity), as when a broken hub is replaced.
    await rig.hub.stop();

    const config = { id: randomBytes(12).toString('hex'), dataDir: join(rig.scratch, 'new') };
    const staged = stagedRestoreDirectory(config);
    mkdirSync(staged, { recursive: true });
    await extract({ file, cwd: staged });
    const note: RestoreNote = { backupId: archive.body.id, name: null, stagedAt: new Date().toISOString() };
    writeFileSync(join(staged, RESTORE_NOTE), JSON.stringify(note));
    rig.hub = await startTestHub(config);
    await untilAppRunning(rig.hub);

    expect((await rig.hub.call<Json[]>('GET', '/matter/nodes')).body).toEqual([
      expect.objectContaining({ deviceId: rig.deviceId }),
    ]);
    const on = rig.plug.next((line) => line.event === 'onoff' && line.value === true, 20_000);
    const write = await rig.hub.call('PUT', `/devices/device/${rig.deviceId}/capability/onoff`, { value: true });
    expect(write.status).toBe(204);
    await expect(on).resolves.toMatchObject({ event: 'onoff', value: true });
  });
});
