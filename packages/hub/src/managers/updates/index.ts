import { HearthError, hubOperations, notFound } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import semver from 'semver';
import type { HubContext, HubManager, HubPrincipal } from '../../platform/context';
import { transact } from '../../store/database';
import type { Notifier } from '../notifications/store';
import { type OptionBehaviour, optionHandlers, optionValues, readOption } from '../options';
import { type Channel, type Release, ReleaseList } from './releases';

const READ_SCOPE = 'homey.updates.readonly';
const STEP_MS = 200;

interface InstallState {
  status: 'idle' | 'downloading' | 'installing' | 'installed' | 'aborted';
  version: string | null;
  /** The notes of the release being installed, for "what's new" once it is. */
  notes?: WhatsNewEntry | null;
  progress: number;
  reboot: boolean;
  silent: boolean;
  startedAt: string | null;
  finishedAt: string | null;
}

interface WhatsNewEntry {
  id: string;
  version: string;
  title: string;
  body: string;
  date: string;
}

const idle: InstallState = {
  status: 'idle',
  version: null,
  progress: 0,
  reboot: false,
  silent: false,
  startedAt: null,
  finishedAt: null,
};

const behaviours: Record<string, OptionBehaviour> = {
  channel: { default: 'stable' },
  autoupdate: { default: true },
  forceChannel: { default: false },
  updateNotifications: { default: true },
};

const installedVersion = (context: HubContext): string =>
  context.settings.get('updates.installedVersion', context.config.softwareVersion);

/** Releases newer than the installed version on the hub's channel, newest first. */
async function available(context: HubContext, releases: ReleaseList): Promise<Release[]> {
  const channel = readOption<Channel>(context, 'updates', 'channel', 'stable');
  const current = installedVersion(context);
  return (await releases.list(channel)).filter((r) => semver.gt(r.version, current));
}

/** A release's notes in the hub's language (English when the changelog has none in it). */
const releaseNotes = (context: HubContext, release: Release): WhatsNewEntry => {
  const language = readOption(context, 'i18n', 'language', context.config.language);
  return {
    id: release.version,
    version: release.version,
    title: `What's new in Hearth ${release.version}`,
    body: release.changelog[language] ?? release.changelog.en ?? '',
    date: release.releaseDate,
  };
};

function readState(context: HubContext): InstallState {
  return context.settings.get<InstallState>('updates.state', idle);
}

function publicState(context: HubContext) {
  const state = readState(context);
  return {
    status: state.status,
    version: state.version,
    progress: state.progress,
    currentVersion: installedVersion(context),
    rebootRequired: context.settings.get('updates.rebootRequired', false),
    startedAt: state.startedAt,
    finishedAt: state.finishedAt,
  };
}

function writeState(context: HubContext, state: InstallState): void {
  context.settings.set('updates.state', state);
  context.events.entity('updates', 'update', 'update', publicState(context), READ_SCOPE);
}

/** Moves an install on by one step; answers whether it is still in progress. */
function step(context: HubContext, notifier: Notifier): boolean {
  const state = readState(context);
  if (state.status !== 'downloading' && state.status !== 'installing') return false;
  const progress = Math.min(100, state.progress + 20);
  if (progress < 100) {
    writeState(context, { ...state, progress, status: progress < 60 ? 'downloading' : 'installing' });
    return true;
  }
  const version = state.version as string;
  transact(context.db, () => {
    context.settings.set('updates.installedVersion', version);
    // Without an immediate reboot the new version runs from the next start.
    context.settings.set('updates.rebootRequired', !state.reboot);
    if (state.notes) {
      const whatsNew = context.settings.get<WhatsNewEntry[]>('updates.whatsnew', []);
      context.settings.set('updates.whatsnew', [...whatsNew.filter((w) => w.id !== version), state.notes]);
    }
    writeState(context, { ...state, progress: 100, status: 'installed', finishedAt: isoNow(context) });
  });
  if (!state.silent && readOption(context, 'updates', 'updateNotifications', true))
    notifier.notify({ ownerUri: 'homey:manager:updates', excerpt: `Hearth ${version} is installed.` });
  return false;
}

const isoNow = (context: HubContext) => new Date(context.clock.now()).toISOString();

/** Software updates from the hub's channel: which exist, installing one, aborting, and what's new. */
export const updatesManager: HubManager = {
  name: 'updates',
  create: (context, services) => {
    /** The install in progress moves on with a timer; it does not outlive the hub's process. */
    let stopStepping: (() => void) | null = null;
    const releases = new ReleaseList(context);
    /** What's new: the notes kept at each install, or the running version's own from the cloud. */
    const whatsNew = async (): Promise<WhatsNewEntry[]> => {
      const kept = context.settings.get<WhatsNewEntry[] | null>('updates.whatsnew', null);
      if (kept) return kept;
      const running = (await releases.list(null).catch(() => [])).find((r) => r.version === installedVersion(context));
      return running ? [releaseNotes(context, running)] : [];
    };
    const stopTimer = () => {
      stopStepping?.();
      stopStepping = null;
    };
    return {
      implementations: implement<typeof hubOperations.updates, HubPrincipal>(hubOperations.updates, {
        getState: async () => ({
          ...publicState(context),
          ...optionValues(context, 'updates', behaviours),
          available: (await available(context, releases).catch(() => [])).length,
        }),
        ...optionHandlers(context, 'updates', hubOperations.updates, behaviours),
        getUpdates: async () =>
          (await available(context, releases)).map((r) => ({ id: r.version, ...r, changelog: { ...r.changelog } })),
        installUpdate: async ({ body }) => {
          const current = readState(context);
          if (current.status === 'downloading' || current.status === 'installing')
            throw new HearthError('conflict', `Update ${current.version} is already being installed`);
          const [newest] = await available(context, releases);
          if (!newest) throw new HearthError('not_found', 'No update is available on this channel');
          // Checked again: the list was asked for in between.
          if (readState(context).status === 'downloading' || readState(context).status === 'installing')
            throw new HearthError('conflict', `Update ${readState(context).version} is already being installed`);
          writeState(context, {
            status: 'downloading',
            version: newest.version,
            notes: releaseNotes(context, newest),
            progress: 0,
            reboot: body.reboot ?? false,
            silent: body.silent ?? false,
            startedAt: isoNow(context),
            finishedAt: null,
          });
          stopTimer();
          stopStepping = context.clock.setInterval(() => {
            if (!step(context, services.notifications)) stopTimer();
          }, STEP_MS);
          return publicState(context);
        },
        abortInstallUpdate: () => {
          const current = readState(context);
          if (current.status !== 'downloading' && current.status !== 'installing')
            throw new HearthError('conflict', 'No update is being installed');
          stopTimer();
          writeState(context, { ...current, status: 'aborted', finishedAt: isoNow(context) });
          return publicState(context);
        },
        getWhatsNew: async () => {
          const dismissed = new Set(context.settings.get<string[]>('updates.whatsnewDismissed', []));
          return (await whatsNew()).filter((e) => !dismissed.has(e.id));
        },
        dismissWhatsNew: async ({ params }) => {
          const entries = await whatsNew();
          const dismissed = context.settings.get<string[]>('updates.whatsnewDismissed', []);
          if (!entries.some((e) => e.id === params.id) || dismissed.includes(params.id))
            throw notFound("What's new entry", params.id);
          context.settings.set('updates.whatsnewDismissed', [...dismissed, params.id]);
        },
      }),
      start: () => {
        // An install cut short by a stop does not resume by itself.
        const state = readState(context);
        if (state.status === 'downloading' || state.status === 'installing')
          context.settings.set('updates.state', { ...state, status: 'aborted', finishedAt: isoNow(context) });
      },
      stop: stopTimer,
    };
  },
};
