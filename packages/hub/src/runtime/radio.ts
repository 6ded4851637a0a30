import { randomBytes } from 'node:crypto';
import { HearthError, invalidParameter, notFound } from '@hearth/contract';
import type { DeviceRecord, DeviceService } from '../managers/devices/service';
import type { HubContext } from '../platform/context';

type Json = Record<string, unknown>;

interface LogLine {
  t: string;
  line: string;
}

const LOG_LINES = 200;
const FREQUENCIES = ['433', '868', 'ir'] as const;
export type Frequency = (typeof FREQUENCIES)[number];

/** Carrier of each simulated radio in Hz (infrared: its modulation frequency). */
const CARRIER: Record<Frequency, number> = { '433': 433_920_000, '868': 868_300_000, ir: 38_000 };

/**
 * The hub's simulated radios: Z-Wave and Zigbee controllers whose nodes are the paired devices of those
 * radios, BLE discovery, 433/868 MHz and infrared record/replay, bridges, Matter and Thread. Their state is
 * kept consistent with the devices: a node exists exactly while its device does, and a recorded signal can
 * be replayed.
 */
export class RadioController {
  private readonly zwaveLog: LogLine[] = [];
  private readonly recordings = new Map<Frequency, number[]>();
  private discovered: Json[] = [];
  private transmissions = 0;

  constructor(
    private readonly context: HubContext,
    private readonly devices: DeviceService,
  ) {}

  private setting<T>(key: string, fallback: () => T): T {
    if (this.context.settings.has(key)) return this.context.settings.get<T>(key, fallback());
    const value = fallback();
    this.context.settings.set(key, value);
    return value;
  }

  /**
   * A stable small id per device of a radio (the node id of a Z-Wave device): the one its pairing gave it,
   * else one allocated on first sight from the same counter pairing uses, so ids never collide.
   */
  private nodeIdOf(radio: string, device: DeviceRecord, first: number): number {
    if (typeof device.data.nodeId === 'number') return device.data.nodeId;
    const key = `${radio}.nodes`;
    const nodes = this.context.settings.get<Record<string, number>>(key, {});
    if (nodes[device.id] === undefined) {
      const next = this.context.settings.get<number>(`${radio}.nextNodeId`, first);
      nodes[device.id] = next;
      this.context.settings.set(`${radio}.nextNodeId`, next + 1);
      this.context.settings.set(key, nodes);
    }
    return nodes[device.id] as number;
  }

  private devicesOf(connectivity: string): DeviceRecord[] {
    return this.devices.list().filter((d) => this.devices.driverOf(d)?.driver.connectivity.includes(connectivity as never));
  }

  // --- Z-Wave ---

  zwaveRegion(): { region: string; regionOverride: string | null } {
    const override = this.context.settings.get<string | null>('zwave.option.regionOverride', null);
    const region = ['en-us', 'us'].includes(this.context.config.language.toLowerCase()) ? 'US' : 'EU';
    return { region: override ?? region, regionOverride: override };
  }

  zwaveNodes(): Json[] {
    const controller = { nodeId: 1, deviceId: null, name: 'Hearth controller', isController: true, status: 'alive' };
    const nodes = this.devicesOf('zwave').map((d) => ({
      nodeId: this.nodeIdOf('zwave', d, 2),
      deviceId: d.id,
      name: d.name,
      isController: false,
      status: this.devices.view(d).available ? 'alive' : 'dead',
      manufacturerId: d.store.manufacturerId ?? 271,
      productTypeId: d.store.productTypeId ?? 1538,
      productId: d.store.productId ?? 4096,
    }));
    return [controller, ...nodes];
  }

  zwaveState(): Json {
    return {
      ...this.zwaveRegion(),
      homeId: this.setting('zwave.homeId', () => randomBytes(4).toString('hex')),
      controllerNodeId: 1,
      nodes: this.zwaveNodes().length,
      logEnabled: this.context.settings.get('zwave.logEnabled', false),
    };
  }

  private zwaveNode(opts: Json): Json {
    const nodeId = opts.nodeId;
    if (typeof nodeId !== 'number' || !Number.isInteger(nodeId))
      throw invalidParameter('opts.nodeId', 'Expected an integer node id');
    const node = this.zwaveNodes().find((n) => n.nodeId === nodeId);
    if (!node) throw notFound('Z-Wave node', String(nodeId));
    return node;
  }

  zwaveCommand(command: string, opts: Json = {}): unknown {
    this.logZwave(`command ${command} ${JSON.stringify(opts)}`);
    switch (command) {
      case 'getNodes':
        return this.zwaveNodes();
      case 'getNode':
        return this.zwaveNode(opts);
      case 'ping':
        return { nodeId: this.zwaveNode(opts).nodeId, reachable: this.zwaveNode(opts).status === 'alive', rttMs: 24 };
      case 'sendData': {
        const node = this.zwaveNode(opts);
        const data = opts.data;
        if (
          !Array.isArray(data) ||
          data.length === 0 ||
          data.length > 46 ||
          !data.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)
        ) {
          throw invalidParameter('opts.data', 'Expected 1 to 46 bytes (integers 0–255)');
        }
        this.logZwave(`TX node ${String(node.nodeId)}: ${data.map((b: number) => b.toString(16).padStart(2, '0')).join(' ')}`);
        return { nodeId: node.nodeId, acknowledged: node.status === 'alive' };
      }
      case 'heal':
        return { healed: this.zwaveNodes().length - 1 };
      case 'softReset':
        this.logZwave('controller soft reset');
        return { reset: true };
      default:
        throw invalidParameter('command', `Unknown Z-Wave command ${command}`);
    }
  }

  private logZwave(line: string): void {
    if (!this.context.settings.get('zwave.logEnabled', false)) return;
    this.zwaveLog.push({ t: new Date().toISOString(), line });
    if (this.zwaveLog.length > LOG_LINES) this.zwaveLog.splice(0, this.zwaveLog.length - LOG_LINES);
  }

  zwaveLogState(): { enabled: boolean; entries: LogLine[] } {
    return { enabled: this.context.settings.get('zwave.logEnabled', false), entries: [...this.zwaveLog] };
  }

  setZwaveLog(enabled: boolean): { enabled: boolean } {
    this.context.settings.set('zwave.logEnabled', enabled);
    if (!enabled) this.zwaveLog.length = 0;
    return { enabled };
  }

  // --- Zigbee ---

  zigbeeNodes(): Json[] {
    return this.devicesOf('zigbee').map((d) => ({
      ieeeAddress: typeof d.data.ieeeAddress === 'string' ? d.data.ieeeAddress : this.ieeeOf(d),
      networkAddress: this.nodeIdOf('zigbee', d, 0x1001),
      deviceId: d.id,
      name: d.name,
      type: d.class === 'light' || d.class === 'socket' ? 'router' : 'endDevice',
    }));
  }

  private ieeeOf(device: DeviceRecord): string {
    const hex = device.id.replace(/-/g, '').slice(0, 16);
    return hex.replace(/(..)(?!$)/g, '$1:');
  }

  zigbeeState(): Json {
    return {
      channel: this.context.settings.get('zigbee.channel', 15),
      panId: this.setting('zigbee.panId', () => randomBytes(2).readUInt16BE()),
      extendedPanId: this.setting('zigbee.extendedPanId', () => randomBytes(8).toString('hex')),
      permitJoinUntil: this.context.settings.get<string | null>('zigbee.permitJoinUntil', null),
      nodes: this.zigbeeNodes().length,
    };
  }

  zigbeeCommand(command: string, opts: Json = {}): unknown {
    switch (command) {
      case 'getNodes':
        return this.zigbeeNodes();
      case 'ping': {
        const node = this.zigbeeNodes().find((n) => n.ieeeAddress === opts.ieeeAddress);
        if (!node) throw notFound('Zigbee node', String(opts.ieeeAddress));
        return { ieeeAddress: node.ieeeAddress, reachable: true, lqi: 180 };
      }
      case 'permitJoin': {
        const duration = opts.duration ?? 60;
        if (typeof duration !== 'number' || duration < 0 || duration > 254)
          throw invalidParameter('opts.duration', 'Expected 0 to 254 seconds');
        const until = duration === 0 ? null : new Date(Date.now() + duration * 1000).toISOString();
        this.context.settings.set('zigbee.permitJoinUntil', until);
        return { permitJoinUntil: until };
      }
      case 'setChannel': {
        const channel = opts.channel;
        if (typeof channel !== 'number' || !Number.isInteger(channel) || channel < 11 || channel > 26) {
          throw invalidParameter('opts.channel', 'Expected a channel from 11 to 26');
        }
        this.context.settings.set('zigbee.channel', channel);
        return this.zigbeeState();
      }
      default:
        throw invalidParameter('command', `Unknown Zigbee command ${command}`);
    }
  }

  // --- BLE ---

  bleState(): Json {
    return { enabled: true, discovered: this.discovered.length };
  }

  bleCommand(command: string, opts: Json = {}): unknown {
    switch (command) {
      case 'discover': {
        const fromDevices = this.devicesOf('ble').map((d) => ({
          uuid: d.id.replace(/-/g, '').slice(0, 12),
          address: this.ieeeOf(d).slice(0, 17),
          name: d.name,
          rssi: -60,
          connectable: true,
        }));
        const nearby = {
          uuid: 'c0ffee000001',
          address: 'c0:ff:ee:00:00:01',
          name: 'Hearth Beacon',
          rssi: -78,
          connectable: false,
        };
        this.discovered = [...fromDevices, nearby];
        return this.discovered;
      }
      case 'connect': {
        const peripheral = this.discovered.find((p) => p.uuid === opts.uuid || p.address === opts.address);
        if (!peripheral) throw notFound('BLE peripheral', String(opts.uuid ?? opts.address));
        if (!peripheral.connectable) throw new HearthError('conflict', `${String(peripheral.name)} does not accept connections`);
        return { ...peripheral, connected: true };
      }
      default:
        throw invalidParameter('command', `Unknown BLE command ${command}`);
    }
  }

  // --- 433 / 868 MHz and infrared ---

  rfState(): Json {
    return {
      frequencies: FREQUENCIES,
      mhz433: this.context.settings.get('rf.mhz433', { modulation: 'ASK', carrier: CARRIER['433'], baudrate: 2000, power: 10 }),
      recorded: Object.fromEntries([...this.recordings].map(([f, d]) => [f, d.length])),
      transmissions: this.transmissions,
    };
  }

  /** Records a remote's signal: the simulated remote is always pressed in time. */
  record(frequency: Frequency = '433'): { frequency: Frequency; data: number[] } {
    const bits = randomBytes(3);
    const short = frequency === 'ir' ? 560 : 350;
    const data: number[] = [short * 30];
    for (const byte of bits)
      for (let i = 7; i >= 0; i--) data.push(...((byte >> i) & 1 ? [short * 3, short] : [short, short * 3]));
    this.recordings.set(frequency, data);
    return { frequency, data };
  }

  transmit(frequency: Frequency, data: readonly number[], repetitions = 1) {
    const durationMs = Math.round((data.reduce((sum, d) => sum + d, 0) * repetitions) / 1000);
    if (durationMs > 10_000) throw invalidParameter('data', 'A transmission may last at most 10 seconds');
    this.transmissions += 1;
    const recorded = this.recordings.get(frequency);
    const matchesRecording = recorded !== undefined && recorded.length === data.length && recorded.every((d, i) => d === data[i]);
    return { frequency, carrier: CARRIER[frequency], pulses: data.length, repetitions, durationMs, matchesRecording };
  }

  set433Config(config: Json): Json {
    const next = { ...(this.rfState().mhz433 as Json), ...config };
    this.context.settings.set('rf.mhz433', next);
    return next;
  }

  /** Decodes a Pronto hex code (learned format 0000) into pulse lengths in microseconds and sends it. */
  prontoHex(payload: string, repetitions = 1) {
    const words = payload.trim().split(/\s+/);
    if (!words.every((w) => /^[0-9a-fA-F]{4}$/.test(w))) throw invalidParameter('payload', 'Expected groups of four hex digits');
    const numbers = words.map((w) => Number.parseInt(w, 16));
    const [format, frequencyCode, once, repeat] = numbers;
    if (format !== 0 || frequencyCode === undefined || frequencyCode === 0)
      throw invalidParameter('payload', 'Only learned Pronto codes (0000) are supported');
    const pairs = (once ?? 0) + (repeat ?? 0);
    if (pairs === 0 || numbers.length !== 4 + pairs * 2) {
      throw invalidParameter('payload', `Expected ${4 + pairs * 2} words for ${pairs} burst pairs, got ${numbers.length}`);
    }
    const unitUs = frequencyCode * 0.241246;
    const data = numbers.slice(4).map((n) => Math.max(1, Math.round(n * unitUs)));
    return { ...this.transmit('ir', data, repetitions), carrier: Math.round(1_000_000 / unitUs) };
  }

  // --- bridges (coprocessor) ---

  bridges(): Json[] {
    return this.context.settings.get<Json[]>('coprocessor.bridges', []);
  }

  pairBridge(serialHash: string): Json {
    const bridges = this.bridges();
    if (bridges.some((b) => b.serialHash === serialHash.toLowerCase()))
      throw new HearthError('conflict', 'This bridge is already paired');
    const bridge = {
      id: `bridge-${serialHash.slice(0, 8).toLowerCase()}`,
      serialHash: serialHash.toLowerCase(),
      pairedAt: new Date().toISOString(),
      state: 'connected',
      radios: ['433', '868', 'infrared', 'zigbee'],
    };
    this.context.settings.set('coprocessor.bridges', [...bridges, bridge]);
    return bridge;
  }

  setDebug(peripheral: string | undefined, enabled: boolean): Json {
    const debug = {
      ...this.context.settings.get<Record<string, boolean>>('coprocessor.debug', {}),
      [peripheral ?? 'all']: enabled,
    };
    this.context.settings.set('coprocessor.debug', debug);
    return debug;
  }

  // --- Matter and Thread ---

  matterNodes(): Json[] {
    return this.devicesOf('matter').map((d) => ({
      id: String(this.nodeIdOf('matter', d, 1)),
      deviceId: d.id,
      name: d.name,
      vendorName: 'Hearth Matter Lab',
      productName: this.devices.driverOf(d)?.driver.class ?? d.class,
      transport: this.devices.driverOf(d)?.driver.connectivity.includes('thread') ? 'thread' : 'wifi',
      reachable: this.devices.view(d).available,
    }));
  }

  matterNode(id: string): Json {
    const node = this.matterNodes().find((n) => n.id === id);
    if (!node) throw notFound('Matter node', id);
    return node;
  }

  deleteMatterNode(id: string): void {
    const node = this.matterNode(id);
    // Removing the node decommissions the device: it leaves the hub with it.
    this.devices.delete(String(node.deviceId));
  }

  matterFabrics(id: string): Json[] {
    this.matterNode(id);
    return [
      {
        fabricIndex: 1,
        label: 'Hearth',
        vendorId: 65521,
        fabricId: this.setting('matter.fabricId', () => randomBytes(8).toString('hex')),
        isCurrent: true,
      },
    ];
  }

  threadDataset(): Json {
    return this.setting('thread.dataset', () => ({
      networkName: 'Hearth-Thread',
      channel: 15,
      panId: randomBytes(2).readUInt16BE(),
      extendedPanId: randomBytes(8).toString('hex'),
      tlvHex: '',
    }));
  }

  setThreadDataset(tlvHex: string): Json {
    const dataset = { ...this.threadDataset(), tlvHex: tlvHex.toLowerCase() };
    this.context.settings.set('thread.dataset', dataset);
    return dataset;
  }

  threadTopology(): Json {
    const dataset = this.threadDataset();
    const children = this.devicesOf('thread').map((d) => ({
      deviceId: d.id,
      name: d.name,
      role: 'child',
      rloc16: this.nodeIdOf('thread', d, 0x0401),
    }));
    return { networkName: dataset.networkName, borderRouter: { role: 'leader', rloc16: 0x0400 }, nodes: children };
  }
}
