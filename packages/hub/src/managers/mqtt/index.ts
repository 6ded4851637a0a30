import { hubOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { CapabilityDriver } from '../../core/device-control';
import type { HubManager, HubPrincipal } from '../../platform/context';
import { BROKER_SETTING, MqttConnection } from './connection';
import { HA_DRIVER_ID, HomeAssistantDiscovery } from './homeassistant';
import { HOMIE_DRIVER_ID, HomieDevices } from './homie';
import { BROKER_DOWN, markBrokerReachable } from './shared';
import { Zigbee2MqttPairing } from './z2m-pairing';
import { MQTT_APP_ID, DRIVER_ID as Z2M_DRIVER_ID, Zigbee2Mqtt } from './zigbee2mqtt';

/**
 * MQTT: the built-in bridge app (`apps/builtin/com.hearth.mqtt`), run in the hub's process like the virtual
 * devices app. One connection to the configured broker; zigbee2mqtt's devices become hub devices whose writes go
 * through the device-control path to the broker; so do the devices announced with Home Assistant's discovery.
 */
export const mqttManager: HubManager = {
  name: 'mqtt',
  create: (context, services) => {
    const { devices, apps, inHubDrivers } = services;
    let running = false;
    const connection = new MqttConnection(context, {
      connected: (client) => {
        if (!running) return;
        markBrokerReachable(devices, true);
        bridge.subscribe(client);
        discovery.subscribe(client);
        homie.subscribe(client);
      },
      message: (topic, payload, retained) => {
        if (!running) return;
        bridge.message(topic, payload, retained);
        discovery.message(topic, payload, retained);
        homie.message(topic, payload);
      },
      disconnected: () => {
        if (!running) return;
        markBrokerReachable(devices, false);
        // A state message sent while the bridge is away is lost to it: a write waiting for one would only time out.
        for (const part of [bridge, discovery, homie]) part.confirmations.failAll(`Device is unavailable: ${BROKER_DOWN}`);
        bridge.bridge.failAll(BROKER_DOWN);
      },
    });
    const bridge = new Zigbee2Mqtt(context, devices, apps, connection, services.flowCards);
    const homie = new HomieDevices(context, devices, apps, connection);
    const joins = new Zigbee2MqttPairing(context, services.pairing, bridge.bridge, Z2M_DRIVER_ID);
    const discovery = new HomeAssistantDiscovery(context, devices, apps, connection, services.flowCards);
    /** The app has one in-hub driver: it hands each write to the bridge that made the device. */
    const driver: CapabilityDriver = {
      setCapabilityValues: (device, values, options) =>
        (device.driverId === HA_DRIVER_ID
          ? discovery.driver
          : device.driverId === HOMIE_DRIVER_ID
            ? homie.driver
            : bridge.driver
        ).setCapabilityValues(device, values, options),
    };
    const state = () => connection.state(bridge.count(), bridge.bridge.state());
    const stops: (() => void)[] = [];
    return {
      implementations: implement<typeof hubOperations.mqtt, HubPrincipal>(hubOperations.mqtt, {
        getState: () => state(),
        permitJoin: ({ body }) => bridge.bridge.permitJoin(body.time),
        setBroker: async ({ body }) => {
          context.settings.set(BROKER_SETTING, body);
          await connection.reconfigure();
          return state();
        },
        unsetBroker: async () => {
          context.settings.delete(BROKER_SETTING);
          await connection.reconfigure();
          return state();
        },
      }),
      start() {
        running = true;
        inHubDrivers.set(MQTT_APP_ID, driver);
        bridge.start();
        discovery.start();
        stops.push(bridge.registerCards(), discovery.registerCards(), joins.start(), bridge.listenForJoins(joins));
        // The bridge's app is installed and its devices restored once the hub has started: connect then.
        stops.push(context.bus.on('hub.started', 'mqtt', () => connection.start()));
      },
      async stop() {
        for (const stop of stops.splice(0)) stop();
        running = false;
        for (const part of [bridge, discovery, homie]) part.confirmations.failAll('The MQTT bridge stopped');
        bridge.bridge.failAll('The MQTT bridge stopped');
        inHubDrivers.delete(MQTT_APP_ID);
        await connection.stop();
      },
    };
  },
};
