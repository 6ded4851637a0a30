/** The entities the form reads (seed section 3). Fields the form does not use are left open. */

export interface HubApp {
  id: string;
  version: string;
  channel?: string;
  /** What the hub itself says of the app (`apps.getApps`), when it answered. */
  name?: string;
  /** Absolute address of the app's icon on the hub. */
  icon?: string;
  brandColor?: string;
  /** Part of the hub's own software (the virtual devices): the provider's, never in the app catalogue. */
  builtin?: boolean;
}

/** One hub of the signed-in user, as the cloud's user record lists it. */
export interface Hub {
  id: string;
  name: string;
  platform: 'cloud' | 'local';
  model: string;
  modelName: string;
  language: string;
  region: string;
  licenses: string[];
  users: unknown[];
  bridges: unknown[];
  apps: HubApp[];
  softwareVersion: string;
}

export interface Subscription {
  id: string;
  startedAt: string;
}

export interface User {
  id: string;
  firstname: string;
  lastname: string;
  fullname: string;
  email: string;
  avatar: { medium?: string; large?: string } | null;
  hubs: Hub[];
  subscriptions: Subscription[];
}

export interface Order {
  id: string;
  /** The short number people know the order by (their confirmation e-mail's). */
  number?: string;
  date: string;
  /** Names of the products ordered. */
  items?: string[];
}

export type Localized = string | Record<string, string>;

export interface AppDriver {
  id: string;
  connectivity?: string[];
}

export interface AppBuild {
  name: Localized;
  brandColor?: string;
  icon?: string;
  support?: string;
  bugs?: { url?: string } | string;
  homeyCommunityTopicId?: number | string;
  drivers?: AppDriver[];
}

/** An app's details from the app catalogue, or for a built-in app from the hub. */
export interface AppDetails {
  id: string;
  /** Built into the hub's software: made and supported by the provider. */
  builtin?: boolean;
  author: { userId: string; verified: boolean };
  liveBuild?: AppBuild | null;
  testBuild?: AppBuild | null;
  liveVersion?: string | null;
}

export interface Device {
  id: string;
  name: string;
  driverId: string;
  ownerUri?: string;
  iconObj?: { url?: string } | null;
}

export interface Article {
  id: string;
  name: string;
  html_url: string;
}

/** Picks the English (or first) text of a name that may be per language. */
export function localized(value: Localized | undefined, language = 'en'): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  return value[language] ?? value.en ?? Object.values(value)[0] ?? '';
}
