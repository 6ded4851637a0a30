import type { HubReleaseBody } from '@hearth/contract';

/** The hub software's releases, as the provider publishes them. New releases are added here. */
export const HUB_RELEASES: readonly HubReleaseBody[] = [
  {
    version: '12.3.0',
    channel: 'stable',
    releaseDate: '2026-06-02',
    size: 182_000_000,
    changelog: {
      en: 'Faster zone loading.',
      nl: 'Zones laden sneller.',
      de: 'Zonen laden schneller.',
    },
  },
  {
    version: '12.4.0',
    channel: 'stable',
    releaseDate: '2026-09-15',
    size: 184_500_000,
    changelog: {
      en: 'Personal access tokens and dashboards.',
      nl: 'Persoonlijke toegangstokens en dashboards.',
      de: 'Persönliche Zugriffstoken und Dashboards.',
    },
  },
  {
    version: '12.4.1',
    channel: 'stable',
    releaseDate: '2026-10-20',
    size: 184_600_000,
    changelog: {
      en: 'Fixes for alarms after daylight saving time changes.',
      nl: 'Wekkers werken weer goed na de overgang naar zomer- of wintertijd.',
      de: 'Wecker funktionieren nach der Zeitumstellung wieder richtig.',
    },
  },
  {
    version: '12.5.0-beta.3',
    channel: 'beta',
    releaseDate: '2026-10-28',
    size: 185_900_000,
    changelog: { en: 'Beta: advanced flow folders.', nl: 'Bèta: mappen voor geavanceerde flows.' },
  },
  {
    version: '12.5.0-rc.1',
    channel: 'rc',
    releaseDate: '2026-11-02',
    size: 186_000_000,
    changelog: {
      en: 'Release candidate of 12.5: advanced flow folders.',
      nl: 'Releasekandidaat van 12.5: mappen voor geavanceerde flows.',
    },
  },
  {
    version: '12.6.0-alpha.1',
    channel: 'alpha',
    releaseDate: '2026-11-10',
    size: 187_200_000,
    changelog: { en: 'Alpha: new energy insights.' },
  },
];
