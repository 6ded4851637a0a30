import multipart from '@fastify/multipart';
import { cloudOperations, HearthError, notFound } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { requireSelf } from '../../platform/auth';
import type { CloudContext, CloudPrincipal } from '../../platform/context';
import { pick } from '../../platform/pick';
import { userRow } from './directory';
import { avatarRecord } from './records';

const avatarOps = pick(cloudOperations.cloud, ['uploadAvatar']);

export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;
/** Larger images (in pixels) are refused before they are decoded: a small file may claim huge dimensions. */
export const AVATAR_MAX_PIXELS = 40_000_000;
/** The served sizes: square images of this many pixels a side. */
export const AVATAR_SIZES = { medium: 128, large: 512 } as const;
export type AvatarSize = keyof typeof AVATAR_SIZES;

type ImageType = 'image/jpeg' | 'image/png' | 'image/gif';

/** The image type of `data` judged by its first bytes (never by its name or declared type). */
export function sniffImage(data: Buffer): ImageType | null {
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  const head = data.subarray(0, 6).toString('latin1');
  if (head === 'GIF87a' || head === 'GIF89a') return 'image/gif';
  return null;
}

/**
 * `data` cut to a centred square of `side` pixels in its own format: turned upright by its EXIF orientation,
 * every metadata (EXIF, GPS, ICC comments) dropped, a GIF's animation kept. Throws a 400 for an image that
 * does not decode or is too large.
 */
export async function resizeAvatar(data: Buffer, type: ImageType, side: number): Promise<Buffer> {
  try {
    const image = sharp(data, { animated: type === 'image/gif', limitInputPixels: AVATAR_MAX_PIXELS })
      .autoOrient()
      .resize(side, side, { fit: 'cover', position: 'centre' });
    if (type === 'image/jpeg') return await image.jpeg({ quality: 85, mozjpeg: true }).toBuffer();
    if (type === 'image/png') return await image.png({ compressionLevel: 9 }).toBuffer();
    return await image.gif().toBuffer();
  } catch (error) {
    const message = (error as Error).message ?? '';
    if (message.includes('pixel limit'))
      throw new HearthError('invalid_parameter', 'Invalid Parameter: avatar. The image may be at most 40 megapixels');
    throw new HearthError('invalid_parameter', 'Invalid Parameter: avatar. The image could not be read');
  }
}

/** `POST /cloud/user/:id/avatar` (multipart field `avatar`) and the served images. */
export function avatarImplementations(context: CloudContext) {
  const { db } = context.database;
  return implement<typeof avatarOps, CloudPrincipal>(avatarOps, {
    uploadAvatar: async ({ params, principal, request }) => {
      requireSelf(principal, params.id);
      await userRow(db, params.id);
      if (!request.isMultipart())
        throw new HearthError('unsupported_media_type', 'Send the avatar as multipart/form-data, field avatar');
      let data: Buffer | null = null;
      try {
        for await (const part of request.parts({ limits: { fileSize: AVATAR_MAX_BYTES, files: 1, fields: 5 } })) {
          if (part.type === 'file') {
            if (part.fieldname !== 'avatar')
              throw new HearthError('invalid_parameter', `Invalid Parameter: ${part.fieldname}. The file field is avatar`);
            data = await part.toBuffer();
          }
        }
      } catch (error) {
        if (error instanceof HearthError) throw error;
        const code = (error as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE') throw new HearthError('payload_too_large', 'The avatar may be at most 5 MB');
        if (code === 'FST_FILES_LIMIT_REACHED')
          throw new HearthError('invalid_parameter', 'Invalid Parameter: avatar. Send one file');
        throw new HearthError('invalid_body', 'The multipart body could not be read');
      }
      if (!data || data.length === 0) throw new HearthError('missing_parameter', 'Missing Parameter: avatar');
      const type = sniffImage(data);
      if (!type)
        throw new HearthError('invalid_parameter', 'Invalid Parameter: avatar. Only jpg, png or gif images are accepted');
      const medium = await resizeAvatar(data, type, AVATAR_SIZES.medium);
      const large = await resizeAvatar(data, type, AVATAR_SIZES.large);
      const now = new Date(context.clock.now());
      const values = { content_type: type, data, medium, large, updated_at: now };
      await db
        .insertInto('avatars')
        .values({ user_id: params.id, ...values })
        .onConflict((oc) => oc.column('user_id').doUpdateSet(values))
        .execute();
      await db.updateTable('users').set({ avatar_type: type, updated_at: now }).where('id', '=', params.id).execute();
      return avatarRecord(context.config.publicUrl, { id: params.id, avatar_type: type, updated_at: now }) as {
        medium: string;
        large: string;
      };
    },
  });
}

export async function registerAvatarRoutes(app: FastifyInstance, context: CloudContext): Promise<void> {
  const { db } = context.database;
  await app.register(multipart, { limits: { fileSize: AVATAR_MAX_BYTES, files: 1 } });
  // Served without authentication so <img> elements can show them; ids are random 96-bit values.
  app.get<{ Params: { userId: string; size: string } }>(
    '/cloud/user/:userId/avatar/:size',
    { schema: { hide: true } },
    async (request, reply) => {
      const { size, userId } = request.params;
      if (size !== 'medium' && size !== 'large') throw notFound('Avatar size', size);
      const row = await db
        .selectFrom('avatars')
        .select(['content_type', size === 'medium' ? 'medium as data' : 'large as data'])
        .where('user_id', '=', userId)
        .executeTakeFirst();
      if (!row) throw notFound('Avatar', userId);
      return reply
        .header('cache-control', 'public, max-age=86400')
        .header('x-content-type-options', 'nosniff')
        .type(row.content_type)
        .send(Buffer.from(row.data));
    },
  );
}
