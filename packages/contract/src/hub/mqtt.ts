import { type Static, Type } from 'typebox';
import { hubManager } from '../operation';
import { Nullable } from './options';

/** MQTT: the hub's built-in bridge to an MQTT broker (zigbee2mqtt devices). A Hearth addition to the wire API. */
const op = hubManager('mqtt');

/** The broker the bridge connects to. The password is written, never read back. */
export const MqttBrokerSettings = Type.Object(
  {
    url: Type.String({ pattern: '^(mqtts?|wss?)://[^\\s/?#]+', maxLength: 2048 }),
    username: Type.Optional(Type.String({ maxLength: 256 })),
    password: Type.Optional(Type.String({ maxLength: 1024 })),
    clientId: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    /**
     * For `mqtts://` and `wss://`: the certificate authority (PEM) the broker's certificate is checked against, when it
     * is not one the system trusts (a broker with a certificate of its own CA). Written, never read back.
     */
    ca: Type.Optional(Type.String({ pattern: '-----BEGIN CERTIFICATE-----', maxLength: 65_536 })),
    /** zigbee2mqtt's `mqtt.base_topic`; `zigbee2mqtt` when unset. */
    baseTopic: Type.Optional(Type.String({ pattern: '^[^#+\\s]+$', maxLength: 256 })),
    /** Home Assistant's `discovery_prefix`, under which devices announce themselves; `homeassistant` when unset. */
    discoveryPrefix: Type.Optional(Type.String({ pattern: '^[^#+\\s]+$', maxLength: 256 })),
    /** The Homie convention's root topic, under which Homie devices publish; `homie` when unset. */
    homiePrefix: Type.Optional(Type.String({ pattern: '^[^#+\\s]+$', maxLength: 256 })),
  },
  { additionalProperties: false },
);
export type MqttBrokerSettings = Static<typeof MqttBrokerSettings>;

/** Something zigbee2mqtt announced on `bridge/event`: a device joined, was interviewed, or left the network. */
export const Zigbee2MqttEvent = Type.Object({
  type: Type.Union([
    Type.Literal('device_joined'),
    Type.Literal('device_announce'),
    Type.Literal('device_interview'),
    Type.Literal('device_leave'),
  ]),
  ieeeAddress: Type.String(),
  friendlyName: Nullable(Type.String()),
  /** A `device_interview`'s `started`, `successful` or `failed`; `null` for the others. */
  status: Nullable(Type.String()),
  at: Type.String({ format: 'date-time' }),
});
export type Zigbee2MqttEvent = Static<typeof Zigbee2MqttEvent>;

/** What zigbee2mqtt says about itself (`bridge/info`) and its latest events, newest first. */
export const Zigbee2MqttBridge = Type.Object({
  /** Whether zigbee2mqtt itself runs (`bridge/state`, its last will says `offline`); `null` before it said. */
  online: Nullable(Type.Boolean()),
  version: Nullable(Type.String()),
  /** The coordinator's type (`zStack3x0`, `EmberZNet` …). */
  coordinator: Nullable(Type.String()),
  channel: Nullable(Type.Integer()),
  /** Whether new devices may join now, and until when (when zigbee2mqtt says). */
  permitJoin: Type.Boolean(),
  permitJoinEnd: Nullable(Type.String({ format: 'date-time' })),
  events: Type.Array(Zigbee2MqttEvent, { maxItems: 20 }),
});
export type Zigbee2MqttBridge = Static<typeof Zigbee2MqttBridge>;

/** How long zigbee2mqtt lets new devices join: 1 to 254 seconds (its limit), or 0 to close the network. */
export const PermitJoinBody = Type.Object({ time: Type.Integer({ minimum: 0, maximum: 254 }) }, { additionalProperties: false });

/** Where the bridge stands with its broker, for the household web app's settings page. */
export const MqttBridgeState = Type.Object({
  /** `disabled`: no broker configured; `connecting`, `connected`, or `disconnected` (waiting to try again). */
  state: Type.Union([
    Type.Literal('disabled'),
    Type.Literal('connecting'),
    Type.Literal('connected'),
    Type.Literal('disconnected'),
  ]),
  /** The broker's URL without credentials, or `null` when none is configured. */
  url: Nullable(Type.String()),
  /** Where the broker came from: the hub's stored setting, the environment (`HUB_MQTT_URL`), or neither. */
  source: Type.Union([Type.Literal('setting'), Type.Literal('environment'), Type.Null()]),
  clientId: Nullable(Type.String()),
  username: Nullable(Type.String()),
  /** Whether the broker's certificate is checked against a CA of its own (`ca`) rather than the system's. */
  customCa: Type.Boolean(),
  baseTopic: Type.String(),
  /** Why the last connection failed or ended, as the broker or the network said. */
  lastError: Nullable(Type.String()),
  connectedAt: Nullable(Type.String({ format: 'date-time' })),
  /** When the next attempt is due while `disconnected`. */
  nextAttemptAt: Nullable(Type.String({ format: 'date-time' })),
  /** How many hub devices the bridge made. */
  devices: Type.Integer({ minimum: 0 }),
  /** zigbee2mqtt's bridge, once it has published `bridge/info` or an event; `null` before. */
  zigbee2mqtt: Nullable(Zigbee2MqttBridge),
});
export type MqttBridgeState = Static<typeof MqttBridgeState>;

export const mqttOperations = {
  getState: op({
    name: 'getState',
    method: 'GET',
    path: '/state',
    scope: 'homey.system.readonly',
    response: MqttBridgeState,
    summary: 'Whether the MQTT bridge is connected to its broker, and why not.',
  }),
  setBroker: op({
    name: 'setBroker',
    method: 'PUT',
    path: '/broker',
    scope: 'homey.system',
    body: MqttBrokerSettings,
    response: MqttBridgeState,
    summary: 'Stores the broker the bridge connects to (over the environment’s) and connects to it.',
  }),
  permitJoin: op({
    name: 'permitJoin',
    method: 'POST',
    path: '/zigbee2mqtt/permit_join',
    scope: 'homey.system',
    body: PermitJoinBody,
    response: Zigbee2MqttBridge,
    errors: ['unavailable', 'timeout', 'app_error'],
    summary:
      'Lets new Zigbee devices join zigbee2mqtt for `time` seconds (0 closes the network): sent on `bridge/request/permit_join`, answered when zigbee2mqtt confirms.',
  }),
  unsetBroker: op({
    name: 'unsetBroker',
    method: 'DELETE',
    path: '/broker',
    scope: 'homey.system',
    response: MqttBridgeState,
    summary: 'Forgets the stored broker: the bridge uses the environment’s (`HUB_MQTT_URL`), or none.',
  }),
} as const;
