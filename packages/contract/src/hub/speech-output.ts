import { Type } from 'typebox';
import { managerEvents, optionEvents } from '../events';
import { hubManager } from '../operation';
import { declareOptions, declareState, IdParams } from './options';

const op = hubManager('speech-output');

export const Voice = Type.Object({
  id: Type.String(),
  name: Type.String(),
  language: Type.String(),
  locale: Type.String(),
  gender: Type.Enum(['male', 'female']),
  installed: Type.Boolean(),
});

export const Utterance = Type.Object({
  id: Type.String(),
  text: Type.String(),
  voice: Type.String(),
  session: Type.Union([Type.Null(), Type.String()]),
  synthesize: Type.Boolean(),
  createdAt: Type.String(),
});

export const speechOutputOptions = {
  voice: { value: Type.String({ minLength: 1 }), read: 'homey.speech', write: 'homey.speech' },
} as const;

export const speechOutputOperations = {
  getState: declareState(op),
  ...declareOptions(op, speechOutputOptions),
  getVoices: op({
    name: 'getVoices',
    summary: 'Every voice the hub can speak with, by id, with its language and whether it is installed.',
    method: 'GET',
    path: '/voice',
    scope: 'homey.speech',
    response: Type.Record(Type.String(), Voice),
  }),
  getVoice: op({
    name: 'getVoice',
    summary: 'One voice: its name, language, gender and whether it is installed.',
    method: 'GET',
    path: '/voice/:id',
    scope: 'homey.speech',
    params: IdParams,
    response: Voice,
  }),
  installVoice: op({
    name: 'installVoice',
    summary: 'Installs a voice so the hub can speak with it; answers the voice.',
    method: 'POST',
    path: '/voice/:id/install',
    scope: 'homey.speech',
    params: IdParams,
    response: Voice,
  }),
  uninstallVoice: op({
    name: 'uninstallVoice',
    summary: 'Uninstalls a voice; answers the voice.',
    method: 'POST',
    path: '/voice/:id/uninstall',
    scope: 'homey.speech',
    params: IdParams,
    response: Voice,
  }),
  playVoiceSample: op({
    name: 'playVoiceSample',
    summary: 'Speaks a sample sentence with an installed voice (recorded: the simulated hub has no speaker).',
    method: 'POST',
    path: '/voice/:id/sample',
    scope: 'homey.speech',
    params: IdParams,
    response: Utterance,
  }),
  say: op({
    name: 'say',
    method: 'POST',
    path: '/say',
    scope: 'homey.speech',
    body: Type.Object({
      text: Type.String({ minLength: 1, maxLength: 1000 }),
      session: Type.Optional(Type.String({ maxLength: 200 })),
      timeout: Type.Optional(Type.Number({ minimum: 0 })),
      synthesize: Type.Optional(Type.Boolean()),
    }),
    response: Utterance,
    summary: 'Speaks a text with the chosen voice; the utterance is recorded.',
  }),
} as const;

/** Wire events of the speech output manager. */
export const speechOutputEvents = managerEvents('speech-output', {
  events: { ...optionEvents, say: Utterance, 'voice.update': Voice },
});
