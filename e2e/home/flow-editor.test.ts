import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumPath, expectAccessible } from '../browser';
import { expectPhoneFirst, lampAndCoffeeOff, signedInHomeApp } from './setup';

interface StoredFlow {
  id: string;
  name: string;
  folder: string | null;
  broken: boolean;
  trigger: { uri: string; id: string; args: Record<string, unknown> };
  conditions: { uri: string; id: string; group: string; inverted: boolean; args: Record<string, unknown> }[];
  actions: {
    uri: string;
    id: string;
    group: string;
    args: Record<string, unknown>;
    delay: { number: string; multiplier: number } | null;
  }[];
}

/** The accessible name of the focused element (what the keyboard is on). */
const focusedName = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '');

/**
 * The flow editor against a real demo hub, in Chromium: a flow built card by card (a device trigger picked with the
 * keyboard, a condition, a delayed action, an else action with a token), saved, run by changing the device over the
 * API, its trace watched on the flow page; edited again; the editor's checks and the hub's refusals on the fields
 * they concern; broken cards marked.
 */
describe.skipIf(!chromiumPath)('household web app: flow editor', () => {
  const app = signedInHomeApp();
  // Plain data: the client's flow items carry methods of their own (a flow's `trigger()` among them).
  const flows = async () => Object.values(JSON.parse(JSON.stringify(await app().api.flow.getFlows()))) as StoredFlow[];
  const named = async (name: string) => (await flows()).find((flow) => flow.name === name);
  const picker = (page: Page) => page.getByRole('dialog');

  it('builds a flow in the editor, saves it, and its run appears on the flow page when the device changes', async () => {
    const { page, api } = app();
    const { lampId, coffeeId, onoff: value, scripts } = await lampAndCoffeeOff(app());

    await page.getByRole('link', { name: 'Flows', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Flows' }).waitFor();
    // The editor is not part of the app's first load: it comes when it is opened.
    expect(scripts.filter((url) => url.includes('FlowEditorPage'))).toEqual([]);
    await page.getByRole('link', { name: 'New flow' }).click();
    await page.getByRole('heading', { level: 1, name: 'New flow' }).waitFor();
    expect(scripts.filter((url) => url.includes('FlowEditorPage')).length).toBe(1);
    await page.getByLabel('Name', { exact: true }).fill('Morning coffee');

    // The trigger, with the keyboard only: the picker opens on its search, arrows move through the cards.
    await page.getByRole('button', { name: 'Choose a trigger' }).focus();
    await page.keyboard.press('Enter');
    await picker(page).getByRole('heading', { name: 'Choose a trigger' }).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('picker-search');
    await page.keyboard.type('desk lamp changed');
    await expect.poll(() => picker(page).locator('button[data-card]').count()).toBe(1);
    await page.keyboard.press('ArrowDown');
    expect(await focusedName(page)).toBe('Turned on changed, Desk lamp');
    await page.keyboard.press('Enter');
    await expect.poll(() => picker(page).count()).toBe(0);
    const when = page.getByRole('region', { name: 'When' });
    await when.getByText('Turned on changed', { exact: true }).waitFor();
    await when.getByText('Desk lamp', { exact: true }).waitFor();

    // A condition in group 1: the lamp is on.
    await page.getByRole('button', { name: 'Add a condition to group 1' }).click();
    await picker(page).getByLabel('Search cards').fill('desk lamp');
    await picker(page).getByRole('button', { name: 'Is on, Desk lamp' }).click();
    await page.getByRole('region', { name: 'And' }).getByText('Is on', { exact: true }).waitFor();

    // Then: the coffee machine on, two seconds later.
    await page.getByRole('button', { name: 'Add an action', exact: true }).click();
    await picker(page).getByLabel('Search cards').fill('coffee turn');
    await picker(page).getByRole('button', { name: 'Turn on, Coffee machine' }).click();
    const then = page.getByRole('region', { name: 'Then' });
    // A delay that is no number is refused on its field before anything is sent.
    await then.getByRole('textbox', { name: 'Delay' }).fill('soon');
    await page.getByRole('button', { name: 'Save flow' }).click();
    await page.getByText('Enter a number of 0 or more.').waitFor();
    await expect.poll(() => then.getByRole('textbox', { name: 'Delay' }).getAttribute('aria-invalid')).toBe('true');
    expect(await named('Morning coffee')).toBeUndefined();
    await then.getByRole('textbox', { name: 'Delay' }).fill('2');
    await expect.poll(() => page.getByText('Enter a number of 0 or more.').count()).toBe(0);

    // Else: a notification whose text carries the trigger's token, inserted from the tokens picker.
    await page.getByRole('button', { name: 'Add an else action' }).click();
    await picker(page).getByLabel('Search cards').fill('notification');
    await picker(page)
      .getByRole('button', { name: /^Create a notification, / })
      .click();
    const otherwise = page.getByRole('region', { name: 'Else' });
    await otherwise.getByRole('textbox', { name: 'Text' }).fill('Desk lamp on: ');
    await otherwise.getByRole('button', { name: 'Insert a token into Text' }).click();
    await otherwise.getByRole('button', { name: 'Turned on (yes/no)' }).click();
    await expect.poll(() => otherwise.getByRole('textbox', { name: 'Text' }).inputValue()).toBe('Desk lamp on: [[onoff]]');

    await expectPhoneFirst(page, 'flow-editor');
    await page.getByRole('button', { name: 'Save flow' }).click();
    await page.getByRole('heading', { level: 1, name: 'Morning coffee' }).waitFor();
    const stored = await named('Morning coffee');
    expect(stored).toMatchObject({
      broken: false,
      trigger: { uri: `homey:device:${lampId}`, id: 'onoff_changed' },
      conditions: [{ uri: `homey:device:${lampId}`, id: 'on', group: 'group1', inverted: false }],
      actions: [
        {
          uri: `homey:device:${coffeeId}`,
          id: 'on',
          group: 'then',
          delay: { number: '2', multiplier: 1 },
        },
        {
          uri: 'homey:manager:notifications',
          id: 'create_notification',
          group: 'else',
          args: { text: 'Desk lamp on: [[onoff]]' },
        },
      ],
    });

    // The device changes over the API: the flow runs, its delayed action waits, then runs; the page shows it live.
    await api.devices.setCapabilityValue({ deviceId: lampId, capabilityId: 'onoff', value: true });
    const runs = page.locator('.trace');
    await expect.poll(() => runs.count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => runs.first().locator('.trace__status').textContent(), { timeout: 10_000 }).toBe('Completed');
    await expect.poll(() => value(coffeeId)).toBe(true);
    expect(await runs.first().getByText(/Delay/).count()).toBeGreaterThan(0);
    // Off again: the condition fails, so the else action runs.
    await api.devices.setCapabilityValue({ deviceId: lampId, capabilityId: 'onoff', value: false });
    await expect.poll(() => runs.count(), { timeout: 10_000 }).toBe(2);
    await expect
      .poll(
        () =>
          runs
            .first()
            .getByText(/Create a notification[^:]*: done/)
            .count(),
        { timeout: 10_000 },
      )
      .toBe(1);
  });

  it('edits the flow: loads its cards, adds an inverted condition in an “or” group, and saves', async () => {
    const { page } = app();
    await page.getByRole('link', { name: 'Edit Morning coffee' }).click();
    await page.getByRole('heading', { level: 1, name: 'Edit Morning coffee' }).waitFor();
    const then = page.getByRole('region', { name: 'Then' });
    expect(await then.getByRole('textbox', { name: 'Delay' }).inputValue()).toBe('2');
    await then.getByText('Turn on', { exact: true }).waitFor();

    await page.getByRole('button', { name: 'Add an “or” group' }).click();
    await page.getByRole('button', { name: 'Add a condition to group 2' }).click();
    await picker(page).getByLabel('Search cards').fill('weekend');
    await picker(page)
      .getByRole('button', { name: /^It is the weekend, / })
      .click();
    const and = page.getByRole('region', { name: 'And' });
    await and.getByLabel('Not: the condition is met when this is false').last().check();
    await and.getByText('Not: It is the weekend').waitFor();
    // An autocomplete argument: the hub suggests as the person types, and the chosen suggestion is kept whole.
    await page.getByRole('button', { name: 'Add an else action' }).click();
    await picker(page).getByLabel('Search cards').fill('switch a flow off');
    await picker(page)
      .getByRole('button', { name: /^Switch a flow off, / })
      .click();
    const otherwise = page.getByRole('region', { name: 'Else' });
    await otherwise.getByRole('searchbox', { name: 'Flow' }).fill('morning');
    await otherwise.getByRole('button', { name: 'Morning coffee' }).click();
    await otherwise.getByText('Chosen: Morning coffee').waitFor();
    await expectAccessible(page, 'flow editor with groups');
    // The picker itself passes axe and fits a phone.
    await page.getByRole('button', { name: 'Add an action', exact: true }).click();
    await picker(page).getByLabel('Search cards').waitFor();
    await expectPhoneFirst(page, 'flow-editor-picker');
    await page.keyboard.press('Escape');
    await expect.poll(() => picker(page).count()).toBe(0);

    await page.getByRole('button', { name: 'Save flow' }).click();
    await page.getByRole('heading', { level: 1, name: 'Morning coffee' }).waitFor();
    const stored = await named('Morning coffee');
    expect(stored?.conditions).toMatchObject([
      { id: 'on', group: 'group1', inverted: false },
      { uri: 'homey:manager:cron', id: 'is_weekend', group: 'group2', inverted: true },
    ]);
    expect(stored?.actions).toHaveLength(3);
    expect(stored?.actions[2]).toMatchObject({
      uri: 'homey:manager:flow',
      id: 'disable_flow',
      group: 'else',
      args: { flow: { id: stored?.id, name: 'Morning coffee' } },
    });
  });

  it('shows the hub’s refusal on the field it names, and marks broken cards', async () => {
    const { page, api } = app();
    const folder = (await api.flow.createFlowFolder({ flowfolder: { name: 'Soon gone' } })) as { id: string };
    await page.getByRole('link', { name: 'Flows', exact: true }).click();
    await page.getByRole('link', { name: 'New flow' }).click();
    await page.getByRole('heading', { level: 1, name: 'New flow' }).waitFor();
    // Nothing filled in: the name and the trigger are asked for, on their fields.
    await page.getByRole('button', { name: 'Save flow' }).click();
    await page.getByText('A flow needs a name.').waitFor();
    await page.getByText('Choose what starts the flow.').waitFor();
    expect(await page.getByLabel('Name', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('flow-name');

    await page.getByLabel('Name', { exact: true }).fill('Into a folder');
    await page.getByLabel('Folder').selectOption({ label: 'Soon gone' });
    await page.getByRole('button', { name: 'Choose a trigger' }).click();
    await picker(page).getByLabel('Search cards').fill('this flow is started');
    await picker(page)
      .getByRole('button', { name: /^This flow is started, / })
      .click();
    // The folder goes away before the save: the hub refuses the flow, and says so on the folder field.
    await api.flow.deleteFlowFolder({ id: folder.id });
    await page.getByRole('button', { name: 'Save flow' }).click();
    await page.getByText('Unknown flow folder', { exact: false }).first().waitFor();
    expect(await page.getByLabel('Folder').getAttribute('aria-invalid')).toBe('true');
    expect(await named('Into a folder')).toBeUndefined();

    // A flow whose card is gone and whose text uses a token that does not exist: both marked.
    const broken = (await api.flow.createFlow({
      flow: {
        name: 'Gone device',
        trigger: { uri: 'homey:manager:flow', id: 'programmatic_trigger' },
        conditions: [],
        actions: [
          { uri: 'homey:device:00000000-0000-4000-8000-000000000000', id: 'on' },
          { uri: 'homey:manager:notifications', id: 'create_notification', args: { text: 'Hi [[nobody]]' } },
        ],
      },
    })) as unknown as StoredFlow;
    expect(broken.broken).toBe(true);
    await page.goto(`${app().hub.url}/flows/${broken.id}/edit`);
    await page.getByRole('heading', { level: 1, name: 'Edit Gone device' }).waitFor();
    const then = page.getByRole('region', { name: 'Then' });
    await expect.poll(() => then.getByText('Broken', { exact: true }).count()).toBe(2);
    await then.getByText('This card is no longer available', { exact: false }).waitFor();
    await then.getByText('Uses tokens that no longer exist: nobody').waitFor();
    await expectAccessible(page, 'flow editor with broken cards');
  });
});
