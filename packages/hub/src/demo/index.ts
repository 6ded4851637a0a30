import { seedDemoHub as seedDemoDevices } from '../runtime/seed';
import type { Hub } from '../server';
import { seedAppFlows } from './app-flows';

/**
 * Seeds the demo world of ARCHITECTURE.md into a hub on its first start: a home of zones, people, variables,
 * alarms, flows, then apps, devices and insights history. It goes through the hub's own API (in-process), so the demo only ever holds what a user
 * could have made and every rule of the API applies to it.
 */
export async function seedDemoHub(hub: Hub): Promise<void> {
  const { settings } = hub.context;
  if (settings.get('demo.seeded', false)) return;
  // Replaced by the token `npm start` prints right after seeding.
  const token = hub.issueOwnerToken();
  const api = async <T>(method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown): Promise<T> => {
    const answer = await hub.app.inject({
      method,
      url: `/api/manager${url}`,
      headers: { authorization: `Bearer ${token}`, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
      payload: payload === undefined ? undefined : JSON.stringify(payload),
    });
    if (answer.statusCode >= 400) throw new Error(`demo seed: ${method} ${url} answered ${answer.statusCode} ${answer.body}`);
    return (answer.body ? answer.json() : undefined) as T;
  };

  const { rootZoneId } = await api<{ rootZoneId: string }>('GET', '/zones/state');
  await api('PUT', `/zones/zone/${rootZoneId}`, { name: hub.context.config.name });
  const zoneIds: Record<string, string> = {};
  for (const [name, icon, parent] of [
    ['Ground floor', 'floor', null],
    ['Living room', 'livingRoom', 'Ground floor'],
    ['Kitchen', 'kitchen', 'Ground floor'],
    ['Hallway', 'hallway', 'Ground floor'],
    ['First floor', 'floor', null],
    ['Bedroom', 'bedroom', 'First floor'],
    ['Bathroom', 'bathroom', 'First floor'],
    ['Office', 'office', 'First floor'],
    ['Garden', 'garden', null],
  ] as const) {
    const zone = await api<{ id: string }>('POST', '/zones/zone', { name, icon, parent: parent ? zoneIds[parent] : rootZoneId });
    zoneIds[name] = zone.id;
  }

  for (const [name, role] of [
    ['Alex', 'manager'],
    ['Sam', 'user'],
    ['Visitor', 'guest'],
  ] as const) {
    await api('POST', '/users/user', { name, role });
  }

  for (const variable of [
    { name: 'Away mode', type: 'boolean', value: false },
    { name: 'Comfort temperature', type: 'number', value: 21 },
    { name: 'Last visitor', type: 'string', value: '' },
  ]) {
    await api('POST', '/logic/variable', variable);
  }

  const weekdays = { monday: true, tuesday: true, wednesday: true, thursday: true, friday: true, saturday: false, sunday: false };
  const weekend = {
    monday: false,
    tuesday: false,
    wednesday: false,
    thursday: false,
    friday: false,
    saturday: true,
    sunday: true,
  };
  await api('POST', '/alarms/alarm', { name: 'Wake up', time: '07:00', enabled: true, repetition: weekdays });
  await api('POST', '/alarms/alarm', { name: 'Weekend lie-in', time: '09:30', enabled: false, repetition: weekend });

  const folder = await api<{ id: string }>('POST', '/flow/flowfolder', { name: 'Lighting' });
  const security = await api<{ id: string }>('POST', '/flow/flowfolder', { name: 'Security' });
  await seedDemoFlows(api, folder.id);
  // Apps (one out of date, one that crashes), devices in these zones and two weeks of insights history.
  seedDemoDevices(hub, { historyDays: 14 });
  // Then flows that use the apps' own cards (once the apps run and offer them).
  await seedAppFlows(hub, api, { lighting: folder.id, security: security.id });

  settings.set('demo.seeded', true);
}

type Api = <T>(method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) => Promise<T>;

interface CardArg {
  name: string;
  type: string;
  values?: { id: string }[];
}

interface Card {
  uri: string;
  id: string;
  args?: CardArg[];
}

/** Argument values a person could have entered for a card, e.g. the text of a notification. */
function fillArgs(card: Card, text: string): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const arg of card.args ?? []) {
    if (arg.type === 'number' || arg.type === 'range') values[arg.name] = 1;
    else if (arg.type === 'checkbox') values[arg.name] = true;
    else if (arg.type === 'dropdown') values[arg.name] = arg.values?.[0]?.id ?? '';
    else values[arg.name] = text;
  }
  return values;
}

/** Flows built from cards the hub really offers, so they are not broken. */
async function seedDemoFlows(api: Api, folderId: string): Promise<void> {
  const triggers = Object.values(await api<Record<string, Card>>('GET', '/flow/flowcardtrigger'));
  const actions = Object.values(await api<Record<string, Card>>('GET', '/flow/flowcardaction'));
  const trigger = triggers.find((card) => (card.args ?? []).length === 0);
  const action = actions.find((card) => card.id === 'create_notification') ?? actions[0];
  if (!trigger || !action) throw new Error('demo seed: the hub offers no flow cards');
  await api('POST', '/flow/flow', {
    name: 'Welcome home',
    enabled: true,
    folder: folderId,
    trigger: { uri: trigger.uri, id: trigger.id, args: {} },
    conditions: [],
    actions: [{ uri: action.uri, id: action.id, args: fillArgs(action, 'Welcome home!'), group: 'then' }],
  });
  await api('POST', '/flow/flow', {
    name: 'Evening routine',
    enabled: false,
    folder: folderId,
    trigger: { uri: trigger.uri, id: trigger.id, args: {} },
    conditions: [],
    actions: [
      {
        uri: action.uri,
        id: action.id,
        args: fillArgs(action, 'Time to wind down'),
        group: 'then',
        delay: { multiplier: 60, number: '5' },
      },
    ],
  });
}
