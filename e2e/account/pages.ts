import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { expectAccessible } from '../browser';
import { builtForRun } from '../system';

/** Builds the account pages the test cloud serves (each browser test file starts from the code as it is). */
export function buildAccountPages(): void {
  if (builtForRun()) return;
  execFileSync('npm', ['run', 'build', '--silent', '-w', '@hearth/account'], {
    cwd: join(import.meta.dirname, '..', '..'),
    stdio: 'ignore',
  });
}

/** Where the account tests leave their screenshots, to be looked at by a person. */
export const SHOTS = process.env.ACCOUNT_SCREENSHOTS ?? join(tmpdir(), 'hearth-account-screenshots');
const WIDTHS = [320, 390, 768, 1280] as const;

/**
 * At each width: no horizontal scrolling, and every visible control at least 44 px to tap (a checkbox by its label
 * row, as that is what is tapped).
 */
export async function expectResponsive(page: Page, label: string) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    await page.waitForTimeout(50);
    const problems = await page.evaluate(() => {
      const found: string[] = [];
      const doc = document.documentElement;
      if (doc.scrollWidth > doc.clientWidth) found.push(`scrolls sideways: ${doc.scrollWidth} > ${doc.clientWidth}`);
      const controls = document.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, summary');
      for (const control of controls) {
        const style = getComputedStyle(control);
        if (style.visibility === 'hidden' || style.display === 'none') continue;
        const target =
          control instanceof HTMLInputElement && control.type === 'checkbox'
            ? (control.parentElement as HTMLElement)
            : control instanceof HTMLInputElement && control.type === 'file'
              ? null
              : control;
        if (!target) continue;
        const box = target.getBoundingClientRect();
        if (box.width === 0 && box.height === 0) continue;
        // The skip link is off screen until focused.
        if (box.right < 0) continue;
        if (box.height < 44 || box.width < 44)
          found.push(
            `${control.tagName.toLowerCase()} "${(control.textContent || control.getAttribute('aria-label') || control.id).trim().slice(0, 40)}" is ${Math.round(box.width)}×${Math.round(box.height)}`,
          );
      }
      return found;
    });
    expect(problems, `${label} at ${width} px`).toEqual([]);
  }
  await page.setViewportSize({ width: 390, height: 800 });
}

/** axe, the widths and tap targets, and a screenshot named `name`. */
export async function checkPage(page: Page, name: string) {
  await expectAccessible(page, name);
  await expectResponsive(page, name);
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

/**
 * The cloud's own pages (sign-in, its code step, the forgotten password): the logo in the header, and the card
 * clear of the screen's edges on a phone.
 */
export async function expectFramedSignInPage(page: Page, label: string) {
  expect(await page.locator('header svg').isVisible(), `${label}: logo`).toBe(true);
  for (const width of [320, 390] as const) {
    await page.setViewportSize({ width, height: 800 });
    const box = await page.locator('main').boundingBox();
    expect(box?.x, `${label} at ${width} px: left margin`).toBeGreaterThanOrEqual(8);
    expect(width - ((box?.x ?? 0) + (box?.width ?? 0)), `${label} at ${width} px: right margin`).toBeGreaterThanOrEqual(8);
  }
  await page.setViewportSize({ width: 390, height: 800 });
}
