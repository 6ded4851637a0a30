import type { CapabilityDriver } from '../core/device-control';
import { AppCapabilityDriver } from '../managers/apps/process/device-control';
import { type AppProcesses, appProcesses } from '../managers/apps/process/runtime';
import { AppService } from '../managers/apps/service';
import { AppWidgetRegistry } from '../managers/dashboards/registry';
import { DeviceController } from '../managers/devices/control';
import { DeviceService } from '../managers/devices/service';
import { PairingService } from '../managers/drivers/pairing';
import { EnergyService } from '../managers/energy/service';
import { FlowRegistry } from '../managers/flow/registry';
import { InsightsService } from '../managers/insights/service';
import { HomeSummary } from '../managers/mobile/summary';
import { Notifier } from '../managers/notifications/store';
import { ActivityCounters } from '../managers/reports/activities';
import { Speaker } from '../managers/speech-output/speaker';
import { ThreadBorderRouter } from '../managers/thread/border-router';
import { ZoneStore } from '../managers/zones/store';
import type { HubContext } from '../platform/context';
import { RadioNetwork } from './radio-network';

/**
 * The services of one hub's device runtime: installed apps and their processes, devices and their capability
 * values, pair sessions, insights, energy, the Thread border router, and the registries of flow cards and app widgets that
 * managers and apps contribute to. The composition root creates them once per hub and hands them to the
 * managers that need them; the apps manager starts and stops their background work.
 */
export interface HubServices {
  /** The zones of the home (the zones manager's store; others read it through here). */
  readonly zones: ZoneStore;
  readonly apps: AppService;
  readonly devices: DeviceService;
  /** The one path for writes to a device's capability: through its driver, in order, confirmed or refused. */
  readonly deviceControl: DeviceController;
  /**
   * Drivers the hub runs in its own process for built-in apps that talk to real devices (the MQTT bridge), by app
   * id: a manager registers its driver at `start` and removes it at `stop`.
   */
  readonly inHubDrivers: Map<string, CapabilityDriver>;
  readonly pairing: PairingService;
  readonly insights: InsightsService;
  readonly energy: EnergyService;
  /** The hub's Thread border router: the thread manager serves it, Matter reads its network from it. */
  readonly thread: ThreadBorderRouter;
  /** Apps with code, each in its own process. */
  readonly processes: AppProcesses;
  /** The flow cards and tokens the hub's parts and its apps offer. */
  readonly flowCards: FlowRegistry;
  /** The dashboard widgets apps offer. */
  readonly widgets: AppWidgetRegistry;
  /** Posts notifications to the household's timeline. */
  readonly notifications: Notifier;
  /** What the monthly reports count, registered by the managers whose records are activities. */
  readonly activities: ActivityCounters;
  /** What the mobile app's summary counts, answered by the managers that own the records. */
  readonly summary: HomeSummary;
  /** Says things in the selected voice (the speech manager, flows and apps). */
  readonly speech: Speaker;
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
  const zones = new ZoneStore(context.db);
  const notifications = new Notifier(context);
  const speech = new Speaker(context);
  const apps = new AppService(context);
  const devices = new DeviceService(context, apps, zones);
  const inHubDrivers = new Map<string, CapabilityDriver>();
  const deviceControl = new DeviceController(context.bus, context.clock, devices, apps, (device) => {
    const inHub = inHubDrivers.get(device.appId);
    if (inHub) return inHub;
    const host = apps.processHost(device.appId);
    return host ? new AppCapabilityDriver(host) : null;
  });
  const pairing = new PairingService(context, apps, devices);
  const insights = new InsightsService(context, devices);
  const energy = new EnergyService(context, devices, insights, zones);
  const thread = new ThreadBorderRouter(context, new RadioNetwork(context, devices, 'thread', 0x0401));
  const processes = appProcesses(context, { apps, devices, insights, pairing, flowCards, notifications, speech });
  const stops: (() => void | Promise<void>)[] = [];
  let started = false;
  return {
    zones,
    apps,
    devices,
    deviceControl,
    inHubDrivers,
    pairing,
    insights,
    energy,
    thread,
    processes,
    flowCards,
    widgets,
    activities: new ActivityCounters(),
    summary: new HomeSummary(),
    notifications,
    speech,
    start() {
      if (started) return;
      started = true;
      stops.push(devices.start(), insights.start());
      processes.start();
      stops.push(
        () => processes.stop(),
        // Apps fire their trigger cards; the flow engine runs the flows using them, as the app's run listener decides.
        processes.cards.onTrigger((trigger) =>
          flowCards.fire({
            uri: trigger.uri,
            id: trigger.id,
            tokens: trigger.tokens,
            state: trigger.state,
            source: { kind: 'app', appId: trigger.uri.slice('homey:app:'.length) },
            matches: (args) => trigger.matches(args),
          }),
        ),
      );
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
