import type { HubOptions } from '../server';
import { runOverDevkit } from './devkit';
import { startTestHub, type TestHub } from './hub';
import { untilAppRunning } from './pairing';
import { until } from './until';
import { startZwaveMockNetwork, type ZwaveMockNetwork } from './zwave-mock';

/** A test hub on an empty virtual Z-Wave network, its controller ready, with an app (a fixture folder) run over the devkit. */
export interface ZwaveTestHub {
  network: ZwaveMockNetwork;
  t: TestHub;
  /** The app's devkit session: its std lines are `GET /devkit/std/<sessionId>`. */
  sessionId: string;
  stop(): Promise<void>;
}

export async function startZwaveTestHub(fixture: string, appId: string, options: HubOptions = {}): Promise<ZwaveTestHub> {
  const network = await startZwaveMockNetwork({ nodes: false });
  const t = await startTestHub({ zwavePort: network.port }, options);
  await untilAppRunning(t);
  const state = await until(
    () => t.call<{ controller: { ready: boolean; failure: string | null } }>('GET', '/zwave/state'),
    (s) => s.body.controller.ready,
    20_000,
  );
  // Fail here, at the cause, rather than at the first call that needs the controller (a 409 far from its reason).
  if (!state.body.controller.ready)
    throw new Error(`the Z-Wave controller was not ready within 20 s: ${state.body.controller.failure ?? 'still opening'}`);
  const { sessionId } = await runOverDevkit(t, fixture);
  await untilAppRunning(t, appId);
  return {
    network,
    t,
    sessionId,
    async stop() {
      await t.stop();
      await network.stop();
    },
  };
}
