import type { hubOperations, OperationResult } from '@hearth/contract';
import { format, strings } from '../../app/strings';

export type Alarm = OperationResult<typeof hubOperations.alarms.getAlarm>;
export type Repetition = Alarm['repetition'];
export const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

/** The weekdays ticked in a form, as the hub's repetition (every day named, each true or false). */
export const repetitionOf = (ticked: string[]): Repetition =>
  Object.fromEntries(DAYS.map((day) => [day, ticked.includes(day)])) as Repetition;

/** How often an alarm goes off, in words: once, every day, weekdays, weekends, or the days by name. */
export function summary(repetition: Repetition): string {
  const t = strings.alarms;
  const on = DAYS.filter((day) => repetition[day]);
  if (on.length === 0) return t.once;
  if (on.length === 7) return t.everyDay;
  if (on.length === 5 && !repetition.saturday && !repetition.sunday) return t.weekdays;
  if (on.length === 2 && repetition.saturday && repetition.sunday) return t.weekends;
  return on.map((day) => t.days[day]).join(', ');
}

/** When an alarm goes off next, as the person's own clock and calendar say it. */
export const whenNext = (iso: string): string => format.dateTime(iso, { weekday: 'short', hour: '2-digit', minute: '2-digit' });
