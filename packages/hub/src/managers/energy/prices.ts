import { invalidParameter, notFound } from '@hearth/contract';
import { hoursOfDay, parseLocalDate } from '../../platform/calendar';
import type { HubContext } from '../../platform/context';
import { hubTimezone } from '../i18n/timezone';

/** Electricity market price zones the hub knows (simulated day-ahead prices), with their currency and base price. */
export const PRICE_ZONES = [
  { id: 'NL', name: 'Netherlands', currency: 'EUR', base: 0.09 },
  { id: 'BE', name: 'Belgium', currency: 'EUR', base: 0.085 },
  { id: 'DE-LU', name: 'Germany and Luxembourg', currency: 'EUR', base: 0.095 },
  { id: 'FR', name: 'France', currency: 'EUR', base: 0.07 },
  { id: 'NO1', name: 'Norway (Oslo)', currency: 'NOK', base: 0.8 },
  { id: 'SE3', name: 'Sweden (Stockholm)', currency: 'SEK', base: 0.6 },
  { id: 'DK1', name: 'Denmark (West)', currency: 'DKK', base: 0.55 },
] as const;

export type PriceType = 'fixed' | 'dynamic';
const ZONE_KEY = 'energy.price.zone';
const TYPE_KEY = 'energy.price.type';
const USER_COSTS_KEY = 'energy.price.userCosts';

/**
 * A user's cost expression of the market price `x`: numbers, `x`, + - * /, unary minus and parentheses.
 * Parsed once into a function; anything else is refused with the position of the problem.
 */
export function compileExpression(text: string): (x: number) => number {
  const tokens = text.match(/\d+(?:\.\d+)?|[x()+\-*/]|\S/g) ?? [];
  let at = 0;
  const fail = (why: string): never => {
    throw invalidParameter('mathExpression', `${why} (an expression of x with numbers, + - * / and parentheses)`);
  };
  type Node = (x: number) => number;
  const primary = (): Node => {
    const token = tokens[at++];
    if (token === undefined) return fail('The expression ends too early');
    if (token === 'x') return (x) => x;
    if (token === '-') {
      const inner = primary();
      return (x) => -inner(x);
    }
    if (token === '(') {
      const inner = sum();
      if (tokens[at++] !== ')') fail('A parenthesis is not closed');
      return inner;
    }
    if (/^\d/.test(token)) {
      const value = Number(token);
      return () => value;
    }
    return fail(`Unexpected "${token}"`);
  };
  /** A left-associative chain of `operand`s joined by the operators of `ops`. */
  const chain = (ops: Record<string, (a: number, b: number) => number>, operand: () => Node) => (): Node => {
    let left = operand();
    for (let token = tokens[at]; token !== undefined && token in ops; token = tokens[at]) {
      at += 1;
      const apply = ops[token] as (a: number, b: number) => number;
      const [l, r] = [left, operand()];
      left = (x) => apply(l(x), r(x));
    }
    return left;
  };
  const product = chain({ '*': (a, b) => a * b, '/': (a, b) => a / b }, () => primary());
  const sum: () => Node = chain({ '+': (a, b) => a + b, '-': (a, b) => a - b }, product);
  const expression = sum();
  if (at < tokens.length) fail(`Unexpected "${tokens[at]}"`);
  return (x) => {
    const value = expression(x);
    return Number.isFinite(value) ? value : 0;
  };
}

const round = (n: number, digits: number) => Number(n.toFixed(digits));

/** Price settings and the simulated day-ahead market: deterministic hourly prices per zone and day. */
export class ElectricityPrices {
  constructor(private readonly context: HubContext) {}

  type(): PriceType {
    return this.context.settings.get<PriceType>(TYPE_KEY, 'fixed');
  }

  setType(type: PriceType): { type: PriceType } {
    this.context.settings.set(TYPE_KEY, type);
    return { type };
  }

  zone() {
    const id = this.context.settings.get<string>(ZONE_KEY, 'NL');
    const zone = PRICE_ZONES.find((z) => z.id === id) ?? PRICE_ZONES[0];
    return { zoneId: zone.id, name: zone.name, currency: zone.currency };
  }

  setZone(zoneId: string) {
    if (!PRICE_ZONES.some((z) => z.id === zoneId)) throw notFound('Price zone', zoneId);
    this.context.settings.set(ZONE_KEY, zoneId);
    return this.zone();
  }

  userCosts(): { mathExpression: string | null; type: string | null } {
    return this.context.settings.get(USER_COSTS_KEY, { mathExpression: null, type: null });
  }

  setUserCosts(mathExpression: string, type: string | null) {
    compileExpression(mathExpression);
    const costs = { mathExpression, type };
    this.context.settings.set(USER_COSTS_KEY, costs);
    return costs;
  }

  unsetUserCosts(): void {
    this.context.settings.delete(USER_COSTS_KEY);
  }

  /**
   * The day-ahead prices of `date` in the chosen zone, one per hour the local day (in the hub's time zone) really
   * has: 23 on the day the clocks go forward, 25 on the day they go back, as day-ahead markets publish them. A
   * morning and an evening peak over the zone's base price, varying from day to day but the same every time the
   * same day is asked for.
   */
  day(text: string) {
    const date = parseLocalDate(text);
    const { year: y, month: m, day: d } = date;
    const { zoneId, currency } = this.zone();
    const base = PRICE_ZONES.find((z) => z.id === zoneId)?.base ?? 0.09;
    const costs = this.userCosts();
    const withCosts = costs.mathExpression ? compileExpression(costs.mathExpression) : (x: number) => x;
    const dayFactor = 0.85 + ((y * 372 + m * 31 + d) % 7) * 0.05;
    const prices = hoursOfDay(date, hubTimezone(this.context)).map(({ start, end, hour }) => {
      const peak = Math.exp(-((hour - 8) ** 2) / 4) * 0.6 + Math.exp(-((hour - 19) ** 2) / 6) * 0.9;
      const price = round(base * dayFactor * (0.7 + peak), 5);
      return {
        start: new Date(start).toISOString(),
        end: new Date(end).toISOString(),
        price,
        priceWithUserCosts: round(withCosts(price), 5),
      };
    });
    return { date: text, zoneId, currency, userCosts: costs.mathExpression, prices };
  }
}
