import { cloudOperations, HearthError, invalidParameter, notFound } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { Updateable } from 'kysely';
import type { CloudContext, CloudPrincipal } from '../../platform/context';
import { pick } from '../../platform/pick';
import { hashSecret, newId, newSecret, safeEqual } from '../../platform/tokens';
import { hubFor, hubRecordFor, userRow } from './directory';
import { releasedHubColumns } from './household/claim-codes';
import { requireVerified } from './household/household';
import type { HubsTable } from './tables';

const ops = cloudOperations.cloud;
const hubOps = pick(ops, [
  'getHomeys',
  'createHomey',
  'getHomey',
  'updateHomey',
  'deleteHomey',
  'activateHomey',
  'addHomeyLicense',
  'createHomeyUser',
  'deleteHomeyUser',
  'resetHomeyUsers',
  'getAllHomeyMetadata',
  'getHomeyMetadata',
  'createHomeyMetadata',
  'updateHomeyMetadata',
  'deleteHomeyMetadata',
  'updateHomeySendConnectionNotifications',
]);

const PAGE_SIZE = 50;

interface HubInput {
  name?: string;
  model?: string;
  platform?: 'local' | 'cloud';
  softwareVersion?: string;
  language?: string;
  serial?: string;
  localUrl?: string;
  localUrlSecure?: string;
  remoteUrl?: string;
  remoteUrlForwarded?: string;
  mdnsFqdn?: string;
  portHttp?: number;
  ipInternal?: string;
  ipExternal?: string;
  state?: string;
  geolocation?: object;
}

/** The columns a hub input sets (only the fields present). */
export function hubColumns(input: HubInput): Updateable<HubsTable> {
  const map: Array<[keyof HubInput, keyof HubsTable]> = [
    ['name', 'name'],
    ['model', 'model'],
    ['platform', 'platform'],
    ['softwareVersion', 'software_version'],
    ['language', 'language'],
    ['serial', 'serial'],
    ['localUrl', 'local_url'],
    ['localUrlSecure', 'local_url_secure'],
    ['remoteUrl', 'remote_url'],
    ['remoteUrlForwarded', 'remote_url_forwarded'],
    ['mdnsFqdn', 'mdns_fqdn'],
    ['portHttp', 'port_http'],
    ['ipInternal', 'ip_internal'],
    ['ipExternal', 'ip_external'],
    ['state', 'state'],
  ];
  const out: Record<string, unknown> = {};
  for (const [field, column] of map) if (input[field] !== undefined) out[column] = input[field];
  if (input.geolocation !== undefined) out.geolocation = JSON.stringify(input.geolocation);
  return out as Updateable<HubsTable>;
}

/** The hubs registry (`/homey/…`): registration at start, claiming, members, metadata, notifications. */
export function hubImplementations(context: CloudContext) {
  const { db } = context.database;

  async function member(hubId: string, userId: string) {
    return db.selectFrom('hub_users').select('role').where('hub_id', '=', hubId).where('user_id', '=', userId).executeTakeFirst();
  }

  return implement<typeof hubOps, CloudPrincipal>(hubOps, {
    getHomeys: async ({ query }) => {
      let q = db.selectFrom('hubs').selectAll();
      if (query.serial) q = q.where('serial', '=', query.serial);
      if (query.softwareVersion) q = q.where('software_version', '=', query.softwareVersion);
      if (query.search)
        q = q.where((eb) => eb.or([eb('name', 'ilike', `%${query.search}%`), eb('id', '=', query.search as string)]));
      const page = query.page ?? 1;
      const hubs = await q
        .orderBy('created_at')
        .orderBy('id')
        .limit(PAGE_SIZE)
        .offset((page - 1) * PAGE_SIZE)
        .execute();
      return Promise.all(hubs.map((hub) => hubRecordFor(db, hub, null)));
    },

    createHomey: async ({ body }) => {
      const input = body.data;
      const id = input._id ?? newId();
      const existing = await db.selectFrom('hubs').selectAll().where('id', '=', id).executeTakeFirst();
      const claimToken = existing?.owner_user_id ? '' : newSecret();
      const claimHash = claimToken ? hashSecret(claimToken) : null;
      const { region } = context.config;
      if (existing) {
        // A hub registers again at every start: its addresses and version are refreshed.
        await db
          .updateTable('hubs')
          .set({ ...hubColumns(input), region, claim_token_hash: claimHash, updated_at: new Date(context.clock.now()) })
          .where('id', '=', id)
          .execute();
      } else {
        if (!input.model) throw new HearthError('missing_parameter', 'Missing Parameter: data.model');
        await db
          .insertInto('hubs')
          .values({
            id,
            name: input.name ?? 'Homey',
            model: input.model,
            platform: input.platform ?? (input.model.includes('cloud') ? 'cloud' : 'local'),
            region,
            software_version: input.softwareVersion ?? '0.0.0',
            language: input.language ?? 'en',
            api_version: 3,
            ...hubColumns(input),
            claim_token_hash: claimHash,
            licenses: '[]',
            notifications: JSON.stringify({ push: true, email: true }),
            updated_at: new Date(context.clock.now()),
          } as never)
          .execute();
      }
      const hub = await db.selectFrom('hubs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      return { homey: await hubRecordFor(db, hub, null), claimToken };
    },

    getHomey: async ({ params, principal }) => {
      const hub = await hubFor(db, principal, params.id, 'read');
      return hubRecordFor(db, hub, principal.userId);
    },

    updateHomey: async ({ params, body, principal }) => {
      await hubFor(db, principal, params.id, 'manage');
      const input = body.homey;
      if (!principal.internal) {
        const allowed = new Set(['name', 'language']);
        const refused = Object.keys(input).find((k) => !allowed.has(k));
        if (refused)
          throw invalidParameter(`homey.${refused}`, 'Only the name and language of a Homey can be changed by its owner');
      }
      if ('_id' in input && input._id !== params.id) throw invalidParameter('homey._id', 'The id of a Homey cannot change');
      const columns = hubColumns(input);
      const hub = await db
        .updateTable('hubs')
        .set({ ...columns, updated_at: new Date(context.clock.now()) })
        .where('id', '=', params.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return hubRecordFor(db, hub, principal.userId);
    },

    deleteHomey: async ({ params, principal }) => {
      const hub = await hubFor(db, principal, params.id, 'manage');
      if (principal.internal) {
        await db.deleteFrom('hubs').where('id', '=', hub.id).execute();
        return;
      }
      // The owner releases the hub: it forgets its people and can be claimed again after it registers anew.
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('hub_users').where('hub_id', '=', hub.id).execute();
        await trx.deleteFrom('hub_metadata').where('hub_id', '=', hub.id).execute();
        await trx
          .updateTable('hubs')
          .set(releasedHubColumns(new Date(context.clock.now())))
          .where('id', '=', hub.id)
          .execute();
      });
    },

    activateHomey: async ({ params, body, principal }) => {
      const hub = await db.selectFrom('hubs').selectAll().where('id', '=', params.id).executeTakeFirst();
      let ownerId: string;
      if (principal.internal) {
        if (!hub) throw notFound('Hub', params.id);
        if (!body.userId) throw new HearthError('missing_parameter', 'Missing Parameter: userId');
        await userRow(db, body.userId);
        ownerId = body.userId;
      } else {
        if (principal.userId === null) throw new HearthError('forbidden', 'This call needs a signed-in user');
        if (body.userId && body.userId !== principal.userId)
          throw new HearthError('forbidden', 'You may only claim a hub for yourself');
        ownerId = principal.userId;
        if (hub && hub.owner_user_id === ownerId) return hubRecordFor(db, hub, ownerId);
        await requireVerified(context, ownerId);
        // Without the claim token a hub that does not exist, one that has an owner and one whose token is
        // another answer the same, so the call tells nobody which hub ids exist.
        if (!body.token) throw new HearthError('missing_parameter', 'Missing Parameter: token');
        const offered = hashSecret(body.token);
        if (!hub?.claim_token_hash || !safeEqual(hub.claim_token_hash, offered) || hub.owner_user_id)
          throw new HearthError('forbidden', 'The claim token of this hub is not correct');
      }
      if (hub.owner_user_id && hub.owner_user_id !== ownerId) throw new HearthError('conflict', 'This hub already has an owner');
      const updated = await db
        .updateTable('hubs')
        .set({
          owner_user_id: ownerId,
          claim_token_hash: null,
          claim_code_hash: null,
          activated_at: new Date(context.clock.now()),
          state: 'activated',
          updated_at: new Date(context.clock.now()),
        })
        .where('id', '=', hub.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await db.deleteFrom('hub_users').where('hub_id', '=', hub.id).where('user_id', '=', ownerId).execute();
      return hubRecordFor(db, updated, principal.internal ? null : ownerId);
    },

    addHomeyLicense: async ({ params }) => {
      const hub = await db.selectFrom('hubs').selectAll().where('id', '=', params.homeyId).executeTakeFirst();
      if (!hub) throw notFound('Hub', params.homeyId);
      const licenses = [...new Set([...hub.licenses, params.license])];
      const updated = await db
        .updateTable('hubs')
        .set({ licenses: JSON.stringify(licenses), updated_at: new Date(context.clock.now()) })
        .where('id', '=', hub.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return hubRecordFor(db, updated, null);
    },

    createHomeyUser: async ({ params, body, principal }) => {
      const hub = await hubFor(db, principal, params.homeyId, 'manage');
      await userRow(db, body.user);
      if (body.user === hub.owner_user_id) throw new HearthError('conflict', 'The owner already belongs to this hub');
      await db
        .insertInto('hub_users')
        .values({ hub_id: hub.id, user_id: body.user, role: body.role })
        .onConflict((oc) => oc.columns(['hub_id', 'user_id']).doUpdateSet({ role: body.role }))
        .execute();
      return hubRecordFor(db, hub, principal.userId);
    },

    deleteHomeyUser: async ({ params, principal }) => {
      // A member may leave; otherwise only the owner (or an internal caller) removes people.
      const leaving = principal.userId !== null && principal.userId === params.userId;
      if (leaving) {
        if (!(await member(params.homeyId, params.userId))) throw notFound('Hub', params.homeyId);
      } else await hubFor(db, principal, params.homeyId, 'manage');
      const result = await db
        .deleteFrom('hub_users')
        .where('hub_id', '=', params.homeyId)
        .where('user_id', '=', params.userId)
        .executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) throw notFound('User', params.userId);
    },

    resetHomeyUsers: async ({ params, principal }) => {
      const hub = await hubFor(db, principal, params.homeyId, 'manage');
      await db.deleteFrom('hub_users').where('hub_id', '=', hub.id).execute();
      return hubRecordFor(db, hub, principal.userId);
    },

    getAllHomeyMetadata: async ({ params, principal }) => {
      const hub = await hubFor(db, principal, params.homeyId, 'manage');
      const rows = await db
        .selectFrom('hub_metadata')
        .select(['key', 'value'])
        .where('hub_id', '=', hub.id)
        .orderBy('key')
        .execute();
      return Object.fromEntries(rows.map((r) => [r.key, r.value]));
    },

    getHomeyMetadata: async ({ params, principal }) => {
      const hub = await hubFor(db, principal, params.homeyId, 'manage');
      const row = await db
        .selectFrom('hub_metadata')
        .select('value')
        .where('hub_id', '=', hub.id)
        .where('key', '=', params.key)
        .executeTakeFirst();
      if (!row) throw notFound('Metadata', params.key);
      return row.value;
    },

    createHomeyMetadata: async ({ params, body, principal }) => {
      const hub = await hubFor(db, principal, params.homeyId, 'manage');
      const inserted = await db
        .insertInto('hub_metadata')
        .values({ hub_id: hub.id, key: params.key, value: JSON.stringify(body.value), updated_at: new Date(context.clock.now()) })
        .onConflict((oc) => oc.columns(['hub_id', 'key']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0)
        throw new HearthError('conflict', `Metadata ${params.key} already exists; update it with PUT`);
      return body.value;
    },

    updateHomeyMetadata: async ({ params, body, principal }) => {
      const hub = await hubFor(db, principal, params.homeyId, 'manage');
      await db
        .insertInto('hub_metadata')
        .values({ hub_id: hub.id, key: params.key, value: JSON.stringify(body.value), updated_at: new Date(context.clock.now()) })
        .onConflict((oc) =>
          oc
            .columns(['hub_id', 'key'])
            .doUpdateSet({ value: JSON.stringify(body.value), updated_at: new Date(context.clock.now()) }),
        )
        .execute();
      return body.value;
    },

    deleteHomeyMetadata: async ({ params, principal }) => {
      const hub = await hubFor(db, principal, params.homeyId, 'manage');
      const result = await db
        .deleteFrom('hub_metadata')
        .where('hub_id', '=', hub.id)
        .where('key', '=', params.key)
        .executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) throw notFound('Metadata', params.key);
    },

    updateHomeySendConnectionNotifications: async ({ params, body, principal }) => {
      const hub = await hubFor(db, principal, params.homeyId, 'manage');
      const notifications = { push: body.push ?? hub.notifications.push, email: body.email ?? hub.notifications.email };
      await db
        .updateTable('hubs')
        .set({ notifications: JSON.stringify(notifications), updated_at: new Date(context.clock.now()) })
        .where('id', '=', hub.id)
        .execute();
      return notifications;
    },
  });
}
