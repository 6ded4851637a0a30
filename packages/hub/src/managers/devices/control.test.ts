import type { RateLimited } from '@hearth/contract/fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DomainEvents } from '../../core/bus';
import type { CapabilityDriver } from '../../core/device-control';
import { startTestHub, type TestHub } from '../../testing/hub';
import { pairDevice, untilAppRunning } from '../../testing/pairing';
import { ack, connectRealtime } from '../../testing/socket';
import { DeviceController, MAX_WAITING_WRITES } from './control';

const SOCKET = 'homey:app:com.hearth.virtual:virtualsocket';
const LIGHT = 'homey:app:com.hearth.virtual:zigbee';
const BUTTON = 'homey:app:com.hearth.virtual:virtualbutton';
type Capability = DomainEvents['device.capability'];

/** A driver that answers each write after `delayMs(value)` and refuses the values `refuses` names. */
function testDriver(delayMs: (value: unknown) => number, refuses: (value: unknown) => string | null = () => null) {
  const seen: unknown[] = [];
  const driver: CapabilityDriver = {
    async setCapabilityValues(_device, values) {
      const value = Object.values(values)[0];
      seen.push(value);
      await new Promise((resolve) => setTimeout(resolve, delayMs(value)));
      const refusal = refuses(value);
      if (refusal) throw new Error(refusal);
    },
  };
  return { driver, seen };
}

describe('the device-control path', () => {
  let t: TestHub;
  let first: string;
  let second: string;
  let socket: string;
  const changes: Capability[] = [];
  beforeAll(async () => {
    t = await startTestHub();
    await untilAppRunning(t);
    first = await pairDevice(t, LIGHT);
    second = await pairDevice(t, LIGHT);
    socket = await pairDevice(t, SOCKET);
    t.hub.context.bus.on('device.capability', 'test', (change) => changes.push(change));
  });
  afterAll(() => t.stop());
  const stored = (id: string) => t.hub.services.devices.getCapabilityValue(id, 'dim');
  const controller = (driver: CapabilityDriver) =>
    new DeviceController(t.hub.context.bus, t.hub.context.clock, t.hub.services.devices, t.hub.services.apps, () => driver);
  const system = { kind: 'system' } as const;

  it('applies writes to one device in the order they were made, even when the first is slower to confirm', async () => {
    const { driver, seen } = testDriver((value) => (value === 0.2 ? 60 : 0));
    const control = controller(driver);
    changes.length = 0;
    const writes = [0.2, 0.7, 0.4].map((value) => control.setCapabilityValue(first, 'dim', value, {}, system));
    // Another device's write does not wait behind them.
    const other = control.setCapabilityValue(second, 'dim', 0.9, {}, system);
    expect(await other).toBe(0.9);
    expect(seen.slice(0, 2)).toEqual([0.2, 0.9]);
    // 0.7 waited behind 0.2 and was replaced by 0.4 before its turn: its caller learns the outcome of 0.4.
    expect(await Promise.all(writes)).toEqual([0.2, 0.4, 0.4]);
    expect(seen).toEqual([0.2, 0.9, 0.4]);
    expect(changes.filter((c) => c.deviceId === first).map((c) => c.value)).toEqual([0.2, 0.4]);
    expect(stored(first)).toBe(0.4);
  });

  it('bounds a device’s waiting writes: presses of a button each count, and beyond the bound are refused at once', async () => {
    const doorbell = await pairDevice(t, BUTTON);
    const { driver, seen } = testDriver(() => 20);
    const control = controller(driver);
    const presses = Array.from({ length: 60 }, () =>
      control.setCapabilityValue(doorbell, 'button', true, {}, system).then(
        () => 'applied',
        (error: RateLimited) => `${error.code} ${error.retryAfterSeconds}`,
      ),
    );
    const outcomes = await Promise.all(presses);
    // One with the driver, MAX_WAITING_WRITES waiting, the rest refused with a wait to retry after.
    expect(outcomes.filter((o) => o === 'applied')).toHaveLength(1 + MAX_WAITING_WRITES);
    expect(outcomes.filter((o) => o === 'rate_limited 1')).toHaveLength(60 - 1 - MAX_WAITING_WRITES);
    expect(seen).toHaveLength(1 + MAX_WAITING_WRITES);
    // The queue drained: the next press goes straight through.
    expect(await control.setCapabilityValue(doorbell, 'button', true, {}, system)).toBe(true);
  });

  it('leaves the stored value and announces nothing when the driver refuses, and goes on with the next write', async () => {
    const { driver } = testDriver(
      () => 5,
      (value) => (value === 1 ? 'Too bright for this lamp' : null),
    );
    const control = controller(driver);
    await control.setCapabilityValue(first, 'dim', 0.3, {}, system);
    changes.length = 0;
    const refused = control.setCapabilityValue(first, 'dim', 1, {}, system);
    const next = control.setCapabilityValue(first, 'dim', 0.6, {}, system);
    await expect(refused).rejects.toThrow('Too bright for this lamp');
    expect(await next).toBe(0.6);
    expect(changes.map((c) => c.value)).toEqual([0.6]);
    expect(stored(first)).toBe(0.6);
  });

  it('refuses what the capability does not allow before the driver hears of it, over HTTP, leaving the value', async () => {
    const before = stored(first);
    changes.length = 0;
    const outOfRange = await t.call<{ error: string }>('PUT', `/devices/device/${first}/capability/dim`, { value: 7 });
    expect(outOfRange.status).toBe(400);
    expect(outOfRange.body.error).toBe('invalid_parameter');
    const unknown = await t.call<{ error: string }>('PUT', `/devices/device/${first}/capability/target_temperature`, {
      value: 20,
    });
    expect(unknown.status).toBe(404);
    expect(stored(first)).toBe(before);
    expect(changes).toEqual([]);
  });

  it('names who made a change: the HTTP or socket session, with the transaction id the caller gave', async () => {
    changes.length = 0;
    const put = await t.call('PUT', `/devices/device/${socket}/capability/onoff`, { value: true, transactionId: 'tx-http' });
    expect(put.status).toBe(204);
    const realtime = await connectRealtime(t);
    try {
      const [error] = await ack(realtime.api, 'api', {
        uri: 'homey:manager:devices',
        operation: 'setCapabilityValue',
        args: { deviceId: socket, capabilityId: 'onoff', value: false, transactionId: 'tx-socket' },
      });
      expect(error).toBeNull();
    } finally {
      realtime.close();
    }
    const set = changes.filter((c) => c.capabilityId === 'onoff');
    expect(set.map((c) => [c.value, c.previous, c.transactionId, c.source.kind])).toEqual([
      [true, false, 'tx-http', 'api'],
      [false, true, 'tx-socket', 'api'],
    ]);
    // The socket turned on drew power: its reaction is announced too, as the simulation's own change of the device.
    expect(changes.some((c) => c.capabilityId === 'measure_power' && c.deviceId === socket)).toBe(true);
  });
});
