#!/usr/bin/env node
// Draws the app's PNG icons (public/icon-*.png) from public/icon.svg: the manifest's 192 and 512 px icons, plain
// and maskable. Run it again after changing the SVG: `node packages/home/scripts/make-icons.mjs` (sharp comes with
// the e2e workspace). The PNGs are committed, so a build needs no image library.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';

const publicDir = join(import.meta.dirname, '..', 'public');
const svg = readFileSync(join(publicDir, 'icon.svg'), 'utf8');
// Maskable: the background fills the square (the platform cuts its own shape) and the house keeps to the middle
// 80 %, the safe zone every mask leaves visible.
const maskable = svg
  .replace(/<rect [^>]*\/>/, '<rect width="512" height="512" fill="#c2410c"/>')
  .replace(/<path /, '<path transform="translate(51.2 51.2) scale(0.8)" ');

for (const size of [192, 512]) {
  await sharp(Buffer.from(svg))
    .resize(size, size)
    .png()
    .toFile(join(publicDir, `icon-${size}.png`));
  await sharp(Buffer.from(maskable))
    .resize(size, size)
    .png()
    .toFile(join(publicDir, `icon-maskable-${size}.png`));
}
