import { Type } from 'typebox';
import { entityEvents, managerEvents } from '../events';
import { hubManager } from '../operation';
import { declareState, Nullable, UuidKeyed, UuidParams } from './options';

const op = hubManager('moods');

/** For each device (keyed by its uuid), the capability values the mood sets. */
export const MoodDevices = UuidKeyed(Type.Record(Type.String(), Type.Union([Type.String(), Type.Boolean(), Type.Number()])));

export const Mood = Type.Object({
  id: Type.String(),
  name: Type.String(),
  preset: Type.Union([Type.Null(), Type.String()]),
  zone: Type.Union([Type.Null(), Type.String()]),
  devices: MoodDevices,
});

export const MoodCreate = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  preset: Type.Optional(Nullable(Type.String())),
  zone: Type.Optional(Nullable(Type.String())),
  devices: MoodDevices,
});
export const MoodUpdate = Type.Partial(MoodCreate);

/**
 * The seed marks the moods module private; the wire table (which clients rely on) does not, and a private
 * module could not be used by any household member, so the hub follows the wire table.
 */
export const moodsOperations = {
  getState: declareState(op),
  getMoods: op({
    name: 'getMoods',
    summary: 'Every mood, by id.',
    method: 'GET',
    path: '/mood',
    scope: 'homey.mood.readonly',
    response: Type.Record(Type.String(), Mood),
  }),
  getMood: op({
    name: 'getMood',
    summary: 'One mood: the device states it sets.',
    method: 'GET',
    path: '/mood/:id',
    scope: 'homey.mood.readonly',
    params: UuidParams,
    response: Mood,
  }),
  createMood: op({
    name: 'createMood',
    summary: 'Saves a mood: a name, a zone and the states of its devices.',
    method: 'POST',
    path: '/mood',
    scope: 'homey.mood',
    body: MoodCreate,
    bodyRoot: 'mood',
    response: Mood,
  }),
  updateMood: op({
    name: 'updateMood',
    summary: "Changes a mood's name, zone or device states.",
    method: 'PUT',
    path: '/mood/:id',
    scope: 'homey.mood',
    params: UuidParams,
    body: MoodUpdate,
    bodyRoot: 'mood',
    response: Mood,
  }),
  setMood: op({
    name: 'setMood',
    method: 'POST',
    path: '/mood/:id/set',
    scope: 'homey.mood.set',
    params: UuidParams,
    response: Type.Object({ id: Type.String(), setAt: Type.String(), devices: Type.Integer() }),
    summary: "Applies the mood: publishes `mood.set` with each device's target values for the device runtime.",
  }),
  deleteMood: op({
    name: 'deleteMood',
    summary: 'Deletes a mood; its devices keep their current state.',
    method: 'DELETE',
    path: '/mood/:id',
    scope: 'homey.mood',
    params: UuidParams,
  }),
} as const;

/** Wire events of the moods manager. */
export const moodsEvents = managerEvents('moods', {
  events: {
    ...entityEvents('mood', Mood),
    /** A mood was set: the mood, when, and the devices whose write failed. */
    'mood.set': Type.Object(
      { ...Mood.properties, setAt: Type.String(), failed: Type.Array(Type.Unknown()) },
      { additionalProperties: true },
    ),
  },
});
