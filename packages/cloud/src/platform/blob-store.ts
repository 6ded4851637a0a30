import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** A stored blob being read: its bytes as a stream, and how many there are. */
export interface StoredBlob {
  readonly body: Readable;
  readonly size: number;
}

/**
 * Where the cloud keeps files too large for its database (backup archives): a folder under the cloud's data
 * directory by default, an S3-compatible bucket when configured, so every node of a cluster sees the same blobs.
 * Keys are paths of `[A-Za-z0-9._-]` segments joined by `/`.
 */
export interface BlobStore {
  /** `directory` or `s3`, for logs and the status page. */
  readonly kind: string;
  /**
   * Streams `body` to `key`, never holding it whole in memory. The key holds the complete body once this resolves,
   * and nothing new when it rejects (a broken upload leaves the previous blob, or none).
   */
  put(key: string, body: Readable): Promise<void>;
  /** The blob at `key`, or `null` when there is none. */
  get(key: string): Promise<StoredBlob | null>;
  /** Removes the blob at `key`; a missing one is no error. */
  delete(key: string): Promise<void>;
  /** Releases what the store holds open. */
  close(): Promise<void>;
}

const KEY = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

/** Refuses a key that could leave the store's folder or name something odd: keys come from the cloud, never from callers. */
export function checkBlobKey(key: string): string {
  if (!KEY.test(key) || key.length > 500) throw new Error(`Invalid blob key: ${key}`);
  return key;
}

/**
 * Blobs as files in a folder. A put writes to a temporary file in the same folder tree and renames it into place,
 * so a reader never sees half a blob and a failed put leaves nothing behind.
 */
export class DirectoryBlobStore implements BlobStore {
  readonly kind = 'directory';

  constructor(
    readonly root: string,
    private readonly removeOnClose = false,
  ) {}

  private pathOf(key: string): string {
    return join(this.root, ...checkBlobKey(key).split('/'));
  }

  async put(key: string, body: Readable): Promise<void> {
    const path = this.pathOf(key);
    const partial = join(this.root, '.partial', randomBytes(12).toString('hex'));
    await mkdir(dirname(partial), { recursive: true });
    try {
      await pipeline(body, createWriteStream(partial, { flags: 'wx' }));
      await mkdir(dirname(path), { recursive: true });
      await rename(partial, path);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  }

  async get(key: string): Promise<StoredBlob | null> {
    const path = this.pathOf(key);
    try {
      const { size } = await stat(path);
      return { body: createReadStream(path), size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async close(): Promise<void> {
    if (this.removeOnClose) await rm(this.root, { recursive: true, force: true });
  }
}

/** How the cloud stores blobs (`CloudConfig.blobStore`). */
export type BlobStoreConfig = { kind: 'directory'; dir: string } | ({ kind: 's3' } & S3BlobStoreOptions);

export interface S3BlobStoreOptions {
  bucket: string;
  /** The S3-compatible service's address, e.g. `http://127.0.0.1:9000`; AWS's own when absent. */
  endpoint?: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Keys under this prefix only (several clouds may share a bucket). */
  prefix?: string;
  /** Addresses the bucket in the path (`endpoint/bucket/key`) rather than the host name; most self-hosted services need it. */
  forcePathStyle?: boolean;
}

/**
 * The blob store a cloud is configured with: the S3 bucket when one is configured, else the folder `blobs/` under
 * the data directory. A cloud on an in-memory database (tests) gets a temporary folder of its own, removed on close.
 */
export async function openBlobStore(config: {
  blobStore?: BlobStoreConfig | null;
  dataDir: string;
  databaseSchema: string;
}): Promise<BlobStore> {
  const chosen = config.blobStore;
  if (chosen?.kind === 's3') {
    const { S3BlobStore } = await import('./blob-store-s3');
    return new S3BlobStore(chosen);
  }
  if (chosen?.kind === 'directory') return new DirectoryBlobStore(chosen.dir);
  if (config.dataDir.startsWith('memory://')) {
    return new DirectoryBlobStore(
      join(tmpdir(), `hearth-blobs-${config.databaseSchema}-${randomBytes(4).toString('hex')}`),
      true,
    );
  }
  return new DirectoryBlobStore(join(config.dataDir, 'blobs'));
}
