import { alarmsEvents, alarmsOperations } from './alarms';
import { appsEvents, appsManagerOperations } from './apps';
import { audioEvents, audioOperations } from './audio';
import { backupEvents, backupOperations } from './backup';
import { bleOperations } from './ble';
import { cloudManagerOperations } from './cloud';
import { coprocessorOperations } from './coprocessor';
import { dashboardsEvents, dashboardsOperations } from './dashboards';
import { databaseOperations } from './database';
import { devicesEvents, devicesOperations } from './devices';
import { devkitEvents, devkitOperations } from './devkit';
import { driversEvents, driversOperations } from './drivers';
import { energyEvents, energyOperations } from './energy';
import { experimentsEvents, experimentsOperations } from './experiments';
import { flowEvents, flowOperations } from './flow';

export { FLOW_DELAY_MAX_SECONDS } from './flow';

import { flowtokenEvents, flowtokenOperations } from './flowtoken';
import { geolocationEvents, geolocationOperations } from './geolocation';
import { googleAssistantEvents, googleAssistantOperations } from './google-assistant';
import { i18nEvents, i18nOperations } from './i18n';
import { imagesEvents, imagesOperations } from './images';
import { insightsEvents, insightsOperations } from './insights';
import { ledringEvents, ledringOperations } from './ledring';
import { logicEvents, logicOperations } from './logic';
import { matterEvents, matterOperations } from './matter';
import { mobileEvents, mobileOperations } from './mobile';
import { moodsEvents, moodsOperations } from './moods';
import { mqttOperations } from './mqtt';
import { notificationsEvents, notificationsOperations } from './notifications';
import { presenceEvents, presenceOperations } from './presence';
import { reportsOperations } from './reports';
import { rfOperations } from './rf';
import { sessionsEvents, sessionsOperations } from './sessions';
import { setupManagerOperations } from './setup';
import { speechOutputEvents, speechOutputOperations } from './speech-output';
import { systemEvents, systemOperations } from './system';
import { threadOperations } from './thread';
import { updatesEvents, updatesOperations } from './updates';
import { usersEvents, usersOperations } from './users';
import { weatherOperations } from './weather';
import { zigbeeOperations } from './zigbee';
import { zonesEvents, zonesOperations } from './zones';
import { zwaveEvents, zwaveOperations } from './zwave';

/** Every hub operation, grouped by manager. Each manager's operations live in their own file. */
export const hubOperations = {
  sessions: sessionsOperations,
  system: systemOperations,
  users: usersOperations,
  zones: zonesOperations,
  i18n: i18nOperations,
  geolocation: geolocationOperations,
  audio: audioOperations,
  ledring: ledringOperations,
  experiments: experimentsOperations,
  'google-assistant': googleAssistantOperations,
  cloud: cloudManagerOperations,
  setup: setupManagerOperations,
  database: databaseOperations,
  weather: weatherOperations,
  'speech-output': speechOutputOperations,
  apps: appsManagerOperations,
  drivers: driversOperations,
  devices: devicesOperations,
  insights: insightsOperations,
  energy: energyOperations,
  images: imagesOperations,
  devkit: devkitOperations,
  zwave: zwaveOperations,
  zigbee: zigbeeOperations,
  ble: bleOperations,
  rf: rfOperations,
  coprocessor: coprocessorOperations,
  matter: matterOperations,
  mqtt: mqttOperations,
  thread: threadOperations,
  alarms: alarmsOperations,
  logic: logicOperations,
  flowtoken: flowtokenOperations,
  flow: flowOperations,
  moods: moodsOperations,
  dashboards: dashboardsOperations,
  notifications: notificationsOperations,
  presence: presenceOperations,
  updates: updatesOperations,
  backup: backupOperations,
  mobile: mobileOperations,
  reports: reportsOperations,
} as const;

/** What each hub manager is about, for the API reference (one line under the manager's name). */
export const hubManagerDescriptions: { readonly [M in keyof typeof hubOperations]: string } = {
  sessions: 'The sessions signed in to this hub: who is connected, and ending a session.',
  system: 'The hub itself: its name, info, memory and storage, Wi-Fi, reboot, diagnostics and the system journal.',
  users: 'The household: members, roles, presence and sleep, sign-in by a cloud delegation token, personal access tokens.',
  zones: 'Zones (rooms and areas) as a tree, and whether each is active.',
  i18n: 'The language and units the hub speaks, and the options it offers.',
  geolocation: "The home's location, used for sunrise and sunset and the weather.",
  audio: 'Audio output: volume.',
  ledring: 'The LED ring: its screensaver, brightness and the animations apps offer.',
  experiments: 'Experimental features, switched on and off.',
  'google-assistant': 'The Google Assistant link: which devices it sees.',
  cloud: "The state of the hub's link to the Hearth cloud.",
  setup: 'Setting the hub up through a cloud setup session the app opened: joining it and how far it got.',
  database: "Maintenance of the hub's own database.",
  weather: "The weather and forecast at the home's location.",
  'speech-output': "Speaking text through the hub's speaker.",
  apps: 'Installed apps: install, update, settings, run state, usage, crash reports and their web APIs.',
  drivers: 'The drivers apps bring, pairing sessions and how devices of each driver are added.',
  devices: "Devices and their capabilities: read, set (through each device's driver), rename, move and remove.",
  insights: 'Insights: logs of capability values and app reports over time, with their entries.',
  energy: 'Energy: live usage, reports per period and the electricity and gas prices.',
  images: 'Images apps and devices publish (camera snapshots, album art).',
  devkit: 'The developer kit: run an app from an archive and stream its output.',
  zwave: 'The Z-Wave radio: its network, nodes and commands.',
  zigbee: 'The Zigbee radio: its network, nodes and commands.',
  ble: 'Bluetooth Low Energy: discovered peripherals.',
  rf: 'The 433 MHz, 868 MHz and infrared radios: recorded and sent signals.',
  coprocessor: 'The radio coprocessor: bridges paired to the hub, and its debug logging.',
  matter: 'Matter: commissioning and the fabric this hub belongs to.',
  mqtt: 'The built-in MQTT bridge: its broker, whether it is connected, and the zigbee2mqtt devices it follows.',
  thread: 'Thread: the network this hub forms or joins.',
  alarms: 'Alarms: times of day with repetition, which can start flows.',
  logic: 'Logic variables (numbers, booleans and text) flows read and change.',
  flowtoken: 'Flow tokens: values devices, apps and the hub publish for flows to use.',
  flow: 'Flows and advanced flows: cards, folders, triggering, tests, traces and pending delays.',
  moods: 'Moods: saved device states, set in one go.',
  dashboards: 'Dashboards: widgets and their layout.',
  notifications: 'The notification timeline and who may see each notification.',
  presence: 'Who is home and who is asleep, and changing it.',
  updates: 'Software updates of the hub: what is available and installing it.',
  backup: 'Backups of the hub to the cloud, and restoring one.',
  mobile: 'What the mobile app asks in one call: summaries and its events.',
  reports: 'Monthly reports of what happened in the home.',
};

/**
 * Every hub manager's wire events (those that publish any), by manager: declared in each manager's file beside
 * its operations (see `../events.ts`).
 */
export const hubEvents = {
  alarms: alarmsEvents,
  apps: appsEvents,
  audio: audioEvents,
  backup: backupEvents,
  dashboards: dashboardsEvents,
  devices: devicesEvents,
  devkit: devkitEvents,
  drivers: driversEvents,
  energy: energyEvents,
  experiments: experimentsEvents,
  flow: flowEvents,
  flowtoken: flowtokenEvents,
  geolocation: geolocationEvents,
  'google-assistant': googleAssistantEvents,
  i18n: i18nEvents,
  images: imagesEvents,
  insights: insightsEvents,
  ledring: ledringEvents,
  logic: logicEvents,
  matter: matterEvents,
  mobile: mobileEvents,
  moods: moodsEvents,
  notifications: notificationsEvents,
  presence: presenceEvents,
  sessions: sessionsEvents,
  'speech-output': speechOutputEvents,
  system: systemEvents,
  updates: updatesEvents,
  users: usersEvents,
  zones: zonesEvents,
  zwave: zwaveEvents,
} as const;

export * from './alarms';
export * from './apps';
export * from './audio';
export * from './backup';
export * from './ble';
export * from './cloud';
export * from './coprocessor';
export * from './dashboards';
export * from './database';
export * from './devices';
export * from './devkit';
export * from './drivers';
export * from './energy';
export * from './experiments';
export * from './flow';
export * from './flowtoken';
export * from './geolocation';
export * from './google-assistant';
export * from './i18n';
export * from './images';
export * from './insights';
export * from './ledring';
export * from './logic';
export * from './matter';
export * from './mobile';
export * from './moods';
export * from './mqtt';
export * from './notifications';
export * from './options';
export * from './presence';
export * from './reports';
export * from './rf';
export * from './sessions';
export * from './setup';
export * from './speech-output';
export * from './system';
export * from './thread';
export * from './updates';
export * from './users';
export * from './weather';
export * from './zigbee';
export * from './zones';
export * from './zwave';
