import { spawnSync } from 'node:child_process';

/**
 * The suites whose answers depend on the date: the store's subscriptions, renewals, refunds, offers and hub
 * entitlements; the hub's calendar, local time, clock, durable scheduler, alarms, time cards, insights, energy
 * periods, prices and reports.
 */
export const DATE_SENSITIVE_SUITES = [
  'packages/cloud/src/services/store/subscriptions.test.ts',
  'packages/cloud/src/services/store/entitlements.test.ts',
  'packages/cloud/src/services/store/offers.test.ts',
  'packages/cloud/src/services/store/orders.test.ts',
  'packages/hub/src/platform/calendar.test.ts',
  'packages/hub/src/managers/i18n',
  'packages/hub/src/core/hub-clock.test.ts',
  'packages/hub/src/core/scheduler.test.ts',
  'packages/hub/src/managers/alarms',
  'packages/hub/src/managers/flow/engine.test.ts',
  'packages/hub/src/managers/insights',
  'packages/hub/src/managers/energy',
  'packages/hub/src/managers/reports',
];

/**
 * Dates calendar arithmetic goes wrong on, in UTC: month ends whose next months are shorter, a leap day, and the
 * half hour before Europe's clocks change (the suites run in Europe/Amsterdam, so local days have 23 and 25 hours),
 * and a Monday morning a week before the autumn change (so "within a week" from then is 169 hours).
 */
export const AWKWARD_DATES = [
  '2027-01-31T12:00:00Z',
  '2027-02-28T23:30:00Z',
  '2028-02-29T12:00:00Z',
  '2026-11-30T23:30:00Z',
  '2027-03-28T00:30:00Z',
  '2027-10-31T00:30:00Z',
  '2027-10-25T06:00:00Z',
];

export const TIME_ZONE = 'Europe/Amsterdam';

/** libfaketime's `faketime` (Debian package `faketime`), which moves the clock of a process and its children. */
export function faketimePath() {
  const found = spawnSync('sh', ['-c', 'command -v faketime'], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : null;
}

/**
 * The command and environment that run Vitest with the clock at `date`: the offset from now is the same for the
 * test process and every process it starts (hubs, apps), and the clock runs on from there. The cloud's suites run
 * on embedded PGlite, whose clock moves with the process (a PostgreSQL server's would not).
 * @param {string} date
 */
export function atDate(date) {
  const offsetSeconds = Math.round((Date.parse(date) - Date.now()) / 1000);
  /** @type {NodeJS.ProcessEnv} */
  const env = { ...process.env, TZ: TIME_ZONE, HEARTH_TEST_DATE: date };
  delete env.DATABASE_URL;
  delete env.TEST_DATABASE_URL;
  return { command: 'faketime', prefix: ['-f', `${offsetSeconds >= 0 ? '+' : ''}${offsetSeconds}`], env };
}
