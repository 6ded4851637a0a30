import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Compile } from 'typebox/compile';
import { type AppManifest, AppManifest as AppManifestSchema, PAIR_TEMPLATES } from './schema';

export * from './schema';

/** One problem of a manifest: the field (`drivers[0].class`) and what is wrong with it. */
export interface ManifestProblem {
  readonly field: string;
  readonly message: string;
}

/** A manifest the hub refuses; its message names the first field at fault. */
export class ManifestError extends Error {
  constructor(readonly problems: readonly ManifestProblem[]) {
    const [first] = problems;
    super(first ? `Invalid app manifest: ${first.field} ${first.message}` : 'Invalid app manifest');
    this.name = 'ManifestError';
  }
}

const validator = Compile(AppManifestSchema);

/** `/drivers/0/class` → `drivers[0].class`. */
function fieldOf(pointer: string, child?: string): string {
  const parts = pointer.split('/').slice(1);
  if (child) parts.push(child);
  let field = '';
  for (const part of parts) field += /^\d+$/.test(part) ? `[${part}]` : field ? `.${part}` : part;
  return field || '(manifest)';
}

/**
 * Checks a manifest (already merged from `.homeycompose`); with the app's folder, also that the files it
 * names exist (custom pair views). Answers every problem found, in document order; none means valid.
 */
export function checkAppManifest(candidate: unknown, dir?: string): ManifestProblem[] {
  if (typeof candidate !== 'object' || candidate === null || Array.isArray(candidate)) {
    return [{ field: '(manifest)', message: 'must be a JSON object' }];
  }
  if (!validator.Check(candidate)) {
    const problems = new Map<string, ManifestProblem>();
    const allowed = new Map<string, unknown[]>();
    for (const error of validator.Errors(candidate)) {
      if (error.keyword === 'required') {
        for (const name of (error.params as { requiredProperties: string[] }).requiredProperties) {
          const field = fieldOf(error.instancePath, name);
          if (!problems.has(field)) problems.set(field, { field, message: 'is required' });
        }
        continue;
      }
      const field = fieldOf(error.instancePath);
      if (error.keyword === 'const') {
        const values = allowed.get(field) ?? [];
        values.push((error.params as { allowedValue: unknown }).allowedValue);
        allowed.set(field, values);
        problems.set(field, { field, message: `must be ${values.map((v) => JSON.stringify(v)).join(' or ')}` });
        continue;
      }
      if (!problems.has(field)) problems.set(field, { field, message: error.message });
    }
    return [...problems.values()];
  }
  return checkReferences(candidate as AppManifest, dir);
}

/** What the schema cannot say: unique ids, references between sections, files the manifest names. */
function checkReferences(manifest: AppManifest, dir: string | undefined): ManifestProblem[] {
  const problems: ManifestProblem[] = [];
  if (manifest.runtime === 'python') problems.push({ field: 'runtime', message: 'must be "nodejs": this hub runs Node.js apps' });
  const drivers = manifest.drivers ?? [];
  const driverIds = new Set<string>();
  drivers.forEach((driver, index) => {
    if (driverIds.has(driver.id)) problems.push({ field: `drivers[${index}].id`, message: `repeats driver id ${driver.id}` });
    driverIds.add(driver.id);
    for (const list of ['pair', 'repair', 'unpair'] as const) {
      const views = driver[list] ?? [];
      const viewIds = new Set(views.map((v) => v.id));
      views.forEach((view, v) => {
        const field = `drivers[${index}].${list}[${v}]`;
        for (const target of [view.navigation?.prev, view.navigation?.next]) {
          if (target && !viewIds.has(target))
            problems.push({ field: `${field}.navigation`, message: `names view ${target}, which the driver does not have` });
        }
        if (view.template !== undefined && !PAIR_TEMPLATES.has(view.template)) {
          problems.push({ field: `${field}.template`, message: `must be one of ${[...PAIR_TEMPLATES].join(', ')}` });
        }
        if (view.template === undefined && dir && !existsSync(join(dir, 'drivers', driver.id, list, `${view.id}.html`))) {
          problems.push({
            field: `${field}.id`,
            message: `is a custom view without drivers/${driver.id}/${list}/${view.id}.html`,
          });
        }
      });
    }
  });
  for (const section of ['triggers', 'conditions', 'actions'] as const) {
    const cards = manifest.flow?.[section] ?? [];
    const seen = new Set<string>();
    cards.forEach((card, index) => {
      if (seen.has(card.id)) problems.push({ field: `flow.${section}[${index}].id`, message: `repeats card id ${card.id}` });
      seen.add(card.id);
      (card.args ?? []).forEach((arg, a) => {
        const match = arg.type === 'device' && typeof arg.filter === 'string' ? /driver_id=([^&]+)/.exec(arg.filter) : null;
        for (const id of match?.[1]?.split('|') ?? []) {
          if (!driverIds.has(id))
            problems.push({
              field: `flow.${section}[${index}].args[${a}].filter`,
              message: `names driver ${id}, which the app does not have`,
            });
        }
      });
    });
  }
  const routes = new Set<string>();
  for (const [name, route] of Object.entries(manifest.api ?? {})) {
    const key = `${route.method.toUpperCase()} ${route.path}`;
    if (routes.has(key)) problems.push({ field: `api.${name}`, message: `repeats the route ${key}` });
    routes.add(key);
  }
  return problems;
}

const readJson = (file: string, field: string): Record<string, unknown> => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ManifestError([{ field, message: `is not valid JSON (${(error as Error).message})` }]);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ManifestError([{ field, message: 'must be a JSON object' }]);
  }
  return parsed as Record<string, unknown>;
};

const jsonFiles = (folder: string): string[] =>
  existsSync(folder)
    ? readdirSync(folder)
        .filter((name) => name.endsWith('.json'))
        .sort()
    : [];

/**
 * Merges a `.homeycompose/` folder the way the ecosystem's tooling builds `app.json` from it:
 * `.homeycompose/app.json` is the base; `.homeycompose/capabilities/<id>.json` and
 * `.homeycompose/flow/{triggers,conditions,actions}/<id>.json` add custom capabilities and flow cards;
 * `drivers/<id>/driver.compose.json` adds each driver (its id is the folder name) and
 * `drivers/<id>/driver.flow.compose.json` its device cards, whose first argument is the device.
 */
export function composeManifest(dir: string): Record<string, unknown> {
  const compose = join(dir, '.homeycompose');
  const manifest = readJson(join(compose, 'app.json'), '.homeycompose/app.json');
  const capabilities = { ...((manifest.capabilities as Record<string, unknown>) ?? {}) };
  for (const file of jsonFiles(join(compose, 'capabilities'))) {
    capabilities[file.slice(0, -5)] = readJson(join(compose, 'capabilities', file), `.homeycompose/capabilities/${file}`);
  }
  if (Object.keys(capabilities).length > 0) manifest.capabilities = capabilities;
  const flow = { ...((manifest.flow as Record<string, unknown[]>) ?? {}) };
  for (const section of ['triggers', 'conditions', 'actions']) {
    for (const file of jsonFiles(join(compose, 'flow', section))) {
      const card = readJson(join(compose, 'flow', section, file), `.homeycompose/flow/${section}/${file}`);
      flow[section] = [...(flow[section] ?? []), { id: file.slice(0, -5), ...card }];
    }
  }
  const drivers = [...((manifest.drivers as Record<string, unknown>[]) ?? [])];
  const driversDir = join(dir, 'drivers');
  const driverIds = existsSync(driversDir)
    ? readdirSync(driversDir)
        .filter((name) => statSync(join(driversDir, name)).isDirectory())
        .sort()
    : [];
  for (const id of driverIds) {
    const driverFile = join(driversDir, id, 'driver.compose.json');
    if (existsSync(driverFile)) drivers.push({ ...readJson(driverFile, `drivers/${id}/driver.compose.json`), id });
    const flowFile = join(driversDir, id, 'driver.flow.compose.json');
    if (!existsSync(flowFile)) continue;
    const driverFlow = readJson(flowFile, `drivers/${id}/driver.flow.compose.json`);
    for (const section of ['triggers', 'conditions', 'actions']) {
      const cards = driverFlow[section];
      if (!Array.isArray(cards)) continue;
      for (const card of cards as Record<string, unknown>[]) {
        const deviceArg = { type: 'device', name: 'device', filter: `driver_id=${id}` };
        const args = Array.isArray(card.args) ? card.args : [];
        flow[section] = [...(flow[section] ?? []), { ...card, args: [deviceArg, ...args] }];
      }
    }
  }
  if (drivers.length > 0) manifest.drivers = drivers;
  if (Object.keys(flow).length > 0) manifest.flow = flow;
  return manifest;
}

/** An app folder read for installing: its checked manifest and its `env.json`. */
export interface LoadedApp {
  readonly dir: string;
  readonly manifest: AppManifest & Record<string, unknown>;
  readonly env: Record<string, string>;
}

/**
 * Reads an app's folder: `app.json`, or the `.homeycompose/` folder merged when there is one (it is the
 * source; app.json is generated from it), and `env.json`. Throws a {@link ManifestError} naming the field at
 * fault.
 */
export function loadApp(dir: string): LoadedApp {
  const composed = existsSync(join(dir, '.homeycompose', 'app.json'));
  if (!composed && !existsSync(join(dir, 'app.json'))) throw new ManifestError([{ field: 'app.json', message: 'is missing' }]);
  const manifest = composed ? composeManifest(dir) : readJson(join(dir, 'app.json'), 'app.json');
  const problems = checkAppManifest(manifest, dir);
  if (problems.length > 0) throw new ManifestError(problems);
  const env: Record<string, string> = {};
  if (existsSync(join(dir, 'env.json'))) {
    for (const [key, value] of Object.entries(readJson(join(dir, 'env.json'), 'env.json'))) {
      if (typeof value !== 'string') throw new ManifestError([{ field: `env.json.${key}`, message: 'must be a string' }]);
      env[key] = value;
    }
  }
  return { dir, manifest: manifest as LoadedApp['manifest'], env };
}
