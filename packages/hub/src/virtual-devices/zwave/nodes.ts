import { BatteryCCGet, BatteryCCReport } from '@zwave-js/cc';
import { CommandClasses } from '@zwave-js/core';
import type { MockNodeBehavior, MockNodeOptions } from '@zwave-js/testing';

/** The home id of the virtual network's controller. */
export const MOCK_HOME_ID = 0x7e570001;

/** Meter type 1 is electricity; its scale 2 is W (scale 0 is kWh). */
const ELECTRIC_METER = 1;
/** Multilevel Sensor type 1 is air temperature; its scale 0 is °C. */
const AIR_TEMPERATURE = 1;
/** Notification types and events: Home Security 7 (event 8: motion), Access Control 6 (22: door open, 23: closed). */
const HOME_SECURITY = 7;
const ACCESS_CONTROL = 6;

/** Where the mock battery keeps its level, so that a test can change it (see `control.ts`). */
export const BATTERY_LEVEL_KEY = 'Battery_level';

/** zwave-js's mock nodes have no Battery behaviour: the multisensor answers a Battery Get with its level. */
export const respondToBatteryGet: MockNodeBehavior = {
  handleCC(controller, self, receivedCC) {
    if (!(receivedCC instanceof BatteryCCGet)) return undefined;
    const level = (self.state.get(BATTERY_LEVEL_KEY) as number | undefined) ?? 87;
    return { action: 'sendCC', cc: new BatteryCCReport({ nodeId: controller.ownNodeId, level }) };
  },
};

/** The basics every virtual node has: its versions and its manufacturer's ids. */
const BASICS = [CommandClasses.Version, CommandClasses['Manufacturer Specific']];

/**
 * The nodes of the virtual network. Node 1 is the mock controller. Node 2 is a wall plug: a binary switch with an
 * electricity meter reading 1.5 kWh and 42 W. Node 3 is a dimmer. Node 4 is a battery multisensor: temperature
 * 21.5 °C, motion and door notifications, battery 87 %.
 */
export function virtualZwaveNodes(): Omit<MockNodeOptions, 'controller'>[] {
  return [
    {
      id: 2,
      capabilities: {
        commandClasses: [
          ...BASICS,
          { ccId: CommandClasses['Binary Switch'], isSupported: true, version: 2 },
          {
            ccId: CommandClasses.Meter,
            isSupported: true,
            version: 3,
            supportedScales: [0, 2],
            meterType: ELECTRIC_METER,
            supportedRateTypes: [],
            supportsReset: false,
            getValue: (scale: number) => (scale === 2 ? 42 : 1.5),
          },
        ],
      },
    },
    {
      id: 3,
      capabilities: {
        commandClasses: [...BASICS, { ccId: CommandClasses['Multilevel Switch'], isSupported: true, version: 4 }],
      },
    },
    {
      id: 4,
      capabilities: {
        commandClasses: [
          ...BASICS,
          {
            ccId: CommandClasses['Multilevel Sensor'],
            isSupported: true,
            version: 11,
            sensors: { [AIR_TEMPERATURE]: { supportedScales: [0] } },
            getValue: () => 21.5,
          },
          {
            ccId: CommandClasses.Notification,
            isSupported: true,
            version: 8,
            supportsV1Alarm: false,
            notificationTypesAndEvents: { [HOME_SECURITY]: [8], [ACCESS_CONTROL]: [22, 23] },
          },
          { ccId: CommandClasses.Battery, isSupported: true, version: 1 },
        ],
      },
    },
  ];
}
