import { Type } from 'typebox';
import { hubManager } from '../operation';
import { declareState, OpenObject } from './options';

const op = hubManager('reports');

const Month = Type.Object({ month: Type.Optional(Type.String({ pattern: '^[0-9]{4}-(0[1-9]|1[0-2])$' })) });

/** Reports are private (seed section 6): only the provider's internal sessions call them. */
export const reportsOperations = {
  getState: declareState(op),
  getMonthlySummary: op({
    name: 'getMonthlySummary',
    summary: "A month's report (this month unless given): how many of each activity happened in the home.",
    method: 'GET',
    path: '/monthly/summary',
    scope: 'homey.system.readonly',
    private: true,
    query: Month,
    response: OpenObject,
  }),
  getMonthlyDetail: op({
    name: 'getMonthlyDetail',
    summary: "A month's activities counted per day (this month unless given).",
    method: 'GET',
    path: '/monthly/detail',
    scope: 'homey.system.readonly',
    private: true,
    query: Month,
    response: OpenObject,
  }),
} as const;
