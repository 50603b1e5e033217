/**
 * The incremental helpers of src/diagnostics/sort.ts, as data: `sortedDeduped` and
 * `sortedStably` must give exactly what a full sort gives, whatever the memo holds; `interner`
 * must hand back an earlier object only for a diagnostic equal to it in every field.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Diagnostic } from '../src/diagnostics';
import { dedupeDiagnostics, sortDiagnostics } from '../src/diagnostics';
import { identical, interner, sortedDeduped, sortedStably, type SortMemo } from '../src/diagnostics/sort';

const d = (code: Diagnostic['code'], start: number | undefined, message: string, extra: Partial<Diagnostic> = {}): Diagnostic => ({
  code,
  severity: 'warning',
  message,
  location: start === undefined ? { file: 'topology.dot' } : { file: 'topology.dot', span: { start, end: start + 1 } },
  ...extra,
});

const a = d('bundle/unreachable-node', 5, 'a');
const b = d('bundle/unreachable-node', 9, 'b');
const c = d('analysis/unresolved-node', 9, 'c');
const e = d('bundle/missing-card', 2, 'e', { severity: 'error' });
const tie1 = d('bundle/unreachable-node', 7, 'tie one');
const tie2 = d('bundle/unreachable-node', 7, 'tie two');
const copyOfA = d('bundle/unreachable-node', 5, 'a');

/** Each row: the diagnostics of two loads in a row; the second result must equal the full sort. */
const orders: { readonly name: string; readonly first: readonly Diagnostic[]; readonly second: readonly Diagnostic[] }[] = [
  { name: 'the same list again', first: [b, a, c], second: [b, a, c] },
  { name: 'one finding added', first: [b, a], second: [b, e, a] },
  { name: 'one finding gone', first: [b, a, c, e], second: [b, c, e] },
  { name: 'ties keep the new input order', first: [tie1, tie2, a], second: [tie2, a, tie1] },
  { name: 'an exact duplicate is dropped, first kept', first: [a, b], second: [copyOfA, b, a] },
  { name: 'everything new', first: [a], second: [e, c, b] },
  { name: 'the same object twice', first: [a, b], second: [a, b, a] },
  { name: 'every finding moved (text typed before them)', first: [b, a, c, e], second: [moved(b, 3), moved(a, 3), moved(c, 3), moved(e, 3)] },
  { name: 'the findings after a point moved', first: [b, a, c, e], second: [moved(b, 3), a, moved(c, 3), e] },
  { name: 'a finding moved past another', first: [a, b], second: [moved(a, 6), b] },
  { name: 'moved onto a tie', first: [tie1, a], second: [tie1, moved(a, 2)] },
  { name: 'moved into an exact duplicate', first: [a, moved(a, 1)], second: [a, moved(a, 0)] },
];

/** `size` findings and then a few fixed ones: ties (same code at the same place), exact copies, errors among warnings; starts spread over `0 .. spread - 1`. */
function poolOf(size: number, spread: number): Diagnostic[] {
  const pool: Diagnostic[] = [];
  for (let i = 0; i < size; i++) {
    const code = i % 3 === 0 ? 'bundle/unreachable-node' : i % 3 === 1 ? 'analysis/unresolved-node' : 'bundle/missing-card';
    pool.push(d(code, i % 7 === 0 ? undefined : (i * 5) % spread, `m${i % 9}`, i % 5 === 0 ? { severity: 'error' } : {}));
  }
  pool.push(copyOfA, a, tie1, tie2);
  return pool;
}

/** `result` holds the objects of the full sort of `list`, in its order. */
function assertFullSort(result: readonly Diagnostic[], list: readonly Diagnostic[]): void {
  const full = sortDiagnostics(dedupeDiagnostics(list));
  assert.equal(result.length, full.length);
  result.forEach((x, i) => assert.equal(x, full[i], `position ${i}`));
}

/** `x` as a new object, its span `by` further on (what the engine makes of a finding after typed text). */
function moved(x: Diagnostic, by: number): Diagnostic {
  const span = x.location.span;
  return { ...x, location: span === undefined ? { ...x.location } : { ...x.location, span: { start: span.start + by, end: span.end + by } } };
}

describe('diagnostics: incremental sort', () => {
  for (const row of orders) {
    it(row.name, () => {
      const memo: SortMemo = {};
      assert.deepEqual(sortedDeduped(row.first, memo), sortDiagnostics(dedupeDiagnostics(row.first)));
      assertFullSort(sortedDeduped(row.second, memo), row.second);
    });
  }

  it('a run of loads, each changing a few stretches of the list, gives the full sort every time', () => {
    const pool = poolOf(24, 11);
    const stretch = fc.record({ at: fc.nat(), remove: fc.nat({ max: 4 }), insert: fc.array(fc.nat({ max: pool.length - 1 }), { maxLength: 4 }) });
    fc.assert(
      fc.property(fc.array(fc.nat({ max: pool.length - 1 }), { maxLength: 30 }), fc.array(fc.array(stretch, { minLength: 1, maxLength: 3 }), { minLength: 1, maxLength: 8 }), (start, loads) => {
        const memo: SortMemo = {};
        let list = start.map((i) => pool[i]);
        sortedDeduped(list, memo);
        for (const load of loads) {
          for (const edit of load) {
            const at = list.length === 0 ? 0 : edit.at % (list.length + 1);
            list = [...list.slice(0, at), ...edit.insert.map((i) => pool[i]), ...list.slice(at + edit.remove)];
          }
          assertFullSort(sortedDeduped(list, memo), list);
        }
      }),
      { numRuns: 600 },
    );
  });

  it('text typed before the findings, again and again: each result from the last one\'s order, the full sort every time', () => {
    const memo: SortMemo = {};
    const list = [b, a, c, e];
    sortedDeduped(list, memo);
    const there = list.map((x) => moved(x, 4));
    const back = there.map((x) => moved(x, -4));
    const first = sortedDeduped(there, memo);
    const order = memo.lastOrder;
    assert.ok(order !== undefined, 'the order of the last result is kept');
    assertFullSort(first, there);
    const second = sortedDeduped(back, memo);
    assert.equal(memo.lastOrder, order, 'the next one takes the same order, with no index built');
    assertFullSort(second, back);
  });

  it('random lists, then text typed or removed at random places: the full sort every time', () => {
    const pool = poolOf(20, 31);
    const typing = fc.record({ at: fc.nat({ max: 40 }), by: fc.integer({ min: -6, max: 6 }), add: fc.option(fc.nat({ max: pool.length - 1 })) });
    fc.assert(
      fc.property(fc.uniqueArray(fc.nat({ max: pool.length - 1 }), { maxLength: 20 }), fc.array(typing, { minLength: 1, maxLength: 10 }), (start, edits) => {
        const memo: SortMemo = {};
        let list = start.map((i) => pool[i]);
        sortedDeduped(list, memo);
        for (const edit of edits) {
          list = list.map((x) => (x.location.span !== undefined && x.location.span.start >= edit.at ? moved(x, edit.by) : x));
          if (edit.add !== null) list = [...list, pool[edit.add]];
          assertFullSort(sortedDeduped(list, memo), list);
        }
      }),
      { numRuns: 600 },
    );
  });

  it('a node declared in the middle, then taken out: the findings after it moved, one added or gone; each result from the last one\'s order', () => {
    // (more findings move than the few a patch takes: 150, on nodes 10 characters apart, two per node)
    const memo: SortMemo = {};
    const list = Array.from({ length: 300 }, (_, i) => d(i % 2 === 0 ? 'bundle/unreachable-node' : 'analysis/unresolved-node', 10 * (i >> 1), `node ${i >> 1}`));
    sortedDeduped(list, memo);
    const added = d('bundle/missing-card', 745, 'the new node', { severity: 'error' });
    // (the input in load order: the new node's finding in the middle; the text after it moved)
    const withNode = [...list.slice(0, 150), added, ...list.slice(150).map((x) => moved(x, 20))];
    assertFullSort(sortedDeduped(withNode, memo), withNode);
    assert.ok(memo.lastOrder !== undefined, 'ordered from the last result, not sorted again');
    assertFullSort(sortedDeduped(list, memo), list);
    assert.ok(memo.lastOrder !== undefined, 'and back');
  });

  it('random lists, then runs added or taken out here and there, the findings after each moved: the full sort every time', () => {
    // (lists long enough that more findings move than a patch takes: see `patchLimit`)
    const pool = poolOf(200, 600);
    const splice = fc.record({ at: fc.nat({ max: 60 }), remove: fc.nat({ max: 3 }), add: fc.array(fc.nat({ max: pool.length - 1 }), { maxLength: 3 }), by: fc.integer({ min: -6, max: 6 }) });
    fc.assert(
      fc.property(fc.uniqueArray(fc.nat({ max: pool.length - 1 }), { minLength: 60, maxLength: 160 }), fc.array(fc.array(splice, { minLength: 1, maxLength: 2 }), { minLength: 1, maxLength: 10 }), (start, edits) => {
        const memo: SortMemo = {};
        let list = start.map((i) => pool[i]);
        sortedDeduped(list, memo);
        for (const edit of edits) {
          for (const run of edit) {
            const at = run.at % (list.length + 1);
            const after = list.slice(at + run.remove).map((x) => moved(x, run.by));
            list = [...list.slice(0, at), ...run.add.map((i) => pool[i]), ...after];
          }
          assertFullSort(sortedDeduped(list, memo), list);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('any memo gives the stable sort (random lists)', () => {
    const pool = fc.array(fc.record({ key: fc.nat({ max: 5 }), id: fc.nat() }), { maxLength: 30 });
    fc.assert(
      fc.property(pool, fc.array(fc.nat(), { maxLength: 40 }), fc.array(fc.nat(), { maxLength: 40 }), (items, firstPicks, secondPicks) => {
        if (items.length === 0) return;
        const pick = (picks: number[]): { key: number; id: number }[] => [...new Set(picks.map((p) => items[p % items.length]))];
        const order = (x: { key: number }, y: { key: number }): number => x.key - y.key;
        const memo: SortMemo<{ key: number; id: number }> = {};
        sortedStably(pick(firstPicks), order, memo);
        const list = pick(secondPicks);
        const result = sortedStably(list, order, memo);
        const expected = list.slice().sort(order);
        result.forEach((x, i) => assert.equal(x, expected[i]));
        assert.equal(result.length, expected.length);
      }),
    );
  });
});

/** Each row: a diagnostic recomputed, and whether it reads exactly as `a`. */
const interning: { readonly name: string; readonly candidate: Diagnostic; readonly same: boolean }[] = [
  { name: 'a copy', candidate: copyOfA, same: true },
  { name: 'another span', candidate: d('bundle/unreachable-node', 6, 'a'), same: false },
  { name: 'another severity', candidate: d('bundle/unreachable-node', 5, 'a', { severity: 'error' }), same: false },
  { name: 'a hint', candidate: d('bundle/unreachable-node', 5, 'a', { hint: 'h' }), same: false },
  { name: 'a hint key holding undefined', candidate: { ...copyOfA, hint: undefined }, same: false },
  { name: 'a node id in the location', candidate: { ...copyOfA, location: { ...copyOfA.location, nodeId: 'x' } }, same: false },
  { name: 'related information', candidate: { ...copyOfA, related: [{ file: 'topology.dot', span: { start: 0, end: 1 }, message: 'r' }] }, same: false },
  { name: 'another code', candidate: d('analysis/unresolved-node', 5, 'a'), same: false },
];

describe('diagnostics: interner', () => {
  for (const row of interning) {
    it(`${row.name} ${row.same ? 'is' : 'is not'} handed back as the earlier object`, () => {
      const intern = interner([b, a, c]);
      assert.equal(intern(row.candidate) === a, row.same);
      assert.equal(identical(row.candidate, a), row.same);
      assert.equal(intern(b), b);
    });
  }
});
