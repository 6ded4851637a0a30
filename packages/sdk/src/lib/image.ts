import { once } from 'node:events';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { AppBridge } from '../internal/bridge';

export interface ImageStreamMetadata {
  filename: string;
  contentType: string;
  contentLength?: number;
}

type StreamSource = (stream: Writable) => unknown;

/**
 * An image the app shows: a camera still, album art, an image flow token. Create it with
 * `this.homey.images.createImage()`, give it a source (`setPath`, `setUrl` or `setStream`), then call `update()`
 * whenever the picture changes.
 */
export class Image {
  #source: { kind: 'path'; path: string } | { kind: 'url'; url: string } | { kind: 'stream'; fn: StreamSource } | null = null;

  constructor(
    /** The image's id on the hub (`null` once unregistered). */
    public id: string | null,
    private readonly bridge: AppBridge,
    private readonly onUnregister: (image: Image) => void,
  ) {}

  /** A file in the app's folder or userdata folder (`/userdata/...` is the app's userdata folder). */
  setPath(path: string): void {
    this.#source = { kind: 'path', path };
  }

  /** An https address the hub's clients load the image from. */
  setUrl(url: string): void {
    if (!/^https?:\/\//.test(url)) throw new TypeError('An image URL must start with http:// or https://');
    this.#source = { kind: 'url', url };
  }

  /** A function that writes the image's bytes into the stream it gets, whenever someone asks for them. */
  setStream(source: StreamSource): void {
    if (typeof source !== 'function') throw new TypeError('setStream needs a function');
    this.#source = { kind: 'stream', fn: source };
  }

  /** Tells the hub the image changed (and where its bytes now come from). */
  async update(): Promise<void> {
    if (!this.id) throw new Error('This image was unregistered');
    if (!this.#source) throw new Error('Give the image a source (setPath, setUrl or setStream) before update()');
    const source = this.#source.kind === 'stream' ? { kind: 'stream' as const } : this.#source;
    await this.bridge.call('images.update', { id: this.id, source });
  }

  /** The image's bytes as a stream (from its source). */
  async getStream(): Promise<Readable> {
    return (await this.open()).stream;
  }

  /** Writes the image's bytes into `stream` (and ends it). */
  async pipe(stream: Writable): Promise<ImageStreamMetadata> {
    const { contentType, stream: bytes } = await this.open();
    await pipeline(bytes, stream);
    return { filename: `${this.id}`, contentType };
  }

  async unregister(): Promise<void> {
    if (!this.id) return;
    await this.bridge.call('images.unregister', { id: this.id });
    this.onUnregister(this);
    this.id = null;
  }

  toJSON(): string {
    return this.id ?? '';
  }

  /**
   * @internal The image's bytes as a stream, with their content type (known from the first bytes): for the
   * hub's `image.open` and for {@link getStream}.
   */
  async open(): Promise<{ contentType: string; stream: Readable }> {
    const chunks = (await this.#bytes())[Symbol.asyncIterator]();
    const first = await chunks.next();
    const head: Buffer = first.done ? Buffer.alloc(0) : Buffer.from(first.value as Uint8Array);
    async function* rest() {
      if (head.length > 0) yield head;
      for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield Buffer.from(next.value as Uint8Array);
    }
    return { contentType: sniff(head), stream: Readable.from(rest()) };
  }

  async #bytes(): Promise<Readable> {
    const source = this.#source;
    if (!source) throw new Error('The image has no source');
    if (source.kind === 'path') {
      // `/userdata/…` is the app's userdata folder, as on a Homey; other paths are the app's own files.
      const path = source.path.startsWith('/userdata/')
        ? join(this.bridge.init.userdataDir, source.path.slice('/userdata/'.length))
        : source.path;
      const stream = createReadStream(path);
      await once(stream, 'open');
      return stream;
    }
    if (source.kind === 'url') {
      const response = await fetch(source.url);
      if (!response.ok || !response.body) throw new Error(`The image at ${source.url} answered ${response.status}`);
      return Readable.fromWeb(response.body as Parameters<typeof Readable.fromWeb>[0]);
    }
    const stream = new PassThrough();
    // The app writes into the stream, or pipes into it and answers the piped stream (which ends it itself).
    Promise.resolve()
      .then(() => source.fn(stream))
      .then(
        (answered) => {
          const piping = answered !== null && typeof answered === 'object' && typeof (answered as Writable).on === 'function';
          if (!piping && !stream.writableEnded) stream.end();
        },
        (error: unknown) => stream.destroy(error instanceof Error ? error : new Error(String(error))),
      );
    return stream;
  }
}

/** The content type of an image's bytes, from their first bytes. */
export function sniff(data: Buffer): string {
  if (data[0] === 0x89 && data[1] === 0x50 && data[2] === 0x4e && data[3] === 0x47) return 'image/png';
  if (data[0] === 0xff && data[1] === 0xd8) return 'image/jpeg';
  if (data[0] === 0x47 && data[1] === 0x49 && data[2] === 0x46) return 'image/gif';
  if (data.subarray(0, 256).toString('utf8').includes('<svg')) return 'image/svg+xml';
  return 'application/octet-stream';
}
