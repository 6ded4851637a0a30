import { hubManager } from '../operation';
import { declareRadioCommand, declareState, OpenObject } from './options';

/** Zigbee: the simulated coordinator. */
const op = hubManager('zigbee');

export const zigbeeOperations = {
  getState: declareState(op),
  runCommand: declareRadioCommand(op, 'the Zigbee coordinator'),
  flashFirmware: op({
    name: 'flashFirmware',
    method: 'PUT',
    path: '/flash-firmware',
    scope: 'homey.system',
    private: true,
    response: OpenObject,
    summary: "Flashes the coordinator's newest firmware; the network and its nodes stay.",
  }),
} as const;
