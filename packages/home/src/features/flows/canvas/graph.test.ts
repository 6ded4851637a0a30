import type { AdvancedFlowNode } from '@hearth/contract';
import { describe, expect, it } from 'vitest';
import { advancedRefusalTarget, canConnect, fromCards, type GraphNode, toCards, uuid } from './graph';

const cards: Record<string, AdvancedFlowNode> = {
  s: { type: 'start', x: 0, y: 0, outputSuccess: ['a', 'c'] },
  a: {
    type: 'action',
    x: 10,
    y: 0,
    ownerUri: 'homey:device:d',
    id: 'onoff_set',
    args: { value: true },
    outputSuccess: ['all'],
    outputError: ['n'],
  },
  c: {
    type: 'condition',
    x: 20,
    y: 0,
    ownerUri: 'homey:manager:cron',
    id: 'is_weekend',
    outputTrue: ['all'],
    outputFalse: ['gone'],
  },
  all: { type: 'all', x: 30, y: 0, input: ['a::outputSuccess', 'c::outputTrue'], outputSuccess: [] },
  n: { type: 'note', x: 40, y: 0, value: 'hi', color: 'yellow', width: null, height: null } as AdvancedFlowNode,
};

describe('the canvas’s graph', () => {
  it('reads edges from their source nodes and writes them back there, with an all node’s inputs', () => {
    const { nodes, edges } = fromCards(cards);
    expect(nodes.map((node) => node.key)).toEqual(['s', 'a', 'c', 'all', 'n']);
    // The edge to a node that does not exist is dropped.
    expect(edges).toHaveLength(5);
    expect(edges).toContainEqual({ source: 'c', port: 'outputTrue', target: 'all' });
    const written = toCards(nodes, edges);
    expect(written.s?.outputSuccess).toEqual(['a', 'c']);
    expect(written.a).toMatchObject({ outputSuccess: ['all'], outputError: ['n'], args: { value: true } });
    expect(written.c).toMatchObject({ outputTrue: ['all'], outputFalse: [] });
    expect(written.all?.input).toEqual(['a::outputSuccess', 'c::outputTrue']);
    expect(written.n).toMatchObject({ value: 'hi', color: 'yellow' } as object);
    expect(written.n?.outputSuccess).toBeUndefined();
  });

  it('connects only from a port the source has, to a node that takes input, once', () => {
    const { nodes, edges } = fromCards(cards);
    const ok = (source: string, port: 'outputSuccess' | 'outputTrue', target: string, list = edges) =>
      canConnect(nodes as GraphNode[], list, { source, port, target });
    expect(ok('c', 'outputTrue', 'a')).toBe(true);
    expect(ok('c', 'outputSuccess', 'a')).toBe(false);
    expect(ok('a', 'outputSuccess', 's')).toBe(false);
    expect(ok('a', 'outputSuccess', 'a')).toBe(false);
    expect(ok('s', 'outputSuccess', 'a')).toBe(false);
    expect(ok('s', 'outputSuccess', 'a', [])).toBe(true);
  });

  it('makes version 4 uuids and finds the node a refusal names', () => {
    expect(uuid()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const key = '0f8fad5b-d9cb-469f-a165-70867728950e';
    expect(advancedRefusalTarget(`Invalid Parameter Type: cards.${key}.args.delay.number. Got: number`)).toEqual({
      node: key,
      field: 'arg.delay',
      reason: 'Got: number',
    });
    expect(advancedRefusalTarget('Invalid Parameter: name. must NOT have fewer than 1 characters')?.field).toBe('name');
    expect(advancedRefusalTarget('Not Found')).toBeNull();
  });
});
