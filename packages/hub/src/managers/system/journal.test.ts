import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';

/** The log lines of the diagnostic report the hub stores on `POST /system/journalctl`. */
async function reportedLog(t: TestHub): Promise<string[]> {
  const sent = await t.call<string>('POST', '/system/journalctl', {});
  expect(sent.status).toBe(200);
  const row = t.hub.context.db.prepare('SELECT report FROM system_log_report WHERE id = ?').pluck().get(sent.body) as string;
  return (JSON.parse(row) as { log: string[] }).log;
}

const journal = async (t: TestHub): Promise<string[]> => (await t.call<string[]>('GET', '/system/journalctl?lines=1000')).body;

describe('system journal: warnings and errors of the hub logger', () => {
  let t: TestHub | undefined;
  afterEach(async () => {
    await t?.stop();
    t = undefined;
  });

  it('journals a failed request and a component warning although the console is silent', async () => {
    t = await startTestHub();
    // A broken store makes the handler throw an unexpected error: answered 500 and logged by the error handler.
    t.hub.context.db.exec('DROP TABLE logic_variable');
    expect((await t.call('GET', '/logic/variable')).status).toBe(500);
    t.hub.app.log.warn({ err: new Error('socket hang up'), retryInMs: 1000 }, 'could not register with the cloud; retrying');
    t.hub.app.log.info('an informational line');

    for (const lines of [await reportedLog(t), await journal(t)]) {
      expect(lines.some((line) => /: error request failed: no such table: logic_variable$/.test(line))).toBe(true);
      expect(lines.some((line) => line.endsWith(': warn could not register with the cloud; retrying: socket hang up'))).toBe(
        true,
      );
      expect(lines.some((line) => line.includes('an informational line'))).toBe(false);
    }
  });

  it('keeps request logs out of the journal when the console shows them', async () => {
    // At level info the console gets two lines per request; the journal must only get the warning.
    t = await startTestHub({ logLevel: 'info' });
    const before = (await journal(t)).length;
    for (let i = 0; i < 2; i++) expect((await t.call('GET', '/system/')).status).toBe(200);
    t.hub.app.log.error(new Error('disk full'));
    const added = (await journal(t)).slice(before);
    expect(added).toHaveLength(1);
    expect(added[0]).toMatch(/: error disk full$/);
  });

  it('still refuses an unknown log level', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hearth-hub-'));
    try {
      await expect(startTestHub({ logLevel: 'verbose', dataDir })).rejects.toThrow('Unknown log level "verbose"');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
