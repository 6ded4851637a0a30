import type { TestHub } from './hub';
import { until } from './until';

/** A hub device as the tests of the MQTT bridge read it. */
export interface BridgedDevice {
  id: string;
  name: string;
  class: string;
  driverId: string;
  available: boolean;
  unavailableMessage: string | null;
  capabilities: string[];
  capabilitiesObj: Record<string, { value: unknown; setable: boolean }>;
}

/**
 * Reads the devices one of the MQTT bridge's drivers made (`driverPrefix`: its id or a prefix of it), by name, and
 * waits for what a message published to the broker changes. `hub` answers the hub a suite's `beforeAll` started.
 */
export function bridgedDevices(hub: () => TestHub, driverPrefix: string) {
  const list = async () =>
    Object.values((await hub().call<Record<string, BridgedDevice>>('GET', '/devices/device')).body).filter((d) =>
      d.driverId.startsWith(driverPrefix),
    );
  const device = async (name: string) => (await list()).find((d) => d.name === name);
  const value = async (name: string, capabilityId: string) => (await device(name))?.capabilitiesObj[capabilityId]?.value;
  return {
    list,
    device,
    value,
    /** Waits until the capability holds `expected`, and answers what it holds then. */
    settles: (name: string, capabilityId: string, expected: unknown) =>
      until(
        () => value(name, capabilityId),
        (v) => v === expected,
      ),
    /** Waits until the device is (un)available, and answers it. */
    availability: (name: string, available: boolean) =>
      until(
        () => device(name),
        (d) => d?.available === available,
      ),
    /** Waits until the bridge's state (`GET /mqtt/state`) passes `ok`, and answers the response. */
    bridgeState: (ok: (state: Record<string, unknown>) => boolean, ms?: number) =>
      until(
        () => hub().call<Record<string, unknown>>('GET', '/mqtt/state'),
        (s) => ok(s.body),
        ms,
      ),
  };
}
