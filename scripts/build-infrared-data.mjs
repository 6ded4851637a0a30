#!/usr/bin/env node
// Makes the cloud's infrared data file from the prepared open dataset (devices.csv, codes.csv.gz; see its
// SOURCE.md): `node scripts/build-infrared-data.mjs [DATASET_DIR]` (default ../shared/infrared beside the checkout).
// Writes packages/cloud/src/services/infrared/infrared-devices.ndjson (one device a line, its codes gzipped and base64
// inside, so the cloud loads it without unpacking 200 MB of air-conditioner captures) and copies LICENSES.md beside it (INFRARED-LICENSES.md).
import { copyFileSync, createReadStream, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { createGunzip, gzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dataset = process.argv[2] ?? join(root, '..', 'shared', 'infrared');
const out = join(root, 'packages', 'cloud', 'src', 'services', 'infrared');

/**
 * RFC 4180 CSV rows (quoted fields may hold commas, quotes and newlines).
 * @param {string} text
 * @returns {Generator<string[], void>}
 */
function* csvRows(text) {
  let field = '';
  /** @type {string[]} */
  let row = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n') {
      row.push(field);
      yield row;
      row = [];
      field = '';
    } else if (c !== '\r') field += c;
  }
  if (field !== '' || row.length > 0) yield [...row, field];
}

/**
 * @param {string} text
 * @returns {Record<string, string>[]}
 */
function records(text) {
  const rows = csvRows(text);
  const header = rows.next().value ?? [];
  return Array.from(rows, (row) => Object.fromEntries(header.map((name, i) => [name, row[i] ?? ''])));
}

/** The dataset's types as the contract names them. @type {Record<string, string>} */
const TYPES = {
  air_conditioner: 'airconditioning',
  set_top_box: 'settopbox',
  tv: 'tv',
  audio: 'audio',
  projector: 'projector',
  other: 'other',
};
/** @param {string} text */
const slug = (text) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
/** @param {string} text */
const numberOrNull = (text) => (text === '' ? null : Number(text));

const devices = records(readFileSync(join(dataset, 'devices.csv'), 'utf8'));

/** One CSV line's fields (codes.csv has no line breaks inside fields; only names with commas are quoted). */
/** @param {string} line @returns {string[]} */
const fieldsOf = (line) => (line.includes('"') ? (csvRows(line).next().value ?? []) : line.split(','));

// codes.csv is 200 MB unpacked: read a line at a time, a device's codes together (the file groups them).
/** @type {Map<string, unknown[][]>} */
const codesByDevice = new Map();
const lineReader = createInterface({
  input: createReadStream(join(dataset, 'codes.csv.gz')).pipe(createGunzip()),
  crlfDelay: Infinity,
});
/** @type {string[] | undefined} */
let header;
for await (const line of lineReader) {
  if (!line) continue;
  const fields = fieldsOf(line);
  if (!header) {
    header = fields;
    continue;
  }
  /** @type {Record<string, string>} */
  const code = Object.fromEntries(header.map((name, i) => [name, fields[i] ?? '']));
  const list = codesByDevice.get(code.device_key) ?? [];
  const name = code.functionname === code.key ? '' : code.functionname;
  const repeat = Number(code.repeat || 0);
  // A code with protocol numbers is kept as the numbers only: the cloud renders its Pronto from the protocol's timings.
  if (code.protocol) {
    list.push([code.key, name, repeat, code.protocol, Number(code.device), numberOrNull(code.subdevice), Number(code.function)]);
  } else list.push([code.key, name, repeat, code.pronto]);
  codesByDevice.set(code.device_key, list);
}

const ids = new Set();
const lines = devices.map((device) => {
  let id = slug(device.device_key).slice(0, 64).replace(/-$/, '');
  for (let n = 2; ids.has(id); n++) id = `${slug(device.device_key).slice(0, 60)}-${n}`;
  ids.add(id);
  const codes = codesByDevice.get(device.device_key) ?? [];
  if (codes.length !== Number(device.codes))
    throw new Error(`${device.device_key}: ${codes.length} codes, devices.csv says ${device.codes}`);
  const packed = gzipSync(JSON.stringify(codes), { level: 9 }).toString('base64');
  codesByDevice.delete(device.device_key);
  return JSON.stringify({
    id,
    key: device.device_key,
    brand: { id: slug(device.brand), name: device.brand },
    type: TYPES[device.type],
    category: device.category,
    name: device.model === 'Unknown' ? '' : device.model,
    licence: device.licence,
    source: { repositories: device.source_repo.split(';'), commits: device.source_commit.split(';'), path: device.source_path },
    meta: JSON.parse(device.meta || '{}'),
    codes: packed,
  });
});
writeFileSync(join(out, 'infrared-devices.ndjson'), `${lines.join('\n')}\n`);
copyFileSync(join(dataset, 'LICENSES.md'), join(out, 'INFRARED-LICENSES.md'));
console.log(`${lines.length} devices written to ${join(out, 'infrared-devices.ndjson')}`);
