import { describe, expect, it } from 'vitest';
import { cloudOperations } from './cloud/index';
import { hubOperations } from './hub/index';
import { listOperations } from './list';
import { type AnyOperation, operationId } from './operation';

const all = [
  ...listOperations(hubOperations as unknown as Record<string, Record<string, AnyOperation>>),
  ...listOperations(cloudOperations as unknown as Record<string, Record<string, AnyOperation>>),
];

/** Letters only, lower case: `getDevices` and "Get devices." compare equal. */
const letters = (text: string) => text.toLowerCase().replace(/[^a-z]/g, '');

/**
 * The API reference shows each operation's summary as its headline; without one it repeats the name, which tells
 * a reader nothing the path does not. Every declared operation says in a sentence what it does and answers.
 */
describe('operation summaries', () => {
  it('walks every declared hub and cloud operation', () => {
    expect(all.length).toBeGreaterThan(500);
  });

  it('gives every operation a summary of its own, not its name again', () => {
    const weak = all
      .filter((operation) => {
        const summary = operation.summary.trim();
        return summary === '' || letters(summary) === letters(operation.name) || summary.split(/\s+/).length < 3;
      })
      .map(operationId);
    expect(weak).toEqual([]);
  });
});
