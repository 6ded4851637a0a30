import { describe, expect, it } from 'vitest';
import { Z2M_DEVICES } from '../../packages/hub/src/managers/mqtt/virtual-devices/z2m-devices';
import {
  type StandInDevice,
  Zigbee2MqttStandIn,
} from '../../packages/hub/src/managers/mqtt/virtual-devices/zigbee2mqtt-stand-in';
import { MOSQUITTO_URL, testPrefix } from '../../packages/hub/src/testing/mqtt';
import { chromiumPath } from '../browser';
import { screenshot } from '../layout';
import { expectPhoneFirst, openByNav, signedInHomeApp } from './setup';

type State = { state: string; url: string | null; source: string | null; zigbee2mqtt: { permitJoin: boolean } | null };

/**
 * The MQTT bridge's settings page against a real hub and Mosquitto, with a STAND-IN FOR zigbee2mqtt (no Zigbee radio
 * here) on a base topic of this file's own: the broker is set through the form, the page says whether the bridge is
 * connected and why not, shows zigbee2mqtt's bridge, and opens and closes its network.
 */
describe.skipIf(!chromiumPath)('household web app: the MQTT bridge page', () => {
  const app = signedInHomeApp();
  const state = async () => (await app().api.mqtt.getState()) as State;

  it('sets the broker, shows the connection and zigbee2mqtt, opens and closes the Zigbee network, and forgets the broker', async () => {
    const { page } = app();
    const base = testPrefix('home-mqtt');
    const z2m = await Zigbee2MqttStandIn.start({ url: MOSQUITTO_URL, baseTopic: base, devices: Z2M_DEVICES as StandInDevice[] });
    try {
      await openByNav(page, 'System');
      await page.getByRole('link', { name: /MQTT bridge/ }).click();
      await page.getByRole('heading', { level: 1, name: 'MQTT bridge' }).waitFor();
      await page.getByText('No broker is set.').waitFor();

      // A URL the bridge cannot use is refused at the field.
      await page.getByLabel('Broker URL').fill('http://broker.local');
      await page.getByRole('button', { name: 'Save and connect' }).click();
      await page.getByText('Enter a URL that starts with mqtt://').waitFor();
      expect((await state()).state).toBe('disabled');

      // A broker nobody listens at: not connected, and why.
      await page.getByLabel('Broker URL').fill('mqtt://127.0.0.1:9');
      await page.getByRole('button', { name: 'Save and connect' }).click();
      await page.getByText(/^Why: .*ECONNREFUSED/).waitFor({ timeout: 15_000 });
      await page.getByText('Not connected', { exact: true }).waitFor();

      await page.getByLabel('Broker URL').fill(MOSQUITTO_URL);
      await page.getByLabel('zigbee2mqtt base topic').fill(base);
      await page.getByRole('button', { name: 'Save and connect' }).click();
      await page.getByText(`Connected to ${MOSQUITTO_URL} since`).waitFor({ timeout: 15_000 });
      await page.getByText('This broker was saved here.').waitFor();
      await page.getByText('zigbee2mqtt is running. (version 2.1.1, coordinator zStack3x0, channel 15)').waitFor();
      await page.getByText('The bridge made 4 devices.').waitFor();
      await page.getByText('The Zigbee network is closed to new devices.').waitFor();
      expect(await state()).toMatchObject({ state: 'connected', url: MOSQUITTO_URL, source: 'setting' });

      await page.getByRole('button', { name: 'Let devices join (4 min)' }).click();
      await page.getByText(/^New devices may join for 4:1\d more\.$/).waitFor();
      expect(z2m.requests.at(-1)?.body).toMatchObject({ time: 254 });
      expect(z2m.permitJoin).toBe(true);
      // A door sensor joins while the network is open: it is listed among the events, and the bridge makes it.
      const contact = Z2M_DEVICES.find((d) => d.friendly_name === 'Front door') as StandInDevice;
      await z2m.join({ ...contact, ieee_address: '0x00158d0001a2b3ff', friendly_name: 'Back door' });
      await page.getByText('Back door interview successful').waitFor();
      await page.getByText('Back door joined').waitFor();
      await page.getByText('The bridge made 5 devices.').waitFor();
      await screenshot(page, 'home-mqtt-bridge-join-390');
      await page.setViewportSize({ width: 1280, height: 800 });
      await screenshot(page, 'home-mqtt-bridge-join-1280');
      await page.setViewportSize({ width: 390, height: 800 });
      await expectPhoneFirst(page, 'mqtt-bridge');

      await page.getByRole('button', { name: 'Close the network' }).click();
      await page.getByText('The Zigbee network is closed to new devices.').waitFor();
      expect(z2m.requests.at(-1)?.body).toMatchObject({ time: 0 });
      expect(z2m.permitJoin).toBe(false);

      // Keyboard: the form's fields and buttons are reached with Tab, and a key press saves.
      await page.getByLabel('Broker URL').focus();
      await page.keyboard.press('Enter');
      await page.getByText('Broker saved; the bridge connects to it.').first().waitFor();

      await page.getByRole('button', { name: 'Forget this broker' }).click();
      await page.getByText('No broker is set.').waitFor();
      expect((await state()).state).toBe('disabled');
    } finally {
      await z2m.stop();
    }
  });
  it('pairs a Zigbee device from Add a device: zigbee2mqtt’s network is open while the view is, and what joins is added', async () => {
    const { page, api } = app();
    const base = testPrefix('home-z2m-pair');
    const z2m = await Zigbee2MqttStandIn.start({ url: MOSQUITTO_URL, baseTopic: base, devices: Z2M_DEVICES as StandInDevice[] });
    try {
      await api.mqtt.setBroker({ url: MOSQUITTO_URL, baseTopic: base });
      await expect.poll(async () => (await state()).state, { timeout: 15_000 }).toBe('connected');
      await page.getByRole('link', { name: 'Home', exact: true }).first().click();
      await page.getByRole('link', { name: 'Add a device' }).click();
      await page.getByRole('heading', { level: 1, name: 'Add a device' }).waitFor();
      await page.getByRole('button', { name: 'Add a Zigbee device (zigbee2mqtt) (MQTT bridge)' }).click();
      await page.getByText(/^The Zigbee network is open/).waitFor();
      expect(z2m.permitJoin).toBe(true);
      await page.getByText('No device has joined yet.').waitFor();
      const contact = Z2M_DEVICES.find((d) => d.friendly_name === 'Front door') as StandInDevice;
      await z2m.join({ ...contact, ieee_address: '0x00158d0001a2b3ee', friendly_name: 'Garage door' });
      await page.getByText('added', { exact: true }).waitFor();
      await page.getByText('Garage door', { exact: true }).waitFor();
      await screenshot(page, 'home-zigbee2mqtt-pairing-390');
      await expectPhoneFirst(page, 'zigbee2mqtt-pairing');
      await page.getByRole('button', { name: 'Done' }).click();
      await page.getByRole('heading', { level: 2, name: '1 device added' }).waitFor();
      // Leaving the pairing closes the network again.
      await page.getByRole('link', { name: 'Garage door' }).click();
      await page.getByRole('heading', { level: 1, name: 'Garage door' }).waitFor();
      await expect.poll(() => z2m.permitJoin, { timeout: 10_000 }).toBe(false);
      expect(z2m.requests.map((r) => r.body.time)).toEqual([254, 0]);
    } finally {
      await api.mqtt.unsetBroker();
      await z2m.stop();
    }
  });
});
