import { communityTopicUrl, PROVIDER_SUPPORT_HOSTS, TRUSTED_AUTHOR_IDS } from '../../../config/constants';
import { compareVersions } from '../../../lib/version';
import type { AppBuild, AppDetails } from '../../../types/entities';
import type { SupportType } from '../../tree/types';

export interface AppClassification {
  /** The tree action the app leads to. */
  action: 'contactSupport' | 'contactDeveloper' | 'updateApp';
  supportType: SupportType;
  /** The developer's preferred contact address (website, mailto:, bugs page or forum topic). */
  supportUrl?: string;
  outOfDate: boolean;
}

export const buildOf = (app: AppDetails): AppBuild | null => app.liveBuild ?? app.testBuild ?? null;

/** Whether a link points at the provider's own support site. */
export function isProviderSupportLink(link: string | undefined): boolean {
  if (!link) return false;
  try {
    const url = new URL(link);
    return /^https?:$/.test(url.protocol) && PROVIDER_SUPPORT_HOSTS.includes(url.hostname);
  } catch {
    return false;
  }
}

const bugsLink = (build: AppBuild | null): string | undefined =>
  typeof build?.bugs === 'string' ? build.bugs : build?.bugs?.url;

/** How the developer of an app wants to be contacted, in the seed's order of preference. */
export function contactOf(app: AppDetails): { supportType: SupportType; supportUrl?: string } {
  const build = buildOf(app);
  const support = build?.support;
  if (app.builtin || TRUSTED_AUTHOR_IDS.includes(app.author.userId) || isProviderSupportLink(support))
    return { supportType: 'contactSupport' };
  if (support?.startsWith('https://')) return { supportType: 'website', supportUrl: support };
  if (support?.startsWith('mailto:')) return { supportType: 'email', supportUrl: support };
  const bugs = bugsLink(build);
  if (bugs?.startsWith('https://')) return { supportType: 'bugs', supportUrl: bugs };
  const topic = build?.homeyCommunityTopicId;
  if (topic !== undefined && topic !== null && topic !== '')
    return { supportType: 'forum', supportUrl: communityTopicUrl(topic) };
  return { supportType: 'none' };
}

/**
 * Classifies an installed app: provider-supported apps go to support, others to their developer; an app
 * installed at a version lower than the live one must be updated first.
 */
export function classifyApp(app: AppDetails, installedVersion: string): AppClassification {
  const contact = contactOf(app);
  const outOfDate = !!app.liveVersion && compareVersions(installedVersion, app.liveVersion) < 0;
  if (outOfDate) return { action: 'updateApp', ...contact, outOfDate };
  return { action: contact.supportType === 'contactSupport' ? 'contactSupport' : 'contactDeveloper', ...contact, outOfDate };
}
