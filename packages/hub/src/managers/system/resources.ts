import { readdirSync, readFileSync, statfsSync, statSync } from 'node:fs';
import { freemem, totalmem } from 'node:os';
import { join } from 'node:path';
import { databasePath } from '../../config';
import type { HubContext } from '../../platform/context';

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

function directorySize(path: string): number {
  try {
    return readdirSync(path, { withFileTypes: true }).reduce(
      (sum, entry) => sum + (entry.isDirectory() ? directorySize(join(path, entry.name)) : fileSize(join(path, entry.name))),
      0,
    );
  } catch {
    return 0;
  }
}

/** Swap from /proc/meminfo on Linux; zero elsewhere. */
function swap(): { total: number; free: number } {
  try {
    const info = readFileSync('/proc/meminfo', 'utf8');
    const kib = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(info)?.[1] ?? 0) * 1024;
    return { total: kib('SwapTotal'), free: kib('SwapFree') };
  } catch {
    return { total: 0, free: 0 };
  }
}

/** Memory of the machine and of the hub's own process. */
export function memoryInfo() {
  const usage = process.memoryUsage();
  return {
    total: totalmem(),
    free: freemem(),
    swap: swap(),
    types: {
      hub: { size: usage.rss },
      heap: { size: usage.heapUsed },
      external: { size: usage.external },
    },
  };
}

/** Disk space of the volume holding the hub's data, and what the hub's data takes. */
export function storageInfo(context: HubContext) {
  const stats = statfsSync(context.config.dataDir);
  const database = databasePath(context.config);
  const databaseSize = fileSize(database) + fileSize(`${database}-wal`) + fileSize(`${database}-shm`);
  const backups = directorySize(join(context.config.dataDir, 'backups'));
  return {
    total: stats.blocks * stats.bsize,
    free: stats.bavail * stats.bsize,
    types: {
      database: { size: databaseSize },
      backups: { size: backups },
      other: { size: Math.max(0, directorySize(context.config.dataDir) - databaseSize - backups) },
    },
  };
}

export const totals = ({ total, free }: { total: number; free: number }) => ({ total, used: total - free, free });
