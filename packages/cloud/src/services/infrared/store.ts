import type { InfraredDeviceBody, InfraredTypeValue } from '@hearth/contract';
import type { Selectable } from 'kysely';
import type { CloudContext } from '../../platform/context';
import { indexKeysOf, keysOf, matchScore, wordsOf } from '../apps/search';
import { type Protocol, prontoHex } from './pronto';
import { SAMPLE_BRANDS, SAMPLE_DEVICES, SAMPLE_SOURCE } from './sample';
import type { InfraredDevicesTable } from './tables';

type DeviceRow = Selectable<InfraredDevicesTable> & { brand_name: string };

/** The data sets the rows may come from, by the name a row records. */
const SOURCES: Record<string, InfraredDeviceBody['source']> = { sample: SAMPLE_SOURCE };

const title = (id: string) => id.charAt(0).toUpperCase() + id.slice(1).replaceAll('_', ' ');

export const toSummary = (row: DeviceRow) => ({
  id: row.id,
  name: row.name,
  brand: { id: row.brand_id, name: row.brand_name },
  type: row.type as InfraredTypeValue,
  protocol: row.protocol,
});

/** A device with its codes: each button's Pronto hex made from the protocol's numbers. */
export function toDevice(row: DeviceRow): InfraredDeviceBody {
  const functions = row.functions as { id: string; function: number }[];
  return {
    ...toSummary(row),
    device: row.device,
    subdevice: row.subdevice,
    codes: functions.map((button) => ({
      id: button.id,
      name: title(button.id),
      function: button.function,
      pronto: prontoHex({
        protocol: row.protocol as Protocol,
        device: row.device,
        subdevice: row.subdevice,
        function: button.function,
      }),
    })),
    source: SOURCES[row.dataset] ?? { name: row.dataset, licence: 'unknown', note: '' },
  };
}

/** The infrared database's rows: the data set loaded at start, and the reads the routes make. */
export function infraredStore(context: CloudContext) {
  const { db } = context.database;
  const devices = () =>
    db
      .selectFrom('infrared_devices as d')
      .innerJoin('infrared_brands as b', 'b.id', 'd.brand_id')
      .selectAll('d')
      .select('b.name as brand_name');

  return {
    /**
     * Loads the data set: rows it lacks are added (with their search keys), rows there already are kept, so every
     * node of the cloud may load it at start.
     */
    async load() {
      await db
        .insertInto('infrared_brands')
        .values(Object.entries(SAMPLE_BRANDS).map(([id, name]) => ({ id, name })))
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
      for (const device of SAMPLE_DEVICES) {
        await db.transaction().execute(async (trx) => {
          const added = await trx
            .insertInto('infrared_devices')
            .values({
              id: device.id,
              brand_id: device.brand,
              type: device.type,
              name: device.name,
              protocol: device.protocol,
              device: device.device,
              subdevice: device.subdevice,
              functions: JSON.stringify(Object.entries(device.functions).map(([id, fn]) => ({ id, function: fn }))),
              dataset: 'sample',
            })
            .onConflict((oc) => oc.column('id').doNothing())
            .returning('id')
            .executeTakeFirst();
          if (!added) return;
          const words = new Set([...wordsOf(SAMPLE_BRANDS[device.brand] ?? ''), ...wordsOf(device.name)]);
          const keys = [...words].flatMap((word) => indexKeysOf(word).map(({ key }) => ({ device_id: device.id, key, word })));
          await trx
            .insertInto('infrared_search')
            .values(keys)
            .onConflict((oc) => oc.doNothing())
            .execute();
        });
      }
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
      const row = await devices().where('d.id', '=', id).executeTakeFirst();
      return row ? toDevice(row) : null;
    },
  };
}
