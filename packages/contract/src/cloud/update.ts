import { type Static, Type } from 'typebox';
import { cloudService } from '../operation';

const op = cloudService('update', '/update');

/** The hub software's release channels, steadiest first: a channel sees its own releases and every steadier one's. */
export const RELEASE_CHANNELS = ['stable', 'rc', 'beta', 'alpha'] as const;

export const HubRelease = Type.Object({
  version: Type.String(),
  channel: Type.Enum([...RELEASE_CHANNELS]),
  /** `yyyy-mm-dd`. */
  releaseDate: Type.String(),
  /** Bytes to download. */
  size: Type.Integer(),
  /** What changed, by language code; `en` always. */
  changelog: Type.Record(Type.String(), Type.String()),
});
export type HubReleaseBody = Static<typeof HubRelease>;

export const updateOperations = {
  getChangelog: op({
    name: 'getChangelog',
    method: 'GET',
    path: '/changelog',
    scope: null,
    auth: false,
    query: Type.Object({
      /** Only releases this channel sees (its own and the steadier channels'); every release when absent. */
      channel: Type.Optional(Type.Enum([...RELEASE_CHANNELS])),
      /** Only releases newer than this version (semver). */
      since: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
      /** Changelogs in this language (and English) only. */
      language: Type.Optional(Type.String({ minLength: 2, maxLength: 10, pattern: '^[A-Za-z]{2}([_-][A-Za-z0-9]{2,8})?$' })),
    }),
    response: Type.Array(HubRelease),
    errors: ['invalid_parameter'],
    summary:
      "The hub software's releases with their changelogs per language, newest first: the list hubs' `updates` manager offers and shows what is new from.",
  }),
} as const;
