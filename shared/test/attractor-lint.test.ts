/**
 * The Attractor lint (docs/compatibility.md#lint-rules): every attractor/* code fires exactly where
 * expected and nowhere else. Each fixture is a topology with its attractor/* findings annotated in
 * place.
 */
import assert from 'node:assert/strict';
import { assertDiagnostics, parseFixture } from './support/fixture';
import { parseDot } from '../src/syntax/dot-parser';
import { lintAttractor } from '../src/check/attractor-lint';
import { sortDiagnostics } from '../src/diagnostics';
import {
  attractorAttribute,
  isUsableNodeId,
  reservedAttributes,
  suggestNodeId,
} from '../src/syntax/attractor-table';

function lint(text: string) {
  return lintAttractor(parseDot(text), text);
}

function check(source: string): void {
  const fixture = parseFixture(source);
  const text = fixture.files[0].text;
  const found = lint(text);
  assertDiagnostics(fixture, found, ['attractor/']);
  for (const d of found) {
    assert.equal(d.location.file, 'topology.dot');
    assert.equal(d.severity, d.code === 'attractor/ignored-attribute' ? 'info' : 'warning');
  }
}

const cases: Record<string, string> = {
  'a clean topology has no Attractor findings': `
//- topology.dot
digraph starter {
  rankdir=LR;
  node [shape=box, style=rounded];
  tester [card="acceptance-tester@1.0.0", label="Tester"];
  tester -> debugger [label="failure", condition="outcome!=success"];
  tester -> deployer [label="approved", condition="outcome=success"];
  debugger -> tester [label="patch"];
}
`,

  // ---- strict-graph, multiple-graphs, undirected-graph ----------------------------------------
  'strict-graph on the strict keyword': `
//- topology.dot
  strict digraph g { a -> b }
//^^^^^^ warning attractor/strict-graph: remove \`strict\`
`,
  'multiple-graphs on the first token after the graph': `
//- topology.dot
digraph g { a -> b }
  digraph h { c }
//^^^^^^^ warning attractor/multiple-graphs
`,
  'a comment after the graph is not a second graph': `
//- topology.dot
digraph g { a -> b }
// the end
`,
  'undirected-graph is never reported': `
//- topology.dot
graph g { a -- b }
`,

  // ---- node ids ----------------------------------------------------------------------------
  'bad-node-id on ids that are not identifiers, on their first appearance': `
//- topology.dot
digraph g {
  "my node" -> b;
//^^^^^^^^^ warning attractor/bad-node-id: rename it, e.g. to \`my_node\`
//             ^ warning attractor/unguarded-fork: \`2fast\`, \`é\`
//^^^^^^^^^ warning attractor/quoted-node-id: \`my_node\`
  b -> 2fast;
//     ^^^^^ warning attractor/bad-node-id: \`n_2fast\`
  2fast -> "node";
//         ^^^^^^ warning attractor/bad-node-id: DOT keyword
//         ^^^^^^ warning attractor/quoted-node-id
  "b" -> é;
//^^^ warning attractor/quoted-node-id: write \`b\` without the quotes
//       ^ warning attractor/bad-node-id: \`é\`
}
`,
  'a hyphenated or keyword id already has a parse error, so no bad-node-id': `
//- topology.dot
digraph g { code-builder -> tester; node -> x }
`,
  'quoted-node-id only in node position': `
//- topology.dot
digraph "a" {
  "a" [label="a"];
//^^^ warning attractor/quoted-node-id
  "b";
//^^^ warning attractor/quoted-node-id
  c -> "b" -> c;
//     ^^^ warning attractor/quoted-node-id
  { "c" }
//  ^^^ warning attractor/quoted-node-id
  subgraph "a" { d }
  e [label="c", note="b"];
  "f"
  rank="a";
}
`,

  // ---- attr-separator, hash-comment, unsupported-value --------------------------------------
  'attr-separator on a ; and on the gap before a bare next key': `
//- topology.dot
digraph g {
  a [x=1; y=2 z=3, w=4];
//      ^ warning attractor/attr-separator: this is a \`;\`
//           ^ warning attractor/attr-separator: separated by a space
  b [x=1, y="a"z=2];
//             ^ warning attractor/attr-separator: add \`,\` before the next one
  c [x=1, y=2,];
  d [v=1.0.0, w=2];
}
`,
  'hash-comment from # to the end of the line, never inside strings or other comments': `
//- topology.dot
  # heading
//^^^^^^^^^ warning attractor/hash-comment
digraph g {
  a [label="#1"]; # trailing note
//                ^^^^^^^^^^^^^^^ warning attractor/hash-comment: write \`//\`
  // a # inside a line comment
  /* # inside a block */ b
}
`,
  'unsupported-value on +, on a number glued to letters that is not a duration, and on HTML': `
//- topology.dot
digraph g {
  a [label="x" + "y", timeout=5min, wait=900s, t=250ms, d=-2d, r=1.5h, n=30x];
//             ^ warning attractor/unsupported-value: \`+\`
//                            ^^^^ warning attractor/unsupported-value: \`5min\`
//                                                               ^^^^ warning attractor/unsupported-value: \`1.5h\`
//                                                                       ^^^ warning attractor/unsupported-value: \`30x\`
//                    ^^^^^^^ info attractor/ignored-attribute: \`timeout\`
  b [label=<<i>b</i>>];
//         ^^^^^^^^^^ warning attractor/unsupported-value: HTML-like
  goal = "a" + "b";
//           ^ warning attractor/unsupported-value
  timeout = 5min;
//          ^^^^ warning attractor/unsupported-value
}
`,

  // ---- reserved-attribute, ignored-attribute -------------------------------------------------
  'reserved-attribute on the type key, set on the node or by a default': `
//- topology.dot
digraph g {
  a [type="codergen"];
//   ^^^^ warning attractor/reserved-attribute: Node \`a\` sets \`type\`
  node [type=tool];
//      ^^^^ warning attractor/reserved-attribute: Node \`b\`
//      ^^^^ warning attractor/reserved-attribute: Node \`c\`
  b;
  c [label="type"];
}
`,
  'ignored-attribute on the key of runner-only node attributes, once per written key': `
//- topology.dot
digraph g {
  node [timeout="900s", shape=box, style=rounded];
//      ^^^^^^^ info attractor/ignored-attribute: on the node defaults
  a [prompt="Do it", label="A", card="a@1.0.0", "manager.max_cycles"=3];
//   ^^^^^^ info attractor/ignored-attribute: \`prompt\` on node \`a\`
//                                              ^^^^^^^^^^^^^^^^^^^^ info attractor/ignored-attribute: \`manager.max_cycles\`
  b [class="x"];
//   ^^^^^ info attractor/ignored-attribute
  a -> b [weight=2, fidelity="full"];
}
`,

  // ---- condition-syntax ------------------------------------------------------------------------
  'condition-syntax on the value, one per problem, naming the edge': `
//- topology.dot
digraph g {
  a -> b [condition="status=ok && outcome==fail"];
//^ warning attractor/unguarded-fork: the one to \`c\`
//                  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning attractor/condition-syntax: edge \`a -> b\` does not parse: \`status\`
//                  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ warning attractor/condition-syntax: \`==\`
  a -> c [condition=""];
//                  ^^ warning attractor/condition-syntax: The condition is empty
  a -> d [condition="outcome=success", weight=1];
  a -> e [condition="context.tests.passed=true && preferred_label=\\"Fix\\""];
}
`,
  'a condition set by an edge default is checked on every edge it reaches': `
//- topology.dot
digraph g {
  edge [condition="done"];
//                ^^^^^^ warning attractor/condition-syntax: \`a -> b\`
//                ^^^^^^ warning attractor/condition-syntax: \`b -> c\`
  a -> b -> c;
}
`,

  // ---- boundary-node-id ---------------------------------------------------------------------
  'boundary-node-id on start, Start, exit and end only': `
//- topology.dot
digraph g {
  start -> work;
//^^^^^ warning attractor/boundary-node-id: entry
//         ^^^^ warning attractor/unguarded-fork
  Start -> work;
//^^^^^ warning attractor/boundary-node-id: rename it, e.g. to \`Start_step\`
  work -> exit;
//        ^^^^ warning attractor/boundary-node-id: exit
  work -> end;
//        ^^^ warning attractor/boundary-node-id
  work -> START;
  work -> ending;
}
`,

  // ---- unguarded-fork -----------------------------------------------------------------------
  'unguarded-fork on the forking node when an arm has neither condition nor weight': `
//- topology.dot
digraph g {
  plan [card="p@1.0.0"];
//^^^^ warning attractor/unguarded-fork: the ones to \`a\`, \`b\` carry neither
  plan -> a;
  plan -> b [label="other"];
  check -> pass [condition="outcome=success"];
//^^^^^ warning attractor/unguarded-fork: the one to \`retry\`
  check -> retry [condition=" "];
//                          ^^^ warning attractor/condition-syntax: empty
  rank -> x [weight=2];
  rank -> y [condition="outcome=fail"];
  single -> z;
}
`,
};

describe('Attractor lint', () => {
  for (const [name, source] of Object.entries(cases)) it(name, () => check(source));

  it('lists a code 20 times, then one summary with no range', () => {
    const text = `digraph g {\n${Array.from({ length: 25 }, (_, i) => `  n${i} [x=1; y=2];`).join('\n')}\n}`;
    const separators = lint(text).filter((d) => d.code === 'attractor/attr-separator');
    assert.equal(separators.length, 21);
    const summary = separators.filter((d) => d.location.span === undefined);
    assert.equal(summary.length, 1);
    assert.match(summary[0].message, /25 times/);
    assert.deepEqual(summary[0].location, { file: 'topology.dot' });
  });

  it('caps each code on its own', () => {
    const text = `digraph g {\n${Array.from({ length: 22 }, (_, i) => `  "n${i}" [x=1; y=2]; # ${i}`).join('\n')}\n}`;
    const found = lint(text);
    for (const code of ['attractor/attr-separator', 'attractor/hash-comment', 'attractor/quoted-node-id']) {
      assert.equal(found.filter((d) => d.code === code).length, 21, code);
    }
  });

  it('uses the file name it is given and returns sorted findings', () => {
    const text = 'strict digraph g {\n  b [type=x];\n  a [timeout=5min] # z\n}';
    const found = lintAttractor(parseDot(text), text, 'pipelines/topology.dot');
    assert.ok(found.every((d) => d.location.file === 'pipelines/topology.dot'));
    assert.deepEqual(found, sortDiagnostics(found));
    assert.deepEqual(found.map((d) => d.code), [
      'attractor/strict-graph', 'attractor/reserved-attribute', 'attractor/unsupported-value', 'attractor/hash-comment', 'attractor/ignored-attribute',
    ]);
  });

  it('returns nothing without a graph', () => {
    assert.deepEqual(lint(''), []);
  });

  it('reads the Attractor table', () => {
    assert.equal(reservedAttributes.graph.length, 12);
    assert.equal(reservedAttributes.node.length, 28);
    assert.equal(reservedAttributes.edge.length, 6);
    assert.deepEqual(reservedAttributes.edge, ['label', 'condition', 'weight', 'fidelity', 'thread_id', 'loop_restart']);
    assert.deepEqual(reservedAttributes.node.slice(0, 4), ['label', 'shape', 'type', 'prompt']);
    assert.equal(attractorAttribute('node', 'timeout')?.valueType, 'duration');
    assert.equal(attractorAttribute('node', 'Timeout'), undefined);
    assert.equal(attractorAttribute('edge', 'prompt'), undefined);
    for (const scope of ['graph', 'node', 'edge'] as const) {
      for (const name of reservedAttributes[scope]) assert.ok(attractorAttribute(scope, name)?.description.endsWith('.'), `${scope} ${name}`);
    }
    assert.deepEqual(['planner', 'start', 'Node', 'code-builder', '2fast', 'a_b2'].map(isUsableNodeId), [true, false, false, false, false, true]);
    assert.deepEqual(
      ['code-builder', '"my node"', 'my node', '2fast', 'start', 'node', '---'].map((id) => suggestNodeId(id)),
      ['code_builder', 'my_node', 'my_node', 'n_2fast', 'start_step', 'node_step', 'node_step'],
    );
    assert.equal(suggestNodeId('code-builder', (c) => c === 'code_builder' || c === 'code_builder_2'), 'code_builder_3');
  });
});
