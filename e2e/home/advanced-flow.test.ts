import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumPath, expectAccessible } from '../browser';
import { expectPhoneFirst, lampAndCoffeeOff, signedInHomeApp } from './setup';

interface StoredNode {
  type: string;
  x: number;
  y: number;
  id?: string;
  ownerUri?: string;
  args?: Record<string, unknown>;
  outputSuccess?: string[];
  input?: string[];
  value?: string;
}

/** The canvas node whose text holds `text`. */
const node = (page: Page, text: string | RegExp): Locator => page.locator('.react-flow__node').filter({ hasText: text });

/**
 * The advanced flow editor against a real demo hub, in Chromium: the canvas (React Flow, loaded on demand) with a
 * start card, two actions, an `all` that waits for both, a delay and a note; one edge drawn with the mouse between
 * handles, the others from the panel under the canvas; saved as the engine reads it (edges on their source node,
 * the `all` node's inputs), run, and its trace watched on the flow page.
 */
describe.skipIf(!chromiumPath)('household web app: advanced flow on a canvas', () => {
  const app = signedInHomeApp();

  it('builds an advanced flow on the canvas, saves it, runs it and shows its trace', async () => {
    const { page, api } = app();
    const { lampId, coffeeId, onoff: value, scripts } = await lampAndCoffeeOff(app());

    await page.getByRole('link', { name: 'Flows', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Flows' }).waitFor();
    expect(scripts.filter((url) => url.includes('AdvancedFlowEditorPage'))).toEqual([]);
    await page.getByRole('link', { name: 'New advanced flow' }).click();
    await page.getByRole('heading', { level: 1, name: 'New advanced flow' }).waitFor();
    expect(scripts.filter((url) => url.includes('AdvancedFlowEditorPage')).length).toBe(1);
    await page.getByLabel('Name', { exact: true }).fill('Lamp pulse');
    const panel = page.getByRole('region', { name: 'Card', exact: true });
    const add = page.getByRole('group', { name: 'Add to the canvas' });

    // Nothing on the canvas: the editor asks for an entry before anything is sent.
    await page.getByRole('button', { name: 'Save advanced flow' }).click();
    await page.getByText('An advanced flow needs a trigger or a start card.').waitFor();

    await add.getByRole('button', { name: 'Start', exact: true }).click();
    await add.getByRole('button', { name: 'Action', exact: true }).click();
    await page.getByRole('dialog').getByLabel('Search cards').fill('desk lamp turn');
    await page.getByRole('dialog').getByRole('button', { name: 'Turn on, Desk lamp' }).click();
    await add.getByRole('button', { name: 'Action', exact: true }).click();
    await page.getByRole('dialog').getByLabel('Search cards').fill('coffee turn');
    await page.getByRole('dialog').getByRole('button', { name: 'Turn on, Coffee machine' }).click();
    await add.getByRole('button', { name: 'All', exact: true }).click();
    await add.getByRole('button', { name: 'Delay', exact: true }).click();
    await panel.getByRole('textbox', { name: 'Wait for' }).fill('1');
    await add.getByRole('button', { name: 'Action', exact: true }).click();
    await page.getByRole('dialog').getByLabel('Search cards').fill('desk lamp turn');
    await page.getByRole('dialog').getByRole('button', { name: 'Turn off, Desk lamp' }).click();
    await add.getByRole('button', { name: 'Note', exact: true }).click();
    await panel.getByLabel('Note', { exact: true }).fill('Both on, then the lamp off again');
    await expect.poll(() => page.locator('.react-flow__node').count()).toBe(7);

    // One edge drawn with the mouse, from the start card's output to the first action's input.
    await add.getByRole('button', { name: 'Show all cards' }).click();
    await page.waitForTimeout(300);
    await node(page, 'Started from the app')
      .locator('.react-flow__handle.source')
      .dragTo(
        node(page, /Turn onDesk lamp/)
          .first()
          .locator('.react-flow__handle.target'),
      );
    await expect.poll(() => page.locator('.react-flow__edge').count()).toBe(1);

    // The others from the panel, with the keyboard's controls.
    const connect = async (from: string, port: string, to: string) => {
      await panel.getByLabel('Card to edit').selectOption({ label: from });
      await panel.getByLabel(`${port}: connect to`).selectOption({ label: to });
      await panel.getByRole('button', { name: `Connect ${port}` }).click();
    };
    const lampOn = 'Then: Turn on (Desk lamp)';
    const lampOff = 'Then: Turn off (Desk lamp)';
    const coffeeOn = 'Then: Turn on (Coffee machine)';
    await connect('Start: Started from the app or a call', 'Then', coffeeOn);
    await connect(lampOn, 'Then', 'All: Waits for every input');
    await connect(coffeeOn, 'Then', 'All: Waits for every input');
    await connect('All: Waits for every input', 'Then', 'Delay: Wait 1 seconds');
    await connect('Delay: Wait 1 seconds', 'Then', lampOff);
    const keyOfOption = async (label: string) =>
      (await panel
        .getByLabel('Card to edit')
        .locator('option', { hasText: label })
        .evaluate((option) => (option as HTMLOptionElement).value)) as string;
    const lampKeys = [await keyOfOption(lampOn), await keyOfOption(lampOff)];
    await expect.poll(() => page.locator('.react-flow__edge').count()).toBe(6);
    await expectPhoneFirst(page, 'advanced-flow-editor');

    await page.getByRole('button', { name: 'Save advanced flow' }).click();
    await page.getByRole('heading', { level: 1, name: 'Lamp pulse' }).waitFor();
    const stored = Object.values(JSON.parse(JSON.stringify(await api.flow.getAdvancedFlows()))).find(
      (flow) => (flow as { name: string }).name === 'Lamp pulse',
    ) as { id: string; broken: boolean; triggerable: boolean; cards: Record<string, StoredNode> };
    expect(stored).toMatchObject({ broken: false, triggerable: true });
    const entries = Object.entries(stored.cards);
    const keyOf = (type: string) => entries.filter(([, card]) => card.type === type).map(([key]) => key);
    const [start] = keyOf('start');
    const [all] = keyOf('all');
    const [delay] = keyOf('delay');
    const [firstLamp, secondLamp] = lampKeys as [string, string];
    const coffee = entries.find(([, card]) => card.ownerUri === `homey:device:${coffeeId}`)?.[0] as string;
    expect(new Set(stored.cards[start as string]?.outputSuccess)).toEqual(new Set([firstLamp, coffee]));
    expect(stored.cards[firstLamp]).toMatchObject({
      type: 'action',
      id: 'on',
      outputSuccess: [all],
    });
    expect(new Set(stored.cards[all as string]?.input)).toEqual(
      new Set([`${firstLamp}::outputSuccess`, `${coffee}::outputSuccess`]),
    );
    expect(stored.cards[delay as string]).toMatchObject({
      args: { delay: { number: '1', multiplier: 1 } },
      outputSuccess: [secondLamp],
    });
    expect(stored.cards[secondLamp]).toMatchObject({ type: 'action', id: 'off' });
    expect(entries.find(([, card]) => card.type === 'note')?.[1]).toMatchObject({ value: 'Both on, then the lamp off again' });
    for (const [, card] of entries) expect(Number.isFinite(card.x) && Number.isFinite(card.y)).toBe(true);

    // Run from its page: both on, then after the delay the lamp off; the trace shows it as it happens.
    await page.getByRole('button', { name: 'Run Lamp pulse now' }).click();
    const runs = page.locator('.trace');
    await expect.poll(() => runs.count(), { timeout: 10_000 }).toBe(1);
    await expect.poll(() => runs.first().locator('.trace__status').textContent(), { timeout: 10_000 }).toBe('Completed');
    expect(await value(coffeeId)).toBe(true);
    expect(await value(lampId)).toBe(false);
    expect(await runs.first().getByText(/Delay/).count()).toBeGreaterThan(0);

    // Opened again, the canvas holds what was saved.
    await page.getByRole('link', { name: 'Edit Lamp pulse' }).click();
    await page.getByRole('heading', { level: 1, name: 'Edit Lamp pulse' }).waitFor();
    await expect.poll(() => page.locator('.react-flow__node').count()).toBe(7);
    await expect.poll(() => page.locator('.react-flow__edge').count()).toBe(6);
    await expectAccessible(page, 'advanced flow editor, reopened');
  });
});
