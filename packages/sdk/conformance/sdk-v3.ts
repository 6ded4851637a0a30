/**
 * Type conformance with the ecosystem's published Apps SDK v3 types (`homey-apps-sdk-v3-types`, ISC): every
 * class and manager of Hearth's SDK is assignable to its counterpart there, so an app typed against those
 * declarations type-checks against Hearth's SDK too. `npm run typecheck` checks this file (CI runs it), and
 * `src/conformance.test.ts` compiles it in the test suite.
 */
import type * as V3 from 'homey-apps-sdk-v3-types';
import type V3CloudWebhook from 'homey-apps-sdk-v3-types/lib/CloudWebhook';
import type V3Homey from 'homey-apps-sdk-v3-types/lib/Homey';
import type V3PairSession from 'homey-apps-sdk-v3-types/lib/PairSession';
import type V3ManagerApi from 'homey-apps-sdk-v3-types/manager/api';
import type V3ManagerApps from 'homey-apps-sdk-v3-types/manager/apps';
import type V3ManagerArp from 'homey-apps-sdk-v3-types/manager/arp';
import type V3ManagerAudio from 'homey-apps-sdk-v3-types/manager/audio';
import type V3ManagerBLE from 'homey-apps-sdk-v3-types/manager/ble';
import type V3ManagerClock from 'homey-apps-sdk-v3-types/manager/clock';
import type V3ManagerCloud from 'homey-apps-sdk-v3-types/manager/cloud';
import type V3ManagerDashboards from 'homey-apps-sdk-v3-types/manager/dashboards';
import type V3ManagerDiscovery from 'homey-apps-sdk-v3-types/manager/discovery';
import type V3ManagerDrivers from 'homey-apps-sdk-v3-types/manager/drivers';
import type V3ManagerFlow from 'homey-apps-sdk-v3-types/manager/flow';
import type V3ManagerGeolocation from 'homey-apps-sdk-v3-types/manager/geolocation';
import type V3ManagerI18n from 'homey-apps-sdk-v3-types/manager/i18n';
import type V3ManagerImages from 'homey-apps-sdk-v3-types/manager/images';
import type V3ManagerInsights from 'homey-apps-sdk-v3-types/manager/insights';
import type V3ManagerLedring from 'homey-apps-sdk-v3-types/manager/ledring';
import type V3ManagerNFC from 'homey-apps-sdk-v3-types/manager/nfc';
import type V3ManagerNotifications from 'homey-apps-sdk-v3-types/manager/notifications';
import type V3ManagerRF from 'homey-apps-sdk-v3-types/manager/rf';
import type V3ManagerSettings from 'homey-apps-sdk-v3-types/manager/settings';
import type V3ManagerSpeechInput from 'homey-apps-sdk-v3-types/manager/speech-input';
import type V3ManagerSpeechOutput from 'homey-apps-sdk-v3-types/manager/speech-output';
import type V3ManagerZigBee from 'homey-apps-sdk-v3-types/manager/zigbee';
import type V3ManagerZwave from 'homey-apps-sdk-v3-types/manager/zwave';
import type * as Hearth from '../src/index';

/** Each entry compiles only when Hearth's type (the parameter) is assignable to the SDK v3 type (the result). */
export const conformance = {
  // Classes an app extends or receives.
  app: (x: Hearth.App): V3.App => x,
  driver: (x: Hearth.Driver): V3.Driver => x,
  device: (x: Hearth.Device): V3.Device => x,
  pairSession: (x: Hearth.PairSession): V3PairSession => x,
  homey: (x: Hearth.Homey): V3Homey => x,
  simpleClass: (x: Hearth.SimpleClass): V3.SimpleClass => x,
  manager: (x: Hearth.Manager): V3.Manager => x,
  flowCard: (x: Hearth.FlowCard): V3.FlowCard => x,
  flowCardTrigger: (x: Hearth.FlowCardTrigger): V3.FlowCardTrigger => x,
  flowCardTriggerDevice: (x: Hearth.FlowCardTriggerDevice): V3.FlowCardTriggerDevice => x,
  flowCardCondition: (x: Hearth.FlowCardCondition): V3.FlowCardCondition => x,
  flowCardAction: (x: Hearth.FlowCardAction): V3.FlowCardAction => x,
  flowArgument: (x: Hearth.FlowArgument): V3.FlowArgument => x,
  flowToken: (x: Hearth.FlowToken): V3.FlowToken => x,
  image: (x: Hearth.Image): V3.Image => x,
  cloudWebhook: (x: Hearth.CloudWebhook): V3CloudWebhook => x,
  insightsLog: (x: Hearth.InsightsLog): V3.InsightsLog => x,
  api: (x: Hearth.Api): V3.Api => x,
  apiApp: (x: Hearth.ApiApp): V3.ApiApp => x,
  widget: (x: Hearth.Widget): V3.Widget => x,
  // The managers on this.homey.
  managerApi: (x: Hearth.ManagerApi): V3ManagerApi => x,
  managerApps: (x: Hearth.ManagerApps): V3ManagerApps => x,
  managerArp: (x: Hearth.ManagerArp): V3ManagerArp => x,
  managerAudio: (x: Hearth.ManagerAudio): V3ManagerAudio => x,
  managerBLE: (x: Hearth.ManagerBLE): V3ManagerBLE => x,
  managerClock: (x: Hearth.ManagerClock): V3ManagerClock => x,
  managerCloud: (x: Hearth.ManagerCloud): V3ManagerCloud => x,
  managerDashboards: (x: Hearth.ManagerDashboards): V3ManagerDashboards => x,
  managerDiscovery: (x: Hearth.ManagerDiscovery): V3ManagerDiscovery => x,
  managerDrivers: (x: Hearth.ManagerDrivers): V3ManagerDrivers => x,
  managerFlow: (x: Hearth.ManagerFlow): V3ManagerFlow => x,
  managerGeolocation: (x: Hearth.ManagerGeolocation): V3ManagerGeolocation => x,
  managerI18n: (x: Hearth.ManagerI18n): V3ManagerI18n => x,
  managerImages: (x: Hearth.ManagerImages): V3ManagerImages => x,
  managerInsights: (x: Hearth.ManagerInsights): V3ManagerInsights => x,
  managerLedring: (x: Hearth.ManagerLedring): V3ManagerLedring => x,
  managerNFC: (x: Hearth.ManagerNFC): V3ManagerNFC => x,
  managerNotifications: (x: Hearth.ManagerNotifications): V3ManagerNotifications => x,
  managerRF: (x: Hearth.ManagerRF): V3ManagerRF => x,
  managerSettings: (x: Hearth.ManagerSettings): V3ManagerSettings => x,
  managerSpeechInput: (x: Hearth.ManagerSpeechInput): V3ManagerSpeechInput => x,
  managerSpeechOutput: (x: Hearth.ManagerSpeechOutput): V3ManagerSpeechOutput => x,
  managerZigBee: (x: Hearth.ManagerZigBee): V3ManagerZigBee => x,
  managerZwave: (x: Hearth.ManagerZwave): V3ManagerZwave => x,
  // The class side of what apps extend: the static helpers they call.
  driverStatics: (x: typeof Hearth.Driver): Pick<typeof V3.Driver, 'isEqualDeviceData'> => x,
};
