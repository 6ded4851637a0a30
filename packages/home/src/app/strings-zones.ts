/** The zones page's English strings: a part of the catalogue in strings.ts, kept apart to keep that file short. */
const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const names = (list: readonly string[]) => list.join(', ');

export const zoneStrings = {
  title: 'Zones',
  manage: 'Zones',
  intro: 'The rooms and floors of the home. Every device is in one zone; a zone may hold other zones.',
  tree: 'Zones of the home',
  holds: (devices: number, zones: number) =>
    devices === 0 && zones === 0
      ? 'empty'
      : [devices > 0 ? count(devices, 'device', 'devices') : '', zones > 0 ? count(zones, 'zone', 'zones') : '']
          .filter(Boolean)
          .join(', '),
  top: 'the top zone',
  edit: 'Change',
  editName: (name: string) => `Change ${name}`,
  close: 'Done',
  closeName: (name: string) => `Done with ${name}`,
  name: 'Name',
  nameRequired: 'A zone needs a name.',
  rename: 'Rename',
  renamed: (name: string) => `Renamed to ${name}.`,
  parent: 'Inside',
  move: 'Move',
  moved: (name: string, parent: string) => `${name} is now inside ${parent}.`,
  new: 'New zone',
  create: 'Create zone',
  created: (name: string) => `${name} was created.`,
  deleteName: (name: string) => `Delete ${name}`,
  deleteEmpty: (name: string) => `Delete ${name}? It holds no devices and no zones.`,
  deleteQuestion: (name: string) => `Delete ${name}?`,
  devicesMove: (devices: readonly string[], parent: string) =>
    devices.length === 1
      ? `Its device ${devices[0]} moves to ${parent}.`
      : `Its ${devices.length} devices move to ${parent}: ${names(devices)}.`,
  zonesMove: (zones: readonly string[], parent: string) =>
    zones.length === 1
      ? `Its zone ${zones[0]} moves to ${parent}, with everything in it.`
      : `Its ${zones.length} zones move to ${parent}, with everything in them: ${names(zones)}.`,
  deleteConfirm: (name: string) => `Delete ${name} now`,
  keep: 'Keep it',
  deleted: (name: string) => `${name} was deleted.`,
  notDeleted: (name: string, reason: string) => `${name} was not deleted. ${reason}`,
  refused: (name: string, reason: string) => `${name} did not change. ${reason}`,
  topZone: 'This is the top zone of the home: it holds every other zone, so it cannot be moved or deleted.',
} as const;
