import type { AnyOperation, cloudOperations, hubOperations } from '@hearth/contract';

/**
 * Every operation of the contract in one string, as the browser bundle carries it. One line per group header,
 * `#h <manager>` or `#c <service> <base>`, then one line per operation:
 * `<name> <path>` (`~` for the empty path; no path when it is the one the name suggests, see {@link defaultPath}),
 * then only what differs from the defaults, each tagged by its first
 * character: `@<M>` method (default from the name, see {@link defaultMethod}), `!` no authentication, `^<name>`
 * whole-body parameter, `t<ms>` a call timeout longer than the usual one, `p<fields>` path parameters (default: the path's `:name`s, each a required string),
 * `q<fields>` query, `b<fields>` body. Fields are `name:type*,…` (`*` = required, no type = string,
 * `s/n` = several types, `?` = any type), `.` an object without fields.
 */
export type CompactTable = string;

/** JSON types by their code in the table (browsers carry only this direction; table.ts inverts it). */
export const typeNames: Record<string, string> = {
  s: 'string',
  n: 'number',
  i: 'integer',
  b: 'boolean',
  o: 'object',
  a: 'array',
  z: 'null',
};
/** Methods by their code in the table. */
export const methodNames: Record<string, string> = { G: 'GET', P: 'POST', U: 'PUT', D: 'DELETE', A: 'PATCH' };

/** The method an operation's name suggests, left out of the table when it is the declared one. */
export const defaultMethod = (name: string): string =>
  /^get/.test(name) ? 'GET' : /^(delete|remove|unset)/.test(name) ? 'DELETE' : /^(update|set)/.test(name) ? 'PUT' : 'POST';

const lowerFirst = (text: string) => text[0]?.toLowerCase() + text.slice(1);

/**
 * The path an operation's name suggests, left out of the table when it is the declared one: `getZones` and
 * `createZone` /zone, `getZone`, `updateZone` and `deleteZone` /zone/:id, `setOptionUnits` /option/units.
 */
export function defaultPath(name: string): string | undefined {
  const option = /^(?:get|set|unset)Option(\w+)$/.exec(name);
  if (option) return `/option/${lowerFirst(option[1] as string)}`;
  const collection = /^get(\w+)s$/.exec(name) ?? /^create(\w+)$/.exec(name);
  if (collection) return `/${lowerFirst(collection[1] as string)}`;
  const item = /^(?:get|update|delete)(\w+)$/.exec(name);
  return item ? `/${lowerFirst(item[1] as string)}/:id` : undefined;
}

/** `.` = an object schema without fields, else `name:type*,…`; `+` = the path's parameters. */
function schema(text: string | undefined, path = '') {
  if (text === undefined) return undefined;
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

/** Expands the compact table; typed as the contract's groups so derived methods keep their types. */
export function expandTable(table: CompactTable) {
  const result: Record<'hub' | 'cloud', Record<string, Record<string, AnyOperation>>> = { hub: {}, cloud: {} };
  let group: Record<string, AnyOperation> = {};
  let owner: AnyOperation['owner'] = { kind: 'hub', manager: '' };
  for (const line of table.split('\n')) {
    let [head = '', path = '', ...rest] = line.split(' ');
    if (head === '#h' || head === '#c') {
      owner = head === '#h' ? { kind: 'hub', manager: path } : { kind: 'cloud', service: path, base: rest[0] ?? '' };
      group = {};
      result[owner.kind][path] = group;
      continue;
    }
    // No path token (a path starts with `/`, `~` is the empty one): the path the name suggests.
    if (path[0] !== '/' && path !== '~') [path, rest] = [defaultPath(head) ?? '', [path, ...rest]];
    const tagged = (tag: string) => rest.find((token) => token[0] === tag)?.slice(1);
    const method = tagged('@');
    group[head] = {
      name: head,
      owner,
      method: method ? methodNames[method] : defaultMethod(head),
      path: path === '~' ? '' : path,
      auth: !rest.includes('!'),
      bodyRoot: tagged('^'),
      params: schema(tagged('p') ?? (path.includes(':') ? '+' : undefined), path),
      query: schema(tagged('q')),
      body: schema(tagged('b')),
      ...(tagged('t') ? { timeoutMs: Number(tagged('t')) } : {}),
    } as unknown as AnyOperation;
  }
  return {
    hub: result.hub as unknown as typeof hubOperations,
    cloud: result.cloud as unknown as typeof cloudOperations,
  };
}
