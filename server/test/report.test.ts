/**
 * The shape of the `darkprint/report` answer (../src/requests.ts): a cycle listed once with the
 * findings of its members pointing at it, each node's place written once, and an answer that
 * grows with the bundle, not with the square of a cycle's length.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { addBundle, createDatabase, snapshotOf } from '../src/database';
import { report, type ReportAnswer } from '../src/requests';
import { lineIndex } from '../../shared/src/text';

const root = path.resolve('/workspace/bundle');

const stepCard = (id: string, extra = ''): string =>
  `id: ${id}\nname: ${id}\ntype: agent\nphase: implementation\naction: step\nspec: Takes one step of the work and hands it on to the next one.\ninputs:\n  - name: work\n    type: markdown\noutputs:\n  - name: work\n    type: markdown\n${extra}version: 1.0.0\n`;

function answerFor(files: Record<string, string>): ReportAnswer {
  const db = createDatabase((file) => pathToFileURL(file).href);
  const bundle = addBundle(db, root, new Map(Object.entries(files)));
  const answer = report(snapshotOf(db, bundle), pathToFileURL(root).href);
  assert.ok('security' in answer, JSON.stringify(answer));
  return answer;
}

/** A topology of one cycle through `size` nodes `n0` … `n<size-1>`, all pinning one card. */
function ring(size: number): Record<string, string> {
  const lines = ['digraph g {'];
  for (let i = 0; i < size; i++) lines.push(`  n${i} [card="step@1.0.0"];`);
  for (let i = 0; i < size; i++) lines.push(`  n${i} -> n${(i + 1) % size};`);
  lines.push('}', '');
  return { 'topology.dot': lines.join('\n'), 'cards/step@1.0.0.yaml': stepCard('step') };
}

describe('server: the report answer', () => {
  it('lists a cycle once; its members point at it, and one that also declares the marker keeps its own words', () => {
    const topology = [
      'digraph g {',
      '  a [card="step@1.0.0"];',
      '  b [card="marked@1.0.0"];',
      '  c [card="step@1.0.0"];',
      '  d [card="step@1.0.0"];',
      '  a -> b;',
      '  b -> c;',
      '  c -> a;',
      '  d -> d;',
      '}',
      '',
    ].join('\n');
    const answer = answerFor({
      'topology.dot': topology,
      'cards/step@1.0.0.yaml': stepCard('step'),
      'cards/marked@1.0.0.yaml': stepCard('marked', 'risk_markers: [unbounded-loop]\n'),
    });
    const { cycles, findings } = answer.security;
    assert.deepEqual(
      cycles.map((c) => c.members),
      [['a', 'b', 'c'], ['d']],
    );
    assert.match(cycles[0].explanation, /^These 3 nodes form a cycle where no node declares an iteration cap/);
    assert.match(cycles[0].hint, /on the card of one of a, b and c\.$/);
    assert.match(cycles[1].explanation, /^The node has an edge to itself/);
    assert.match(cycles[1].hint, /on the card of d\.$/);

    const loops = findings.filter((f) => f.marker === 'unbounded-loop');
    assert.deepEqual(
      loops.map((f) => [f.nodeId, f.establishedBy, f.cycle]),
      [
        ['a', 'inferred', 0],
        ['b', 'declared', 0],
        ['c', 'inferred', 0],
        ['d', 'inferred', 1],
      ],
    );
    for (const f of loops) assert.equal(f.path, undefined, `${f.nodeId} carries no copy of its cycle`);
    // what the cycle alone establishes, the cycle says; b also declares the marker, in its own words
    const [a, b] = loops;
    assert.equal(a.explanation, undefined);
    assert.equal(a.hint, undefined);
    assert.match(b.explanation ?? '', /declares the risk marker unbounded-loop, and sits in a cycle with a and c/);
    assert.equal(b.hint, cycles[0].hint);

    // every node a penalty names, placed once
    const { uri, ranges } = answer.locations;
    assert.equal(uri, pathToFileURL(path.join(root, 'topology.dot')).href);
    assert.deepEqual(Object.keys(ranges).sort(), ['a', 'b', 'c', 'd']);
    const index = lineIndex(topology);
    for (const id of ['a', 'b', 'c', 'd']) {
      const range = ranges[id];
      assert.equal(topology.slice(index.offsetAt(range.start), index.offsetAt(range.end)).split(' ')[0], id);
    }
    assert.deepEqual(answer.security.penalties.find((p) => p.marker === 'unbounded-loop')?.nodeIds, ['a', 'b', 'c', 'd']);
  });

  it('writes each node id of a cycle a fixed number of times, however long the cycle', () => {
    const times = (json: string, id: string): number => json.split(`"${id}"`).length - 1;
    for (const size of [50, 2000]) {
      const answer = answerFor(ring(size));
      assert.equal(answer.security.cycles.length, 1);
      assert.equal(answer.security.cycles[0].members.length, size);
      assert.equal(answer.security.findings.length, size);
      const json = JSON.stringify(answer);
      // the cycle's members, the penalty's nodes, the node's finding, its place, its phase
      for (const id of ['n0', `n${size >> 1}`, `n${size - 1}`]) assert.equal(times(json, id), 5, `${id} in a cycle of ${size}`);
      // the findings cost the same per node at any length (the hint, with its bounded list of ids, is the cycle's)
      assert.ok(json.length < 500 * size, `${json.length} characters for ${size} nodes`);
    }
  });
});
