/** The energy page's English strings: a part of the catalogue in strings.ts, kept apart to keep that file short. */
export const energyStrings = {
  title: 'Energy',
  now: 'Now',
  using: (watts: string) => `Using ${watts} now`,
  costPerHour: (cost: string) => `${cost} an hour`,
  /** Which figure "now" is: the home's meter where it has one (it sees everything), else the devices added up. */
  fromMeter: (meters: string) => `Measured by ${meters}.`,
  fromDevices: 'The devices that report their power, added up.',
  devices: 'Devices',
  noLive: 'No device reports its power.',
  meters: 'Meters',
  report: 'Report',
  period: 'Period',
  periods: { day: 'Day', week: 'Week', month: 'Month', year: 'Year' },
  previous: 'Earlier',
  next: 'Later',
  total: (kWh: string, cost: string) => `${kWh} used, costing ${cost}`,
  noReport: 'No energy was recorded in this period.',
  byDevice: 'By device',
  chart: (period: string, total: string) => `Energy used per part of the ${period.toLowerCase()}, ${total} in all.`,
  chartSeries: 'Energy used (kWh)',
  /** What a bar of the chart stands for, named in its legend. */
  chartPart: { day: 'Hour', week: 'Day', month: 'Day', year: 'Month' },
  approximated: 'estimated',
};
