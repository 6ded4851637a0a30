import type { CapabilityValue, ChangeSource } from '../../core/bus';
import type { HubContext } from '../../platform/context';
import { type CapabilityOptions, capabilityDefinition } from '../../runtime/capabilities';
import type { DeviceService } from '../devices/service';

/** What the bridges share: reading payloads safely and storing the values they carry. */

export const MQTT_APP_ID = 'com.hearth.mqtt';
export const SOURCE: ChangeSource = { kind: 'app', appId: MQTT_APP_ID };
/** A state, availability or config message larger than this is not a device's: it is logged and dropped unread. */
export const MAX_STATE_BYTES = 64 * 1024;

export const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Parses a JSON payload; one that is too large or not JSON is logged with its topic and dropped. */
export function readJson(
  context: HubContext,
  topic: string,
  payload: Buffer,
  limit: number,
  use: (value: unknown) => void,
): void {
  if (payload.length > limit) {
    context.journal.log(`mqtt: ignored ${topic}: ${payload.length} bytes is more than ${limit}`);
    return;
  }
  let value: unknown;
  try {
    value = JSON.parse(payload.toString('utf8'));
  } catch {
    context.journal.log(`mqtt: ignored ${topic}: not JSON`);
    return;
  }
  try {
    use(value);
  } catch (error) {
    context.journal.log(`mqtt: handling ${topic} failed: ${errorText(error)}`);
  }
}

/**
 * Stores the values a message carried. A repeated report (a retained message after a restart) is no change: it is
 * neither stored nor announced, so it fires no flow. A value the capability refuses is logged with the topic.
 */
export function storeValues(
  context: HubContext,
  devices: DeviceService,
  topic: string,
  deviceId: string,
  values: Readonly<Record<string, CapabilityValue>>,
): void {
  const current = devices.values(deviceId);
  for (const [capabilityId, value] of Object.entries(values)) {
    if (current.get(capabilityId)?.value === value) continue;
    try {
      devices.reportCapabilityValue(deviceId, capabilityId, value, { source: SOURCE });
    } catch (error) {
      context.journal.log(`mqtt: ignored ${topic} ${capabilityId}=${JSON.stringify(value)}: ${errorText(error)}`);
    }
  }
}

/** A capability the catalogue lets people set, which the device does not take commands for, is read-only. */
export function readOnlyOptions(capabilityIds: readonly string[], setable: readonly string[]): Record<string, CapabilityOptions> {
  const options: Record<string, CapabilityOptions> = {};
  for (const capabilityId of capabilityIds) {
    if (!setable.includes(capabilityId) && capabilityDefinition(capabilityId)?.setable)
      options[capabilityId] = { setable: false };
  }
  return options;
}

export const BROKER_DOWN = 'MQTT broker not reachable';

/**
 * While the broker is away, every bridged device is unavailable with that reason; when it is back the reason goes,
 * and the retained availability messages that follow say which devices are themselves offline.
 */
export function markBrokerReachable(devices: DeviceService, reachable: boolean): void {
  for (const device of devices.listByApp(MQTT_APP_ID)) {
    if (reachable && device.unavailableMessage === BROKER_DOWN) devices.updateFromApp(device.id, { unavailableMessage: null });
    // A device already unavailable for its own reason (removed, offline) keeps that reason.
    if (!reachable && device.unavailableMessage === null) devices.updateFromApp(device.id, { unavailableMessage: BROKER_DOWN });
  }
}
