import { renameSync, writeFileSync } from 'node:fs';

/**
 * Writes an orchestrator's `running.json` (what it started, where) whole or not at all: into a file beside it, then
 * renamed over it. Readers wait for the file to exist (the end-to-end suite's `startSystem`, `npm run app`); written in
 * place, a reader on a busy machine could open it between its creation and its contents and read an empty file
 * (seen: "Unexpected end of JSON input" with two end-to-end files side by side). A rename within one directory is
 * atomic, so the name only ever shows the whole file.
 * @param {string} path @param {unknown} facts
 */
export function writeRunningFile(path, facts) {
  const partial = `${path}.${process.pid}.partial`;
  writeFileSync(partial, `${JSON.stringify(facts, null, 2)}\n`, { mode: 0o600 });
  renameSync(partial, path);
}
