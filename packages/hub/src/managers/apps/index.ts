import { cloudOperations, HearthError, hubOperations } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import { CloudCallError } from '../../cloudlink/client';
import { hubModels } from '../../config';
import type { HubContext, HubManager, HubPrincipal } from '../../platform/context';
import { translate } from '../../runtime/manifest';
import { type AppService, appMigrations } from './service';

/** How long the hub waits for the cloud's mail service. */
const MAIL_TIMEOUT_MS = 8_000;

/**
 * Sends an app's author the user's message with the app's recent output and the hub's facts, through the
 * cloud's mail service. Without a reachable cloud this is the seed's offline case: a 500.
 */
async function mailCrashLog(context: HubContext, apps: AppService, appId: string, message: string) {
  const app = apps.require(appId);
  const std = apps.std(appId);
  const { config } = context;
  const offline = () =>
    new HearthError('offline', 'Hearth Offline: the hub could not reach the cloud to send the e-mail with the diagnostic report');
  if (!config.cloudUrl) throw offline();
  if (!app.manifest.author.email) throw new HearthError('conflict', `The author of ${app.id} has no e-mail address`);
  const view = apps.view(app);
  const facts = [
    `Hub: ${config.id} (${hubModels[config.model].modelName}, ${config.model})`,
    `Software version: ${config.softwareVersion}`,
    `App: ${app.id} v${app.manifest.version} (sdk ${app.manifest.sdk}, ${app.channel})`,
    `State: ${String(view.state)}${view.crashed ? `, crashed: ${String(view.crashedMessage)}` : ''}, exit count ${String(view.exitCount)}`,
  ];
  const body = [
    message,
    '',
    '--- Diagnostic report ---',
    ...facts,
    '',
    '--- Recent output ---',
    ...std.map((l) => `${l.t} [${l.stream}] ${l.line}`),
  ].join('\n');
  try {
    await context.cloud.call(
      cloudOperations.cloud.sendFormattedEmail,
      {
        to: app.manifest.author.email,
        subject: `Message about ${translate(app.manifest.name, 'en')} v${app.manifest.version} from a Hearth user`,
        body,
        header: { title: translate(app.manifest.name, 'en') },
      },
      { timeoutMs: MAIL_TIMEOUT_MS },
    );
  } catch (error) {
    if (error instanceof CloudCallError) {
      throw new HearthError('unavailable', `The cloud could not send the e-mail (status ${error.status})`);
    }
    throw offline();
  }
  return { to: app.manifest.author.email, lines: std.length };
}

/** Apps: installed packages, their simulated processes, settings and output. */
export const appsManager: HubManager = {
  name: 'apps',
  migrations: appMigrations,
  create: (context, services) => {
    const { apps, devices } = services;
    const view = (id: string) => apps.view(apps.require(id));
    return {
      implementations: implement<typeof hubOperations.apps, HubPrincipal>(hubOperations.apps, {
        getState: () => ({
          apps: apps.list().length,
          running: apps.list().filter((a) => apps.isRunning(a.id)).length,
        }),
        getApps: () => Object.fromEntries(apps.list().map((app) => [app.id, apps.view(app)])),
        getApp: ({ params }) => view(params.id),
        installFromAppStore: async ({ body }) =>
          apps.view(await apps.installFromAppStore(body.id, body.channel ?? 'stable', body.version)),
        uninstallApp: ({ params, query }) => {
          const app = apps.require(params.id);
          if (app.builtin) throw new HearthError('forbidden', `App ${app.id} is built in and cannot be uninstalled`);
          for (const device of devices.listByApp(app.id)) devices.delete(device.id);
          apps.uninstall(app.id, query.purgeSettings === true);
          return undefined;
        },
        updateApp: ({ params, body }) => {
          if (body.autoupdate !== undefined) apps.setAutoupdate(params.id, body.autoupdate);
          return view(params.id);
        },
        enableApp: ({ params }) => apps.view(apps.setEnabled(params.id, true)),
        disableApp: ({ params }) => apps.view(apps.setEnabled(params.id, false)),
        restartApp: ({ params }) => apps.view(apps.restart(params.id)),
        garbageCollectApp: ({ params }) => apps.gc(params.id),
        getAppLocales: ({ params }) => apps.locale(params.id),
        getAppUsage: ({ params }) => apps.measureUsage(params.id),
        getAppSettings: ({ params }) => apps.settings(params.id),
        getAppSetting: ({ params }) => apps.setting(params.id, params.name),
        setAppSetting: ({ params, body }) => apps.setSetting(params.id, params.name, body.value),
        unsetAppSetting: ({ params }) => {
          apps.unsetSetting(params.id, params.name);
          return undefined;
        },
        getAppStd: ({ params, body }) => mailCrashLog(context, apps, params.id, body.message),
      }),
    };
  },
};
