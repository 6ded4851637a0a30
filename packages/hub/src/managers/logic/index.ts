import { hubOperations, invalidParameter, notFound } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubManager, HubPrincipal } from '../../platform/context';
import { transact } from '../../store/database';
import { logicMigrations, type Variable, VariableStore, type VariableValue, valueKind } from './store';

const READ_SCOPE = 'homey.logic.readonly';
export const LOGIC_URI = 'homey:manager:logic';

function checkValue(type: string, value: VariableValue): void {
  const kind = valueKind(type);
  if (typeof value !== kind || (kind === 'number' && !Number.isFinite(value)))
    throw invalidParameter('value', `A variable of type ${type} needs a ${kind} value, got ${typeof value}`);
}

/** Logic: the home's variables (also offered to flows as tokens) and webhook events. */
export const logicManager: HubManager = {
  name: 'logic',
  migrations: logicMigrations,
  create: (context, services) => {
    const store = new VariableStore(context.db);
    let stopTokens: (() => void) | undefined;
    const find = (id: string): Variable => {
      const variable = store.get(id);
      if (!variable) throw notFound('Variable', id);
      return variable;
    };
    return {
      implementations: implement<typeof hubOperations.logic, HubPrincipal>(hubOperations.logic, {
        getState: () => ({ variables: store.list().length, webhookEvents: store.webhookCount() }),
        getVariables: () => Object.fromEntries(store.list().map((v) => [v.id, v])),
        getVariable: ({ params }) => find(params.id),
        createVariable: ({ body }) => {
          checkValue(body.type, body.value);
          const variable = transact(context.db, () => store.create({ name: body.name, type: body.type, value: body.value }));
          context.events.entity('logic', 'variable', 'create', variable, READ_SCOPE);
          services.flowCards.changed();
          return variable;
        },
        updateVariable: ({ params, body }) => {
          const variable = transact(context.db, () => {
            const current = find(params.id);
            const next = { ...current, ...body };
            if (body.type !== undefined && body.type !== current.type && body.value === undefined)
              throw invalidParameter('value', 'Changing the type of a variable needs a value of the new type');
            checkValue(next.type, next.value);
            return store.save(next);
          });
          context.events.entity('logic', 'variable', 'update', variable, READ_SCOPE);
          return variable;
        },
        deleteVariable: ({ params }) => {
          if (!transact(context.db, () => store.delete(params.id))) throw notFound('Variable', params.id);
          context.events.entity('logic', 'variable', 'delete', { id: params.id }, READ_SCOPE);
          // Flows that use its token are broken now: the flow manager publishes them again.
          services.flowCards.changed();
        },
        triggerWebhook: ({ params, query }) => {
          const entry = transact(context.db, () => store.recordWebhook(params.event, query.tag ?? null));
          // The flow engine listens for this to start flows with a webhook trigger.
          context.events.publish({ uri: LOGIC_URI, event: 'webhook', data: entry, scope: READ_SCOPE });
          return entry;
        },
      }),
      start: () => {
        stopTokens = services.flowCards.registerTokens({
          uri: LOGIC_URI,
          list: () =>
            store.list().map((v) => ({ uri: LOGIC_URI, id: v.id, title: v.name, type: valueKind(v.type), value: v.value })),
        });
      },
      stop: () => stopTokens?.(),
    };
  },
};
