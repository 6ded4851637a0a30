import type { AnyOperation } from '@hearth/contract';
import { cloudOperations, hubOperations } from '@hearth/contract';
import { type CompactTable, typeCodes } from './compact';

type Groups = Record<string, Record<string, AnyOperation>>;

const code = (type: unknown): string => typeCodes[type as keyof typeof typeCodes] ?? String(type);

/** `name:type*` for each field of an object schema (`*` suffix = required, `s/n` = several types, no type = string). */
function fields(schema: unknown, path?: string): string {
  if (!schema || typeof schema !== 'object') return '-';
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

function compactGroups(groups: Groups): Record<string, string[]> {
  const result: Record<string, string[]> = {};
  for (const [key, group] of Object.entries(groups)) {
    const operations = Object.values(group);
    const owner = operations[0]?.owner;
    const head = owner?.kind === 'cloud' ? `${owner.service} ${owner.base}` : (owner?.manager ?? key);
    result[key] = [
      head,
      ...operations.map((o) =>
        [
          o.name,
          o.method,
          o.path || '~',
          `${o.auth ? '' : '!'}${o.bodyRoot ?? ''}` || '~',
          fields(o.params, o.path),
          fields(o.query),
          fields(o.body),
        ].join(' '),
      ),
    ];
  }
  return result;
}

/**
 * Every operation of the contract in the compact form the client expands at start. Browser bundles evaluate
 * this module at build time (scripts/bundle.mjs), so neither TypeBox nor the schemas reach them.
 */
export const compactTable: CompactTable = {
  hub: compactGroups(hubOperations),
  cloud: compactGroups(cloudOperations),
};
