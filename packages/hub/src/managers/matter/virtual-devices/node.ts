import { createInterface } from 'node:readline';
import { type Endpoint, ServerNode, VendorId } from '@matter/main';
import { KINDS, type VirtualDeviceKind } from './kinds';

/** A running virtual device: its node and its one device endpoint. */
export interface VirtualNode {
  readonly kind: VirtualDeviceKind;
  readonly node: ServerNode;
  readonly endpoint: Endpoint;
  readonly port: number;
  readonly manualPairingCode: string;
  readonly qrPairingCode: string;
}

export interface VirtualNodeOptions {
  port: number;
  passcode: number;
  discriminator: number;
  /** Its label (at most 32 characters are kept); default: the kind's product name. */
  name?: string;
  /** Called with each followed attribute's new value (see `KINDS[kind].follows`). */
  onChange?: (event: string, value: unknown) => void;
}

/**
 * Starts one virtual Matter device as a node of its own, in this process, with matter.js's storage under the
 * environment's `path.root` (the node's id is its kind, so one kind once per process).
 */
export async function startVirtualNode(kind: VirtualDeviceKind, options: VirtualNodeOptions): Promise<VirtualNode> {
  const { deviceType, product, productId, add, follows } = KINDS[kind];
  // Matter limits labels to 32 characters.
  const name = (options.name ?? product).slice(0, 32);
  const { port } = options;
  const node = await ServerNode.create({
    id: kind,
    network: { port },
    commissioning: { passcode: options.passcode, discriminator: options.discriminator },
    productDescription: { name, deviceType },
    basicInformation: {
      vendorName: 'Hearth Matter Lab',
      // 0xFFF1 is a test vendor id of the Matter specification: a real device has its own.
      vendorId: VendorId(0xfff1),
      nodeLabel: name,
      productName: product,
      productLabel: product,
      productId,
      hardwareVersion: 1,
      hardwareVersionString: '1',
      softwareVersion: 1,
      softwareVersionString: '1.0',
      // Both at most 32 characters and different from each other: the product id stands for the kind.
      serialNumber: `hearth-${productId.toString(16)}-${port}`,
      uniqueId: `hearth-node-${productId.toString(16)}-${port}`,
    },
  });
  const endpoint = await add(node, kind);
  const events = endpoint.events as unknown as Record<string, Record<string, { on(listener: (value: unknown) => void): void }>>;
  for (const [event, [behavior, attribute]] of Object.entries(follows)) {
    events[behavior]?.[`${attribute}$Changed`]?.on((value) => options.onChange?.(event, value));
  }
  await node.start();
  const { manualPairingCode, qrPairingCode } = node.state.commissioning.pairingCodes;
  return { kind, node, endpoint, port, manualPairingCode, qrPairingCode };
}

/**
 * The state change a local command makes on a device (its button or its sensor), as `{ cluster: { attribute:
 * value } }`; null when the device has nothing the command changes. Commands: `on`, `off`, `toggle`, `level
 * <1-254>`, `contact open|closed`, `temperature <0.01 °C>`, `set <cluster>.<attribute> <JSON value>`.
 */
export function localChange(
  device: VirtualNode,
  command: string,
  argument: string,
): Record<string, Record<string, unknown>> | null {
  const has = (behavior: string) => behavior in (device.endpoint.state as Record<string, unknown>);
  const onOff = (device.endpoint.state as { onOff?: { onOff: boolean } }).onOff?.onOff;
  if ((command === 'on' || command === 'off' || command === 'toggle') && onOff !== undefined)
    return { onOff: { onOff: command === 'toggle' ? !onOff : command === 'on' } };
  if (command === 'level' && has('levelControl')) return { levelControl: { currentLevel: Number(argument) } };
  if (command === 'contact' && (argument === 'open' || argument === 'closed') && has('booleanState'))
    return { booleanState: { stateValue: argument === 'closed' } };
  if (command === 'temperature' && Number.isFinite(Number(argument))) {
    const measured = Math.round(Number(argument));
    if (has('temperatureMeasurement')) return { temperatureMeasurement: { measuredValue: measured } };
    if (has('thermostat')) return { thermostat: { localTemperature: measured } };
  }
  if (command === 'set') {
    const [target = '', ...json] = argument.split(' ');
    const [cluster = '', attribute = ''] = target.split('.');
    if (has(cluster) && attribute) return { [cluster]: { [attribute]: JSON.parse(json.join(' ')) } };
  }
  return null;
}

/** The device's own value of one attribute (`colorControl.colorTemperatureMireds`); null when it has none. */
export function ownState(device: VirtualNode, attribute: string): unknown {
  const [cluster = '', name = ''] = attribute.split('.');
  return (device.endpoint.state as Record<string, Record<string, unknown> | undefined>)[cluster]?.[name] ?? null;
}

/** Closes every node (their storage included). */
export async function closeVirtualNodes(nodes: readonly VirtualNode[]): Promise<void> {
  await Promise.all(nodes.map((device) => device.node.close()));
}

/**
 * Takes commands on stdin, one per line, for the devices of this process: `<kind> <command>`, or just `<command>`
 * when the process runs one device. `get <cluster>.<attribute>` is answered through `onState`; other commands
 * change the device (see {@link localChange}); anything else is reported on stderr.
 */
export function answerStdinCommands(
  running: readonly VirtualNode[],
  onState?: (device: VirtualNode, attribute: string, value: unknown) => void,
): void {
  createInterface({ input: process.stdin }).on('line', (line) => {
    const words = line.trim().split(/\s+/);
    const named = running.find((device) => device.kind === words[0]);
    const device = named ?? (running.length === 1 ? running[0] : undefined);
    const [command = '', ...rest] = named ? words.slice(1) : words;
    if (device && command === 'get' && onState) {
      onState(device, rest[0] ?? '', ownState(device, rest[0] ?? ''));
      return;
    }
    let values: Record<string, Record<string, unknown>> | null = null;
    try {
      values = device ? localChange(device, command, rest.join(' ')) : null;
    } catch (error) {
      process.stderr.write(`${line}: ${error}\n`);
      return;
    }
    if (!device || !values) {
      process.stderr.write(`unknown command: ${line}\n`);
      return;
    }
    device.endpoint.set(values).catch((error: unknown) => process.stderr.write(`${line} failed: ${error}\n`));
  });
}

/** Closes every node on SIGTERM or SIGINT (their storage included), then ends the process. */
export function closeOnSignals(running: readonly VirtualNode[]): void {
  const stop = () => {
    closeVirtualNodes(running).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
