import multipart from '@fastify/multipart';
import { cloudOperations, HearthError, notFound } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { FastifyInstance } from 'fastify';
import { requireSelf } from '../../platform/auth';
import type { CloudContext, CloudPrincipal } from '../../platform/context';
import { pick } from '../../platform/pick';
import { userRow } from './directory';
import { avatarRecord } from './records';

const avatarOps = pick(cloudOperations.cloud, ['uploadAvatar']);

export const AVATAR_MAX_BYTES = 5 * 1024 * 1024;

/** The image type of `data` judged by its first bytes (never by its name or declared type). */
export function sniffImage(data: Buffer): 'image/jpeg' | 'image/png' | 'image/gif' | null {
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  const head = data.subarray(0, 6).toString('latin1');
  if (head === 'GIF87a' || head === 'GIF89a') return 'image/gif';
  return null;
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
      const now = new Date();
      await db
        .insertInto('avatars')
        .values({ user_id: params.id, content_type: type, data, updated_at: now })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ content_type: type, data, updated_at: now }))
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
      if (request.params.size !== 'medium' && request.params.size !== 'large') throw notFound('Avatar size', request.params.size);
      const row = await db
        .selectFrom('avatars')
        .select(['content_type', 'data'])
        .where('user_id', '=', request.params.userId)
        .executeTakeFirst();
      if (!row) throw notFound('Avatar', request.params.userId);
      return reply
        .header('cache-control', 'public, max-age=86400')
        .header('x-content-type-options', 'nosniff')
        .type(row.content_type)
        .send(Buffer.from(row.data));
    },
  );
}
