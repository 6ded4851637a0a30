import { cloudOperations } from '@hearth/contract';
import type { HubConfig } from '../config';
import { hubModels } from '../config';
import type { CloudLink } from './client';

export interface Registration {
  /** Resolves once the cloud has the hub's current record (or the registration was stopped). */
  readonly registered: Promise<boolean>;
  /**
   * The one-time code the cloud answered while nobody has claimed the hub there: the owner presents it to
   * `POST /cloud/homey/:id/activate` to become the owner. `null` once claimed (or before registering).
   */
  claimToken(): string | null;
  stop(): void;
}

interface Logger {
  warn(object: object, message: string): void;
  info(object: object, message: string): void;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * Registers the hub with the cloud at start: its id, name, model, software version and the address it answers
 * at, so clients find it (`/cloud/user/me` lists these addresses for discovery). Retries with backoff while
 * the cloud is unreachable; never blocks the hub.
 */
export function registerWithCloud(
  config: HubConfig,
  link: CloudLink,
  localUrl: string,
  log: Logger,
  extra: { mdnsFqdn?: string | null; localUrlSecure?: Promise<string | null> } = {},
): Registration {
  const controller = new AbortController();
  const { cloudUrl, cloudClientSecret } = config;
  if (!cloudUrl || !cloudClientSecret) return { registered: Promise.resolve(false), claimToken: () => null, stop: () => {} };
  let claimToken: string | null = null;
  const once = async () => {
    const localUrlSecure = await extra.localUrlSecure;
    const answer = await link.call(
      cloudOperations.cloud.createHomey,
      {
        data: {
          _id: config.id,
          name: config.name,
          model: config.model,
          platform: hubModels[config.model].platform,
          softwareVersion: config.softwareVersion,
          language: config.language,
          localUrl,
          portHttp: Number(new URL(localUrl).port),
          ...(extra.mdnsFqdn ? { mdnsFqdn: extra.mdnsFqdn } : {}),
          ...(localUrlSecure ? { localUrlSecure } : {}),
          ...(config.remoteUrlForwarded ? { remoteUrlForwarded: config.remoteUrlForwarded.replace(/\/$/, '') } : {}),
        },
      },
      { signal: controller.signal },
    );
    claimToken = typeof answer.claimToken === 'string' && answer.claimToken !== '' ? answer.claimToken : null;
  };
  const registered = (async () => {
    for (let delay = 1000; !controller.signal.aborted; delay = Math.min(delay * 2, 60_000)) {
      try {
        await once();
        log.info({ cloudUrl }, 'registered with the cloud');
        return true;
      } catch (error) {
        if (controller.signal.aborted) break;
        log.warn({ err: error, retryInMs: delay }, 'could not register with the cloud; retrying');
        await sleep(delay, controller.signal);
      }
    }
    return false;
  })();
  return { registered, claimToken: () => claimToken, stop: () => controller.abort() };
}
