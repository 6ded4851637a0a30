import { randomUUID } from 'node:crypto';
import { PassThrough, type Readable } from 'node:stream';
import { HearthError, notFound } from '@hearth/contract';
import type { AppToHubEventMap } from '@hearth/sdk/protocol';
import type { AppProcessHost } from './host';

/** Where an image's bytes come from (the app's process reads them in every case). */
export type ImageSource = { kind: 'path'; path: string } | { kind: 'url'; url: string } | { kind: 'stream' };

/** What the hub keeps of an image an app registered (`homey.images.createImage`). */
export interface AppImage {
  readonly appId: string;
  source: ImageSource | null;
  updatedAt: number;
}

/** An image as clients see it (the seed's Image): its bytes are at `url`. */
export interface ImageView {
  id: string;
  ownerUri: string;
  url: string;
  lastUpdated: string;
}

/** An image a device shows (`setCameraImage`, `setAlbumArtImage`), as in the device's `images`. */
export interface DeviceImageView {
  type: 'camera' | 'media';
  id: string;
  title: string | null;
  imageObj: ImageView;
}

interface DeviceImage {
  readonly type: 'camera' | 'media';
  readonly id: string;
  readonly title: string | null;
  readonly imageId: string;
}

/** The most bytes one image answer carries; an app sending more has its answer cut off. */
const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

/**
 * The images of the running apps: their sources, which devices show them, and the reading of their bytes from
 * the app's process. Images live as long as the process that registered them (an app registers its images
 * again when it starts).
 */
export class AppImages {
  readonly #images = new Map<string, AppImage>();
  readonly #devices = new Map<string, DeviceImage[]>();
  readonly #reads = new Map<string, { appId: string; sink: PassThrough; bytes: number }>();

  create(appId: string, now: number): string {
    const id = randomUUID();
    this.#images.set(id, { appId, source: null, updatedAt: now });
    return id;
  }

  /** The app's own image `id` (a 404 for another app's). */
  require(appId: string, id: string): AppImage {
    const found = this.#images.get(id);
    if (!found || found.appId !== appId) throw notFound('Image', id);
    return found;
  }

  find(id: string): AppImage | undefined {
    return this.#images.get(id);
  }

  unregister(appId: string, id: string): void {
    this.require(appId, id);
    this.#images.delete(id);
    for (const [deviceId, shown] of this.#devices)
      this.#devices.set(
        deviceId,
        shown.filter((image) => image.imageId !== id),
      );
  }

  /** The device shows the image as its album art or as camera `id` (replacing what it showed there). */
  show(deviceId: string, image: DeviceImage): void {
    const shown = (this.#devices.get(deviceId) ?? []).filter((i) => !(i.type === image.type && i.id === image.id));
    this.#devices.set(deviceId, [...shown, image]);
  }

  /** The devices that show image `id`. */
  devicesShowing(id: string): string[] {
    return [...this.#devices].filter(([, shown]) => shown.some((image) => image.imageId === id)).map(([deviceId]) => deviceId);
  }

  view(id: string): ImageView | null {
    const image = this.#images.get(id);
    if (!image) return null;
    return {
      id,
      ownerUri: `homey:app:${image.appId}`,
      url: `/api/image/${id}`,
      lastUpdated: new Date(image.updatedAt).toISOString(),
    };
  }

  list(): ImageView[] {
    return [...this.#images.keys()].flatMap((id) => this.view(id) ?? []);
  }

  ofDevice(deviceId: string): DeviceImageView[] {
    return (this.#devices.get(deviceId) ?? []).flatMap((image) => {
      const imageObj = this.view(image.imageId);
      return imageObj ? [{ type: image.type, id: image.id, title: image.title, imageObj }] : [];
    });
  }

  /** The app's process ended: its images and the reads of their bytes go. Answers the devices that showed them. */
  forgetApp(appId: string): string[] {
    for (const [id, image] of this.#images) if (image.appId === appId) this.#images.delete(id);
    const devices = [...this.#devices].filter(([, shown]) => shown.some((image) => !this.#images.has(image.imageId)));
    for (const [deviceId, shown] of devices)
      this.#devices.set(
        deviceId,
        shown.filter((image) => this.#images.has(image.imageId)),
      );
    for (const read of this.#reads.values())
      if (read.appId === appId) read.sink.destroy(new Error('The app stopped while sending the image'));
    return devices.map(([deviceId]) => deviceId);
  }

  /**
   * The bytes of image `id`, streamed from its app's process as they arrive, with their content type. A 404
   * when there is no such image, a 503 while its app does not run.
   */
  async open(host: AppProcessHost, id: string): Promise<{ contentType: string; stream: Readable }> {
    const image = this.#images.get(id);
    if (!image) throw notFound('Image', id);
    if (!image.source) throw new HearthError('not_found', `Image ${id} has no content yet`);
    const streamId = randomUUID();
    const sink = new PassThrough();
    this.#reads.set(streamId, { appId: image.appId, sink, bytes: 0 });
    sink.on('close', () => this.#reads.delete(streamId));
    try {
      // The bytes may arrive before the answer is handled: they wait in the sink.
      const { contentType } = await host.call(image.appId, 'image.open', { imageId: id, streamId });
      return { contentType, stream: sink };
    } catch (error) {
      sink.destroy();
      throw error;
    }
  }

  /** The app process's image events, for its child (an app can only feed reads of its own images). */
  listeners(appId: string): ImageEventListeners {
    const read = (streamId: string) => {
      const found = this.#reads.get(streamId);
      return found?.appId === appId ? found : undefined;
    };
    return {
      'image.chunk': ({ streamId, data }) => {
        const found = read(streamId);
        if (!found) return;
        const bytes = Buffer.from(data, 'base64');
        found.bytes += bytes.length;
        if (found.bytes > MAX_IMAGE_BYTES) found.sink.destroy(new Error(`The image is larger than ${MAX_IMAGE_BYTES} bytes`));
        else found.sink.write(bytes);
      },
      'image.end': ({ streamId, error }) => {
        const found = read(streamId);
        if (!found) return;
        if (error === null) found.sink.end();
        else found.sink.destroy(new Error(error));
      },
    };
  }
}

export type ImageEventListeners = {
  [K in 'image.chunk' | 'image.end']: (data: AppToHubEventMap[K]) => void;
};
