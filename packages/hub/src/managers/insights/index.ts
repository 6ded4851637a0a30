import { hubOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubManager, HubPrincipal } from '../../platform/context';
import { insightsMigrations } from './service';

/** Insights: logs of capability values over time. */
export const insightsManager: HubManager = {
  name: 'insights',
  migrations: insightsMigrations,
  create: (_context, services) => {
    const { insights } = services;
    return {
      implementations: implement<typeof hubOperations.insights, HubPrincipal>(hubOperations.insights, {
        getState: () => insights.storage(),
        getLogs: () => Object.fromEntries(insights.list().map((log) => [log.id, log])),
        getLog: ({ params }) => insights.get(params.id),
        getLogEntries: ({ params, query }) => insights.entries(params.uri, params.id, query.resolution ?? 'last24Hours'),
        deleteLogEntries: ({ params }) => {
          insights.deleteEntries(params.uri, params.id);
          return undefined;
        },
        deleteLog: ({ params }) => {
          insights.deleteLog(params.uri, params.id);
          return undefined;
        },
        deleteLogs: () => {
          insights.deleteAll();
          return undefined;
        },
        getStorageInfo: () => insights.storage(),
      }),
    };
  },
};
