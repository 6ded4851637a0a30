import { unsupported } from '../internal/bridge';
import { CloudWebhook, type CloudWebhookMessage } from '../lib/cloud-webhook';
import { Manager } from './manager';

/** `this.homey.cloud`: the hub's identity and address, and cloud webhooks; OAuth2 callbacks are not offered yet. */
export class ManagerCloud extends Manager {
  static ID = 'cloud';
  readonly #webhooks = new Map<string, CloudWebhook>();

  /** The hub's id (as in `X-Homey-ID`). */
  async getHomeyId(): Promise<string> {
    return this.bridge.init.hubId;
  }

  /** The hub's address on the local network (host and port). */
  async getLocalAddress(): Promise<string> {
    return new URL(this.bridge.init.localUrl).host;
  }

  /**
   * Listens to cloud webhook `id`: the hub registers for it at its cloud with `data` (its `$key` picks which calls
   * reach this hub, by the webhook's key path). `secret` is kept on the webhook object: the Hearth cloud checks
   * the hub's own secret instead. Rejects when the hub is not linked to a cloud.
   */
  async createWebhook(id: string, secret: string, data: object): Promise<CloudWebhook> {
    if (typeof id !== 'string' || id === '') throw new TypeError('createWebhook needs a webhook id');
    const given = (data ?? {}) as Record<string, unknown>;
    await this.bridge.call('cloud.registerWebhook', { id, data: given });
    const webhook = new CloudWebhook(id, secret, given, (w) => this.unregisterWebhook(w));
    this.#webhooks.set(id, webhook);
    return webhook;
  }

  async unregisterWebhook(webhook: CloudWebhook): Promise<void> {
    if (this.#webhooks.get(webhook.id) !== webhook) return;
    this.#webhooks.delete(webhook.id);
    await this.bridge.call('cloud.unregisterWebhook', { id: webhook.id });
  }

  async createOAuth2Callback(_apiUrl: string): Promise<never> {
    throw unsupported('ManagerCloud.createOAuth2Callback', 'cloud OAuth2 callbacks for apps are not offered yet');
  }

  /** @internal A call of webhook `webhookId` the hub delivered. */
  deliver(webhookId: string, message: CloudWebhookMessage): void {
    this.#webhooks.get(webhookId)?.emit('message', message);
  }
}
