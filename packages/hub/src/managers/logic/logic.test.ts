import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HubEvent } from '../../platform/events';
import { startTestHub, type TestHub } from '../../testing/hub';

interface Variable {
  id: string;
  name: string;
  type: string;
  value: string | number | boolean;
}

describe('logic manager', () => {
  let t: TestHub;
  const events: HubEvent[] = [];
  beforeAll(async () => {
    t = await startTestHub();
    t.hub.context.events.on((e) => events.push(e));
  });
  afterAll(() => t.stop());

  it('keeps variables of the older types', async () => {
    const created = await t.call<Variable>('POST', '/logic/variable', { name: 'Counter', type: 'number', value: 3 });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ name: 'Counter', type: 'number', value: 3 });
    const text = await t.call<Variable>('POST', '/logic/variable', { name: 'Mode', type: 'string', value: 'away' });
    const flag = await t.call<Variable>('POST', '/logic/variable', { name: 'Guests', type: 'boolean', value: false });
    expect(flag.body.value).toBe(false);
    const updated = await t.call<Variable>('PUT', `/logic/variable/${created.body.id}`, { value: 4 });
    expect(updated.body.value).toBe(4);
    const retyped = await t.call<Variable>('PUT', `/logic/variable/${text.body.id}`, { type: 'boolean', value: true });
    expect(retyped.body).toMatchObject({ type: 'boolean', value: true });
    const list = await t.call<Record<string, Variable>>('GET', '/logic/variable');
    expect(Object.keys(list.body)).toHaveLength(3);
    expect((await t.call<Variable>('GET', `/logic/variable/${created.body.id}`)).body.value).toBe(4);
    expect(events.map((e) => e.event)).toEqual(expect.arrayContaining(['variable.create', 'variable.update']));
    expect((await t.call('DELETE', `/logic/variable/${flag.body.id}`)).status).toBe(204);
    expect(events.some((e) => e.event === 'variable.delete' && (e.data as Variable).id === flag.body.id)).toBe(true);
    expect((await t.call<{ variables: number }>('GET', '/logic/state')).body.variables).toBe(2);
  });

  it('keeps variables of the newer single-letter types, whose values are numbers', async () => {
    const created = await t.call<Variable>('POST', '/logic/variable', { name: 'Level', type: 'n', value: 12.5 });
    expect(created.body).toMatchObject({ type: 'n', value: 12.5 });
    const wrong = await t.call<{ error_description: string }>('POST', '/logic/variable', { name: 'Bad', type: 'b', value: 'x' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error_description).toContain('value');
  });

  it('refuses values that do not match the type and missing fields, naming the field', async () => {
    const mismatch = await t.call<{ error: string; error_description: string }>('POST', '/logic/variable', {
      name: 'X',
      type: 'number',
      value: 'three',
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error_description).toContain('value');
    const noValue = await t.call<{ error_description: string }>('POST', '/logic/variable', { name: 'X', type: 'number' });
    expect(noValue.body.error_description).toBe('Missing Parameter: value');
    const noName = await t.call<{ error_description: string }>('POST', '/logic/variable', { type: 'number', value: 1 });
    expect(noName.body.error_description).toBe('Missing Parameter: name');
    const badType = await t.call<{ error_description: string }>('POST', '/logic/variable', { name: 'X', type: 'date', value: 1 });
    expect(badType.status).toBe(400);
    expect(badType.body.error_description).toContain('type');
    const created = await t.call<Variable>('POST', '/logic/variable', { name: 'Y', type: 'number', value: 1 });
    const retypeOnly = await t.call<{ error_description: string }>('PUT', `/logic/variable/${created.body.id}`, {
      type: 'string',
    });
    expect(retypeOnly.status).toBe(400);
    expect(retypeOnly.body.error_description).toContain('value');
    expect((await t.call('GET', '/logic/variable/nope')).status).toBe(404);
    expect((await t.call('PUT', '/logic/variable/nope', { value: 1 })).status).toBe(404);
    expect((await t.call('DELETE', '/logic/variable/nope')).status).toBe(404);
  });

  it('records webhook calls with their tag and announces them', async () => {
    const call = await t.call<{ event: string; tag: string | null }>('GET', '/logic/webhook/doorbell?tag=front');
    expect(call.body).toMatchObject({ event: 'doorbell', tag: 'front' });
    expect(events.some((e) => e.event === 'webhook' && (e.data as { tag: string }).tag === 'front')).toBe(true);
    expect((await t.call<{ tag: string | null }>('GET', '/logic/webhook/doorbell')).body.tag).toBeNull();
    expect((await t.call('GET', '/logic/webhook/doorbell', undefined, null)).status).toBe(401);
  });
});
