import { randomBytes } from 'node:crypto';
import { HearthError, invalidParameter, notFound, ZWAVE_LBT_DEFAULT } from '@hearth/contract';
import type { HubContext } from '../../platform/context';
import { type RadioNetwork, settingOnce } from '../../runtime/radio-network';
import { readOption } from '../options';

type Json = Record<string, unknown>;

interface LogLine {
  t: string;
  line: string;
}

const LOG_LINES = 200;

/** Firmware of the simulated controller, oldest first: a hub starts on the first. */
const ZWAVE_FIRMWARE = ['7.18.1', '7.21.4'] as const;

/** The region a controller runs in when nobody chose one: from the hub's language, as a new hub is set up. */
export const defaultZwaveRegion = (language: string): string => (['en-us', 'us'].includes(language.toLowerCase()) ? 'US' : 'EU');

/**
 * The simulated Z-Wave controller: node 1 is the controller itself, the other nodes are the paired Z-Wave
 * devices. Its region is the `region` option (older description) unless `regionOverride` says otherwise.
 */
export class ZwaveController {
  readonly #log: LogLine[] = [];

  constructor(
    private readonly context: HubContext,
    private readonly network: RadioNetwork,
  ) {}

  region(): { region: string; regionOverride: string | null } {
    const override = readOption<string | null>(this.context, 'zwave', 'regionOverride', null);
    const region = readOption(this.context, 'zwave', 'region', defaultZwaveRegion(this.context.config.language));
    return { region: override ?? region, regionOverride: override };
  }

  nodes(): Json[] {
    const controller = { nodeId: 1, deviceId: null, name: 'Hearth controller', isController: true, status: 'alive' };
    const nodes = this.network.nodes().map((d) => ({
      nodeId: this.network.nodeIdOf(d),
      deviceId: d.id,
      name: d.name,
      isController: false,
      status: this.network.available(d) ? 'alive' : 'dead',
      manufacturerId: d.store.manufacturerId ?? 271,
      productTypeId: d.store.productTypeId ?? 1538,
      productId: d.store.productId ?? 4096,
    }));
    return [controller, ...nodes];
  }

  state(): Json {
    return {
      ...this.region(),
      homeId: this.homeId(),
      controllerNodeId: 1,
      nodes: this.nodes().length,
      logEnabled: this.context.settings.get('zwave.logEnabled', false),
      firmwareVersion: this.firmwareVersion(),
      lbtThreshold: this.lbtThreshold(),
    };
  }

  private homeId(): string {
    return settingOnce(this.context, 'zwave.homeId', () => randomBytes(4).toString('hex'));
  }

  private firmwareVersion(): string {
    return this.context.settings.get('zwave.firmwareVersion', ZWAVE_FIRMWARE[0]);
  }

  private node(opts: Json): Json {
    const nodeId = opts.nodeId;
    if (typeof nodeId !== 'number' || !Number.isInteger(nodeId))
      throw invalidParameter('opts.nodeId', 'Expected an integer node id');
    const node = this.nodes().find((n) => n.nodeId === nodeId);
    if (!node) throw notFound('Z-Wave node', String(nodeId));
    return node;
  }

  command(command: string, opts: Json = {}): unknown {
    this.log(`command ${command} ${JSON.stringify(opts)}`);
    switch (command) {
      case 'getNodes':
        return this.nodes();
      case 'getNode':
        return this.node(opts);
      case 'ping':
        return { nodeId: this.node(opts).nodeId, reachable: this.node(opts).status === 'alive', rttMs: 24 };
      case 'sendData': {
        const node = this.node(opts);
        const data = opts.data;
        if (
          !Array.isArray(data) ||
          data.length === 0 ||
          data.length > 46 ||
          !data.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)
        ) {
          throw invalidParameter('opts.data', 'Expected 1 to 46 bytes (integers 0–255)');
        }
        this.log(`TX node ${String(node.nodeId)}: ${data.map((b: number) => b.toString(16).padStart(2, '0')).join(' ')}`);
        return { nodeId: node.nodeId, acknowledged: node.status === 'alive' };
      }
      case 'heal':
        return { healed: this.nodes().length - 1 };
      case 'softReset':
        this.log('controller soft reset');
        return { reset: true };
      default:
        throw invalidParameter('command', `Unknown Z-Wave command ${command}`);
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

  /**
   * Repairs the controller's non-volatile memory: node entries whose device is gone (a removal interrupted
   * half-way) are dropped, so their ids are not reported or pinged any more. The nodes of paired devices stay.
   */
  attemptNvmFix(): { removedNodes: number; nodes: number } {
    const removedNodes = this.network.dropStaleNodeIds();
    this.log(`NVM check: ${removedNodes} stale node entr${removedNodes === 1 ? 'y' : 'ies'} removed`);
    return { removedNodes, nodes: this.nodes().length };
  }

  /**
   * Flashes the controller's newest firmware. With `erase` its memory is wiped too: a new network (home id) whose
   * node ids start again; that is refused while Z-Wave devices are paired, since their nodes would be lost.
   */
  flashFirmware(erase: boolean): Json {
    const previousFirmwareVersion = this.firmwareVersion();
    if (erase) {
      const paired = this.network.nodes().length;
      if (paired > 0) {
        throw new HearthError(
          'conflict',
          `Erasing the controller would lose ${paired} paired Z-Wave device(s); remove them first`,
        );
      }
      this.context.settings.delete('zwave.homeId');
      this.network.resetNodeIds();
      this.#log.length = 0;
    }
    this.context.settings.set('zwave.firmwareVersion', ZWAVE_FIRMWARE[ZWAVE_FIRMWARE.length - 1]);
    return { previousFirmwareVersion, erased: erase, ...this.state() };
  }
}
