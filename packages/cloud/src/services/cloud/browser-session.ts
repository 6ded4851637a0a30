import { parse as parseCookie, serialize as serializeCookie } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CloudContext } from '../../platform/context';
import { hashSecret, newSecret } from '../../platform/tokens';

/**
 * The cloud's single sign-on cookie: set when a person signs in on the sign-in page (`/cloud/oauth2/authorise`), so
 * the next app that sends them there (the account pages again, the support form) gets its code without the form.
 * `HttpOnly` (no script reads it), `SameSite=Lax` (sent on the top-level navigation an app starts, not on other
 * sites' requests), `Secure` on https, under `/cloud/` only. The session is a row (a random token's hash) so any node
 * accepts it and signing out ends it everywhere.
 */
export const SESSION_COOKIE = 'hearth_session';
const SESSION_SECONDS = 30 * 24 * 3600;
const PATH = '/cloud/';

export type BrowserSessions = ReturnType<typeof createBrowserSessions>;

export function createBrowserSessions(context: CloudContext) {
  const { db } = context.database;
  const secure = context.config.publicUrl.startsWith('https://');
  const tokenOf = (request: FastifyRequest) => parseCookie(request.headers.cookie ?? '')[SESSION_COOKIE];
  const cookie = (value: string, maxAge: number) =>
    serializeCookie(SESSION_COOKIE, value, { httpOnly: true, sameSite: 'lax', secure, path: PATH, maxAge });

  return {
    /** Starts a browser session for `userId` and sets its cookie on `reply`. */
    async start(reply: FastifyReply, userId: string): Promise<void> {
      const token = newSecret();
      await db
        .insertInto('one_time_tokens')
        .values({
          token_hash: hashSecret(token),
          kind: 'browser_session',
          user_id: userId,
          expires_at: new Date(context.clock.now() + SESSION_SECONDS * 1000),
        })
        .execute();
      reply.header('set-cookie', cookie(token, SESSION_SECONDS));
    },

    /** The person the request's cookie signs in, or `null` (no cookie, ended, expired). */
    async current(request: FastifyRequest): Promise<string | null> {
      const token = tokenOf(request);
      if (!token) return null;
      const row = await db
        .selectFrom('one_time_tokens')
        .select('user_id')
        .where('token_hash', '=', hashSecret(token))
        .where('kind', '=', 'browser_session')
        .where('used_at', 'is', null)
        .where('expires_at', '>', new Date(context.clock.now()))
        .executeTakeFirst();
      return row?.user_id ?? null;
    },

    /**
     * Signing out of `userId`: ends this browser's session (when it is theirs) and clears its cookie, or with
     * `everywhere` ends every browser session of theirs. `keepThis` keeps this browser's (a password change).
     */
    async end(
      request: FastifyRequest,
      reply: FastifyReply,
      userId: string,
      options: { everywhere?: boolean; keepThis?: boolean } = {},
    ): Promise<void> {
      const token = tokenOf(request);
      let query = db
        .updateTable('one_time_tokens')
        .set({ used_at: new Date(context.clock.now()) })
        .where('kind', '=', 'browser_session')
        .where('user_id', '=', userId)
        .where('used_at', 'is', null);
      if (options.keepThis && token) query = query.where('token_hash', '!=', hashSecret(token));
      else if (!options.everywhere) query = query.where('token_hash', '=', hashSecret(token ?? ''));
      if (options.everywhere || options.keepThis || token) await query.execute();
      if (token && !options.keepThis) reply.header('set-cookie', cookie('', 0));
    },
  };
}
