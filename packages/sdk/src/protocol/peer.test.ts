import { describe, expect, it } from 'vitest';
import { type Envelope, Peer, RemoteError } from './peer';

type Methods = { add: { params: { a: number; b: number }; result: number }; fail: { params: null; result: null } };
type Events = { note: string };

/** Two peers joined back to back, as a hub and an app are over IPC (messages cross asynchronously). */
function pair(
  options: { timeoutMs?: number; check?: (kind: 'request' | 'event', name: string, data: unknown) => string | null } = {},
) {
  let aliveA = true;
  const a: Peer<Methods, Methods, Events, Events> = new Peer({
    send: (m: Envelope) => {
      if (!aliveA) return false;
      queueMicrotask(() => b.receive(structuredClone(m)));
      return true;
    },
    timeoutMs: options.timeoutMs ?? 1_000,
  });
  const b: Peer<Methods, Methods, Events, Events> = new Peer({
    send: (m: Envelope) => {
      queueMicrotask(() => a.receive(structuredClone(m)));
      return true;
    },
    timeoutMs: 1_000,
    check: options.check,
  });
  return { a, b, cut: () => (aliveA = false) };
}

describe('Peer', () => {
  it('answers calls, carries errors with their code, and delivers events', async () => {
    const { a, b } = pair();
    b.handle('add', ({ a: x, b: y }) => x + y);
    b.handle('fail', () => {
      throw Object.assign(new Error('nope'), { code: 'not_found' });
    });
    const notes: string[] = [];
    b.on('note', (text) => notes.push(text));
    await expect(a.call('add', { a: 2, b: 3 })).resolves.toBe(5);
    const error = await a.call('fail', null).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RemoteError);
    expect(error).toMatchObject({ message: 'nope', code: 'not_found' });
    a.emit('note', 'hello');
    await new Promise((resolve) => setImmediate(resolve));
    expect(notes).toEqual(['hello']);
    expect(a.pending).toBe(0);
  });

  it('times a call out, refuses unknown and invalid requests, and fails waiting calls when the other end goes', async () => {
    const { a, b, cut } = pair({
      timeoutMs: 30,
      check: (_kind, name, data) => (name === 'add' && typeof data !== 'object' ? 'Invalid Parameter: add' : null),
    });
    b.handle('add', () => new Promise(() => {}));
    await expect(a.call('add', { a: 1, b: 1 })).rejects.toMatchObject({
      code: 'timeout',
      message: 'No answer to add within 30 ms',
    });
    await expect(a.call('fail', null)).rejects.toMatchObject({ code: 'invalid_parameter', message: 'Unknown call: fail' });
    await expect(a.call('add', 7 as never)).rejects.toMatchObject({
      code: 'invalid_parameter',
      message: 'Invalid Parameter: add',
    });
    const waiting = a.call('add', { a: 1, b: 2 }, 10_000);
    a.close(new RemoteError({ code: 'unavailable', message: 'gone' }));
    await expect(waiting).rejects.toMatchObject({ code: 'unavailable' });
    cut();
    await expect(a.call('add', { a: 1, b: 2 })).rejects.toMatchObject({ code: 'unavailable' });
  });
});
