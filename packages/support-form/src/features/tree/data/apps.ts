/** Articles and tags of the apps and devices steps, whose options come from the selected hub. */
export const appArticles = {
  other: ['apps-troubleshooting'],
  contactSupport: ['apps-troubleshooting'],
  contactDeveloper: ['contacting-app-developers', 'apps-troubleshooting'],
  updateApp: ['updating-apps'],
  device: ['device-troubleshooting'],
} as const;

/** The article of each radio tag, suggested along with a device that uses that radio. */
export const radioArticles: Record<string, string> = {
  '433mhz': '433-mhz',
  '868mhz': '868-mhz',
  bluetooth: 'bluetooth',
  infrared: 'infrared',
  wifi: 'wi-fi',
  zigbee: 'zigbee',
  zwave: 'z-wave',
  matter: 'matter',
  thread: 'thread',
};

/** Labels of the radio tags, for the ticket's readable context. */
export const appTags = { app: 'app', device: 'device', other: 'app_other', outOfDate: 'app_out_of_date' } as const;
