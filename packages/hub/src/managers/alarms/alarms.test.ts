import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addLocalDays } from '../../platform/calendar';
import type { HubEvent } from '../../platform/events';
import { startTestHub, type TestHub } from '../../testing/hub';
import { hostTimezone } from '../i18n/timezone';

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

interface Alarm {
  id: string;
  name: string;
  time: string;
  enabled: boolean;
  nextOccurance: string | null;
  repetition: typeof noDays;
}

describe('alarms manager', () => {
  let t: TestHub;
  const events: HubEvent[] = [];
  beforeAll(async () => {
    t = await startTestHub();
    t.hub.context.events.on((event) => events.push(event));
  });
  afterAll(() => t.stop());

  it('computes nextOccurance from the time and weekdays in local time', async () => {
    const created = await t.call<Alarm>('POST', '/alarms/alarm', {
      name: 'Wake up',
      time: '07:30',
      repetition: { ...noDays, monday: true },
    });
    expect(created.status).toBe(200);
    const next = new Date(created.body.nextOccurance as string);
    expect(next.getDay()).toBe(1);
    expect([next.getHours(), next.getMinutes()]).toEqual([7, 30]);
    expect(next.getTime()).toBeGreaterThan(Date.now());
    // Within a week of local days (a week holding the autumn clock change has 169 hours).
    expect(next.getTime()).toBeLessThanOrEqual(addLocalDays(Date.now(), 7, hostTimezone()));
    expect(events.some((e) => e.event === 'alarm.create' && (e.data as Alarm).id === created.body.id)).toBe(true);

    const disabled = await t.call<Alarm>('PUT', `/alarms/alarm/${created.body.id}`, { enabled: false });
    expect(disabled.body).toMatchObject({ enabled: false, nextOccurance: null, name: 'Wake up' });
    const moved = await t.call<Alarm>('PUT', `/alarms/alarm/${created.body.id}`, {
      enabled: true,
      repetition: { ...noDays, saturday: true },
    });
    expect(new Date(moved.body.nextOccurance as string).getDay()).toBe(6);
    expect((await t.call<Alarm>('GET', `/alarms/alarm/${created.body.id}`)).body.repetition.saturday).toBe(true);
    const list = await t.call<Record<string, Alarm>>('GET', '/alarms/alarm');
    expect(Object.keys(list.body)).toContain(created.body.id);
    expect((await t.call<{ count: number }>('GET', '/alarms/state')).body.count).toBe(1);
    expect((await t.call('DELETE', `/alarms/alarm/${created.body.id}`)).status).toBe(204);
    expect((await t.call('GET', `/alarms/alarm/${created.body.id}`)).status).toBe(404);
  });

  it('goes off at its time with a fire event, then switches a one-off alarm off', async () => {
    const at = new Date(Date.now() + 2000);
    const created = await t.call<Alarm>('POST', '/alarms/alarm', { name: 'Soon', time: localTime(at), repetition: noDays });
    expect(new Date(created.body.nextOccurance as string).getTime()).toBe(Math.floor(at.getTime() / 1000) * 1000);
    await expect
      .poll(() => events.find((e) => e.event === 'alarm.fire' && (e.data as Alarm).id === created.body.id), { timeout: 6000 })
      .toBeTruthy();
    const fired = events.find((e) => e.event === 'alarm.fire') as HubEvent;
    expect(fired.uri).toBe('homey:manager:alarms');
    await expect
      .poll(() =>
        events.find((e) => e.event === 'alarm.update' && (e.data as Alarm).id === created.body.id && !(e.data as Alarm).enabled),
      )
      .toBeTruthy();
    expect((await t.call<Alarm>('GET', `/alarms/alarm/${created.body.id}`)).body).toMatchObject({
      enabled: false,
      nextOccurance: null,
    });
  });

  it('refuses an alarm without all seven weekdays, a bad time or a missing name, naming the field', async () => {
    const { sunday: _sunday, ...sixDays } = noDays;
    const missingDay = await t.call<{ error_description: string }>('POST', '/alarms/alarm', {
      name: 'x',
      time: '07:00',
      repetition: sixDays,
    });
    expect(missingDay.status).toBe(400);
    expect(missingDay.body.error_description).toBe('Missing Parameter: repetition.sunday');
    const notBoolean = await t.call<{ error_description: string }>('POST', '/alarms/alarm', {
      name: 'x',
      time: '07:00',
      repetition: { ...noDays, monday: 'yes' },
    });
    expect(notBoolean.status).toBe(400);
    expect(notBoolean.body.error_description).toContain('repetition.monday');
    const badTime = await t.call<{ error_description: string }>('POST', '/alarms/alarm', {
      name: 'x',
      time: '25:00',
      repetition: noDays,
    });
    expect(badTime.status).toBe(400);
    expect(badTime.body.error_description).toContain('time');
    const noName = await t.call<{ error_description: string }>('POST', '/alarms/alarm', { time: '07:00', repetition: noDays });
    expect(noName.body.error_description).toBe('Missing Parameter: name');
    const badUpdate = await t.call('PUT', '/alarms/alarm/unknown', { name: 'x' });
    expect(badUpdate.status).toBe(404);
    expect((await t.call('DELETE', '/alarms/alarm/unknown')).status).toBe(404);
  });

  it('refuses an update whose repetition lacks a weekday, leaving the stored alarm as it was', async () => {
    const created = await t.call<Alarm>('POST', '/alarms/alarm', {
      name: 'Weekend',
      time: '09:00',
      repetition: { ...noDays, sunday: true },
    });
    const path = `/alarms/alarm/${created.body.id}`;
    const updatesBefore = events.filter((e) => e.event === 'alarm.update').length;
    const { sunday: _sunday, ...sixDays } = noDays;
    const missingDay = await t.call<{ error: string; error_description: string }>('PUT', path, {
      name: 'Renamed',
      repetition: { ...sixDays, monday: true },
    });
    expect(missingDay.status).toBe(400);
    expect(missingDay.body.error).toBe('missing_parameter');
    expect(missingDay.body.error_description).toBe('Missing Parameter: repetition.sunday');
    expect((await t.call<Alarm>('GET', path)).body).toEqual(created.body);
    expect(events.filter((e) => e.event === 'alarm.update').length).toBe(updatesBefore);
  });
});
