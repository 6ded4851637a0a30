import { type AnyOperation, cloudOperations, fullPath, hubOperations } from '@hearth/contract';
import { describe, expect, it } from 'vitest';
import { operationTable } from './operations';

type Groups = Record<string, Record<string, AnyOperation>>;

/** What the client checks of a schema: field names, required ones and their top-level types. */
function shape(schema: unknown) {
  if (!schema) return undefined;
  const { properties = {}, required = [] } = schema as {
    properties?: Record<string, { type?: string | string[]; anyOf?: { type?: string }[] }>;
    required?: string[];
  };
  return {
    required: [...required].sort(),
    fields: Object.fromEntries(
      Object.entries(properties).map(([name, p]) => [
        name,
        [p.type ?? (p.anyOf?.every((s) => s.type !== undefined) ? p.anyOf.map((s) => s.type) : [])].flat(),
      ]),
    ),
  };
}

describe('the compact operation table', () => {
  it('holds every operation of the contract with its path, method, auth, body root, timeout and argument shapes', () => {
    for (const [kind, groups] of [
      ['hub', hubOperations],
      ['cloud', cloudOperations],
    ] as const) {
      const expanded = operationTable[kind] as unknown as Groups;
      for (const [groupName, group] of Object.entries(groups as unknown as Groups)) {
        expect(Object.keys(expanded[groupName] ?? {})).toEqual(Object.keys(group));
        for (const [key, operation] of Object.entries(group)) {
          const copy = expanded[groupName]?.[key] as AnyOperation;
          expect({ id: `${kind}:${groupName}.${key}`, path: fullPath(copy), method: copy.method, auth: copy.auth }).toEqual({
            id: `${kind}:${groupName}.${key}`,
            path: fullPath(operation),
            method: operation.method,
            auth: operation.auth,
          });
          expect(copy.bodyRoot).toBe(operation.bodyRoot);
          expect(copy.timeoutMs).toBe(operation.timeoutMs);
          expect(shape(copy.params)).toEqual(shape(operation.params));
          expect(shape(copy.query)).toEqual(shape(operation.query));
          expect(shape(copy.body)).toEqual(shape(operation.body));
        }
      }
    }
  });
});
