import { HearthError, hubOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubManager, HubPrincipal } from '../../platform/context';
import type { Migration } from '../../store/database';
import { registerCards } from '../flow/registry';
import { type OptionBehaviour, optionHandlers, readOption } from '../options';
import { rowsPerDay } from '../reports/activities';
import { findVoice, installedIds, installedKey, toUtterance, toVoice, type UtteranceRow, voiceCatalogue } from './speaker';

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

const behaviours: Record<string, OptionBehaviour> = {
  voice: {
    default: 'en-us-female',
    check: (value) => {
      if (!voiceCatalogue.some((v) => v.id === value))
        throw new HearthError('invalid_parameter', `Invalid Parameter: value. Unknown voice "${String(value)}"`);
    },
  },
};

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
    const { speech } = services;
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
          return speech.say(principal.userId, `Hello, I am ${voice.name}.`, { voice: voice.id });
        },
        say: ({ body, principal }) =>
          speech.say(principal.userId, body.text, { session: body.session ?? null, synthesize: body.synthesize ?? true }),
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
            run: ({ args }) => speech.say(context.users.owner()?.id ?? '', String(args.text)),
          },
        ]);
      },
      stop: () => stopCards?.(),
    };
  },
};
