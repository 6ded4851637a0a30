import type { AppBridge } from '../internal/bridge';
import type { ZwaveNodeInfo } from '../protocol/messages';
import { SimpleClass } from './simple-class';

type Json = Record<string, unknown>;

/** The command of a report, as `report` listeners get it: its id and its name (`SWITCH_BINARY_REPORT`). */
export interface ZwaveReportCommand {
  value: number;
  name: string;
}

/** The ecosystem's `(Raw)` fields are Buffers; they cross the hub's channel as `{ type: 'Buffer', data }`. */
function withBuffers(report: Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(report)) {
    const buffer = value as { type?: unknown; data?: unknown };
    if (buffer && buffer.type === 'Buffer' && Array.isArray(buffer.data)) out[key] = Buffer.from(buffer.data as number[]);
    else if (value && typeof value === 'object' && !Array.isArray(value)) out[key] = withBuffers(value as Json);
    else out[key] = value;
  }
  return out;
}

/**
 * One command class of a node (`node.CommandClass.COMMAND_CLASS_SWITCH_BINARY`): its commands are methods named as
 * the ecosystem names them (`SWITCH_BINARY_SET({ 'Switch Value': 'on/enable' })`, `SWITCH_BINARY_GET()`), answering
 * the node's report for a GET; it emits `report` (command, report) for each report the node sends. A command the hub
 * does not offer for this class rejects with a `not_implemented` error that names it.
 */
export class ZwaveCommandClass extends SimpleClass {
  [command: string]: unknown;
  readonly version: number;
  readonly name: string;

  constructor(bridge: AppBridge, deviceId: string, info: ZwaveNodeInfo['commandClasses'][number]) {
    super();
    this.version = info.version;
    this.name = info.name;
    for (const command of info.commands) {
      this[command] = async (args: Json = {}) => {
        const report = await bridge.call('zwave.command', { deviceId, commandClass: info.name, command, args });
        return report === null || report === undefined ? null : withBuffers(report);
      };
    }
    // Commands the hub does not map answer clearly instead of being undefined (`X is not a function`).
    // biome-ignore lint/correctness/noConstructorReturn: the command class is a proxy over its own methods
    return new Proxy(this, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^[A-Z][A-Z0-9_]+$/.test(key) && !(key in target))
          return async () => {
            const error = new Error(`${info.name}.${key} is not offered to apps by this hub yet`);
            (error as Error & { code: string }).code = 'not_implemented';
            throw error;
          };
        return Reflect.get(target, key, receiver);
      },
    });
  }
}

/**
 * A Z-Wave node of one of the app's devices (`this.homey.zwave.getNode(device)`): its ids, its command classes by
 * the ecosystem's names (`CommandClass.COMMAND_CLASS_METER`), and `sendCommand` for raw frames.
 */
export class ZwaveNode extends SimpleClass {
  readonly nodeId: number;
  // The ecosystem's types have these always set; a node whose interview did not learn one reads 0 or ''.
  readonly manufacturerId: { value: number };
  readonly productTypeId: { value: number };
  readonly productId: { value: number };
  readonly firmwareId: number;
  readonly deviceClassBasic: string;
  readonly deviceClassGeneric: string;
  readonly deviceClassSpecific: string;
  readonly battery: boolean;
  online: boolean;
  readonly CommandClass: Record<string, ZwaveCommandClass> = {};
  /** Hearth maps the root endpoint of a node; multi-channel endpoints are not offered to apps yet. */
  readonly MultiChannelNodes: Record<string, ZwaveNode> = {};
  readonly multiChannelNodeId: number | undefined = undefined;
  readonly isMultiChannelNode = false;

  constructor(
    private readonly bridge: AppBridge,
    private readonly deviceId: string,
    info: ZwaveNodeInfo,
  ) {
    super();
    this.nodeId = info.nodeId;
    this.manufacturerId = { value: info.manufacturerId ?? 0 };
    this.productTypeId = { value: info.productTypeId ?? 0 };
    this.productId = { value: info.productId ?? 0 };
    this.firmwareId = info.firmwareId ?? 0;
    this.deviceClassBasic = info.deviceClassBasic ?? '';
    this.deviceClassGeneric = info.deviceClassGeneric ?? '';
    this.deviceClassSpecific = info.deviceClassSpecific ?? '';
    this.battery = info.battery;
    this.online = info.online;
    for (const cc of info.commandClasses) this.CommandClass[cc.name] = new ZwaveCommandClass(bridge, deviceId, cc);
  }

  /** Sends a raw command: its command class id, command id, and the bytes after them. */
  async sendCommand({ commandClassId, commandId, params }: { commandClassId: number; commandId: number; params?: Buffer }) {
    await this.bridge.call('zwave.sendCommand', {
      deviceId: this.deviceId,
      commandClassId,
      commandId,
      params: [...(params ?? Buffer.alloc(0))],
    });
  }

  /**
   * @internal The node was found dead (`false`) or alive again (`true`): `online` follows and the node emits
   * `online` with it. A sleeping node stays online; the hub keeps its commands until it wakes.
   */
  setOnline(online: boolean): void {
    if (this.online === online) return;
    this.online = online;
    this.emit('online', online);
  }

  /** @internal A report of the node, for its command class's listeners. */
  deliver(commandClass: string, command: ZwaveReportCommand, report: Json): void {
    this.CommandClass[commandClass]?.emit('report', command, withBuffers(report));
  }
}
