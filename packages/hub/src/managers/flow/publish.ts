import type { flowEvents, ManagerEventData } from '@hearth/contract';
import type { HubEvents } from '../../platform/events';
import type { FlowRegistry } from './registry';

const READ_SCOPE = 'homey.flow.readonly';

type FlowType = 'flow' | 'advancedflow';
/** A flow as GET answers it, with its type. */
type Listed =
  | { type: 'flow'; flow: ManagerEventData<typeof flowEvents, 'flow.update'> }
  | { type: 'advancedflow'; flow: ManagerEventData<typeof flowEvents, 'advancedflow.update'> };
/** The flow manager's item types with `<type>.create/update/delete` wire events. */
export type FlowItemType = FlowType | 'flowfolder';
type Action = 'create' | 'update' | 'delete';
/** The part of a flow as GET answers it that is computed from the registry's cards and tokens. */
interface FlowHealth {
  id: string;
  broken: boolean;
  triggerable: boolean;
}

const healthKey = (type: FlowType, id: string) => `${type}:${id}`;
const healthOf = (flow: FlowHealth) => `${flow.broken}:${flow.triggerable}`;

/**
 * Publishes the flow manager's wire events, remembering the health (`broken:triggerable`) each flow last went out
 * with, so a change of the registry's cards or tokens republishes exactly the flows whose health it altered.
 */
export class FlowPublisher {
  /** `<type>:<id>` → the health the flow was last published, or found at start, with. */
  readonly #health = new Map<string, string>();

  constructor(
    private readonly events: HubEvents,
    private readonly registry: FlowRegistry,
  ) {}

  /** Publishes `<type>.<action>` on `homey:manager:flow`. */
  publish<T extends FlowItemType, A extends Action>(
    type: T,
    action: A,
    data: ManagerEventData<typeof flowEvents, `${T}.${A}`>,
  ): void {
    this.events.entity('flow', type, action, data, READ_SCOPE);
    if (type !== 'flow' && type !== 'advancedflow') return;
    const flow = data as FlowHealth;
    if (action === 'delete') this.#health.delete(healthKey(type, flow.id));
    else this.#health.set(healthKey(type, flow.id), healthOf(flow));
  }

  /**
   * Publishes `<type>.update` for each flow whose health a change of the registry's cards or tokens altered (an
   * app's card gone, a variable deleted): nothing is written to such a flow, yet clients keep their lists fresh
   * only from events. `listFlows` answers every flow as GET does; the health they have now is the starting point.
   * Answers its undo.
   */
  republishOnHealthChange(listFlows: () => Listed[]): () => void {
    this.#health.clear();
    for (const { type, flow } of listFlows()) this.#health.set(healthKey(type, flow.id), healthOf(flow));
    return this.registry.onChange(() => {
      for (const { type, flow } of listFlows()) {
        if (this.#health.get(healthKey(type, flow.id)) === healthOf(flow)) continue;
        if (type === 'flow') this.publish('flow', 'update', flow);
        else this.publish('advancedflow', 'update', flow);
      }
    });
  }
}
