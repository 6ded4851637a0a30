import { type AnyOperation, hubOperations, listOperations } from '@hearth/contract';
import { type RawAnswer, type RawRequest, sendRawRequest } from '@hearth/contract/testing';
import type { TestHub } from './hub';

export {
  dummy,
  dummyArgs,
  fillPath,
  prepare,
  type RawAnswer,
  type RawRequest,
  requiredFields,
  type Schema,
} from '@hearth/contract/testing';

/** Every operation the hub declares, for tests that walk them all. */
export const hubOperationList = listOperations(hubOperations as unknown as Record<string, Record<string, AnyOperation>>);

/** Sends `request` to `operation`'s route on the test hub over real HTTP with `token` (`null`: none). */
export function sendRaw(
  t: TestHub,
  operation: AnyOperation,
  request: RawRequest,
  token: string | null,
  timeoutMs = 5000,
): Promise<RawAnswer> {
  const headers: Record<string, string> = { 'X-Homey-ID': t.hub.context.config.id };
  if (token) headers.authorization = `Bearer ${token}`;
  return sendRawRequest(t.hub.url, operation, request, headers, timeoutMs);
}
