import { randomBytes } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { HearthError } from '@hearth/contract';
import type { BlobStore } from '../../platform/blob-store';

/** The blob store key of an attachment: blobs are shared by every node of the cloud. */
export const attachmentKey = (token: string): string => `helpdesk/attachments/${token}`;

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
 * Streams a request body to the blob store chunk by chunk (never held whole in memory), refusing it past `limit`
 * bytes; a refused or broken upload leaves no blob behind. Answers the number of bytes stored.
 */
export async function streamToBlob(blobs: BlobStore, key: string, body: Readable | Buffer, limit: number): Promise<number> {
  const counter = { bytes: 0 };
  if (Buffer.isBuffer(body) && body.length > limit)
    throw new HearthError('payload_too_large', `Attachment exceeds the maximum file size of ${limit / 1024 / 1024}MB`);
  const source = Buffer.isBuffer(body) ? Readable.from([body]) : body;
  const limited = byteLimit(limit, counter);
  // The store reads the limited stream; a failure of the source (a broken upload) must fail it too.
  source.once('error', (error) => limited.destroy(error));
  await blobs.put(key, source.pipe(limited));
  return counter.bytes;
}
