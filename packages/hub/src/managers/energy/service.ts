import { notFound } from '@hearth/contract';
import type { HubContext } from '../../platform/context';
import type { DeviceService } from '../devices/service';
import type { InsightsService } from '../insights/service';
import { readOption } from '../options';
import type { ZoneStore } from '../zones/store';

export const ENERGY_DEFAULTS = { kWhCost: 0.25, currency: 'EUR' } as const;

interface Approximation {
  usageOn?: number;
  usageOff?: number;
  usageConstant?: number;
}

const round = (n: number, digits = 2) => Number(n.toFixed(digits));

/** Live energy: each device's power from `measure_power`, or from its energy approximation. */
export class EnergyService {
  constructor(
    private readonly context: HubContext,
    private readonly devices: DeviceService,
    private readonly insights: InsightsService,
    private readonly zones: ZoneStore,
  ) {}

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

  /**
   * Energy used in [from, to) per device: the rise of its `meter_power` over the span, or else its hourly
   * average `measure_power` summed over the hours it reported. Cumulative meters (a home's P1 meter) are listed
   * apart, so they are not counted twice.
   */
  usage(from: number, to: number) {
    const items: {
      id: string;
      name: string;
      zone: string;
      class: string;
      kWh: number;
      source: 'meter_power' | 'measure_power';
    }[] = [];
    const cumulative: { id: string; name: string; kWh: number }[] = [];
    for (const device of this.devices.list()) {
      const owner = `homey:device:${device.id}`;
      let kWh: number | undefined;
      let source: 'meter_power' | 'measure_power' = 'meter_power';
      if (this.insights.has(owner, 'meter_power')) {
        const hours = this.insights.hourly(owner, 'meter_power', from, to);
        const last = hours.at(-1)?.last;
        const before = this.insights.valueBefore(owner, 'meter_power', from);
        if (typeof last === 'number') kWh = Math.max(0, last - (before ?? hours[0]?.last ?? last));
      } else if (this.insights.has(owner, 'measure_power')) {
        source = 'measure_power';
        const hours = this.insights.hourly(owner, 'measure_power', from, to);
        if (hours.length > 0) kWh = hours.reduce((sum, h) => sum + h.avg, 0) / 1000;
      }
      if (kWh === undefined) continue;
      if ((device.energy as { cumulative?: boolean } | null)?.cumulative)
        cumulative.push({ id: device.id, name: device.name, kWh: round(kWh, 3) });
      else items.push({ id: device.id, name: device.name, zone: device.zone, class: device.class, kWh: round(kWh, 3), source });
    }
    return { items, cumulative };
  }
}
