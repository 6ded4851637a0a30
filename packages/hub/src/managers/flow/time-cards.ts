import { Body, Observer, SearchRiseSet } from 'astronomy-engine';
import type { Clock } from '../../core/clock';
import { hostTimezone, localTime } from '../i18n/timezone';
import { type FlowCardDefinition, type FlowRegistry, registerCards } from './registry';

const CRON_URI = 'homey:manager:cron';
const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
const pad = (n: number) => String(n).padStart(2, '0');
/** Minutes since local midnight of an `HH:mm` time. */
const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/** Sunrise or sunset at `location` on the local day (in `zone`) of `day` (epoch ms), or `null` (polar day or night). */
export function sunEvent(
  kind: 'sunrise' | 'sunset',
  location: { latitude: number; longitude: number },
  day: number,
  zone: string = hostTimezone(),
): number | null {
  const observer = new Observer(location.latitude, location.longitude, 0);
  const start = new Date(localTime(day, zone).midnight);
  const found = SearchRiseSet(Body.Sun, observer, kind === 'sunrise' ? +1 : -1, start, 1);
  return found ? found.date.getTime() : null;
}

/**
 * The time cards: at a time, every N minutes or hours, at sunrise or sunset (with an offset in minutes, from the
 * home's location); conditions on the time of day, the day of the week and weekends, all in the hub's time zone
 * (`zone`). A timer on the hub's clock fires the triggers at each whole minute; a minute the hub was off is not
 * replayed.
 */
export function serveTimeCards(
  registry: FlowRegistry,
  clock: Clock,
  location: () => { latitude: number; longitude: number } | null,
  zone: () => string,
): () => void {
  const localMinute = (at: number) => localTime(at, zone()).minute;
  const weekday = () => localTime(clock.now(), zone()).weekday;
  const sunMinute = (kind: 'sunrise' | 'sunset', at: number): number | null => {
    const home = location();
    const event = home ? sunEvent(kind, home, at, zone()) : null;
    // The wall clock's minute of the event, as the time of day it is compared with (not minutes elapsed since
    // midnight, which differ on the days the clocks change).
    return event === null ? null : localMinute(event);
  };
  const offset = {
    name: 'offset',
    type: 'number',
    title: 'Minutes after (before, when negative)',
    min: -720,
    max: 720,
    required: false,
  };
  const sunTrigger = (kind: 'sunrise' | 'sunset'): FlowCardDefinition => ({
    type: 'trigger',
    uri: CRON_URI,
    id: kind,
    title: kind === 'sunrise' ? 'At sunrise' : 'At sunset',
    hint: 'Needs the home’s location (geolocation).',
    args: [offset],
    run: ({ args, state }) => {
      const sun = state[kind];
      return typeof sun === 'number' && state.minute === sun + Number(args.offset ?? 0);
    },
  });
  const cards: FlowCardDefinition[] = [
    {
      type: 'trigger',
      uri: CRON_URI,
      id: 'time_exactly',
      title: 'At a time',
      args: [{ name: 'time', type: 'time', title: 'Time' }],
      tokens: [{ id: 'time', title: 'Time', type: 'string' }],
      run: ({ args, state }) => args.time === state.time,
    },
    {
      type: 'trigger',
      uri: CRON_URI,
      id: 'time_repetition',
      title: 'Every …',
      args: [
        { name: 'number', type: 'number', title: 'Every', min: 1, max: 1440 },
        {
          name: 'unit',
          type: 'dropdown',
          title: 'Unit',
          values: [
            { id: 'minutes', title: 'minutes' },
            { id: 'hours', title: 'hours' },
          ],
        },
      ],
      run: ({ args, state }) => {
        const every = Number(args.number) * (args.unit === 'hours' ? 60 : 1);
        return Number.isInteger(every) && every > 0 && (state.minute as number) % every === 0;
      },
    },
    sunTrigger('sunrise'),
    sunTrigger('sunset'),
    {
      type: 'condition',
      uri: CRON_URI,
      id: 'time_between',
      title: 'The time is between',
      args: [
        { name: 'from', type: 'time', title: 'From' },
        { name: 'to', type: 'time', title: 'To' },
      ],
      run: ({ args }) => {
        const now = localMinute(clock.now());
        const [from, to] = [minutesOf(String(args.from)), minutesOf(String(args.to))];
        // A span past midnight (22:00–06:00) wraps around.
        return from <= to ? now >= from && now < to : now >= from || now < to;
      },
    },
    {
      type: 'condition',
      uri: CRON_URI,
      id: 'day_of_week',
      title: 'It is a day of the week',
      args: [
        {
          name: 'day',
          type: 'dropdown',
          title: 'Day',
          values: DAYS.map((id) => ({ id, title: id[0]?.toUpperCase() + id.slice(1) })),
        },
      ],
      run: ({ args }) => DAYS[weekday()] === args.day,
    },
    {
      type: 'condition',
      uri: CRON_URI,
      id: 'is_weekend',
      title: 'It is the weekend',
      run: () => [0, 6].includes(weekday()),
    },
    {
      type: 'condition',
      uri: CRON_URI,
      id: 'is_weekday',
      title: 'It is a weekday',
      run: () => ![0, 6].includes(weekday()),
    },
  ];
  const tick = () => {
    const now = clock.now();
    const minute = localMinute(now);
    const time = `${pad(Math.floor(minute / 60))}:${pad(minute % 60)}`;
    const state = { time, minute, sunrise: sunMinute('sunrise', now), sunset: sunMinute('sunset', now) };
    for (const id of ['time_exactly', 'time_repetition', 'sunrise', 'sunset'])
      registry.fire({ uri: CRON_URI, id, tokens: { time }, state, source: null });
  };
  let cancel = () => {};
  const next = () => {
    const now = clock.now();
    cancel = clock.setTimeout(
      () => {
        tick();
        next();
      },
      60_000 - (now % 60_000),
    );
  };
  next();
  const stopCards = registerCards(registry, cards);
  return () => {
    cancel();
    stopCards();
  };
}
