import { Manager } from './manager';

/** `this.homey.notifications`: notifications in the household's timeline. */
export class ManagerNotifications extends Manager {
  static ID = 'notifications';

  /**
   * Adds a notification from this app to the timeline. Words between `*asterisks*` are highlighted.
   * Needs no permission.
   */
  async createNotification({ excerpt }: { excerpt: string }): Promise<void> {
    await this.bridge.call('notifications.create', { excerpt });
  }
}
