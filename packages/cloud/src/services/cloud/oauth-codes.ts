import type { Clock } from '@hearth/contract/clock';
import type { AuthorizationCode, Client } from '@node-oauth/oauth2-server';
import { type Kysely, type Migration, sql } from 'kysely';
import type { CloudSchema } from '../../database/schema';
import { hashSecret, newId } from '../../platform/tokens';

/**
 * Authorization codes remember the sign-in (token family) their exchange starts, so a replayed code can end it
 * (RFC 6749 §4.1.2), and when a replay was seen.
 */
export const cloudOAuthCodeFamilyMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('oauth_codes')
      .addColumn('token_family_id', 'text')
      .addColumn('replayed_at', 'timestamptz')
      .execute();
    // Codes issued before: each becomes its own family (none of their tokens carries it, so a replay revokes nothing).
    await (db as Kysely<CloudSchema>).updateTable('oauth_codes').set({ token_family_id: sql`code_hash` }).execute();
    await db.schema
      .alterTable('oauth_codes')
      .alterColumn('token_family_id', (c) => c.setNotNull())
      .execute();
  },
};

/**
 * Codes sent to a hub's address, and the tokens exchanged for them, name that hub (`audience_hub_id`): such a
 * token asks for delegation to that hub and nothing else, so whoever serves the address holds no account token.
 */
export const cloudOAuthAudienceMigration: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('oauth_codes').addColumn('audience_hub_id', 'text').execute();
    await db.schema.alterTable('oauth_tokens').addColumn('audience_hub_id', 'text').execute();
  },
};

/** A client as the OAuth2 model hands it around; public clients (no secret) must use PKCE. */
export interface ModelClient extends Client {
  isPublic: boolean;
}

/**
 * Why an authorization request of `client` may not get a code, or `null`. A public client (a browser app, which
 * cannot keep a secret) must send a PKCE challenge made with S256: without it, whoever intercepts the code can
 * exchange it. The `plain` method (the default when none is named) would hand the verifier out in the request.
 */
export function pkceProblem(
  client: { isPublic: boolean },
  challenge: string | undefined,
  method: string | undefined,
): string | null {
  if (method !== undefined && method !== '' && method !== 'S256') return 'Only the S256 code challenge method is supported.';
  if (!client.isPublic) return null;
  if (!challenge) return 'This application must send a PKCE code challenge (code_challenge with code_challenge_method=S256).';
  if (method !== 'S256') return 'This application must name its code challenge method: code_challenge_method=S256.';
  return null;
}

/** The user of a code as the model passes it on to `saveToken`: the exchange continues the code's sign-in. */
export interface CodeUser {
  id: string;
  familyId: string;
  /** The hash of the code the tokens come from: `saveToken` checks it was not replayed meanwhile. */
  codeHash: string;
  /** The hub the code was sent to: its tokens are for that hub only. */
  audienceHubId: string | null;
}

/**
 * The authorization codes of the OAuth2 model. A code is used once; using it again refuses the exchange and
 * revokes every token issued from it, refreshed ones included (they share its token family).
 */
export function createCodeStore(db: Kysely<CloudSchema>, onRevoke: () => void, clock: Clock) {
  /** Marks the code replayed and revokes its sign-in. */
  async function refuseReplay(codeHash: string): Promise<void> {
    const code = await db
      .updateTable('oauth_codes')
      .set({ replayed_at: new Date(clock.now()) })
      .where('code_hash', '=', codeHash)
      .returning('token_family_id')
      .executeTakeFirst();
    if (!code) return;
    await db
      .updateTable('oauth_tokens')
      .set({ revoked_at: new Date(clock.now()) })
      .where('family_id', '=', code.token_family_id)
      .where('revoked_at', 'is', null)
      .execute();
    onRevoke();
  }

  return {
    async save(
      code: Pick<
        AuthorizationCode,
        'authorizationCode' | 'expiresAt' | 'redirectUri' | 'scope' | 'codeChallenge' | 'codeChallengeMethod'
      >,
      client: ModelClient,
      userId: string,
      audienceHubId: string | null,
    ): Promise<void> {
      await db
        .insertInto('oauth_codes')
        .values({
          code_hash: hashSecret(code.authorizationCode),
          client_id: client.id,
          user_id: userId,
          scopes: JSON.stringify(code.scope && code.scope.length > 0 ? code.scope : null),
          redirect_uri: code.redirectUri,
          code_challenge: code.codeChallenge ?? null,
          code_challenge_method: code.codeChallengeMethod ?? null,
          expires_at: code.expiresAt,
          token_family_id: newId(),
          audience_hub_id: audienceHubId,
        })
        .execute();
    },

    /** The code for an exchange, or `null`; a used one is a replay and ends the sign-in it started. */
    async get(authorizationCode: string): Promise<AuthorizationCode | null> {
      const codeHash = hashSecret(authorizationCode);
      const row = await db
        .selectFrom('oauth_codes as o')
        .innerJoin('oauth_clients as c', 'c.id', 'o.client_id')
        .select([
          'o.client_id',
          'o.user_id',
          'o.scopes',
          'o.expires_at',
          'o.used_at',
          'o.code_challenge',
          'o.code_challenge_method',
          'o.token_family_id',
          'o.audience_hub_id',
          'c.secret_hash',
        ])
        .where('o.code_hash', '=', codeHash)
        .executeTakeFirst();
      if (!row) return null;
      if (row.used_at !== null) {
        await refuseReplay(codeHash);
        return null;
      }
      // A code of a public client without a challenge (issued before PKCE was required) is not exchanged.
      if (row.secret_hash === null && row.code_challenge === null) return null;
      const user: CodeUser = { id: row.user_id, familyId: row.token_family_id, codeHash, audienceHubId: row.audience_hub_id };
      // No redirectUri here: the ecosystem's clients send none on the exchange (wire-protocol.md).
      return {
        authorizationCode,
        expiresAt: row.expires_at,
        scope: row.scopes ?? undefined,
        client: { id: row.client_id, grants: [] },
        user,
        codeChallenge: row.code_challenge ?? undefined,
        codeChallengeMethod: row.code_challenge_method ?? undefined,
      } as unknown as AuthorizationCode;
    },

    /** Uses the code up; `false` when another exchange used it first, which is a replay too. */
    async use(code: AuthorizationCode): Promise<boolean> {
      const codeHash = hashSecret(code.authorizationCode);
      const result = await db
        .updateTable('oauth_codes')
        .set({ used_at: new Date(clock.now()) })
        .where('code_hash', '=', codeHash)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1) return true;
      await refuseReplay(codeHash);
      return false;
    },

    /**
     * After the tokens of an exchange are stored: whether the code was replayed meanwhile (a second exchange
     * racing this one), in which case the tokens just stored are revoked. Checked after the insert, so either
     * this read sees the replay or the replay's revocation sees the tokens.
     */
    async replayedSince(codeHash: string): Promise<boolean> {
      const row = await db.selectFrom('oauth_codes').select('replayed_at').where('code_hash', '=', codeHash).executeTakeFirst();
      if (!row || row.replayed_at === null) return false;
      await refuseReplay(codeHash);
      return true;
    },
  };
}
