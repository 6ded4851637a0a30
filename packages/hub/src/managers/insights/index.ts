import { hubOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubManager, HubPrincipal } from '../../platform/context';
import { insightsMigrations } from './service';

/** The owner's short id of a log named by `/:uri/:id`, where `id` may also be the whole log id `<uri>:<short id>`. */
const ownerIdOf = (params: { uri: string; id: string }): string =>
  params.id.startsWith(`${params.uri}:`) ? params.id.slice(params.uri.length + 1) : params.id;

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
        getLogEntries: ({ params, query }) => insights.entries(params.uri, ownerIdOf(params), query.resolution ?? 'last24Hours'),
        deleteLogEntries: ({ params }) => {
          insights.deleteEntries(params.uri, ownerIdOf(params));
          return undefined;
        },
        deleteLog: ({ params }) => {
          insights.deleteLog(params.uri, ownerIdOf(params));
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
