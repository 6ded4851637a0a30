import { createHash } from 'node:crypto';
import { cloudOperations, HearthError, ICONS_LIMITS, invalidParameter, notFound } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { CloudPrincipal } from '../../platform/context';
import { newId } from '../../platform/tokens';
import type { CloudService } from '../service';
import { fetchIcon } from './fetch';
import { checkSvg, sized } from './svg';

const iconsOps = cloudOperations.icons;
const ICON_ID = /^[0-9a-f]{24}$/;

/**
 * The icon service (`/icons`): signed-in callers store SVG icons, given inline or fetched from an address, after
 * a strict check; anyone reads them back at the size they ask for. Icons never change, so they are cached hard.
 */
export const iconsService: CloudService = {
  name: 'icons',
  create: (context) => ({
    implementations: () => {
      const { db } = context.database;
      return implement<typeof iconsOps, CloudPrincipal>(iconsOps, {
        getIcon: async ({ params, query, reply }) => {
          const row = ICON_ID.test(params.iconId)
            ? await db.selectFrom('icons').select('svg').where('id', '=', params.iconId).executeTakeFirst()
            : undefined;
          if (!row) throw notFound('Icon', params.iconId);
          reply
            .header('cache-control', 'public, max-age=31536000, immutable')
            .header('x-content-type-options', 'nosniff')
            // Opened on its own, the SVG is a document: it may style itself and show embedded images, nothing more.
            .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; img-src data:")
            .type('image/svg+xml; charset=utf-8')
            .send(sized(row.svg, query.size ?? ICONS_LIMITS.defaultSize));
        },
        createIcon: async ({ query, body, principal }) => {
          const inline = body?.svg;
          if (inline !== undefined && query.url !== undefined)
            throw invalidParameter('svg', 'Give the icon either as svg in the body or as a url, not both.');
          if (inline === undefined && query.url === undefined)
            throw new HearthError('missing_parameter', 'Missing Parameter: svg');
          const source =
            inline ??
            (await fetchIcon(query.url as string, {
              maxBytes: ICONS_LIMITS.maxSvgBytes,
              timeoutMs: ICONS_LIMITS.fetchTimeoutMs,
              allowPrivate: context.config.iconsAllowPrivateUrls === true,
            }));
          const svg = checkSvg(source);
          const hash = createHash('sha256').update(svg).digest('hex');
          const inserted = await db
            .insertInto('icons')
            .values({ id: newId(), hash, svg, created_by: principal.userId })
            .onConflict((oc) => oc.column('hash').doNothing())
            .returning('id')
            .executeTakeFirst();
          const id =
            inserted?.id ?? (await db.selectFrom('icons').select('id').where('hash', '=', hash).executeTakeFirstOrThrow()).id;
          return { _id: id, id, url: `${context.config.publicUrl}/icons/icon/${id}` };
        },
      });
    },
  }),
};
