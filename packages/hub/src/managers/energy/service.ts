import { notFound } from '@hearth/contract';
import type { HubContext } from '../../platform/context';
import type { DeviceService } from '../devices/service';
import { readOption } from '../options';
import { ZoneStore } from '../zones/store';

export const ENERGY_DEFAULTS = { kWhCost: 0.25, currency: 'EUR' } as const;

interface Approximation {
  usageOn?: number;
  usageOff?: number;
  usageConstant?: number;
}

const round = (n: number, digits = 2) => Number(n.toFixed(digits));

/** Live energy: each device's power from `measure_power`, or from its energy approximation. */
export class EnergyService {
  private readonly zones: ZoneStore;

  constructor(
    private readonly context: HubContext,
    private readonly devices: DeviceService,
  ) {
    this.zones = new ZoneStore(context.db);
  }

  /** The zone and every zone below it. */
  private zoneAndBelow(zoneId: string): Set<string> {
    if (!this.zones.get(zoneId)) throw notFound('Zone', zoneId);
    const all = this.zones.list();
    const result = new Set([zoneId]);
    for (let grew = true; grew; ) {
      grew = false;
      for (const zone of all) {
        if (zone.parent && result.has(zone.parent) && !result.has(zone.id)) {
          result.add(zone.id);
          grew = true;
        }
      }
    }
    return result;
  }

  live(zoneId?: string) {
    const zones = zoneId ? this.zoneAndBelow(zoneId) : undefined;
    const kWhCost = readOption<number>(this.context, 'energy', 'kWhCost', ENERGY_DEFAULTS.kWhCost);
    const currency = readOption<string>(this.context, 'energy', 'currency', ENERGY_DEFAULTS.currency);
    const items: { type: 'device'; id: string; name: string; zone: string; approximated: boolean; values: { W: number } }[] = [];
    const cumulative: { id: string; name: string; values: { W: number; kWh: number } }[] = [];
    for (const device of this.devices.list()) {
      if (zones && !zones.has(device.zone)) continue;
      const values = this.devices.values(device.id);
      const energy = (device.energy ?? {}) as { approximation?: Approximation; cumulative?: boolean };
      const measured = values.get('measure_power')?.value;
      if (energy.cumulative) {
        const kWh = values.get('meter_power')?.value;
        cumulative.push({
          id: device.id,
          name: device.name,
          values: { W: typeof measured === 'number' ? measured : 0, kWh: typeof kWh === 'number' ? kWh : 0 },
        });
        continue;
      }
      let W: number | undefined;
      let approximated = false;
      if (typeof measured === 'number') W = measured;
      else if (energy.approximation) {
        const { usageOn, usageOff, usageConstant } = energy.approximation;
        const on = values.get('onoff')?.value;
        if (usageConstant !== undefined) W = usageConstant;
        if (on === true && usageOn !== undefined) W = (W ?? 0) + usageOn;
        else if (on !== true && usageOff !== undefined) W = (W ?? 0) + usageOff;
        approximated = W !== undefined;
      }
      if (W === undefined) continue;
      items.push({ type: 'device', id: device.id, name: device.name, zone: device.zone, approximated, values: { W: round(W) } });
    }
    const W = round(items.reduce((sum, item) => sum + item.values.W, 0));
    return {
      zoneId: zoneId ?? null,
      W,
      items,
      cumulative: {
        W: round(cumulative.reduce((s, c) => s + c.values.W, 0)),
        kWh: round(
          cumulative.reduce((s, c) => s + c.values.kWh, 0),
          3,
        ),
        items: cumulative,
      },
      currency,
      kWhCost,
      costPerHour: round((W / 1000) * kWhCost, 4),
    };
  }
}
