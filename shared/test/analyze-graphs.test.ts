/**
 * The criteria-leak walks on generated graphs: the one-pass labelled walks must agree with the
 * per-producer definition (docs/compatibility.md#criteria-leak, written out naively below), and
 * large graphs must analyse without deep recursion and with long routes abbreviated.
 */
import assert from 'node:assert/strict';
import { analyze, buildGraph, type AnalysisInput } from '../src/analyze';
import { coreVocabulary } from '../src/vocabulary/view';
import { card } from './support/analysis-builder';

interface Shape {
  readonly size: number;
  readonly edges: readonly [number, number][];
  readonly producers: ReadonlySet<number>;
  readonly judges: ReadonlySet<number>;
  readonly missing: ReadonlySet<number>;
}

function input(shape: Shape): AnalysisInput {
  const ids = Array.from({ length: shape.size }, (_, i) => `n${i}`);
  const graph = buildGraph(ids, shape.edges.map(([s, t]) => ({ source: ids[s], target: ids[t] })));
  return {
    graph,
    vocabulary: coreVocabulary,
    nodes: ids.map((id, i) => ({
      id,
      span: { start: i, end: i + 1 },
      ...(shape.missing.has(i)
        ? {}
        : {
            card: card(id, {
              params: { max_iterations: 1 },
              ...(shape.judges.has(i) ? { type: 'validation' } : {}),
              ...(shape.producers.has(i) ? { outputs: [{ name: 'criteria', type: 'acceptance-criteria' }] } : {}),
            }),
          }),
    })),
  };
}

/** Findings (a) and (a2) of the criteria-leak check, one producer at a time, exactly as docs/compatibility.md#criteria-leak describes them. */
function reference(shape: Shape): { leaked: string[]; relayed: string[] } {
  const n = shape.size;
  const succ: number[][] = Array.from({ length: n }, () => []);
  const pred: number[][] = Array.from({ length: n }, () => []);
  for (const [s, t] of shape.edges) {
    if (succ[s].includes(t)) continue;
    succ[s].push(t);
    pred[t].push(s);
  }
  const isJudge = (i: number): boolean => shape.judges.has(i) && !shape.missing.has(i);
  const generators = new Set<number>();
  for (let j = 0; j < n; j++) {
    if (!isJudge(j)) continue;
    const stack: number[] = [];
    const seen = new Set<number>();
    for (const p of pred[j]) {
      if (p === j) continue;
      generators.add(p);
      if (!isJudge(p)) stack.push(p);
    }
    while (stack.length > 0) {
      const v = stack.pop()!;
      if (seen.has(v)) continue;
      seen.add(v);
      for (const p of pred[v]) {
        if (isJudge(p)) continue;
        generators.add(p);
        stack.push(p);
      }
    }
  }
  for (const m of shape.missing) generators.delete(m);
  const flow = (p: number, absorb: boolean): Set<number> => {
    const reached = new Set<number>();
    const stack = [...succ[p]];
    while (stack.length > 0) {
      const v = stack.pop()!;
      if (reached.has(v)) continue;
      reached.add(v);
      if (absorb && isJudge(v)) continue;
      stack.push(...succ[v]);
    }
    return reached;
  };
  const descendants = (g: number): Set<number> => flow(g, false);
  const leaked = new Set<number>();
  const relayed = new Set<number>();
  const producers = [...shape.producers].filter((p) => !shape.missing.has(p));
  for (const p of producers) {
    const absorbed = flow(p, true);
    const gates = [...absorbed].filter(isJudge);
    const open = gates.length === 0 ? absorbed : flow(p, false);
    for (const g of generators) {
      if (g === p) continue;
      if (absorbed.has(g)) leaked.add(g);
      else if (open.has(g) && gates.some((gate) => descendants(gate).has(g))) relayed.add(g);
    }
  }
  const name = (i: number): string => `n${i}`;
  return {
    leaked: [...leaked].sort((a, b) => a - b).map(name),
    relayed: [...relayed].filter((g) => !leaked.has(g)).sort((a, b) => a - b).map(name),
  };
}

function randomShapes(count: number): Shape[] {
  let seed = 42;
  const next = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) >>> 8;
  const shapes: Shape[] = [];
  for (let k = 0; k < count; k++) {
    const size = 2 + (next() % 12);
    const edges: [number, number][] = [];
    const edgeCount = next() % (size * 2);
    for (let e = 0; e < edgeCount; e++) edges.push([next() % size, next() % size]);
    const pick = (chance: number): Set<number> => new Set(Array.from({ length: size }, (_, i) => i).filter(() => next() % 100 < chance));
    shapes.push({ size, edges, producers: pick(25), judges: pick(30), missing: pick(8) });
  }
  return shapes;
}

describe('analysis: criteria walks on generated graphs', () => {
  it('agree with the per-producer definition on 400 random graphs', () => {
    let leaks = 0;
    let relays = 0;
    for (const [k, shape] of randomShapes(400).entries()) {
      const analysis = analyze(input(shape));
      const leaked = analysis.security.findings.filter((f) => f.marker === 'criteria-leak').map((f) => f.nodeId);
      const relayed = analysis.diagnostics
        .filter((d) => d.code === 'analysis/criteria-relayed-through-judge')
        .map((d) => d.location.nodeId!);
      const expected = reference(shape);
      const sort = (list: string[]): string[] => [...list].sort((a, b) => Number(a.slice(1)) - Number(b.slice(1)));
      assert.deepEqual({ leaked: sort(leaked), relayed: sort(relayed) }, expected, `graph ${k}: ${JSON.stringify(shape.edges)}`);
      leaks += expected.leaked.length;
      relays += expected.relayed.length;
    }
    assert.ok(leaks > 50 && relays > 20, `the generator should exercise both rules (${leaks} leaks, ${relays} relays)`);
  });

  it('a 5,000-node chain: every generator leaks, long routes keep their two ends', () => {
    const size = 5000;
    const shape: Shape = {
      size,
      edges: Array.from({ length: size - 1 }, (_, i) => [i, i + 1] as [number, number]),
      producers: new Set([0]),
      judges: new Set([size - 1]),
      missing: new Set(),
    };
    const { security } = analyze(input(shape));
    const leaks = security.findings.filter((f) => f.marker === 'criteria-leak');
    assert.equal(leaks.length, size - 2);
    const last = leaks.find((f) => f.nodeId === `n${size - 2}`)!;
    assert.equal(last.path!.length, 64);
    assert.equal(last.pathOmitted, size - 1 - 64);
    assert.deepEqual([last.path![0], last.path![31], last.path![32], last.path![63]], ['n0', 'n31', `n${size - 33}`, `n${size - 2}`]);
    const short = leaks.find((f) => f.nodeId === 'n3')!;
    assert.deepEqual(short.path, ['n0', 'n1', 'n2', 'n3']);
    assert.equal(short.pathOmitted, undefined);
  });

  it('a 5,000-node ring with no cap: every node carries unbounded-loop once', () => {
    const size = 5000;
    const ids = Array.from({ length: size }, (_, i) => `n${i}`);
    const graph = buildGraph(ids, ids.map((id, i) => ({ source: id, target: ids[(i + 1) % size] })));
    const analysis = analyze({ graph, vocabulary: coreVocabulary, nodes: ids.map((id) => ({ id, card: card(id) })) });
    assert.equal(analysis.security.rationale, '4 − 1.50 (unbounded-loop) → 3');
    assert.equal(analysis.security.penalties[0].nodeIds.length, size);
    const warning = analysis.diagnostics.find((d) => d.code === 'analysis/unbounded-loop' && d.location.nodeId === 'n0')!;
    assert.ok(warning.message.includes('sits in a cycle with n1, n2, n3, n4, n5, n6, n7, n8, n9, n10 and 4989 more'), warning.message);
    // one cycle shared by every member's finding, so that what writes them out can list it once
    const loops = analysis.security.findings.filter((f) => f.marker === 'unbounded-loop');
    assert.equal(loops.length, size);
    const cycle = loops[0].cycle!;
    assert.ok(loops.every((f) => f.cycle === cycle && f.path === cycle.members && f.hint === cycle.hint));
    assert.deepEqual(cycle.members, ids);
    assert.equal(cycle.explanation, `These ${size} nodes form a cycle where no node declares an iteration cap, so a run can go round without end.`);
    assert.ok(cycle.hint.endsWith('on the card of one of n0, n1, n2, n3, n4, n5, n6, n7, n8, n9 and 4990 more.'), cycle.hint);
  });
});
