import { viteBrowserOverrides } from '@hearth/client/scripts/browser-overrides.mjs';
import { frontEndBuild } from '@hearth/client/scripts/front-end-build.mjs';
import { vitePrecompress } from '@hearth/client/scripts/precompress.mjs';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/**
 * The account pages are served by the cloud at its root (`/`, `/security`, …: ACCOUNT_PAGES), their assets under
 * `/account/`, so asset addresses never collide with a page or a cloud service.
 */
export default defineConfig(({ command }) => ({
  base: '/account/',
  // @hearth/client as its own browser bundle has it: the operation table inlined as plain data (no TypeBox or
  // schemas in the pages).
  plugins: [viteBrowserOverrides(), react(), vitePrecompress()],
  define: command === 'build' ? { 'process.env.NODE_ENV': JSON.stringify('production') } : {},
  build: frontEndBuild,
  test: {
    name: 'account',
    environment: 'jsdom',
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
  },
}));
