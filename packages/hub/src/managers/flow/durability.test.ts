import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../core/clock';
import { startTestHub } from '../../testing/hub';
import { pairDevice, untilAppRunning } from '../../testing/pairing';
import { startHubProcess } from '../../testing/process';
import { until } from '../../testing/until';

const LIGHT = 'homey:app:com.hearth.virtual:zigbee';
interface Trace {
  status: string;
  steps: { kind: string; outcome: string; message?: string }[];
}

/** A flow whose action waits 2 s before dimming a light, started at once. */
const delayedDim = (light: string, seconds: string) => ({
  name: 'Dim later',
  trigger: { uri: 'homey:manager:flow', id: 'programmatic_trigger' },
  conditions: [],
  actions: [{ uri: `homey:device:${light}`, id: 'dim_set', args: { value: 0.9 }, delay: { number: seconds, multiplier: 1 } }],
});

describe('delayed actions survive the hub', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'hearth-flow-delays-'));
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs a pending delay after the hub was killed with SIGKILL during it', { timeout: 120_000 }, async () => {
    const id = randomBytes(12).toString('hex');
    const first = await startHubProcess(id, dataDir);
    children.push(first.child);
    const call = async <T>(url: string, token: string, method: string, path: string, body?: unknown) => {
      const response = await fetch(`${url}/api/manager${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-homey-id': id },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return { status: response.status, body: (await response.json().catch(() => null)) as T };
    };
    const api = (method: string, path: string, body?: unknown) => call(first.url, first.token, method, path, body);
    await until(
      () => api('GET', '/apps/app/com.hearth.virtual'),
      (answer) => (answer.body as { state?: string }).state === 'running',
    );
    const session = await api('POST', '/drivers/pairsession', { type: 'pair', driverId: LIGHT });
    const sessionId = (session.body as { id: string }).id;
    const found = await api('POST', `/drivers/pairsession/${sessionId}/emit`, { event: 'list_devices' });
    const candidate = (found.body as unknown[])[0];
    const light = ((await api('POST', `/drivers/pairsession/${sessionId}/device`, candidate)).body as { id: string }).id;
    await api('PUT', `/devices/device/${light}/capability/dim`, { value: 0.1 });
    const flow = (await api('POST', '/flow/flow', delayedDim(light, '2'))).body as { id: string };
    expect((await api('POST', `/flow/flow/${flow.id}/trigger`, {})).status).toBe(200);
    const pending = await api('GET', '/flow/flow/pending');
    expect(pending.body).toHaveLength(1);
    first.child.kill('SIGKILL');
    await new Promise((resolve) => first.child.once('exit', resolve));

    await new Promise((resolve) => setTimeout(resolve, 2_500));
    const second = await startHubProcess(id, dataDir);
    children.push(second.child);
    const again = (method: string, path: string) => call(second.url, second.token, method, path);
    const dimmed = await until(
      () => again('GET', `/devices/device/${light}/capability/dim`),
      (answer) => answer.body === 0.9,
    );
    expect(dimmed.body).toBe(0.9);
    expect((await again('GET', '/flow/flow/pending')).body).toEqual([]);
    const traces = (await again('GET', `/flow/flow/${flow.id}/trace`)).body as Trace[];
    expect(traces[0]?.steps.map((step) => `${step.kind}:${step.outcome}`)).toEqual([
      'delay:scheduled',
      'action:started',
      'action:done',
    ]);
    expect(traces[0]?.status).toBe('completed');
    second.child.kill('SIGTERM');
  });

  it('records a delay as missed, not run, when the hub comes back more than the grace later', async () => {
    const clock = new FakeClock(Date.UTC(2026, 5, 1, 9, 0, 0));
    const id = randomBytes(12).toString('hex');
    const dir = mkdtempSync(join(tmpdir(), 'hearth-flow-missed-'));
    try {
      const first = await startTestHub({ id, dataDir: dir }, { clock });
      await untilAppRunning(first);
      const light = await pairDevice(first, LIGHT);
      await first.call('PUT', `/devices/device/${light}/capability/dim`, { value: 0.1 });
      const flow = await first.call<{ id: string }>('POST', '/flow/flow', delayedDim(light, '60'));
      await first.call('POST', `/flow/flow/${flow.body.id}/trigger`, {});
      await first.stop();
      await clock.advance(60_000 + 20 * 60_000); // due a minute in, back twenty minutes after that

      const second = await startTestHub({ id, dataDir: dir }, { clock });
      await clock.advance(0);
      const traces = await until(
        () => second.call<Trace[]>('GET', `/flow/flow/${flow.body.id}/trace`),
        (answer) => answer.body[0]?.steps.some((step) => step.outcome === 'missed') === true,
      );
      expect(traces.body[0]?.steps.at(-1)?.message).toContain('the hub was off');
      expect(second.hub.services.devices.getCapabilityValue(light, 'dim')).toBe(0.1);
      await second.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
