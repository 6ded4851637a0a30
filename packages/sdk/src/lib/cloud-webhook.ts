import { SimpleClass } from './simple-class';

/** What a webhook call carried, as its `message` event gives it. */
export interface CloudWebhookMessage {
  headers: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
}

/**
 * A cloud webhook the app listens to (`this.homey.cloud.createWebhook`): each call of the webhook's address that
 * the cloud delivers to this hub (and that matches `data`) is a `message` event with its headers, query and body.
 */
export class CloudWebhook extends SimpleClass {
  constructor(
    public id: string,
    public secret: string,
    public data: object,
    private readonly onUnregister: (webhook: CloudWebhook) => Promise<void>,
  ) {
    super();
  }

  /** Stops listening to the webhook (the same as `this.homey.cloud.unregisterWebhook(webhook)`). */
  async unregister(): Promise<void> {
    await this.onUnregister(this);
  }

  toJSON(): { id: string; secret: string; data: object } {
    return { id: this.id, secret: this.secret, data: this.data };
  }
}
