import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHub, type TestHub } from '../../testing/hub';

describe('speech-output manager', () => {
  let t: TestHub;
  beforeAll(async () => {
    t = await startTestHub();
  });
  afterAll(() => t.stop());

  it('lists voices, installs one, selects it and says a text with it', async () => {
    const voices = await t.call<Record<string, { installed: boolean; gender: string }>>('GET', '/speech-output/voice');
    expect(voices.body['en-us-female']?.installed).toBe(true);
    expect(voices.body['nl-nl-female']?.installed).toBe(false);
    expect((await t.call('PUT', '/speech-output/option/voice', { value: 'nl-nl-female' })).status).toBe(200);
    expect((await t.call('POST', '/speech-output/say', { text: 'Hallo' })).status).toBe(409);
    const installed = await t.call<{ installed: boolean }>('POST', '/speech-output/voice/nl-nl-female/install', {});
    expect(installed.body.installed).toBe(true);
    const said = await t.call<{ id: string; text: string; voice: string }>('POST', '/speech-output/say', { text: 'Hallo' });
    expect(said.body).toMatchObject({ text: 'Hallo', voice: 'nl-nl-female' });
    const row = t.hub.context.db.prepare('SELECT text FROM speech_utterance WHERE id = ?').get(said.body.id);
    expect(row).toEqual({ text: 'Hallo' });
    const sample = await t.call<{ voice: string }>('POST', '/speech-output/voice/nl-nl-female/sample', {});
    expect(sample.body.voice).toBe('nl-nl-female');
    expect((await t.call('POST', '/speech-output/voice/nl-nl-female/uninstall', {})).status).toBe(409);
    await t.call('DELETE', '/speech-output/option/voice');
    expect((await t.call('GET', '/speech-output/option/voice')).body).toEqual({ value: 'en-us-female' });
    const removed = await t.call<{ installed: boolean }>('POST', '/speech-output/voice/nl-nl-female/uninstall', {});
    expect(removed.body.installed).toBe(false);
    expect((await t.call<{ name: string }>('GET', '/speech-output/voice/en-gb-male')).body.name).toBe('Oliver');
    const state = await t.call<{ lastUtterance: { text: string } }>('GET', '/speech-output/state');
    expect(state.body.lastUtterance.text).toContain('Hello');
  });

  it('validates and answers 404 for unknown voices', async () => {
    const empty = await t.call<{ error_description: string }>('POST', '/speech-output/say', { text: '' });
    expect(empty.status).toBe(400);
    expect(empty.body.error_description).toContain('text');
    const longSession = await t.call<{ error_description: string }>('POST', '/speech-output/say', {
      text: 'Hi',
      session: 'x'.repeat(201),
    });
    expect(longSession.status).toBe(400);
    expect(longSession.body.error_description).toContain('session');
    expect((await t.call('GET', '/speech-output/voice/xx')).status).toBe(404);
    expect((await t.call('POST', '/speech-output/voice/xx/install', {})).status).toBe(404);
    expect((await t.call('PUT', '/speech-output/option/voice', { value: 'xx' })).status).toBe(400);
    expect((await t.call('POST', '/speech-output/voice/en-us-female/uninstall', {})).status).toBe(409);
  });
});
