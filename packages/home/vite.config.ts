import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { viteBrowserOverrides } from '@hearth/client/scripts/browser-overrides.mjs';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * Writes a brotli (`.br`) and a gzip (`.gz`) copy beside every built text file over 1 KiB, compressed once at their
 * best levels: a hub is a small computer, so it sends the copy the browser accepts instead of compressing on every
 * request (packages/hub/src/home-app). The copies are made from the files as written, after every other plugin:
 * the bundle's code in `generateBundle` may still hold placeholders (the dynamic-import preload list) that Vite
 * fills in later.
 */
function precompress(): Plugin {
  return {
    name: 'hearth-precompress',
    apply: 'build',
    enforce: 'post',
    writeBundle(options, bundle) {
      const directory = options.dir as string;
      for (const fileName of Object.keys(bundle)) {
        if (!/\.(js|css|html|svg|json|webmanifest)$/.test(fileName)) continue;
        const data = readFileSync(join(directory, fileName));
        if (data.length < 1024) continue;
        const brotli = brotliCompressSync(data, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
          },
        });
        writeFileSync(join(directory, `${fileName}.br`), brotli);
        writeFileSync(join(directory, `${fileName}.gz`), gzipSync(data, { level: 9 }));
      }
    },
  };
}

/**
 * The app is served by every hub at its origin root (`/`, `/flows`, …: HOME_PAGES), its assets under `/home/`, so
 * asset addresses never collide with a page, `/api` or `/socket.io`.
 */
export default defineConfig(({ command }) => ({
  base: '/home/',
  // @hearth/client as its own browser bundle has it: the operation table inlined as plain data.
  plugins: [viteBrowserOverrides(), react(), precompress()],
  define: command === 'build' ? { 'process.env.NODE_ENV': JSON.stringify('production') } : {},
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2020', sourcemap: false },
  test: {
    name: 'home',
    environment: 'jsdom',
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
  },
}));
