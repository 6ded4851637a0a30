/** zigbee2mqtt's device list as it publishes it: the tests' network, and the demo's (virtual-devices/process.ts). */

const lightFeatures = [
  {
    type: 'binary',
    name: 'state',
    label: 'State',
    property: 'state',
    access: 7,
    value_on: 'ON',
    value_off: 'OFF',
    value_toggle: 'TOGGLE',
  },
  { type: 'numeric', name: 'brightness', label: 'Brightness', property: 'brightness', access: 7, value_min: 0, value_max: 254 },
  {
    type: 'numeric',
    name: 'color_temp',
    label: 'Color temp',
    property: 'color_temp',
    access: 7,
    unit: 'mired',
    value_min: 153,
    value_max: 454,
  },
  {
    type: 'composite',
    name: 'color_xy',
    label: 'Color (X/Y)',
    property: 'color',
    access: 7,
    features: [
      { type: 'numeric', name: 'x', property: 'x', access: 7 },
      { type: 'numeric', name: 'y', property: 'y', access: 7 },
    ],
  },
];
const linkquality = {
  type: 'numeric',
  name: 'linkquality',
  label: 'Linkquality',
  property: 'linkquality',
  access: 1,
  unit: 'lqi',
  value_min: 0,
  value_max: 255,
};

/**
 * What zigbee2mqtt publishes (retained) on `bridge/devices` for a network of a coordinator, a colour bulb, a plug
 * that meters power, a door contact and a remote, in the shape of its documentation's device list.
 */
export const Z2M_DEVICES = [
  {
    ieee_address: '0x00124b0024c2a4f1',
    type: 'Coordinator',
    network_address: 0,
    friendly_name: 'Coordinator',
    supported: true,
    interview_completed: true,
    definition: null,
    endpoints: {},
  },
  {
    ieee_address: '0x001788010b2c3d4e',
    type: 'Router',
    network_address: 18924,
    friendly_name: 'Living room/Lamp',
    supported: true,
    interview_completed: true,
    power_source: 'Mains (single phase)',
    definition: {
      model: '9290022166',
      vendor: 'Philips',
      description: 'Hue white and color ambiance E26/E27',
      exposes: [
        { type: 'light', features: lightFeatures },
        {
          type: 'enum',
          name: 'power_on_behavior',
          property: 'power_on_behavior',
          access: 7,
          values: ['off', 'on', 'toggle', 'previous'],
        },
        linkquality,
      ],
    },
  },
  {
    ieee_address: '0xa4c138f2e1d0c0b0',
    type: 'Router',
    network_address: 4411,
    friendly_name: 'Kettle plug',
    supported: true,
    interview_completed: true,
    definition: {
      model: 'TS011F_plug_1',
      vendor: 'Tuya',
      description: 'Smart plug (with power monitoring)',
      exposes: [
        {
          type: 'switch',
          features: [{ type: 'binary', name: 'state', property: 'state', access: 7, value_on: 'ON', value_off: 'OFF' }],
        },
        { type: 'numeric', name: 'power', property: 'power', access: 5, unit: 'W' },
        { type: 'numeric', name: 'current', property: 'current', access: 5, unit: 'A' },
        { type: 'numeric', name: 'voltage', property: 'voltage', access: 5, unit: 'V' },
        { type: 'numeric', name: 'energy', property: 'energy', access: 5, unit: 'kWh' },
        linkquality,
      ],
    },
  },
  {
    ieee_address: '0x00158d0001a2b3c4',
    type: 'EndDevice',
    network_address: 52011,
    friendly_name: 'Front door',
    supported: true,
    interview_completed: true,
    power_source: 'Battery',
    definition: {
      model: 'MCCGQ11LM',
      vendor: 'Aqara',
      description: 'Door and window sensor',
      exposes: [
        {
          type: 'binary',
          name: 'contact',
          property: 'contact',
          access: 1,
          value_on: false,
          value_off: true,
          description: 'Indicates if the contact is closed (= true) or open (= false)',
        },
        { type: 'numeric', name: 'battery', property: 'battery', access: 1, unit: '%', value_min: 0, value_max: 100 },
        { type: 'numeric', name: 'voltage', property: 'voltage', access: 1, unit: 'mV' },
        linkquality,
      ],
    },
  },
  {
    ieee_address: '0x000d6ffffe9a8b7c',
    type: 'EndDevice',
    network_address: 30211,
    friendly_name: 'Bedside remote',
    supported: true,
    interview_completed: true,
    power_source: 'Battery',
    definition: {
      model: 'E1743',
      vendor: 'IKEA',
      description: 'TRADFRI ON/OFF switch',
      exposes: [
        { type: 'numeric', name: 'battery', property: 'battery', access: 5, unit: '%', value_min: 0, value_max: 100 },
        {
          type: 'enum',
          name: 'action',
          property: 'action',
          access: 1,
          values: ['on', 'off', 'brightness_move_down', 'brightness_move_up', 'brightness_stop'],
        },
        linkquality,
      ],
    },
  },
];
