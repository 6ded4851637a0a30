import { Type } from 'typebox';
import { entityEvents, managerEvents } from '../events';
import { hubManager } from '../operation';
import { declareState, IdParams } from './options';

const op = hubManager('alarms');

/** The seven weekdays, each required as a boolean (seed section 5). */
export const AlarmRepetition = Type.Object(
  {
    monday: Type.Boolean(),
    tuesday: Type.Boolean(),
    wednesday: Type.Boolean(),
    thursday: Type.Boolean(),
    friday: Type.Boolean(),
    saturday: Type.Boolean(),
    sunday: Type.Boolean(),
  },
  { additionalProperties: false },
);

/** Local time of day the alarm goes off: `HH:mm`, optionally with seconds. */
export const AlarmTime = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9](:[0-5][0-9])?$', description: 'HH:mm' });

export const Alarm = Type.Object({
  id: Type.String(),
  name: Type.String(),
  time: Type.String(),
  enabled: Type.Boolean(),
  /** When it goes off next (ISO date-time), `null` when disabled. The wire spelling is kept. */
  nextOccurance: Type.Union([Type.Null(), Type.String()]),
  repetition: AlarmRepetition,
});

export const AlarmCreate = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  time: AlarmTime,
  enabled: Type.Optional(Type.Boolean()),
  repetition: AlarmRepetition,
});

export const AlarmUpdate = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  time: Type.Optional(AlarmTime),
  enabled: Type.Optional(Type.Boolean()),
  repetition: Type.Optional(AlarmRepetition),
});

export const alarmsOperations = {
  getState: declareState(op, 'homey.alarm.readonly'),
  getAlarms: op({
    name: 'getAlarms',
    summary: 'Every alarm, by id.',
    method: 'GET',
    path: '/alarm',
    scope: 'homey.alarm.readonly',
    response: Type.Record(Type.String(), Alarm),
  }),
  getAlarm: op({
    name: 'getAlarm',
    summary: 'One alarm: its time, repetition and whether it is on.',
    method: 'GET',
    path: '/alarm/:id',
    scope: 'homey.alarm.readonly',
    params: IdParams,
    response: Alarm,
  }),
  createAlarm: op({
    name: 'createAlarm',
    summary: 'Creates an alarm at a time of day, once or on chosen weekdays.',
    method: 'POST',
    path: '/alarm',
    scope: 'homey.alarm',
    body: AlarmCreate,
    bodyRoot: 'alarm',
    response: Alarm,
  }),
  updateAlarm: op({
    name: 'updateAlarm',
    summary: "Changes an alarm's name, time, repetition or whether it is on.",
    method: 'PUT',
    path: '/alarm/:id',
    scope: 'homey.alarm',
    params: IdParams,
    body: AlarmUpdate,
    bodyRoot: 'alarm',
    response: Alarm,
  }),
  deleteAlarm: op({
    name: 'deleteAlarm',
    summary: 'Deletes an alarm; it will not go off again.',
    method: 'DELETE',
    path: '/alarm/:id',
    scope: 'homey.alarm',
    params: IdParams,
  }),
} as const;

/** Wire events of the alarms manager. */
export const alarmsEvents = managerEvents('alarms', {
  events: {
    ...entityEvents('alarm', Alarm),
    /** An alarm went off: the alarm with the time it fired. */
    'alarm.fire': Type.Object({ ...Alarm.properties, firedAt: Type.String() }, { additionalProperties: true }),
  },
});
