import { AppService } from '../managers/apps/service';
import { DeviceService } from '../managers/devices/service';
import { PairingService } from '../managers/drivers/pairing';
import { EnergyService } from '../managers/energy/service';
import { InsightsService } from '../managers/insights/service';
import type { HubContext } from '../platform/context';
import { RadioController } from './radio';

/**
 * The device runtime of one hub: installed apps and their processes, devices and their capability values,
 * pair sessions. Managers and other parts (moods, flows) reach it through {@link hubRuntime}.
 */
export interface HubRuntime {
  readonly apps: AppService;
  readonly devices: DeviceService;
  readonly pairing: PairingService;
  readonly insights: InsightsService;
  readonly energy: EnergyService;
  readonly radio: RadioController;
  start(): void;
  stop(): void;
}

const runtimes = new WeakMap<HubContext, HubRuntime>();
const running = new Set<HubRuntime>();

/** The runtime of a hub, created on first use. Its background work begins with `start()`. */
export function hubRuntime(context: HubContext): HubRuntime {
  let runtime = runtimes.get(context);
  if (runtime) return runtime;
  const apps = new AppService(context);
  const devices = new DeviceService(context, apps);
  const pairing = new PairingService(context, apps, devices);
  const insights = new InsightsService(context, devices);
  const energy = new EnergyService(context, devices);
  const radio = new RadioController(context, devices);
  const stops: (() => void)[] = [];
  let started = false;
  runtime = {
    apps,
    devices,
    pairing,
    insights,
    energy,
    radio,
    start() {
      if (started) return;
      started = true;
      running.add(this);
      stops.push(devices.start(), insights.start());
      apps.start();
    },
    stop() {
      if (!started) return;
      started = false;
      running.delete(this);
      apps.stop();
      for (const stop of stops.splice(0)) stop();
    },
  };
  runtimes.set(context, runtime);
  return runtime;
}

/**
 * Stops the background work of every runtime in this process. Managers' `stop()` is not told which hub
 * stops, so this stops all of them; timers are unref'd and check that their database is open, so a hub
 * left running in the same process keeps answering (only its simulation pauses).
 */
export function stopAllRuntimes(): void {
  for (const runtime of [...running]) runtime.stop();
}
