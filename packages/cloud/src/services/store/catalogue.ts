import { HUB_MODELS, type StoreCurrencyValue } from '@hearth/contract';

/**
 * The store's catalogue, kept as data and loaded into `store_products` at start (a product's stock then lives in
 * the database). Prices are the shop's own, in cents with VAT included.
 */
export interface CatalogueProduct {
  sku: string;
  kind: 'hub' | 'addon' | 'subscription';
  name: string;
  description: string;
  prices: Record<StoreCurrencyValue, number>;
  /** Items in stock when the catalogue is first loaded; `null` for what is never out of stock. */
  stock: number | null;
  options: { id: string; values: string[] }[];
  subscription: { type: string; duration: string } | null;
}

const PLUG = { id: 'plug', values: ['EU', 'UK', 'US'] };
const price = (EUR: number, USD: number, GBP: number) => ({ EUR, USD, GBP });
const subscription = (sku: string, name: string, description: string, prices: Record<StoreCurrencyValue, number>) => {
  const [, type, period] = /^(homey_[a-z]+)_(\d+m)$/.exec(sku) as RegExpExecArray;
  return {
    sku,
    kind: 'subscription' as const,
    name,
    description,
    prices,
    stock: null,
    options: [],
    subscription: { type: type as string, duration: period === '12m' ? 'P1Y' : `P${Number.parseInt(period as string, 10)}M` },
  };
};

export const CATALOGUE: CatalogueProduct[] = [
  {
    sku: 'hearth-pro-2023',
    kind: 'hub',
    name: HUB_MODELS['hearth-pro-5q'].modelName,
    description: 'The hub for a whole home: Zigbee, Z-Wave, Thread, 433 and 868 MHz, infrared and Bluetooth.',
    prices: price(39_900, 42_900, 34_900),
    stock: 250,
    options: [PLUG],
    subscription: null,
  },
  {
    sku: 'hearth-pro-mini',
    kind: 'hub',
    name: HUB_MODELS['hearth-pro-mini-6q'].modelName,
    description: 'The small hub: Zigbee, Thread and Bluetooth, for a flat or a first smart home.',
    prices: price(19_900, 21_900, 17_900),
    stock: 500,
    options: [PLUG],
    subscription: null,
  },
  {
    sku: 'hearth-cloud',
    kind: 'hub',
    name: HUB_MODELS['hearth-cloud'].modelName,
    description: 'A hub that runs in the cloud, for devices that connect over the internet. One-time activation.',
    prices: price(4_900, 5_400, 4_300),
    stock: null,
    options: [],
    subscription: null,
  },
  {
    sku: 'hearth-bridge',
    kind: 'addon',
    name: 'Hearth Bridge',
    description: 'Extends a Hearth Cloud hub with local Zigbee, 433 MHz and infrared radios.',
    prices: price(6_900, 7_500, 5_900),
    stock: 400,
    options: [PLUG],
    subscription: null,
  },
  {
    sku: 'hearth-energy-dongle',
    kind: 'addon',
    name: 'Hearth Energy Dongle',
    description: 'Reads the smart meter’s P1 port for the energy overview.',
    prices: price(4_900, 5_400, 4_300),
    stock: 300,
    options: [],
    subscription: null,
  },
  {
    sku: 'hearth-ethernet-adapter',
    kind: 'addon',
    name: 'Hearth Ethernet Adapter',
    description: 'Wired network for a Hearth Pro, powered over its USB-C port.',
    prices: price(2_900, 3_200, 2_500),
    stock: 600,
    options: [],
    subscription: null,
  },
  subscription('homey_plus_1m', 'Hearth Plus, monthly', 'Cloud backups of your Pro hubs.', price(299, 329, 259)),
  subscription('homey_plus_12m', 'Hearth Plus, yearly', 'Cloud backups of your Pro hubs.', price(2_900, 3_200, 2_500)),
  subscription(
    'homey_premium_1m',
    'Hearth Premium, monthly',
    'Premium features on every hub, cloud backups included.',
    price(499, 549, 429),
  ),
  subscription(
    'homey_premium_12m',
    'Hearth Premium, yearly',
    'Premium features on every hub, cloud backups included.',
    price(4_900, 5_400, 4_300),
  ),
  subscription('homey_developer_12m', 'Hearth Developer, yearly', 'Publish apps and test builds.', price(9_900, 10_900, 8_500)),
];

/** What a subscription type unlocks on its owner's hubs, and on which of them (by the hub's platform). */
export interface SubscriptionUnlocks {
  /** The tier it gives the hub (`X-Homey-Tier`), or `null` for none. */
  tier: 'plus' | 'premium' | null;
  /** Whether the hub's backups may be kept in the cloud. */
  backups: boolean;
  platforms: readonly ('local' | 'cloud')[];
}

/**
 * What each subscription type is for, on the hubs of the account that holds it (or on the one hub it was sold for):
 * Plus keeps the backups of Pro hubs (the hubs in a home) in the cloud; Premium is the tier above it on every hub,
 * its backups included; Developer is for publishing apps and unlocks nothing on hubs. `homey_backups` is the
 * backups-only type the account API knows. A type missing here unlocks nothing.
 */
export const SUBSCRIPTION_UNLOCKS: Record<string, SubscriptionUnlocks> = {
  homey_backups: { tier: null, backups: true, platforms: ['local'] },
  homey_plus: { tier: 'plus', backups: true, platforms: ['local'] },
  homey_premium: { tier: 'premium', backups: true, platforms: ['local', 'cloud'] },
  homey_developer: { tier: null, backups: false, platforms: [] },
};

/** Hub tiers from the lowest up: a hub has the highest tier any of its counted subscriptions gives. */
export const TIERS = ['free', 'plus', 'premium'] as const;

/** The countries the store ships to, with the currency it prices in there. */
export const SHIPPING_COUNTRIES: Record<string, StoreCurrencyValue> = {
  ...Object.fromEntries(
    ['AT', 'BE', 'BG', 'HR', 'CY', 'CZ', 'DK', 'EE', 'FI', 'FR', 'DE', 'GR', 'HU', 'IE', 'IT', 'LV', 'LT', 'LU']
      .concat(['MT', 'NL', 'PL', 'PT', 'RO', 'SK', 'SI', 'ES', 'SE', 'NO', 'CH'])
      .map((country) => [country, 'EUR' as const]),
  ),
  GB: 'GBP',
  US: 'USD',
};

/** A new cart's locale, until the user sets theirs. */
export const DEFAULT_LOCALE = { country: 'NL', currency: 'EUR', language: 'en' } as const;
