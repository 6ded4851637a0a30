import { cloudOperations, HearthError, invalidParameter, isTimezone } from '@hearth/contract';
import { addressKey, implement } from '@hearth/contract/fastify';
import type { FastifyRequest } from 'fastify';
import { jwtVerify } from 'jose';
import { bearerToken, requireUser } from '../../platform/auth';
import type { CloudPrincipal } from '../../platform/context';
import { backupStore, toBackup } from '../backup/store';
import { type DelegationKeys, loadDelegationKeys } from '../cloud/delegation';
import { plainAddress } from '../geolocate/lookup';
import type { CloudService } from '../service';
import { type Actor, setupStore, toCommand, toSession } from './store';
import { voiceSample } from './voice';

const setupOps = cloudOperations.setup;

/** Expired sessions are looked for hourly; each node may sweep, the deletes do not overlap. */
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;
/** A phone asks once per setup; this leaves room for a household setting up several hubs and retrying. */
const TIMEZONE_PER_ADDRESS = { name: 'setup-timezone', quota: 60, windowSeconds: 3600 };

/**
 * Who calls a session's operation: a signed-in account (its access token), else the hub with the session's hub
 * token as Bearer. The routes need no session of the cloud's own (`auth: false`) because a hub being set up has
 * none; each handler asks for one of the two here.
 */
function actorOf(request: FastifyRequest, principal: CloudPrincipal | null): Actor {
  if (principal?.userId) return { kind: 'user', userId: principal.userId };
  const token = bearerToken(request);
  if (token !== null) return { kind: 'hub', token };
  if (principal) throw new HearthError('forbidden', 'A setup session is an account’s or its hub’s');
  throw new HearthError('missing_token', 'Missing Token');
}

const userOf = (actor: Actor): string => {
  if (actor.kind !== 'user') throw new HearthError('forbidden', 'Only the account setting the hub up may do this');
  return actor.userId;
};

/**
 * Device setup sessions under `/setup`: the mobile app opens a session and hands its hub token to the new hub, which
 * joins it; the app sends the hub commands and reads their answers, hands over a delegation token of its account,
 * claims and names the hub (the reset), lists the backups it may restore, and the hub reports the setup done.
 */
export const setupService: CloudService = {
  name: 'setup',
  create: (context, { locator }) => {
    let pending: Promise<DelegationKeys> | null = null;
    return {
      implementations: () => {
        const store = setupStore(context);
        const backups = backupStore(context);
        const keys = () => {
          pending ??= loadDelegationKeys(context);
          return pending;
        };
        const sessionFor = async (request: FastifyRequest, principal: CloudPrincipal | null, sessionId: string) => {
          const actor = actorOf(request, principal);
          return { actor, row: await store.load(sessionId, actor) };
        };

        /** The subject of a delegation token of the cloud for hubs (audience `homey`), checked against the session. */
        const delegationSubject = async (token: string, hubId: string | null) => {
          let payload: Record<string, unknown>;
          try {
            ({ payload } = await jwtVerify(token, (await keys()).publicKey, {
              algorithms: ['RS512'],
              issuer: context.config.publicUrl,
              audience: 'homey',
            }));
          } catch {
            throw new HearthError('forbidden', 'Invalid or expired delegation token: ask one for the audience homey');
          }
          if (payload.homeyId !== undefined && payload.homeyId !== hubId)
            throw new HearthError('forbidden', 'This delegation token was made for another hub');
          return payload.sub;
        };

        return implement<typeof setupOps, CloudPrincipal>(setupOps, {
          createSession: async ({ body, principal }) => {
            let owner: { userId: string | null; hubId: string | null };
            if (principal.internal && principal.userId === null) {
              if (!body?.homeyId) throw new HearthError('missing_parameter', 'Missing Parameter: homeyId');
              owner = { userId: null, hubId: body.homeyId };
            } else {
              if (body?.homeyId !== undefined) throw new HearthError('forbidden', 'Only a hub opens a session naming itself');
              owner = { userId: requireUser(principal), hubId: null };
            }
            const { row, hubToken } = await store.create({ ...owner, sn: body?.sn ?? null });
            return { ...toSession(row, null), hubToken };
          },
          getSession: async ({ params, principal, request }) => {
            const { actor, row } = await sessionFor(request, principal, params.sessionId);
            return toSession(row, actor);
          },
          updateSession: async ({ params, body, principal, request }) => {
            const { actor, row } = await sessionFor(request, principal, params.sessionId);
            if (row.state === 'done') throw new HearthError('conflict', 'This setup session is done');
            return toSession(await store.updateData(row, body.data), actor);
          },
          deleteSession: async ({ params, principal, request }) => {
            const actor = actorOf(request, principal);
            userOf(actor);
            // An expired session may be deleted all the same: only its owner finds it.
            try {
              await store.load(params.sessionId, actor);
            } catch (error) {
              if (!(error instanceof HearthError && error.code === 'gone')) throw error;
            }
            await store.remove(params.sessionId);
          },
          getSessionState: async ({ params, principal, request }) => {
            const { row } = await sessionFor(request, principal, params.sessionId);
            const session = toSession(row, null);
            return { state: session.state, updatedAt: session.updatedAt, expiresAt: session.expiresAt };
          },
          setSessionState: async ({ params, body, principal, request }) => {
            const { actor, row } = await sessionFor(request, principal, params.sessionId);
            return toSession(await store.setState(row, actor, body.data.state, body.data.homeyId), actor);
          },
          getSessionCommands: async ({ params, principal, request }) => {
            const { row } = await sessionFor(request, principal, params.sessionId);
            return (await store.commands(row.id)).map(toCommand);
          },
          createSessionCommand: async ({ params, body, principal, request }) => {
            const { actor, row } = await sessionFor(request, principal, params.sessionId);
            userOf(actor);
            return toCommand(
              await store.addCommand(row, { manager: body.manager, command: body.command, args: body.args ?? {} }),
            );
          },
          updateSessionCommandResponse: async ({ params, body, principal, request }) => {
            const { actor, row } = await sessionFor(request, principal, params.sessionId);
            if (actor.kind !== 'hub') throw new HearthError('forbidden', 'Only the session’s hub answers its commands');
            return toCommand(await store.answer(row.id, params.commandId, body.result));
          },
          loginByDelegationToken: async ({ params, body, principal, request }) => {
            const { actor, row } = await sessionFor(request, principal, params.sessionId);
            const userId = userOf(actor);
            if ((await delegationSubject(body.data.token, row.hub_id)) !== userId)
              throw new HearthError('forbidden', 'This delegation token is another account’s');
            return toSession(await store.signIn(row, body.data.token), actor);
          },
          updateSessionHomey: async ({ params, body, principal, request }) => {
            const zone = body.data.extraProperties?.timezone;
            if (zone !== undefined && !isTimezone(zone))
              throw invalidParameter('extraProperties.timezone', `${zone} is not an IANA time zone`);
            const { actor, row } = await sessionFor(request, principal, params.sessionId);
            return toSession(await store.configure(row, userOf(actor), body.data), actor);
          },
          getSessionVoice: async ({ params, query, principal, request }) => {
            await sessionFor(request, principal, params.sessionId);
            return voiceSample(query.language);
          },
          getSessionBackups: async ({ params, principal, request }) => {
            const { row } = await sessionFor(request, principal, params.sessionId);
            if (row.user_id === null) throw new HearthError('conflict', 'Nobody has opened this setup session yet');
            return (await backups.listComplete(row.user_id)).map(toBackup);
          },
          getTimezone: async ({ request }) => {
            await context.rateLimiter.count(request, TIMEZONE_PER_ADDRESS, addressKey(request.ip));
            try {
              const place = await locator.locate(plainAddress(request.ip));
              return { timezone: place.timezone, source: 'ip' as const, country: place.country, city: place.city || null };
            } catch (error) {
              // A private network's address (a phone on the home's Wi-Fi behind no proxy) has no place.
              if (error instanceof HearthError && error.code === 'not_found')
                return { timezone: 'UTC', source: 'default' as const, country: null, city: null };
              throw error;
            }
          },
        });
      },
      start: () => {
        const store = setupStore(context);
        // One node of the cloud sweeps per period (context.sweeps); the cloud stops it with itself.
        context.sweeps.every('setup-expired-sessions', SWEEP_INTERVAL_MS, () => store.sweepExpired());
      },
    };
  },
};
