import {
  BatteryCCGet,
  BatteryCCReport,
  BinarySwitchCCGet,
  BinarySwitchCCReport,
  BinarySwitchCCSet,
  WakeUpCCIntervalGet,
  WakeUpCCIntervalReport,
  WakeUpCCIntervalSet,
  WakeUpCCWakeUpNotification,
} from '@zwave-js/cc';
import { CommandClasses } from '@zwave-js/core';
import { createMockZWaveRequestFrame, type MockNode, type MockNodeBehavior, type MockNodeOptions } from '@zwave-js/testing';

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

/** Where a mock node keeps its wake-up interval (seconds) and whether it is gone from the network. */
const WAKE_UP_INTERVAL_KEY = 'WakeUp_interval';
const GONE_KEY = 'gone';

/** zwave-js's mock nodes have no Wake Up behaviour: a sleeping node answers its interval and keeps the one it is set. */
export const respondToWakeUp: MockNodeBehavior = {
  handleCC(controller, self, receivedCC) {
    if (receivedCC instanceof WakeUpCCIntervalSet) {
      self.state.set(WAKE_UP_INTERVAL_KEY, receivedCC.wakeUpInterval);
      return { action: 'ok' };
    }
    if (!(receivedCC instanceof WakeUpCCIntervalGet)) return undefined;
    const wakeUpInterval = (self.state.get(WAKE_UP_INTERVAL_KEY) as number | undefined) ?? 3600;
    return {
      action: 'sendCC',
      cc: new WakeUpCCIntervalReport({ nodeId: controller.ownNodeId, wakeUpInterval, controllerNodeId: controller.ownNodeId }),
    };
  },
};

/** Where a multi-channel node keeps each endpoint's switch: `BinarySwitch_currentValue_<endpoint>`. */
export const endpointSwitchKey = (endpoint: number) => `BinarySwitch_currentValue_${endpoint}`;

/**
 * zwave-js's mock Binary Switch keeps one state for all of a node's endpoints: a two-channel switch keeps one per
 * endpoint here, so that switching one leaves the other as it was.
 */
export const switchPerEndpoint: MockNodeBehavior = {
  handleCC(controller, self, receivedCC) {
    const endpoint = receivedCC.endpointIndex;
    if (endpoint === 0) return undefined;
    if (receivedCC instanceof BinarySwitchCCSet) {
      self.state.set(endpointSwitchKey(endpoint), receivedCC.targetValue);
      return { action: 'ok' };
    }
    if (!(receivedCC instanceof BinarySwitchCCGet)) return undefined;
    const currentValue = self.state.get(endpointSwitchKey(endpoint)) === true;
    return { action: 'sendCC', cc: new BinarySwitchCCReport({ nodeId: controller.ownNodeId, currentValue }) };
  },
};

/** A node that is gone (unplugged, out of range) neither acknowledges nor answers anything the controller sends. */
export const silentWhileGone: MockNodeBehavior = {
  handleCC(_controller, self) {
    return isGone(self) ? { action: 'stop' } : undefined;
  },
};

/** Whether a node is off the air (`gone`). */
export const isGone = (node: MockNode) => node.state.get(GONE_KEY) === true;

/** Takes a node off the air (`gone: true`) or puts it back; back, it tells the controller it is there with a report. */
export async function setGone(node: MockNode, gone: boolean, hello: () => Promise<unknown>): Promise<void> {
  node.state.set(GONE_KEY, gone);
  node.autoAckControllerFrames = !gone;
  if (!gone) await hello();
}

/** A sleeping node wakes up (its button pressed, or its interval passed) and says so; the controller sends what waited. */
export async function wakeUp(controller: { ownNodeId: number }, node: MockNode): Promise<void> {
  const notification = new WakeUpCCWakeUpNotification({ nodeId: controller.ownNodeId });
  await node.sendToController(createMockZWaveRequestFrame(notification, { ackRequested: false }));
}

/** The basics every virtual node has: its versions and its manufacturer's ids. */
const BASICS = [CommandClasses.Version, CommandClasses['Manufacturer Specific']];

/** What each virtual node is, by node id, for people reading `npm start`'s output. */
export const VIRTUAL_NODE_NAMES: Record<number, string> = {
  2: 'wall plug (Binary Switch, electricity meter)',
  3: 'dimmer (Multilevel Switch)',
  4: 'battery multisensor (temperature, motion, door, battery)',
};

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
