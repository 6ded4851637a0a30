import { describe, expect, it } from 'vitest';
import { chromiumPath } from '../browser';
import { DEMO_ZONES_IN_TREE_ORDER, expectPhoneFirst, signedInHomeApp } from './setup';

interface ZoneRecord {
  id: string;
  name: string;
  parent: string | null;
}

/** The zones page: the tree, and creating, renaming, moving and deleting zones through the hub, in Chromium. */
describe.skipIf(!chromiumPath)('household web app: zones', () => {
  const app = signedInHomeApp();
  const zones = async () => Object.values(await app().api.zones.getZones()) as unknown as ZoneRecord[];
  const zoneNamed = async (name: string) => (await zones()).find((zone) => zone.name === name);
  const zoneOf = async (deviceId: string) =>
    ((await app().api.devices.getDevice({ id: deviceId })) as unknown as { zone: string }).zone;
  /** The tree's row of the zone named `name`. */
  const row = (name: string) =>
    app()
      .page.getByRole('list', { name: 'Zones of the home' })
      .getByRole('listitem')
      .filter({ has: app().page.locator('.row__name').getByText(name, { exact: true }) });
  const edit = (name: string) => app().page.getByRole('button', { name: `Change ${name}`, exact: true });

  it('opens from the home page and shows the zones as a tree, each with what it holds', async () => {
    const { page } = app();
    await page.getByRole('link', { name: 'Zones', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Zones' }).waitFor();
    const tree = page.getByRole('list', { name: 'Zones of the home' });
    const names = await tree.locator('.row__name').allTextContents();
    expect(names).toEqual(DEMO_ZONES_IN_TREE_ORDER);
    const indent = (name: string) => row(name).evaluate((item) => Number.parseFloat(getComputedStyle(item).paddingLeft));
    const [home, ground, kitchen] = [await indent('Home'), await indent('Ground floor'), await indent('Kitchen')];
    expect(home).toBeLessThan(ground);
    expect(ground).toBeLessThan(kitchen);
    await row('Kitchen').getByText('3 devices', { exact: true }).waitFor();
    await row('Ground floor').getByText('3 zones', { exact: true }).waitFor();
    await expectPhoneFirst(page, 'zones');
  });

  it('creates a zone inside another, refusing an empty name on the field', async () => {
    const { page } = app();
    const name = page.getByLabel('Name', { exact: true });
    await page.getByRole('button', { name: 'Create zone' }).click();
    await page.getByText('A zone needs a name.').waitFor();
    await expect(name.getAttribute('aria-invalid')).resolves.toBe('true');
    await name.fill('Pantry');
    await page.getByLabel('Inside', { exact: true }).selectOption({ label: 'Kitchen' });
    await page.getByRole('button', { name: 'Create zone' }).click();
    await page.getByRole('status').getByText('Pantry was created.').waitFor();
    const kitchen = (await zoneNamed('Kitchen')) as ZoneRecord;
    await expect.poll(async () => (await zoneNamed('Pantry'))?.parent).toBe(kitchen.id);
    // In the tree, right under its parent.
    const names = await page.getByRole('list', { name: 'Zones of the home' }).locator('.row__name').allTextContents();
    expect(names.indexOf('Pantry')).toBe(names.indexOf('Kitchen') + 1);
  });

  it('renames a zone and moves it under another, offering no zone below itself', async () => {
    const { page } = app();
    await edit('Pantry').click();
    const editor = page.locator('.zone-editor');
    await editor.getByLabel('Name', { exact: true }).fill('Larder');
    await editor.getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('status').getByText('Renamed to Larder.').waitFor();
    await expect.poll(async () => (await zoneNamed('Larder')) !== undefined).toBe(true);
    await page.getByRole('button', { name: 'Done with Larder', exact: true }).click();
    await edit('Ground floor').click();
    const ground = page.locator('.zone-editor');
    // Ground floor cannot go inside itself, or inside Kitchen or the larder below it.
    const options = (await ground.getByLabel('Inside').locator('option').allTextContents()).map((text) => text.trim());
    expect(options).toEqual(['Home', 'First floor', 'Bedroom', 'Bathroom', 'Office', 'Garden']);
    await expectPhoneFirst(page, 'zones-edit');
    await page.getByRole('button', { name: 'Done with Ground floor', exact: true }).click();

    await edit('Larder').click();
    await page.locator('.zone-editor').getByLabel('Inside').selectOption({ label: 'First floor' });
    await page.locator('.zone-editor').getByRole('button', { name: 'Move' }).click();
    await page.getByRole('status').getByText('Larder is now inside First floor.').waitFor();
    const firstFloor = (await zoneNamed('First floor')) as ZoneRecord;
    await expect.poll(async () => (await zoneNamed('Larder'))?.parent).toBe(firstFloor.id);
  });

  it('says what a deletion moves before it is confirmed, then moves it to the parent and deletes the zone', async () => {
    const { page, api } = app();
    const home = (await zones()).find((zone) => zone.parent === null) as ZoneRecord;
    const cellar = (await api.zones.createZone({
      zone: { name: 'Cellar', icon: 'default', parent: home.id },
    })) as unknown as ZoneRecord;
    await api.zones.createZone({ zone: { name: 'Wine rack', icon: 'default', parent: cellar.id } });
    const coffee = await app().deviceId('Coffee machine');
    await api.devices.updateDevice({ id: coffee, device: { zone: cellar.id } });
    await row('Cellar').getByText('1 device, 1 zone', { exact: true }).waitFor();

    await edit('Cellar').click();
    await page.getByRole('button', { name: 'Delete Cellar', exact: true }).click();
    const question = page.locator('.zone-editor .danger');
    await question.getByText('Its device Coffee machine moves to Home.').waitFor();
    await question.getByText('Its zone Wine rack moves to Home, with everything in it.').waitFor();
    const confirm = page.getByRole('button', { name: 'Delete Cellar now' });
    await expect(confirm.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    await expectPhoneFirst(page, 'zones-delete');
    // Nothing changed while the question is open.
    expect(await zoneOf(coffee)).toBe(cellar.id);

    await confirm.click();
    await page.getByRole('status').getByText('Cellar was deleted.').waitFor();
    await expect.poll(async () => (await zoneNamed('Cellar')) === undefined).toBe(true);
    expect(await zoneOf(coffee)).toBe(home.id);
    expect((await zoneNamed('Wine rack'))?.parent).toBe(home.id);
  });

  it('shows the hub’s refusal as a sentence when the zone gained a device after the question was asked', async () => {
    const { page, api } = app();
    await edit('Wine rack').click();
    await page.getByRole('button', { name: 'Delete Wine rack', exact: true }).click();
    await page.getByText('Delete Wine rack? It holds no devices and no zones.').waitFor();
    const rack = (await zoneNamed('Wine rack')) as ZoneRecord;
    await api.devices.updateDevice({ id: await app().deviceId('Desk lamp'), device: { zone: rack.id } });
    await row('Wine rack').getByText('1 device', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Delete Wine rack now' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe(
      'Wine rack was not deleted. This zone has devices: move them to another zone first.',
    );
    expect(await zoneNamed('Wine rack')).toBeDefined();
    // The question now names what the zone holds, and a second answer deletes it.
    await page.getByText('Its device Desk lamp moves to Home.').waitFor();
    await expectPhoneFirst(page, 'zones-refused');
    await page.getByRole('button', { name: 'Delete Wine rack now' }).click();
    await page.getByRole('status').getByText('Wine rack was deleted.').waitFor();
    await expect.poll(async () => (await zoneNamed('Wine rack')) === undefined).toBe(true);
  });

  it('keeps the top zone: it can be renamed, not moved or deleted', async () => {
    const { page } = app();
    await edit('Home').click();
    const editor = page.locator('.zone-editor');
    await editor.getByText('This is the top zone of the home').waitFor();
    await expect(editor.getByRole('button', { name: /^Delete/ }).count()).resolves.toBe(0);
    await expect(editor.getByLabel('Inside').count()).resolves.toBe(0);
  });
});
