/**
 * Home Assistant discovery configs as three firmwares publish them, written from their documented shapes (not
 * captured from devices): Tasmota's legacy discovery (`SetOption19 1`: abbreviated keys, `~` for the device's topic,
 * `Online`/`Offline` on `tele/LWT`), a Shelly Gen2 plug (status JSON on `status/switch:0`, plain `on`/`off`
 * commands, `true`/`false` on `online`), and ESPHome (full topics, JSON-schema light, `online`/`offline` on
 * `<node>/status`). Keys are `<component>/<node_id>/<object_id>`, as published under `homeassistant/…/config`.
 */

const tasmotaDevice = {
  identifiers: ['A1B2C3'],
  connections: [['mac', 'AA:BB:CC:A1:B2:C3']],
  name: 'Kitchen plug',
  model: 'Sonoff Pow R2',
  sw_version: '9.1.0(tasmota)',
  manufacturer: 'Tasmota',
};
const tasmotaCommon = {
  '~': 'kitchen_plug/',
  avty_t: '~tele/LWT',
  pl_avail: 'Online',
  pl_not_avail: 'Offline',
};

export const TASMOTA = {
  'switch/A1B2C3/A1B2C3_RL_1': {
    ...tasmotaCommon,
    name: 'Kitchen plug',
    cmd_t: '~cmnd/POWER',
    stat_t: '~stat/RESULT',
    val_tpl: '{{value_json.POWER}}',
    pl_off: 'OFF',
    pl_on: 'ON',
    uniq_id: 'A1B2C3_RL_1',
    device: tasmotaDevice,
  },
  'sensor/A1B2C3/A1B2C3_ENERGY_Power': {
    ...tasmotaCommon,
    name: 'Kitchen plug ENERGY Power',
    stat_t: '~tele/SENSOR',
    uniq_id: 'A1B2C3_ENERGY_Power',
    device: tasmotaDevice,
    unit_of_meas: 'W',
    dev_cla: 'power',
    frc_upd: true,
    val_tpl: "{{value_json['ENERGY']['Power']}}",
  },
  'sensor/A1B2C3/A1B2C3_ENERGY_Total': {
    ...tasmotaCommon,
    name: 'Kitchen plug ENERGY Total',
    stat_t: '~tele/SENSOR',
    uniq_id: 'A1B2C3_ENERGY_Total',
    device: tasmotaDevice,
    unit_of_meas: 'kWh',
    dev_cla: 'energy',
    val_tpl: "{{value_json['ENERGY']['Total']}}",
  },
  'sensor/A1B2C3/A1B2C3_AM2301_Temperature': {
    ...tasmotaCommon,
    name: 'Kitchen plug AM2301 Temperature',
    stat_t: '~tele/SENSOR',
    uniq_id: 'A1B2C3_AM2301_Temperature',
    device: tasmotaDevice,
    unit_of_meas: '°F',
    dev_cla: 'temperature',
    val_tpl: "{{value_json['AM2301'].Temperature}}",
  },
} as const;

/** What Tasmota publishes every TelePeriod on `tele/SENSOR`. */
export const TASMOTA_SENSOR = {
  Time: '2026-11-29T08:00:00',
  ENERGY: {
    TotalStartTime: '2026-01-01T00:00:00',
    Total: 12.345,
    Yesterday: 0.4,
    Today: 0.2,
    Power: 45,
    Voltage: 230,
    Current: 0.2,
  },
  AM2301: { Temperature: 70.7, Humidity: 48.2 },
  TempUnit: 'F',
};

const shellyTilde = 'shellyplus1pm-a8032ab12345/';
const shellyDevice = {
  ids: ['shellyplus1pm-a8032ab12345'],
  name: 'Hallway switch',
  mf: 'Shelly',
  mdl: 'SNSW-001P16EU',
  sw: '1.4.4',
};
const shellyCommon = { '~': shellyTilde, avty_t: '~online', pl_avail: 'true', pl_not_avail: 'false', dev: shellyDevice };

export const SHELLY = {
  'switch/shellyplus1pm-a8032ab12345/switch_0': {
    ...shellyCommon,
    name: 'Hallway switch',
    uniq_id: 'shellyplus1pm-a8032ab12345_switch_0',
    stat_t: '~status/switch:0',
    val_tpl: "{{ 'ON' if value_json.output else 'OFF' }}",
    stat_on: 'ON',
    stat_off: 'OFF',
    cmd_t: '~command/switch:0',
    pl_on: 'on',
    pl_off: 'off',
  },
  'sensor/shellyplus1pm-a8032ab12345/switch_0_power': {
    ...shellyCommon,
    name: 'Hallway switch power',
    uniq_id: 'shellyplus1pm-a8032ab12345_switch_0_power',
    stat_t: '~status/switch:0',
    val_tpl: '{{ value_json.apower }}',
    dev_cla: 'power',
    unit_of_meas: 'W',
    stat_cla: 'measurement',
  },
  'sensor/shellyplus1pm-a8032ab12345/switch_0_energy': {
    ...shellyCommon,
    name: 'Hallway switch energy',
    uniq_id: 'shellyplus1pm-a8032ab12345_switch_0_energy',
    stat_t: '~status/switch:0',
    // Shelly reports watt-hours; the config says the template gives kilowatt-hours.
    val_tpl: '{{ value_json.aenergy.total / 1000 | round(3) }}',
    dev_cla: 'energy',
    unit_of_meas: 'kWh',
    stat_cla: 'total_increasing',
  },
} as const;

/** Shelly Gen2's `status/switch:0`. */
export const SHELLY_STATUS = {
  id: 0,
  source: 'WS_in',
  output: true,
  apower: 8.9,
  voltage: 237.5,
  current: 0.04,
  aenergy: { total: 6532.42, by_minute: [45.2, 47.1, 47.1], minute_ts: 1764403200 },
  temperature: { tC: 41.1, tF: 106.0 },
};

const espDevice = { ids: 'a4cf12f4e6b8', name: 'esp-desk', sw: 'esphome v2024.6.0', mdl: 'esp32dev', mf: 'espressif' };

export const ESPHOME = {
  'light/esp-desk/desk_lamp': {
    name: 'Desk lamp',
    stat_t: 'esp-desk/light/desk_lamp/state',
    cmd_t: 'esp-desk/light/desk_lamp/command',
    avty_t: 'esp-desk/status',
    schema: 'json',
    brightness: true,
    color_mode: true,
    supported_color_modes: ['rgb'],
    uniq_id: 'ESPlightdesk_lamp',
    dev: espDevice,
  },
  'binary_sensor/esp-desk/hall_motion': {
    name: 'Hall motion',
    dev_cla: 'motion',
    stat_t: 'esp-desk/binary_sensor/hall_motion/state',
    avty_t: 'esp-desk/status',
    uniq_id: 'ESPbinary_sensorhall_motion',
    dev: espDevice,
  },
  'sensor/esp-desk/desk_illuminance': {
    name: 'Desk illuminance',
    dev_cla: 'illuminance',
    unit_of_meas: 'lx',
    stat_cla: 'measurement',
    stat_t: 'esp-desk/sensor/desk_illuminance/state',
    avty_t: 'esp-desk/status',
    uniq_id: 'ESPsensordesk_illuminance',
    dev: espDevice,
  },
  'cover/esp-desk/desk_blind': {
    name: 'Desk blind',
    stat_t: 'esp-desk/cover/desk_blind/state',
    cmd_t: 'esp-desk/cover/desk_blind/command',
    pos_t: 'esp-desk/cover/desk_blind/position/state',
    set_pos_t: 'esp-desk/cover/desk_blind/position/command',
    avty_t: 'esp-desk/status',
    uniq_id: 'ESPcoverdesk_blind',
    dev: espDevice,
  },
} as const;
