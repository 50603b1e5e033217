/**
 * `topologyShape` built on the previous parse's shape (../src/bundle/topology-shape.ts) must be
 * the shape built afresh, and must leave the previous one as it was. Random topologies and
 * random edits of the kinds the builder takes shortcuts for (attributes changed, nodes and edges
 * added at the end, isolated nodes removed from the end) and of kinds it does not.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseDot } from '../src/syntax/dot-parser';
import { topologyShape, type TopologyShape } from '../src/bundle/topology-shape';

function plain(shape: TopologyShape): unknown {
  const g = shape.graph;
  return {
    ids: [...g.ids],
    index: [...g.index.entries()],
    successors: g.successors.map((l) => [...l]),
    predecessors: g.predecessors.map((l) => [...l]),
    selfLoop: [...g.selfLoop],
    aligned: shape.aligned,
    endpoints: [...shape.endpoints],
    firstEdgeIndexes: shape.firstEdgeIndexes.map((l) => [...l]),
    edges: shape.edges,
    diagnostics: shape.diagnostics,
  };
}

function shapeOf(text: string, previous?: TopologyShape): TopologyShape {
  const graph = parseDot(text, 'topology.dot').graph;
  assert.ok(graph, text);
  return topologyShape(graph, 'topology.dot', previous);
}

/** Checks the shape of `after` built on `before`'s against one built afresh; returns both shapes. */
function check(before: string, after: string): { earlier: TopologyShape; grown: TopologyShape } {
  const earlier = shapeOf(before);
  const snapshot = plain(earlier);
  const grown = shapeOf(after, earlier);
  assert.deepStrictEqual(plain(grown), plain(shapeOf(after)), `--- before\n${before}\n--- after\n${after}`);
  assert.deepStrictEqual(plain(earlier), snapshot, 'the previous shape changed');
  return { earlier, grown };
}

const ids = ['a', 'b', 'c', 'd', 'e'];
const line = fc.oneof(
  fc.constantFrom(...ids).map((id) => `${id} [card="${id}@1.0.0"];`),
  fc.tuple(fc.constantFrom(...ids), fc.constantFrom(...ids), fc.constantFrom('', ' [label="x"]')).map(([s, t, a]) => `${s} -> ${t}${a};`),
);
const body = fc.array(line, { maxLength: 10 });
const text = (lines: readonly string[]): string => `digraph g {\n${lines.map((l) => `  ${l}\n`).join('')}}\n`;

describe('topology shape built on the previous one', () => {
  it('is the shape built afresh, for lines added at the end, removed from the end, relabelled or changed anywhere', () => {
    fc.assert(
      fc.property(body, fc.array(line, { maxLength: 4 }), fc.nat({ max: 4 }), fc.nat(), (lines, added, removed, at) => {
        const before = text(lines);
        check(before, text([...lines, ...added]));
        check(before, text(lines.slice(0, Math.max(0, lines.length - removed))));
        check(before, before.replace(/label="x"/, 'label="y"'));
        if (lines.length > 0) check(before, text(lines.filter((_, i) => i !== at % lines.length)));
        check(before, text([...added, ...lines]));
        // a run of lines added in the middle, and the same taken out again
        const middle = lines.length === 0 ? 0 : at % (lines.length + 1);
        const spliced = [...lines.slice(0, middle), ...added, ...lines.slice(middle)];
        check(before, text(spliced));
        check(text(spliced), before);
        check(before, text([...lines.slice(0, middle), ...lines.slice(middle + removed)]));
      }),
      { numRuns: 600 },
    );
  });

  const base = ['a [card="a@1.0.0"];', 'b [card="b@1.0.0"];', 'a -> b;'];
  const cases: readonly { readonly name: string; readonly after: readonly string[]; readonly graph: 'same' | 'new' }[] = [
    { name: 'an edge relabelled', after: ['a [card="a@1.0.0"];', 'b [card="b@1.0.0"];', 'a -> b [label="x"];'], graph: 'same' },
    { name: 'an isolated node added at the end', after: [...base, 'z [card="z@1.0.0"];'], graph: 'new' },
    { name: 'an edge added at the end', after: [...base, 'b -> a;'], graph: 'new' },
    { name: 'a parallel edge added at the end', after: [...base, 'a -> b;'], graph: 'new' },
    { name: 'nodes reordered', after: ['b [card="b@1.0.0"];', 'a [card="a@1.0.0"];', 'a -> b;'], graph: 'new' },
  ];
  for (const c of cases) {
    it(`keeps the previous graph ${c.graph === 'same' ? 'as it is' : 'unchanged'} when ${c.name}`, () => {
      const { earlier, grown } = check(text(base), text(c.after));
      if (c.graph === 'same') assert.equal(grown.graph, earlier.graph);
      else assert.notEqual(grown.graph, earlier.graph);
    });
  }

  it('renumbers the previous graph for a node and its edge typed in the middle, keeping the lists of the nodes before it', () => {
    const lines = ['a [card="a@1.0.0"];', 'b [card="b@1.0.0"];', 'a -> b;', 'c [card="c@1.0.0"];', 'd [card="d@1.0.0"];', 'c -> d;', 'b -> c;'];
    const withNode = [...lines.slice(0, 3), 'm [card="m@1.0.0"];', 'a -> m;', ...lines.slice(3)];
    const { earlier, grown } = check(text(lines), text(withNode));
    assert.deepStrictEqual([...grown.graph.ids], ['a', 'b', 'm', 'c', 'd']);
    assert.equal(grown.graph.predecessors[1], earlier.graph.predecessors[1], 'the list of b (before the new node, nothing in it moved) is kept');
    assert.notEqual(grown.graph.successors[0], earlier.graph.successors[0], 'the list of a gained m');
    assert.deepStrictEqual([...grown.graph.successors[0]], [1, 2]);
    // and back: the node and its edge taken out
    const back = check(text(withNode), text(lines));
    assert.equal(back.grown.graph.predecessors[1], back.earlier.graph.predecessors[1]);
  });

  it('builds afresh where a parallel edge added in the middle would come before the first of its pair', () => {
    const lines = ['a [card="a@1.0.0"];', 'b [card="b@1.0.0"];', 'a -> b [label="first"];'];
    check(text(lines), text(['a -> b [label="earlier"];', ...lines]));
    check(text(['a -> b;', ...lines]), text(lines));
  });

  it('takes an isolated node off the end, and starts over when the node removed has an edge', () => {
    const longer = [...base, 'z [card="z@1.0.0"];'];
    const { grown } = check(text(longer), text(base));
    assert.deepStrictEqual([...grown.graph.ids], ['a', 'b']);
    check(text([...base, 'b -> z;']), text(base));
  });
});
