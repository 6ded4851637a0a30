import { defineConfig } from 'vitest/config';
import { datesOfRun, datesProjects } from './scripts/lib/awkward-dates.mjs';

/**
 * The date-sensitive suites again, once per awkward date, in one Vitest run (`npm test` runs it last): each date is
 * a project whose worker processes start with libfaketime preloaded and the clock moved to that date, so the test
 * process and every process it starts (hubs, apps) see it; Vitest itself runs on the real clock. One run instead of
 * one per date starts Vitest once, and the dates' files share the machine's workers.
 */
export default defineConfig({
  test: {
    pool: 'forks',
    ...(process.env.HEARTH_TEST_WORKERS ? { maxWorkers: Number(process.env.HEARTH_TEST_WORKERS) } : {}),
    projects: datesProjects(datesOfRun()),
  },
});
