// Set-up file of each project of the dates run (vitest.dates.config.ts): refuses to run a suite whose worker is not
// at the date its project asked for (libfaketime not preloaded, or the offset lost), so a dates run that silently ran
// on today's clock fails instead of passing for nothing.
const date = process.env.HEARTH_TEST_DATE;
if (!date) throw new Error('The dates run sets HEARTH_TEST_DATE for each project');
const driftMs = Math.abs(Date.now() - Date.parse(date));
if (driftMs > 6 * 3600_000)
  throw new Error(`The clock is at ${new Date().toISOString()}, not ${date}: is libfaketime preloaded (LD_PRELOAD)?`);
if (Intl.DateTimeFormat().resolvedOptions().timeZone !== 'Europe/Amsterdam')
  throw new Error(`The dates run's time zone is ${Intl.DateTimeFormat().resolvedOptions().timeZone}, not Europe/Amsterdam`);
