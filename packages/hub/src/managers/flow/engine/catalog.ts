import type { StoredAdvancedFlow, StoredFlow } from '../health';
import type { AdvancedNode } from './advanced';
import type { FlowType } from './traces';

/** How a flow treats a trigger that arrives while it runs (Home Assistant's names); `parallel` by default. */
export type RunMode = 'single' | 'restart' | 'queued' | 'parallel';
export const DEFAULT_MODE: RunMode = 'parallel';
/** Runs of one flow at once (`parallel`) or waiting (`queued`), unless the flow says otherwise. */
export const DEFAULT_MAX = 20;

export type EngineFlow = StoredFlow & { mode?: RunMode; max?: number };
export type EngineAdvancedFlow = Omit<StoredAdvancedFlow, 'cards'> & {
  cards: Record<string, AdvancedNode>;
  mode?: RunMode;
  max?: number;
};
export type AnyFlow = { type: 'flow'; flow: EngineFlow } | { type: 'advancedflow'; flow: EngineAdvancedFlow };

/** A flow that a trigger card starts: a standard flow by its trigger, an advanced flow by one of its trigger nodes. */
export interface TriggerEntry {
  readonly type: FlowType;
  readonly flowId: string;
  /** {@link flowKey} of the flow. */
  readonly key: string;
  /** Advanced flows: the trigger node's key. */
  readonly node: string | null;
}

const triggerKey = (uri: string, id: string) => `${uri}\u0000${id}`;
export const flowKey = (type: FlowType, id: string) => `${type}:${id}`;

/**
 * The flows the engine runs, in memory, and which flows each trigger card starts: a trigger fired finds its flows
 * by card and owner in one map lookup, never by looking through all flows. The flow manager tells it of every
 * change it stores.
 */
export class FlowCatalog {
  readonly #flows = new Map<string, AnyFlow>();
  readonly #byTrigger = new Map<string, Map<string, TriggerEntry>>();
  /** The entries of `#byTrigger` as a list, made when first asked after a change of that trigger's flows. */
  readonly #lists = new Map<string, readonly TriggerEntry[]>();
  readonly #triggersOf = new Map<string, string[]>();

  load(flows: readonly AnyFlow[]): void {
    this.#flows.clear();
    this.#byTrigger.clear();
    this.#lists.clear();
    this.#triggersOf.clear();
    for (const flow of flows) this.put(flow);
  }

  get(type: FlowType, id: string): AnyFlow | undefined {
    return this.#flows.get(flowKey(type, id));
  }

  /** A flow by its {@link flowKey}. */
  byKey(key: string): AnyFlow | undefined {
    return this.#flows.get(key);
  }

  all(): AnyFlow[] {
    return [...this.#flows.values()];
  }

  get size(): number {
    return this.#flows.size;
  }

  /** The flows a fired trigger card starts. */
  triggered(uri: string, id: string): readonly TriggerEntry[] {
    const key = triggerKey(uri, id);
    const listed = this.#lists.get(key);
    if (listed) return listed;
    const entries = this.#byTrigger.get(key);
    if (!entries) return [];
    const list = [...entries.values()];
    this.#lists.set(key, list);
    return list;
  }

  put(entry: AnyFlow): void {
    const key = flowKey(entry.type, entry.flow.id);
    this.remove(entry.type, entry.flow.id);
    this.#flows.set(key, entry);
    const triggers: { uri: string; id: string; node: string | null }[] =
      entry.type === 'flow'
        ? [{ uri: entry.flow.trigger.uri, id: entry.flow.trigger.id, node: null }]
        : Object.entries(entry.flow.cards).flatMap(([node, card]) =>
            card.type === 'trigger' && card.id ? [{ uri: card.ownerUri ?? '', id: card.id, node }] : [],
          );
    const keys: string[] = [];
    for (const trigger of triggers) {
      const tk = triggerKey(trigger.uri, trigger.id);
      let entries = this.#byTrigger.get(tk);
      if (!entries) {
        entries = new Map();
        this.#byTrigger.set(tk, entries);
      }
      entries.set(`${key}\u0000${trigger.node ?? ''}`, { type: entry.type, flowId: entry.flow.id, key, node: trigger.node });
      this.#lists.delete(tk);
      keys.push(tk);
    }
    this.#triggersOf.set(key, keys);
  }

  remove(type: FlowType, id: string): void {
    const key = flowKey(type, id);
    this.#flows.delete(key);
    for (const tk of this.#triggersOf.get(key) ?? []) {
      const entries = this.#byTrigger.get(tk);
      if (!entries) continue;
      for (const entryKey of [...entries.keys()]) if (entryKey.startsWith(`${key}\u0000`)) entries.delete(entryKey);
      if (entries.size === 0) this.#byTrigger.delete(tk);
      this.#lists.delete(tk);
    }
    this.#triggersOf.delete(key);
  }
}
