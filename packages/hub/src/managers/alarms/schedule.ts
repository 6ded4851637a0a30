import { Cron } from 'croner';
import { type Repetition, weekdays } from './store';

/**
 * The cron pattern of an alarm: its time of day (hub-local time) on the weekdays of its repetition, or on any
 * day when no weekday is chosen (a one-off alarm).
 */
export function alarmPattern(time: string, repetition: Repetition): string {
  const [hours, minutes, seconds = '0'] = time.split(':');
  const days = weekdays.flatMap((day, index) => (repetition[day] ? [index] : []));
  return `${Number(seconds)} ${Number(minutes)} ${Number(hours)} * * ${days.length > 0 ? days.join(',') : '*'}`;
}

export const repeats = (repetition: Repetition): boolean => weekdays.some((day) => repetition[day]);

/** When an alarm goes off next after `after`, as an ISO string. */
export function nextOccurance(time: string, repetition: Repetition, after: Date): string | null {
  const next = new Cron(alarmPattern(time, repetition), { paused: true }).nextRun(after);
  return next ? next.toISOString() : null;
}
