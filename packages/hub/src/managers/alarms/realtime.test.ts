import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';
import { ack, connectRealtime, type Realtime } from '../../testing/socket';

const noDays = {
  monday: false,
  tuesday: false,
  wednesday: false,
  thursday: false,
  friday: false,
  saturday: false,
  sunday: false,
};
const pad = (n: number) => String(n).padStart(2, '0');
const localTime = (date: Date) => `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;

/** Connects as the ecosystem's client does and subscribes to the alarms manager; answers its events and any refusal. */
async function subscribe(t: TestHub, token: string, connections: Realtime[]) {
  const connection = await connectRealtime(t, token);
  connections.push(connection);
  const { api } = connection;
  const events: [string, { id: string; enabled?: boolean }][] = [];
  api.on('homey:manager:alarms', (event: string, data: { id: string }) => events.push([event, data]));
  const [refused] = await ack(api, 'subscribe', 'homey:manager:alarms');
  return { events, refused };
}

describe('alarms over the realtime socket', () => {
  let t: TestHub;
  const connections: Realtime[] = [];
  beforeAll(async () => {
    t = await startTestHub();
  });
  afterAll(async () => {
    for (const connection of connections) connection.close();
    await t.stop();
  });

  it('delivers alarm.create, alarm.fire and alarm.update to sessions that may read alarms, and to no one else', async () => {
    const owner = t.hub.context.users.owner()?.id as string;
    const reader = t.hub.context.sessions.create({ type: 'PAT', userId: owner, scopes: ['homey.alarm.readonly'] }).token;
    const stranger = t.hub.context.sessions.create({ type: 'PAT', userId: owner, scopes: ['homey.zone.readonly'] }).token;
    const { events: seen, refused } = await subscribe(t, reader, connections);
    expect(refused).toBeFalsy();
    const other = await subscribe(t, stranger, connections);
    expect(other.refused).toMatchObject({ error: 'missing_scopes' });

    const at = new Date(Date.now() + 2000);
    const created = await t.call<{ id: string }>('POST', '/alarms/alarm', {
      name: 'Now',
      time: localTime(at),
      repetition: noDays,
    });
    const names = () => seen.filter(([, data]) => data.id === created.body.id).map(([event]) => event);
    await expect.poll(names, { timeout: 6000 }).toEqual(['alarm.create', 'alarm.fire', 'alarm.update']);
    expect(seen.at(-1)?.[1].enabled).toBe(false);
    expect(other.events).toEqual([]);
  });
});
