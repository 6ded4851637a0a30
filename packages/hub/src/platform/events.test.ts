import { describe, expect, it } from 'vitest';
import { type HubEvent, HubEvents, UndeclaredWireEvent } from './events';

const zone = { id: 'z1', name: 'Attic', order: 0, parent: 'root', active: false, activeLastUpdated: null, icon: 'attic' };

function recorder(events: HubEvents) {
  const seen: HubEvent[] = [];
  events.on((event) => seen.push(event));
  return seen;
}

describe('wire events, typed and checked from the contract', () => {
  it('publishes declared events on the manager URI and on item URIs', () => {
    const events = new HubEvents({ check: true });
    const seen = recorder(events);
    events.entity('zones', 'zone', 'create', zone, 'homey.zone.readonly');
    events.item(
      'devices',
      'device',
      'd1',
      'capability',
      { capabilityId: 'onoff', value: true, transactionId: 't1', transactionTime: 1 },
      'homey.device.readonly',
    );
    // An app's own events are any name on its URI.
    events.item('apps', 'app', 'com.example', 'my.event', { anything: 1 }, 'homey.app.readonly');
    expect(seen.map((e) => [e.uri, e.event])).toEqual([
      ['homey:manager:zones', 'zone.create'],
      ['homey:device:d1', 'capability'],
      ['homey:app:com.example', 'my.event'],
    ]);
    expect(events.violations).toEqual([]);
  });

  it('refuses, and records, an event the contract does not declare or a payload that does not match', () => {
    const events = new HubEvents({ check: true });
    const seen = recorder(events);
    // The compiler refuses both; the casts stand for code that got past it (JSON from elsewhere, a wrong cast).
    expect(() => events.manager('zones', 'zone.renamed' as never, zone as never, null)).toThrow(UndeclaredWireEvent);
    expect(() => events.entity('zones', 'zone', 'update', { ...zone, name: 42 } as never, null)).toThrow(
      /homey:manager:zones zone.update does not match its declaration: \/name/,
    );
    expect(() => events.item('devices', 'device', 'd1', 'capability', { capabilityId: 'onoff' } as never, null)).toThrow(
      /capability does not match/,
    );
    expect(seen).toEqual([]);
    expect(events.violations).toHaveLength(3);
  });

  it('checks a lazy payload when it is made, and makes it only when read', () => {
    const events = new HubEvents({ check: true });
    const seen = recorder(events);
    let made = 0;
    events.managerLazy(
      'zones',
      'zone.update',
      () => {
        made += 1;
        return { ...zone, order: 'first' } as never;
      },
      null,
    );
    expect(made).toBe(0);
    expect(() => seen[0]?.data).toThrow(UndeclaredWireEvent);
    expect(made).toBe(1);
    expect(events.violations).toHaveLength(1);
  });

  it('costs no check when checking is off', () => {
    const events = new HubEvents();
    const seen = recorder(events);
    events.entity('zones', 'zone', 'update', { ...zone, name: 42 } as never, null);
    expect(seen).toHaveLength(1);
    expect(events.violations).toEqual([]);
  });
});
