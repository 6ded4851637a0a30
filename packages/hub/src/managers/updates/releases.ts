import { cloudOperations, HearthError, type HubReleaseBody } from '@hearth/contract';
import type { HubContext } from '../../platform/context';

export type Release = HubReleaseBody;
export type Channel = NonNullable<HubReleaseBody['channel']>;

/** How long the cloud's list of releases is kept: new releases are rare, and hubs are many. */
const KEEP_MS = 60 * 60_000;

/**
 * The hub software's releases, as the cloud's update service (`GET /update/changelog`) lists them for a channel,
 * kept an hour. A hub without a cloud knows of no release; when the cloud does not answer, the last list known
 * is used (an error only when there is none).
 */
export class ReleaseList {
  readonly #kept = new Map<string, { at: number; releases: Release[] }>();

  constructor(private readonly context: HubContext) {}

  /** The releases `channel` sees (every release when `null`), newest first. */
  async list(channel: Channel | null): Promise<Release[]> {
    if (!this.context.cloud.url) return [];
    const key = channel ?? 'all';
    const kept = this.#kept.get(key);
    const now = this.context.clock.now();
    if (kept && now - kept.at < KEEP_MS) return kept.releases;
    try {
      const releases = await this.context.cloud.call(cloudOperations.update.getChangelog, channel ? { channel } : {}, {
        timeoutMs: 5000,
      });
      this.#kept.set(key, { at: now, releases });
      return releases;
    } catch {
      if (kept) return kept.releases;
      throw new HearthError('unavailable', "The cloud's update service could not be reached");
    }
  }
}
