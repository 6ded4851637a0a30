import { HearthError } from '@hearth/contract';
import type { DomainBus } from '../../core/bus';
import type { CapabilityDefinition } from '../../runtime/capabilities';
import type {
  CardReplacement,
  FlowCardArgDefinition,
  FlowCardDefinition,
  FlowCardProvider,
  FlowCardType,
  FlowRegistry,
} from '../flow/registry';
import type { DeviceController } from './control';
import { ecosystemCapabilityCards, isRetiredCard, retiredCardCandidates } from './ecosystem-cards';
import type { DeviceRecord, DeviceService } from './service';

const DEVICE_URI = 'homey:device:';
type TokenType = 'string' | 'number' | 'boolean';

const tokenType = (capability: CapabilityDefinition): TokenType =>
  capability.type === 'boolean' ? 'boolean' : capability.type === 'number' ? 'number' : 'string';

/** What a device's value for `capability` may be set to, as a flow card argument. */
function valueArg(capability: CapabilityDefinition): FlowCardArgDefinition {
  const title = capability.title;
  switch (capability.type) {
    case 'boolean':
      return { name: 'value', type: 'checkbox', title };
    case 'number':
      return {
        name: 'value',
        type: capability.min !== undefined && capability.max !== undefined ? 'range' : 'number',
        title,
        ...(capability.min !== undefined ? { min: capability.min } : {}),
        ...(capability.max !== undefined ? { max: capability.max } : {}),
        ...(capability.step !== undefined ? { step: capability.step } : {}),
      };
    case 'enum':
      return { name: 'value', type: 'dropdown', title, values: [...(capability.values ?? [])] };
    default:
      return { name: 'value', type: 'text', title };
  }
}

/** Titles people know for the most used capabilities; others are named after the capability. */
function setTitle(capability: CapabilityDefinition): string {
  if (capability.id === 'dim') return 'Dim to';
  if (capability.id === 'target_temperature') return 'Set the target temperature';
  if (capability.id === 'onoff') return 'Turn on or off';
  return `Set ${capability.title.toLowerCase()}`;
}

/**
 * The flow cards of one device, made from its capabilities: a trigger when a value changed (its token named
 * after the capability), `_true` / `_false` triggers for booleans; conditions "is on", "greater/less than",
 * "equals"; actions "set" (dim to, set target temperature, …) and "toggle", as the capability allows.
 */
function deviceCards(device: DeviceRecord, devices: DeviceService, control: DeviceController): FlowCardDefinition[] {
  const uri = `${DEVICE_URI}${device.id}`;
  const cards: FlowCardDefinition[] = [];
  const current = (id: string) => devices.values(device.id).get(id)?.value ?? null;
  /** Writes a value of the capability through the device-control path, for the flow or person `source`. */
  const writer =
    (capabilityId: string) =>
    (value: unknown, duration: number | undefined, source: Parameters<DeviceController['setCapabilityValue']>[4]) =>
      control.setCapabilityValue(device.id, capabilityId, value, duration ? { opts: { duration } } : {}, source);
  for (const capabilityId of device.capabilities) {
    const capability = devices.capabilityOf(device, capabilityId);
    const title = capability.title;
    const type = tokenType(capability);
    const token = { id: capabilityId, title, type };
    cards.push({ type: 'trigger', uri, id: `${capabilityId}_changed`, title: `${title} changed`, tokens: [token] });
    if (capability.type === 'boolean') {
      const on = capability.titleTrue ?? (capabilityId === 'onoff' ? 'Turned on' : `${title} became true`);
      const off = capability.titleFalse ?? (capabilityId === 'onoff' ? 'Turned off' : `${title} became false`);
      cards.push({ type: 'trigger', uri, id: `${capabilityId}_true`, title: on });
      cards.push({ type: 'trigger', uri, id: `${capabilityId}_false`, title: off });
    }
    if (capability.getable) {
      if (capability.type === 'boolean') {
        cards.push({
          type: 'condition',
          uri,
          id: capabilityId,
          title: capabilityId === 'onoff' ? 'Is on' : `${title} is true`,
          run: () => current(capabilityId) === true,
        });
      } else if (capability.type === 'number') {
        const threshold: FlowCardArgDefinition = { name: 'value', type: 'number', title };
        cards.push({
          type: 'condition',
          uri,
          id: `${capabilityId}_greater_than`,
          title: `${title} is greater than`,
          args: [threshold],
          run: ({ args }) => {
            const value = current(capabilityId);
            return typeof value === 'number' && value > (args.value as number);
          },
        });
        cards.push({
          type: 'condition',
          uri,
          id: `${capabilityId}_less_than`,
          title: `${title} is less than`,
          args: [threshold],
          run: ({ args }) => {
            const value = current(capabilityId);
            return typeof value === 'number' && value < (args.value as number);
          },
        });
      } else {
        cards.push({
          type: 'condition',
          uri,
          id: `${capabilityId}_equals`,
          title: `${title} is`,
          args: [valueArg(capability)],
          run: ({ args }) => current(capabilityId) === args.value,
        });
      }
    }
    if (capability.setable) {
      const write = writer(capabilityId);
      cards.push({
        type: 'action',
        uri,
        id: `${capabilityId}_set`,
        title: setTitle(capability),
        args: [valueArg(capability)],
        duration: capability.type === 'number',
        run: async ({ args, duration, source }) => {
          if (!source) throw new HearthError('invalid_parameter', 'A device card runs for a flow or a person');
          return { [capabilityId]: await write(args.value, duration, source) };
        },
      });
      if (capability.type === 'boolean') {
        cards.push({
          type: 'action',
          uri,
          id: `${capabilityId}_toggle`,
          title: capabilityId === 'onoff' ? 'Toggle on or off' : `Toggle ${title.toLowerCase()}`,
          run: async ({ source }) => {
            if (!source) throw new HearthError('invalid_parameter', 'A device card runs for a flow or a person');
            return { [capabilityId]: await write(current(capabilityId) !== true, undefined, source) };
          },
        });
      }
    }
  }
  // Hearth's cards whose work the ecosystem's cards do are retired: still run for flows that could not be moved
  // to the ecosystem's (a value from a token), no longer listed.
  for (const [index, card] of cards.entries()) {
    const ofCapability = (c: string) => card.id === c || card.id.startsWith(`${c}_`);
    if (card.type !== 'trigger' && device.capabilities.some((c) => ofCapability(c) && isRetiredCard(card.type, card.id, c)))
      cards[index] = { ...card, deprecated: true };
  }
  // The ecosystem's own cards of each system capability. Where one has the id of a Hearth card, Hearth's stays
  // unless it is retired (target_temperature_set with Hearth's value argument gives way to the ecosystem's).
  const at = new Map(cards.map((card, index) => [`${card.type}/${card.id}`, index]));
  for (const capabilityId of device.capabilities.filter((id) => !id.includes('.'))) {
    const capability = devices.capabilityOf(device, capabilityId);
    for (const card of ecosystemCapabilityCards(device, capability, uri, () => current(capabilityId), writer(capabilityId))) {
      if (card.type === 'action' && !capability.setable) continue;
      const same = at.get(`${card.type}/${card.id}`);
      if (same !== undefined && !cards[same]?.deprecated) continue;
      if (same !== undefined) cards[same] = card;
      else at.set(`${card.type}/${card.id}`, cards.push(card) - 1);
    }
  }
  return cards;
}

/** The first of the ecosystem's cards that does what a retired card of `device` did, among those it is offered. */
function replacementOf(
  device: DeviceRecord,
  cards: readonly FlowCardDefinition[],
  type: FlowCardType,
  id: string,
  args: Record<string, unknown>,
): CardReplacement | null {
  if (type === 'trigger' || !cards.some((card) => card.type === type && card.id === id && card.deprecated)) return null;
  const offered = (candidate: CardReplacement) =>
    cards.some((card) => card.type === type && card.id === candidate.id && !card.deprecated);
  return retiredCardCandidates(type, id, args, device.capabilities).find(offered) ?? null;
}

/**
 * Offers every device's cards to the flow registry (made on demand: a device that is gone has none, so flows
 * using it turn broken at once) and fires the device triggers from the domain bus. Answers the undo.
 */
export function serveDeviceCards(
  registry: FlowRegistry,
  bus: DomainBus,
  devices: DeviceService,
  control: DeviceController,
): () => void {
  // Made once per device and kept until the device changes: every flow run looks its cards up.
  const made = new Map<string, FlowCardDefinition[]>();
  const cardsOfDevice = (device: DeviceRecord) => {
    let cards = made.get(device.id);
    if (!cards) {
      cards = deviceCards(device, devices, control);
      made.set(device.id, cards);
    }
    return cards;
  };
  const cardsOf = (uri: string): FlowCardDefinition[] => {
    const id = uri.slice(DEVICE_URI.length);
    const cached = made.get(id);
    if (cached) return cached;
    const device = devices.find(id);
    return device ? cardsOfDevice(device) : [];
  };
  const provider: FlowCardProvider = {
    uriPrefix: DEVICE_URI,
    card: (type: FlowCardType, uri: string, id: string) => cardsOf(uri).find((card) => card.type === type && card.id === id),
    list: (type: FlowCardType) =>
      devices.list().flatMap((device) => cardsOfDevice(device).filter((card) => card.type === type && !card.deprecated)),
    ownerName: (uri) => devices.find(uri.slice(DEVICE_URI.length))?.name,
    replacement: (type, uri, id, args) => {
      const device = devices.find(uri.slice(DEVICE_URI.length));
      return device ? replacementOf(device, cardsOfDevice(device), type, id, args) : null;
    },
  };
  const stops = [
    registry.registerCardProvider(provider),
    // Cards come and go with devices and their capabilities: flows using them are checked again.
    bus.on('device.added', 'device-cards', () => registry.changed()),
    bus.on('device.removed', 'device-cards', ({ deviceId }) => {
      made.delete(deviceId);
      registry.changed();
    }),
    bus.on('device.updated', 'device-cards', ({ deviceId, changed }) => {
      made.delete(deviceId);
      if (changed.includes('capabilities') || changed.includes('capabilitiesOptions')) registry.changed();
    }),
    bus.on('device.capability', 'device-cards', (change) => {
      const uri = `${DEVICE_URI}${change.deviceId}`;
      const tokens = { [change.capabilityId]: change.value };
      const state = { value: change.value, previous: change.previous };
      const device = devices.find(change.deviceId);
      const getable = device ? devices.capabilityOf(device, change.capabilityId).getable : true;
      // A state fires when it changed; an event (a button press, not getable) every time.
      if (getable && change.value === change.previous) return;
      registry.fire({ uri, id: `${change.capabilityId}_changed`, tokens, state, source: change.source });
      if (typeof change.value === 'boolean')
        registry.fire({ uri, id: `${change.capabilityId}_${change.value}`, tokens, state, source: change.source });
    }),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}
