import { Type } from 'typebox';
import { managerEvents, optionEvents } from '../events';
import { hubManager } from '../operation';
import { declareOptions, declareState } from './options';

const op = hubManager('i18n');

export const i18nOptions = {
  language: {
    value: Type.String({ pattern: '^[a-z]{2}(-[A-Z]{2})?$', description: 'Language code, e.g. `en` or `nl`' }),
    read: 'homey.system.readonly',
    write: 'homey.system',
  },
  timezone: {
    value: Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'IANA time zone the hub keeps its local time in (time cards, apps), e.g. `Europe/Amsterdam`',
    }),
    read: 'homey.system.readonly',
    write: 'homey.system',
  },
  units: {
    value: Type.Enum(['metric', 'imperial'], { description: 'Unit system' }),
    read: 'homey.system.readonly',
    write: 'homey.system',
  },
} as const;

export const i18nOperations = {
  getState: declareState(op),
  ...declareOptions(op, i18nOptions),
} as const;

/** Wire events of the i18n manager. */
export const i18nEvents = managerEvents('i18n', { events: optionEvents });
