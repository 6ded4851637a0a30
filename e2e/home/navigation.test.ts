import { describe, expect, it } from 'vitest';
import { chromiumPath } from '../browser';
import { horizontalOverflow } from '../layout';
import { expectPhoneFirst, signedInHomeApp } from './setup';

const MAIN = ['Home', 'Flows', 'Apps'];
const MORE = ['Insights', 'Energy', 'Variables', 'People', 'Alarms', 'Moods', 'Notifications', 'System'];

/**
 * The sections' navigation on a phone: one row with the main three and "More", which discloses the rest and is
 * usable by keyboard; on a wide screen every section in the bar. Nothing scrolls sideways at any width.
 */
describe.skipIf(!chromiumPath)('household web app: navigation on a phone and a desk', () => {
  const app = signedInHomeApp();

  it('keeps the main sections and More in one row at 320 px, the rest behind More', async () => {
    const { page } = app();
    const nav = page.getByRole('navigation', { name: 'Sections' });
    for (const width of [320, 390]) {
      await page.setViewportSize({ width, height: 800 });
      const tops = await nav
        .locator('.nav__list:not(.nav__list--more) > li')
        .evaluateAll((items) => items.map((item) => Math.round(item.getBoundingClientRect().top)));
      expect(new Set(tops).size, `one row at ${width} px`).toBe(1);
      for (const name of MAIN) expect(await nav.getByRole('link', { name, exact: true }).isVisible()).toBe(true);
      for (const name of MORE) expect(await nav.getByRole('link', { name, exact: true }).isVisible()).toBe(false);
    }
    await page.setViewportSize({ width: 320, height: 800 });
    const more = nav.getByRole('button', { name: 'More' });
    await more.click();
    await expect(more.getAttribute('aria-expanded')).resolves.toBe('true');
    for (const name of MORE) expect(await nav.getByRole('link', { name, exact: true }).isVisible()).toBe(true);
    await expectPhoneFirst(page, 'navigation-more');
    // Opening a page closes the list; the button shows that the page is one of its own.
    await nav.getByRole('link', { name: 'Alarms', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Alarms' }).waitFor();
    await expect(more.getAttribute('aria-expanded')).resolves.toBe('false');
    await expect(more.getAttribute('class')).resolves.toContain('nav__more-button--current');
  });

  it('works from the keyboard: Enter opens More, Tab reaches its links, Escape closes it back onto the button', async () => {
    const { page } = app();
    await page.setViewportSize({ width: 390, height: 800 });
    const nav = page.getByRole('navigation', { name: 'Sections' });
    const more = nav.getByRole('button', { name: 'More' });
    await more.focus();
    await page.keyboard.press('Enter');
    await expect(more.getAttribute('aria-expanded')).resolves.toBe('true');
    await page.keyboard.press('Tab');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('Insights');
    await page.keyboard.press('Escape');
    await expect(more.getAttribute('aria-expanded')).resolves.toBe('false');
    await expect(page.evaluate(() => document.activeElement?.textContent)).resolves.toBe('More');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Energy' }).waitFor();
  });

  it('shows every section in the bar from 768 px, with no More button', async () => {
    const { page } = app();
    const nav = page.getByRole('navigation', { name: 'Sections' });
    for (const width of [768, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      expect(await nav.getByRole('button', { name: 'More' }).isVisible()).toBe(false);
      for (const name of [...MAIN, ...MORE])
        expect(await nav.getByRole('link', { name, exact: true }).isVisible(), `${name} at ${width} px`).toBe(true);
      expect(await horizontalOverflow(page)).toEqual([]);
    }
    await expectPhoneFirst(page, 'navigation');
  });
});
