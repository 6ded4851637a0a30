import { type AppProcesses, appProcesses } from '../managers/apps/process/runtime';
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
  /** Apps with code, each in its own process. */
  readonly processes: AppProcesses;
  start(): void;
  stop(): void;
  /** Whether the hub has closed this runtime's database. */
  closed(): boolean;
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
  const energy = new EnergyService(context, devices, insights);
  const radio = new RadioController(context, devices);
  const processes = appProcesses(context, apps, devices, insights, pairing);
  const stops: (() => void)[] = [];
  let started = false;
  runtime = {
    apps,
    devices,
    pairing,
    insights,
    energy,
    radio,
    processes,
    start() {
      if (started) return;
      started = true;
      running.add(this);
      stops.push(devices.start(), insights.start());
      processes.start();
      stops.push(() => processes.stop());
      apps.start();
      // The hub closes its database after its managers stop; a runtime whose database is closed stops itself.
      const watchdog = setInterval(() => {
        if (!context.db.open) this.stop();
      }, 500);
      watchdog.unref();
      stops.push(() => clearInterval(watchdog));
    },
    closed: () => !context.db.open,
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
 * Stops the background work of the runtimes whose hub has closed its database. A manager's `stop()` is not
 * told which hub stops, so a runtime never stops another hub's work: each also stops itself once its
 * database is closed (its timers are unref'd and check that first).
 */
export function stopClosedRuntimes(): void {
  for (const runtime of [...running]) if (runtime.closed()) runtime.stop();
}
