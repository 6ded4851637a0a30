// Memory of processes on Linux, read from /proc: resident (RSS) and proportional (PSS) set sizes.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

/** Resident memory (MB): every page the process has in memory, shared ones counted in full. */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/**
 * Proportional memory (MB): private pages in full, each shared page divided by the processes sharing it (the
 * Node binary's code is mapped once for every app process). Summed over processes it is what they cost together.
 */
export function pssMb(pid: number): number {
  const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
  return Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0) / 1024;
}

/** The ids of the processes whose parent is `pid`. */
export function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Field 4 of /proc/<pid>/stat is the parent; the command name before it may hold spaces, so split after ')'.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) children.push(Number(entry));
    } catch {
      // The process ended while the list was read.
    }
  }
  return children;
}

/** A process's idle memory and its children's (a hub's app processes), in MB. */
export interface IdleMemory {
  rss: number;
  pss: number;
  children: { pid: number; rss: number; pss: number }[];
}

/**
 * Starts `node <args>` in `cwd`, waits for its ready line, lets it idle `idleSeconds`, and answers its memory and its
 * children's; then stops it.
 */
export async function idleMemory(options: {
  cwd: string;
  args: string[];
  env: Record<string, string>;
  readyLine: string;
  idleSeconds: number;
}): Promise<IdleMemory> {
  const child = spawn(process.execPath, options.args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (text) => text.startsWith(options.readyLine) && resolve());
    child.once('exit', (code) => reject(new Error(`exited early (${code})`)));
  });
  await new Promise((resolve) => setTimeout(resolve, options.idleSeconds * 1000));
  const pid = child.pid!;
  const measured: IdleMemory = {
    rss: rssMb(pid),
    pss: pssMb(pid),
    children: childrenOf(pid).map((id) => ({ pid: id, rss: rssMb(id), pss: pssMb(id) })),
  };
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  return measured;
}
