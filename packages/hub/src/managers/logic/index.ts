import { randomBytes } from 'node:crypto';
import { cloudOperations, HearthError, HUB_LOGIC_WEBHOOK_ID, hubOperations, invalidParameter, notFound } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import { hubSecret } from '@hearth/contract/hub-secret';
import type { ChangeSource } from '../../core/bus';
import type { HubManager, HubPrincipal } from '../../platform/context';
import { transact } from '../../store/database';
import { rowsPerDay } from '../reports/activities';
import { LOGIC_URI, serveLogicCards } from './cards';
import { logicMigrations, type Variable, VariableStore, type VariableValue, valueKind } from './store';

const READ_SCOPE = 'homey.logic.readonly';
/** The random key of the hub's webhook address at the cloud (see `registerCloudWebhook`). */
const CLOUD_KEY_SETTING = 'logic.cloudWebhookKey';
const EVENT_NAME = /^[A-Za-z0-9_.:-]{1,100}$/;

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
    const store = new VariableStore(context.db, context.clock);
    services.summary.provide('variables', () => store.list().length);
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
    /** A webhook call, made on the hub or delivered by the cloud: recorded, announced, and its flows started. */
    const webhookCalled = (event: string, tag: string | null) => {
      const entry = transact(context.db, () => store.recordWebhook(event, tag));
      // Flows with a webhook trigger for this event start from the domain bus.
      context.bus.emit('webhook.received', entry);
      return entry;
    };
    /** A call of the hub's address at the cloud: its key must be the current one; event and tag from query or body. */
    const cloudCalled = (call: {
      webhookId: string;
      data: Readonly<Record<string, unknown>>;
      query: Readonly<Record<string, string>>;
      body: unknown;
    }) => {
      if (call.webhookId !== HUB_LOGIC_WEBHOOK_ID) return;
      const key = context.settings.get<string | null>(CLOUD_KEY_SETTING, null);
      if (key === null || call.data.$key !== key) return;
      const body = (typeof call.body === 'object' && call.body !== null ? call.body : {}) as Record<string, unknown>;
      const event = call.query.event ?? body.event;
      const tag = call.query.tag ?? body.tag;
      if (typeof event !== 'string' || !EVENT_NAME.test(event)) return;
      webhookCalled(event, typeof tag === 'string' ? tag.slice(0, 500) : null);
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
        triggerWebhook: ({ params, query }) => webhookCalled(params.event, query.tag ?? null),
        registerCloudWebhook: async ({ body }) => {
          const { cloudUrl, cloudClientSecret, id } = context.config;
          if (!cloudUrl || !cloudClientSecret) throw new HearthError('unavailable', 'This hub is not linked to a cloud');
          const current = context.settings.get<string | null>(CLOUD_KEY_SETTING, null);
          const key = current !== null && !body?.renew ? current : randomBytes(24).toString('base64url');
          let registeredAt: string;
          try {
            const answer = await context.cloud.call(cloudOperations.webhooks.registerWebhookClient, {
              webhookId: HUB_LOGIC_WEBHOOK_ID,
              homeyId: id,
              secret: hubSecret(cloudClientSecret, id),
              data: { $key: key },
            });
            registeredAt = answer.registeredAt;
          } catch {
            throw new HearthError('offline', 'The cloud did not take the registration; try again later');
          }
          // Kept only once the cloud has it: until then the previous address keeps working.
          context.settings.set(CLOUD_KEY_SETTING, key);
          return { url: `${context.cloud.url}/webhooks/webhook/${HUB_LOGIC_WEBHOOK_ID}?key=${key}`, registeredAt };
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
          context.bus.on('cloud.webhook', 'logic', cloudCalled),
        );
      },
      stop: () => {
        for (const stop of stops.splice(0)) stop();
      },
    };
  },
};
