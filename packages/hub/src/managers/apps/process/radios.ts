type Json = Record<string, unknown>;

/**
 * What the hub's Z-Wave controller offers apps for their devices' nodes (`this.homey.zwave`): the zwave manager
 * sets it while its controller runs. An app reaches only the nodes of its own devices.
 */
export interface AppZwaveNodes {
  /** The node of the app's device: its ids, and its command classes with the commands apps may send. */
  getNode(appId: string, deviceId: string): Json;
  /** One command of a command class (`SWITCH_BINARY_SET`, …) with the ecosystem's fields; a GET answers its report. */
  command(appId: string, deviceId: string, commandClass: string, command: string, args: Json): Promise<Json | null>;
  /** A raw frame: command class id, command id, and the bytes after them. */
  sendCommand(appId: string, deviceId: string, commandClassId: number, commandId: number, params: number[]): Promise<void>;
}

/** The radios the hub hands its apps, set by their managers while they run. */
export class AppRadios {
  zwave: AppZwaveNodes | null = null;
}
