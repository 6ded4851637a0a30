import { describe, expect, it } from 'vitest';
import { devicesAndHub } from '../../testing/matter';

/**
 * The lights of the Matter device library, each a virtual device (one process, a node each) commissioned through
 * the hub's pair session: the one Matter driver gives each the capabilities of the clusters and features it
 * carries, and values flow both ways, read back from the device's own state.
 */
describe('Matter lights on the hub’s own fabric', () => {
  const rig = devicesAndHub('lights', ['dimmable-light', 'color-temperature-light', 'extended-color-light']);

  it('makes a dimmable light with onoff and dim, and dims it both ways', async () => {
    const light = rig.devices['dimmable-light'];
    const added = await rig.commission('dimmable-light');
    expect(added.class).toBe('light');
    expect(added.capabilities).toEqual(['onoff', 'dim']);

    // Hub → device: dim 0.5 is level 1 + 0.5 × 253 = 128 (rounded), read from the light's own output.
    const level = light.next((line) => line.event === 'level' && line.value === 128);
    expect((await rig.write('dimmable-light', 'dim', 0.5)).status).toBe(204);
    await expect(level).resolves.toMatchObject({ event: 'level', value: 128 });

    // Device → hub: level 1 is the lowest, dim 0.
    light.send('level 1');
    const dimmed = await rig.until('dimmable-light', (d) => d.capabilitiesObj.dim?.value === 0);
    expect(dimmed.capabilitiesObj.dim?.value).toBe(0);
  });

  it('makes a white-spectrum light whose light_temperature spans its physical mired range, both ways', async () => {
    const added = await rig.commission('color-temperature-light');
    expect(added.class).toBe('light');
    expect(added.capabilities).toEqual(['onoff', 'dim', 'light_temperature']);

    // light_temperature 0 is the coldest white the light makes (153 mireds), 1 its warmest (500).
    const mireds = 'colorControl.colorTemperatureMireds';
    expect((await rig.write('color-temperature-light', 'light_temperature', 0)).status).toBe(204);
    expect(await rig.deviceState('color-temperature-light', mireds, 153)).toBe(153);
    expect((await rig.write('color-temperature-light', 'light_temperature', 1)).status).toBe(204);
    expect(await rig.deviceState('color-temperature-light', mireds, 500)).toBe(500);
  });

  it('makes a colour light with hue, saturation, temperature and the mode between them', async () => {
    const light = rig.devices['extended-color-light'];
    const added = await rig.commission('extended-color-light');
    expect(added.capabilities).toEqual(['onoff', 'dim', 'light_hue', 'light_saturation', 'light_temperature', 'light_mode']);

    // Hue and saturation run 0 … 254 on the node.
    expect((await rig.write('extended-color-light', 'light_hue', 0.5)).status).toBe(204);
    expect(await rig.deviceState('extended-color-light', 'colorControl.currentHue', 127)).toBe(127);
    expect((await rig.write('extended-color-light', 'light_saturation', 0.25)).status).toBe(204);
    expect(await rig.deviceState('extended-color-light', 'colorControl.currentSaturation', 64)).toBe(64);
    // A hue or saturation command puts the light in colour mode (ColorMode 0).
    const inColor = await rig.until('extended-color-light', (d) => d.capabilitiesObj.light_mode?.value === 'color');
    expect(inColor.capabilitiesObj.light_mode?.value).toBe('color');

    // Switching the mode to temperature sends the light's white again: its ColorMode becomes 2.
    expect((await rig.write('extended-color-light', 'light_mode', 'temperature')).status).toBe(204);
    expect(await rig.deviceState('extended-color-light', 'colorControl.colorMode', 2)).toBe(2);
    const inTemperature = await rig.until('extended-color-light', (d) => d.capabilitiesObj.light_mode?.value === 'temperature');
    expect(inTemperature.capabilitiesObj.light_mode?.value).toBe('temperature');

    // A colour set at the light (its own app, another controller) reaches the hub.
    light.send('set colorControl.currentHue 254');
    const red = await rig.until('extended-color-light', (d) => d.capabilitiesObj.light_hue?.value === 1);
    expect(red.capabilitiesObj.light_hue?.value).toBe(1);
  });
});
