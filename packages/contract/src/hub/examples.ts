import type { OperationExamples } from '../operation';

/**
 * Example calls the API reference shows for the most used hub operations, taken from the demo hub (`npm start`
 * seeds it) and shortened: the answers keep the fields people read first (a device answers some twenty more).
 * `examples.test.ts` checks each against its operation's schemas.
 */

const home = 'a97b8cfd-e3c3-4331-a6ae-9ad21cae36e1';
const groundFloor = 'a86a5cb4-189e-4a8f-829a-3dbe45ffdb9c';
const hallway = '495a68c2-2d86-4f4b-aceb-0403bd79b4e3';
const firstFloor = '34f1efaa-6731-4e8f-bf38-644535518869';
const garden = 'eb668a0d-7e86-4197-b3c2-a4c7bea439b4';
const light = '4fc9f66f-3e59-463b-8832-187b48e5e67e';
const station = 'e52e2e6d-b928-402c-aaaf-f1fa87172ab9';
const owner = '19fd6645-611b-4918-b788-e9e6c50c94bb';
const flow = 'cb6f6799-032d-4961-8282-f53ff239c8ee';
const at = '2026-11-25T18:30:00.000Z';

const hallwayLight = {
  id: light,
  name: 'Hallway light',
  driverId: 'homey:app:com.hearth.virtual:zigbee',
  driverUri: 'homey:app:com.hearth.virtual',
  ownerUri: 'homey:app:com.hearth.virtual',
  zone: hallway,
  class: 'light',
  capabilities: ['onoff', 'dim'],
  capabilitiesObj: {
    onoff: {
      id: 'onoff',
      type: 'boolean',
      title: 'Turned on',
      getable: true,
      setable: true,
      value: true,
      lastUpdated: at,
      options: {},
      titleTrue: 'On',
      titleFalse: 'Off',
    },
    dim: {
      id: 'dim',
      type: 'number',
      title: 'Dim level',
      getable: true,
      setable: true,
      value: 0.6,
      lastUpdated: at,
      options: {},
      min: 0,
      max: 1,
      step: 0.01,
      decimals: 2,
      units: '%',
    },
  },
  available: true,
  ready: true,
  note: '',
  icon: '/app/com.hearth.virtual/drivers/zigbee/assets/icon.svg',
  iconOverride: null,
  virtualClass: null,
  ui: {
    quickAction: 'onoff',
    components: [
      { id: 'toggle', capabilities: ['onoff'] },
      { id: 'slider', capabilities: ['dim'] },
    ],
  },
  hidden: false,
  unavailableMessage: null,
  connectivity: ['zigbee'],
  createdAt: '2026-11-01T09:12:44.168Z',
};

const weatherStation = {
  id: station,
  name: 'Weather station',
  driverId: 'homey:app:com.openweather.station:station',
  driverUri: 'homey:app:com.openweather.station',
  ownerUri: 'homey:app:com.openweather.station',
  zone: garden,
  class: 'sensor',
  capabilities: ['measure_temperature', 'measure_humidity'],
  capabilitiesObj: {
    measure_temperature: {
      id: 'measure_temperature',
      type: 'number',
      title: 'Temperature',
      getable: true,
      setable: false,
      value: 20.5,
      lastUpdated: at,
      options: {},
      units: '°C',
      decimals: 1,
    },
    measure_humidity: {
      id: 'measure_humidity',
      type: 'number',
      title: 'Humidity',
      getable: true,
      setable: false,
      value: 45,
      lastUpdated: at,
      options: {},
      units: '%',
      min: 0,
      max: 100,
      decimals: 0,
    },
  },
  available: true,
  ready: true,
  note: '',
  connectivity: ['cloud'],
  createdAt: '2026-11-01T09:12:45.242Z',
};

export const devicesExamples = {
  getDevices: { response: { [light]: hallwayLight, [station]: weatherStation } },
  getDevice: { params: { id: light }, response: hallwayLight },
  setCapabilityValue: { params: { deviceId: light, capabilityId: 'dim' }, body: { value: 0.6, opts: { duration: 500 } } },
} satisfies Record<string, OperationExamples>;

const zone = (id: string, name: string, parent: string | null, icon: string, order = 0) => ({
  id,
  name,
  order,
  parent,
  active: false,
  activeLastUpdated: null,
  icon,
});
const nursery = zone('776e3ceb-7b5b-4ee6-9e74-a21b7465a915', 'Nursery', firstFloor, 'bedroom', 3);

export const zonesExamples = {
  getZones: {
    response: {
      [home]: zone(home, 'Home', null, 'home'),
      [groundFloor]: zone(groundFloor, 'Ground floor', home, 'groundFloor'),
      [hallway]: { ...zone(hallway, 'Hallway', groundFloor, 'hallway', 2), active: true, activeLastUpdated: at },
    },
  },
  getZone: { params: { id: groundFloor }, response: zone(groundFloor, 'Ground floor', home, 'groundFloor') },
  createZone: { body: { name: 'Nursery', icon: 'bedroom', parent: firstFloor }, response: nursery },
} satisfies Record<string, OperationExamples>;

const eveningLightsBody = {
  name: 'Evening lights',
  trigger: { uri: 'homey:manager:flow', id: 'programmatic_trigger' },
  conditions: [],
  actions: [{ uri: `homey:device:${light}`, id: 'dim_set', args: { value: 0.4 } }],
};
const eveningLights = {
  id: flow,
  name: 'Evening lights',
  enabled: true,
  folder: null,
  order: 0,
  broken: false,
  triggerable: true,
  trigger: { uri: 'homey:manager:flow', id: 'programmatic_trigger', args: {}, droptoken: null },
  conditions: [],
  actions: [
    {
      uri: `homey:device:${light}`,
      id: 'dim_set',
      args: { value: 0.4 },
      droptoken: null,
      group: 'then',
      duration: null,
      delay: null,
    },
  ],
};
const dimCard = `homey:device:${light}:dim_set`;

export const flowExamples = {
  getFlows: { response: { [flow]: eveningLights } },
  createFlow: { body: eveningLightsBody, response: eveningLights },
  triggerFlow: {
    params: { id: flow },
    body: {},
    response: {
      id: '170aee58-5556-43d8-99fa-6d4ed381e88b',
      flowId: flow,
      flowType: 'flow',
      flowName: 'Evening lights',
      startedAt: '2026-11-25T18:30:00.283Z',
      finishedAt: '2026-11-25T18:30:00.309Z',
      status: 'completed',
      trigger: { uri: 'homey:manager:flow', id: 'manual', tokens: {}, source: { kind: 'api', userId: owner } },
      steps: [
        { kind: 'action', card: dimCard, group: 'then', index: 0, outcome: 'started', at: '2026-11-25T18:30:00.308Z' },
        {
          kind: 'action',
          card: dimCard,
          group: 'then',
          index: 0,
          outcome: 'done',
          args: { value: 0.4 },
          result: { dim: 0.4 },
          ms: 1,
          at: '2026-11-25T18:30:00.309Z',
        },
      ],
    },
  },
} satisfies Record<string, OperationExamples>;

const guestsExpected = { id: '271e1341-7ce7-4a24-92f4-effedb093e3c', name: 'Guests expected', type: 'boolean', value: false };
const outsideTarget = { id: '5b0f6c1e-2d7a-4c59-9a51-0c3e8f2d4b17', name: 'Heating target', type: 'number', value: 20.5 };

export const logicExamples = {
  getVariables: { response: { [guestsExpected.id]: guestsExpected, [outsideTarget.id]: outsideTarget } },
  createVariable: { body: { name: 'Guests expected', type: 'boolean', value: false }, response: guestsExpected },
  updateVariable: {
    params: { id: guestsExpected.id },
    body: { value: true },
    response: { ...guestsExpected, value: true },
  },
} satisfies Record<string, OperationExamples>;

const ownerUser = {
  id: owner,
  name: 'Dana',
  athomId: null,
  properties: {},
  enabled: true,
  verified: true,
  role: 'owner',
  present: true,
  asleep: false,
};
const guest = { ...ownerUser, id: '8d3c2a61-5f0e-4b8a-9c7d-1e2f3a4b5c6d', name: 'Sam', role: 'guest', present: false };

export const usersExamples = {
  getUsers: { response: { [owner]: ownerUser, [guest.id]: guest } },
  getUserMe: { response: ownerUser },
} satisfies Record<string, OperationExamples>;

export const insightsExamples = {
  getLogEntries: {
    params: { uri: `homey:device:${station}`, id: 'measure_temperature' },
    query: { resolution: 'last6Hours' },
    response: {
      resolution: 'last6Hours',
      start: '2026-11-25T13:00:00.000Z',
      end: '2026-11-25T19:00:00.000Z',
      step: 300000,
      updatesIn: 151403,
      lastValue: 20.5,
      values: [
        { t: '2026-11-25T13:00:00.000Z', v: 21.4 },
        { t: '2026-11-25T13:05:00.000Z', v: 21.3 },
        { t: '2026-11-25T13:10:00.000Z', v: 21.1 },
        { t: '2026-11-25T18:55:00.000Z', v: 20.5 },
      ],
    },
  },
} satisfies Record<string, OperationExamples>;
