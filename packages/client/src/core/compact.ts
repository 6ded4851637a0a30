import type { AnyOperation, cloudOperations, hubOperations } from '@hearth/contract';

/** Groups of operations in compact form: per group, its owner then one line per operation. */
export interface CompactTable {
  hub: Record<string, string[]>;
  cloud: Record<string, string[]>;
}

export const typeCodes = { string: 's', number: 'n', integer: 'i', boolean: 'b', object: 'o', array: 'a', null: 'z' } as const;
const typeNames = Object.fromEntries(Object.entries(typeCodes).map(([name, c]) => [c, name]));

/** `-` = no schema, `.` = an object schema without fields, `+` = the path's parameters, else `name:type*,…`. */
function schema(text: string | undefined, path = '') {
  if (!text || text === '-') return undefined;
  if (text === '+') text = [...path.matchAll(/:(\w+)/g)].map((m) => `${m[1]}*`).join(',') || '.';
  const properties: Record<string, { type?: string[] }> = {};
  const required: string[] = [];
  if (text !== '.') {
    for (const field of text.split(',')) {
      const [name, types] = field.replace(/\*$/, '').split(':') as [string, string | undefined];
      properties[name] = types === '?' ? {} : { type: (types ?? 's').split('/').map((t) => typeNames[t] ?? t) };
      if (field.endsWith('*')) required.push(name);
    }
  }
  return { properties, required };
}

function expandGroups(kind: 'hub' | 'cloud', groups: Record<string, string[]>) {
  const result: Record<string, Record<string, AnyOperation>> = {};
  for (const [key, [head = '', ...lines]] of Object.entries(groups)) {
    const [name = key, base = ''] = head.split(' ');
    const owner = kind === 'hub' ? { kind, manager: name } : { kind, service: name, base };
    const group: Record<string, AnyOperation> = {};
    for (const line of lines) {
      const [opName = '', method, path, flags = '~', params, query, body] = line.split(' ');
      const bodyRoot = flags.replace(/^!/, '').replace('~', '');
      group[opName] = {
        name: opName,
        owner,
        method,
        path: path === '~' ? '' : path,
        auth: !flags.startsWith('!'),
        bodyRoot: bodyRoot || undefined,
        params: schema(params, path),
        query: schema(query),
        body: schema(body),
      } as unknown as AnyOperation;
    }
    result[key] = group;
  }
  return result;
}

/** Expands the compact table; typed as the contract's groups so derived methods keep their types. */
export function expandTable(table: CompactTable) {
  return {
    hub: expandGroups('hub', table.hub) as unknown as typeof hubOperations,
    cloud: expandGroups('cloud', table.cloud) as unknown as typeof cloudOperations,
  };
}
