/**
 * The small part of Home Assistant's Jinja value templates that discovery payloads use in practice: a path into
 * `value_json` (`value_json.POWER`, `value_json['AM2301'].Temperature`, `value_json.aenergy.total`), or `value`,
 * optionally scaled (`/ 1000`, `* 10`), passed through `float`/`int`/`round(n)`/`lower`/`upper`, or chosen by a
 * conditional (`'ON' if value_json.output else 'OFF'`). Hearth does not run Jinja: a template outside this part
 * is reported as unsupported, and the entity's value is then not read from it.
 */

/** `missing`: the payload lacks what the template reads (a JSON light's state without `color`), which is no fault. */
export type TemplateResult = { ok: true; value: unknown } | { ok: false; problem: string; missing: boolean };

class MissingValue extends Error {}

const LITERAL = /^(?:'([^']*)'|"([^"]*)"|(-?\d+(?:\.\d+)?)|(true|false|True|False|none|None))$/;

/** Evaluates a template against the message's payload (text, and its JSON when it parses). */
export function renderTemplate(template: string | undefined, payload: string): TemplateResult {
  if (template === undefined) return { ok: true, value: payload };
  const body = /^\s*\{\{(.*)\}\}\s*$/s.exec(template);
  if (!body?.[1]) return { ok: false, problem: `unsupported template ${JSON.stringify(template)}`, missing: false };
  let json: unknown;
  let parsed = false;
  const valueJson = () => {
    if (!parsed) {
      parsed = true;
      try {
        json = JSON.parse(payload);
      } catch {
        json = undefined;
      }
    }
    return json;
  };
  try {
    return { ok: true, value: expression(body[1].trim(), payload, valueJson) };
  } catch (error) {
    return { ok: false, problem: error instanceof Error ? error.message : String(error), missing: error instanceof MissingValue };
  }
}

function expression(source: string, payload: string, valueJson: () => unknown): unknown {
  const conditional = /^(.+?)\s+if\s+(.+?)\s+else\s+(.+)$/s.exec(source);
  if (conditional) {
    const [, whenTrue = '', condition = '', whenFalse = ''] = conditional;
    return truthy(comparison(condition.trim(), payload, valueJson))
      ? expression(whenTrue.trim(), payload, valueJson)
      : expression(whenFalse.trim(), payload, valueJson);
  }
  const [head = '', ...filters] = source.split('|').map((part) => part.trim());
  let value = arithmetic(head, payload, valueJson);
  for (const filter of filters) value = applyFilter(filter, value);
  return value;
}

function comparison(source: string, payload: string, valueJson: () => unknown): unknown {
  const match = /^(.+?)\s*(==|!=)\s*(.+)$/.exec(source);
  if (!match) return expression(source, payload, valueJson);
  const left = expression(match[1] ?? '', payload, valueJson);
  const right = expression(match[3] ?? '', payload, valueJson);
  // Jinja compares a number and its text unequal; devices' templates compare like with like.
  return match[2] === '==' ? left === right : left !== right;
}

function arithmetic(source: string, payload: string, valueJson: () => unknown): unknown {
  const scaled = /^(.+?)\s*([*/])\s*(-?\d+(?:\.\d+)?)$/.exec(source);
  if (!scaled) return operand(source, payload, valueJson);
  const base = toNumber(operand((scaled[1] ?? '').trim(), payload, valueJson));
  const by = Number(scaled[3]);
  return scaled[2] === '*' ? base * by : base / by;
}

function operand(source: string, payload: string, valueJson: () => unknown): unknown {
  const literal = LITERAL.exec(source);
  if (literal) {
    if (literal[1] !== undefined) return literal[1];
    if (literal[2] !== undefined) return literal[2];
    if (literal[3] !== undefined) return Number(literal[3]);
    const word = (literal[4] ?? '').toLowerCase();
    return word === 'none' ? null : word === 'true';
  }
  if (source === 'value') return payload;
  if (!source.startsWith('value_json')) throw new Error(`unsupported template expression ${JSON.stringify(source)}`);
  // The whole path is checked before it is followed, so an unsupported one never passes for a missing value.
  const keys: string[] = [];
  let rest = source.slice('value_json'.length);
  while (rest.length > 0) {
    const step = /^(?:\.([A-Za-z_][A-Za-z0-9_]*)|\[\s*'([^']*)'\s*\]|\[\s*"([^"]*)"\s*\]|\[\s*(\d+)\s*\])/.exec(rest);
    if (!step) throw new Error(`unsupported template expression ${JSON.stringify(source)}`);
    keys.push(step[1] ?? step[2] ?? step[3] ?? step[4] ?? '');
    rest = rest.slice(step[0].length);
  }
  let current = valueJson();
  if (current === undefined) throw new Error('the payload is not JSON');
  for (const key of keys) {
    current = typeof current === 'object' && current !== null ? (current as Record<string, unknown>)[key] : undefined;
    if (current === undefined) throw new MissingValue(`the payload has no ${key}`);
  }
  return current;
}

function applyFilter(filter: string, value: unknown): unknown {
  const call = /^([a-z_]+)(?:\((.*)\))?$/.exec(filter);
  switch (call?.[1]) {
    case 'float':
    case 'int': {
      const number = toNumber(value);
      return call[1] === 'int' ? Math.trunc(number) : number;
    }
    case 'round': {
      const digits = Number(call[2] || 0);
      const factor = 10 ** (Number.isInteger(digits) ? digits : 0);
      return Math.round(toNumber(value) * factor) / factor;
    }
    case 'lower':
      return String(value).toLowerCase();
    case 'upper':
      return String(value).toUpperCase();
    case 'string':
      return String(value);
    default:
      throw new Error(`unsupported template filter ${JSON.stringify(filter)}`);
  }
}

function toNumber(value: unknown): number {
  const number =
    typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  if (!Number.isFinite(number)) throw new Error(`${JSON.stringify(value)} is not a number`);
  return number;
}

function truthy(value: unknown): boolean {
  return !(value === false || value === null || value === undefined || value === 0 || value === '');
}
