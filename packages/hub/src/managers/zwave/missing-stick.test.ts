import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';
import { until } from '../../testing/until';

type Json = Record<string, unknown>;

describe('Z-Wave with a stick that is not there', () => {
  let t: TestHub;
  const port = '/dev/ttyHEARTH-NO-SUCH-STICK';

  beforeAll(async () => {
    t = await startTestHub({ zwavePort: port });
  });
  afterAll(() => t.stop());

  it('the hub runs on; state and commands say why there is no controller; the journal says what failed', async () => {
    // zwave-js tries the port a few times (about ten seconds) before it gives up.
    const state = await until(
      () => t.call<Json & { controller: Json }>('GET', '/zwave/state'),
      (s) => s.body.controller.failure !== null,
      25_000,
    );
    expect(state.body).toMatchObject({ controller: { port, ready: false }, homeId: null, nodes: [] });
    expect(String(state.body.controller.failure)).toContain('No such file or directory');
    const refused = await t.call<Json>('POST', '/zwave/command', { command: 'getNodes' });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('no_controller');
    expect(refused.body.error_description).toContain(port);
    expect(t.hub.context.journal.tail(50).some((line) => line.includes(`Z-Wave: opening ${port} failed`))).toBe(true);
    // The rest of the hub answers as ever.
    expect((await t.call('GET', '/zones/zone')).status).toBe(200);
  });
});
