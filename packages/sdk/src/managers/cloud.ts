import { unsupported } from '../internal/bridge';
import { Manager } from './manager';

/** `this.homey.cloud`: the hub's identity and address; cloud webhooks and OAuth2 callbacks are not offered yet. */
export class ManagerCloud extends Manager {
  static ID = 'cloud';

  /** The hub's id (as in `X-Homey-ID`). */
  async getHomeyId(): Promise<string> {
    return this.bridge.init.hubId;
  }

  /** The hub's address on the local network (host and port). */
  async getLocalAddress(): Promise<string> {
    return new URL(this.bridge.init.localUrl).host;
  }

  async createWebhook(_id: string, _secret: string, _data: object): Promise<never> {
    throw unsupported('ManagerCloud.createWebhook', 'cloud webhooks for apps are not offered yet');
  }

  async unregisterWebhook(_webhook: unknown): Promise<never> {
    throw unsupported('ManagerCloud.unregisterWebhook', 'cloud webhooks for apps are not offered yet');
  }

  async createOAuth2Callback(_apiUrl: string): Promise<never> {
    throw unsupported('ManagerCloud.createOAuth2Callback', 'cloud OAuth2 callbacks for apps are not offered yet');
  }
}
