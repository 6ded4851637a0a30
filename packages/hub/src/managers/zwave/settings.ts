import { HearthError, invalidParameter } from '@hearth/contract';
import type { HubContext } from '../../platform/context';
import { flatSettings } from '../../runtime/manifest';
import type { HubServices } from '../../runtime/services';
import type { DeviceRecord } from '../devices/service';
import { noController } from './controller';
import { zwaveDataOf } from './devices';
import type { ZwaveStick } from './stick';

/** zwave-js's ConfigValueFormat: a parameter is a two's complement number unless it is said to be unsigned. */
const SIGNED = 0;
const UNSIGNED = 1;
const CONFIGURATION = 0x70;

/**
 * A setting's configuration parameter, as the ecosystem's Z-Wave drivers declare it in their `settings`
 * (homey-zwavedriver's convention): `zwave: { index, size, signed? }`; `signed: false` for an unsigned parameter.
 */
interface ParameterOfSetting {
  index: number;
  size: 1 | 2 | 4;
  signed?: boolean;
}

function parameterOf(setting: object): ParameterOfSetting | null {
  const zwave = (setting as { zwave?: Partial<ParameterOfSetting> }).zwave;
  if (!zwave || typeof zwave.index !== 'number' || ![1, 2, 4].includes(Number(zwave.size))) return null;
  return zwave as ParameterOfSetting;
}

/** The number a setting's value stands for on the node: a checkbox is 1 or 0, a dropdown's id is its number. */
function parameterValue(key: string, value: unknown, parameter: ParameterOfSetting): number {
  const number = typeof value === 'boolean' ? Number(value) : Number(value);
  if (!Number.isInteger(number))
    throw invalidParameter(`settings.${key}`, `Z-Wave parameter ${parameter.index} takes whole numbers`);
  const bits = parameter.size * 8;
  const [min, max] = parameter.signed === false ? [0, 2 ** bits - 1] : [-(2 ** (bits - 1)), 2 ** (bits - 1) - 1];
  if (number < min || number > max)
    throw invalidParameter(
      `settings.${key}`,
      `Z-Wave parameter ${parameter.index} (${parameter.size} bytes) takes ${min} to ${max}`,
    );
  return number;
}

/**
 * Device settings that name a configuration parameter go to the device's node when a person changes them: the
 * parameter is set and read back, and only a value the node then holds is stored. A refusal is a 502
 * `zwave_setting_refused` and the setting keeps its old value.
 */
export class ZwaveDeviceSettings {
  #undo: (() => void) | null = null;

  constructor(
    private readonly journal: HubContext['journal'],
    private readonly services: Pick<HubServices, 'devices' | 'deviceControl'>,
    private readonly stick: ZwaveStick | null,
  ) {}

  start(): void {
    this.#undo = this.services.deviceControl.useSettingsWriter((device, changed) => this.#write(device, changed));
  }

  stop(): void {
    this.#undo?.();
    this.#undo = null;
  }

  async #write(device: DeviceRecord, changed: Readonly<Record<string, unknown>>): Promise<void> {
    const zwave = zwaveDataOf(device);
    if (!zwave) return;
    const declared = flatSettings(this.services.devices.driverOf(device)?.driver.settings);
    const writes = Object.entries(changed).flatMap(([key, value]) => {
      const parameter = parameterOf(declared.find((s) => s.id === key) ?? {});
      return parameter ? [{ key, parameter, value: parameterValue(key, value, parameter) }] : [];
    });
    if (writes.length === 0) return;
    const driver = this.stick?.driver;
    if (!driver) throw noController(this.stick);
    const node = driver.controller.nodes.get(zwave.nodeId);
    if (!node) throw new HearthError('unavailable', `Z-Wave node ${zwave.nodeId} of ${device.name} is not in the network`);
    if (!node.supportsCC(CONFIGURATION))
      throw new HearthError('zwave_setting_refused', `Z-Wave node ${node.id} of ${device.name} has no configuration parameters`);
    const api = node.commandClasses.Configuration;
    const set = async (parameter: ParameterOfSetting, value: number) => {
      await api.set({
        parameter: parameter.index,
        value,
        valueSize: parameter.size,
        valueFormat: parameter.signed === false ? UNSIGNED : SIGNED,
      });
      return api.get(parameter.index);
    };
    const done: { key: string; parameter: ParameterOfSetting }[] = [];
    for (const { key, parameter, value } of writes) {
      const refused = (reason: string) =>
        new HearthError(
          'zwave_setting_refused',
          `Z-Wave node ${node.id} of ${device.name} did not take ${key} (parameter ${parameter.index} = ${value}): ${reason}`,
        );
      try {
        // A node that ignores a Set (a read-only or unknown parameter) says so only by still holding its old value.
        const held = await set(parameter, value);
        if (held !== value) throw refused(`it holds ${held === undefined ? 'no value' : String(held)}`);
        done.push({ key, parameter });
      } catch (error) {
        // None of the change is stored: the parameters it set already go back to the stored settings' values.
        await this.#restore(device, done, set);
        if (error instanceof HearthError) throw error;
        throw refused(error instanceof Error ? error.message : String(error));
      }
    }
  }

  async #restore(
    device: DeviceRecord,
    done: { key: string; parameter: ParameterOfSetting }[],
    set: (parameter: ParameterOfSetting, value: number) => Promise<unknown>,
  ): Promise<void> {
    for (const { key, parameter } of done) {
      const old = device.settings[key];
      if (old === undefined) continue;
      try {
        await set(parameter, parameterValue(key, old, parameter));
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        this.journal.log(`Z-Wave: putting ${key} of ${device.name} back to ${String(old)} failed: ${reason}`);
      }
    }
  }
}
