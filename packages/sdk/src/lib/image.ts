import { PassThrough, type Readable, type Writable } from 'node:stream';
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

  /** The image's bytes as a stream (from its stream source or file). */
  async getStream(): Promise<Readable> {
    const bytes = await this.read();
    const stream = new PassThrough();
    stream.end(bytes.data);
    return stream;
  }

  /** Writes the image's bytes into `stream`. */
  async pipe(stream: Writable): Promise<ImageStreamMetadata> {
    const bytes = await this.read();
    stream.write(bytes.data);
    return { filename: `${this.id}`, contentType: bytes.contentType, contentLength: bytes.data.length };
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

  /** @internal The bytes, for the hub's `image.read`. */
  async read(): Promise<{ contentType: string; data: Buffer }> {
    const source = this.#source;
    if (!source) throw new Error('The image has no source');
    let data: Buffer;
    if (source.kind === 'stream') {
      const stream = new PassThrough();
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      const ended = new Promise<void>((resolve, reject) => {
        stream.on('end', resolve);
        stream.on('error', reject);
      });
      await source.fn(stream);
      if (!stream.writableEnded) stream.end();
      await ended;
      data = Buffer.concat(chunks);
    } else if (source.kind === 'path') {
      const { readFile } = await import('node:fs/promises');
      data = await readFile(source.path);
    } else {
      const response = await fetch(source.url);
      if (!response.ok) throw new Error(`The image at ${source.url} answered ${response.status}`);
      data = Buffer.from(await response.arrayBuffer());
    }
    return { contentType: sniff(data), data };
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
