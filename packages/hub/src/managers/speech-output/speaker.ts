import { randomUUID } from 'node:crypto';
import { HearthError, notFound } from '@hearth/contract';
import type { HubContext } from '../../platform/context';
import { readOption } from '../options';

/** Voices the hub can speak with; `builtIn` ones are installed out of the box and cannot be removed. */
export const voiceCatalogue = [
  { id: 'en-us-female', name: 'Ava', language: 'en', locale: 'en-US', gender: 'female', builtIn: true },
  { id: 'en-gb-male', name: 'Oliver', language: 'en', locale: 'en-GB', gender: 'male', builtIn: false },
  { id: 'nl-nl-female', name: 'Femke', language: 'nl', locale: 'nl-NL', gender: 'female', builtIn: false },
  { id: 'de-de-male', name: 'Lukas', language: 'de', locale: 'de-DE', gender: 'male', builtIn: false },
  { id: 'fr-fr-female', name: 'Camille', language: 'fr', locale: 'fr-FR', gender: 'female', builtIn: false },
] as const;

export type VoiceEntry = (typeof voiceCatalogue)[number];

export const installedKey = 'speech-output.installed';
export const installedIds = (context: HubContext): string[] =>
  context.settings.get<string[]>(
    installedKey,
    voiceCatalogue.filter((v) => v.builtIn).map((v) => v.id),
  );

export function toVoice(context: HubContext, entry: VoiceEntry) {
  const { builtIn: _builtIn, ...voice } = entry;
  return { ...voice, installed: entry.builtIn || installedIds(context).includes(entry.id) };
}

export function findVoice(id: string): VoiceEntry {
  const entry = voiceCatalogue.find((v) => v.id === id);
  if (!entry) throw notFound('Voice', id);
  return entry;
}

export interface UtteranceRow {
  id: string;
  text: string;
  voice: string;
  session: string | null;
  synthesize: number;
  created_at: string;
}

export const toUtterance = (row: UtteranceRow) => ({
  id: row.id,
  text: row.text,
  voice: row.voice,
  session: row.session,
  synthesize: row.synthesize === 1,
  createdAt: row.created_at,
});

/**
 * What the hub says: an utterance in the selected voice, recorded (the simulated hub has no speaker) and announced
 * on the realtime socket. The speech manager, flows and apps (`homey.speechOutput.say`) all speak through it.
 */
export class Speaker {
  constructor(private readonly context: HubContext) {}

  /** The selected voice; refused when it is not installed. */
  currentVoice() {
    const id = readOption(this.context, 'speech-output', 'voice', 'en-us-female');
    const voice = toVoice(this.context, findVoice(id));
    if (!voice.installed) throw new HearthError('conflict', `Voice ${id} is not installed`);
    return voice;
  }

  /** Says `text` for `userId` (the household's owner for flows and apps). */
  say(userId: string, text: string, options: { voice?: string; session?: string | null; synthesize?: boolean } = {}) {
    const { context } = this;
    const row: UtteranceRow = {
      id: randomUUID(),
      text,
      voice: options.voice ?? this.currentVoice().id,
      session: options.session ?? null,
      synthesize: (options.synthesize ?? true) ? 1 : 0,
      created_at: new Date(context.clock.now()).toISOString(),
    };
    context.db
      .prepare(
        'INSERT INTO speech_utterance (id, text, voice, session, synthesize, user_id, created_at) VALUES (@id, @text, @voice, @session, @synthesize, @user_id, @created_at)',
      )
      .run({ ...row, user_id: userId });
    const utterance = toUtterance(row);
    context.events.manager('speech-output', 'say', utterance, 'homey.speech');
    return utterance;
  }
}
