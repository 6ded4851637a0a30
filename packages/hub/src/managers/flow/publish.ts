import type { HubContext } from '../../platform/context';
import { flowRegistry } from './registry';

const READ_SCOPE = 'homey.flow.readonly';

type FlowType = 'flow' | 'advancedflow';
/** The part of a flow as GET answers it that is computed from the registry's cards and tokens. */
interface FlowHealth {
  id: string;
  broken: boolean;
  triggerable: boolean;
}

/** Per hub: `<type>:<id>` → the health (`broken:triggerable`) the flow was last published, or found at start, with. */
const publishedHealth = new WeakMap<HubContext, Map<string, string>>();

function healthMap(context: HubContext): Map<string, string> {
  let health = publishedHealth.get(context);
  if (!health) {
    health = new Map();
    publishedHealth.set(context, health);
  }
  return health;
}

const healthKey = (type: FlowType, id: string) => `${type}:${id}`;
const healthOf = (flow: FlowHealth) => `${flow.broken}:${flow.triggerable}`;

/** Publishes `<type>.<action>` on `homey:manager:flow`, remembering the health each flow went out with. */
export function publishFlowChange(context: HubContext, type: string, action: 'create' | 'update' | 'delete', data: unknown) {
  context.events.entity('flow', type, action, data, READ_SCOPE);
  if (type !== 'flow' && type !== 'advancedflow') return;
  const flow = data as FlowHealth;
  if (action === 'delete') healthMap(context).delete(healthKey(type, flow.id));
  else healthMap(context).set(healthKey(type, flow.id), healthOf(flow));
}

/**
 * Publishes `<type>.update` for each flow whose health a change of the registry's cards or tokens altered (an
 * app's card gone, a variable deleted): nothing is written to such a flow, yet clients keep their lists fresh
 * only from events. `listFlows` answers every flow as GET does; the health they have now is the starting point.
 * Answers its undo.
 */
export function republishOnHealthChange(
  context: HubContext,
  listFlows: () => { type: FlowType; flow: FlowHealth }[],
): () => void {
  const health = healthMap(context);
  for (const { type, flow } of listFlows()) health.set(healthKey(type, flow.id), healthOf(flow));
  return flowRegistry(context).onChange(() => {
    for (const { type, flow } of listFlows()) {
      if (health.get(healthKey(type, flow.id)) !== healthOf(flow)) publishFlowChange(context, type, 'update', flow);
    }
  });
}
