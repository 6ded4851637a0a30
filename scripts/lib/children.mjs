import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/**
 * The processes an orchestrator (`npm start`, `npm run start:cluster`) runs: each one's output prefixed with its
 * label, its `HEARTH_READY {…}` line awaited, and all of them stopped together (SIGTERM, then SIGKILL after 10 s).
 */
export class Children {
  /** @type {Set<import('node:child_process').ChildProcess>} */
  #children = new Set();
  stopping = false;

  /**
   * Starts a process. With `ready: true` resolves with the facts of its `HEARTH_READY {…}` line, else at once.
   * `onExit` hears of an exit after it was ready, unless everything is stopping.
   * @param {string} label @param {string} command @param {string[]} args
   * @param {{ cwd: string, env: NodeJS.ProcessEnv, ready?: boolean, onExit?: (code: number | null, signal: string | null) => void }} options
   * @returns {Promise<{ facts: any, child: import('node:child_process').ChildProcess }>}
   */
  launch(label, command, args, options) {
    return new Promise((resolveReady, rejectReady) => {
      const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
      this.#children.add(child);
      let ready = !options.ready;
      const prefix = `[${label}]`;
      createInterface({ input: /** @type {import('node:stream').Readable} */ (child.stdout) }).on('line', (line) => {
        if (!ready && line.startsWith('HEARTH_READY ')) {
          ready = true;
          resolveReady({ facts: JSON.parse(line.slice('HEARTH_READY '.length)), child });
        } else console.log(prefix, line);
      });
      createInterface({ input: /** @type {import('node:stream').Readable} */ (child.stderr) }).on('line', (line) =>
        console.error(prefix, line),
      );
      child.on('error', (error) => rejectReady(new Error(`${label} could not start: ${error.message}`)));
      child.on('exit', (code, signal) => {
        this.#children.delete(child);
        if (!ready) rejectReady(new Error(`${label} exited before it was ready (${code ?? signal})`));
        else if (!this.stopping) options.onExit?.(code, signal);
      });
      if (ready) resolveReady({ facts: null, child });
    });
  }

  /**
   * Stops every process and exits with `exitCode` once all are gone.
   * @param {number} exitCode @param {() => void} [cleanUp]
   */
  shutdown(exitCode, cleanUp) {
    if (this.stopping) return;
    this.stopping = true;
    console.log('\n• Stopping…');
    cleanUp?.();
    for (const child of this.#children) child.kill('SIGTERM');
    const force = setTimeout(() => {
      for (const child of this.#children) child.kill('SIGKILL');
    }, 10_000).unref();
    const wait = setInterval(() => {
      if (this.#children.size > 0) return;
      clearInterval(wait);
      clearTimeout(force);
      process.exit(exitCode);
    }, 50);
  }
}
