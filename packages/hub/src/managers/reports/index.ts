import { hubOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubContext, HubManager, HubPrincipal } from '../../platform/context';

/** Tables whose rows carry a creation time: what a monthly report counts. */
const activities = [
  { key: 'notifications', table: 'notifications_notification', column: 'date_created' },
  { key: 'backups', table: 'backup_archive', column: 'created_at' },
  { key: 'webhookEvents', table: 'logic_webhook_event', column: 'received_at' },
  { key: 'utterances', table: 'speech_utterance', column: 'created_at' },
  { key: 'mobileEvents', table: 'mobile_event', column: 'received_at' },
  { key: 'diagnosticReports', table: 'system_log_report', column: 'created_at' },
] as const;

const currentMonth = () => new Date().toISOString().slice(0, 7);

function tableExists(context: HubContext, table: string): boolean {
  return context.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table) !== undefined;
}

function countsPerDay(context: HubContext, month: string) {
  return Object.fromEntries(
    activities.map(({ key, table, column }) => {
      if (!tableExists(context, table)) return [key, {}];
      const rows = context.db
        .prepare(
          `SELECT substr(${column}, 1, 10) AS day, COUNT(*) AS count FROM ${table} WHERE substr(${column}, 1, 7) = ? GROUP BY day ORDER BY day`,
        )
        .all(month) as { day: string; count: number }[];
      return [key, Object.fromEntries(rows.map((r) => [r.day, r.count]))];
    }),
  ) as Record<(typeof activities)[number]['key'], Record<string, number>>;
}

function summary(context: HubContext, month: string) {
  const perDay = countsPerDay(context, month);
  const totals = Object.fromEntries(
    Object.entries(perDay).map(([key, days]) => [key, Object.values(days).reduce((sum, n) => sum + n, 0)]),
  );
  return { month, ...totals, users: context.users.list().length };
}

/** Monthly reports of what happened in the home (private: the provider's services ask for them). */
export const reportsManager: HubManager = {
  name: 'reports',
  create: (context) => ({
    implementations: implement<typeof hubOperations.reports, HubPrincipal>(hubOperations.reports, {
      getState: () => ({ month: currentMonth(), activities: activities.map((a) => a.key) }),
      getMonthlySummary: ({ query }) => summary(context, query.month ?? currentMonth()),
      getMonthlyDetail: ({ query }) => {
        const month = query.month ?? currentMonth();
        return { month, perDay: countsPerDay(context, month) };
      },
    }),
  }),
};
