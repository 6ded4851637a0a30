import type { AnyOperation } from '@hearth/contract';
import { expandTable } from './compact';
import { compactTable } from './table';

type Groups = Record<string, Record<string, AnyOperation>>;

/** Every operation the client knows, by kind and group: derived from the contract, never written by hand. */
export const operationTable = expandTable(compactTable);

/**
 * Finds a declared operation by group and name. Paths are never written in the client: when the contract
 * does not (yet) declare an operation the library needs, this says so plainly.
 */
export function findOperation(kind: 'hub' | 'cloud', group: string, name: string): AnyOperation {
  const groups: Groups = kind === 'hub' ? operationTable.hub : operationTable.cloud;
  const operation = groups[group]?.[name];
  if (!operation) throw new Error(`The contract declares no ${kind} operation ${group}.${name}`);
  return operation;
}
