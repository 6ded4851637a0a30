import { cloudOperations, HearthError, notFound, type SharedFlowBody } from '@hearth/contract';
import { CloudCallError } from '../../cloudlink/client';
import type { HubContext } from '../../platform/context';

const PLACEHOLDER = /\{\{[a-z]+:[0-9]+\}\}/g;

/** Calls the cloud's flow-sharing service, turning its refusals into the hub's answers. */
async function viaCloud<T>(context: HubContext, call: () => Promise<T>, missing?: string): Promise<T> {
  if (!context.cloud.url)
    throw new HearthError('unavailable', 'Sharing flows needs the cloud, and this hub has no cloud configured');
  try {
    return await call();
  } catch (error) {
    if (error instanceof CloudCallError && error.status === 404 && missing) throw notFound('Shared flow', missing);
    if (error instanceof CloudCallError && error.status === 400)
      throw new HearthError('invalid_parameter', 'The cloud refused the flow as it is');
    throw new HearthError('unavailable', "The cloud's flow-sharing service could not be reached");
  }
}

/** Shares a flow (as stored, without its id, folder, order and state) through the cloud. */
export function shareThroughCloud(context: HubContext, flow: Record<string, unknown>): Promise<SharedFlowBody> {
  const { id: _id, folder: _folder, order: _order, enabled: _enabled, ...data } = flow;
  return viaCloud(context, () =>
    context.cloud.call(cloudOperations.flow.shareFlow, { data: data as never }, { timeoutMs: 10_000 }),
  );
}

/**
 * A shared flow from the cloud with its placeholders replaced as `map` says, and the placeholders left open.
 * Placeholders are whole tokens (`{{device:1}}`) that nothing else in a flow looks like, so they are replaced
 * wherever they stand: owner uris, arguments, token references.
 */
export async function sharedFlowFor(
  context: HubContext,
  id: string,
  map: Readonly<Record<string, string>>,
): Promise<{ shared: SharedFlowBody; flow: Record<string, unknown>; unmapped: string[] }> {
  const shared = await viaCloud(context, () => context.cloud.call(cloudOperations.flow.getFlow, { flowId: id }), id);
  const unmapped = new Set<string>();
  const text = JSON.stringify(shared.flow).replace(PLACEHOLDER, (placeholder) => {
    const local = map[placeholder];
    if (local === undefined) {
      unmapped.add(placeholder);
      return placeholder;
    }
    // Inside a JSON string: the replacement is escaped as one.
    return JSON.stringify(local).slice(1, -1);
  });
  return { shared, flow: JSON.parse(text) as Record<string, unknown>, unmapped: [...unmapped] };
}
