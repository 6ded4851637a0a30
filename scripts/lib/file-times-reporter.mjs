// A Vitest reporter that writes how long each test file took, whole: importing it, its hooks (the beforeAll that
// starts a system included) and its tests. Vitest's own JSON report times a file from its first test's start to its
// last test's end, so a file whose time goes into beforeAll looks fast there. `scripts/test-times.mjs` reads this.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';

export default class FileTimesReporter {
  /** @param {{ outputFile?: string }} [options] the file to write; else $HEARTH_FILE_TIMES */
  constructor(options) {
    const outputFile = options?.outputFile ?? process.env.HEARTH_FILE_TIMES;
    if (!outputFile) throw new Error('file-times reporter: give it an outputFile or set HEARTH_FILE_TIMES');
    this.outputFile = outputFile;
    this.root = process.cwd();
    this.started = Date.now();
  }

  /** @param {any} vitest */
  onInit(vitest) {
    this.root = vitest.config.root;
    this.started = Date.now();
  }

  /** @param {ReadonlyArray<any>} testModules */
  onTestRunEnd(testModules) {
    const files = testModules.map((module) => {
      const d = module.diagnostic();
      const tests = [...module.children.allTests()];
      return {
        project: module.project.name,
        file: relative(this.root, module.moduleId),
        ms: Math.round(d.collectDuration + d.setupDuration + d.duration),
        state: module.state(),
        tests: tests.length,
      };
    });
    mkdirSync(dirname(this.outputFile), { recursive: true });
    writeFileSync(this.outputFile, `${JSON.stringify({ wallMs: Date.now() - this.started, files }, null, 2)}\n`);
  }
}
