import { type ErrorCode, errorCatalogue, HearthError } from '@hearth/contract';
import type { Clock } from '@hearth/contract/clock';
import { SignInThrottle } from '@hearth/contract/fastify';
import OAuth2Server, {
  AbstractGrantType,
  type AuthorizationCode,
  type Client,
  InvalidGrantError,
  InvalidRequestError,
  OAuthError,
  type RefreshToken,
  Request,
  Response,
  type Token,
  type User,
} from '@node-oauth/oauth2-server';
import argon2 from 'argon2';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { CloudSchema } from '../../database/schema';
import { forgetCachedTokens } from '../../platform/auth';
import type { CloudContext } from '../../platform/context';
import { hashSecret, newId, newSecret } from '../../platform/tokens';
import { PasswordSignIn } from './accounts';
import { createBrowserSessions } from './browser-session';
import { hubRedirectFor, redirectAllowed } from './hub-redirects';
import { createCodeStore, type ModelClient, pkceProblem } from './oauth-codes';
import { createPasskeys } from './passkeys/passkeys';
import { createTwoFactor, type TwoFactor } from './two-factor/two-factor';

/** The extended grant: exchanges a one-time login token (`POST /store/user/login-token`) for tokens. */
export const LOGIN_TOKEN_GRANT = 'urn:hearth:params:oauth:grant-type:login-token';

/** Who is asking for a token: recorded on the session for the user's sessions list. */
interface RequestFacts {
  ip: string;
  userAgent: string | null;
  /** The password grant's `otp` field: the second factor of accounts that have one. */
  otp: string | null;
}

interface CloudUserRef extends User {
  id: string | null;
  /** The sign-in a refreshed token, or the exchange of an authorization code, continues. */
  familyId?: string;
  /** For tokens from an authorization code: the code's hash (see {@link createCodeStore}). */
  codeHash?: string;
  /** The one hub the tokens are for, when the code went to that hub's address (see `hubRedirectFor`). */
  audienceHubId?: string | null;
}

/** Scopes are comma-joined on the wire (and space-joined in OAuth2); both are accepted. */
export const splitScopes = (scope: string | undefined | null): string[] =>
  (scope ?? '')
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);

/** A coded error carried through the OAuth2 library as its `inner` error (see {@link toCloudError}). */
const carried = (error: HearthError) => new OAuthError(error, { code: error.statusCode, name: error.code });

function createModel(
  db: Kysely<CloudSchema>,
  signIn: PasswordSignIn,
  twoFactor: TwoFactor,
  options: { checkSecret: boolean; onRevoke: () => void; clock: Clock },
) {
  const { clock } = options;
  const codes = createCodeStore(db, options.onRevoke, clock);
  const toClient = (row: {
    id: string;
    grants: string[];
    redirect_uris: string[];
    scopes: string[] | null;
    secret_hash: string | null;
  }): ModelClient => ({
    id: row.id,
    grants: row.grants,
    redirectUris: row.redirect_uris,
    scopes: row.scopes,
    isPublic: row.secret_hash === null,
  });
  const clientRow = (id: string) =>
    db
      .selectFrom('oauth_clients')
      .select(['id', 'grants', 'redirect_uris', 'scopes', 'secret_hash'])
      .where('id', '=', id)
      .executeTakeFirst();

  return {
    generateAccessToken: async () => newSecret(),
    generateRefreshToken: async () => newSecret(),
    generateAuthorizationCode: async () => newSecret(),

    async getClient(clientId: string, clientSecret: string | null | undefined) {
      const row = await clientRow(clientId);
      if (!row) return null;
      if (options.checkSecret) {
        if (row.secret_hash === null) {
          // A public client has no secret: presenting one is a misuse.
          if (clientSecret) return null;
        } else {
          if (!clientSecret) return null;
          // A stored hash argon2 cannot read matches no secret.
          if (!(await argon2.verify(row.secret_hash, clientSecret).catch(() => false))) return null;
        }
      }
      return toClient(row);
    },

    /** Fixed addresses, or the root of a registered hub's address for a client that names `HUB_ROOT_REDIRECT`. */
    validateRedirectUri: (redirectUri: string, client: ModelClient) =>
      redirectAllowed(db, client.redirectUris as string[], redirectUri),

    /** The password grant's user, with the facts of the request asking (see {@link withFacts}). */
    async getUser(username: string, password: string, _client?: Client, facts?: RequestFacts) {
      const ip = facts?.ip ?? 'unknown';
      // Coded errors are carried through the OAuth2 library, so the answer keeps the throttle's headers.
      const rethrow = (error: unknown): never => {
        throw error instanceof HearthError ? carried(error) : error;
      };
      const userId = await signIn.check(username, password, ip).catch(rethrow);
      if (!userId) return null;
      if (await twoFactor.enabled(userId)) {
        const otp = facts?.otp;
        if (!otp)
          throw carried(
            new HearthError(
              'two_factor_required',
              'Two-factor code required: send the code from the authenticator app, or a recovery code, as `otp`',
            ),
          );
        if (!(await twoFactor.verify(userId, otp, ip).catch(rethrow)))
          throw carried(new HearthError('invalid_grant', 'Invalid grant: the two-factor code is not correct'));
      }
      return { id: userId } satisfies CloudUserRef;
    },

    async getUserFromClient() {
      return { id: null } satisfies CloudUserRef;
    },

    async validateScope(_user: User, client: Client, scope?: string[]) {
      const requested = (scope ?? []).flatMap((s) => splitScopes(s));
      const allowed = client.scopes as string[] | null;
      if (allowed === null) return requested;
      if (requested.length === 0) return [...allowed];
      const granted = requested.filter((s) => allowed.some((a) => s === a || s.startsWith(`${a}.`)));
      return granted.length > 0 ? granted : false;
    },

    async saveToken(token: Token, client: Client, user: CloudUserRef, facts?: RequestFacts) {
      await db
        .insertInto('oauth_tokens')
        .values({
          id: newId(),
          family_id: user.familyId ?? newId(),
          client_id: client.id,
          user_id: user.id,
          scopes: JSON.stringify(token.scope && token.scope.length > 0 ? token.scope : null),
          access_hash: hashSecret(token.accessToken),
          access_expires_at: token.accessTokenExpiresAt as Date,
          refresh_hash: token.refreshToken ? hashSecret(token.refreshToken) : null,
          refresh_expires_at: token.refreshTokenExpiresAt ?? null,
          user_agent: facts?.userAgent?.slice(0, 300) ?? null,
          ip: facts?.ip ?? null,
          audience_hub_id: user.audienceHubId ?? null,
        })
        .execute();
      if (user.codeHash && (await codes.replayedSince(user.codeHash)))
        throw new InvalidGrantError('Invalid grant: authorization code was used more than once');
      return { ...token, client, user };
    },

    async getRefreshToken(refreshToken: string): Promise<RefreshToken | null> {
      const row = await db
        .selectFrom('oauth_tokens')
        .select([
          'id',
          'family_id',
          'client_id',
          'user_id',
          'scopes',
          'refresh_expires_at',
          'rotated_at',
          'revoked_at',
          'audience_hub_id',
        ])
        .where('refresh_hash', '=', hashSecret(refreshToken))
        .executeTakeFirst();
      if (!row) return null;
      if (row.rotated_at !== null || row.revoked_at !== null) {
        // A refresh token is used once. Seeing it again means it leaked: end the whole sign-in.
        if (row.rotated_at !== null) {
          await db
            .updateTable('oauth_tokens')
            .set({ revoked_at: new Date(clock.now()) })
            .where('family_id', '=', row.family_id)
            .where('revoked_at', 'is', null)
            .execute();
          options.onRevoke();
        }
        return null;
      }
      return {
        refreshToken,
        refreshTokenExpiresAt: row.refresh_expires_at ?? undefined,
        scope: row.scopes ?? undefined,
        client: { id: row.client_id, grants: [] },
        user: { id: row.user_id, familyId: row.family_id, audienceHubId: row.audience_hub_id } satisfies CloudUserRef,
      };
    },

    async revokeToken(token: RefreshToken) {
      const now = new Date(clock.now());
      // Atomic: of two concurrent refreshes with the same token only one wins.
      const result = await db
        .updateTable('oauth_tokens')
        .set({ rotated_at: now, revoked_at: now })
        .where('refresh_hash', '=', hashSecret(token.refreshToken))
        .where('rotated_at', 'is', null)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      options.onRevoke();
      return Number(result.numUpdatedRows) === 1;
    },

    async saveAuthorizationCode(
      code: Pick<
        AuthorizationCode,
        'authorizationCode' | 'expiresAt' | 'redirectUri' | 'scope' | 'codeChallenge' | 'codeChallengeMethod'
      >,
      client: ModelClient,
      user: CloudUserRef,
    ) {
      const problem = pkceProblem(client, code.codeChallenge, code.codeChallengeMethod);
      if (problem) throw new InvalidRequestError(`Invalid request: ${problem}`);
      await codes.save(code, client, user.id as string, user.audienceHubId ?? null);
      return { ...code, client, user };
    },

    getAuthorizationCode: codes.get,
    revokeAuthorizationCode: codes.use,

    async useLoginToken(token: string): Promise<string | null> {
      const row = await db
        .updateTable('one_time_tokens')
        .set({ used_at: new Date(clock.now()) })
        .where('token_hash', '=', hashSecret(token))
        .where('kind', '=', 'login')
        .where('used_at', 'is', null)
        .where('expires_at', '>', new Date(clock.now()))
        .returning('user_id')
        .executeTakeFirst();
      return row?.user_id ?? null;
    },
  };
}

type CloudModel = ReturnType<typeof createModel>;

/**
 * The model for one token request: the calls that record who asked get the request's facts. (Passed to the
 * library per request rather than through an AsyncLocalStorage, which once used would add async-hook work to
 * every asynchronous operation of the process, relayed requests included.)
 */
function withFacts(model: CloudModel, facts: RequestFacts): CloudModel {
  return {
    ...model,
    getUser: (username: string, password: string, client?: Client) => model.getUser(username, password, client, facts),
    saveToken: (token: Token, client: Client, user: CloudUserRef) => model.saveToken(token, client, user, facts),
  };
}

/** `grant_type=urn:hearth:params:oauth:grant-type:login-token` with field `token`. */
class LoginTokenGrantType extends AbstractGrantType {
  async handle(request: Request, client: Client) {
    const token = request.body?.token;
    if (!token || typeof token !== 'string') throw new InvalidRequestError('Missing parameter: `token`');
    const model = (this as unknown as { model: CloudModel }).model;
    const userId = await model.useLoginToken(token);
    if (!userId) throw new InvalidGrantError('Invalid grant: login token is invalid, used or expired');
    const user: CloudUserRef = { id: userId };
    const scope = await this.validateScope(user, client, this.getScope(request));
    if (!scope) throw new InvalidGrantError('Invalid grant: scope is invalid');
    return model.saveToken(
      {
        accessToken: await this.generateAccessToken(client, user, scope),
        accessTokenExpiresAt: this.getAccessTokenExpiresAt(),
        refreshToken: await this.generateRefreshToken(client, user, scope),
        refreshTokenExpiresAt: this.getRefreshTokenExpiresAt(),
        scope,
        client,
        user,
      },
      client,
      user,
    );
  }
}

const oauthCodes = new Set<string>(Object.keys(errorCatalogue));

/** Maps the OAuth2 library's errors to the catalogue (`invalid_grant`, `invalid_client`, …). */
export function toCloudError(error: unknown): HearthError {
  if (error instanceof HearthError) return error;
  if (error instanceof OAuthError) {
    const { inner } = error as OAuthError & { inner?: unknown };
    if (inner instanceof HearthError) return inner;
    const name = error.name === 'server_error' ? 'internal_error' : error.name;
    if (name === 'internal_error' || !oauthCodes.has(name)) return new HearthError('internal_error');
    return new HearthError(name as ErrorCode, error.message);
  }
  return new HearthError('internal_error');
}

/** Basic credentials are form-encoded before base64 (RFC 6749 §2.3.1): decode `%20` and friends. */
function normaliseBasic(header: string | undefined): string | undefined {
  const match = header && /^Basic\s+(\S+)$/i.exec(header);
  if (!match) return header;
  const decoded = Buffer.from(match[1] as string, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return header;
  const decodePart = (s: string) => {
    try {
      return decodeURIComponent(s.replace(/\+/g, ' '));
    } catch {
      return s;
    }
  };
  return `Basic ${Buffer.from(`${decodePart(decoded.slice(0, colon))}:${decodePart(decoded.slice(colon + 1))}`).toString('base64')}`;
}

function toOAuthRequest(request: FastifyRequest, body: Record<string, unknown>, query: Record<string, unknown> = {}): Request {
  const headers = { ...request.headers } as Record<string, string>;
  const authorization = normaliseBasic(headers.authorization);
  if (authorization) headers.authorization = authorization;
  else delete headers.authorization;
  return new Request({ method: request.method, headers, query: query as Record<string, string>, body });
}

export type OAuth = ReturnType<typeof createOAuth>;

/** The OAuth2 server of the cloud (`@node-oauth/oauth2-server`) over the cloud's database. */
export function createOAuth(context: CloudContext) {
  const { db } = context.database;
  const signIn = new PasswordSignIn(db, new SignInThrottle(context.limits));
  const twoFactor = createTwoFactor(context);
  const onRevoke = () => forgetCachedTokens(context.database);
  const tokenModel = createModel(db, signIn, twoFactor, { checkSecret: true, onRevoke, clock: context.clock });
  const authorizeModel = createModel(db, signIn, twoFactor, { checkSecret: false, onRevoke, clock: context.clock });
  const server = new OAuth2Server({
    model: tokenModel as never,
    accessTokenLifetime: context.config.accessTokenLifetime,
    refreshTokenLifetime: context.config.refreshTokenLifetime,
    authorizationCodeLifetime: 60,
    allowEmptyState: true,
    alwaysIssueNewRefreshToken: true,
    // Public clients (PKCE) send no secret; the model still demands one from every confidential client.
    requireClientAuthentication: { authorization_code: false, refresh_token: false, [LOGIN_TOKEN_GRANT]: false },
    extendedGrantTypes: { [LOGIN_TOKEN_GRANT]: LoginTokenGrantType as never },
  });
  const factsOf = (request: FastifyRequest, body: Record<string, unknown> = {}): RequestFacts => ({
    ip: request.ip,
    userAgent: request.headers['user-agent'] ?? null,
    otp: typeof body.otp === 'string' && body.otp !== '' ? body.otp : null,
  });

  return {
    signIn,
    twoFactor,
    passkeys: createPasskeys(context),
    browserSessions: createBrowserSessions(context),
    /** `POST /oauth2/token`: answers the token response or throws a coded error. */
    async token(request: FastifyRequest, body: Record<string, unknown>) {
      const scope = typeof body.scope === 'string' ? splitScopes(body.scope).join(' ') : undefined;
      const oauthRequest = toOAuthRequest(request, { ...body, ...(scope === undefined ? {} : { scope }) });
      const response = new Response({});
      try {
        await server.token(oauthRequest, response, { model: withFacts(tokenModel, factsOf(request, body)) } as never);
      } catch (error) {
        throw toCloudError(error);
      }
      return response.body as { token_type: string; access_token: string; refresh_token?: string; expires_in: number };
    },
    /**
     * Issues an authorization code for a signed-in user and answers the address to redirect to; `null`, and no
     * code, when that address is a hub's root and the hub is not one of the user's or did not prove it serves it.
     * A code sent to a hub's root is bound to that hub.
     */
    async authorize(request: FastifyRequest, fields: Record<string, string>, userId: string): Promise<string | null> {
      const client = await db
        .selectFrom('oauth_clients')
        .select('redirect_uris')
        .where('id', '=', fields.client_id ?? '')
        .executeTakeFirst();
      const redirect = client
        ? await hubRedirectFor(context, client.redirect_uris, fields.redirect_uri ?? '', userId)
        : { allowed: true as const, hubId: null };
      if (!redirect.allowed) return null;
      const user: CloudUserRef = { id: userId, audienceHubId: redirect.hubId };
      const scope = splitScopes(fields.scope).join(' ');
      const oauthRequest = toOAuthRequest(request, { ...fields, ...(scope ? { scope } : {}) }, {});
      const response = new Response({});
      try {
        await server.authorize(oauthRequest, response, {
          model: authorizeModel,
          authenticateHandler: { handle: () => user },
        } as never);
      } catch (error) {
        // Errors after the redirect address was validated are sent back to the client, as OAuth2 says.
        const location = response.get('location') as string | undefined;
        if (location) return location;
        throw toCloudError(error);
      }
      return response.get('location') as string;
    },
    /** The registered client, for the sign-in page to validate before showing the form. */
    client: async (clientId: string) => {
      const row = await db
        .selectFrom('oauth_clients')
        .select(['id', 'name', 'redirect_uris', 'grants', 'secret_hash'])
        .where('id', '=', clientId)
        .executeTakeFirst();
      if (!row) return undefined;
      const { secret_hash, ...client } = row;
      return { ...client, isPublic: secret_hash === null };
    },
    /** Whether the client may be sent back to `uri` (see `redirectAllowed`). */
    allowsRedirect: (redirectUris: readonly string[], uri: string) => redirectAllowed(db, redirectUris, uri),
  };
}
