import { describe, expect, it } from 'vitest';
import { chromiumPath } from '../browser';
import { expectPhoneFirst, signedInHomeApp } from './setup';

/** Capability values as people read them, against a real demo hub, in Chromium: enum titles, dim as a percentage. */
describe.skipIf(!chromiumPath)('household web app: values in words and percentages', () => {
  const app = signedInHomeApp();

  it('shows a light’s dim level on its tile as a percentage, following the hub live', async () => {
    const { page, api } = app();
    const light = await app().deviceId('Hallway light');
    await api.devices.setCapabilityValue({ deviceId: light, capabilityId: 'dim', value: 0.6 });
    const level = page.locator(`[data-device-id="${light}"] [data-capability="dim"]`);
    await expect.poll(() => level.textContent()).toBe('60 %');
    await api.devices.setCapabilityValue({ deviceId: light, capabilityId: 'dim', value: 0.25 });
    await expect.poll(() => level.textContent()).toBe('25 %');
    await expectPhoneFirst(page, 'home-dim');
  });

  it('shows an enum capability’s value by its title, not its id', async () => {
    const { page, api } = app();
    const floor = await app().deviceId('Bathroom floor');
    await api.devices.setCapabilityValue({ deviceId: floor, capabilityId: 'thermostat_mode', value: 'auto' });
    await page.goto(`${app().hub.url}/devices/${encodeURIComponent(floor)}`);
    await page.getByRole('heading', { level: 1, name: 'Bathroom floor' }).waitFor();
    const mode = page.locator('[data-capability="thermostat_mode"]');
    await expect.poll(() => mode.textContent()).toBe('Automatic');
    await api.devices.setCapabilityValue({ deviceId: floor, capabilityId: 'thermostat_mode', value: 'heat' });
    await expect.poll(() => mode.textContent()).toBe('Heat');
  });
});
