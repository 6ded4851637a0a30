/**
 * The Hearth app SDK: what an app gets from `require('homey')`. It follows the public Apps SDK v3, so an app
 * written from that documentation runs on a Hearth hub unchanged:
 *
 * ```js
 * const Homey = require('homey');
 * module.exports = class MyApp extends Homey.App {
 *   async onInit() {
 *     this.homey.flow.getActionCard('say_hello').registerRunListener(async ({ name }) => this.log('Hello', name));
 *   }
 * };
 * ```
 *
 * Every app runs in its own process; `this.homey`'s managers talk to the hub over the protocol in
 * `./protocol`. What a Hearth hub does not offer apps (its radios, an LED ring, speech input) is present and
 * rejects with a `not_implemented` error that names what is missing.
 */
export { Api, ApiApp } from './lib/api';
export { App } from './lib/app';
export { CloudWebhook, type CloudWebhookMessage } from './lib/cloud-webhook';
export {
  type CapabilityCallback,
  Device,
  type MultipleCapabilityCallback,
  type SettingsChange,
  type SettingsValue,
} from './lib/device';
export { Driver, type PairDevice } from './lib/driver';
export {
  type ArgumentAutocompleteCallback,
  type ArgumentAutocompleteResult,
  type ArgumentAutocompleteResults,
  FlowArgument,
  FlowCard,
  FlowCardAction,
  FlowCardCondition,
  FlowCardTrigger,
  FlowCardTriggerDevice,
  type RunCallback,
} from './lib/flow-card';
export { FlowToken, type FlowTokenType } from './lib/flow-token';
export { Homey } from './lib/homey';
export { Image, type ImageStreamMetadata } from './lib/image';
export { InsightsLog, type InsightsLogOptions } from './lib/insights-log';
export { PairSession, type PairSessionHandler } from './lib/pair-session';
export { SimpleClass } from './lib/simple-class';
export { ZwaveCommandClass, ZwaveNode } from './lib/zwave-node';
export { ManagerApi } from './managers/api';
export { ManagerApps } from './managers/apps';
export { ManagerClock } from './managers/clock';
export { ManagerCloud } from './managers/cloud';
export { ManagerDashboards, Widget } from './managers/dashboards';
export { ManagerDrivers } from './managers/drivers';
export { ManagerFlow } from './managers/flow';
export { ManagerGeolocation } from './managers/geolocation';
export {
  ManagerArp,
  ManagerAudio,
  ManagerBLE,
  ManagerDiscovery,
  ManagerLedring,
  ManagerNFC,
  ManagerRF,
  ManagerZigBee,
} from './managers/hardware';
export { ManagerI18n } from './managers/i18n';
export { ManagerImages } from './managers/images';
export { ManagerInsights } from './managers/insights';
export { Manager } from './managers/manager';
export { ManagerNotifications } from './managers/notifications';
export { ManagerSettings } from './managers/settings';
export { ManagerSpeechInput, ManagerSpeechOutput } from './managers/speech';
export { ManagerZwave } from './managers/zwave';

/** The app's `env.json` (filled in before the app's code is loaded). */
export const env: Record<string, string> = {};
/** The app's manifest, app.json (filled in before the app's code is loaded). */
export const manifest: Record<string, unknown> = {};
