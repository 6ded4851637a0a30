import { hubOperations, invalidParameter, notFound } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { ChangeSource } from '../../core/bus';
import type { HubManager, HubPrincipal } from '../../platform/context';
import { transact } from '../../store/database';
import { rowsPerDay } from '../reports/activities';
import { LOGIC_URI, serveLogicCards } from './cards';
import { logicMigrations, type Variable, VariableStore, type VariableValue, valueKind } from './store';

const READ_SCOPE = 'homey.logic.readonly';

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
    // The monthly reports count this manager's records through its counter.
    services.activities.register('webhookEvents', rowsPerDay(context.db, 'logic_webhook_event', 'received_at'));
    const store = new VariableStore(context.db);
    const stops: (() => void)[] = [];
    /** Publishes a stored change, and `variable.changed` on the bus when its value changed. */
    const announce = (previous: Variable, variable: Variable, source: ChangeSource) => {
      context.events.entity('logic', 'variable', 'update', variable, READ_SCOPE);
      if (previous.value === variable.value) return;
      context.bus.emit('variable.changed', {
        variableId: variable.id,
        name: variable.name,
        type: variable.type,
        value: variable.value,
        previous: previous.value,
        source,
      });
    };
    /** A flow's card sets a variable. */
    const setValue = (current: Variable, value: VariableValue, source: ChangeSource) => {
      checkValue(current.type, value);
      const variable = transact(context.db, () => store.save({ ...current, value }));
      announce(current, variable, source);
      return variable;
    };
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
          context.bus.emit('variable.added', { variableId: variable.id });
          services.flowCards.changed();
          return variable;
        },
        updateVariable: ({ params, body, principal }) => {
          let previous: Variable | undefined;
          const variable = transact(context.db, () => {
            const current = find(params.id);
            previous = current;
            const next = { ...current, ...body };
            if (body.type !== undefined && body.type !== current.type && body.value === undefined)
              throw invalidParameter('value', 'Changing the type of a variable needs a value of the new type');
            checkValue(next.type, next.value);
            return store.save(next);
          });
          announce(previous as Variable, variable, { kind: 'api', sessionId: principal.sessionId, userId: principal.userId });
          return variable;
        },
        deleteVariable: ({ params }) => {
          if (!transact(context.db, () => store.delete(params.id))) throw notFound('Variable', params.id);
          context.events.entity('logic', 'variable', 'delete', { id: params.id }, READ_SCOPE);
          context.bus.emit('variable.removed', { variableId: params.id });
          // Flows that use its token are broken now: the flow manager publishes them again.
          services.flowCards.changed();
        },
        triggerWebhook: ({ params, query }) => {
          const entry = transact(context.db, () => store.recordWebhook(params.event, query.tag ?? null));
          // Flows with a webhook trigger for this event start from the domain bus.
          context.bus.emit('webhook.received', entry);
          return entry;
        },
      }),
      start: () => {
        stops.push(
          services.flowCards.registerTokens({
            uri: LOGIC_URI,
            list: () =>
              store.list().map((v) => ({ uri: LOGIC_URI, id: v.id, title: v.name, type: valueKind(v.type), value: v.value })),
          }),
          serveLogicCards({ registry: services.flowCards, bus: context.bus, store, setValue }),
        );
      },
      stop: () => {
        for (const stop of stops.splice(0)) stop();
      },
    };
  },
};
