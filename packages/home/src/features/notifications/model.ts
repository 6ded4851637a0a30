import type { hubOperations, OperationResult } from '@hearth/contract';
import { format, strings } from '../../app/strings';

export type Notification = OperationResult<typeof hubOperations.notifications.getNotification>;

const dayKey = (date: Date) => date.toDateString();

/** Notifications newest first, grouped under their day: today, yesterday, or the date. */
export function byDay(items: Notification[], now = new Date()): { day: string; items: Notification[] }[] {
  const yesterday = new Date(now);
  yesterday.setDate(now.getDate() - 1);
  const label = (date: Date) =>
    dayKey(date) === dayKey(now)
      ? strings.notifications.today
      : dayKey(date) === dayKey(yesterday)
        ? strings.notifications.yesterday
        : format.date(date, { weekday: 'long', day: 'numeric', month: 'long' });
  const groups = new Map<string, Notification[]>();
  for (const item of [...items].sort((a, b) => b.dateCreated.localeCompare(a.dateCreated))) {
    const day = label(new Date(item.dateCreated));
    groups.set(day, [...(groups.get(day) ?? []), item]);
  }
  return [...groups].map(([day, list]) => ({ day, items: list }));
}

export const timeOf = (iso: string): string => format.time(iso, { hour: '2-digit', minute: '2-digit' });
