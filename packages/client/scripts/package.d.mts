/** Builds `dist/package/` (ESM for Node and browsers, `.d.ts` types, package.json, README) and packs it; answers the tarball's path. */
export function packClient(options?: { outdir?: string }): Promise<string>;
