/**
 * Graph primitives of src/analyze/graph.ts against definitions, as data: `buildGraph` and
 * `graphOfEdges` (ids in first-appearance order, parallel edges collapsed, neighbours in
 * first-edge order, wide fan-outs included), `stronglyConnected` (components = mutual
 * reachability; cycles only unless `all`; members and components sorted) on a table of small
 * graphs and on random ones, and `sortAscending` against `Array#sort`.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { buildGraph, graphOfEdges, sortAscending, stronglyConnected, type Graph } from '../src/analyze/graph';

/** The graph by definition, pairs remembered in a set. */
function graphByDefinition(ids: readonly string[], edges: readonly { source: string; target: string }[]): { graph: Graph; first: number[] } {
  const order: string[] = [];
  const index = new Map<string, number>();
  for (const id of [...ids, ...edges.flatMap((e) => [e.source, e.target])]) {
    if (!index.has(id)) {
      index.set(id, order.length);
      order.push(id);
    }
  }
  const successors: number[][] = order.map(() => []);
  const predecessors: number[][] = order.map(() => []);
  const selfLoop = order.map(() => false);
  const seen = new Set<string>();
  const first = edges.map((e) => {
    const s = index.get(e.source)!;
    const t = index.get(e.target)!;
    if (seen.has(`${s} ${t}`)) return 0;
    seen.add(`${s} ${t}`);
    successors[s].push(t);
    predecessors[t].push(s);
    if (s === t) selfLoop[s] = true;
    return 1;
  });
  return { graph: { ids: order, index, successors, predecessors, selfLoop }, first };
}

describe('graph primitives: buildGraph', () => {
  it('random graphs, wide fan-outs and parallel edges included', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 30 }), fc.array(fc.tuple(fc.nat({ max: 3 }), fc.nat({ max: 40 })), { maxLength: 120 }), (size, pairs) => {
        const ids = Array.from({ length: size }, (_, i) => `n${i}`);
        // few sources and many targets (some outside \`ids\`): fan-outs past the set threshold
        const edges = pairs.map(([s, t]) => ({ source: `n${s}`, target: `n${t}` }));
        const expected = graphByDefinition(ids, edges);
        const built = graphOfEdges(ids, edges);
        assert.deepEqual(built.graph, expected.graph);
        assert.deepEqual(buildGraph(ids, edges), expected.graph);
        assert.deepEqual([...built.first], expected.first);
        edges.forEach((e, k) => {
          assert.equal(built.endpoints[2 * k], expected.graph.index.get(e.source));
          assert.equal(built.endpoints[2 * k + 1], expected.graph.index.get(e.target));
        });
      }),
      { numRuns: 300 },
    );
  });
});

/** The components by definition: u and v share one when each reaches the other. */
function byDefinition(graph: Graph, all: boolean): number[][] {
  const n = graph.ids.length;
  const reach = graph.ids.map((_, start) => {
    const seen = new Array<boolean>(n).fill(false);
    const queue = [start];
    seen[start] = true;
    for (let head = 0; head < queue.length; head++) {
      for (const next of graph.successors[queue[head]]) {
        if (!seen[next]) {
          seen[next] = true;
          queue.push(next);
        }
      }
    }
    return seen;
  });
  const placed = new Array<boolean>(n).fill(false);
  const out: number[][] = [];
  for (let u = 0; u < n; u++) {
    if (placed[u]) continue;
    const component: number[] = [];
    for (let v = u; v < n; v++) {
      if (!placed[v] && reach[u][v] && reach[v][u]) {
        placed[v] = true;
        component.push(v);
      }
    }
    if (all || component.length > 1 || graph.selfLoop[u]) out.push(component);
  }
  return out;
}

const graphs: { readonly name: string; readonly ids: readonly string[]; readonly edges: readonly [string, string][] }[] = [
  { name: 'empty', ids: [], edges: [] },
  { name: 'a chain', ids: ['a', 'b', 'c'], edges: [['a', 'b'], ['b', 'c']] },
  { name: 'a self-loop', ids: ['a', 'b'], edges: [['a', 'a'], ['a', 'b']] },
  { name: 'two cycles joined', ids: ['a', 'b', 'c', 'd', 'e'], edges: [['a', 'b'], ['b', 'a'], ['b', 'c'], ['c', 'd'], ['d', 'e'], ['e', 'c']] },
  { name: 'a cycle found from its far end', ids: ['d', 'c', 'b', 'a'], edges: [['a', 'b'], ['b', 'c'], ['c', 'a'], ['d', 'a']] },
];

describe('graph primitives: stronglyConnected', () => {
  for (const row of graphs) {
    for (const all of [false, true]) {
      it(`${row.name}${all ? ' (all components)' : ''}`, () => {
        const graph = buildGraph(row.ids, row.edges.map(([source, target]) => ({ source, target })));
        assert.deepEqual(stronglyConnected(graph, { all }), byDefinition(graph, all));
      });
    }
  }

  it('random graphs', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 12 }), fc.array(fc.tuple(fc.nat({ max: 11 }), fc.nat({ max: 11 })), { maxLength: 30 }), fc.boolean(), (size, pairs, all) => {
        const ids = Array.from({ length: size }, (_, i) => `n${i}`);
        const edges = size === 0 ? [] : pairs.map(([s, t]) => ({ source: ids[s % size], target: ids[t % size] }));
        const graph = buildGraph(ids, edges);
        assert.deepEqual(stronglyConnected(graph, { all }), byDefinition(graph, all));
      }),
      { numRuns: 300 },
    );
  });
});

describe('graph primitives: sortAscending', () => {
  const lists: readonly number[][] = [[], [1], [2, 1], [3, 1, 2, 1], Array.from({ length: 40 }, (_, i) => (i * 7919) % 41)];
  for (const list of lists) {
    it(`${list.length} numbers`, () => assert.deepEqual(sortAscending(list.slice()), list.slice().sort((a, b) => a - b)));
  }
});
