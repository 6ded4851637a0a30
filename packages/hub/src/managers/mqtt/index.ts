import { hubOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubManager, HubPrincipal } from '../../platform/context';
import { BROKER_SETTING, MqttConnection } from './connection';
import { MQTT_APP_ID, Zigbee2Mqtt } from './zigbee2mqtt';

/**
 * MQTT: the built-in bridge app (`apps/builtin/com.hearth.mqtt`), run in the hub's process like the virtual
 * devices app. One connection to the configured broker; zigbee2mqtt's devices become hub devices whose writes go
 * through the device-control path to the broker.
 */
export const mqttManager: HubManager = {
  name: 'mqtt',
  create: (context, services) => {
    const { devices, apps, inHubDrivers } = services;
    let zigbee: Zigbee2Mqtt | undefined;
    const connection = new MqttConnection(context, {
      connected: (client) => zigbee?.subscribe(client),
      message: (topic, payload, retained) => zigbee?.message(topic, payload, retained),
    });
    const bridge = new Zigbee2Mqtt(context, devices, apps, connection, services.flowCards);
    const state = () => connection.state(bridge.count());
    const stops: (() => void)[] = [];
    return {
      implementations: implement<typeof hubOperations.mqtt, HubPrincipal>(hubOperations.mqtt, {
        getState: () => state(),
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
        zigbee = bridge;
        inHubDrivers.set(MQTT_APP_ID, bridge.driver);
        bridge.start();
        stops.push(bridge.registerCards());
        // The bridge's app is installed and its devices restored once the hub has started: connect then.
        stops.push(context.bus.on('hub.started', 'mqtt', () => connection.start()));
      },
      async stop() {
        for (const stop of stops.splice(0)) stop();
        zigbee = undefined;
        inHubDrivers.delete(MQTT_APP_ID);
        await connection.stop();
      },
    };
  },
};
