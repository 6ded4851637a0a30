import { describe, expect, it } from 'vitest';
import { chromiumPath } from '../browser';
import { expectPhoneFirst, openByNav, signedInHomeApp } from './setup';

interface Variable {
  id: string;
  name: string;
  type: string;
  value: unknown;
}

/** The Logic variables page against a real hub, in Chromium: live, created, set by type and deleted. */
describe.skipIf(!chromiumPath)('household web app: variables', () => {
  const app = signedInHomeApp();
  const variables = async () => Object.values(await app().api.logic.getVariables()) as unknown as Variable[];
  const named = async (name: string) => (await variables()).find((variable) => variable.name === name);

  it('creates a number variable, refusing what is not a number on the field, and sets it', async () => {
    const { page } = app();
    await openByNav(page, 'Variables');
    await page.getByLabel('Name', { exact: true }).fill('Hot water minutes');
    await page.getByLabel('First value').fill('lots');
    await page.getByRole('button', { name: 'Create variable' }).click();
    await expect.poll(() => page.getByLabel('First value').getAttribute('aria-invalid')).toBe('true');
    await page.getByText('Enter a number.').waitFor();
    expect(await named('Hot water minutes')).toBeUndefined();
    await page.getByLabel('First value').fill('20');
    await page.getByRole('button', { name: 'Create variable' }).click();
    const field = page.getByLabel('Hot water minutes', { exact: true });
    await expect.poll(() => field.inputValue()).toBe('20');
    expect(await named('Hot water minutes')).toMatchObject({ type: 'number', value: 20 });

    await field.fill('35');
    await page.getByRole('button', { name: 'Set Hot water minutes' }).click();
    await expect.poll(async () => (await named('Hot water minutes'))?.value).toBe(35);
    await expectPhoneFirst(page, 'variables');
  });

  it('shows a variable made elsewhere at once, switches a yes-or-no one, and deletes after asking', async () => {
    const { page, api } = app();
    await api.logic.createVariable({ variable: { name: 'Guests over', type: 'boolean', value: false } });
    const guests = page.getByRole('switch', { name: 'Guests over' });
    await expect.poll(() => guests.getAttribute('aria-checked'), { timeout: 10_000 }).toBe('false');
    await guests.click();
    await expect.poll(async () => (await named('Guests over'))?.value).toBe(true);
    await expect.poll(() => guests.getAttribute('aria-checked')).toBe('true');

    await page.getByRole('button', { name: 'Delete Guests over', exact: true }).click();
    await page.getByRole('button', { name: 'Keep' }).click();
    expect(await named('Guests over')).toBeTruthy();
    await page.getByRole('button', { name: 'Delete Guests over', exact: true }).click();
    await page.getByRole('button', { name: 'Delete Guests over now' }).click();
    await expect.poll(() => guests.count()).toBe(0);
    expect(await named('Guests over')).toBeUndefined();
  });
});
