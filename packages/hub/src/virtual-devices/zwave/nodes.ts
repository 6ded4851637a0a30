import { CommandClasses } from '@zwave-js/core';
import type { MockNodeOptions } from '@zwave-js/testing';

/** The home id of the virtual network's controller. */
export const MOCK_HOME_ID = 0x7e570001;

/** Meter type 1 is electricity; its scale 2 is W (scale 0 is kWh). */
const ELECTRIC_METER = 1;

/**
 * The nodes of the virtual network. Node 1 is the mock controller; node 2 is a wall plug: a binary switch with an
 * electricity meter reading 1.5 kWh and 42 W.
 */
export function virtualZwaveNodes(): Omit<MockNodeOptions, 'controller'>[] {
  return [
    {
      id: 2,
      capabilities: {
        commandClasses: [
          CommandClasses.Version,
          CommandClasses['Manufacturer Specific'],
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
  ];
}
