import { accountOperations } from './account';
import { appsOperations } from './apps';
import { backupServiceOperations } from './backup';
import { callbackOperations } from './callback';
import { certificateOperations } from './certificate';
import { cloudAccountOperations } from './cloud';
import { connectOperations } from './connect';
import { flowShareOperations } from './flowshare';
import { geolocateOperations } from './geolocate';
import { helpdeskOperations } from './helpdesk';
import { householdOperations } from './household';
import { iconsOperations } from './icons';
import { infraredOperations } from './infrared';
import { pushOperations } from './notifications';
import { passkeyOperations } from './passkeys';
import { regionOperations } from './region';
import { setupOperations } from './setup';
import { storeOperations } from './store';
import { storeEntitlementOperations } from './store-entitlements';
import { storeOfferOperations } from './store-offers';
import { storeOrderOperations, storePaymentOperations } from './store-orders';
import { storeShopOperations, storeUserdataOperations } from './store-shop';
import { storeSubscriptionOperations } from './store-subscriptions';
import { storeVatOperations } from './store-vat';
import { updateOperations } from './update';
import { cloudWeatherOperations } from './weather';
import { webhooksOperations } from './webhooks';

/** Every cloud operation, grouped by service. Each service's operations live in their own file. */
export const cloudOperations = {
  cloud: { ...cloudAccountOperations, ...accountOperations, ...passkeyOperations, ...householdOperations },
  apps: appsOperations,
  store: {
    ...storeOperations,
    ...storeShopOperations,
    ...storeUserdataOperations,
    ...storeVatOperations,
    ...storeOrderOperations,
    ...storePaymentOperations,
    ...storeSubscriptionOperations,
    ...storeOfferOperations,
    ...storeEntitlementOperations,
  },
  helpdesk: helpdeskOperations,
  callback: callbackOperations,
  icons: iconsOperations,
  region: regionOperations,
  weather: cloudWeatherOperations,
  geolocate: geolocateOperations,
  update: updateOperations,
  flow: flowShareOperations,
  backup: backupServiceOperations,
  webhooks: webhooksOperations,
  setup: setupOperations,
  notifications: pushOperations,
  connect: connectOperations,
  certificate: certificateOperations,
  infrared: infraredOperations,
} as const;

/** What each cloud service is about, for the API reference (one line under the service's name). */
export const cloudServiceDescriptions: { readonly [S in keyof typeof cloudOperations]: string } = {
  cloud: 'Accounts and sign-in (OAuth2 and delegation tokens), profiles, sessions, two-factor sign-in, hubs and their household.',
  apps: 'The app catalogue: apps, builds, submissions, reviews and search.',
  store: 'The store: the catalogue, each user’s cart and store locale, orders, subscriptions, offers and coupons.',
  helpdesk: 'Support: knowledge-base articles, ticket attachments and tickets.',
  callback: "A stable cloud address that forwards an OAuth2 provider's answer to the app that asked for it.",
  icons: 'Device and app icons.',
  region: 'The region this cloud serves, and its status.',
  weather: 'Weather and forecasts for a location.',
  geolocate: 'The city, coordinates and time zone an IP address is registered in.',
  update: 'Release notes of hub software versions.',
  flow: 'Sharing flows: publish a flow and import one shared with you.',
  backup: 'Hub backups stored in the cloud.',
  webhooks: 'Webhooks: public addresses whose calls the cloud delivers, signed, to the hubs registered for them.',
  setup: 'Device setup sessions: the app and a new hub meet in the cloud to sign in, claim and configure the hub.',
  connect:
    'The connect relay: each hub’s remote address, carried through the tunnel the hub keeps to the cloud, and the calls forwarded to hubs away from home (ping, invitations, push answers, mobile events, OAuth2 answers, webhooks).',
  certificate: 'The cloud’s certificate authority: TLS certificates for hubs’ local secure addresses.',
  infrared: 'The infrared database: brands, types and devices with their codes in Pronto hex.',
  notifications: 'Push notifications to the devices people registered (Web Push with the cloud’s VAPID key).',
};

export * from './account';
export * from './apps';
export * from './apps-app';
export * from './apps-builds';
export * from './apps-crashes';
export * from './apps-feedback';
export * from './apps-records';
export * from './apps-search';
export * from './apps-submissions';
export * from './backup';
export * from './callback';
export * from './certificate';
export * from './cloud';
export * from './cloud-bridges';
export * from './cloud-hubs';
export * from './cloud-mail';
export * from './cloud-oauth';
export * from './cloud-records';
export * from './cloud-statistics';
export * from './cloud-users';
export * from './connect';
export * from './flowshare';
export * from './geolocate';
export * from './helpdesk';
export * from './household';
export * from './icons';
export * from './infrared';
export * from './notifications';
export * from './passkeys';
export * from './region';
export * from './setup';
export * from './store';
export * from './store-entitlements';
export * from './store-offers';
export * from './store-orders';
export * from './store-shop';
export * from './store-subscriptions';
export * from './store-vat';
export * from './update';
export * from './weather';
export * from './webhooks';
