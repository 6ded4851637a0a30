import { type Kysely, type Migration, sql } from 'kysely';
import { AVATAR_SIZES, resizeAvatar, sniffImage } from './avatar';
import type { CloudAccountTables } from './tables';

const now = sql`now()`;

/** Accounts, OAuth2, hubs, bridges, delegation keys and mailing lists. */
export const cloudAccountsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('users')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('firstname', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('lastname', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('language', 'text', (c) => c.notNull().defaultTo('en'))
      .addColumn('role_ids', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
      .addColumn('avatar_type', 'text')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .execute();

    await db.schema
      .createTable('oauth_clients')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('secret_hash', 'text')
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('grants', 'jsonb', (c) => c.notNull())
      .addColumn('redirect_uris', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
      .addColumn('scopes', 'jsonb')
      .addColumn('internal', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('owner_user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .execute();

    await db.schema
      .createTable('oauth_tokens')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('family_id', 'text', (c) => c.notNull())
      .addColumn('client_id', 'text', (c) => c.notNull().references('oauth_clients.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
      .addColumn('scopes', 'jsonb')
      .addColumn('access_hash', 'text', (c) => c.notNull().unique())
      .addColumn('access_expires_at', 'timestamptz', (c) => c.notNull())
      .addColumn('refresh_hash', 'text', (c) => c.unique())
      .addColumn('refresh_expires_at', 'timestamptz')
      .addColumn('rotated_at', 'timestamptz')
      .addColumn('revoked_at', 'timestamptz')
      .addColumn('user_agent', 'text')
      .addColumn('ip', 'text')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .execute();
    await db.schema.createIndex('oauth_tokens_family').on('oauth_tokens').column('family_id').execute();
    await db.schema.createIndex('oauth_tokens_user').on('oauth_tokens').column('user_id').execute();

    await db.schema
      .createTable('oauth_codes')
      .addColumn('code_hash', 'text', (c) => c.primaryKey())
      .addColumn('client_id', 'text', (c) => c.notNull().references('oauth_clients.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('scopes', 'jsonb')
      .addColumn('redirect_uri', 'text', (c) => c.notNull())
      .addColumn('code_challenge', 'text')
      .addColumn('code_challenge_method', 'text')
      .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
      .addColumn('used_at', 'timestamptz')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .execute();

    await db.schema
      .createTable('one_time_tokens')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
      .addColumn('used_at', 'timestamptz')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .execute();

    await db.schema
      .createTable('hubs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('owner_user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('claim_token_hash', 'text')
      .addColumn('model', 'text', (c) => c.notNull())
      .addColumn('platform', 'text', (c) => c.notNull())
      .addColumn('software_version', 'text', (c) => c.notNull())
      .addColumn('language', 'text', (c) => c.notNull().defaultTo('en'))
      .addColumn('api_version', 'integer', (c) => c.notNull().defaultTo(3))
      .addColumn('serial', 'text')
      .addColumn('local_url', 'text')
      .addColumn('local_url_secure', 'text')
      .addColumn('remote_url', 'text')
      .addColumn('remote_url_forwarded', 'text')
      .addColumn('mdns_fqdn', 'text')
      .addColumn('port_http', 'integer')
      .addColumn('ip_internal', 'text')
      .addColumn('ip_external', 'text')
      .addColumn('state', 'text', (c) => c.notNull().defaultTo('registered'))
      .addColumn('geolocation', 'jsonb')
      .addColumn('licenses', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
      .addColumn('notifications', 'jsonb', (c) => c.notNull().defaultTo(sql`'{"push":true,"email":true}'::jsonb`))
      .addColumn('activated_at', 'timestamptz')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .execute();
    await db.schema.createIndex('hubs_owner').on('hubs').column('owner_user_id').execute();

    await db.schema
      .createTable('hub_users')
      .addColumn('hub_id', 'text', (c) => c.notNull().references('hubs.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .addPrimaryKeyConstraint('hub_users_pk', ['hub_id', 'user_id'])
      .execute();
    await db.schema.createIndex('hub_users_user').on('hub_users').column('user_id').execute();

    await db.schema
      .createTable('hub_metadata')
      .addColumn('hub_id', 'text', (c) => c.notNull().references('hubs.id').onDelete('cascade'))
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('value', 'jsonb', (c) => c.notNull())
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .addPrimaryKeyConstraint('hub_metadata_pk', ['hub_id', 'key'])
      .execute();

    await db.schema
      .createTable('bridges')
      .addColumn('serial', 'text', (c) => c.primaryKey())
      .addColumn('id', 'text', (c) => c.notNull().unique())
      .addColumn('model', 'text', (c) => c.notNull())
      .addColumn('build', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('zwave_calibration', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
      .addColumn('manufactured_at', 'timestamptz')
      .addColumn('activation_history', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
      .addColumn('hub_id', 'text', (c) => c.references('hubs.id').onDelete('set null'))
      .addColumn('owner_user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .execute();

    await db.schema
      .createTable('user_devices')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('platform', 'text', (c) => c.notNull())
      .addColumn('token', 'text')
      .addColumn('public_key', 'text')
      .addColumn('app_version', 'text')
      .addColumn('os_version', 'text')
      .addColumn('devmode', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .execute();
    await db.schema.createIndex('user_devices_user').on('user_devices').column('user_id').execute();

    let addresses = db.schema
      .createTable('user_addresses')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'));
    for (const field of ['street', 'number', 'zipcode', 'city', 'state', 'country', 'extra', 'firstname', 'lastname'])
      addresses = addresses.addColumn(field, 'text', (c) => c.notNull().defaultTo(''));
    await addresses
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .execute();
    await db.schema.createIndex('user_addresses_user').on('user_addresses').column('user_id').execute();

    await db.schema
      .createTable('subscriptions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('hub_id', 'text', (c) => c.references('hubs.id').onDelete('set null'))
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('quantity', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('started_at', 'timestamptz', (c) => c.notNull())
      .addColumn('expires_at', 'timestamptz')
      .addColumn('data', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .execute();
    await db.schema.createIndex('subscriptions_user').on('subscriptions').column('user_id').execute();

    await db.schema
      .createTable('accepted_invites')
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('inviter_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('accepted_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .addPrimaryKeyConstraint('accepted_invites_pk', ['user_id', 'inviter_id'])
      .execute();

    await db.schema
      .createTable('avatars')
      .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('content_type', 'text', (c) => c.notNull())
      .addColumn('data', 'bytea', (c) => c.notNull())
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .execute();

    await db.schema
      .createTable('delegation_keys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('private_pem', 'text', (c) => c.notNull())
      .addColumn('public_pem', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .execute();

    await db.schema
      .createTable('mailing_list_members')
      .addColumn('list_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('tags', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(now))
      .addPrimaryKeyConstraint('mailing_list_members_pk', ['list_id', 'user_id'])
      .execute();
  },
};

/**
 * Avatars are kept resized: the medium and large squares beside the uploaded image. Existing avatars are resized
 * here; one that no longer decodes is removed (its owner shows none and may upload again).
 */
export const cloudAvatarSizesMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('avatars').addColumn('medium', 'bytea').addColumn('large', 'bytea').execute();
    const typed = db as unknown as Kysely<Pick<CloudAccountTables, 'avatars' | 'users'>>;
    const avatars = await typed.selectFrom('avatars').select(['user_id', 'content_type', 'data']).execute();
    for (const avatar of avatars) {
      const type = sniffImage(Buffer.from(avatar.data));
      const sizes = type
        ? await Promise.all([
            resizeAvatar(Buffer.from(avatar.data), type, AVATAR_SIZES.medium),
            resizeAvatar(Buffer.from(avatar.data), type, AVATAR_SIZES.large),
            // An avatar the resizer cannot read is removed below, as one of an unknown type is.
          ]).catch(() => null)
        : null;
      if (sizes && type) {
        await typed
          .updateTable('avatars')
          .set({ content_type: type, medium: sizes[0], large: sizes[1] })
          .where('user_id', '=', avatar.user_id)
          .execute();
      } else {
        await typed.deleteFrom('avatars').where('user_id', '=', avatar.user_id).execute();
        await typed.updateTable('users').set({ avatar_type: null }).where('id', '=', avatar.user_id).execute();
      }
    }
    await db.schema
      .alterTable('avatars')
      .alterColumn('medium', (c) => c.setNotNull())
      .execute();
    await db.schema
      .alterTable('avatars')
      .alterColumn('large', (c) => c.setNotNull())
      .execute();
  },
};

/** The schema a migration runs in (tables are qualified with it; functions and triggers must be too). */
function schemaOf(db: Kysely<unknown>): string {
  const compiled = (db as unknown as Kysely<{ users: { id: string } }>).selectFrom('users').select('id').compile().sql;
  const match = /from "([^"]+)"\."users"/.exec(compiled);
  return match?.[1] ?? 'public';
}

/**
 * `users.revision` changes in the same transaction as anything `GET /user/me` shows: the user row, their devices,
 * subscriptions and avatar, and every hub they own or belong to (with its members). Triggers keep it, so no writer
 * can forget it; the user/me answer is cached per revision and checked with one indexed read.
 */
export const cloudUserRevisionsMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const schema = sql.id(schemaOf(db));
    await db.schema
      .alterTable('users')
      .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`
      CREATE FUNCTION ${schema}.users_next_revision() RETURNS trigger LANGUAGE plpgsql SET search_path = ${schema} AS $$
      BEGIN
        NEW.revision := OLD.revision + 1;
        RETURN NEW;
      END $$`.execute(db);
    await sql`
      CREATE FUNCTION ${schema}.user_part_changed() RETURNS trigger LANGUAGE plpgsql SET search_path = ${schema} AS $$
      BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
          UPDATE users SET revision = revision + 1 WHERE id = OLD.user_id;
        END IF;
        IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW.user_id IS DISTINCT FROM OLD.user_id) THEN
          UPDATE users SET revision = revision + 1 WHERE id = NEW.user_id;
        END IF;
        RETURN NULL;
      END $$`.execute(db);
    await sql`
      CREATE FUNCTION ${schema}.hub_viewers_changed(hub text, extra text[]) RETURNS void LANGUAGE sql SET search_path = ${schema} AS $$
        UPDATE users SET revision = revision + 1
        WHERE id IN (SELECT owner_user_id FROM hubs WHERE hubs.id = hub)
           OR id IN (SELECT user_id FROM hub_users WHERE hub_users.hub_id = hub)
           OR id = ANY (extra)
      $$`.execute(db);
    await sql`
      CREATE FUNCTION ${schema}.hub_changed() RETURNS trigger LANGUAGE plpgsql SET search_path = ${schema} AS $$
      BEGIN
        IF TG_OP = 'DELETE' THEN
          PERFORM hub_viewers_changed(OLD.id, ARRAY[OLD.owner_user_id]);
        ELSIF TG_OP = 'UPDATE' THEN
          PERFORM hub_viewers_changed(NEW.id, ARRAY[OLD.owner_user_id, NEW.owner_user_id]);
        ELSE
          PERFORM hub_viewers_changed(NEW.id, ARRAY[NEW.owner_user_id]);
        END IF;
        RETURN NULL;
      END $$`.execute(db);
    await sql`
      CREATE FUNCTION ${schema}.hub_member_changed() RETURNS trigger LANGUAGE plpgsql SET search_path = ${schema} AS $$
      BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
          PERFORM hub_viewers_changed(OLD.hub_id, ARRAY[OLD.user_id]);
        END IF;
        IF TG_OP IN ('INSERT', 'UPDATE') THEN
          PERFORM hub_viewers_changed(NEW.hub_id, ARRAY[NEW.user_id]);
        END IF;
        RETURN NULL;
      END $$`.execute(db);
    await sql`CREATE TRIGGER users_revision BEFORE UPDATE ON ${schema}.users
      FOR EACH ROW EXECUTE FUNCTION ${schema}.users_next_revision()`.execute(db);
    for (const table of ['user_devices', 'subscriptions', 'avatars']) {
      await sql`CREATE TRIGGER ${sql.id(`${table}_user_revision`)} AFTER INSERT OR UPDATE OR DELETE ON ${schema}.${sql.id(table)}
        FOR EACH ROW EXECUTE FUNCTION ${schema}.user_part_changed()`.execute(db);
    }
    await sql`CREATE TRIGGER hubs_user_revision AFTER INSERT OR UPDATE OR DELETE ON ${schema}.hubs
      FOR EACH ROW EXECUTE FUNCTION ${schema}.hub_changed()`.execute(db);
    await sql`CREATE TRIGGER hub_users_user_revision AFTER INSERT OR UPDATE OR DELETE ON ${schema}.hub_users
      FOR EACH ROW EXECUTE FUNCTION ${schema}.hub_member_changed()`.execute(db);
  },
};
