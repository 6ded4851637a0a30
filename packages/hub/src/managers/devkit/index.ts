import { randomUUID } from 'node:crypto';
import { HearthError, hubOperations, notFound } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { HubContext, HubManager, HubPrincipal } from '../../platform/context';
import { hubRuntime } from '../../runtime';
import { type AppManifest, checkManifest } from '../../runtime/manifest';

interface DevkitSession {
  sessionId: string;
  appId: string;
  origin: 'devkit_run' | 'devkit_install';
  userId: string;
}

const sessionsOf = new WeakMap<HubContext, Map<string, DevkitSession>>();

/** Devkit: developers run or install an app from its manifest and read its output. */
export const devkitManager: HubManager = {
  name: 'devkit',
  implementations: (context) => {
    const { apps, devices } = hubRuntime(context);
    const sessions = sessionsOf.get(context) ?? new Map<string, DevkitSession>();
    sessionsOf.set(context, sessions);
    const find = (id: string, userId: string) => {
      const session = sessions.get(id);
      if (!session || session.userId !== userId) throw notFound('Devkit session', id);
      return session;
    };
    const remove = (session: DevkitSession) => {
      sessions.delete(session.sessionId);
      if (apps.find(session.appId)) {
        for (const device of devices.listByApp(session.appId)) devices.delete(device.id);
        apps.uninstall(session.appId, session.origin === 'devkit_run');
      }
    };
    return implement<typeof hubOperations.devkit, HubPrincipal>(hubOperations.devkit, {
      getState: () => ({ sessions: sessions.size }),
      installApp: ({ body, principal }) => {
        const problems = checkManifest(body.manifest);
        if (problems.length > 0)
          throw new HearthError('invalid_parameter', `Invalid Parameter: manifest. ${problems.join('; ')}`);
        const manifest = body.manifest as AppManifest;
        const existing = apps.find(manifest.id);
        if (existing?.builtin) throw new HearthError('forbidden', `App ${manifest.id} is built in and cannot be replaced`);
        for (const session of [...sessions.values()]) if (session.appId === manifest.id) sessions.delete(session.sessionId);
        if (body.clean && existing) apps.uninstall(manifest.id, true);
        const origin = body.run === false ? 'devkit_install' : 'devkit_run';
        apps.install({ dir: '', manifest, builtin: false }, origin, 'alpha');
        const session: DevkitSession = { sessionId: randomUUID(), appId: manifest.id, origin, userId: principal.userId };
        sessions.set(session.sessionId, session);
        return { sessionId: session.sessionId, appId: session.appId, origin };
      },
      uninstallApp: ({ params, principal }) => {
        remove(find(params.sessionId, principal.userId));
        return undefined;
      },
      stopApp: ({ params, principal }) => {
        const session = find(params.session, principal.userId);
        // A run session ends with its app; an installed app stays, only the session closes.
        if (session.origin === 'devkit_run') remove(session);
        else sessions.delete(session.sessionId);
        return undefined;
      },
      getAppStdOut: ({ params, principal }) => apps.std(find(params.session, principal.userId).appId),
    });
  },
};
