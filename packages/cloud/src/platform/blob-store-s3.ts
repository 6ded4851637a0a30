import type { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, NoSuchKey, S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { type BlobStore, checkBlobKey, type S3BlobStoreOptions, type StoredBlob } from './blob-store';

/** Parts of a multipart upload: the smallest S3 accepts, so an upload holds at most two in memory. */
const PART_BYTES = 5 * 1024 * 1024;
const PARTS_IN_FLIGHT = 1;

/**
 * Blobs in an S3-compatible bucket, through AWS's SDK (`@aws-sdk/client-s3`; `@aws-sdk/lib-storage` streams a body
 * of unknown length as a multipart upload, a part at a time). A multipart upload becomes the object only when it
 * completes and is aborted when the body fails, so a reader never sees half a blob.
 */
export class S3BlobStore implements BlobStore {
  readonly kind = 's3';
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;

  constructor(options: S3BlobStoreOptions) {
    this.bucket = options.bucket;
    this.prefix = options.prefix ? `${options.prefix.replace(/\/$/, '')}/` : '';
    this.client = new S3Client({
      region: options.region,
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      forcePathStyle: options.forcePathStyle ?? false,
      credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
      // Checksums only where S3 requires them: S3-compatible services do not all read the SDK's default trailers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private keyOf(key: string): string {
    return `${this.prefix}${checkBlobKey(key)}`;
  }

  async put(key: string, body: Readable): Promise<void> {
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: this.keyOf(key), Body: body, ContentType: 'application/octet-stream' },
      partSize: PART_BYTES,
      queueSize: PARTS_IN_FLIGHT,
      leavePartsOnError: false,
    });
    // A body that fails (too large, the connection broken) ends the upload, which aborts the multipart upload.
    const failed = new Promise<never>((_resolve, reject) => body.once('error', reject));
    // Handled in the race below; this keeps a body error after the upload ended from being an unhandled rejection.
    failed.catch(() => undefined);
    try {
      await Promise.race([upload.done(), failed]);
    } catch (error) {
      // The error that ended the upload is the one the caller hears; an abort that fails too adds nothing to it.
      await upload.abort().catch(() => undefined);
      throw error;
    }
  }

  async get(key: string): Promise<StoredBlob | null> {
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.keyOf(key) }));
      return { body: answer.Body as Readable, size: Number(answer.ContentLength ?? 0) };
    } catch (error) {
      if (error instanceof NoSuchKey || (error as { name?: string }).name === 'NoSuchKey') return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.keyOf(key) }));
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
