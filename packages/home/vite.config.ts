import { viteBrowserOverrides } from '@hearth/client/scripts/browser-overrides.mjs';
import { frontEndBuild } from '@hearth/client/scripts/front-end-build.mjs';
import { vitePrecompress } from '@hearth/client/scripts/precompress.mjs';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/**
 * The app is served by every hub at its origin root (`/`, `/flows`, …: HOME_PAGES), its assets under `/home/`, so
 * asset addresses never collide with a page, `/api` or `/socket.io`.
 */
export default defineConfig(({ command }) => ({
  base: '/home/',
  // @hearth/client as its own browser bundle has it: the operation table inlined as plain data.
  plugins: [viteBrowserOverrides(), react(), vitePrecompress()],
  define: command === 'build' ? { 'process.env.NODE_ENV': JSON.stringify('production') } : {},
  build: frontEndBuild,
  test: {
    name: 'home',
    environment: 'jsdom',
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
  },
}));
