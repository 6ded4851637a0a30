import { accessCapabilities } from './access';
import { airCapabilities } from './air';
import { alarmCapabilities } from './alarms';
import { applianceCapabilities } from './appliances';
import { climateCapabilities } from './climate';
import { energyCapabilities } from './energy';
import { lightCapabilities } from './lights';
import { otherMeasureCapabilities } from './measures';
import { mediaCapabilities } from './media';
import type { CatalogueEntry } from './types';
import { weatherCapabilities } from './weather';

export { deviceClassIds } from './device-classes';
export type { CatalogueArg, CatalogueCard, CatalogueEntry, EcosystemUiComponent } from './types';

/**
 * Every system capability of the ecosystem, keyed by id: the facts (types, units, ranges, card ids and arguments)
 * are the ecosystem's, so apps and flows written for it work unchanged; the words are Hearth's own. A test holds
 * the facts against the ecosystem's library (catalogue.test.ts).
 */
export const systemCapabilities: Readonly<Record<string, CatalogueEntry>> = {
  ...lightCapabilities,
  ...alarmCapabilities,
  ...airCapabilities,
  ...weatherCapabilities,
  ...energyCapabilities,
  ...climateCapabilities,
  ...mediaCapabilities,
  ...accessCapabilities,
  ...applianceCapabilities,
  ...otherMeasureCapabilities,
};
