import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { viteBrowserOverrides } from '@hearth/client/scripts/browser-overrides.mjs';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * Writes a brotli (`.br`) and a gzip (`.gz`) copy beside every built text file over 1 KiB, compressed once at their
 * best levels: a hub is a small computer, so it sends the copy the browser accepts instead of compressing on every
 * request (packages/hub/src/home-app).
 */
function precompress(): Plugin {
  return {
    name: 'hearth-precompress',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      for (const [fileName, output] of Object.entries(bundle)) {
        if (!/\.(js|css|html|svg|json|webmanifest)$/.test(fileName)) continue;
        const source = output.type === 'chunk' ? output.code : output.source;
        const data = Buffer.from(source);
        if (data.length < 1024) continue;
        const brotli = brotliCompressSync(data, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
          },
        });
        this.emitFile({ type: 'asset', fileName: `${fileName}.br`, source: brotli });
        this.emitFile({ type: 'asset', fileName: `${fileName}.gz`, source: gzipSync(data, { level: 9 }) });
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
