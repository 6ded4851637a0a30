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

/** Firmware of the simulated Zigbee coordinator, oldest first: a hub starts on the first. */
const ZIGBEE_FIRMWARE = ['7.4.1.0', '7.4.4.0'] as const;

/** Matter clusters a capability is read from: cluster and attribute ids and names, and how its value maps. */
const MATTER_CLUSTERS: Record<
  string,
  { cluster: number; clusterName: string; attribute: number; attributeName: string; map: (v: unknown) => unknown }
> = {
  onoff: { cluster: 0x0006, clusterName: 'OnOff', attribute: 0x0000, attributeName: 'OnOff', map: (v) => v === true },
  dim: {
    cluster: 0x0008,
    clusterName: 'LevelControl',
    attribute: 0x0000,
    attributeName: 'CurrentLevel',
    map: (v) => Math.round(Number(v) * 254),
  },
  measure_temperature: {
    cluster: 0x0402,
    clusterName: 'TemperatureMeasurement',
    attribute: 0x0000,
    attributeName: 'MeasuredValue',
    map: (v) => Math.round(Number(v) * 100),
  },
  target_temperature: {
    cluster: 0x0201,
    clusterName: 'Thermostat',
    attribute: 0x0012,
    attributeName: 'OccupiedHeatingSetpoint',
    map: (v) => Math.round(Number(v) * 100),
  },
  measure_humidity: {
    cluster: 0x0405,
    clusterName: 'RelativeHumidityMeasurement',
    attribute: 0x0000,
    attributeName: 'MeasuredValue',
    map: (v) => Math.round(Number(v) * 100),
  },
  measure_power: {
    cluster: 0x0090,
    clusterName: 'ElectricalPowerMeasurement',
    attribute: 0x0008,
    attributeName: 'ActivePower',
    map: (v) => Math.round(Number(v) * 1000),
  },
  alarm_contact: {
    cluster: 0x0045,
    clusterName: 'BooleanState',
    attribute: 0x0000,
    attributeName: 'StateValue',
    map: (v) => v === true,
  },
};

export interface MatterAttribute {
  endpoint: number;
  cluster: number;
  clusterName: string;
  attribute: number;
  attributeName: string;
  value: unknown;
}

interface MatterFabric {
  fabricIndex: number;
  label: string;
  vendorId: number;
  fabricId: string;
  isCurrent: boolean;
}

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
      firmwareVersion: this.context.settings.get('zigbee.firmwareVersion', ZIGBEE_FIRMWARE[0]),
      nodes: this.zigbeeNodes().length,
    };
  }

  /** Flashes the coordinator's newest firmware; its network (channel, PAN ids) and nodes stay. */
  flashZigbeeFirmware(): Json {
    const current = this.context.settings.get('zigbee.firmwareVersion', ZIGBEE_FIRMWARE[0]);
    const newest = ZIGBEE_FIRMWARE[ZIGBEE_FIRMWARE.length - 1] as string;
    this.context.settings.set('zigbee.firmwareVersion', newest);
    return { previousFirmwareVersion: current, ...this.zigbeeState() };
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

  private matterDevice(id: string): DeviceRecord {
    const node = this.matterNode(id);
    return this.devices.require(String(node.deviceId));
  }

  /** The node of a device (for the calls that name the device). */
  matterNodeOfDevice(deviceId: string): Json {
    const node = this.matterNodes().find((n) => n.deviceId === deviceId);
    if (!node) throw notFound('Matter device', deviceId);
    return node;
  }

  private fabricsKey = (deviceId: string) => `matter.fabrics.${deviceId}`;

  matterFabrics(id: string): Json[] {
    const device = this.matterDevice(id);
    const own: MatterFabric = {
      fabricIndex: 1,
      label: 'Hearth',
      vendorId: 65521,
      fabricId: this.setting('matter.fabricId', () => randomBytes(8).toString('hex')),
      isCurrent: true,
    };
    return [own, ...this.context.settings.get<MatterFabric[]>(this.fabricsKey(device.id), [])] as unknown as Json[];
  }

  /** Removes another controller's fabric; the hub's own fabric goes only with the node. */
  deleteMatterFabric(id: string, fabricIndex: number): void {
    const device = this.matterDevice(id);
    if (fabricIndex === 1) {
      throw new HearthError('conflict', "The hub's own fabric is removed by removing the node");
    }
    const others = this.context.settings.get<MatterFabric[]>(this.fabricsKey(device.id), []);
    if (!others.some((f) => f.fabricIndex === fabricIndex)) throw notFound('Fabric', String(fabricIndex));
    this.context.settings.set(
      this.fabricsKey(device.id),
      others.filter((f) => f.fabricIndex !== fabricIndex),
    );
  }

  /**
   * Opens a commissioning window on a node for another controller (multi-admin). The simulated network has a
   * second controller waiting, which joins at once: the node gains its fabric.
   */
  openMatterCommissioningWindow(deviceId: string, timeout = 300, revokeExisting = false): Json {
    const node = this.matterNodeOfDevice(deviceId);
    const others = this.context.settings.get<MatterFabric[]>(this.fabricsKey(deviceId), []);
    if (others.length >= 4) throw new HearthError('conflict', 'The node has no free fabric slot');
    const fabricIndex = Math.max(1, ...others.map((f) => f.fabricIndex)) + 1;
    this.context.settings.set(this.fabricsKey(deviceId), [
      ...others,
      { fabricIndex, label: 'Shared controller', vendorId: 65522, fabricId: randomBytes(8).toString('hex'), isCurrent: false },
    ]);
    const digits = Array.from(randomBytes(11), (b) => String(b % 10)).join('');
    return {
      nodeId: node.id,
      deviceId,
      manualPairingCode: digits,
      qrCode: `MT:${randomBytes(12).toString('base64url').toUpperCase().slice(0, 16)}`,
      revokedExisting: revokeExisting,
      expiresAt: new Date(Date.now() + timeout * 1000).toISOString(),
      joinedFabricIndex: fabricIndex,
    };
  }

  matterAttributes(id: string): MatterAttribute[] {
    const node = this.matterNode(id);
    const device = this.matterDevice(id);
    const basic = [
      [0x0001, 'VendorName', node.vendorName],
      [0x0003, 'ProductName', node.productName],
      [0x0005, 'NodeLabel', device.name],
      [0x0009, 'SoftwareVersion', this.matterSoftwareVersion(device.id)],
    ] as const;
    const attributes: MatterAttribute[] = basic.map(([attribute, attributeName, value]) => ({
      endpoint: 0,
      cluster: 0x0028,
      clusterName: 'BasicInformation',
      attribute,
      attributeName,
      value,
    }));
    for (const [capability, entry] of this.devices.values(device.id)) {
      const cluster = MATTER_CLUSTERS[capability];
      if (!cluster || entry.value === null) continue;
      const { map, ...ids } = cluster;
      attributes.push({ endpoint: 1, ...ids, value: map(entry.value) });
    }
    return attributes;
  }

  matterNodeAddress(id: string): Json {
    const node = this.matterNode(id);
    const suffix = Number(node.id).toString(16).padStart(4, '0');
    return { id: node.id, addresses: [`fd00:4865:6172:7468::${suffix}`], port: 5540, transport: node.transport };
  }

  /** Interviews the node again: its reachability and attributes are read afresh. */
  updateMatterNode(id: string): Json {
    this.context.settings.set(`matter.interviewedAt.${this.matterDevice(id).id}`, new Date().toISOString());
    return this.matterNodeWithInterview(id);
  }

  private matterNodeWithInterview(id: string): Json {
    const device = this.matterDevice(id);
    return {
      ...this.matterNode(id),
      lastInterviewAt: this.context.settings.get<string | null>(`matter.interviewedAt.${device.id}`, null),
    };
  }

  private matterSoftwareVersion(deviceId: string): number {
    return this.context.settings.get(`matter.softwareVersion.${deviceId}`, 1);
  }

  /** Every simulated node ships with version 1; version 2 (1.1.0) is available until installed. */
  matterFirmwareUpdate(id: string): {
    softwareVersion: number;
    available: { softwareVersion: number; softwareVersionString: string } | null;
  } {
    const softwareVersion = this.matterSoftwareVersion(this.matterDevice(id).id);
    return { softwareVersion, available: softwareVersion < 2 ? { softwareVersion: 2, softwareVersionString: '1.1.0' } : null };
  }

  installMatterFirmware(id: string, softwareVersion: number): Json {
    const device = this.matterDevice(id);
    const { available } = this.matterFirmwareUpdate(id);
    if (!available) throw new HearthError('conflict', `Node ${id} has no firmware update available`);
    if (available.softwareVersion !== softwareVersion) {
      throw invalidParameter(
        'softwareVersion',
        `Version ${softwareVersion} is not available for node ${id}; ${available.softwareVersion} is`,
      );
    }
    this.context.settings.set(`matter.softwareVersion.${device.id}`, softwareVersion);
    return { id, softwareVersion, softwareVersionString: available.softwareVersionString };
  }

  matterDiagnosticReport(id: string): Json {
    return {
      generatedAt: new Date().toISOString(),
      node: this.matterNodeWithInterview(id),
      address: this.matterNodeAddress(id),
      fabrics: this.matterFabrics(id),
      firmware: this.matterFirmwareUpdate(id),
      attributes: this.matterAttributes(id),
    };
  }

  matterNodeNetwork(id: string, network: 'thread' | 'wifi'): Json {
    const node = this.matterNode(id);
    if (node.transport !== network) {
      throw invalidParameter(
        'id',
        `Node ${id} is on ${node.transport === 'thread' ? 'Thread' : 'Wi-Fi'}, not ${network === 'thread' ? 'Thread' : 'Wi-Fi'}`,
      );
    }
    const device = this.matterDevice(id);
    if (network === 'wifi') {
      return { id, ssid: 'Hearth Home', bssid: '02:fc:00:00:00:10', channel: 6, rssi: -52, securityType: 'WPA2' };
    }
    const dataset = this.threadDataset();
    const child = this.devicesOf('thread').find((d) => d.id === device.id);
    return {
      id,
      networkName: dataset.networkName,
      channel: dataset.channel,
      panId: dataset.panId,
      extendedPanId: dataset.extendedPanId,
      rloc16: child ? this.nodeIdOf('thread', child, 0x0401) : null,
      role: 'child',
    };
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

  threadEnabled(): boolean {
    return this.context.settings.get('thread.enabled', true);
  }

  setThreadEnabled(enabled: boolean): { enabled: boolean } {
    this.context.settings.set('thread.enabled', enabled);
    return { enabled };
  }

  /** Resets the border router: a new network (dataset) and nothing discovered; the radio is enabled. */
  resetThread(): Json {
    this.context.settings.delete('thread.dataset');
    this.context.settings.set('thread.enabled', true);
    this.borderRouters = [];
    return { enabled: true, dataset: this.threadDataset() };
  }

  /**
   * Runs an OpenThread CLI command against the simulated border router; its answer lines end with `Done` as
   * `ot-ctl` prints them. A disabled radio answers only `state`.
   */
  threadCommand(command: string): { command: string; output: string[] } {
    const text = command.trim().replace(/\s+/g, ' ');
    if (!this.threadEnabled() && text !== 'state') {
      throw new HearthError('conflict', 'The Thread radio is disabled');
    }
    const dataset = this.threadDataset();
    const hex4 = (n: unknown) => `0x${Number(n).toString(16).padStart(4, '0')}`;
    const done = (...lines: string[]) => ({ command: text, output: [...lines, 'Done'] });
    switch (text) {
      case 'state':
        return done(this.threadEnabled() ? 'leader' : 'disabled');
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
          ...this.devicesOf('thread').map(
            (d, i) => `| ${String(i + 1).padEnd(3)} | ${hex4(this.nodeIdOf('thread', d, 0x0401)).slice(2)}   | ${d.name}`,
          ),
        );
      default:
        throw invalidParameter('command', `Error 35: InvalidCommand (${text.split(' ')[0]})`);
    }
  }

  private borderRouters: Json[] = [];

  discoveredBorderRouters(): Json[] {
    return this.borderRouters;
  }

  /** Scans the local network for other border routers (the simulated home has two, one on another network). */
  rescanBorderRouters(): Json[] {
    if (!this.threadEnabled()) throw new HearthError('conflict', 'The Thread radio is disabled');
    const dataset = this.threadDataset();
    const seenAt = new Date().toISOString();
    this.borderRouters = [
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
    return this.borderRouters;
  }
}
