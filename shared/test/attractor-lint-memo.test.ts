/**
 * The lint's memo (`createLintMemo`): run after run over parses that resume from each other
 * (so that unchanged nodes and edges come back as the same objects), the lint must report what a
 * lint without a memo reports. Random topologies full of what the lint looks for (ids Attractor
 * cannot read, reserved attributes, broken conditions, unguarded forks) and random edits.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { dotParseReuse, parseDot } from '../src/syntax/dot-parser';
import { createLintMemo, lintAttractor } from '../src/check/attractor-lint';

const ids = ['a', 'b', 'start', 'exit', '"q r"', 'n1', '"9x"'];
const statement = fc.oneof(
  fc.tuple(fc.constantFrom(...ids), fc.constantFrom('', ' [type="tool"]', ' [timeout="5s", label="x"]', ' [shape=box, max_retries=2]')).map(([id, list]) => `${id}${list};`),
  fc.tuple(fc.constantFrom(...ids), fc.constantFrom(...ids), fc.constantFrom('', ' [condition="outcome=success"]', ' [condition="outcome=="]', ' [weight=2]', ' [condition=" "]')).map(([s, t, list]) => `${s} -> ${t}${list};`),
  fc.constantFrom('node [timeout="9s"];', 'edge [weight=1];', '# hash', 'a -> b -> a;', 'x = "1" + "2";'),
);
const topology = fc.array(statement, { minLength: 1, maxLength: 16 }).map((lines) => `digraph g {\n${lines.map((l) => `  ${l}\n`).join('')}}\n`);
const pieces = ['', '\n', ';', 'a -> b;', 'start;', ' [condition="x=="]', 'c -> a [weight=1];', '"', '}'];
const edit = fc.record({ at: fc.double({ min: 0, max: 1, noNaN: true }), remove: fc.nat({ max: 8 }), insert: fc.constantFrom(...pieces) });

/** The statements above over many more ids, so that a line typed in the middle often names only new nodes (the parse then takes the rest). */
const manyIds = [...ids, ...Array.from({ length: 40 }, (_, i) => `m${i}`)];
const spreadStatement = fc.oneof(
  fc.tuple(fc.constantFrom(...manyIds), fc.constantFrom('', ' [type="tool"]', ' [timeout="5s", label="x"]', ' [shape=box, max_retries=2]')).map(([id, list]) => `${id}${list};`),
  fc.tuple(fc.constantFrom(...manyIds), fc.constantFrom(...manyIds), fc.constantFrom('', ' [condition="outcome=success"]', ' [condition="outcome=="]', ' [weight=2]')).map(([s, t, list]) => `${s} -> ${t}${list};`),
  fc.constantFrom('node [timeout="9s"];', 'edge [weight=1];', '# hash'),
);
/** A line edit: a statement added before line `at`, line `at` taken out, or replaced. */
const lineEdit = fc.record({ kind: fc.constantFrom('add', 'remove', 'replace'), at: fc.nat(), line: spreadStatement });

describe('attractor lint: its memo', () => {
  it('reports what a lint without a memo reports when whole lines are typed or taken out in the middle (the parse takes the rest from the earlier one)', () => {
    let taken = 0;
    let runs = 0;
    fc.assert(
      fc.property(fc.array(spreadStatement, { minLength: 2, maxLength: 16 }), fc.array(lineEdit, { minLength: 1, maxLength: 6 }), (start, edits) => {
        const memo = createLintMemo();
        const text = (lines: readonly string[]): string => `digraph g {\n${lines.map((l) => `  ${l}\n`).join('')}}\n`;
        let lines = start;
        let parse = parseDot(text(lines));
        lintAttractor(parse, text(lines), 'topology.dot', memo);
        for (const e of edits) {
          const at = e.at % (lines.length + 1);
          lines = e.kind === 'add' ? [...lines.slice(0, at), e.line, ...lines.slice(at)] : e.kind === 'remove' ? [...lines.slice(0, at), ...lines.slice(at + 1)] : [...lines.slice(0, at), e.line, ...lines.slice(at + 1)];
          const current = text(lines);
          parse = parseDot(current, 'topology.dot', parse);
          runs++;
          if (dotParseReuse(parse)?.taken !== undefined) taken++;
          assert.deepStrictEqual(lintAttractor(parse, current, 'topology.dot', memo), lintAttractor(parse, current), current);
        }
      }),
      { numRuns: 400 },
    );
    // the property must have met parses that took nodes and edges from the earlier one
    assert.ok(taken > runs / 10, `only ${taken} of ${runs} parses took the end of the earlier one`);
  });

  it('reports, run after run over resumed parses, what a lint without a memo reports', () => {
    fc.assert(
      fc.property(topology, fc.array(edit, { minLength: 1, maxLength: 8 }), (text, edits) => {
        const memo = createLintMemo();
        let current = text;
        let parse = parseDot(current);
        assert.deepStrictEqual(lintAttractor(parse, current, 'topology.dot', memo), lintAttractor(parse, current));
        for (const e of edits) {
          const at = Math.floor(e.at * current.length);
          current = current.slice(0, at) + e.insert + current.slice(at + e.remove);
          parse = parseDot(current, 'topology.dot', parse);
          assert.deepStrictEqual(lintAttractor(parse, current, 'topology.dot', memo), lintAttractor(parse, current), current);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('keeps what it read of the nodes and edges a resumed parse hands back', () => {
    const text = 'digraph g {\n  start [timeout="5s"];\n  b;\n  start -> b;\n  start -> c;\n}\n';
    const memo = createLintMemo();
    const first = parseDot(text);
    const before = lintAttractor(first, text, 'topology.dot', memo);
    const kept = { edgeFindings: memo.edges.output, facts: memo.nodes.output!.map((item) => item?.output) };
    const longer = text.replace('\n}', '\n  d;\n}');
    const second = parseDot(longer, 'topology.dot', first);
    assert.deepStrictEqual(lintAttractor(second, longer, 'topology.dot', memo), lintAttractor(second, longer));
    assert.equal(memo.edges.output, kept.edgeFindings, 'the edge findings are kept while every edge is the same object');
    assert.equal(memo.nodes.output![0]?.output, kept.facts[0], 'the facts of a node handed back are kept');
    assert.ok(before.some((d) => d.code === 'attractor/unguarded-fork') && before.some((d) => d.code === 'attractor/boundary-node-id'));
  });

  // Edits before the edges that leave them reading the same: the findings are the earlier ones,
  // reported where the edges and nodes now are (their messages, made once, are kept).
  const moves: readonly { readonly name: string; readonly edit: (text: string) => string }[] = [
    { name: 'text typed into a label before the edges', edit: (text) => text.replace('label="top"', 'label="top, edited"') },
    { name: 'a node added on its own line before the forks', edit: (text) => text.replace('  start [', '  extra;\n  start [') },
    { name: 'a comment removed before the edges', edit: (text) => text.replace('  // the fork\n', '') },
  ];
  for (const { name, edit } of moves) {
    it(`keeps its edge findings, moved, after ${name}`, () => {
      const text = 'digraph g {\n  label="top";\n  b;\n  start [timeout="5s"];\n  // the fork\n  start -> b;\n  start -> c;\n  b -> c [condition="outcome=="];\n  b -> start;\n}\n';
      const memo = createLintMemo();
      const first = parseDot(text);
      const before = lintAttractor(first, text, 'topology.dot', memo);
      assert.ok(before.some((d) => d.code === 'attractor/unguarded-fork') && before.some((d) => d.code === 'attractor/condition-syntax'));
      const kept = memo.edges.output!;
      const edited = edit(text);
      assert.notEqual(edited, text);
      const second = parseDot(edited, 'topology.dot', first);
      assert.deepStrictEqual(lintAttractor(second, edited, 'topology.dot', memo), lintAttractor(second, edited));
      assert.equal(memo.edges.output!.messages, kept.messages, 'the edge findings are the earlier ones, moved');
    });
  }
});
