/**
 * The web build's check (scripts/web-bundles.mjs): a web bundle that an import of `fs`, `path`,
 * `child_process` or `worker_threads` reaches (spelled with `node:` or without, directly or through
 * another module) is named with the file that imports it; the real web bundles, built as
 * scripts/build.mjs builds them, reach none.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { nodeOnlyImports, nodeOnlyModules, webBuilds } from './web-bundles.mjs';

const repoRoot = path.resolve(__dirname, '..');

describe('build: the web bundles reach no Node module', function () {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'darkprint-web-check-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('names each Node module a web bundle would import, with or without node:, and the file that imports it', async function () {
    const options = webBuilds.find((b) => b.entryPoints[0] === 'server/src/browser.ts')!;
    for (const module of nodeOnlyModules) {
      for (const spelling of [module, `node:${module}`]) {
        // (imported by a module the entry imports, as a server module would be)
        writeFileSync(path.join(dir, 'inner.ts'), `import * as m from '${spelling}';\nexport const used = Object.keys(m).length;\n`);
        writeFileSync(path.join(dir, 'entry.ts'), `import { used } from './inner';\nconsole.log(used);\n`);
        const result = await build({ ...options, entryPoints: [path.join(dir, 'entry.ts')], outfile: path.join(dir, 'out.js'), absWorkingDir: dir, logLevel: 'silent' });
        const found = nodeOnlyImports(result.metafile!);
        assert.deepEqual(found, [`inner.ts → ${spelling}`], spelling);
      }
    }
  });

  it('finds none in the real web bundles: the server, the extension’s browser entry, the graph’s layout Worker', async function () {
    for (const options of webBuilds) {
      const result = await build({ ...options, entryPoints: options.entryPoints.map((entry) => path.join(repoRoot, entry)), outfile: path.join(dir, path.basename(options.outfile)), absWorkingDir: repoRoot });
      assert.deepEqual(nodeOnlyImports(result.metafile!), [], options.outfile);
      // (and the check read a real graph of modules: the entry and what it imports)
      const inputs = Object.keys(result.metafile!.inputs);
      assert.ok(inputs.includes(options.entryPoints[0]) && inputs.length > 3, `${options.outfile} bundles ${inputs.join(', ')}`);
    }
  });
});
