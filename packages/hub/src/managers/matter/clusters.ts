/** Matter clusters a capability is read from: cluster and attribute ids and names, and how its value maps. */
export const MATTER_CLUSTERS: Record<
  string,
  { cluster: number; clusterName: string; attribute: number; attributeName: string; map: (v: unknown) => unknown }
> = {
  onoff: { cluster: 0x0006, clusterName: 'OnOff', attribute: 0x0000, attributeName: 'OnOff', map: (v) => v === true },
  dim: {
    cluster: 0x0008,
    clusterName: 'LevelControl',
    attribute: 0x0000,
    attributeName: 'CurrentLevel',
    map: (v) => Math.round(Number(v) * 254),
  },
  measure_temperature: {
    cluster: 0x0402,
    clusterName: 'TemperatureMeasurement',
    attribute: 0x0000,
    attributeName: 'MeasuredValue',
    map: (v) => Math.round(Number(v) * 100),
  },
  target_temperature: {
    cluster: 0x0201,
    clusterName: 'Thermostat',
    attribute: 0x0012,
    attributeName: 'OccupiedHeatingSetpoint',
    map: (v) => Math.round(Number(v) * 100),
  },
  measure_humidity: {
    cluster: 0x0405,
    clusterName: 'RelativeHumidityMeasurement',
    attribute: 0x0000,
    attributeName: 'MeasuredValue',
    map: (v) => Math.round(Number(v) * 100),
  },
  measure_power: {
    cluster: 0x0090,
    clusterName: 'ElectricalPowerMeasurement',
    attribute: 0x0008,
    attributeName: 'ActivePower',
    map: (v) => Math.round(Number(v) * 1000),
  },
  alarm_contact: {
    cluster: 0x0045,
    clusterName: 'BooleanState',
    attribute: 0x0000,
    attributeName: 'StateValue',
    map: (v) => v === true,
  },
};

/**
 * The product attestation authorities the simulated ledgers publish; the test ledger also has the test vendors'
 * (the simulated nodes are made by one of those).
 */
export const PAA_AUTHORITIES: readonly { vendorId: number; vendorName: string; testOnly: boolean }[] = [
  { vendorId: 0x1037, vendorName: 'Acme Audio', testOnly: false },
  { vendorId: 0x115f, vendorName: 'Lumenco', testOnly: false },
  { vendorId: 0x1209, vendorName: 'Guardian Security', testOnly: false },
  { vendorId: 65521, vendorName: 'Hearth Matter Lab', testOnly: true },
  { vendorId: 65522, vendorName: 'Shared controller test vendor', testOnly: true },
];
