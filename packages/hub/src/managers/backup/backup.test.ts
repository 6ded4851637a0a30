import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { extract } from 'tar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';
import { backupDirectory } from '.';

interface Archive {
  id: string;
  fileName: string;
  size: number;
  sha256: string;
}

describe('backup manager', () => {
  let t: TestHub;
  beforeAll(async () => {
    t = await startTestHub();
  });
  afterAll(() => t.stop());

  it('writes a real archive of the database and records the last successful backup', async () => {
    await t.call('POST', '/logic/variable', { name: 'Backed up', type: 'string', value: 'yes' });
    expect((await t.call('GET', '/backup/option/lastSuccessfulBackup')).body).toEqual({ value: null });
    const answer = await t.call<Archive>('POST', '/backup/backup', {});
    expect(answer.status).toBe(200);
    const file = join(backupDirectory(t.hub.context), answer.body.fileName);
    const unpacked = mkdtempSync(join(tmpdir(), 'hearth-backup-test-'));
    await extract({ file, cwd: unpacked });
    const copy = new Database(join(unpacked, 'hub.db'), { readonly: true });
    try {
      expect(copy.prepare('SELECT value FROM logic_variable WHERE name = ?').pluck().get('Backed up')).toBe('"yes"');
    } finally {
      copy.close();
    }
    const manifest = JSON.parse(readFileSync(join(unpacked, 'hearth-backup.json'), 'utf8'));
    expect(manifest).toMatchObject({ format: 1, hubId: t.hub.context.config.id, counts: { variables: 1 } });
    rmSync(unpacked, { recursive: true, force: true });
    // A hub without a cloud keeps its backups on its own disk only.
    expect(answer.body).toMatchObject({ cloudBackupId: null, cloudError: null });
    const last = await t.call<{ value: string }>('GET', '/backup/option/lastSuccessfulBackup');
    expect(Date.parse(last.body.value)).toBeGreaterThan(Date.now() - 60_000);
    const state = await t.call<{ archives: Archive[]; automaticBackupsEnabled: boolean; nextAutomaticBackup: string }>(
      'GET',
      '/backup/state',
    );
    expect(state.body.archives.map((a) => a.id)).toEqual([answer.body.id]);
    expect(state.body.automaticBackupsEnabled).toBe(true);
    expect(new Date(state.body.nextAutomaticBackup).getHours()).toBe(3);
  });

  it('keeps the options', async () => {
    expect((await t.call('PUT', '/backup/option/automaticBackupsEnabled', { value: false })).body).toEqual({ value: false });
    expect((await t.call('GET', '/backup/option/automaticBackupsEnabled')).body).toEqual({ value: false });
    expect((await t.call('DELETE', '/backup/option/automaticBackupsEnabled')).status).toBe(204);
    expect((await t.call('PUT', '/backup/option/automaticBackupsEnabled', { value: 'on' })).status).toBe(400);
    const when = '2026-01-01T03:00:00.000Z';
    expect((await t.call('PUT', '/backup/option/lastSuccessfulBackup', { value: when })).body).toEqual({ value: when });
    expect((await t.call('PUT', '/backup/option/lastSuccessfulBackup', { value: 'yesterday' })).status).toBe(400);
    expect((await t.call('DELETE', '/backup/option/lastSuccessfulBackup')).status).toBe(204);
    expect((await t.call('GET', '/backup/option/lastSuccessfulBackup')).body).toEqual({ value: null });
  });
});
