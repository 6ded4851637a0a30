import { cloudOperations, invalidParameter, RELEASE_CHANNELS } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import semver from 'semver';
import type { CloudPrincipal } from '../../platform/context';
import type { CloudService } from '../service';
import { HUB_RELEASES } from './releases';

const updateOps = cloudOperations.update;

/** The update service (`/update`): the hub software's releases and their changelogs. */
export const updateService: CloudService = {
  name: 'update',
  create: (_context) => ({
    implementations: () =>
      implement<typeof updateOps, CloudPrincipal>(updateOps, {
        getChangelog: ({ query, reply }) => {
          if (query.since !== undefined && !semver.valid(query.since))
            throw invalidParameter('since', 'Must be a version such as 12.4.1');
          const steadiness = (channel: string) => RELEASE_CHANNELS.indexOf(channel as (typeof RELEASE_CHANNELS)[number]);
          const language = query.language?.slice(0, 2).toLowerCase();
          reply.header('cache-control', 'public, max-age=3600');
          return HUB_RELEASES.filter(
            (release) =>
              (query.channel === undefined || steadiness(release.channel) <= steadiness(query.channel)) &&
              (query.since === undefined || semver.gt(release.version, query.since as string)),
          )
            .sort((a, b) => semver.rcompare(a.version, b.version))
            .map((release) => ({
              ...release,
              changelog: language
                ? Object.fromEntries(Object.entries(release.changelog).filter(([code]) => code === 'en' || code === language))
                : { ...release.changelog },
            }));
        },
      }),
  }),
};
