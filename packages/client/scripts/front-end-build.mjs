/**
 * The production build options the three front ends share (support form, account pages, household web app).
 * Rolldown's bundler-timing warnings are off: the precompress plugin spends seconds on purpose (brotli at its best
 * level, once per build), and the warning printed on every `npm start` read as a fault to newcomers.
 */
export const frontEndBuild = {
  outDir: 'dist',
  emptyOutDir: true,
  target: 'es2020',
  sourcemap: false,
  rolldownOptions: { checks: { bundlerTimings: false } },
};
