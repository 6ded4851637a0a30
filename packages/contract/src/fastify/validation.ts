import type { FuncKeywordDefinition, SchemaValidateFunction } from 'ajv';
import type { FastifySchemaValidationError } from 'fastify';
import { HearthError } from '../errors';
import { UUID_PATTERN } from '../hub/options';
import { inputProblem, longerAsJsonThan, nestsDeeperThan } from '../limits';

/** The subset of an Ajv error object Fastify hands to its error handler. */
interface ValidationIssue {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
  /** The map key that broke a `propertyNames` rule (e.g. a card key that is not a uuid). */
  propertyName?: string;
}

const typeOf = (value: unknown): string => (Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value);

function valueAt(root: unknown, pointer: string): unknown {
  let current = root;
  for (const segment of pointer.split('/').slice(1)) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[segment.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return current;
}

const fieldName = (pointer: string): string =>
  pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');

/**
 * Turns the first schema violation into a coded error whose message names the field, in the wording the
 * ecosystem's clients use: `Missing Parameter: id`, `Invalid Parameter Type: name. Got: number. Expected: string`.
 */
export function validationError(issues: readonly ValidationIssue[], part: string, data: unknown): HearthError {
  const issue = issues[0];
  if (!issue) return new HearthError('invalid_parameter', `Invalid ${part}`);
  const path = fieldName(issue.instancePath);
  if (issue.propertyName !== undefined) {
    const key = path ? `${path}.${issue.propertyName}` : issue.propertyName;
    const rule = issue.params.pattern === UUID_PATTERN ? 'Keys must be uuids' : 'Not an allowed key';
    return new HearthError('invalid_parameter', `Invalid Parameter: ${key}. ${rule}`);
  }
  switch (issue.keyword) {
    case 'required': {
      const missing = String(issue.params.missingProperty ?? '');
      return new HearthError('missing_parameter', `Missing Parameter: ${path ? `${path}.${missing}` : missing}`);
    }
    case 'type': {
      const name = path || part;
      const got = typeOf(valueAt(data, issue.instancePath));
      return new HearthError(
        'invalid_parameter_type',
        `Invalid Parameter Type: ${name}. Got: ${got}. Expected: ${String(issue.params.type)}`,
      );
    }
    case 'additionalProperties':
      return new HearthError(
        'invalid_parameter',
        `Invalid Parameter: ${path ? `${path}.` : ''}${String(issue.params.additionalProperty)}. Unknown field`,
      );
    default:
      return new HearthError('invalid_parameter', `Invalid Parameter: ${path || part}. ${issue.message ?? 'Invalid value'}`);
  }
}

const checkDepth: SchemaValidateFunction = (limit: number, data: unknown) => {
  checkDepth.errors = [{ keyword: 'maxDepth', params: { limit }, message: `must not nest deeper than ${limit} levels` }];
  return !nestsDeeperThan(data, limit);
};

const checkJsonLength: SchemaValidateFunction = (limit: number, data: unknown) => {
  checkJsonLength.errors = [
    { keyword: 'maxJsonLength', params: { limit }, message: `must be at most ${limit} characters as JSON` },
  ];
  return !longerAsJsonThan(data, limit);
};

/**
 * The keywords that declare a free-form value's limits (`maxDepth`, `maxJsonLength`), for Ajv. Their checks stop
 * at the limit, so a value nested ten thousand levels costs no more than one nested a little too deep.
 */
export const freeFormKeywords: FuncKeywordDefinition[] = [
  { keyword: 'maxDepth', schemaType: 'number', errors: true, validate: checkDepth },
  { keyword: 'maxJsonLength', schemaType: 'number', errors: true, validate: checkJsonLength },
];

/** A compiled Ajv check, as Fastify calls it: `false` with the reasons in `errors`. */
interface Check {
  (data: unknown): boolean;
  errors?: FastifySchemaValidationError[] | null;
}

/** `validate` followed by the rules every input meets ({@link inputProblem}), reported like a schema violation. */
export function withInputRules(validate: Check): Check {
  const check: Check = (data) => {
    if (!validate(data)) {
      check.errors = validate.errors;
      return false;
    }
    const problem = inputProblem(data);
    check.errors = problem ? [{ ...problem, schemaPath: '#' }] : null;
    return problem === null;
  };
  return check;
}

/** A check compiled by `compile` when it first runs, reporting its reasons as the compiled one does. */
export function lazyCheck(compile: () => Check): Check {
  let compiled: Check | null = null;
  const check: Check = (data) => {
    compiled ??= compile();
    const valid = compiled(data);
    check.errors = compiled.errors ?? null;
    return valid;
  };
  return check;
}
