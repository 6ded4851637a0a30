import { Image } from '../lib/image';
import { Manager } from './manager';

/** `this.homey.images`: images the app shows (camera stills, album art, image tokens). */
export class ManagerImages extends Manager {
  static ID = 'images';
  readonly #images = new Map<string, Image>();

  /** An image this app created; throws when there is none. */
  getImage(id: string): Image {
    const image = this.#images.get(id);
    if (!image) throw new Error(`Image not found: ${id}`);
    return image;
  }

  /** Registers a new image on the hub; give it a source and call `update()`. */
  async createImage(): Promise<Image> {
    const { id } = await this.bridge.call('images.create', {});
    const image = new Image(id, this.bridge, (i) => {
      if (i.id) this.#images.delete(i.id);
    });
    this.#images.set(id, image);
    return image;
  }

  async unregisterImage(image: Image): Promise<void> {
    await image.unregister();
  }

  /** @internal The image the hub asks the bytes of. */
  find(id: string): Image | undefined {
    return this.#images.get(id);
  }
}
