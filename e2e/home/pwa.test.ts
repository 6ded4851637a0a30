import { describe, expect, it } from 'vitest';
import { chromiumPath } from '../browser';
import { signedInHomeApp } from './setup';

interface ManifestIcon {
  src: string;
  sizes: string;
  type: string;
  purpose?: string;
}

/**
 * The app installs as a PWA with real PNG icons (what Android and iOS home screens take; an SVG alone is not
 * enough for them): the manifest the page links names 192 and 512 px icons, plain and maskable, and each one the
 * hub serves is a PNG of the size the manifest says.
 */
describe.skipIf(!chromiumPath)('household web app: installable icons', () => {
  const app = signedInHomeApp();

  it("serves the manifest's PNG icons as image/png at the sizes it declares, plain and maskable", async () => {
    const { page, hub } = app();
    const manifestUrl = await page.locator('link[rel="manifest"]').evaluate((link: HTMLLinkElement) => link.href);
    const manifest = (await (await fetch(manifestUrl)).json()) as { icons: ManifestIcon[] };
    const pngs = manifest.icons.filter((icon) => icon.type === 'image/png');
    expect(pngs.map((icon) => `${icon.sizes} ${icon.purpose ?? 'any'}`).sort()).toEqual([
      '192x192 any',
      '192x192 maskable',
      '512x512 any',
      '512x512 maskable',
    ]);
    for (const icon of pngs) {
      const url = new URL(icon.src, manifestUrl).href;
      const answer = await fetch(url);
      expect(answer.status, url).toBe(200);
      expect(answer.headers.get('content-type'), url).toBe('image/png');
      // Decoded by the browser, under the app's own Content-Security-Policy: its pixel size is the declared one.
      const size = await page.evaluate(async (src) => {
        const image = new Image();
        image.src = src;
        await image.decode();
        return `${image.naturalWidth}x${image.naturalHeight}`;
      }, url);
      expect(size, url).toBe(icon.sizes);
    }
    // iOS reads its home-screen icon from the page, not the manifest.
    const touchIcon = await page.locator('link[rel="apple-touch-icon"]').evaluate((link: HTMLLinkElement) => link.href);
    expect((await fetch(touchIcon)).headers.get('content-type')).toBe('image/png');
    expect(new URL(touchIcon).origin).toBe(new URL(hub.url).origin);
  });
});
