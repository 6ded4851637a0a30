import type { AppBridge } from '../internal/bridge';
import type { FlowCardKind } from '../protocol/messages';
import { type DeviceRef, deviceIdOf } from './device';
import { SimpleClass } from './simple-class';

/** One suggestion of an autocomplete argument; extra fields come back in the argument's value at run time. */
export interface ArgumentAutocompleteResult {
  name: string;
  description?: string;
  icon?: string;
  image?: string;
  [key: string]: unknown;
}
export type ArgumentAutocompleteResults = ArgumentAutocompleteResult[];
export type ArgumentAutocompleteCallback = (
  query: string,
  args: Record<string, unknown>,
) => Promise<ArgumentAutocompleteResults> | ArgumentAutocompleteResults;
/**
 * Runs the card. A trigger's listener answers whether a flow's `args` match the `state` it was fired with; a
 * condition's answers `true` or `false` (throwing stops the flow); an action's may answer tokens (Advanced Flow).
 */
export type RunCallback = (args: Record<string, unknown>, state: Record<string, unknown>) => unknown;

/** An argument of a flow card, for its autocomplete listener. */
export class FlowArgument extends SimpleClass {
  #listener: ArgumentAutocompleteCallback | undefined;

  constructor(
    readonly card: FlowCard,
    readonly name: string,
  ) {
    super();
  }

  /** Answers the suggestions a user sees while filling in this (`autocomplete`) argument. */
  registerAutocompleteListener(listener: ArgumentAutocompleteCallback): this {
    if (typeof listener !== 'function') throw new TypeError('An autocomplete listener must be a function');
    this.#listener = listener;
    return this;
  }

  /** @internal */
  get autocompleteListener(): ArgumentAutocompleteCallback | undefined {
    return this.#listener;
  }
}

/**
 * A flow card of the app's manifest (`flow.triggers`, `flow.conditions`, `flow.actions`). Get it from
 * `this.homey.flow` and register its listeners, usually in the app's or driver's `onInit`.
 *
 * Event `update`: the arguments of the flows using this card changed (see `getArgumentValues`).
 */
export class FlowCard extends SimpleClass {
  readonly #arguments = new Map<string, FlowArgument>();
  #runListener: RunCallback | undefined;

  constructor(
    /** The card's id in the manifest. */
    readonly id: string,
    readonly type: FlowCardKind,
    /** The card's manifest entry. */
    readonly manifest: Record<string, unknown>,
    protected readonly bridge: AppBridge,
  ) {
    super();
  }

  /** Sets the function that runs the card (see {@link RunCallback}). */
  registerRunListener(listener: RunCallback): this {
    if (typeof listener !== 'function') throw new TypeError('A run listener must be a function');
    this.#runListener = listener;
    return this;
  }

  /** Shorthand for `getArgument(name).registerAutocompleteListener(listener)`. */
  registerArgumentAutocompleteListener(name: string, listener: ArgumentAutocompleteCallback): this {
    this.getArgument(name).registerAutocompleteListener(listener);
    return this;
  }

  /** An argument the manifest declares for this card; throws for one it does not. */
  getArgument(name: string): FlowArgument {
    const declared = Array.isArray(this.manifest.args)
      ? (this.manifest.args as { name?: unknown }[]).some((arg) => arg?.name === name)
      : false;
    if (!declared) throw new Error(`Flow card ${this.id} has no argument ${name}`);
    let argument = this.#arguments.get(name);
    if (!argument) {
      argument = new FlowArgument(this, name);
      this.#arguments.set(name, argument);
    }
    return argument;
  }

  /** The arguments of every flow that uses this card. */
  async getArgumentValues(device?: DeviceRef): Promise<Record<string, unknown>[]> {
    const deviceId = device ? deviceIdOf(device) : null;
    return this.bridge.call('flow.argumentValues', { kind: this.type, cardId: this.id, deviceId });
  }

  /** @internal */
  get runListener(): RunCallback | undefined {
    return this.#runListener;
  }
}

/** An app trigger card (`flow.triggers`). */
export class FlowCardTrigger extends FlowCard {
  /**
   * Fires the card: every enabled flow starting with it runs, with `tokens` (the card's declared tokens) and
   * `state` (given to this card's run listener, which decides per flow whether its args match).
   */
  async trigger(tokens: object = {}, state: object = {}): Promise<void> {
    await this.bridge.call('flow.trigger', { cardId: this.id, tokens: { ...tokens }, state: { ...state }, deviceId: null });
  }
}

/** A trigger card for one device at a time (a card with a `device` argument, usually declared by a driver). */
export class FlowCardTriggerDevice extends FlowCard {
  /** Fires the card for `device`'s flows only. */
  async trigger(device: DeviceRef, tokens: object = {}, state: object = {}): Promise<void> {
    const deviceId = deviceIdOf(device);
    await this.bridge.call('flow.trigger', { cardId: this.id, tokens: { ...tokens }, state: { ...state }, deviceId });
  }
}

/** A condition card (`flow.conditions`). */
export class FlowCardCondition extends FlowCard {}

/** An action card (`flow.actions`). */
export class FlowCardAction extends FlowCard {}
