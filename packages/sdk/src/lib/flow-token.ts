import type { AppBridge } from '../internal/bridge';
import type { Image } from './image';

export type FlowTokenType = 'string' | 'number' | 'boolean' | 'image';

/**
 * A global flow token of the app (a "tag" users drop into cards), created with `this.homey.flow.createToken`.
 * It lives while the app runs.
 */
export class FlowToken {
  constructor(
    readonly id: string,
    readonly opts: { type: FlowTokenType; title: string },
    private readonly bridge: AppBridge,
    private readonly onUnregister: (token: FlowToken) => void,
  ) {}

  /** Sets the token's value (of its type; an `image` token takes an Image). */
  async setValue(value: string | number | boolean | Image): Promise<void> {
    const plain = typeof value === 'object' && value !== null ? value.id : value;
    await this.bridge.call('flow.setTokenValue', { id: this.id, value: plain });
  }

  /** Removes the token; flows using it become broken. */
  async unregister(): Promise<void> {
    await this.bridge.call('flow.unregisterToken', { id: this.id });
    this.onUnregister(this);
  }
}
