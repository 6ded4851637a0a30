import type { FlowCardKind } from '@hearth/sdk/protocol';
import type { FlowCardDefinition, FlowRegistry, FlowTokenEntry } from '../../flow/registry';
import type { AppService, InstalledApp } from '../service';
import type { AppProcessHost } from './host';

/** An app fired one of its trigger cards (`FlowCardTrigger.trigger`); the flow engine runs the flows using it. */
export interface AppTrigger {
  readonly uri: string;
  readonly id: string;
  /** The device whose device card fired, or `null` for an app card. */
  readonly deviceId: string | null;
  readonly tokens: Record<string, unknown>;
  readonly state: Record<string, unknown>;
  /**
   * Whether a flow with `args` should run for this firing: the card's run listener in the app decides (a card
   * without one matches every flow).
   */
  matches(args: Record<string, unknown>): Promise<boolean>;
}

type Translated = string | Record<string, string>;
const text = (value: unknown, language: string): string =>
  typeof value === 'string'
    ? value
    : ((value as Record<string, string> | undefined)?.[language] ?? (value as Record<string, string> | undefined)?.en ?? '');

/** The device a `device` argument names: `{ id, … }` as flows store it, or the id alone. */
const deviceIdOf = (value: unknown): string | null =>
  typeof value === 'string'
    ? value
    : typeof (value as { id?: unknown } | null)?.id === 'string'
      ? (value as { id: string }).id
      : null;

const sections: [FlowCardKind, 'triggers' | 'conditions' | 'actions'][] = [
  ['trigger', 'triggers'],
  ['condition', 'conditions'],
  ['action', 'actions'],
];

/**
 * The flow cards and tokens of apps running in processes: registered in the hub's flow registry while the app
 * runs (so flows using them are not broken and the engine can run them), and the triggers apps fire.
 */
export class AppFlowCards {
  readonly #registered = new Map<string, () => void>();
  readonly #tokens = new Map<string, Map<string, FlowTokenEntry>>();
  readonly #triggerListeners = new Set<(trigger: AppTrigger) => void>();
  readonly #registry: FlowRegistry;

  constructor(
    registry: FlowRegistry,
    private readonly apps: AppService,
    private readonly host: AppProcessHost,
    private readonly language: () => string,
  ) {
    this.#registry = registry;
  }

  /**
   * Registers the app's manifest cards while its process is up (from its start: a device's onInit may fire a card
   * before the app counts as running) or removes them (when it stopped).
   */
  sync(appId: string): void {
    const app = this.apps.find(appId);
    const state = this.host.status(appId).state;
    const running = app !== undefined && (state === 'running' || state === 'starting');
    if (running && !this.#registered.has(appId)) this.#registered.set(appId, this.#register(app));
    if (!running) {
      this.#registered.get(appId)?.();
      this.#registered.delete(appId);
      this.#tokens.delete(appId);
    }
  }

  /** Hears every trigger an app fires (the flow engine subscribes); answers the undo. */
  onTrigger(listener: (trigger: AppTrigger) => void): () => void {
    this.#triggerListeners.add(listener);
    return () => this.#triggerListeners.delete(listener);
  }

  trigger(
    appId: string,
    cardId: string,
    deviceId: string | null,
    tokens: Record<string, unknown>,
    state: Record<string, unknown>,
  ): void {
    const uri = `homey:app:${appId}`;
    const card = this.#registry.card('trigger', uri, cardId);
    const deviceArg = card?.args?.find((arg) => arg.type === 'device')?.name;
    if (!card) throw Object.assign(new Error(`The app has no trigger card ${cardId}`), { code: 'not_found' });
    const trigger: AppTrigger = {
      uri,
      id: cardId,
      deviceId,
      tokens,
      state,
      matches: async (args) => {
        // A device card fired for one device starts only the flows set up for that device.
        if (deviceId !== null && deviceArg !== undefined && deviceIdOf(args[deviceArg]) !== deviceId) return false;
        const { result } = await this.host.call(appId, 'flow.run', { kind: 'trigger', cardId, args, state, tokens, deviceId });
        return result === true;
      },
    };
    for (const listener of this.#triggerListeners) listener(trigger);
  }

  /**
   * The arguments of the flows using one of the app's cards (`FlowCard.getArgumentValues`); for a device's card,
   * only those set up for that device.
   */
  argumentValues(appId: string, kind: FlowCardKind, cardId: string, deviceId: string | null): Record<string, unknown>[] {
    const uri = `homey:app:${appId}`;
    const values = this.#registry.argumentValues(kind, uri, cardId);
    const deviceArg = this.#registry.card(kind, uri, cardId)?.args?.find((arg) => arg.type === 'device')?.name;
    if (deviceId === null || deviceArg === undefined) return values;
    return values.filter((args) => deviceIdOf(args[deviceArg]) === deviceId);
  }

  /** Tells each running app whose cards the stored flows changed for (its `FlowCard` emits `update`); the undo. */
  forwardUsageChanges(): () => void {
    return this.#registry.onUsageChanged((cards) => {
      for (const card of cards) {
        if (!card.uri.startsWith('homey:app:')) continue;
        const appId = card.uri.slice('homey:app:'.length);
        if (this.host.isRunning(appId)) this.host.emit(appId, 'flow.cardUpdated', { kind: card.type, cardId: card.id });
      }
    });
  }

  /** The app's global tokens (`homey.flow.createToken`), kept while it runs. */
  tokens(appId: string): Map<string, FlowTokenEntry> {
    let tokens = this.#tokens.get(appId);
    if (!tokens) {
      tokens = new Map();
      this.#tokens.set(appId, tokens);
    }
    return tokens;
  }

  /** Tells the registry's listeners the app's tokens changed. */
  tokensChanged(): void {
    this.#registry.changed();
  }

  #register(app: InstalledApp): () => void {
    const uri = `homey:app:${app.id}`;
    const language = this.language();
    const flow = (app.manifest.flow ?? {}) as Record<string, Record<string, unknown>[] | undefined>;
    const undo: (() => void)[] = [];
    for (const [kind, section] of sections) {
      for (const card of flow[section] ?? []) {
        const cardId = String(card.id);
        const args = (Array.isArray(card.args) ? card.args : []) as Record<string, unknown>[];
        const deviceArg = args.find((arg) => arg.type === 'device');
        const definition: FlowCardDefinition = {
          type: kind,
          uri,
          id: cardId,
          title: text(card.title as Translated, language),
          ...(card.hint ? { hint: text(card.hint, language) } : {}),
          ...(card.highlight === true ? { highlight: true } : {}),
          ...(card.deprecated === true ? { deprecated: true } : {}),
          ...(card.advanced === true ? { advanced: true } : {}),
          args: args.map((arg) => ({
            name: String(arg.name),
            type: String(arg.type),
            ...(arg.title ? { title: text(arg.title, language) } : {}),
            ...(arg.placeholder ? { placeholder: text(arg.placeholder, language) } : {}),
            ...(typeof arg.min === 'number' ? { min: arg.min } : {}),
            ...(typeof arg.max === 'number' ? { max: arg.max } : {}),
            ...(typeof arg.step === 'number' ? { step: arg.step } : {}),
            ...(typeof arg.filter === 'string' ? { filter: arg.filter } : {}),
            ...(arg.required === false ? { required: false } : {}),
            ...(Array.isArray(arg.values)
              ? {
                  values: (arg.values as { id: string; title?: unknown; label?: unknown }[]).map((v) => ({
                    id: v.id,
                    title: text(v.title ?? v.label ?? v.id, language),
                  })),
                }
              : {}),
          })),
          tokens: ((card.tokens ?? []) as Record<string, unknown>[]).map((token) => ({
            id: String(token.name),
            title: text(token.title, language),
            type: (token.type ?? 'string') as 'string' | 'number' | 'boolean' | 'image',
            ...(token.example !== undefined ? { example: token.example as string } : {}),
          })),
          run: async ({ args: given, tokens, state }) => {
            const deviceId = deviceArg ? deviceIdOf(given[String(deviceArg.name)]) : null;
            const { result } = await this.host.call(app.id, 'flow.run', { kind, cardId, args: given, state, tokens, deviceId });
            return result;
          },
          autocomplete: ({ name, query, args: given }) =>
            this.host.call(app.id, 'flow.autocomplete', { kind, cardId, argument: name, query, args: given }),
        };
        undo.push(this.#registry.registerCard(definition));
      }
    }
    undo.push(
      this.#registry.registerTokens({
        uri,
        list: () => [...(this.#tokens.get(app.id)?.values() ?? [])],
      }),
    );
    return () => {
      for (const step of undo) step();
    };
  }
}
