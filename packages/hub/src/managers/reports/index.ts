import { hubOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubContext, HubManager, HubPrincipal } from '../../platform/context';
import type { ActivityCounters } from './activities';

const currentMonth = (now: number) => new Date(now).toISOString().slice(0, 7);

function summary(context: HubContext, activities: ActivityCounters, month: string) {
  const perDay = activities.perDay(month);
  const totals = Object.fromEntries(
    Object.entries(perDay).map(([key, days]) => [key, Object.values(days).reduce((sum, n) => sum + n, 0)]),
  );
  return { month, ...totals, users: context.users.list().length };
}

/** Monthly reports of what happened in the home (private: the provider's services ask for them). */
export const reportsManager: HubManager = {
  name: 'reports',
  create: (context, { activities }) => ({
    implementations: implement<typeof hubOperations.reports, HubPrincipal>(hubOperations.reports, {
      getState: () => ({ month: currentMonth(context.clock.now()), activities: activities.keys() }),
      getMonthlySummary: ({ query }) => summary(context, activities, query.month ?? currentMonth(context.clock.now())),
      getMonthlyDetail: ({ query }) => {
        const month = query.month ?? currentMonth(context.clock.now());
        return { month, perDay: activities.perDay(month) };
      },
    }),
  }),
};
