import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';
import { ack, connectRealtime, type Realtime } from '../../testing/socket';

describe('logic over the realtime socket', () => {
  let t: TestHub;
  let api: Socket;
  let realtime: Realtime | undefined;
  beforeAll(async () => {
    t = await startTestHub();
    realtime = await connectRealtime(t);
    api = realtime.api;
  });
  afterAll(async () => {
    realtime?.close();
    await t.stop();
  });

  it('creates a variable with the whole-body argument over `api` and delivers variable.create', async () => {
    const events: [string, { id: string }][] = [];
    api.on('homey:manager:logic', (event: string, data: { id: string }) => events.push([event, data]));
    expect((await ack(api, 'subscribe', 'homey:manager:logic'))[0]).toBeFalsy();
    const [error, variable] = (await ack(api, 'api', {
      uri: 'homey:manager:logic',
      operation: 'createVariable',
      args: { variable: { name: 'Over the socket', type: 'n', value: 7 }, $validate: true },
    })) as [unknown, { id: string; name: string; value: number }];
    expect(error).toBeNull();
    expect(variable).toMatchObject({ name: 'Over the socket', type: 'n', value: 7 });
    await expect.poll(() => events.find(([event, data]) => event === 'variable.create' && data.id === variable.id)).toBeTruthy();
    const [refused] = (await ack(api, 'api', {
      uri: 'homey:manager:logic',
      operation: 'createVariable',
      args: { variable: { name: 'Bad', type: 'boolean', value: 'x' } },
    })) as [{ statusCode: number; error_description: string }];
    expect(refused).toMatchObject({ statusCode: 400 });
    expect(refused.error_description).toContain('value');
    const [, fetched] = (await ack(api, 'api', {
      uri: 'homey:manager:logic',
      operation: 'getVariable',
      args: { id: variable.id },
    })) as [unknown, { value: number }];
    expect(fetched.value).toBe(7);
  });
});
