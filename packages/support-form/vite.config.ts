import react from '@vitejs/plugin-react';
import { tsImport } from 'tsx/esm/api';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * @hearth/client derives its methods from the contract's operation table (its src/core/table.ts). As the client's
 * own browser bundle does (packages/client/scripts/bundle.mjs), the table is evaluated at build time and inlined
 * as plain data, so neither TypeBox nor the contract's schemas reach the form's bundle.
 */
function inlineOperationTable(): Plugin {
  return {
    name: 'hearth-client-operation-table',
    enforce: 'pre',
    async load(id) {
      const path = id.split('?')[0] as string;
      if (!/[\\/]client[\\/]src[\\/]core[\\/]table\.ts$/.test(path)) return null;
      const { compactTable } = (await tsImport(path, import.meta.url)) as { compactTable: string };
      return `export const compactTable = ${JSON.stringify(compactTable)};`;
    },
  };
}

/** The support form is served by the cloud at `/support/`, so every asset URL is relative to that base. */
export default defineConfig(({ command }) => ({
  base: '/support/',
  plugins: [inlineOperationTable(), react()],
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
