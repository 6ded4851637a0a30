import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BlobStore, DirectoryBlobStore } from './blob-store';
import { S3BlobStore } from './blob-store-s3';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function read(store: BlobStore, key: string): Promise<Buffer | null> {
  const blob = await store.get(key);
  if (!blob) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of blob.body) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  expect(blob.size).toBe(bytes.length);
  return bytes;
}

/** A body that sends `bytes` in 64 KiB chunks, then fails: a client that went away mid-upload. */
function brokenBody(bytes: Buffer): Readable {
  let offset = 0;
  return new Readable({
    read() {
      if (offset >= bytes.length) return this.destroy(new Error('connection reset'));
      this.push(bytes.subarray(offset, offset + 65_536));
      offset += 65_536;
    },
  });
}

/** The behaviour every blob store has, whichever holds the bytes. */
function behavesAsABlobStore(open: () => BlobStore) {
  let store: BlobStore;
  beforeAll(() => {
    store = open();
  });
  afterAll(() => store.close());

  it('streams a body in and out, larger than one multipart part', async () => {
    const bytes = randomBytes(12 * 1024 * 1024 + 123);
    await store.put('backups/one/archive', Readable.from(chunks(bytes)));
    expect(sha256((await read(store, 'backups/one/archive')) as Buffer)).toBe(sha256(bytes));
  });

  it('keeps the previous blob when a put fails, and stores nothing of the failed one', async () => {
    const first = randomBytes(1000);
    await store.put('backups/two/archive', Readable.from([first]));
    await expect(store.put('backups/two/archive', brokenBody(randomBytes(7 * 1024 * 1024)))).rejects.toThrow();
    expect((await read(store, 'backups/two/archive'))?.equals(first)).toBe(true);
    await expect(store.put('backups/three/archive', brokenBody(randomBytes(300_000)))).rejects.toThrow();
    expect(await store.get('backups/three/archive')).toBeNull();
  });

  it('deletes, and a missing blob is no error', async () => {
    await store.put('backups/four/archive', Readable.from([Buffer.from('bye')]));
    await store.delete('backups/four/archive');
    expect(await store.get('backups/four/archive')).toBeNull();
    await store.delete('backups/four/archive');
  });

  it('refuses keys that could leave the store', async () => {
    for (const key of ['../etc/passwd', 'a/../../b', '/absolute', 'a//b', '.hidden', 'a b'])
      await expect(store.put(key, Readable.from([Buffer.from('x')]))).rejects.toThrow('Invalid blob key');
  });
}

function* chunks(bytes: Buffer, size = 1024 * 1024) {
  for (let offset = 0; offset < bytes.length; offset += size) yield bytes.subarray(offset, offset + size);
}

describe('directory blob store', () => {
  const root = mkdtempSync(join(tmpdir(), 'hearth-blobs-test-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  behavesAsABlobStore(() => new DirectoryBlobStore(root));

  it('leaves no partial file behind a failed put', () => {
    expect(readdirSync(join(root, '.partial'))).toEqual([]);
  });
});

describe('S3 blob store (against s3rver, an S3-compatible server on loopback)', () => {
  const directory = mkdtempSync(join(tmpdir(), 'hearth-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: 'hearth-test-blobs', configs: [] }],
  });
  let endpoint = '';
  beforeAll(async () => {
    const address = (await server.run()) as AddressInfo;
    endpoint = `http://127.0.0.1:${address.port}`;
  });
  afterAll(async () => {
    await server.close();
    rmSync(directory, { recursive: true, force: true });
  });
  behavesAsABlobStore(
    () =>
      new S3BlobStore({
        bucket: 'hearth-test-blobs',
        endpoint,
        region: 'us-east-1',
        // s3rver's fixed credentials.
        accessKeyId: 'S3RVER',
        secretAccessKey: 'S3RVER',
        forcePathStyle: true,
        prefix: 'cloud-a',
      }),
  );
});
