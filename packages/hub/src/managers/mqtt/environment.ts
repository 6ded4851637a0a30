import { readFileSync } from 'node:fs';
import type { MqttBrokerSettings } from '@hearth/contract';

/** Where `HUB_MQTT_CA`'s file must start a certificate, as the broker setting's `ca` must. */
const PEM_CERTIFICATE = '-----BEGIN CERTIFICATE-----';

/**
 * The broker the hub's environment names (`HUB_MQTT_URL` and the other `HUB_MQTT_*`, see the README), or none.
 * `HUB_MQTT_CA` is the path of a PEM file with the certificate authority a `mqtts://` / `wss://` broker's certificate
 * is checked against, read once here: a file that cannot be read or holds no certificate stops the hub's start with
 * a message naming the variable, instead of a bridge failing every connection later for a reason nobody sees.
 */
export function mqttBrokerFromEnvironment(
  env: NodeJS.ProcessEnv,
  readFile: (path: string) => string = (path) => readFileSync(path, 'utf8'),
): MqttBrokerSettings | null {
  if (!env.HUB_MQTT_URL) {
    if (env.HUB_MQTT_CA) throw new Error('HUB_MQTT_CA is set but HUB_MQTT_URL is not: the CA is for the broker it names');
    return null;
  }
  return {
    url: env.HUB_MQTT_URL,
    ...(env.HUB_MQTT_USERNAME ? { username: env.HUB_MQTT_USERNAME } : {}),
    ...(env.HUB_MQTT_PASSWORD ? { password: env.HUB_MQTT_PASSWORD } : {}),
    ...(env.HUB_MQTT_CLIENT_ID ? { clientId: env.HUB_MQTT_CLIENT_ID } : {}),
    ...(env.HUB_MQTT_CA ? { ca: readCa(env.HUB_MQTT_CA, readFile) } : {}),
    ...(env.HUB_MQTT_BASE_TOPIC ? { baseTopic: env.HUB_MQTT_BASE_TOPIC } : {}),
    ...(env.HUB_MQTT_DISCOVERY_PREFIX ? { discoveryPrefix: env.HUB_MQTT_DISCOVERY_PREFIX } : {}),
    ...(env.HUB_MQTT_HOMIE_PREFIX ? { homiePrefix: env.HUB_MQTT_HOMIE_PREFIX } : {}),
  };
}

function readCa(path: string, readFile: (path: string) => string): string {
  let text: string;
  try {
    text = readFile(path);
  } catch (error) {
    throw new Error(`HUB_MQTT_CA: cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!text.includes(PEM_CERTIFICATE)) throw new Error(`HUB_MQTT_CA: ${path} holds no PEM certificate (${PEM_CERTIFICATE} …)`);
  return text;
}
