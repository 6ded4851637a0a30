import { hubOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubManager, HubPrincipal } from '../../platform/context';
import { hubRuntime } from '../../runtime';

/** Images published by devices (camera snapshots) and apps. */
export const imagesManager: HubManager = {
  name: 'images',
  implementations: (context) => {
    const { devices } = hubRuntime(context);
    const images = () =>
      devices
        .list()
        .flatMap((device) =>
          (devices.view(device).images as { imageObj: { id: string; ownerUri: string; url: string; lastUpdated: string } }[]).map(
            (image) => image.imageObj,
          ),
        );
    return implement<typeof hubOperations.images, HubPrincipal>(hubOperations.images, {
      getState: () => ({ images: images().length }),
      getImages: () => Object.fromEntries(images().map((image) => [image.id, image])),
    });
  },
};
