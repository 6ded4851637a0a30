import { viteBrowserOverrides } from '@hearth/client/scripts/browser-overrides.mjs';
import { frontEndBuild } from '@hearth/client/scripts/front-end-build.mjs';
import { vitePrecompress } from '@hearth/client/scripts/precompress.mjs';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/** The support form is served by the cloud at `/support/`, so every asset URL is relative to that base. */
export default defineConfig(({ command }) => ({
  base: '/support/',
  // @hearth/client as its own browser bundle has it: the operation table inlined as plain data (no TypeBox or
  // schemas in the form), socket.io's parsers without the binary and polling code the client never runs.
  plugins: [viteBrowserOverrides(), react(), vitePrecompress()],
  // A build is always the production form, even when started from a test run (which sets NODE_ENV=test).
  define: command === 'build' ? { 'process.env.NODE_ENV': JSON.stringify('production') } : {},
  build: frontEndBuild,
  test: {
    name: 'support-form',
    environment: 'jsdom',
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    setupFiles: ['src/testing/setup.ts'],
    testTimeout: 20_000,
  },
}));
