import { HearthError } from '@hearth/contract';
import type { FlowCatalog } from './engine/catalog';
import type { FlowEngine } from './engine/engine';
import type { FlowCardDefinition, FlowRegistry } from './registry';

const FLOW_URI = 'homey:manager:flow';
type FlowType = 'flow' | 'advancedflow';
interface FlowChoice {
  id: string;
  name: string;
  type?: FlowType;
}

const flowArg = { name: 'flow', type: 'autocomplete', title: 'Flow' };

/**
 * The flow manager's own action cards: start another flow, and switch a flow on or off. Their `flow` argument is
 * the whole object the autocomplete answered (`{id, name, type}`); a flow that is gone makes the flow using the
 * card broken.
 */
export function flowControlCards(deps: {
  registry: FlowRegistry;
  engine: FlowEngine;
  catalog: FlowCatalog;
  setEnabled(type: FlowType, id: string, enabled: boolean): void;
}): FlowCardDefinition[] {
  const { engine, catalog } = deps;
  const target = (value: unknown): { type: FlowType; id: string } => {
    const choice = value as FlowChoice;
    const type: FlowType = choice.type === 'advancedflow' ? 'advancedflow' : 'flow';
    if (!catalog.get(type, choice.id))
      throw new HearthError('not_found', `The flow ${choice.name ?? choice.id} no longer exists`);
    return { type, id: choice.id };
  };
  const argProblem = (args: Record<string, unknown>) => {
    const choice = args.flow as FlowChoice | undefined;
    if (!choice?.id) return null;
    return catalog.get(choice.type === 'advancedflow' ? 'advancedflow' : 'flow', choice.id)
      ? null
      : `the flow ${choice.name ?? choice.id} is gone`;
  };
  const autocomplete = ({ query }: { query: string }) =>
    catalog
      .all()
      .filter(({ flow }) => flow.name.toLowerCase().includes(query.toLowerCase()))
      .map(({ type, flow }) => ({
        id: flow.id,
        name: flow.name,
        type,
        description: type === 'advancedflow' ? 'Advanced flow' : 'Flow',
      }));
  return [
    {
      type: 'action',
      uri: FLOW_URI,
      id: 'start_flow',
      title: 'Start a flow',
      hint: 'Starts another flow as if it was started from the app: its conditions are checked, then its actions run.',
      args: [flowArg],
      argProblem,
      autocomplete,
      run: async ({ args, source }) => {
        const { type, id } = target(args.flow);
        const trace = await engine.trigger(type, id, {}, source ?? null);
        return { status: trace.status };
      },
    },
    ...([true, false] as const).map(
      (enabled): FlowCardDefinition => ({
        type: 'action',
        uri: FLOW_URI,
        id: enabled ? 'enable_flow' : 'disable_flow',
        title: enabled ? 'Switch a flow on' : 'Switch a flow off',
        args: [flowArg],
        argProblem,
        autocomplete,
        run: ({ args }) => {
          const { type, id } = target(args.flow);
          deps.setEnabled(type, id, enabled);
          return {};
        },
      }),
    ),
  ];
}
