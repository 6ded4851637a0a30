import { HearthError, invalidParameter, notFound, ZWAVE_LBT_DEFAULT } from '@hearth/contract';
import type { HubContext } from '../../platform/context';
import { readOption } from '../options';
import type { ZwaveStick } from './stick';

type Json = Record<string, unknown>;

interface LogLine {
  t: string;
  line: string;
}

const LOG_LINES = 200;

/** The region a controller runs in when nobody chose one: from the hub's language, as a new hub is set up. */
export const defaultZwaveRegion = (language: string): string => (['en-us', 'us'].includes(language.toLowerCase()) ? 'US' : 'EU');

/** What a hub without a usable Z-Wave stick answers every controller call. */
export function noController(stick: ZwaveStick | null): HearthError {
  if (!stick) return new HearthError('no_controller', 'This hub has no Z-Wave controller: HUB_ZWAVE_PORT names no stick');
  return new HearthError('no_controller', `The Z-Wave controller on ${stick.port} is not ready: ${stick.failure ?? 'opening'}`);
}

/**
 * The hub's Z-Wave controller: zwave-js on the stick `HUB_ZWAVE_PORT` names, or none. Its region is the `region`
 * option (older description) unless `regionOverride` says otherwise; options and the log work without a stick.
 */
export class ZwaveController {
  readonly #log: LogLine[] = [];

  constructor(
    private readonly context: HubContext,
    private readonly stick: ZwaveStick | null,
  ) {}

  region(): { region: string; regionOverride: string | null } {
    const override = readOption<string | null>(this.context, 'zwave', 'regionOverride', null);
    const region = readOption(this.context, 'zwave', 'region', defaultZwaveRegion(this.context.config.language));
    return { region: override ?? region, regionOverride: override };
  }

  /** The stick's driver once it is ready; otherwise the `no_controller` error. */
  private ready(): ZwaveStick {
    const stick = this.stick;
    if (!stick?.driver) throw noController(stick);
    return stick;
  }

  state(): Json {
    const stick = this.stick;
    const ready = Boolean(stick?.driver);
    return {
      ...this.region(),
      // `standIn` says when the "stick" is no radio (npm start's virtual network), so nobody takes it for one.
      controller: stick
        ? { port: stick.port, ready, failure: stick.failure, standIn: this.context.config.zwaveStandIn ?? null }
        : {
            port: null,
            ready: false,
            failure: 'This hub has no Z-Wave controller: HUB_ZWAVE_PORT names no stick',
            standIn: null,
          },
      homeId: ready ? stick?.homeId() : null,
      controllerNodeId: ready ? stick?.controllerNodeId() : null,
      nodes: ready ? stick?.nodes() : [],
      logEnabled: this.context.settings.get('zwave.logEnabled', false),
      firmwareVersion: ready ? stick?.firmwareVersion() : null,
      lbtThreshold: this.lbtThreshold(),
    };
  }

  private nodeId(opts: Json): number {
    const nodeId = opts.nodeId;
    if (typeof nodeId !== 'number' || !Number.isInteger(nodeId))
      throw invalidParameter('opts.nodeId', 'Expected an integer node id');
    return nodeId;
  }

  async command(command: string, opts: Json = {}): Promise<unknown> {
    this.log(`command ${command} ${JSON.stringify(opts)}`);
    const known = ['getNodes', 'getNode', 'ping', 'heal', 'softReset'];
    if (!known.includes(command)) throw invalidParameter('command', `Unknown Z-Wave command ${command}`);
    const stick = this.ready();
    const driver = stick.driver!;
    switch (command) {
      case 'getNodes':
        return stick.nodes();
      case 'getNode': {
        const nodeId = this.nodeId(opts);
        const node = stick.nodes().find((n) => n.nodeId === nodeId);
        if (!node) throw notFound('Z-Wave node', String(nodeId));
        return node;
      }
      case 'ping': {
        const nodeId = this.nodeId(opts);
        const node = stick.node(nodeId);
        if (!node) throw notFound('Z-Wave node', String(nodeId));
        const sent = this.context.clock.now();
        const reachable = node.isControllerNode ? true : await node.ping();
        return { nodeId, reachable, rttMs: this.context.clock.now() - sent };
      }
      case 'heal':
        return { started: driver.controller.beginRebuildingRoutes() };
      default:
        await driver.softReset();
        this.log('controller soft reset');
        return { reset: true };
    }
  }

  private log(line: string): void {
    if (!this.context.settings.get('zwave.logEnabled', false)) return;
    this.#log.push({ t: new Date(this.context.clock.now()).toISOString(), line });
    if (this.#log.length > LOG_LINES) this.#log.splice(0, this.#log.length - LOG_LINES);
  }

  logState(): { enabled: boolean; entries: LogLine[] } {
    return { enabled: this.context.settings.get('zwave.logEnabled', false), entries: [...this.#log] };
  }

  setLogEnabled(enabled: boolean): { enabled: boolean } {
    this.context.settings.set('zwave.logEnabled', enabled);
    if (!enabled) this.#log.length = 0;
    return { enabled };
  }

  /** The listen-before-talk threshold in dBm: the controller sends only while the channel is quieter than this. */
  lbtThreshold(): number {
    return this.context.settings.get('zwave.lbtThreshold', ZWAVE_LBT_DEFAULT);
  }

  setLbtThreshold(threshold: number): { lbtThreshold: number } {
    this.context.settings.set('zwave.lbtThreshold', threshold);
    this.log(`listen-before-talk threshold ${threshold} dBm`);
    return { lbtThreshold: threshold };
  }

  /** The older description's NVM repair of the simulated controller; zwave-js keeps its own memory consistent. */
  attemptNvmFix(): never {
    this.ready();
    throw new HearthError('not_implemented', 'Repairing the Z-Wave controller memory is not done by this hub yet');
  }

  /** Flashing the stick's firmware needs a firmware file the hub does not carry yet. */
  flashFirmware(): never {
    this.ready();
    throw new HearthError('not_implemented', "Flashing the Z-Wave controller's firmware is not done by this hub yet");
  }
}
