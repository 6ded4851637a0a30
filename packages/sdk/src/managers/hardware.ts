import { unsupported } from '../internal/bridge';
import { Manager } from './manager';

/*
 * Managers for radios and peripherals a Hearth hub does not hand to apps: its Zigbee, RF and BLE radios
 * are the hub's own (simulated on a development hub; Z-Wave is handed to apps, see `zwave.ts`) and it has no LED ring, NFC reader or speaker for apps.
 * Each call rejects (or throws) with a `not_implemented` error naming what is missing, so an app written for
 * those can start and report the error instead of failing on a missing manager.
 */

const noRadio = (what: string) => unsupported(what, 'the hub does not hand its radios to apps');

/** `this.homey.arp`. */
export class ManagerArp extends Manager {
  static ID = 'arp';
  async getMAC(_ip: string): Promise<never> {
    throw unsupported('ManagerArp.getMAC', 'the hub does not expose its ARP table to apps');
  }
}

/** `this.homey.audio`. */
export class ManagerAudio extends Manager {
  static ID = 'audio';
  async playWav(_sampleId: string, _sample?: string | Buffer): Promise<never> {
    throw unsupported('ManagerAudio.playWav', 'the hub has no speaker for apps');
  }
  async playMp3(_sampleId: string, _sample?: string | Buffer): Promise<never> {
    throw unsupported('ManagerAudio.playMp3', 'the hub has no speaker for apps');
  }
  async removeWav(_sampleId: string): Promise<never> {
    throw unsupported('ManagerAudio.removeWav', 'the hub has no speaker for apps');
  }
  async removeMp3(_sampleId: string): Promise<never> {
    throw unsupported('ManagerAudio.removeMp3', 'the hub has no speaker for apps');
  }
}

/** `this.homey.ble`. */
export class ManagerBLE extends Manager {
  static ID = 'ble';
  async discover(_serviceFilter?: string[]): Promise<never> {
    throw noRadio('ManagerBLE.discover');
  }
  async find(_peripheralUuid: string): Promise<never> {
    throw noRadio('ManagerBLE.find');
  }
}

/** `this.homey.discovery`. */
export class ManagerDiscovery extends Manager {
  static ID = 'discovery';
  getStrategy(_strategyId: string): never {
    throw unsupported('ManagerDiscovery.getStrategy', 'the hub does not run discovery strategies for apps');
  }
}

/** `this.homey.ledring`. */
export class ManagerLedring extends Manager {
  static ID = 'ledring';
  async createAnimation(_opts: unknown): Promise<never> {
    throw unsupported('ManagerLedring.createAnimation', 'the hub has no LED ring for apps');
  }
  async createSystemAnimation(_systemId: string, _opts: unknown): Promise<never> {
    throw unsupported('ManagerLedring.createSystemAnimation', 'the hub has no LED ring for apps');
  }
  async createProgressAnimation(_opts: unknown): Promise<never> {
    throw unsupported('ManagerLedring.createProgressAnimation', 'the hub has no LED ring for apps');
  }
  async registerAnimation(_animation: unknown): Promise<never> {
    throw unsupported('ManagerLedring.registerAnimation', 'the hub has no LED ring for apps');
  }
  async unregisterAnimation(_animation: unknown): Promise<never> {
    throw unsupported('ManagerLedring.unregisterAnimation', 'the hub has no LED ring for apps');
  }
  async registerScreensaver(_name: string, _animation: unknown): Promise<never> {
    throw unsupported('ManagerLedring.registerScreensaver', 'the hub has no LED ring for apps');
  }
  async unregisterScreensaver(_name: string, _animation: unknown): Promise<never> {
    throw unsupported('ManagerLedring.unregisterScreensaver', 'the hub has no LED ring for apps');
  }
}

/** `this.homey.nfc`. */
export class ManagerNFC extends Manager {
  static ID = 'nfc';
}

/** `this.homey.rf`. */
export class ManagerRF extends Manager {
  static ID = 'rf';
  async tx(_signal: unknown, _frame: number[] | Buffer, _opts?: { repetitions: number }): Promise<never> {
    throw noRadio('ManagerRF.tx');
  }
  async cmd(_signal: unknown, _commandId: string, _opts?: { repetitions: number }): Promise<never> {
    throw noRadio('ManagerRF.cmd');
  }
  getSignal433(_id: string): never {
    throw noRadio('ManagerRF.getSignal433');
  }
  getSignal868(_id: string): never {
    throw noRadio('ManagerRF.getSignal868');
  }
  getSignalInfrared(_id: string): never {
    throw noRadio('ManagerRF.getSignalInfrared');
  }
  async enableSignalRX(_signal: unknown): Promise<never> {
    throw noRadio('ManagerRF.enableSignalRX');
  }
  async disableSignalRX(_signal: unknown): Promise<never> {
    throw noRadio('ManagerRF.disableSignalRX');
  }
}

/** `this.homey.zigbee`. */
export class ManagerZigBee extends Manager {
  static ID = 'zigbee';
  async getNode(_device: unknown): Promise<never> {
    throw noRadio('ManagerZigBee.getNode');
  }
}
