import type { SetupCommandBody } from '@hearth/contract';
import { hubModels } from '../../config';
import type { HubContext } from '../../platform/context';
import { hubName } from '../system';

/** A command's answer as the app reads it: `[error, result]`, the error `null` on success. */
type Answer = [error: { code: string; message: string } | null, result?: unknown];

/**
 * The commands the app may send a hub through its setup session, by `manager.command`. Few on purpose: the session
 * is the app's only way in before the hub has an owner, so it reaches what setting up needs and nothing else.
 */
const COMMANDS: Record<string, (context: HubContext, args: Record<string, unknown>) => unknown> = {
  'system.getInfo': (context) => ({
    id: context.config.id,
    name: hubName(context),
    model: context.config.model,
    platform: hubModels[context.config.model].platform,
    softwareVersion: context.config.softwareVersion,
    language: context.config.language,
    owned: context.users.owner()?.athomId != null,
  }),
  'system.ping': () => 'pong',
};

/** Runs one command of the app; a command the hub does not know, or one that throws, answers its error. */
export async function runSetupCommand(context: HubContext, command: SetupCommandBody): Promise<Answer> {
  const run = COMMANDS[`${command.manager}.${command.command}`];
  if (!run) return [{ code: 'not_found', message: `Unknown setup command: ${command.manager}.${command.command}` }];
  try {
    return [null, (await run(context, command.args)) ?? null];
  } catch (error) {
    return [{ code: 'command_failed', message: (error as Error).message }];
  }
}
