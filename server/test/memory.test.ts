/**
 * The heap policy (server/src/memory.ts): a fixed growth from the start, kept by a large full
 * collection, given back to V8 only by a small one that shows the workspace no longer loading,
 * and left as it is in between.
 */
import assert from 'node:assert/strict';
import { fixedGrowingPercent, growingPercentFor, heapFlagsGiven, heapPolicyApplies, keptHeapMb, largeHeapMb, smallHeapMb, startHeapPolicy } from '../src/memory';

describe('server: heap policy', function () {
  it('decides from what a full collection kept and what the one before kept', function () {
    const fixed = fixedGrowingPercent;
    // large: fixed, whatever came before
    assert.equal(growingPercentFor(largeHeapMb + 1, undefined, 0), fixed);
    assert.equal(growingPercentFor(largeHeapMb + 1, largeHeapMb + 1, 0), fixed);
    // small and settled: lifted
    assert.equal(growingPercentFor(30, 29, fixed), 0);
    assert.equal(growingPercentFor(30, 30 / 1.25, fixed), 0);
    // small but the first reading, or still loading (much more than the last): unchanged
    assert.equal(growingPercentFor(10, undefined, fixed), fixed);
    assert.equal(growingPercentFor(30, 10, fixed), fixed);
    assert.equal(growingPercentFor(30, 23, fixed), fixed);
    // between the two lines: unchanged either way
    const between = (largeHeapMb + smallHeapMb) / 2;
    assert.equal(growingPercentFor(between, between, fixed), fixed);
    assert.equal(growingPercentFor(between, between, 0), 0);
    assert.equal(growingPercentFor(largeHeapMb, largeHeapMb, 0), 0);
    assert.equal(growingPercentFor(smallHeapMb, smallHeapMb, fixed), fixed);
  });

  it('sets V8 flag at start and on each change only, and says why', function () {
    const flags: string[] = [];
    const logs: string[] = [];
    const policy = startHeapPolicy({ setFlags: (f) => flags.push(f), log: (m) => logs.push(m), observe: false });
    assert.deepEqual(flags, [`--heap-growing-percent=${fixedGrowingPercent}`]);
    assert.equal(policy.percent(), fixedGrowingPercent);
    // a 2,000-node bundle as the bench loads it: 30 MB, then settled
    policy.afterFullCollection(29.8);
    policy.afterFullCollection(32.2);
    assert.equal(policy.percent(), 0);
    policy.afterFullCollection(37.4);
    // grown past the line: fixed again
    policy.afterFullCollection(61.1);
    policy.afterFullCollection(59);
    assert.equal(policy.percent(), fixedGrowingPercent);
    assert.deepEqual(flags, [`--heap-growing-percent=${fixedGrowingPercent}`, '--heap-growing-percent=0', `--heap-growing-percent=${fixedGrowingPercent}`]);
    assert.deepEqual(logs, [
      'darkprint: a full collection kept 32 MB; the heap now grows as V8 chooses',
      `darkprint: a full collection kept 61 MB; the heap now grows by ${fixedGrowingPercent}% between collections`,
    ]);
    policy.stop();
  });

  it('stays off when node is given a heap flag', function () {
    assert.equal(heapFlagsGiven([]), false);
    assert.equal(heapFlagsGiven(['--inspect=6009', '--nolazy', '--heap-prof']), false);
    assert.equal(heapFlagsGiven(['--heap-growing-percent=20']), true);
    assert.equal(heapFlagsGiven(['--max-old-space-size=512']), true);
    assert.equal(heapFlagsGiven(['--max_old_space_size=512']), true);
    assert.equal(heapFlagsGiven(['', '--max-heap-size=400']), true);
    assert.equal(heapFlagsGiven(['--optimize-for-size']), true);
    assert.equal(heapFlagsGiven(['--max-old-space-sizes']), false);
  });

  it('runs on plain Node only', function () {
    assert.equal(heapPolicyApplies({ node: '20.20.2', v8: '11.3' }, []), true);
    assert.equal(heapPolicyApplies({ node: '20.18.1', electron: '34.2.0' }, []), false);
    assert.equal(heapPolicyApplies({ node: '20.20.2' }, ['--max-old-space-size=512']), false);
    assert.equal(heapPolicyApplies(process.versions, []), process.versions.electron === undefined);
  });

  it('reads the heap outside the young generation', function () {
    const kept = keptHeapMb();
    assert.ok(kept > 0 && kept < process.memoryUsage().heapTotal / (1024 * 1024) + 1, `kept ${kept} MB`);
  });
});
