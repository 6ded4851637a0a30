import { Type } from 'typebox';
import { managerEvents } from '../events';
import { hubManager } from '../operation';
import { declareState } from './options';

const op = hubManager('images');

/** An image an owner (a device's camera, an app) publishes (seed section 3). */
export const Image = Type.Object(
  { id: Type.String(), ownerUri: Type.String(), url: Type.String(), lastUpdated: Type.String() },
  { additionalProperties: true },
);

export const imagesOperations = {
  getState: declareState(op),
  getImages: op({
    name: 'getImages',
    summary: "Every image devices (a camera's still) and apps publish, by id, with its owner and address.",
    method: 'GET',
    path: '/image',
    scope: 'homey.device.readonly',
    response: Type.Record(Type.String(), Image),
  }),
} as const;

/** Wire events of the images manager: an app's image has new content. */
export const imagesEvents = managerEvents('images', {
  events: { 'image.update': Type.Object({ id: Type.String(), ownerUri: Type.String() }) },
});
