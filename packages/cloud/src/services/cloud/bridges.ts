import { createHash } from 'node:crypto';
import { cloudOperations, HearthError, notFound } from '@hearth/contract';
import { implement } from '@hearth/contract/fastify';
import type { CloudContext, CloudPrincipal } from '../../platform/context';
import { pick } from '../../platform/pick';
import { newId } from '../../platform/tokens';
import { hubFor, userRow } from './directory';
import { bridgeRecord } from './records';

const bridgeOps = pick(cloudOperations.cloud, ['getBridges', 'createBridge', 'getBridge', 'updateBridge', 'activateBridge']);

const serialHash = (serial: string) => createHash('sha256').update(serial).digest('hex');

/** The bridges registry: production registers them, owners activate them into a hub. */
export function bridgeImplementations(context: CloudContext) {
  const { db } = context.database;

  async function bridgeRow(serial: string) {
    const row = await db.selectFrom('bridges').selectAll().where('serial', '=', serial).executeTakeFirst();
    if (!row) throw notFound('Bridge', serial);
    return row;
  }

  return implement<typeof bridgeOps, CloudPrincipal>(bridgeOps, {
    getBridges: async ({ query }) => {
      let q = db.selectFrom('bridges').selectAll();
      if (query.serial) q = q.where('serial', '=', query.serial);
      const rows = await q.orderBy('created_at').limit(500).execute();
      return rows.filter((r) => !query.serialHash || serialHash(r.serial) === query.serialHash).map(bridgeRecord);
    },

    createBridge: async ({ body }) => {
      const input = body.bridge;
      if (await db.selectFrom('bridges').select('serial').where('serial', '=', input.serial).executeTakeFirst())
        throw new HearthError('conflict', `Bridge ${input.serial} already exists`);
      const row = await db
        .insertInto('bridges')
        .values({
          serial: input.serial,
          id: newId(),
          model: input.model,
          build: input.build ?? 0,
          zwave_calibration: JSON.stringify(input.zwaveCalibration ?? []),
          manufactured_at: input.manufacturedAt ?? null,
          activation_history: '[]',
          updated_at: new Date(context.clock.now()),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return bridgeRecord(row);
    },

    getBridge: async ({ params, principal }) => {
      const row = await db.selectFrom('bridges').selectAll().where('serial', '=', params.serial).executeTakeFirst();
      // Owners see their own bridges; anyone else learns nothing, not even that the serial exists.
      if (!row || (!principal.internal && (principal.userId === null || row.owner_user_id !== principal.userId)))
        throw notFound('Bridge', params.serial);
      return bridgeRecord(row);
    },

    updateBridge: async ({ params, body }) => {
      await bridgeRow(params.serial);
      const input = body.bridge;
      const row = await db
        .updateTable('bridges')
        .set({
          ...(input.model !== undefined ? { model: input.model } : {}),
          ...(input.build !== undefined ? { build: input.build } : {}),
          ...(input.zwaveCalibration !== undefined ? { zwave_calibration: JSON.stringify(input.zwaveCalibration) } : {}),
          ...(input.manufacturedAt !== undefined ? { manufactured_at: input.manufacturedAt } : {}),
          updated_at: new Date(context.clock.now()),
        })
        .where('serial', '=', params.serial)
        .returningAll()
        .executeTakeFirstOrThrow();
      return bridgeRecord(row);
    },

    activateBridge: async ({ params, body, principal }) => {
      const bridge = await db.selectFrom('bridges').selectAll().where('serial', '=', params.serial).executeTakeFirst();
      if (!bridge) throw notFound('Bridge', params.serial);
      const hub = await hubFor(db, principal, body.homeyId, 'manage');
      let userId: string | null;
      if (principal.internal) {
        userId = body.userId ?? hub.owner_user_id;
        if (userId) await userRow(db, userId);
      } else {
        userId = principal.userId;
        if (body.userId && body.userId !== userId)
          throw new HearthError('forbidden', 'You may only activate a bridge for yourself');
        if (bridge.owner_user_id && bridge.owner_user_id !== userId)
          throw new HearthError('conflict', 'This bridge belongs to someone else');
      }
      const history = [
        ...bridge.activation_history,
        { homeyId: hub.id, userId, activatedAt: new Date(context.clock.now()).toISOString() },
      ];
      const row = await db
        .updateTable('bridges')
        .set({
          hub_id: hub.id,
          owner_user_id: userId,
          activation_history: JSON.stringify(history),
          updated_at: new Date(context.clock.now()),
        })
        .where('serial', '=', params.serial)
        .returningAll()
        .executeTakeFirstOrThrow();
      return bridgeRecord(row);
    },
  });
}
