import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Type-checks `files` (paths relative to packages/sdk) with the package's compiler options. */
function diagnostics(files: string[], overrides: Record<string, string> = {}): string[] {
  const config = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const host = ts.createCompilerHost(parsed.options);
  const read = host.readFile.bind(host);
  host.readFile = (file) => overrides[file] ?? read(file);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (file) => file in overrides || fileExists(file);
  const program = ts.createProgram(
    files.map((f) => join(root, f)),
    parsed.options,
    host,
  );
  return ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

// Each check is a whole TypeScript program: seconds on a quiet machine, far more on a loaded one.
describe('type conformance with homey-apps-sdk-v3-types', { timeout: 180_000 }, () => {
  it("Hearth's SDK classes and managers are assignable to the published SDK v3 types", () => {
    expect(diagnostics(['conformance/sdk-v3.ts'])).toEqual([]);
  });

  it('the check fails for a class that does not conform', () => {
    const broken = join(root, 'conformance', 'broken.ts');
    const source = `
      import type * as V3 from 'homey-apps-sdk-v3-types';
      import type { Device } from '../src/index';
      type Lacking = Omit<Device, 'setCapabilityValue'>;
      export const check = (x: Lacking): V3.Device => x;
    `;
    const found = diagnostics(['conformance/broken.ts'], { [broken]: source });
    expect(found.join('\n')).toContain("Property 'setCapabilityValue' is missing");
  });
});
