import { HearthError, type hubOperations, invalidParameter, notFound } from '@hearth/contract';
import type { Handlers } from '@hearth/contract/fastify';
import type { ChangeSource } from '../../core/bus';
import type { HubContext, HubPrincipal } from '../../platform/context';
import type { FlowCatalog } from './engine/catalog';
import type { FlowEngine } from './engine/engine';
import type { TraceStore } from './engine/traces';
import { traceToWire } from './engine/traces';
import type { FlowCardType, FlowRegistry } from './registry';
import { normaliseCards } from './wire';

type FlowOperations = typeof hubOperations.flow;
type RunningOperations =
  | 'testFlow'
  | 'triggerFlow'
  | 'triggerAdvancedFlow'
  | 'runFlowCardCondition'
  | 'runFlowCardAction'
  | 'getFlowCardAutocomplete'
  | 'getFlowTraces'
  | 'getAdvancedFlowTraces'
  | 'getPendingFlowActions'
  | 'deletePendingFlowAction';

const apiSource = (principal: HubPrincipal): ChangeSource => ({
  kind: 'api',
  sessionId: principal.sessionId,
  userId: principal.userId,
});

/**
 * The flow manager's calls that run things: starting a flow, testing an unsaved one (each step streamed to the
 * tester over the socket), running one card, argument autocomplete, the run traces and the pending delayed
 * actions.
 */
export function runningHandlers(deps: {
  context: HubContext;
  registry: FlowRegistry;
  engine: FlowEngine;
  catalog: FlowCatalog;
  traces: TraceStore;
}): Pick<Handlers<FlowOperations, HubPrincipal>, RunningOperations> {
  const { context, registry, engine, catalog, traces } = deps;
  const findCard = (type: FlowCardType, uri: string, id: string) => {
    const card = registry.card(type, uri, id);
    if (!card) throw notFound(`Flow card ${type}`, `${uri}:${id}`);
    return card;
  };
  const requireFlow = (type: 'flow' | 'advancedflow', id: string) => {
    if (!catalog.get(type, id)) throw notFound(type === 'flow' ? 'Flow' : 'Advanced flow', id);
  };
  return {
    testFlow: async ({ body, principal }) => {
      const flow = { name: body.flow.name, ...normaliseCards(body.flow) };
      const trace = await engine.test(flow, body.tokens, (step) =>
        // Each step goes to the tester's sessions as it happens: `flowtest.step` with their test session id.
        context.events.manager(
          'flow',
          'flowtest.step',
          { sessionId: body.sessionId, step: { ...step, at: new Date(step.at).toISOString() } },
          'homey.flow.readonly',
          (viewer) =>
            viewer.userId === principal.userId
              ? { sessionId: body.sessionId, step: { ...step, at: new Date(step.at).toISOString() } }
              : undefined,
        ),
      );
      return traceToWire(trace);
    },
    triggerFlow: async ({ params, body, principal }) =>
      traceToWire(await engine.trigger('flow', params.id, body.state ?? {}, apiSource(principal))),
    triggerAdvancedFlow: async ({ params, body, principal }) =>
      traceToWire(await engine.trigger('advancedflow', params.id, body.state ?? {}, apiSource(principal))),
    runFlowCardCondition: async ({ params, body }) => {
      findCard('condition', params.uri, params.id);
      const result = await engine.runCondition(
        { uri: params.uri, id: params.id, args: body.args ?? {}, droptoken: body.droptoken ?? null },
        body.tokens ?? {},
        body.state ?? {},
      );
      return { result };
    },
    runFlowCardAction: async ({ params, body, principal }) => {
      findCard('action', params.uri, params.id);
      const result = await engine.runAction(
        { uri: params.uri, id: params.id, args: body.args ?? {}, droptoken: body.droptoken ?? null },
        body.tokens ?? {},
        body.state ?? {},
        body.duration ?? null,
        apiSource(principal),
      );
      return result && typeof result === 'object' && !Array.isArray(result) ? (result as Record<string, unknown>) : {};
    },
    getFlowCardAutocomplete: async ({ params, query }) => {
      const type = params.type.replace('flowcard', '') as FlowCardType;
      const card = findCard(type, params.uri, params.id);
      if (!card.autocomplete || !(card.args ?? []).some((a) => a.name === query.name && a.type === 'autocomplete'))
        throw notFound('Autocomplete argument', query.name);
      let args: Record<string, unknown> = {};
      if (query.args) {
        try {
          args = JSON.parse(query.args) as Record<string, unknown>;
        } catch {
          throw invalidParameter('args', 'Must be a JSON object');
        }
        if (!args || typeof args !== 'object' || Array.isArray(args)) throw invalidParameter('args', 'Must be a JSON object');
      }
      const answer = await card.autocomplete({ name: query.name, query: query.query, args });
      if (!Array.isArray(answer)) throw new HearthError('unavailable', 'The card answered no suggestions');
      return answer as Record<string, unknown>[];
    },
    getFlowTraces: ({ params }) => {
      requireFlow('flow', params.id);
      return traces.list('flow', params.id).map(traceToWire);
    },
    getAdvancedFlowTraces: ({ params }) => {
      requireFlow('advancedflow', params.id);
      return traces.list('advancedflow', params.id).map(traceToWire);
    },
    getPendingFlowActions: () =>
      // A job whose time is no date (stored before delays were bounded) is left out rather than break the list.
      engine.pending().flatMap((job) => {
        if (!Number.isFinite(new Date(job.dueAt).getTime())) return [];
        const payload = job.payload as { flowId: string; runId: string; node?: string; action?: { uri: string; id: string } };
        const flowType = job.kind === 'flow.node' ? ('advancedflow' as const) : ('flow' as const);
        const pendingAction = {
          id: job.id,
          flowId: payload.flowId,
          flowType,
          flowName: catalog.get(flowType, payload.flowId)?.flow.name ?? '',
          runId: payload.runId,
          card: payload.action ? `${payload.action.uri}:${payload.action.id}` : null,
          node: payload.node ?? null,
          dueAt: new Date(job.dueAt).toISOString(),
        };
        return [pendingAction];
      }),
    deletePendingFlowAction: ({ params }) => {
      engine.cancelPending(params.id);
    },
  };
}
