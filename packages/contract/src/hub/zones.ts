import { Type } from 'typebox';
import { entityEvents, managerEvents } from '../events';
import { hubManager } from '../operation';
import { zonesExamples } from './examples';

const op = hubManager('zones');

/** A zone of the home: zones form one tree under the root zone (the only zone whose `parent` is `null`). */
export const Zone = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    order: Type.Number(),
    parent: Type.Union([Type.String(), Type.Null()]),
    active: Type.Boolean(),
    activeLastUpdated: Type.Union([Type.String(), Type.Null()]),
    icon: Type.String(),
  },
  { additionalProperties: true },
);

const ZoneName = Type.String({ minLength: 1, maxLength: 255, description: 'Shown name of the zone' });
const ZoneIcon = Type.String({ minLength: 1, maxLength: 64, description: 'Icon id, e.g. `home`, `livingRoom`' });
const ZoneParent = Type.String({ minLength: 1, description: 'Id of the parent zone; it must exist' });
const ZoneOrder = Type.Number({ description: 'Position among the siblings' });

/** Body of `createZone`: the newer description requires name, icon and parent. */
export const NewZone = Type.Object(
  { name: ZoneName, icon: ZoneIcon, parent: ZoneParent, order: Type.Optional(ZoneOrder) },
  { additionalProperties: true },
);

/** Body of `updateZone`: the fields to change; `id` and `active` are set by the hub and ignored here. */
export const ZoneChanges = Type.Object(
  {
    name: Type.Optional(ZoneName),
    icon: Type.Optional(ZoneIcon),
    parent: Type.Optional(ZoneParent),
    order: Type.Optional(ZoneOrder),
  },
  { additionalProperties: true },
);

export const ZonesState = Type.Object({ rootZoneId: Type.String(), zoneCount: Type.Number() }, { additionalProperties: true });

const ZoneId = Type.Object({ id: Type.String({ minLength: 1 }) });

export const zonesOperations = {
  getState: op({
    name: 'getState',
    summary: "The root zone's id and how many zones the hub has.",
    method: 'GET',
    path: '/state',
    scope: 'homey.system.readonly',
    response: ZonesState,
  }),
  getZones: op({
    name: 'getZones',
    examples: zonesExamples.getZones,
    method: 'GET',
    path: '/zone',
    scope: 'homey.zone.readonly',
    response: Type.Record(Type.String(), Zone),
    summary: 'Every zone, keyed by id.',
  }),
  getZone: op({
    name: 'getZone',
    examples: zonesExamples.getZone,
    summary: 'One zone, with its parent and whether it is active.',
    method: 'GET',
    path: '/zone/:id',
    scope: 'homey.zone.readonly',
    params: ZoneId,
    response: Zone,
    errors: ['not_found'],
  }),
  createZone: op({
    name: 'createZone',
    examples: zonesExamples.createZone,
    summary: 'Creates a zone under a parent zone.',
    method: 'POST',
    path: '/zone',
    scope: 'homey.zone',
    body: NewZone,
    bodyRoot: 'zone',
    response: Zone,
    errors: ['missing_parameter', 'invalid_parameter'],
  }),
  updateZone: op({
    name: 'updateZone',
    summary: 'Renames a zone, changes its icon or moves it under another parent.',
    method: 'PUT',
    path: '/zone/:id',
    scope: 'homey.zone',
    params: ZoneId,
    body: ZoneChanges,
    bodyRoot: 'zone',
    response: Zone,
    errors: ['not_found', 'invalid_parameter'],
  }),
  deleteZone: op({
    name: 'deleteZone',
    method: 'DELETE',
    path: '/zone/:id',
    scope: 'homey.zone',
    params: ZoneId,
    errors: ['not_found', 'conflict', 'forbidden'],
    summary: 'Deletes a zone without child zones; the root zone cannot be deleted.',
  }),
} as const;

/** Wire events of the zones manager. */
export const zonesEvents = managerEvents('zones', { events: entityEvents('zone', Zone) });
