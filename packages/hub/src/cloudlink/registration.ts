import type { HubConfig } from '../config';
import { hubModels } from '../config';

/** The cloud's internal client, whose credential a hub of the provider's own registers itself with. */
export const INTERNAL_CLIENT_ID = 'hearth-internal';

export interface Registration {
  /** Resolves once the cloud has the hub's current record (or the registration was stopped). */
  readonly registered: Promise<boolean>;
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

async function post(url: string, init: RequestInit, signal: AbortSignal): Promise<unknown> {
  const response = await fetch(url, { ...init, method: 'POST', signal: AbortSignal.any([signal, AbortSignal.timeout(10_000)]) });
  const text = await response.text();
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${text.slice(0, 200)}`);
  return text ? JSON.parse(text) : undefined;
}

/**
 * Registers the hub with the cloud at start: its id, name, model, software version and the address it answers
 * at, so clients find it (`/cloud/user/me` lists these addresses for discovery). Retries with backoff while
 * the cloud is unreachable; never blocks the hub.
 */
export function registerWithCloud(config: HubConfig, localUrl: string, log: Logger): Registration {
  const controller = new AbortController();
  const { cloudUrl, cloudClientSecret } = config;
  if (!cloudUrl || !cloudClientSecret) return { registered: Promise.resolve(false), stop: () => {} };
  const basic = Buffer.from(`${encodeURIComponent(INTERNAL_CLIENT_ID)}:${encodeURIComponent(cloudClientSecret)}`).toString(
    'base64',
  );
  const once = async () => {
    const token = (await post(
      `${cloudUrl}/cloud/oauth2/token`,
      {
        headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: 'grant_type=client_credentials',
      },
      controller.signal,
    )) as { access_token: string };
    const port = Number(new URL(localUrl).port);
    await post(
      `${cloudUrl}/cloud/homey/`,
      {
        headers: { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          data: {
            _id: config.id,
            name: config.name,
            model: config.model,
            platform: hubModels[config.model].platform,
            softwareVersion: config.softwareVersion,
            language: config.language,
            localUrl,
            portHttp: port,
          },
        }),
      },
      controller.signal,
    );
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
  return { registered, stop: () => controller.abort() };
}
