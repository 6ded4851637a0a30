import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';

interface Token {
  id: string;
  ownerUri: string;
  title: string;
  type: string;
  value: unknown;
  uriObj: { type: string; id: string };
}

describe('flowtoken manager', () => {
  let t: TestHub;
  beforeAll(async () => {
    t = await startTestHub();
  });
  afterAll(() => t.stop());

  it('offers the logic variables as tokens, with their live values', async () => {
    const variable = await t.call<{ id: string }>('POST', '/logic/variable', {
      name: 'Temperature goal',
      type: 'number',
      value: 21,
    });
    const fullId = `homey:manager:logic|${variable.body.id}`;
    const list = await t.call<Record<string, Token>>('GET', '/flowtoken/flowtoken');
    expect(list.body[fullId]).toMatchObject({
      id: fullId,
      ownerUri: 'homey:manager:logic',
      title: 'Temperature goal',
      type: 'number',
      value: 21,
    });
    expect(list.body[fullId]?.uriObj).toMatchObject({ type: 'manager', id: 'logic' });
    const one = await t.call<Token>('GET', `/flowtoken/flowtoken/${encodeURIComponent(fullId)}`);
    expect(one.body.title).toBe('Temperature goal');
    const byUri = await t.call<Token>('GET', `/flowtoken/flowtoken/homey:manager:logic/${variable.body.id}`);
    expect(byUri.body.id).toBe(fullId);
    await t.call('PUT', `/logic/variable/${variable.body.id}`, { value: 19 });
    expect((await t.call('GET', `/flowtoken/flowtoken/${encodeURIComponent(fullId)}/value`)).body).toBe(19);
    expect((await t.call<{ tokens: number }>('GET', '/flowtoken/state')).body.tokens).toBe(1);
  });

  it('answers 404 for unknown tokens', async () => {
    expect((await t.call('GET', '/flowtoken/flowtoken/nothing')).status).toBe(404);
    expect((await t.call('GET', `/flowtoken/flowtoken/${encodeURIComponent('homey:manager:logic|x')}/value`)).status).toBe(404);
    expect((await t.call('GET', '/flowtoken/flowtoken/homey:manager:logic/x')).status).toBe(404);
  });
});
