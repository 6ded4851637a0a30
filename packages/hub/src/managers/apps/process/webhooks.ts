import { isDeepStrictEqual } from 'node:util';
import { cloudOperations, HearthError } from '@hearth/contract';
import { hubSecret } from '@hearth/contract/hub-secret';
import { CloudCallError } from '../../../cloudlink/client';
import type { HubContext } from '../../../platform/context';
import type { AppProcessHost } from './host';

/**
 * Cloud webhooks apps listen to (`this.homey.cloud.createWebhook`). The cloud keeps one registration per webhook
 * and hub, with its `data`; the hub registers for an app's webhook there and hands each delivery of it (which
 * arrives on the bus as `cloud.webhook`, checked and seen once) to the apps whose registration it matches. Apps
 * listen as long as their process runs: when it ends, the hub's registration at the cloud goes too (unless
 * another app still listens).
 */
export class AppWebhooks {
  /** Per webhook id, the apps listening and the data each registered with. */
  readonly #listening = new Map<string, Map<string, Record<string, unknown>>>();

  constructor(
    private readonly context: HubContext,
    private readonly host: AppProcessHost,
  ) {}

  /** Registers the hub at the cloud for webhook `id` on app `appId`'s behalf. */
  async register(appId: string, id: string, data: Record<string, unknown>): Promise<void> {
    const { cloudUrl, cloudClientSecret, id: hubId } = this.context.config;
    if (!cloudUrl || !cloudClientSecret) throw new HearthError('unavailable', 'This hub is not linked to a cloud');
    try {
      await this.context.cloud.call(cloudOperations.webhooks.registerWebhookClient, {
        webhookId: id,
        homeyId: hubId,
        secret: hubSecret(cloudClientSecret, hubId),
        data,
      });
    } catch (error) {
      if (error instanceof CloudCallError && error.status === 404) throw new HearthError('not_found', `No cloud webhook ${id}`);
      throw new HearthError('offline', `The cloud did not take the registration for webhook ${id}; try again later`);
    }
    const apps = this.#listening.get(id) ?? new Map<string, Record<string, unknown>>();
    apps.set(appId, data);
    this.#listening.set(id, apps);
  }

  /** App `appId` stops listening to webhook `id`; the last app to stop ends the hub's registration. */
  async unregister(appId: string, id: string): Promise<void> {
    const apps = this.#listening.get(id);
    if (!apps?.delete(appId)) return;
    if (apps.size > 0) return;
    this.#listening.delete(id);
    const { cloudClientSecret, id: hubId } = this.context.config;
    if (!cloudClientSecret) return;
    await this.context.cloud
      .call(cloudOperations.webhooks.unregisterWebhookClient, {
        webhookId: id,
        homeyId: hubId,
        secret: hubSecret(cloudClientSecret, hubId),
      })
      // Gone already, or the cloud is away: deliveries of it now reach no app here either way.
      .catch((error) =>
        this.context.journal.log(`info webhook ${id}: unregistering with the cloud failed: ${(error as Error).message}`),
      );
  }

  /** The app's process ended: it listens to nothing any more. */
  forgetApp(appId: string): void {
    for (const [id, apps] of this.#listening) if (apps.has(appId)) void this.unregister(appId, id);
  }

  /** Hands deliveries to the listening apps; answers the function that stops it. */
  start(): () => void {
    return this.context.bus.on('cloud.webhook', 'app-webhooks', ({ webhookId, data, query, body, headers }) => {
      for (const [appId, registered] of this.#listening.get(webhookId) ?? []) {
        // The cloud holds one registration per hub: a delivery is for the app whose data it carries.
        if (!isDeepStrictEqual(registered, data)) continue;
        this.host.emit(appId, 'cloud.webhook', { webhookId, query: { ...query }, body: body ?? null, headers: { ...headers } });
      }
    });
  }
}
