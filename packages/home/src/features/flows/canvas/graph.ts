/**
 * An advanced flow as the canvas holds it, and the way to and from the hub's wire form: a `cards` map keyed by
 * uuid whose nodes (`trigger`, `condition`, `action`, `start`, `delay`, `any`, `all`, `note`) carry `x`/`y`, with
 * each edge stored on its source node as the target's key in `outputSuccess`, `outputError` (actions),
 * `outputTrue` or `outputFalse` (conditions); an `all` node lists what it waits for in `input`
 * (`<source key>::<port>`).
 */
import type { AdvancedFlowNode } from '@hearth/contract';
import { type CardType, type DraftCard, ownedCard } from '../editor/draft';

export type NodeKind = AdvancedFlowNode['type'];
export type Port = 'outputSuccess' | 'outputError' | 'outputTrue' | 'outputFalse';
export const PORTS: readonly Port[] = ['outputSuccess', 'outputError', 'outputTrue', 'outputFalse'];

/** The outputs each kind of node has, in the order they are drawn. */
export const PORTS_OF: Record<NodeKind, readonly Port[]> = {
  trigger: ['outputSuccess'],
  start: ['outputSuccess'],
  condition: ['outputTrue', 'outputFalse'],
  action: ['outputSuccess', 'outputError'],
  delay: ['outputSuccess'],
  any: ['outputSuccess'],
  all: ['outputSuccess'],
  note: [],
};

/** Whether an edge may end at a node of this kind (where a run enters the graph, none does; a note never). */
export const takesInput = (kind: NodeKind) => kind !== 'trigger' && kind !== 'start' && kind !== 'note';

/** A node without its edges (those are kept apart while editing). */
export type NodeData = Omit<AdvancedFlowNode, PortField | 'input'>;
type PortField = Port;

export interface GraphNode {
  key: string;
  node: NodeData;
}

export interface GraphEdge {
  source: string;
  port: Port;
  target: string;
}

export const edgeId = (edge: GraphEdge) => `${edge.source}:${edge.port}:${edge.target}`;

/** The canvas's nodes and edges from a stored flow's `cards` (edges to nodes that do not exist are dropped). */
export function fromCards(cards: Readonly<Record<string, AdvancedFlowNode>>): { nodes: GraphNode[]; edges: GraphEdge[] } {
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  for (const [key, card] of Object.entries(cards)) {
    const { outputSuccess, outputError, outputTrue, outputFalse, input: _input, ...node } = card;
    nodes.push({ key, node });
    const outputs: Record<Port, string[] | undefined> = { outputSuccess, outputError, outputTrue, outputFalse };
    for (const port of PORTS)
      for (const target of outputs[port] ?? []) if (cards[target]) edges.push({ source: key, port, target });
  }
  return { nodes, edges };
}

/** The wire `cards` map: each node with its position, its outputs from the edges, and an `all` node's inputs. */
export function toCards(nodes: readonly GraphNode[], edges: readonly GraphEdge[]): Record<string, AdvancedFlowNode> {
  const cards: Record<string, AdvancedFlowNode> = {};
  const keys = new Set(nodes.map((node) => node.key));
  for (const { key, node } of nodes) {
    const card: AdvancedFlowNode = { ...node, x: Math.round(node.x), y: Math.round(node.y) };
    for (const port of PORTS_OF[node.type]) {
      const targets = edges.filter((edge) => edge.source === key && edge.port === port && keys.has(edge.target));
      card[port] = targets.map((edge) => edge.target);
    }
    if (node.type === 'all')
      card.input = edges
        .filter((edge) => edge.target === key && keys.has(edge.source))
        .map((edge) => `${edge.source}::${edge.port}`);
    cards[key] = card;
  }
  return cards;
}

/** Whether an edge may be drawn: from a port its source has, to a node that takes input, not to itself, once. */
export function canConnect(nodes: readonly GraphNode[], edges: readonly GraphEdge[], edge: GraphEdge): boolean {
  const source = nodes.find((node) => node.key === edge.source);
  const target = nodes.find((node) => node.key === edge.target);
  if (!source || !target || source.key === target.key) return false;
  if (!PORTS_OF[source.node.type].includes(edge.port) || !takesInput(target.node.type)) return false;
  return !edges.some((other) => edgeId(other) === edgeId(edge));
}

/**
 * A version 4 uuid (the hub keys advanced-flow nodes by uuid). From `getRandomValues`, which a page served over
 * plain http on the home network has, where `crypto.randomUUID` is missing.
 */
export function uuid(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Where the hub's refusal of an advanced flow points: `Invalid Parameter: cards.<key>.args.delay.number. …` names
 * a node and the field in it (`args.<name>`, or the node itself); `name` the flow's name.
 */
export function advancedRefusalTarget(message: string): { node: string | null; field: string | null; reason: string } | null {
  const found = /^(?:Invalid Parameter(?: Type)?|Missing Parameter): ([\w.:-]+?)\.?(?:\s|$)(.*)$/s.exec(message);
  if (!found) return null;
  const parts = (found[1] as string).split('.');
  if (parts[0] === 'advancedflow') parts.shift();
  const reason = (found[2] as string).trim() || message;
  if (parts[0] === 'name') return { node: null, field: 'name', reason };
  if (parts[0] !== 'cards' || !parts[1]) return null;
  const field = parts[2] === 'args' && parts[3] ? `arg.${parts[3]}` : null;
  return { node: parts[1], field, reason };
}

/** A card node as the standard editor's fields see it (they edit `args` of a card of a type). */
export const asDraftCard = (key: string, node: NodeData): DraftCard => ({
  key,
  type: node.type as CardType,
  ...ownedCard(node.ownerUri, node.id ?? ''),
  args: (node.args ?? {}) as Record<string, unknown>,
  droptoken: node.droptoken ?? null,
});
export const isCardNode = (node: NodeData) => node.type === 'trigger' || node.type === 'condition' || node.type === 'action';
