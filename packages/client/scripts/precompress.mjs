import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/**
 * A Vite plugin for the front ends built on this client: writes a brotli (`.br`) and a gzip (`.gz`) copy beside
 * every built text file over 1 KiB, compressed once at their best levels, so the servers (registerBuiltPages in
 * @hearth/contract/fastify) send the copy the browser accepts instead of compressing on every request. The copies
 * are made from the files as written, after every other plugin: in `generateBundle` the code may still hold
 * placeholders (the dynamic-import preload list) that Vite fills in later. Node's zlib does both, so no package is
 * needed for it.
 */
export function vitePrecompress() {
  return {
    name: 'hearth-precompress',
    apply: 'build',
    enforce: 'post',
    writeBundle(options, bundle) {
      const directory = options.dir;
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
