import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { DomainEvents } from '../../core/bus';
import { FakeClock } from '../../core/clock';
import type { HubEvent } from '../../platform/events';
import { startTestHub } from '../../testing/hub';

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
/** `HH:mm` of an instant in the hub's (the process's) local time. */
const localTime = (at: number) => {
  const date = new Date(at);
  return `${pad(date.getHours())}:${pad(date.getMinutes())}`;
};

interface Alarm {
  id: string;
  enabled: boolean;
  nextOccurance: string | null;
}

describe('alarms on the hub clock and the durable scheduler', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'hearth-alarms-'));
  const id = randomBytes(12).toString('hex');
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('goes off when the clock reaches its time, without real waiting, and a one-off alarm switches off', async () => {
    // A whole minute on a fixed day with no clock change, so the alarm's HH:mm is exact and names one instant.
    const clock = new FakeClock(Date.parse('2027-05-12T09:00:00Z'));
    const t = await startTestHub({ id, dataDir }, { clock });
    const wire: HubEvent[] = [];
    const due: DomainEvents['alarm.due'][] = [];
    t.hub.context.events.on((event) => wire.push(event));
    t.hub.context.bus.on('alarm.due', 'test', (event) => due.push(event));
    const at = clock.now() + 5 * 60_000;
    const created = await t.call<Alarm>('POST', '/alarms/alarm', { name: 'Tea', time: localTime(at), repetition: noDays });
    expect(Date.parse(created.body.nextOccurance as string)).toBe(at);
    expect(t.hub.context.scheduler.list({ owner: `alarm:${created.body.id}` })).toHaveLength(1);

    await clock.set(at - 1);
    expect(due).toEqual([]);
    await clock.set(at);
    expect(due).toEqual([{ alarmId: created.body.id, name: 'Tea', at }]);
    expect(wire.some((e) => e.event === 'alarm.fire' && (e.data as Alarm).id === created.body.id)).toBe(true);
    expect((await t.call<Alarm>('GET', `/alarms/alarm/${created.body.id}`)).body).toMatchObject({
      enabled: false,
      nextOccurance: null,
    });
    expect(t.hub.context.scheduler.list({ owner: `alarm:${created.body.id}` })).toEqual([]);
    await t.stop();
  });

  it('does not replay an occurrence missed while the hub was off: it records it and moves the alarm on', async () => {
    // A fixed day with no clock change: on the night clocks go back, a local time in the repeated hour is due only at
    // its first pass (as cron has it), so "ten minutes from now" would not be the next occurrence there.
    const clock = new FakeClock(Date.parse('2027-06-15T10:00:00Z'));
    const first = await startTestHub({ id, dataDir }, { clock });
    const at = clock.now() + 10 * 60_000;
    const everyDay = Object.fromEntries(Object.keys(noDays).map((day) => [day, true]));
    const created = await first.call<Alarm>('POST', '/alarms/alarm', {
      name: 'Daily',
      time: localTime(at),
      repetition: everyDay,
    });
    expect(Date.parse(created.body.nextOccurance as string)).toBe(at);
    await first.stop();

    await clock.set(at + 30 * 60_000); // the hub was off when the alarm was due, and comes back half an hour late
    const second = await startTestHub({ id, dataDir }, { clock });
    const due: unknown[] = [];
    second.hub.context.bus.on('alarm.due', 'test', (event) => due.push(event));
    await clock.advance(0);
    expect(due).toEqual([]);
    const moved = (await second.call<Alarm>('GET', `/alarms/alarm/${created.body.id}`)).body;
    expect(moved.enabled).toBe(true);
    expect(Date.parse(moved.nextOccurance as string)).toBe(at + 24 * 3_600_000);
    const missed = second.hub.context.scheduler.missed();
    expect(missed.find((m) => m.owner === `alarm:${created.body.id}`)?.lateByMs).toBe(30 * 60_000);
    await second.stop();
  });
});
