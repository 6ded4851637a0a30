import { hubOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubManager, HubPrincipal } from '../../platform/context';

/** Images published by devices (camera snapshots) and apps. */
export const imagesManager: HubManager = {
  name: 'images',
  create: (_context, services) => {
    const { devices, processes } = services;
    // Device images (a camera's still) and the images apps registered, each once.
    const images = () => {
      const all = [
        ...processes.images.list(),
        ...devices
          .list()
          .flatMap((device) =>
            (
              devices.view(device).images as { imageObj: { id: string; ownerUri: string; url: string; lastUpdated: string } }[]
            ).map((image) => image.imageObj),
          ),
      ];
      return new Map(all.map((image) => [image.id, image]));
    };
    return {
      implementations: implement<typeof hubOperations.images, HubPrincipal>(hubOperations.images, {
        getState: () => ({ images: images().size }),
        getImages: () => Object.fromEntries(images()),
      }),
    };
  },
};
