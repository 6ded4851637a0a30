import { randomUUID } from 'node:crypto';
import { HearthError, hubOperations, notFound } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubContext, HubManager, HubPrincipal } from '../../platform/context';
import type { Migration } from '../../store/database';
import { registerCards } from '../flow/registry';
import { type OptionBehaviour, optionHandlers, readOption } from '../options';
import { rowsPerDay } from '../reports/activities';

/** Voices the hub can speak with; `builtIn` ones are installed out of the box and cannot be removed. */
export const voiceCatalogue = [
  { id: 'en-us-female', name: 'Ava', language: 'en', locale: 'en-US', gender: 'female', builtIn: true },
  { id: 'en-gb-male', name: 'Oliver', language: 'en', locale: 'en-GB', gender: 'male', builtIn: false },
  { id: 'nl-nl-female', name: 'Femke', language: 'nl', locale: 'nl-NL', gender: 'female', builtIn: false },
  { id: 'de-de-male', name: 'Lukas', language: 'de', locale: 'de-DE', gender: 'male', builtIn: false },
  { id: 'fr-fr-female', name: 'Camille', language: 'fr', locale: 'fr-FR', gender: 'female', builtIn: false },
] as const;

type VoiceEntry = (typeof voiceCatalogue)[number];

const migrations: Migration[] = [
  {
    id: 'speech-output-001-create',
    up: (db) =>
      db.exec(`CREATE TABLE speech_utterance (
        id TEXT PRIMARY KEY,
        text TEXT NOT NULL,
        voice TEXT NOT NULL,
        session TEXT,
        synthesize INTEGER NOT NULL,
        user_id TEXT,
        created_at TEXT NOT NULL
      )`),
  },
];

const installedKey = 'speech-output.installed';
const installedIds = (context: HubContext): string[] =>
  context.settings.get<string[]>(
    installedKey,
    voiceCatalogue.filter((v) => v.builtIn).map((v) => v.id),
  );

function toVoice(context: HubContext, entry: VoiceEntry) {
  const { builtIn: _builtIn, ...voice } = entry;
  return { ...voice, installed: entry.builtIn || installedIds(context).includes(entry.id) };
}

function findVoice(id: string): VoiceEntry {
  const entry = voiceCatalogue.find((v) => v.id === id);
  if (!entry) throw notFound('Voice', id);
  return entry;
}

const behaviours: Record<string, OptionBehaviour> = {
  voice: {
    default: 'en-us-female',
    check: (value) => {
      if (!voiceCatalogue.some((v) => v.id === value))
        throw new HearthError('invalid_parameter', `Invalid Parameter: value. Unknown voice "${String(value)}"`);
    },
  },
};

interface UtteranceRow {
  id: string;
  text: string;
  voice: string;
  session: string | null;
  synthesize: number;
  created_at: string;
}

const toUtterance = (row: UtteranceRow) => ({
  id: row.id,
  text: row.text,
  voice: row.voice,
  session: row.session,
  synthesize: row.synthesize === 1,
  createdAt: row.created_at,
});

/** Records an utterance (the simulated hub has no speaker) and announces it on the realtime socket. */
function speak(context: HubContext, userId: string, text: string, voice: string, session: string | null, synthesize: boolean) {
  const row: UtteranceRow = {
    id: randomUUID(),
    text,
    voice,
    session,
    synthesize: synthesize ? 1 : 0,
    created_at: new Date().toISOString(),
  };
  context.db
    .prepare(
      'INSERT INTO speech_utterance (id, text, voice, session, synthesize, user_id, created_at) VALUES (@id, @text, @voice, @session, @synthesize, @user_id, @created_at)',
    )
    .run({ ...row, user_id: userId });
  const utterance = toUtterance(row);
  context.events.publish({ uri: 'homey:manager:speech-output', event: 'say', data: utterance, scope: 'homey.speech' });
  return utterance;
}

/** Speech output: the voices, their installation, and `say`. */
export const speechOutputManager: HubManager = {
  name: 'speech-output',
  migrations,
  create: (context, services) => {
    // The monthly reports count this manager's records through its counter.
    services.activities.register('utterances', rowsPerDay(context.db, 'speech_utterance', 'created_at'));
    let stopCards: (() => void) | undefined;
    const setInstalled = (id: string, installed: boolean) => {
      const entry = findVoice(id);
      if (entry.builtIn && !installed) throw new HearthError('conflict', `Voice ${id} is built in and cannot be uninstalled`);
      if (!installed && readOption(context, 'speech-output', 'voice', 'en-us-female') === id)
        throw new HearthError('conflict', `Voice ${id} is the selected voice; choose another voice first`);
      const ids = new Set(installedIds(context));
      if (installed) ids.add(id);
      else ids.delete(id);
      context.settings.set(installedKey, [...ids]);
      const voice = toVoice(context, entry);
      context.events.entity('speech-output', 'voice', 'update', voice, 'homey.speech');
      return voice;
    };
    const currentVoice = () => {
      const id = readOption(context, 'speech-output', 'voice', 'en-us-female');
      const voice = toVoice(context, findVoice(id));
      if (!voice.installed) throw new HearthError('conflict', `Voice ${id} is not installed`);
      return voice;
    };
    return {
      implementations: implement<(typeof hubOperations)['speech-output'], HubPrincipal>(hubOperations['speech-output'], {
        getState: () => {
          const last = context.db.prepare('SELECT * FROM speech_utterance ORDER BY created_at DESC LIMIT 1').get() as
            | UtteranceRow
            | undefined;
          return {
            voice: readOption(context, 'speech-output', 'voice', 'en-us-female'),
            installedVoices: installedIds(context),
            lastUtterance: last ? toUtterance(last) : null,
          };
        },
        ...optionHandlers(context, 'speech-output', hubOperations['speech-output'], behaviours),
        getVoices: () => Object.fromEntries(voiceCatalogue.map((v) => [v.id, toVoice(context, v)])),
        getVoice: ({ params }) => toVoice(context, findVoice(params.id)),
        installVoice: ({ params }) => setInstalled(params.id, true),
        uninstallVoice: ({ params }) => setInstalled(params.id, false),
        playVoiceSample: ({ params, principal }) => {
          const voice = toVoice(context, findVoice(params.id));
          if (!voice.installed) throw new HearthError('conflict', `Voice ${params.id} is not installed`);
          return speak(context, principal.userId, `Hello, I am ${voice.name}.`, voice.id, null, true);
        },
        say: ({ body, principal }) =>
          speak(context, principal.userId, body.text, currentVoice().id, body.session ?? null, body.synthesize ?? true),
      }),
      start: () => {
        stopCards = registerCards(services.flowCards, [
          {
            type: 'action',
            uri: 'homey:manager:speech-output',
            id: 'say',
            title: 'Say something',
            args: [{ name: 'text', type: 'text', title: 'Text' }],
            // A flow speaks on the household's behalf: its owner is who the utterance is recorded for.
            run: ({ args }) => speak(context, context.users.owner()?.id ?? '', String(args.text), currentVoice().id, null, true),
          },
        ]);
      },
      stop: () => stopCards?.(),
    };
  },
};
