import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { chromiumPath } from '../browser';
import { expectPhoneFirst, openByNav, signedInHomeApp } from './setup';

interface FlowRecord {
  id: string;
  name: string;
  enabled: boolean;
  folder: string | null;
  actions?: { uri: string; id: string }[];
  cards?: Record<string, { type: string; id?: string; outputSuccess?: string[] }>;
}

/** Flows kept tidy from the app: folders made, renamed and filled; a flow duplicated and deleted, in Chromium. */
describe.skipIf(!chromiumPath)('household web app: managing flows', () => {
  const app = signedInHomeApp();
  const flows = async () => Object.values(await app().api.flow.getFlows()) as unknown as FlowRecord[];
  const advancedFlows = async () => Object.values(await app().api.flow.getAdvancedFlows()) as unknown as FlowRecord[];
  const folders = async () => Object.values(await app().api.flow.getFlowFolders()) as { id: string; name: string }[];

  it('makes a folder, renames it, and moves a flow into it from the flow’s page', async () => {
    const { page, api } = app();
    const lamp = `homey:device:${await app().deviceId('Desk lamp')}`;
    await api.flow.createFlow({
      flow: {
        name: 'Lamp at dusk',
        trigger: { uri: 'homey:manager:flow', id: 'programmatic_trigger' },
        conditions: [],
        actions: [{ uri: lamp, id: 'on' }],
      },
    });
    await openByNav(page, 'Flows');
    await page.getByRole('button', { name: 'Create folder' }).click();
    await page.getByText('A folder needs a name.').waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Evening');
    await page.getByRole('button', { name: 'Create folder' }).click();
    // An empty folder is listed, saying how it fills.
    await page.getByRole('heading', { level: 2, name: 'Evening' }).waitFor();
    await page.getByText('No flows in this folder yet.').waitFor();
    await expect.poll(async () => (await folders()).map((folder) => folder.name)).toEqual(['Evening']);

    await page.getByRole('button', { name: 'Rename the folder Evening' }).click();
    const field = page.getByLabel('Name', { exact: true }).first();
    await expect(field.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    await field.fill('Evenings');
    await page.getByRole('button', { name: 'Save name' }).click();
    await page.getByRole('heading', { level: 2, name: 'Evenings' }).waitFor();
    await expect.poll(async () => (await folders()).map((folder) => folder.name)).toEqual(['Evenings']);
    await expectPhoneFirst(page, 'flows-folders');

    await page.getByRole('link', { name: 'Lamp at dusk' }).click();
    await page.getByRole('heading', { level: 1, name: 'Lamp at dusk' }).waitFor();
    const select = page.getByLabel('Folder', { exact: true });
    await expect.poll(() => select.inputValue()).toBe('');
    await select.selectOption({ label: 'Evenings' });
    await page.getByRole('button', { name: 'Move', exact: true }).click();
    await page.getByRole('status').getByText('Lamp at dusk is now in Evenings.').waitFor();
    const evenings = (await folders())[0];
    await expect.poll(async () => (await flows()).find((flow) => flow.name === 'Lamp at dusk')?.folder).toBe(evenings.id);
    // Opened again, the page shows the folder it is in (not the first option).
    await page.reload();
    await expect.poll(() => page.getByLabel('Folder', { exact: true }).inputValue()).toBe(evenings.id);
  });

  it('duplicates a flow as a copy that starts switched off, in the same folder', async () => {
    const { page } = app();
    await page.getByRole('button', { name: 'Duplicate Lamp at dusk' }).click();
    await page.getByRole('heading', { level: 1, name: 'Lamp at dusk (copy)' }).waitFor();
    await page.getByRole('status').getByText('Lamp at dusk (copy) was made, switched off').waitFor();
    const all = await flows();
    const original = all.find((flow) => flow.name === 'Lamp at dusk') as FlowRecord;
    const copy = all.find((flow) => flow.name === 'Lamp at dusk (copy)') as FlowRecord;
    expect(copy.id).not.toBe(original.id);
    expect(copy).toMatchObject({
      enabled: false,
      folder: original.folder,
      actions: [{ uri: original.actions?.[0].uri, id: 'on' }],
    });
    expect(original.enabled).toBe(true);
  });

  it('duplicates an advanced flow with its cards and connections', async () => {
    const { page, api } = app();
    const [start, action] = [randomUUID(), randomUUID()];
    const lamp = `homey:device:${await app().deviceId('Desk lamp')}`;
    const created = (await api.flow.createAdvancedFlow({
      advancedflow: {
        name: 'Canvas lamp',
        cards: {
          [start]: { type: 'start', x: 0, y: 0, outputSuccess: [action] },
          [action]: { type: 'action', ownerUri: lamp, id: 'on', x: 300, y: 0 },
        },
      },
    })) as { id: string };
    await page.goto(`${app().hub.url}/flows/${encodeURIComponent(`advanced:${created.id}`)}`);
    await page.getByRole('heading', { level: 1, name: 'Canvas lamp' }).waitFor();
    await page.getByRole('button', { name: 'Duplicate Canvas lamp' }).click();
    await page.getByRole('heading', { level: 1, name: 'Canvas lamp (copy)' }).waitFor();
    const copy = (await advancedFlows()).find((flow) => flow.name === 'Canvas lamp (copy)') as FlowRecord;
    expect(copy.enabled).toBe(false);
    expect(copy.cards?.[start]).toMatchObject({ type: 'start', outputSuccess: [action] });
    expect(copy.cards?.[action]).toMatchObject({ type: 'action', id: 'on' });
  });

  it('deletes a flow only after a second, explicit confirmation', async () => {
    const { page } = app();
    const copy = (await flows()).find((flow) => flow.name === 'Lamp at dusk (copy)') as FlowRecord;
    await page.goto(`${app().hub.url}/flows/${encodeURIComponent(copy.id)}`);
    await page.getByRole('heading', { level: 1, name: 'Lamp at dusk (copy)' }).waitFor();
    await page.getByRole('button', { name: 'Delete this flow' }).click();
    await page.getByText('Delete Lamp at dusk (copy)? It will not run again').waitFor();
    const confirm = page.getByRole('button', { name: 'Delete Lamp at dusk (copy) now' });
    await expect(confirm.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    await expectPhoneFirst(page, 'flow-delete');
    // Keeping it changes nothing.
    await page.getByRole('button', { name: 'Keep it' }).click();
    expect((await flows()).some((flow) => flow.id === copy.id)).toBe(true);

    await page.getByRole('button', { name: 'Delete this flow' }).click();
    await page.getByRole('button', { name: 'Delete Lamp at dusk (copy) now' }).click();
    await page.getByRole('heading', { level: 1, name: 'Flows' }).waitFor();
    await page.getByRole('status').getByText('Lamp at dusk (copy) was deleted.').waitFor();
    await expect.poll(async () => (await flows()).some((flow) => flow.id === copy.id)).toBe(false);
    await expect(page.getByRole('link', { name: 'Lamp at dusk (copy)' }).count()).resolves.toBe(0);
  });
});
