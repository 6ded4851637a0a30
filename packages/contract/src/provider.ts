/**
 * The provider's own app-author accounts (the Hearth apps team). Apps they publish are supported by Hearth
 * itself: the support form sends their users to Hearth support rather than to a developer. The cloud's demo
 * world creates these accounts with these ids.
 */
export const TRUSTED_APP_AUTHOR_IDS: readonly string[] = [
  '5ea7c0de0000000000a07401',
  '5ea7c0de0000000000a07402',
  '5ea7c0de0000000000a07403',
  '5ea7c0de0000000000a07404',
  '5ea7c0de0000000000a07405',
];

/**
 * The provider's hub models: the model code each hub reports, with the name people know it by and where it
 * runs (a cloud hub runs in the provider's cloud, without radios of its own).
 */
export const HUB_MODELS = {
  'hearth-pro-5q': { modelName: 'Hearth Pro (Early 2023)', platform: 'local' },
  'hearth-pro-mini-6q': { modelName: 'Hearth Pro mini', platform: 'local' },
  'hearth-cloud': { modelName: 'Hearth Cloud', platform: 'cloud' },
} as const;

export type HubModelCode = keyof typeof HUB_MODELS;

/** The name people know a hub model by; the code itself for a model this release does not know. */
export const hubModelName = (model: string): string =>
  model in HUB_MODELS ? HUB_MODELS[model as HubModelCode].modelName : model;

/**
 * The account pages' addresses: the cloud serves the account app at each of them (a person may open or reload
 * any), and the app routes between them without reloading. `/hubs/:id` is one hub.
 */
export const ACCOUNT_PAGES = {
  profile: '/',
  signUp: '/signup',
  verifyEmail: '/verify-email',
  invite: '/invite',
  security: '/security',
  hubs: '/hubs',
  /** Claims a hub by the code it shows; its QR code opens this page with `#code=` filled in. */
  claimHub: '/hubs/claim',
  hub: '/hubs/:id',
  /** Opens the hub's household web app: its local address when that answers, else through the cloud's relay. */
  openHub: '/hubs/:id/open',
  devices: '/devices',
  deleteAccount: '/delete',
  /** What a person agrees to at sign-up, readable without an account. */
  terms: '/terms',
  privacy: '/privacy',
} as const;

/**
 * The household web app's addresses on a hub: the hub serves the app at each of them, at its origin root beside
 * `/api` and `/socket.io` (a person may open or reload any), and the app routes between them without reloading.
 * Its assets live under `/home/`, so they never collide with a page or the API.
 */
export const HOME_PAGES = {
  home: '/',
  signIn: '/sign-in',
  device: '/devices/:id',
  addDevice: '/add-device',
  zones: '/zones',
  flows: '/flows',
  flowNew: '/flows/new',
  advancedFlowNew: '/flows/new/advanced',
  flow: '/flows/:id',
  flowEdit: '/flows/:id/edit',
  variables: '/variables',
  insights: '/insights',
  apps: '/apps',
  app: '/apps/:id',
  people: '/people',
  alarms: '/alarms',
  moods: '/moods',
  notifications: '/notifications',
  energy: '/energy',
  system: '/system',
  mqtt: '/system/mqtt',
} as const;

/**
 * The query the account pages open a hub's web app with (`/sign-in?with=cloud`): the app starts the sign-in through
 * the cloud at once, which the person's cloud sign-in completes without asking again.
 */
export const HOME_SIGN_IN_WITH_CLOUD = 'with=cloud';

/** Passwords: the same bounds everywhere a password is chosen (sign-up, change, reset). */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;
/** How many one-time recovery codes two-factor sign-in hands out at a time. */
export const RECOVERY_CODE_COUNT = 10;
/** How long an invitation mail's link works. */
export const INVITE_LIFETIME_DAYS = 7;

/**
 * An app's page in the cloud's app catalogue, for people (the support form links an out-of-date app there): what
 * the app is, who makes it, its latest version and how a hub gets it.
 */
export const appPagePath = (appId: string): string => `/app/${encodeURIComponent(appId)}`;

/**
 * The short code an unowned hub shows on its web page and prints in its log, typed on the account pages to claim
 * it: 8 characters of an alphabet without the ones people mix up (no 0/O, 1/I), shown as two groups of four.
 * 32⁸ ≈ 10¹² codes, each valid for {@link CLAIM_CODE_LIFETIME_MINUTES} minutes and once; guessing is throttled per
 * account by the cloud.
 */
export const CLAIM_CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const CLAIM_CODE_LENGTH = 8;
/** How long a claim code works; the hub asks for a new one before it ends. */
export const CLAIM_CODE_LIFETIME_MINUTES = 15;

/** A code as typed (any case, spaces or dashes) in its one stored form, or `null` when it cannot be a claim code. */
export function normaliseClaimCode(typed: string): string | null {
  const code = typed.toUpperCase().replace(/[\s-]+/g, '');
  if (code.length !== CLAIM_CODE_LENGTH) return null;
  for (const char of code) if (!CLAIM_CODE_ALPHABET.includes(char)) return null;
  return code;
}

/** A code as people read it: `ABCD-EFGH`. */
export const formatClaimCode = (code: string): string => `${code.slice(0, 4)}-${code.slice(4)}`;
