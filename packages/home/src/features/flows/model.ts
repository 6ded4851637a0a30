import type { hubOperations, OperationResult } from '@hearth/contract';
import { HOME_PAGES } from '@hearth/contract/provider';

export type FlowKind = 'flow' | 'advancedflow';

export interface FlowSummary {
  id: string;
  name: string;
  enabled: boolean;
  broken: boolean;
  triggerable: boolean;
  folder: string | null;
  order: number;
}

export type Folder = OperationResult<typeof hubOperations.flow.getFlowFolder>;

/** Folders in the order the flows page lists them. */
export const sortedFolders = (folders: readonly Folder[]): Folder[] =>
  [...folders].sort((a, b) => a.order - b.order || a.name.localeCompare(b.name));

export interface TraceStep {
  at: number;
  kind: string;
  card?: string;
  /** The card's title and its owner's name, as the hub words them ("Turn on — Hallway light"). */
  title?: string;
  group?: string;
  node?: string;
  outcome: string;
  message?: string;
  dueAt?: number;
  ms?: number;
}

export interface Trace {
  id: string;
  flowId: string;
  flowType: FlowKind;
  flowName: string;
  startedAt: string;
  finishedAt: string | null;
  status: string;
  trigger: Record<string, unknown>;
  steps: TraceStep[];
}

export interface Pending {
  id: string;
  flowId: string;
  runId: string;
  card: string | null;
  dueAt: string;
}

/** An advanced flow's address carries its kind, so one page serves both: `/flows/advanced:<id>`. */
export const flowPath = (kind: FlowKind, id: string) =>
  HOME_PAGES.flow.replace(':id', encodeURIComponent(kind === 'advancedflow' ? `advanced:${id}` : id));

/** Where a flow is edited (`HOME_PAGES.flowEdit`; an advanced flow's address carries its kind, as on its page). */
export const flowEditPath = (kind: FlowKind, id: string) =>
  HOME_PAGES.flowEdit.replace(':id', encodeURIComponent(kind === 'advancedflow' ? `advanced:${id}` : id));

export function parseFlowParam(param: string): { kind: FlowKind; id: string } {
  const decoded = decodeURIComponent(param);
  return decoded.startsWith('advanced:') ? { kind: 'advancedflow', id: decoded.slice(9) } : { kind: 'flow', id: decoded };
}

/** A card's `<owner uri>:<card id>` as a person reads it: the card id in words. */
export const cardWords = (card: string | undefined): string => (card ? (card.split(':').pop() ?? card).replaceAll('_', ' ') : '');
