import type { AnyOperation } from '@hearth/contract';
import { cloudOperations, hubOperations } from '@hearth/contract';
import { type CompactTable, defaultMethod, defaultPath, methodNames, typeNames } from './compact';

type Groups = Record<string, Record<string, AnyOperation>>;

const invert = (codes: Record<string, string>) => Object.fromEntries(Object.entries(codes).map(([c, name]) => [name, c]));
const typeCodes = invert(typeNames);
const methodCodes = invert(methodNames);
const code = (type: unknown): string => typeCodes[String(type)] ?? String(type);

/** `name:type*` for each field of an object schema (`*` suffix = required, `s/n` = several types, no type = string). */
function fields(schema: unknown, path?: string): string | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  if (path !== undefined && derivable(schema, path)) return '+';
  const { properties = {}, required = [] } = schema as {
    properties?: Record<string, { type?: string | string[]; anyOf?: { type?: string }[] }>;
    required?: string[];
  };
  const list = Object.entries(properties).map(([name, property]) => {
    // As the derivation reads it: the listed type(s), the types of every branch of a union, or any type.
    const types =
      property.type ?? (property.anyOf?.every((s) => s.type !== undefined) ? property.anyOf.map((s) => s.type) : undefined);
    const list = types === undefined ? ['?'] : [types].flat().map(code);
    // Strings are the common case and go without a type; `?` marks a field of any type.
    const typeText = list.join('/') === 's' ? '' : `:${list.join('/')}`;
    return `${name}${typeText}${required.includes(name) ? '*' : ''}`;
  });
  return list.length ? list.join(',') : '.';
}

/** Path parameters that are exactly the path's `:name`s, each a required string: the expander rebuilds them. */
function derivable(schema: object, path: string): boolean {
  const { properties = {}, required = [] } = schema as { properties?: Record<string, { type?: unknown }>; required?: string[] };
  const names = [...path.matchAll(/:(\w+)/g)].map((m) => m[1]);
  const keys = Object.keys(properties);
  return (
    keys.length === names.length &&
    keys.every((key) => names.includes(key) && properties[key]?.type === 'string' && required.includes(key))
  );
}

function compactGroups(kind: 'h' | 'c', groups: Groups): string[] {
  const lines: string[] = [];
  for (const [key, group] of Object.entries(groups)) {
    const operations = Object.values(group);
    const owner = operations[0]?.owner;
    const name = owner?.kind === 'cloud' ? owner.service : owner?.manager;
    if (name !== key) throw new Error(`Group ${key} is served by ${name}: the compact table names groups by their owner`);
    lines.push(`#${kind} ${key}${owner?.kind === 'cloud' ? ` ${owner.base}` : ''}`);
    for (const [opKey, o] of Object.entries(group)) {
      if (opKey !== o.name) throw new Error(`Operation ${key}.${opKey} is named ${o.name}`);
      const params = fields(o.params, o.path);
      const line = [o.name];
      if (o.path !== defaultPath(o.name)) line.push(o.path || '~');
      if (o.method !== defaultMethod(o.name)) line.push(`@${methodCodes[o.method]}`);
      if (!o.auth) line.push('!');
      if (o.bodyRoot) line.push(`^${o.bodyRoot}`);
      if (o.timeoutMs) line.push(`t${o.timeoutMs}`);
      if (params !== (o.path.includes(':') ? '+' : undefined)) line.push(`p${params ?? ''}`);
      const query = fields(o.query);
      if (query !== undefined) line.push(`q${query}`);
      const body = fields(o.body);
      if (body !== undefined) line.push(`b${body}`);
      lines.push(line.join(' '));
    }
  }
  return lines;
}

/**
 * Every operation of the contract in the compact form the client expands at start. Browser bundles evaluate
 * this module at build time (scripts/bundle.mjs), so neither TypeBox nor the schemas reach them.
 */
export const compactTable: CompactTable = [...compactGroups('h', hubOperations), ...compactGroups('c', cloudOperations)].join(
  '\n',
);
