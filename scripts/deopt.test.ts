/**
 * The edit path keeps V8's optimised code through a long session. V8 throws optimised code away
 * ("deoptimises") when a value arrives in a shape the code was not built for, and compiles it
 * again later; when the shape keeps changing the same function is thrown away edit after edit
 * (a deopt loop), and every edit runs it slowly. This ran the resolver unoptimised on every card
 * edit from about the thirtieth (see shared/src/arrays.ts for the cause).
 *
 * The session (edit-session.ts) runs under `node --trace-deopt`; after the first ten
 * edits of each phase, while V8 is still learning the shapes, no function may be deoptimised more
 * than twice in a phase. The counts are V8's (Node 20 here and in CI): a loop gives tens, a
 * healthy session none or one per function. The second test pins the V8 behaviour behind the
 * commonest cause, and what `mapped` does about it.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const repo = path.resolve(__dirname, '..');
const tsx = require.resolve('tsx/cjs', { paths: [repo] });

describe('the edit path keeps its optimised code', () => {
  it('no function is deoptimised again and again over 60 card edits and 60 topology edits at 2,000 nodes', function () {
    this.timeout(120_000);
    const trace = execFileSync(process.execPath, ['--trace-deopt', '--require', tsx, path.join(__dirname, 'edit-session.ts')], {
      cwd: repo,
      env: { ...process.env, NODES: '2000', EDITS: '60' },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    const warmUp = 10;
    const counts = new Map<string, number>();
    let phase: string | undefined;
    let edit = -1;
    let edits = 0;
    for (const line of trace.split('\n')) {
      const marker = /^EDIT (\S+) (\d+)$/.exec(line);
      if (marker) {
        [phase, edit] = [marker[1], Number(marker[2])];
        edits++;
        continue;
      }
      if (line.startsWith('DONE')) phase = undefined;
      const bailout = /^\[bailout .*deoptimizing \S+ <JSFunction (\S*)/.exec(line);
      if (bailout && phase !== undefined && edit >= warmUp) {
        const key = `${phase}: ${bailout[1] || '(anonymous)'}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
    }
    assert.equal(edits, 120, 'the session printed a marker before each edit');
    const again = [...counts].filter(([, count]) => count > 2).map(([key, count]) => `${key} ×${count}`);
    assert.deepEqual(again, [], `deoptimised more than twice after edit ${warmUp} of a phase`);
  });

  it('an optimised `map` hands back a holey array; `mapped` a packed one', () => {
    const arrays = path.join(repo, 'shared/src/arrays.ts');
    const script = `
      const { mapped } = require(${JSON.stringify(arrays)});
      const f = (x) => x + 1;
      const viaMap = (list) => list.map(f);
      const viaMapped = (list) => mapped(list, f);
      const kinds = {};
      for (const [name, go] of [['map', viaMap], ['mapped', viaMapped]]) {
        %PrepareFunctionForOptimization(go);
        const before = go([1, 2, 3]);
        go([1, 2, 3]);
        %OptimizeFunctionOnNextCall(go);
        const after = go([1, 2, 3]);
        kinds[name] = { holey: %HasHoleyElements(after), sameShape: %HaveSameMap(before, after) };
      }
      process.stdout.write(JSON.stringify(kinds));
    `;
    const out = execFileSync(process.execPath, ['--allow-natives-syntax', '--require', tsx, '-e', script], { cwd: repo, encoding: 'utf8' });
    assert.deepEqual(JSON.parse(out), { map: { holey: true, sameShape: false }, mapped: { holey: false, sameShape: true } });
  });
});
