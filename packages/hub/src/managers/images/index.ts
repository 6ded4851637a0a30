import { hubOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubManager, HubPrincipal } from '../../platform/context';

/** Images published by devices (camera snapshots) and apps. */
export const imagesManager: HubManager = {
  name: 'images',
  create: (_context, services) => {
    const { devices } = services;
    const images = () =>
      devices
        .list()
        .flatMap((device) =>
          (devices.view(device).images as { imageObj: { id: string; ownerUri: string; url: string; lastUpdated: string } }[]).map(
            (image) => image.imageObj,
          ),
        );
    return {
      implementations: implement<typeof hubOperations.images, HubPrincipal>(hubOperations.images, {
        getState: () => ({ images: images().length }),
        getImages: () => Object.fromEntries(images().map((image) => [image.id, image])),
      }),
    };
  },
};
