import type { AppBridge } from '../internal/bridge';
import { type FlowCard, FlowCardAction, FlowCardCondition, FlowCardTrigger, FlowCardTriggerDevice } from '../lib/flow-card';
import { FlowToken, type FlowTokenType } from '../lib/flow-token';
import type { FlowCardKind } from '../protocol/messages';
import { Manager } from './manager';

const sections = { trigger: 'triggers', condition: 'conditions', action: 'actions' } as const;

/**
 * `this.homey.flow`: the app's flow cards (declared in the manifest's `flow` section, and by drivers) and its
 * global tokens. Get a card once, register its listeners, and fire triggers whenever they happen.
 */
export class ManagerFlow extends Manager {
  static ID = 'flow';
  readonly #cards = new Map<string, FlowCard>();
  readonly #tokens = new Map<string, FlowToken>();

  /** The trigger card `id` of the manifest. */
  getTriggerCard(id: string): FlowCardTrigger {
    return this.#card('trigger', id, FlowCardTrigger);
  }

  /** The device trigger card `id` (a trigger with a `device` argument, usually declared by a driver). */
  getDeviceTriggerCard(id: string): FlowCardTriggerDevice {
    return this.#card('trigger', id, FlowCardTriggerDevice);
  }

  getConditionCard(id: string): FlowCardCondition {
    return this.#card('condition', id, FlowCardCondition);
  }

  getActionCard(id: string): FlowCardAction {
    return this.#card('action', id, FlowCardAction);
  }

  /**
   * Creates a global token users can drop into any flow card (`type` string, number, boolean or image), with its
   * first value. Its id is the app's own: `[[homey:app:<appId>|<id>]]` in flows.
   */
  async createToken(id: string, opts: { type: string; title: string; value?: unknown }): Promise<FlowToken> {
    if (this.#tokens.has(id)) throw new Error(`Token ${id} already exists`);
    const type = opts.type as FlowTokenType;
    await this.bridge.call('flow.createToken', { id, type, title: opts.title, value: opts.value ?? null });
    const token = new FlowToken(id, { type, title: opts.title }, this.bridge, (t) => this.#tokens.delete(t.id));
    this.#tokens.set(id, token);
    return token;
  }

  /** A token this app created; throws when there is none. */
  getToken(id: string): FlowToken {
    const token = this.#tokens.get(id);
    if (!token) throw new Error(`Token not found: ${id}`);
    return token;
  }

  async unregisterToken(token: FlowToken): Promise<void> {
    await token.unregister();
  }

  /** @internal The card the hub asks to run, if the app ever got it (a card never asked for has no listener). */
  find(kind: FlowCardKind, id: string): FlowCard | undefined {
    return this.#cards.get(`${kind}:${id}`);
  }

  #card<C extends FlowCard>(
    kind: FlowCardKind,
    id: string,
    Class: new (id: string, kind: FlowCardKind, manifest: Record<string, unknown>, bridge: AppBridge) => C,
  ): C {
    const key = `${kind}:${id}`;
    const existing = this.#cards.get(key);
    if (existing) return existing as C;
    const flow = (this.homey.manifest.flow ?? {}) as Record<string, unknown>;
    const list = flow[sections[kind]];
    const manifest = Array.isArray(list) ? (list as Record<string, unknown>[]).find((card) => card?.id === id) : undefined;
    if (!manifest) throw new Error(`Invalid Flow Card ID: ${id} is not in the manifest's flow.${sections[kind]}`);
    const card = new Class(id, kind, manifest, this.bridge);
    this.#cards.set(key, card);
    return card;
  }
}
