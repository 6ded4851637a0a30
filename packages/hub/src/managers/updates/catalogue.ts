/**
 * The hub's local update channel catalogue: the releases it knows of, until the cloud serves `/update`.
 * A channel sees its own releases and those of every steadier channel.
 */
export const releases = [
  {
    version: '12.3.0',
    channel: 'stable',
    releaseDate: '2026-06-02',
    size: 182_000_000,
    changelog: { en: 'Faster zone loading.' },
  },
  {
    version: '12.4.0',
    channel: 'stable',
    releaseDate: '2026-09-15',
    size: 184_500_000,
    changelog: { en: 'Personal access tokens and dashboards.' },
  },
  {
    version: '12.4.1',
    channel: 'stable',
    releaseDate: '2026-10-20',
    size: 184_600_000,
    changelog: { en: 'Fixes for alarms after daylight saving time changes.' },
  },
  {
    version: '12.5.0-rc.1',
    channel: 'rc',
    releaseDate: '2026-11-02',
    size: 186_000_000,
    changelog: { en: 'Release candidate of 12.5: advanced flow folders.' },
  },
  {
    version: '12.5.0-beta.3',
    channel: 'beta',
    releaseDate: '2026-10-28',
    size: 185_900_000,
    changelog: { en: 'Beta: advanced flow folders.' },
  },
  {
    version: '12.6.0-alpha.1',
    channel: 'alpha',
    releaseDate: '2026-11-10',
    size: 187_200_000,
    changelog: { en: 'Alpha: new energy insights.' },
  },
] as const;

export type Release = (typeof releases)[number];
export type Channel = 'stable' | 'rc' | 'beta' | 'alpha';

const steadiness: Record<Channel, number> = { stable: 0, rc: 1, beta: 2, alpha: 3 };

export const visibleOn = (release: Release, channel: Channel): boolean => steadiness[release.channel] <= steadiness[channel];
