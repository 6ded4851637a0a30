import { startOfLocalDay } from '../../platform/calendar';
import type { HubContext } from '../../platform/context';
import { readOption } from '../options';

/** The host's own zone: the hub's until its owner (or a setup session) picks one. */
export const hostTimezone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The zone the hub keeps its local time in (`i18n` option `timezone`). */
export const hubTimezone = (context: HubContext): string => readOption(context, 'i18n', 'timezone', hostTimezone());

const formats = new Map<string, Intl.DateTimeFormat>();
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/**
 * The local time of instant `at` (epoch ms) in `zone`: the wall clock's minutes since local midnight, the day of the week (0 =
 * Sunday) and that midnight as an instant. Intl does the zone arithmetic (the runtime's time zone database), so
 * the hub's zone need not be the host's.
 */
export function localTime(at: number, zone: string): { minute: number; weekday: number; midnight: number } {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formats.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]));
  const minute = Number(parts.hour) * 60 + Number(parts.minute);
  // Midnight from the calendar, not the wall clock's hours back: a day the clocks change has 23 or 25 of them.
  return { minute, weekday: WEEKDAYS.indexOf(parts.weekday ?? 'Sun'), midnight: startOfLocalDay(at, zone) };
}
