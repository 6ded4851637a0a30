import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLOUD_TIMEOUTS, HUB_TIMEOUTS } from './test-timeouts.mjs';

const REPOSITORY = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

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
 * The dates of this run: all of {@link AWKWARD_DATES}, or those in `HEARTH_TEST_DATES` (comma-separated), as
 * `node scripts/test-dates.mjs <date> …` sets it.
 */
export const datesOfRun = () => process.env.HEARTH_TEST_DATES?.split(',').filter(Boolean) ?? AWKWARD_DATES;

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

/** libfaketime's library, preloaded into each worker of the dates run (Debian: package `libfaketime`). */
export function libfaketimePath() {
  for (const arch of ['x86_64-linux-gnu', 'aarch64-linux-gnu']) {
    const path = `/usr/lib/${arch}/faketime/libfaketime.so.1`;
    if (existsSync(path)) return path;
  }
  return null;
}

/** The workspaces whose suites are date-sensitive, with their time limits of every run. */
const WORKSPACES = {
  hub: { root: 'packages/hub', ...HUB_TIMEOUTS },
  cloud: { root: 'packages/cloud', ...CLOUD_TIMEOUTS },
};

/**
 * One Vitest project per date and workspace, for `vitest.dates.config.ts`: its files are the workspace's
 * date-sensitive suites, and its worker processes start with libfaketime preloaded and the clock `date` (the offset
 * from now, so the clock runs on from there), in Europe/Amsterdam. The cloud's suites run on embedded PGlite, whose
 * clock moves with the process (a PostgreSQL server's would not): `scripts/test.mjs` unsets DATABASE_URL for the run.
 * @param {readonly string[]} dates
 */
export function datesProjects(dates) {
  const library = libfaketimePath();
  if (!library) throw new Error('No libfaketime: apt-get install faketime (it brings the library)');
  return dates.flatMap((date) => {
    const offsetSeconds = Math.round((Date.parse(date) - Date.now()) / 1000);
    const env = {
      LD_PRELOAD: library,
      FAKETIME: `${offsetSeconds >= 0 ? '+' : ''}${offsetSeconds}`,
      TZ: TIME_ZONE,
      HEARTH_TEST_DATE: date,
    };
    return Object.entries(WORKSPACES).map(([name, { root, ...timeouts }]) => ({
      test: {
        name: `${name} at ${date}`,
        root,
        include: DATE_SENSITIVE_SUITES.filter((suite) => suite.startsWith(`${root}/`)).map((suite) => {
          const inRoot = suite.slice(root.length + 1);
          return inRoot.endsWith('.test.ts') ? inRoot : `${inRoot}/**/*.test.ts`;
        }),
        env,
        // As in vitest.config.ts: one worker process per project keeps the modules it loaded across its files.
        isolate: false,
        setupFiles: [join(REPOSITORY, 'scripts', 'lib', 'at-awkward-date.mjs')],
        ...timeouts,
      },
    }));
  });
}
