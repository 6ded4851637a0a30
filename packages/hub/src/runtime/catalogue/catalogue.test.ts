import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sourceFiles } from '@hearth/contract/testing';
import { describe, expect, it } from 'vitest';
import { capabilityFlowCards, capabilityText, deviceClasses, ecosystemCapabilities } from '../ecosystem';
import { systemCapabilities } from '.';

type Texts = string | Record<string, string>;
interface ReferenceArg {
  name: string;
  type: string;
  values?: { id: string }[];
  [field: string]: unknown;
}
interface ReferenceCard {
  id: string;
  args?: ReferenceArg[];
  $filter?: { class?: string };
}
interface ReferenceCapability {
  type: string;
  units?: Texts;
  getable?: boolean;
  setable?: boolean;
  min?: number;
  max?: number;
  step?: number;
  decimals?: number;
  chartType?: string;
  uiComponent?: string | null;
  insights?: boolean;
  values?: { id: string }[];
  $flow?: { conditions?: ReferenceCard[]; actions?: ReferenceCard[] };
}

/**
 * The ecosystem's own library, the reference the catalogue's facts are held against: a development dependency,
 * loaded by tests only (its licence file is the GPL-3.0 text, so nothing the hub ships loads it).
 */
const reference = createRequire(import.meta.url)('homey-lib') as {
  getCapabilities(): Record<string, ReferenceCapability>;
  getDeviceClasses(): Record<string, unknown>;
};
const ecosystem = reference.getCapabilities();
const english = (text: Texts | undefined) => (typeof text === 'object' ? text.en : text);

/** The facts of a card argument: everything but its words (and the values, which the card's capability gives). */
const argFacts = ({ title: _title, values: _values, meta: _meta, ...facts }: Record<string, unknown>) => facts;
const cardFacts = (card: { id: string; args?: readonly object[]; classes?: readonly string[] }) => ({
  id: card.id,
  args: (card.args ?? []).map((arg) => argFacts(arg as Record<string, unknown>)),
  classes: card.classes ?? null,
});
const referenceCardFacts = (card: ReferenceCard) => ({
  id: card.id,
  args: (card.args ?? []).map((arg) => argFacts(arg)),
  classes: card.$filter?.class?.split('|') ?? null,
});

describe("Hearth's capability catalogue against the ecosystem's", () => {
  it('has every system capability and no other', () => {
    expect(Object.keys(systemCapabilities).sort()).toEqual(Object.keys(ecosystem).sort());
    expect(Object.keys(systemCapabilities).length).toBeGreaterThan(180);
    expect(ecosystemCapabilities().map((c) => c.id)).toEqual(Object.keys(systemCapabilities));
  });

  it('has the same facts for each: type, units, access, range, chart, ui component, insights and values', () => {
    const differences = Object.entries(ecosystem).flatMap(([id, theirs]) => {
      const ours = systemCapabilities[id];
      const facts = (
        c: Omit<ReferenceCapability, 'units' | 'values'> & { units?: string; values?: readonly { id: string }[] },
      ) => ({
        type: c.type,
        units: c.units ?? null,
        getable: c.getable ?? true,
        setable: c.setable ?? true,
        range: [c.min ?? null, c.max ?? null, c.step ?? null, c.decimals ?? null],
        chartType: c.chartType ?? null,
        uiComponent: c.uiComponent ?? null,
        insights: c.insights ?? false,
        values: c.values?.map((v) => v.id) ?? null,
      });
      const expected = facts({ ...theirs, units: english(theirs.units) });
      return ours && JSON.stringify(facts(ours)) === JSON.stringify(expected)
        ? []
        : [{ id, ours: ours && facts(ours), theirs: expected }];
    });
    expect(differences).toEqual([]);
  });

  it('writes units as the ecosystem does in Dutch and German', () => {
    const differences = Object.entries(ecosystem).flatMap(([id, theirs]) =>
      (['nl', 'de'] as const).flatMap((language) => {
        const units = typeof theirs.units === 'object' ? (theirs.units[language] ?? theirs.units.en) : theirs.units;
        const ours = capabilityText(id, 'units', language) ?? systemCapabilities[id]?.units;
        return ours === units ? [] : [`${id} ${language}: ${ours} ≠ ${units}`];
      }),
    );
    expect(differences).toEqual([]);
  });

  it('has the same device cards for each: ids, arguments with their ranges and values, and device classes', () => {
    const differences = Object.entries(ecosystem).flatMap(([id, theirs]) => {
      const ours = capabilityFlowCards(id);
      return (['conditions', 'actions'] as const).flatMap((kind) => {
        const expected = (theirs.$flow?.[kind] ?? []).map(referenceCardFacts);
        const actual = ours[kind].map(cardFacts);
        const valueIds = (cards: readonly { args?: readonly { values?: readonly { id: string }[] }[] }[]) =>
          cards.map((card) => (card.args ?? []).map((arg) => arg.values?.map((v) => v.id) ?? null));
        const same =
          JSON.stringify(actual) === JSON.stringify(expected) &&
          JSON.stringify(valueIds(ours[kind])) === JSON.stringify(valueIds(theirs.$flow?.[kind] ?? []));
        return same ? [] : [{ id, kind, ours: actual, theirs: expected }];
      });
    });
    expect(differences).toEqual([]);
    expect(capabilityFlowCards('dim').actions.map((card) => card.id)).toEqual(['dim', 'dim_relative']);
  });

  it('has the same device classes', () => {
    expect([...deviceClasses()].sort()).toEqual(Object.keys(reference.getDeviceClasses()).sort());
  });

  it('words every capability, value and card itself, in English, Dutch and German', () => {
    const unworded = Object.entries(systemCapabilities).flatMap(([id, entry]) => [
      ...[entry.title, entry.titles.nl, entry.titles.de].filter((text) => !text.trim()).map(() => `${id} title`),
      ...(entry.values ?? []).filter((value) => !value.title.trim()).map((value) => `${id} value ${value.id}`),
      ...[...(entry.conditions ?? []), ...(entry.actions ?? [])]
        .filter((card) => !card.title.trim() || card.title === card.id)
        .map((card) => `${id} card ${card.id}`),
    ]);
    expect(unworded).toEqual([]);
    expect(capabilityText('measure_power.phase1', 'title', 'de')).toBe(systemCapabilities.measure_power?.titles.de);
    expect(capabilityText('measure_wind_strength', 'units', 'nl')).toBe('km/u');
    expect(capabilityText('dim', 'title', 'en')).toBeUndefined();
  });
});

describe('the ecosystem library', () => {
  it('is loaded by no file the packages ship (tests and testing helpers only)', () => {
    const packages = fileURLToPath(new URL('../../../../', import.meta.url));
    const shipped = readdirSync(packages, { withFileTypes: true })
      .map((entry) => join(packages, entry.name, 'src'))
      .filter((src) => existsSync(src))
      .flatMap((src) => sourceFiles(src))
      .filter((file) => !file.split(/[\\/]/).includes('testing'));
    expect(shipped.length).toBeGreaterThan(100);
    const loading = shipped.filter((file) => /['"]homey-lib(\/[^'"]*)?['"]/.test(readFileSync(file, 'utf8')));
    expect(loading.map((file) => relative(packages, file))).toEqual([]);
  });
});
