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
    // Two dates side by side, one per core of the 2-core machines CI runs on (HEARTH_TEST_WORKERS=1: one at a time).
    // The run is CPU-bound in one process per date (the hub or the cloud in-process, PGlite), so one worker left a core
    // idle. Measured, two dates (four projects, 168 tests), machine loaded by other work: one worker 788 s wall and
    // 170 s CPU, two 494 s wall and 215 s CPU (more worker processes loading the hub and the cloud).
    maxWorkers: Number(process.env.HEARTH_TEST_WORKERS || 2),
    projects: datesProjects(datesOfRun()),
  },
});
