import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

/** The widths every page must fit without scrolling sideways: small and large phones, tablets, the carousel limit, a laptop. */
export const WIDTHS = [320, 390, 768, 991, 1280] as const;

/**
 * What on the page is wider than the window: the page itself when it scrolls sideways, and each visible element
 * whose right edge lies beyond the window (inside a box that scrolls sideways on purpose, such as a carousel's
 * track, nothing counts). Empty when the page fits.
 */
export function horizontalOverflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const found: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > width) found.push(`the page is ${root.scrollWidth} px wide in a ${width} px window`);
    const scrollsSideways = (element: Element | null): boolean => {
      for (let node = element?.parentElement; node; node = node.parentElement) {
        const style = getComputedStyle(node);
        if (['auto', 'scroll', 'hidden', 'clip'].includes(style.overflowX) && node !== document.body && node !== root)
          return true;
      }
      return false;
    };
    for (const element of Array.from(document.body.querySelectorAll('*'))) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || box.right <= width + 0.5 || scrollsSideways(element)) continue;
      const style = getComputedStyle(element);
      if (style.visibility === 'hidden' || style.position === 'fixed') continue;
      const name = `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${element.className && typeof element.className === 'string' ? `.${element.className.trim().split(/\s+/).join('.')}` : ''}`;
      found.push(`${name} ends at ${Math.round(box.right)} px`);
      if (found.length > 10) break;
    }
    return found;
  });
}

/**
 * The controls a finger taps that are smaller than 44 × 44 px (WCAG 2.5.5): buttons, button-like links, form
 * fields, radio rows and disclosure summaries that are visible. Links inside running text are exempt, as the
 * guideline exempts them.
 */
export function smallTapTargets(page: Page, selector: string): Promise<string[]> {
  return page.evaluate((selector) => {
    const small: string[] = [];
    for (const element of Array.from(document.querySelectorAll<HTMLElement>(selector))) {
      const box = element.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || getComputedStyle(element).visibility === 'hidden') continue;
      if (box.width < 43.5 || box.height < 43.5) {
        const name = (element.getAttribute('aria-label') || element.textContent || element.tagName).trim().slice(0, 40);
        small.push(`${name} (${Math.round(box.width)}×${Math.round(box.height)})`);
      }
    }
    return small;
  }, selector);
}

/** Saves a full-page screenshot under `$E2E_SCREENSHOTS` when it is set (for people to look at); otherwise nothing. */
export async function screenshot(page: Page, name: string): Promise<void> {
  const directory = process.env.E2E_SCREENSHOTS;
  if (!directory) return;
  mkdirSync(directory, { recursive: true });
  await page.screenshot({ path: join(directory, `${name}.png`), fullPage: true });
}
