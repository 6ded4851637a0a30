import type { InfraredDeviceBody, InfraredTypeValue } from '@hearth/contract';
import type { Selectable } from 'kysely';
import type { CloudContext } from '../../platform/context';
import { indexKeysOf, keysOf, matchScore, wordsOf } from '../apps/search';
import { codesOf, DATA_FILE, displayName, readDataFile, sourceOf, summaryOfCodes, unpackCodes } from './dataset';
import type { InfraredDevicesTable } from './tables';

type DeviceRow = Selectable<InfraredDevicesTable> & { brand_name: string };

export const toSummary = (row: Pick<DeviceRow, 'id' | 'name' | 'brand_id' | 'brand_name' | 'type' | 'protocol'>) => ({
  id: row.id,
  name: row.name,
  brand: { id: row.brand_id, name: row.brand_name },
  type: row.type as InfraredTypeValue,
  protocol: row.protocol,
});

/** A device with its codes, each in Pronto hex. */
export function toDevice(row: DeviceRow): InfraredDeviceBody {
  return {
    ...toSummary(row),
    device: row.device,
    subdevice: row.subdevice,
    codes: codesOf(unpackCodes(row.codes)),
    source: row.source as InfraredDeviceBody['source'],
  };
}

/** Rows inserted per statement while loading (the search keys are many: every word's deletions and prefixes). */
const BATCH = 2000;

/** The infrared database's rows: the data file loaded at start, and the reads the routes make. */
export function infraredStore(context: CloudContext, dataFile = DATA_FILE) {
  const { db } = context.database;
  const devices = () =>
    db
      .selectFrom('infrared_devices as d')
      .innerJoin('infrared_brands as b', 'b.id', 'd.brand_id')
      .select(['d.id', 'd.name', 'd.brand_id', 'd.type', 'd.protocol', 'b.name as brand_name']);

  return {
    /**
     * Loads the data file unless its version is there already: rows of other versions go, its rows are added
     * (rows there already are kept), so every node of the cloud may load it at start.
     */
    async load() {
      const { version, devices: fileDevices } = readDataFile(dataFile);
      const loaded = await db
        .selectFrom('infrared_devices')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('dataset', '=', version)
        .executeTakeFirstOrThrow();
      if (Number(loaded.n) === fileDevices.length) return;
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('infrared_devices').where('dataset', '<>', version).execute();
        const brands = new Map(fileDevices.map((device) => [device.brand.id, device.brand.name]));
        await trx
          .insertInto('infrared_brands')
          .values([...brands].map(([id, name]) => ({ id, name })))
          .onConflict((oc) => oc.column('id').doUpdateSet((eb) => ({ name: eb.ref('excluded.name') })))
          .execute();
        const rows = fileDevices.map((device) => {
          const codes = Buffer.from(device.codes, 'base64');
          return {
            id: device.id,
            brand_id: device.brand.id,
            type: device.type,
            name: displayName(device),
            ...summaryOfCodes(unpackCodes(codes)),
            codes,
            source: JSON.stringify(sourceOf(device)),
            dataset: version,
          };
        });
        const added = new Set<string>();
        for (let i = 0; i < rows.length; i += 100) {
          const inserted = await trx
            .insertInto('infrared_devices')
            .values(rows.slice(i, i + 100))
            .onConflict((oc) => oc.column('id').doNothing())
            .returning('id')
            .execute();
          for (const row of inserted) added.add(row.id);
        }
        const keys = fileDevices
          .filter((device) => added.has(device.id))
          .flatMap((device) => {
            const words = new Set([...wordsOf(device.brand.name), ...wordsOf(displayName(device)), ...wordsOf(device.category)]);
            return [...words].flatMap((word) => indexKeysOf(word).map(({ key }) => ({ device_id: device.id, key, word })));
          });
        for (let i = 0; i < keys.length; i += BATCH) {
          await trx
            .insertInto('infrared_search')
            .values(keys.slice(i, i + BATCH))
            .onConflict((oc) => oc.doNothing())
            .execute();
        }
        await trx
          .deleteFrom('infrared_brands')
          .where('id', 'not in', [...brands.keys()])
          .execute();
      });
    },

    async brands(type: InfraredTypeValue | undefined) {
      let query = db
        .selectFrom('infrared_brands as b')
        .innerJoin('infrared_devices as d', 'd.brand_id', 'b.id')
        .select(['b.id', 'b.name', 'd.type'])
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .groupBy(['b.id', 'b.name', 'd.type'])
        .orderBy('b.name');
      if (type) query = query.where('d.type', '=', type);
      const brands = new Map<string, { id: string; name: string; types: InfraredTypeValue[]; devices: number }>();
      for (const row of await query.execute()) {
        const brand = brands.get(row.id) ?? { id: row.id, name: row.name, types: [], devices: 0 };
        brand.types.push(row.type as InfraredTypeValue);
        brand.devices += Number(row.n);
        brands.set(row.id, brand);
      }
      return [...brands.values()];
    },

    async types(brand: string | undefined) {
      let query = db
        .selectFrom('infrared_devices')
        .select('type')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .groupBy('type')
        .orderBy('type');
      if (brand) query = query.where('brand_id', '=', brand);
      return (await query.execute()).map((row) => ({ id: row.type as InfraredTypeValue, devices: Number(row.n) }));
    },

    async list(filter: { name?: string | undefined; type?: InfraredTypeValue | undefined; brand?: string | undefined }) {
      let query = devices().orderBy('b.name').orderBy('d.name');
      if (filter.type) query = query.where('d.type', '=', filter.type);
      if (filter.brand) query = query.where('d.brand_id', '=', filter.brand);
      if (filter.name) {
        const pattern = `%${filter.name.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
        query = query.where((eb) => eb(eb.fn('lower', ['d.name']), 'like', pattern));
      }
      return (await query.execute()).map(toSummary);
    },

    /** Devices matching every word of `text` (their brand's and their own words), best first. */
    async search(text: string) {
      const queryWords = wordsOf(text);
      if (queryWords.length === 0) return [];
      const keys = [...new Set(queryWords.flatMap((word) => keysOf(word).map(({ key }) => key)))];
      const hits = await db.selectFrom('infrared_search').select(['device_id', 'word']).where('key', 'in', keys).execute();
      const scores = new Map<string, number[]>();
      for (const hit of hits) {
        const best = scores.get(hit.device_id) ?? queryWords.map(() => 0);
        queryWords.forEach((word, i) => {
          best[i] = Math.max(best[i] as number, matchScore(word, hit.word));
        });
        scores.set(hit.device_id, best);
      }
      const ranked = [...scores]
        .filter(([, best]) => best.every((score) => score > 0))
        .map(([id, best]) => ({ id, score: best.reduce((sum, s) => sum + s, 0) }));
      if (ranked.length === 0) return [];
      const rows = await devices()
        .where(
          'd.id',
          'in',
          ranked.map((r) => r.id),
        )
        .execute();
      const score = new Map(ranked.map((r) => [r.id, r.score]));
      return rows.sort((a, b) => (score.get(b.id) ?? 0) - (score.get(a.id) ?? 0) || a.name.localeCompare(b.name)).map(toSummary);
    },

    async device(id: string) {
      const row = await db
        .selectFrom('infrared_devices as d')
        .innerJoin('infrared_brands as b', 'b.id', 'd.brand_id')
        .selectAll('d')
        .select('b.name as brand_name')
        .where('d.id', '=', id)
        .executeTakeFirst();
      return row ? toDevice(row) : null;
    },
  };
}
