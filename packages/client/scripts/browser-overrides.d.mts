import type { Plugin as EsbuildPlugin } from 'esbuild';
import type { Plugin as VitePlugin } from 'vite';

/** Files the browser overrides may replace. */
export const overriddenFiles: RegExp;
/** The source a browser bundle uses instead of the file at `path`, or `undefined` to keep the file. */
export function browserOverride(path: string): Promise<string | undefined>;
export function esbuildBrowserOverrides(): EsbuildPlugin;
export function viteBrowserOverrides(): VitePlugin;
