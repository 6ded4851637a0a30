import type { AppBuild, AppDetails, Localized } from '../../../types/entities';

type Raw = Record<string, unknown>;
const obj = (v: unknown): Raw | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Raw) : null);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/**
 * A build as the form reads it. The catalogue keeps manifest facts (support, bugs, community topic, drivers) on
 * the build's `facts` and repeats the live ones on the app itself; the first that has a value wins.
 */
function buildOf(app: Raw, key: 'liveBuild' | 'testBuild'): AppBuild | null {
  const build = obj(app[key]);
  if (!build) return null;
  const sources = [obj(build.facts), build, key === 'liveBuild' ? app : null].filter((s): s is Raw => s !== null);
  const pick = (name: string) => sources.map((s) => s[name]).find((v) => v !== undefined && v !== null && v !== '');
  const bugs = pick('bugs');
  return {
    name: (pick('name') as Localized | undefined) ?? String(app.id ?? ''),
    brandColor: str(pick('brandColor')),
    icon: str(pick('icon')),
    support: str(pick('support')),
    bugs: typeof bugs === 'string' ? bugs : ((obj(bugs) as { url?: string } | null) ?? undefined),
    homeyCommunityTopicId: pick('homeyCommunityTopicId') as number | string | undefined,
    drivers: (pick('drivers') as AppBuild['drivers']) ?? [],
  };
}

/** Normalizes the app catalogue's answer (`apps.getApp`) to the fields of seed section 3 ("App details"). */
export function toAppDetails(raw: Raw): AppDetails {
  const author = obj(raw.author) ?? {};
  const liveBuild = buildOf(raw, 'liveBuild');
  return {
    id: String(raw.id ?? raw._id ?? ''),
    author: { userId: String(author.userId ?? author._id ?? author.id ?? ''), verified: author.verified === true },
    liveBuild,
    testBuild: buildOf(raw, 'testBuild'),
    liveVersion: str(raw.liveVersion) ?? str(obj(raw.liveBuild)?.version) ?? null,
  };
}
