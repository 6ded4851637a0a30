import { HearthError, invalidParameter } from '@hearth/contract';
import type { ChangeSource, DomainBus } from '../../core/bus';
import { chosenId, type FlowCardDefinition, type FlowRegistry, registerCards, suggest } from '../flow/registry';
import { type Variable, type VariableStore, type VariableValue, valueKind } from './store';

export const LOGIC_URI = 'homey:manager:logic';

const COMPARATORS = [
  { id: 'lt', title: 'is less than' },
  { id: 'le', title: 'is at most' },
  { id: 'eq', title: 'equals' },
  { id: 'ne', title: 'does not equal' },
  { id: 'ge', title: 'is at least' },
  { id: 'gt', title: 'is greater than' },
];
const TEXT_COMPARATORS = [
  { id: 'equals', title: 'equals' },
  { id: 'contains', title: 'contains' },
  { id: 'starts_with', title: 'starts with' },
  { id: 'ends_with', title: 'ends with' },
];

function compareNumbers(a: number, comparator: string, b: number): boolean {
  switch (comparator) {
    case 'lt':
      return a < b;
    case 'le':
      return a <= b;
    case 'eq':
      return a === b;
    case 'ne':
      return a !== b;
    case 'ge':
      return a >= b;
    default:
      return a > b;
  }
}

function compareTexts(a: string, comparator: string, b: string): boolean {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  if (comparator === 'contains') return x.includes(y);
  if (comparator === 'starts_with') return x.startsWith(y);
  if (comparator === 'ends_with') return x.endsWith(y);
  return x === y;
}

/** The value a variable of `type` takes from a card's argument (a text from a token, say). */
function asVariableValue(variable: Variable, value: unknown): VariableValue {
  const kind = valueKind(variable.type);
  if (kind === 'number') {
    const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (typeof number !== 'number' || !Number.isFinite(number))
      throw invalidParameter('args.value', `${variable.name} holds a number`);
    return number;
  }
  if (kind === 'boolean') {
    if (value === true || value === 'true') return true;
    if (value === false || value === 'false') return false;
    throw invalidParameter('args.value', `${variable.name} holds true or false`);
  }
  return value === null || value === undefined ? '' : String(value);
}

/**
 * The logic manager's cards: a variable changed, a webhook was called; number, boolean and text comparisons; set
 * and increment a variable. `setValue` is the manager's own update of a variable (stored, announced, on the bus).
 */
export function serveLogicCards(deps: {
  registry: FlowRegistry;
  bus: DomainBus;
  store: VariableStore;
  setValue(variable: Variable, value: VariableValue, source: ChangeSource): Variable;
}): () => void {
  const { registry, bus, store } = deps;
  const variableArg = { name: 'variable', type: 'autocomplete', title: 'Variable' };
  const find = (value: unknown) => {
    const id = chosenId(value);
    const variable = id ? store.get(id) : undefined;
    if (!variable) throw new HearthError('not_found', 'The variable no longer exists');
    return variable;
  };
  const argProblem = (args: Record<string, unknown>) => {
    const id = chosenId(args.variable);
    return id && !store.get(id) ? 'the variable it uses is gone' : null;
  };
  const variables =
    (kinds?: string[]) =>
    ({ query }: { query: string }) =>
      suggest(
        store.list().filter((v) => !kinds || kinds.includes(valueKind(v.type))),
        query,
        (v) => ({ id: v.id, name: v.name }),
      );
  const cards: FlowCardDefinition[] = [
    {
      type: 'trigger',
      uri: LOGIC_URI,
      id: 'variable_changed',
      title: 'A variable changed',
      args: [variableArg],
      tokens: [{ id: 'value', title: 'Value', type: 'string' }],
      argProblem,
      autocomplete: variables(),
      run: ({ args, state }) => chosenId(args.variable) === state.variableId,
    },
    {
      type: 'trigger',
      uri: LOGIC_URI,
      id: 'webhook',
      title: 'A webhook was called',
      hint: 'Starts when GET /api/manager/logic/webhook/<event> is called, with its tag.',
      args: [{ name: 'event', type: 'text', title: 'Event' }],
      tokens: [{ id: 'tag', title: 'Tag', type: 'string' }],
      run: ({ args, state }) => args.event === state.event,
    },
    {
      type: 'condition',
      uri: LOGIC_URI,
      id: 'number_compare',
      title: 'A number compares',
      args: [
        { name: 'a', type: 'number', title: 'Number' },
        { name: 'comparator', type: 'dropdown', title: 'Comparison', values: COMPARATORS },
        { name: 'b', type: 'number', title: 'Number' },
      ],
      run: ({ args }) => compareNumbers(args.a as number, String(args.comparator), args.b as number),
    },
    {
      type: 'condition',
      uri: LOGIC_URI,
      id: 'boolean_is',
      title: 'A yes/no value is yes',
      hint: 'Drop a yes/no token on this card, or pick a yes/no variable.',
      args: [{ name: 'value', type: 'checkbox', title: 'Value' }],
      run: ({ args }) => args.value === true,
    },
    {
      type: 'condition',
      uri: LOGIC_URI,
      id: 'text_compare',
      title: 'A text compares',
      args: [
        { name: 'a', type: 'text', title: 'Text' },
        { name: 'comparator', type: 'dropdown', title: 'Comparison', values: TEXT_COMPARATORS },
        { name: 'b', type: 'text', title: 'Text' },
      ],
      run: ({ args }) => compareTexts(String(args.a), String(args.comparator), String(args.b)),
    },
    {
      type: 'action',
      uri: LOGIC_URI,
      id: 'variable_set',
      title: 'Set a variable',
      args: [variableArg, { name: 'value', type: 'text', title: 'Value' }],
      argProblem,
      autocomplete: variables(),
      run: ({ args, source }) => {
        const variable = find(args.variable);
        return { value: deps.setValue(variable, asVariableValue(variable, args.value), source ?? { kind: 'system' }).value };
      },
    },
    {
      type: 'action',
      uri: LOGIC_URI,
      id: 'variable_increment',
      title: 'Add to a number variable',
      args: [variableArg, { name: 'amount', type: 'number', title: 'Amount' }],
      argProblem,
      autocomplete: variables(['number']),
      run: ({ args, source }) => {
        const variable = find(args.variable);
        if (valueKind(variable.type) !== 'number') throw invalidParameter('args.variable', `${variable.name} holds no number`);
        const next = (variable.value as number) + (args.amount as number);
        return { value: deps.setValue(variable, next, source ?? { kind: 'system' }).value };
      },
    },
  ];
  const stops = [
    registerCards(registry, cards),
    bus.on('variable.changed', 'logic-cards', (change) =>
      registry.fire({
        uri: LOGIC_URI,
        id: 'variable_changed',
        tokens: { value: change.value },
        state: { variableId: change.variableId },
        source: change.source,
      }),
    ),
    bus.on('webhook.received', 'logic-cards', (call) =>
      registry.fire({
        uri: LOGIC_URI,
        id: 'webhook',
        tokens: { tag: call.tag ?? '' },
        state: { event: call.event },
        source: null,
      }),
    ),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}
