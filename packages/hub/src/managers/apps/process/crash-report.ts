import { cloudOperations } from '@hearth/contract';
import { hubModels } from '../../../config';
import type { HubContext } from '../../../platform/context';
import type { AppService } from '../service';

/** The longest stack the cloud's crash endpoint takes (`APPS_LIMITS.maxStackLength`). */
const MAX_STACK_CHARS = 20_000;
const REPORT_TIMEOUT_MS = 8_000;

/**
 * Reports an app's crash to the cloud's crash endpoint (`POST /apps/app/{appId}/crash`), where its author sees it
 * grouped by stack: only for apps installed from the catalogue (a devkit app's developer is watching its output
 * already), and only when the hub has a cloud. The stack is the app's last error output. A report that cannot be
 * sent is noted in the app's output and not retried: the next crash reports again.
 */
export function reportCrash(
  context: HubContext,
  apps: AppService,
  appId: string,
  stderr: string,
  /** Aborted when the hub stops: a stopped hub sends nothing more. */
  signal: AbortSignal,
): void {
  const app = apps.find(appId);
  if (app?.origin !== 'appstore' || !context.cloud.url) return;
  const { config } = context;
  void context.cloud
    .call(
      cloudOperations.apps.createCrash,
      {
        appId,
        appVersion: app.manifest.version,
        homeyId: config.id,
        homeyVersion: config.softwareVersion,
        homeyModelId: config.model,
        homeyModelName: hubModels[config.model].modelName,
        stack: stderr.slice(-MAX_STACK_CHARS) || 'The app crashed without output',
      },
      { timeoutMs: REPORT_TIMEOUT_MS, signal },
    )
    .catch((error: unknown) => {
      if (signal.aborted || !context.db.open || !apps.find(appId)) return;
      apps.log(appId, 'stderr', `The crash could not be reported to the cloud: ${(error as Error).message}`);
    });
}
