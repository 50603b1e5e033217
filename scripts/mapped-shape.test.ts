/**
 * `mapped` (shared/src/arrays.ts), the edit path's replacement for `Array.prototype.map`: it hands
 * back packed arrays of one shape before and after its caller is optimised, which `.map` does not
 * on Node 20's V8 (a holey array of another shape once optimised). A caller that met both shapes
 * was thrown away and recompiled edit after edit. Checked with V8's own introspection, so the
 * answer does not depend on timing; how often the edit path is deoptimised over a long session
 * is a figure printed by `npm run bench:deopt`.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const repo = path.resolve(__dirname, '..');
const tsx = require.resolve('tsx/cjs', { paths: [repo] });

describe('the edit path keeps its optimised code', () => {
  it('`mapped` hands back arrays of one shape, before and after its caller is optimised', () => {
    const arrays = path.join(repo, 'shared/src/arrays.ts');
    const script = `
      const { mapped } = require(${JSON.stringify(arrays)});
      const f = (x) => x + 1;
      const go = (list) => mapped(list, f);
      %PrepareFunctionForOptimization(go);
      const before = go([1, 2, 3]);
      go([1, 2, 3]);
      %OptimizeFunctionOnNextCall(go);
      const after = go([1, 2, 3]);
      // (bit 4 of the status: optimised code)
      process.stdout.write(JSON.stringify({ optimised: (%GetOptimizationStatus(go) & 16) !== 0, holey: %HasHoleyElements(after), sameShape: %HaveSameMap(before, after) }));
    `;
    const out = execFileSync(process.execPath, ['--allow-natives-syntax', '--require', tsx, '-e', script], { cwd: repo, encoding: 'utf8' });
    // (the same with \`list.map(f)\` gives a holey array of another shape once optimised, on Node 20's V8)
    assert.deepEqual(JSON.parse(out), { optimised: true, holey: false, sameShape: true });
  });
});
