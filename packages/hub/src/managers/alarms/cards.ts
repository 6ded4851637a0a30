import type { DomainBus } from '../../core/bus';
import { chosenId, type FlowRegistry, registerCards, suggest } from '../flow/registry';
import type { AlarmStore } from './store';

const ALARMS_URI = 'homey:manager:alarms';

/** The alarm card: an alarm goes off (the one chosen). Its token is the alarm's name. */
export function serveAlarmCards(registry: FlowRegistry, bus: DomainBus, alarms: AlarmStore): () => void {
  const stops = [
    registerCards(registry, [
      {
        type: 'trigger',
        uri: ALARMS_URI,
        id: 'alarm_goes_off',
        title: 'An alarm goes off',
        args: [{ name: 'alarm', type: 'autocomplete', title: 'Alarm' }],
        tokens: [{ id: 'name', title: 'Alarm', type: 'string' }],
        autocomplete: ({ query }) => suggest(alarms.list(), query, (a) => ({ id: a.id, name: a.name })),
        argProblem: (args) => {
          const id = chosenId(args.alarm);
          return id && !alarms.get(id) ? 'the alarm it names is gone' : null;
        },
        run: ({ args, state }) => chosenId(args.alarm) === state.alarmId,
      },
    ]),
    bus.on('alarm.due', 'alarm-cards', ({ alarmId, name }) =>
      registry.fire({
        uri: ALARMS_URI,
        id: 'alarm_goes_off',
        tokens: { name },
        state: { alarmId },
        source: { kind: 'alarm', alarmId },
      }),
    ),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}
