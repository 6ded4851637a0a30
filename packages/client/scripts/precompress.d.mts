import type { Plugin } from 'vite';

/** Writes `.br` and `.gz` copies beside every built text file over 1 KiB, after Vite wrote its output. */
export function vitePrecompress(): Plugin;
