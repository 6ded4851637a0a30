import type { HubFacts, OptionDefinition } from '../types';
import { hubAction } from './hub';

export type SubscriptionKind = 'backups' | 'premium' | 'developer' | 'unlisted';

/** A subscription's kind from its id prefix; any other prefix is treated as unlisted. */
export function subscriptionKind(id: string): SubscriptionKind {
  if (id.startsWith('homey_plus_')) return 'backups';
  if (id.startsWith('homey_premium_')) return 'premium';
  if (id.startsWith('homey_developer_')) return 'developer';
  return 'unlisted';
}

export const subscriptionTitles: Record<Exclude<SubscriptionKind, 'unlisted'>, string> = {
  backups: 'Hearth Pro Backups',
  premium: 'Hearth Premium',
  developer: 'Hearth Developer',
};

/** The options of the main category, built from the signed-in user's account, hubs, orders and subscriptions. */
export const mainOptions = {
  account: (fullname: string): OptionDefinition => ({
    value: 'account',
    label: fullname,
    action: 'account',
    articles: [],
    tags: ['account'],
  }),
  hub: (hub: HubFacts): OptionDefinition => ({
    value: `hub:${hub.id}`,
    label: hub.name,
    action: hubAction(hub),
    articles: [],
    tags: ['hub'],
  }),
  hubNotListed: (label: string): OptionDefinition => ({
    value: 'hubNotListed',
    label,
    action: 'knowledgeBaseTicket',
    articles: ['hub-not-listed'],
    tags: ['hub', 'hub_not_listed'],
  }),
  order: (id: string, label: string): OptionDefinition => ({
    value: `order:${id}`,
    label,
    action: 'knowledgeBaseTicket',
    articles: ['order-status', 'returns-and-refunds'],
    tags: ['order'],
  }),
  orderNotListed: (label: string): OptionDefinition => ({
    value: 'orderNotListed',
    label,
    action: 'knowledgeBaseTicket',
    articles: ['order-not-listed', 'order-status'],
    tags: ['order', 'order_not_listed'],
  }),
  subscription: (id: string, label: string): OptionDefinition => {
    const kind = subscriptionKind(id);
    const base = { value: `subscription:${id}`, label };
    switch (kind) {
      case 'backups':
        return { ...base, action: 'knowledgeBaseTicket', articles: ['backups'], tags: ['subscription', 'subscription_backups'] };
      case 'premium':
        return { ...base, action: 'knowledgeBaseTicket', articles: ['premium'], tags: ['subscription', 'subscription_premium'] };
      case 'developer':
        return { ...base, action: 'ticket', articles: [], tags: ['subscription', 'subscription_developer'] };
      default:
        return {
          ...base,
          action: 'knowledgeBaseTicket',
          articles: ['subscription-not-listed'],
          tags: ['subscription', 'subscription_not_listed'],
        };
    }
  },
  subscriptionNotListed: (label: string): OptionDefinition => ({
    value: 'subscriptionNotListed',
    label,
    action: 'knowledgeBaseTicket',
    articles: ['subscription-not-listed'],
    tags: ['subscription', 'subscription_not_listed'],
  }),
};
