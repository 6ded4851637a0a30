import type { Kysely } from 'kysely';
import type { DemoHub } from '../../config';
import type { CloudSchema } from '../../database/schema';
import { hashPassword } from './accounts';
import { HUB_ROOT_REDIRECT } from './hub-redirects';
import { LOGIN_TOKEN_GRANT } from './oauth';

export const DEMO_USER = {
  id: '5ea7c0de0000000000000001',
  email: 'demo@hearth.test',
  password: 'hearth-demo-password',
  firstname: 'Dana',
  lastname: 'Demo',
} as const;

export const DEMO_CLIENTS = {
  demo: { id: 'hearth-demo', secret: 'hearth-demo-secret' },
  supportForm: { id: 'hearth-support-form' },
} as const;

export const INTERNAL_CLIENT_ID = 'hearth-internal';
/** The account pages' browser client (authorization code with PKCE), present in every cloud. */
export const ACCOUNT_CLIENT_ID = 'hearth-account';
/** The household web app's browser client (PKCE), sent back to the hub that served it; present in every cloud. */
export const HOME_CLIENT_ID = 'hearth-home';
/** The API reference's "Authorize" (authorization code with PKCE), present in every cloud. */
export const DOCS_CLIENT_ID = 'hearth-docs';

/**
 * Registers the public clients of the cloud's own pages, refreshed at every start: the account pages, sent back
 * to the cloud's root, the API reference, sent back to Swagger UI's redirect page, and the household web app, sent
 * back to the root of the hub that served it.
 */
export async function ensurePageClients(db: Kysely<CloudSchema>, publicUrl: string): Promise<void> {
  const clients = [
    { id: ACCOUNT_CLIENT_ID, name: 'Hearth account', redirect: `${publicUrl}/` },
    { id: DOCS_CLIENT_ID, name: 'Hearth API reference', redirect: `${publicUrl}/docs/static/oauth2-redirect.html` },
    { id: HOME_CLIENT_ID, name: 'Hearth web app', redirect: HUB_ROOT_REDIRECT },
  ];
  for (const client of clients) {
    const values = {
      name: client.name,
      grants: JSON.stringify(['authorization_code', 'refresh_token']),
      redirect_uris: JSON.stringify([client.redirect]),
      scopes: JSON.stringify(null),
    };
    await db
      .insertInto('oauth_clients')
      .values({ id: client.id, secret_hash: null, internal: false, ...values })
      .onConflict((oc) => oc.column('id').doUpdateSet(values))
      .execute();
  }
}

/** The internal client the platform's own services use for private operations (client credentials). */
export async function ensureInternalClient(db: Kysely<CloudSchema>, secret: string): Promise<void> {
  const existing = await db.selectFrom('oauth_clients').select('id').where('id', '=', INTERNAL_CLIENT_ID).executeTakeFirst();
  const secretHash = await hashPassword(secret);
  if (existing) {
    await db
      .updateTable('oauth_clients')
      .set({ secret_hash: secretHash, internal: true })
      .where('id', '=', INTERNAL_CLIENT_ID)
      .execute();
    return;
  }
  await db
    .insertInto('oauth_clients')
    .values({
      id: INTERNAL_CLIENT_ID,
      secret_hash: secretHash,
      name: 'Hearth platform',
      grants: JSON.stringify(['client_credentials']),
      redirect_uris: '[]',
      scopes: JSON.stringify(null),
      internal: true,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

/** Where the demo's browser clients may be sent back to: the cloud's own pages and a local dev server. */
function redirectUris(publicUrl: string): { demo: string[]; supportForm: string[] } {
  const devOrigins = ['http://127.0.0.1:5173', 'http://localhost:5173'];
  return {
    demo: [
      `${publicUrl}/oauth2/callback`,
      `${publicUrl}/support/`,
      ...devOrigins.map((o) => `${o}/`),
      ...devOrigins.map((o) => `${o}/oauth2/callback`),
    ],
    supportForm: [`${publicUrl}/support/`, `${publicUrl}/support/index.html`, ...devOrigins.map((o) => `${o}/support/`)],
  };
}

const portOf = (url: string): number | null => {
  try {
    const parsed = new URL(url);
    return Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80));
  } catch {
    return null;
  }
};

/**
 * Seeds the demo world (ARCHITECTURE.md): the demo user with the given hubs, two orders, a subscription of
 * each kind, a bridge, and the demo OAuth2 clients. Idempotent: run it at every start; hub addresses and
 * client redirect addresses are refreshed, everything else is created once.
 */
export async function seedDemoWorld(
  db: Kysely<CloudSchema>,
  options: { publicUrl: string; hubs: DemoHub[]; region: string; now: Date },
): Promise<void> {
  const uris = redirectUris(options.publicUrl);
  const clientValues = [
    {
      id: DEMO_CLIENTS.demo.id,
      secret_hash: await hashPassword(DEMO_CLIENTS.demo.secret),
      name: 'Hearth demo app',
      grants: JSON.stringify(['password', 'authorization_code', 'refresh_token', 'client_credentials', LOGIN_TOKEN_GRANT]),
      redirect_uris: JSON.stringify(uris.demo),
      scopes: JSON.stringify(null),
      internal: false,
    },
    {
      id: DEMO_CLIENTS.supportForm.id,
      secret_hash: null,
      name: 'Hearth support form',
      grants: JSON.stringify(['authorization_code', 'refresh_token', LOGIN_TOKEN_GRANT]),
      redirect_uris: JSON.stringify(uris.supportForm),
      scopes: JSON.stringify(null),
      internal: false,
    },
  ];
  for (const client of clientValues)
    await db
      .insertInto('oauth_clients')
      .values(client)
      .onConflict((oc) => oc.column('id').doUpdateSet({ redirect_uris: client.redirect_uris, grants: client.grants }))
      .execute();

  const userExists = await db.selectFrom('users').select('id').where('email', '=', DEMO_USER.email).executeTakeFirst();
  if (!userExists)
    await db
      .insertInto('users')
      .values({
        id: DEMO_USER.id,
        email: DEMO_USER.email,
        password_hash: await hashPassword(DEMO_USER.password),
        firstname: DEMO_USER.firstname,
        lastname: DEMO_USER.lastname,
        language: 'en',
        role_ids: '[]',
        // The demo world vouches for its own account's address: it may claim hubs (try `--unclaimed-hub`).
        email_verified_at: options.now,
        updated_at: options.now,
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
  // A demo world seeded before addresses were verified left its account unverified: it cannot claim a hub.
  await db
    .updateTable('users')
    .set({ email_verified_at: options.now })
    .where('email', '=', DEMO_USER.email)
    .where('email_verified_at', 'is', null)
    .execute();
  const userId = (await db.selectFrom('users').select('id').where('email', '=', DEMO_USER.email).executeTakeFirstOrThrow()).id;

  for (const [index, hub] of options.hubs.entries()) {
    const cloudHub = hub.model.includes('cloud');
    const addresses = {
      local_url: cloudHub ? null : hub.url,
      remote_url: cloudHub ? hub.url : null,
      port_http: portOf(hub.url),
    };
    await db
      .insertInto('hubs')
      .values({
        id: hub.id,
        name: hub.name,
        owner_user_id: userId,
        model: hub.model,
        platform: cloudHub ? 'cloud' : 'local',
        region: options.region,
        software_version: '12.4.0',
        language: 'en',
        api_version: 3,
        serial: cloudHub ? null : `HRT${String(index + 1).padStart(9, '0')}`,
        ...addresses,
        state: 'activated',
        geolocation: JSON.stringify({ country: 'NL', city: 'Eindhoven', latitude: 51.44, longitude: 5.47 }),
        licenses: JSON.stringify(cloudHub ? [] : ['zwave', 'zigbee']),
        notifications: JSON.stringify({ push: true, email: true }),
        activated_at: new Date('2025-03-01T10:00:00Z'),
        updated_at: options.now,
      })
      .onConflict((oc) =>
        oc
          .column('id')
          .doUpdateSet({ ...addresses, name: hub.name, model: hub.model, region: options.region, updated_at: options.now }),
      )
      .execute();
  }

  const firstHub = options.hubs[0]?.id ?? null;
  const subscriptions = [
    { id: 'homey_plus_5ea7c0de0001', type: 'homey_plus', started_at: '2025-03-01T10:00:00Z', hub_id: firstHub },
    { id: 'homey_premium_5ea7c0de0002', type: 'homey_premium', started_at: '2025-06-15T09:30:00Z', hub_id: firstHub },
    { id: 'homey_developer_5ea7c0de0003', type: 'homey_developer', started_at: '2025-09-20T14:00:00Z', hub_id: null },
  ];
  for (const subscription of subscriptions)
    await db
      .insertInto('subscriptions')
      .values({ ...subscription, user_id: userId, status: 'active', quantity: 1, data: '{}', updated_at: options.now })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();

  const orders = [
    {
      id: '5ea7c0de00000000000a0001',
      number: '100231',
      status: 'delivered',
      currency: 'EUR',
      items: [{ sku: 'hearth-pro-2023', name: 'Hearth Pro', quantity: 1, price: 39900 }],
      created_at: '2025-02-20T12:00:00Z',
    },
    {
      id: '5ea7c0de00000000000a0002',
      number: '100467',
      status: 'shipped',
      currency: 'EUR',
      items: [
        { sku: 'hearth-bridge', name: 'Hearth Bridge', quantity: 1, price: 6900 },
        { sku: 'hearth-pro-mini', name: 'Hearth Pro mini', quantity: 1, price: 19900 },
      ],
      created_at: '2025-10-02T08:15:00Z',
    },
  ];
  for (const order of orders)
    await db
      .insertInto('orders')
      .values({
        ...order,
        user_id: userId,
        total: order.items.reduce((sum, item) => sum + item.price * item.quantity, 0),
        items: JSON.stringify(order.items),
        shipping_address: JSON.stringify({
          firstname: 'Dana',
          lastname: 'Demo',
          street: 'Stratumsedijk',
          number: '12',
          zipcode: '5611 NA',
          city: 'Eindhoven',
          country: 'NL',
        }),
        updated_at: order.created_at,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();

  if (firstHub)
    await db
      .insertInto('bridges')
      .values({
        serial: 'HB000000001',
        id: '5ea7c0de00000000000b0001',
        model: 'hearth-bridge',
        build: 3,
        zwave_calibration: '[]',
        manufactured_at: '2025-01-10T00:00:00Z',
        activation_history: JSON.stringify([{ homeyId: firstHub, userId, activatedAt: '2025-10-05T18:00:00.000Z' }]),
        hub_id: firstHub,
        owner_user_id: userId,
        updated_at: options.now,
      })
      .onConflict((oc) => oc.column('serial').doNothing())
      .execute();
}
