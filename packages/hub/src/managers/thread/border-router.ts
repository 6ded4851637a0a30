import { randomBytes } from 'node:crypto';
import { HearthError, invalidParameter } from '@hearth/contract';
import type { HubContext } from '../../platform/context';
import { type RadioNetwork, settingOnce } from '../../runtime/radio-network';

type Json = Record<string, unknown>;

/** The hub's Thread border router (simulated): its dataset, its children (the paired Thread devices) and the routers it sees. */
export class ThreadBorderRouter {
  #borderRouters: Json[] = [];

  constructor(
    private readonly context: HubContext,
    /** The Thread devices; Matter reads a node's Thread facts through {@link childOf}. */
    private readonly network: RadioNetwork,
  ) {}

  dataset(): Json {
    return settingOnce(this.context, 'thread.dataset', () => ({
      networkName: 'Hearth-Thread',
      channel: 15,
      panId: randomBytes(2).readUInt16BE(),
      extendedPanId: randomBytes(8).toString('hex'),
      tlvHex: '',
    }));
  }

  setDataset(tlvHex: string): Json {
    const dataset = { ...this.dataset(), tlvHex: tlvHex.toLowerCase() };
    this.context.settings.set('thread.dataset', dataset);
    return dataset;
  }

  /** The device as a child of the border router (its RLOC16), when it is on Thread. */
  childOf(deviceId: string): { rloc16: number } | null {
    const child = this.network.nodes().find((d) => d.id === deviceId);
    return child ? { rloc16: this.network.nodeIdOf(child) } : null;
  }

  topology(): Json {
    const dataset = this.dataset();
    const children = this.network.nodes().map((d) => ({
      deviceId: d.id,
      name: d.name,
      role: 'child',
      rloc16: this.network.nodeIdOf(d),
    }));
    return { networkName: dataset.networkName, borderRouter: { role: 'leader', rloc16: 0x0400 }, nodes: children };
  }

  enabled(): boolean {
    return this.context.settings.get('thread.enabled', true);
  }

  setEnabled(enabled: boolean): { enabled: boolean } {
    this.context.settings.set('thread.enabled', enabled);
    return { enabled };
  }

  /** Resets the border router: a new network (dataset) and nothing discovered; the radio is enabled. */
  reset(): Json {
    this.context.settings.delete('thread.dataset');
    this.context.settings.set('thread.enabled', true);
    this.#borderRouters = [];
    return { enabled: true, dataset: this.dataset() };
  }

  /**
   * Runs an OpenThread CLI command against the simulated border router; its answer lines end with `Done` as
   * `ot-ctl` prints them. A disabled radio answers only `state`.
   */
  command(command: string): { command: string; output: string[] } {
    const text = command.trim().replace(/\s+/g, ' ');
    if (!this.enabled() && text !== 'state') {
      throw new HearthError('conflict', 'The Thread radio is disabled');
    }
    const dataset = this.dataset();
    const hex4 = (n: unknown) => `0x${Number(n).toString(16).padStart(4, '0')}`;
    const done = (...lines: string[]) => ({ command: text, output: [...lines, 'Done'] });
    switch (text) {
      case 'state':
        return done(this.enabled() ? 'leader' : 'disabled');
      case 'networkname':
        return done(String(dataset.networkName));
      case 'channel':
        return done(String(dataset.channel));
      case 'panid':
        return done(hex4(dataset.panId));
      case 'extpanid':
        return done(String(dataset.extendedPanId));
      case 'rloc16':
        return done('0400');
      case 'version':
        return done('OPENTHREAD/Hearth-simulated; 1.3.0');
      case 'dataset active -x':
        return done(String(dataset.tlvHex));
      case 'child table':
        return done(
          '| ID  | RLOC16 | Name',
          ...this.network
            .nodes()
            .map((d, i) => `| ${String(i + 1).padEnd(3)} | ${hex4(this.network.nodeIdOf(d)).slice(2)}   | ${d.name}`),
        );
      default:
        throw invalidParameter('command', `Error 35: InvalidCommand (${text.split(' ')[0]})`);
    }
  }

  discoveredBorderRouters(): Json[] {
    return this.#borderRouters;
  }

  /** Scans the local network for other border routers (the simulated home has two, one on another network). */
  rescanBorderRouters(): Json[] {
    if (!this.enabled()) throw new HearthError('conflict', 'The Thread radio is disabled');
    const dataset = this.dataset();
    const seenAt = new Date(this.context.clock.now()).toISOString();
    this.#borderRouters = [
      {
        name: 'Living room speaker',
        vendorName: 'Acme Audio',
        networkName: dataset.networkName,
        extendedPanId: dataset.extendedPanId,
        sameNetwork: true,
        seenAt,
      },
      {
        name: 'Neighbour hub',
        vendorName: 'Other Home',
        networkName: 'OtherNet-7',
        extendedPanId: 'dead00beef00cafe',
        sameNetwork: false,
        seenAt,
      },
    ];
    return this.#borderRouters;
  }
}
