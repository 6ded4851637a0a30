import { randomBytes } from 'node:crypto';
import { invalidParameter, notFound } from '@hearth/contract';
import type { HubContext } from '../../platform/context';
import { ieeeAddressOf, type RadioNetwork, settingOnce } from '../../runtime/radio-network';

type Json = Record<string, unknown>;

/** Firmware of the simulated coordinator, oldest first: a hub starts on the first. */
const ZIGBEE_FIRMWARE = ['7.4.1.0', '7.4.4.0'] as const;

/** The simulated Zigbee coordinator: its nodes are the paired Zigbee devices. */
export class ZigbeeCoordinator {
  constructor(
    private readonly context: HubContext,
    private readonly network: RadioNetwork,
  ) {}

  nodes(): Json[] {
    return this.network.nodes().map((d) => ({
      ieeeAddress: typeof d.data.ieeeAddress === 'string' ? d.data.ieeeAddress : ieeeAddressOf(d),
      networkAddress: this.network.nodeIdOf(d),
      deviceId: d.id,
      name: d.name,
      type: d.class === 'light' || d.class === 'socket' ? 'router' : 'endDevice',
    }));
  }

  state(): Json {
    const { settings } = this.context;
    return {
      channel: settings.get('zigbee.channel', 15),
      panId: settingOnce(this.context, 'zigbee.panId', () => randomBytes(2).readUInt16BE()),
      extendedPanId: settingOnce(this.context, 'zigbee.extendedPanId', () => randomBytes(8).toString('hex')),
      permitJoinUntil: settings.get<string | null>('zigbee.permitJoinUntil', null),
      firmwareVersion: settings.get('zigbee.firmwareVersion', ZIGBEE_FIRMWARE[0]),
      nodes: this.nodes().length,
    };
  }

  /** Flashes the coordinator's newest firmware; its network (channel, PAN ids) and nodes stay. */
  flashFirmware(): Json {
    const current = this.context.settings.get('zigbee.firmwareVersion', ZIGBEE_FIRMWARE[0]);
    this.context.settings.set('zigbee.firmwareVersion', ZIGBEE_FIRMWARE[ZIGBEE_FIRMWARE.length - 1]);
    return { previousFirmwareVersion: current, ...this.state() };
  }

  command(command: string, opts: Json = {}): unknown {
    switch (command) {
      case 'getNodes':
        return this.nodes();
      case 'ping': {
        const node = this.nodes().find((n) => n.ieeeAddress === opts.ieeeAddress);
        if (!node) throw notFound('Zigbee node', String(opts.ieeeAddress));
        return { ieeeAddress: node.ieeeAddress, reachable: true, lqi: 180 };
      }
      case 'permitJoin': {
        const duration = opts.duration ?? 60;
        if (typeof duration !== 'number' || duration < 0 || duration > 254)
          throw invalidParameter('opts.duration', 'Expected 0 to 254 seconds');
        const until = duration === 0 ? null : new Date(this.context.clock.now() + duration * 1000).toISOString();
        this.context.settings.set('zigbee.permitJoinUntil', until);
        return { permitJoinUntil: until };
      }
      case 'setChannel': {
        const channel = opts.channel;
        if (typeof channel !== 'number' || !Number.isInteger(channel) || channel < 11 || channel > 26) {
          throw invalidParameter('opts.channel', 'Expected a channel from 11 to 26');
        }
        this.context.settings.set('zigbee.channel', channel);
        return this.state();
      }
      default:
        throw invalidParameter('command', `Unknown Zigbee command ${command}`);
    }
  }
}
