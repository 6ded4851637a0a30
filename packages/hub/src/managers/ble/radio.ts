import { HearthError, invalidParameter, notFound } from '@hearth/contract';
import { ieeeAddressOf, type RadioNetwork } from '../../runtime/radio-network';

type Json = Record<string, unknown>;

/** A beacon the simulated home always has in range; it does not accept connections. */
const NEARBY_BEACON = {
  uuid: 'c0ffee000001',
  address: 'c0:ff:ee:00:00:01',
  name: 'Hearth Beacon',
  rssi: -78,
  connectable: false,
};

/** Simulated Bluetooth Low Energy: discovery finds the paired BLE devices and a beacon; connecting needs a discovery first. */
export class BleRadio {
  #discovered: Json[] = [];

  constructor(private readonly network: RadioNetwork) {}

  state(): Json {
    return { enabled: true, discovered: this.#discovered.length };
  }

  command(command: string, opts: Json = {}): unknown {
    switch (command) {
      case 'discover': {
        const fromDevices = this.network.nodes().map((d) => ({
          uuid: d.id.replace(/-/g, '').slice(0, 12),
          address: ieeeAddressOf(d).slice(0, 17),
          name: d.name,
          rssi: -60,
          connectable: true,
        }));
        this.#discovered = [...fromDevices, NEARBY_BEACON];
        return this.#discovered;
      }
      case 'connect': {
        const peripheral = this.#discovered.find((p) => p.uuid === opts.uuid || p.address === opts.address);
        if (!peripheral) throw notFound('BLE peripheral', String(opts.uuid ?? opts.address));
        if (!peripheral.connectable) throw new HearthError('conflict', `${String(peripheral.name)} does not accept connections`);
        return { ...peripheral, connected: true };
      }
      default:
        throw invalidParameter('command', `Unknown BLE command ${command}`);
    }
  }
}
