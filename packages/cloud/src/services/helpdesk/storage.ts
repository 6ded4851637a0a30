import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { HearthError } from '@hearth/contract';

/**
 * Where attachments are kept: `<dataDir>/helpdesk/attachments`, or a temporary directory when the cloud runs
 * on an in-memory database (tests).
 */
export function attachmentsDirectory(dataDir: string, schema: string): string {
  if (dataDir.startsWith('memory://')) return join(tmpdir(), `hearth-helpdesk-${schema}`, 'attachments');
  return join(dataDir, 'helpdesk', 'attachments');
}

export const newToken = () => randomBytes(24).toString('hex');

/** A stream that fails with 413 as soon as more than `limit` bytes went through it. */
function byteLimit(limit: number, counter: { bytes: number }) {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      counter.bytes += chunk.length;
      if (counter.bytes > limit)
        done(new HearthError('payload_too_large', `Attachment exceeds the maximum file size of ${limit / 1024 / 1024}MB`));
      else done(null, chunk);
    },
  });
}

/**
 * Streams a request body to `path` chunk by chunk (never held whole in memory), refusing it past `limit`
 * bytes; a refused or broken upload leaves no file behind. Answers the number of bytes stored.
 */
export async function streamToFile(body: Readable | Buffer, path: string, limit: number): Promise<number> {
  const counter = { bytes: 0 };
  await mkdir(join(path, '..'), { recursive: true });
  try {
    if (Buffer.isBuffer(body)) {
      if (body.length > limit)
        throw new HearthError('payload_too_large', `Attachment exceeds the maximum file size of ${limit / 1024 / 1024}MB`);
      const { writeFile } = await import('node:fs/promises');
      await writeFile(path, body);
      return body.length;
    }
    await pipeline(body, byteLimit(limit, counter), createWriteStream(path, { flags: 'wx' }));
    return counter.bytes;
  } catch (error) {
    await rm(path, { force: true });
    throw error;
  }
}
