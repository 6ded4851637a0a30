import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { viteBrowserOverrides } from '@hearth/client/scripts/browser-overrides.mjs';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * Writes a brotli (`.br`) and a gzip (`.gz`) copy beside every built text file over 1 KiB, compressed once at
 * their best levels; the cloud sends the copy the browser accepts (`@fastify/static`'s `preCompressed`) instead
 * of compressing on every request. Node's zlib does both, so no plugin package is needed for it.
 */
function precompress(): Plugin {
  return {
    name: 'hearth-precompress',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      for (const [fileName, output] of Object.entries(bundle)) {
        if (!/\.(js|css|html|svg|json)$/.test(fileName)) continue;
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

/** The support form is served by the cloud at `/support/`, so every asset URL is relative to that base. */
export default defineConfig(({ command }) => ({
  base: '/support/',
  // @hearth/client as its own browser bundle has it: the operation table inlined as plain data (no TypeBox or
  // schemas in the form), socket.io's parsers without the binary and polling code the client never runs.
  plugins: [viteBrowserOverrides(), react(), precompress()],
  // A build is always the production form, even when started from a test run (which sets NODE_ENV=test).
  define: command === 'build' ? { 'process.env.NODE_ENV': JSON.stringify('production') } : {},
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2020', sourcemap: false },
  test: {
    name: 'support-form',
    environment: 'jsdom',
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    setupFiles: ['src/testing/setup.ts'],
    testTimeout: 20_000,
  },
}));
