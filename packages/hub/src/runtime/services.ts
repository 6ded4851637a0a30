import { type AppProcesses, appProcesses } from '../managers/apps/process/runtime';
import { AppService } from '../managers/apps/service';
import { AppWidgetRegistry } from '../managers/dashboards/registry';
import { DeviceService } from '../managers/devices/service';
import { PairingService } from '../managers/drivers/pairing';
import { EnergyService } from '../managers/energy/service';
import { FlowRegistry } from '../managers/flow/registry';
import { InsightsService } from '../managers/insights/service';
import type { HubContext } from '../platform/context';
import { RadioController } from './radio';

/**
 * The services of one hub's device runtime: installed apps and their processes, devices and their capability
 * values, pair sessions, insights, energy, the radios, and the registries of flow cards and app widgets that
 * managers and apps contribute to. The composition root creates them once per hub and hands them to the
 * managers that need them; the apps manager starts and stops their background work.
 */
export interface HubServices {
  readonly apps: AppService;
  readonly devices: DeviceService;
  readonly pairing: PairingService;
  readonly insights: InsightsService;
  readonly energy: EnergyService;
  readonly radio: RadioController;
  /** Apps with code, each in its own process. */
  readonly processes: AppProcesses;
  /** The flow cards and tokens the hub's parts and its apps offer. */
  readonly flowCards: FlowRegistry;
  /** The dashboard widgets apps offer. */
  readonly widgets: AppWidgetRegistry;
}

/** The services and their lifecycle: `start` begins their background work, `stop` undoes exactly that. */
export interface HubRuntime extends HubServices {
  start(): void;
  stop(): Promise<void>;
}

/** Creates a hub's services. Nothing runs until `start`. */
export function createHubRuntime(context: HubContext): HubRuntime {
  const flowCards = new FlowRegistry();
  const widgets = new AppWidgetRegistry();
  const apps = new AppService(context);
  const devices = new DeviceService(context, apps);
  const pairing = new PairingService(context, apps, devices);
  const insights = new InsightsService(context, devices);
  const energy = new EnergyService(context, devices, insights);
  const radio = new RadioController(context, devices);
  const processes = appProcesses(context, apps, devices, insights, pairing, flowCards);
  const stops: (() => void | Promise<void>)[] = [];
  let started = false;
  return {
    apps,
    devices,
    pairing,
    insights,
    energy,
    radio,
    processes,
    flowCards,
    widgets,
    start() {
      if (started) return;
      started = true;
      stops.push(devices.start(), insights.start());
      processes.start();
      stops.push(() => processes.stop());
      apps.start();
      stops.push(() => apps.stop());
    },
    async stop() {
      if (!started) return;
      started = false;
      for (const stop of stops.splice(0).reverse()) await stop();
    },
  };
}
