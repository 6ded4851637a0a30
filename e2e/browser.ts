import { existsSync } from 'node:fs';
import axe from 'axe-core';
import { type Browser, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';

/** Debian's Chromium; with CI=true its absence is a failure, otherwise the browser suites are skipped loudly. */
export const chromiumPath = (() => {
  const path = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  if (existsSync(path)) return path;
  if (process.env.CI === 'true') throw new Error(`Chromium is required in CI but missing at ${path}`);
  console.warn(`⚠ SKIPPED browser tests: no Chromium at ${path}`);
  return null;
})();

export function launchBrowser(): Promise<Browser> {
  if (!chromiumPath) throw new Error('Chromium is not installed');
  return chromium.launch({
    executablePath: chromiumPath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'],
  });
}

/**
 * axe-core on the page as it is: no serious or critical violation, nor any of the rules `also` names whatever
 * their impact (`label` names the page in a failure).
 */
export async function expectAccessible(page: Page, label?: string, also: readonly string[] = []): Promise<void> {
  // Written without DOM names: the benchmarks import this file too, and they are compiled without the DOM library.
  // Our pages' CSP refuses inline scripts, so axe comes in through the debugging protocol, which CSP does not govern.
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(axe.source);
  const violations = await page.evaluate(async (also) => {
    const scope = globalThis as unknown as { axe: typeof axe; document: Parameters<typeof axe.run>[0] };
    const result = await scope.axe.run(scope.document);
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical' || also.includes(v.id))
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.html).join(' | ')}`);
  }, also);
  expect(violations, label).toEqual([]);
}
