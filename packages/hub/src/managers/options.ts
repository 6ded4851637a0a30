import { type AnyOperation, HearthError } from '@hearth/contract';
import type { Handler } from '@hearth/contract/fastify';
import type { HubContext, HubPrincipal } from '../platform/context';
import type { ManagersWithEvent } from '../platform/events';
import { transact } from '../store/database';

type OptionKey<G> = Extract<keyof G, `getOption${string}` | `setOption${string}` | `unsetOption${string}`>;

/** Handlers of the option operations of a group. */
export type OptionHandlers<G extends Record<string, AnyOperation>> = { [K in OptionKey<G>]: Handler<G[K], HubPrincipal> };

/** The settings key an option of a manager is stored under. */
export const optionKey = (manager: string, name: string): string => `${manager}.option.${name}`;

/** Reads an option of a manager: the stored value, or its default. */
export function readOption<T>(context: HubContext, manager: string, name: string, fallback: T): T {
  return context.settings.get<T>(optionKey(manager, name), fallback);
}

export interface OptionBehaviour {
  /** The value answered when the option was never set (or was unset). */
  readonly default: unknown;
  /** Extra checks beyond the declared schema; throw a HearthError naming `value`. */
  readonly check?: (value: unknown) => void;
  /** Runs after the option changed (in the same transaction as the write). */
  readonly changed?: (value: unknown) => void;
}

/**
 * Serves every `/option/<name>` operation of `group`, storing values in the hub's settings under
 * `<manager>.option.<name>`. Each change publishes `option.update` `{id, value}` on the manager's URI.
 */
export function optionHandlers<G extends Record<string, AnyOperation>>(
  context: HubContext,
  manager: ManagersWithEvent<'option.update'>,
  group: G,
  behaviours: Record<string, OptionBehaviour>,
): OptionHandlers<G> {
  const handlers: Record<string, unknown> = {};
  for (const [key, operation] of Object.entries(group)) {
    const match = /^\/option\/([^/]+)$/.exec(operation.path);
    if (!match || !/^(get|set|unset)Option/.test(key)) continue;
    const name = match[1] as string;
    const behaviour = behaviours[name];
    if (!behaviour) throw new Error(`Option ${manager}.${name} has no default`);
    const storeKey = optionKey(manager, name);
    const read = () => ({ value: context.settings.get(storeKey, behaviour.default) });
    const readScope = group[`getOption${name.charAt(0).toUpperCase()}${name.slice(1)}`]?.scope ?? null;
    const publish = () => context.events.manager(manager, 'option.update', { id: name, ...read() }, readScope);
    if (operation.method === 'GET') handlers[key] = () => read();
    else if (operation.method === 'PUT')
      handlers[key] = ({ body }: { body: { value: unknown } }) => {
        if (body.value === undefined) throw new HearthError('missing_parameter', 'Missing Parameter: value');
        behaviour.check?.(body.value);
        transact(context.db, () => {
          context.settings.set(storeKey, body.value);
          behaviour.changed?.(body.value);
        });
        publish();
        return read();
      };
    else
      handlers[key] = () => {
        transact(context.db, () => {
          context.settings.delete(storeKey);
          behaviour.changed?.(behaviour.default);
        });
        publish();
        return undefined;
      };
  }
  return handlers as OptionHandlers<G>;
}

/** The current value of every option of a manager, for its `GET /state`. */
export function optionValues(context: HubContext, manager: string, behaviours: Record<string, OptionBehaviour>) {
  return Object.fromEntries(
    Object.entries(behaviours).map(([name, b]) => [name, context.settings.get(optionKey(manager, name), b.default)]),
  );
}
