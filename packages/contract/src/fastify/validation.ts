import { HearthError } from '../errors';
import { UUID_PATTERN } from '../hub/options';

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
