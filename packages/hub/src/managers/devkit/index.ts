import { randomUUID } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { HearthError, hubOperations, invalidParameter, notFound } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import { loadApp, ManifestError } from '@hearth/sdk/manifest';
import type { FastifyRequest } from 'fastify';
import type { HubManager, HubPrincipal } from '../../platform/context';
import { type AppManifest, checkManifest } from '../../runtime/manifest';
import type { StdLine } from '../apps/process/std';
import { extractApp, manifestFromArchive } from './archive';

interface DevkitSession {
  sessionId: string;
  appId: string;
  origin: 'devkit_run' | 'devkit_install';
  userId: string;
  debug: boolean;
  /** Environment variables the developer runs the app with (older form's `env`). */
  env: Record<string, string>;
  /** Stops sending the app's output to the session's user as it arrives. */
  unfollow: () => void;
}

/** A line of an app's output as a devkit session sees it (the contract's `DevkitStd`). */
const stdOf = (sessionId: string, line: StdLine) => ({
  session: sessionId,
  id: `${sessionId}:${line.seq}`,
  type: line.stream,
  chunk: `${line.line}\n`,
  t: line.t,
  stream: line.stream,
  line: line.line,
});

/** The largest app archive the older multipart form accepts. */
export const DEVKIT_ARCHIVE_MAX_BYTES = 32 * 1024 * 1024;

/** The fields of the older form (`POST /api/manager/devkit/`, multipart/form-data): app, env, debug, purgeSettings. */
interface RunForm {
  archive: Buffer | null;
  fields: Map<string, string>;
}

async function readRunForm(request: FastifyRequest): Promise<RunForm> {
  if (!request.isMultipart()) {
    throw new HearthError('unsupported_media_type', 'Send the app as multipart/form-data: app, env, debug, purgeSettings');
  }
  const form: RunForm = { archive: null, fields: new Map() };
  try {
    for await (const part of request.parts({ limits: { fileSize: DEVKIT_ARCHIVE_MAX_BYTES, files: 1, fields: 10 } })) {
      if (part.type === 'file') {
        if (part.fieldname !== 'app') {
          part.file.resume();
          throw invalidParameter(part.fieldname, 'The app archive is sent in the field app');
        }
        form.archive = await part.toBuffer();
      } else {
        form.fields.set(part.fieldname, String(part.value));
      }
    }
  } catch (error) {
    if (error instanceof HearthError) throw error;
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new HearthError('payload_too_large', 'The app archive may be at most 32 MB');
    if (code === 'FST_FILES_LIMIT_REACHED') throw invalidParameter('app', 'Send one app archive');
    if (code === 'FST_FIELDS_LIMIT_REACHED') throw new HearthError('invalid_body', 'Too many form fields');
    throw new HearthError('invalid_body', 'The multipart body could not be read');
  }
  return form;
}

/** A boolean form field: `true`/`false` (or `1`/`0`); absent is `false`. */
function formBoolean(fields: Map<string, string>, name: string): boolean {
  const value = fields.get(name);
  if (value === undefined || value === '' || value === 'false' || value === '0') return false;
  if (value === 'true' || value === '1') return true;
  throw invalidParameter(name, `Expected true or false, got "${value.slice(0, 40)}"`);
}

/** The `env` form field: a JSON object whose values are strings; absent is none. */
function formEnv(fields: Map<string, string>): Record<string, string> {
  const text = fields.get('env');
  if (text === undefined || text === '') return {};
  let env: unknown;
  try {
    env = JSON.parse(text);
  } catch {
    throw invalidParameter('env', 'Must be a JSON object');
  }
  if (typeof env !== 'object' || env === null || Array.isArray(env)) throw invalidParameter('env', 'Must be a JSON object');
  for (const [key, value] of Object.entries(env)) {
    if (typeof value !== 'string') throw invalidParameter(`env.${key}`, 'Must be a string');
  }
  return env as Record<string, string>;
}

/** A Python app is valid in the ecosystem but not runnable here yet: said as such rather than as a bad manifest. */
function refusePython(runtime: unknown): void {
  if (runtime === 'python')
    throw new HearthError('python_apps_unsupported', 'Python apps are not supported yet: this hub runs Node.js apps');
}

/** The `runtime` an unpacked app's app.json names, if it can be read (the full reading comes after). */
function readManifestRuntime(dir: string): unknown {
  try {
    return (JSON.parse(readFileSync(join(dir, 'app.json'), 'utf8')) as { runtime?: unknown }).runtime;
  } catch {
    return undefined;
  }
}

/** Devkit: developers run or install an app (from its manifest, or as an archive in the older form) and read its output. */
export const devkitManager: HubManager = {
  name: 'devkit',
  create: (context, services) => {
    const { apps, devices, processes } = services;
    /** Devkit sessions live as long as the hub's process: a restarted hub has none. */
    const sessions = new Map<string, DevkitSession>();
    const find = (id: string, userId: string) => {
      const session = sessions.get(id);
      if (!session || session.userId !== userId) throw notFound('Devkit session', id);
      return session;
    };
    const close = (session: DevkitSession) => {
      session.unfollow();
      sessions.delete(session.sessionId);
    };
    const remove = (session: DevkitSession) => {
      close(session);
      if (apps.find(session.appId)) {
        for (const device of devices.listByApp(session.appId)) devices.delete(device.id);
        apps.uninstall(session.appId, session.origin === 'devkit_run');
      }
    };
    /**
     * Unpacks an archive with code into a new folder and reads its manifest the way the SDK does (app.json or
     * `.homeycompose/` merged), refusing a bad one naming the field; answers `null` for an archive without code.
     */
    const unpack = async (archive: Buffer, appId: string): Promise<{ dir: string; manifest: unknown } | null> => {
      const dir = processes.host.newCodeDir(appId);
      let loaded: ReturnType<typeof loadApp>;
      try {
        if (!(await extractApp(archive, dir))) {
          rmSync(dir, { recursive: true, force: true });
          return null;
        }
        refusePython(readManifestRuntime(dir));
        loaded = loadApp(dir);
      } catch (error) {
        rmSync(dir, { recursive: true, force: true });
        if (error instanceof ManifestError) throw invalidParameter('app', error.message);
        throw error;
      }
      // Drivers of SDK apps need not declare connectivity; the hub lists an empty one.
      const drivers = (loaded.manifest.drivers ?? []).map((driver) => ({ connectivity: [], ...driver }));
      return { dir, manifest: { ...loaded.manifest, drivers } };
    };
    /** Checks the manifest and installs (and with `run`, runs) the app in a new session of `principal`. */
    const open = (
      field: string,
      candidate: unknown,
      principal: HubPrincipal,
      options: { clean: boolean; run: boolean; debug: boolean; env: Record<string, string>; dir?: string },
    ) => {
      try {
        refusePython((candidate as { runtime?: unknown }).runtime);
      } catch (error) {
        if (options.dir) rmSync(options.dir, { recursive: true, force: true });
        throw error;
      }
      // An app with code, as the ecosystem's CLI sends it, is held to the ecosystem's checks; a manifest alone (Hearth's
      // simulated apps) to the hub's own.
      const problems = checkManifest(candidate, { ecosystem: options.dir !== undefined, dir: options.dir });
      if (problems.length > 0) {
        if (options.dir) rmSync(options.dir, { recursive: true, force: true });
        throw invalidParameter(field, problems.join('; '));
      }
      // An app that does not say its SDK is of SDK 3, as in the ecosystem.
      const manifest = { sdk: 3, ...(candidate as AppManifest) } as AppManifest;
      const existing = apps.find(manifest.id);
      if (existing?.builtin) throw new HearthError('forbidden', `App ${manifest.id} is built in and cannot be replaced`);
      for (const session of [...sessions.values()]) if (session.appId === manifest.id) close(session);
      if (options.clean && existing) apps.uninstall(manifest.id, true);
      const origin = options.run ? 'devkit_run' : 'devkit_install';
      processes.envOverrides.set(manifest.id, options.env);
      apps.install({ dir: options.dir ?? '', manifest, builtin: false }, origin, 'alpha');
      const sessionId = randomUUID();
      const userId = principal.userId;
      // The app's output goes live to the session's user (the devkit client's `std` event); what came before is
      // in its recent output (GET /std/{session}).
      const unfollow = apps.follow(manifest.id, (line) => {
        const data = stdOf(sessionId, line);
        context.events.manager('devkit', 'std', data, 'homey.app', (viewer) => (viewer.userId === userId ? data : undefined));
      });
      const session: DevkitSession = {
        sessionId,
        appId: manifest.id,
        origin,
        userId,
        debug: options.debug,
        env: options.env,
        unfollow,
      };
      sessions.set(session.sessionId, session);
      return { sessionId: session.sessionId, appId: session.appId, origin, debug: session.debug };
    };
    return {
      implementations: implement<typeof hubOperations.devkit, HubPrincipal>(hubOperations.devkit, {
        getState: () => ({ sessions: sessions.size }),
        installApp: ({ body, principal }) =>
          open('manifest', body.manifest, principal, {
            clean: body.clean === true,
            run: body.run !== false,
            debug: false,
            env: {},
          }),
        runApp: async ({ request, principal }) => {
          const form = await readRunForm(request);
          // Every field is checked before the archive is read, so a bad field never installs anything.
          const options = {
            clean: formBoolean(form.fields, 'purgeSettings'),
            debug: formBoolean(form.fields, 'debug'),
            env: formEnv(form.fields),
            run: true,
          };
          if (!form.archive || form.archive.length === 0) throw new HearthError('missing_parameter', 'Missing Parameter: app');
          const manifest = await manifestFromArchive(form.archive);
          const id = (manifest as { id?: unknown }).id;
          // An archive with code runs as a real app; only its id must be usable as a folder name first.
          const code = typeof id === 'string' && /^[a-z0-9]+(\.[a-z0-9_-]+)+$/.test(id) ? await unpack(form.archive, id) : null;
          return open('app', code?.manifest ?? manifest, principal, { ...options, ...(code ? { dir: code.dir } : {}) });
        },
        uninstallApp: ({ params, principal }) => {
          remove(find(params.sessionId, principal.userId));
          return undefined;
        },
        stopApp: ({ params, principal }) => {
          const session = find(params.session, principal.userId);
          // A run session ends with its app; an installed app stays, only the session closes.
          if (session.origin === 'devkit_run') remove(session);
          else close(session);
          return undefined;
        },
        getAppStdOut: ({ params, principal }) => {
          const session = find(params.session, principal.userId);
          return apps.std(session.appId).map((line) => stdOf(session.sessionId, line));
        },
      }),
      stop: () => {
        for (const session of sessions.values()) session.unfollow();
      },
    };
  },
  multipartOperations: ['runApp'],
};
