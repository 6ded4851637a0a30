import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create as createTar } from 'tar';
import { startTestHub, type TestHub } from './hub';
import { pairDevice, untilAppRunning } from './pairing';

/**
 * Sends the app in folder `dir` to the test hub the way a developer's `homey app run` does: packed as a tar.gz and
 * sent over the older devkit form (`POST /api/manager/devkit/`, multipart: app, env). Answers status and body, so a
 * test can look at a refusal too.
 */
export async function postOverDevkit(
  t: TestHub,
  dir: string,
  env: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const work = mkdtempSync(join(tmpdir(), 'hearth-devkit-'));
  try {
    const file = join(work, 'app.tar.gz');
    await createTar({ gzip: true, cwd: dir, file, portable: true }, readdirSync(dir));
    const form = new FormData();
    form.append('app', new Blob([new Uint8Array(readFileSync(file))], { type: 'application/gzip' }), 'app.tar.gz');
    form.append('env', JSON.stringify(env));
    const response = await fetch(`${t.url}/api/manager/devkit/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.token}` },
      body: form,
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Runs the app in folder `dir` over the devkit (see {@link postOverDevkit}); answers the devkit session. */
export async function runOverDevkit(t: TestHub, dir: string, env: Record<string, string> = {}): Promise<{ sessionId: string }> {
  const { status, body } = await postOverDevkit(t, dir, env);
  if (status !== 200) throw new Error(`devkit run answered ${status}: ${JSON.stringify(body)}`);
  return body as { sessionId: string };
}

/** A test hub running the app in `dir` over the devkit, with one device of its driver `driverId` paired. */
export async function hubWithAppDevice(dir: string, appId: string, driverId: string): Promise<{ t: TestHub; deviceId: string }> {
  const t = await startTestHub();
  await runOverDevkit(t, dir);
  await untilAppRunning(t, appId);
  return { t, deviceId: await pairDevice(t, `homey:app:${appId}:${driverId}`) };
}
