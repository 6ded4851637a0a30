import { fullPath, hubOperations, listOperations, operationId } from '@hearth/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestHub, type TestHub } from './testing/hub';

let t: TestHub;
beforeAll(async () => {
  t = await startTestHub();
});
afterAll(() => t.stop());

it('serves every hub operation declared in the contract exactly once', () => {
  const operations = listOperations(hubOperations);
  expect(operations.length).toBeGreaterThan(0);
  const missing = operations
    .filter((operation) => !t.hub.app.hasRoute({ method: operation.method, url: fullPath(operation) }))
    .map(operationId);
  expect(missing).toEqual([]);
  const keys = operations.map((operation) => `${operation.method} ${fullPath(operation)}`);
  expect(keys.filter((key, index) => keys.indexOf(key) !== index)).toEqual([]);
});

it('names every operation by its group key', () => {
  for (const [manager, group] of Object.entries(hubOperations)) {
    for (const [key, operation] of Object.entries(group)) {
      expect(`${manager}.${key}`).toBe(`${manager}.${operation.name}`);
    }
  }
});
