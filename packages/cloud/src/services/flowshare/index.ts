import { cloudOperations, notFound, type SharedFlowBody } from '@hearth/contract';
import { addressKey, implement } from '@hearth/contract/fastify';
import type { CloudPrincipal } from '../../platform/context';
import { newId } from '../../platform/tokens';
import type { CloudService } from '../service';
import { shareable } from './placeholders';
import type { SharedFlowsTable } from './tables';

const flowOps = cloudOperations.flow;
/** A household shares a flow now and then; a script sharing hundreds is stopped. */
const PER_CALLER = { name: 'flow-share', quota: 60, windowSeconds: 3600 };

/** The flow-sharing service (`/flow`): flows shared by link, with the household's ids taken out. */
export const flowShareService: CloudService = {
  name: 'flow',
  create: (context) => ({
    implementations: () => {
      const { db } = context.database;
      const answer = (
        row: Pick<SharedFlowsTable, 'id' | 'type' | 'shared_by'> & {
          flow: unknown;
          cards: unknown;
          placeholders: unknown;
          created_at: Date;
        },
      ): SharedFlowBody => ({
        _id: row.id,
        id: row.id,
        type: row.type,
        flow: row.flow as Record<string, unknown>,
        cards: row.cards as SharedFlowBody['cards'],
        placeholders: row.placeholders as SharedFlowBody['placeholders'],
        url: `${context.config.publicUrl}/flow/flow/${row.id}`,
        createdAt: new Date(row.created_at).toISOString(),
      });
      return implement<typeof flowOps, CloudPrincipal>(flowOps, {
        shareFlow: async ({ body, principal, request }) => {
          await context.rateLimiter.count(request, PER_CALLER, principal.userId ?? addressKey(request.ip));
          const shared = shareable(body.data as Record<string, unknown>);
          const row = await db
            .insertInto('shared_flows')
            .values({
              id: newId(),
              type: shared.type,
              flow: JSON.stringify(shared.flow),
              cards: JSON.stringify(shared.cards),
              placeholders: JSON.stringify(shared.placeholders),
              shared_by: principal.userId,
            })
            .returningAll()
            .executeTakeFirstOrThrow();
          return answer(row);
        },
        getFlow: async ({ params }) => {
          const row = await db.selectFrom('shared_flows').selectAll().where('id', '=', params.flowId).executeTakeFirst();
          if (!row) throw notFound('Shared flow', params.flowId);
          return answer(row);
        },
      });
    },
  }),
};
