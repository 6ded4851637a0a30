import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { ANY_EVENT, eventSchema } from './events';
import { hubEvents, hubOperations } from './hub/index';

const declarations = Object.entries(hubEvents);

describe('wire events, declared beside the operations', () => {
  it('are declared by managers the hub has, each under its own name', () => {
    for (const [key, declaration] of declarations) {
      expect(declaration.manager, key).toBe(key);
      expect(Object.keys(hubOperations), key).toContain(key);
    }
  });

  it('name entity events <type>.create/update/delete, and their items carry a string id', () => {
    // Not items of a list: a notification owner is keyed by its uri, the update state is one object.
    const notItems = new Set(['notifications owner.update', 'updates update.update']);
    for (const [manager, declaration] of declarations) {
      for (const [name, schema] of Object.entries(declaration.events)) {
        const entity = /^[a-z]+\.(create|update|delete)$/.test(name);
        if (!entity || notItems.has(`${manager} ${name}`)) continue;
        const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties;
        expect(properties?.id?.type, `${manager} ${name}`).toBe('string');
      }
    }
  });

  it('find the schema of a declared name, of an undeclared name only where any name is allowed', () => {
    expect(eventSchema(hubEvents.zones, null, 'zone.update')).toBe(hubEvents.zones.events['zone.update']);
    expect(eventSchema(hubEvents.zones, null, 'zone.renamed')).toBeUndefined();
    expect(eventSchema(hubEvents.devices, 'device', 'capability')).toBe(hubEvents.devices.items.device.capability);
    expect(eventSchema(hubEvents.devices, 'zone', 'update')).toBeUndefined();
    expect(eventSchema(hubEvents.apps, 'app', 'anything.at.all')).toBe(hubEvents.apps.items.app[ANY_EVENT]);
    expect(eventSchema(undefined, null, 'zone.update')).toBeUndefined();
  });

  it('describe what the hub sends: a capability event needs its transaction and a number time', () => {
    const capability = hubEvents.devices.items.device.capability;
    expect(Value.Check(capability, { capabilityId: 'onoff', value: true, transactionId: 'x', transactionTime: 1 })).toBe(true);
    expect(Value.Check(capability, { capabilityId: 'onoff', value: true, transactionId: 'x', transactionTime: 'now' })).toBe(
      false,
    );
    expect(Value.Check(hubEvents.zones.events['zone.delete'], { id: 'z' })).toBe(true);
  });
});
