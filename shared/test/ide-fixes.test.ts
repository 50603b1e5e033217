/**
 * Quick fixes (docs/compatibility.md#quick-fixes): every fix, applied. Each case names the
 * diagnostic to fix (the one under the `$0` cursor, else the first with that code), the action (by
 * a part of its title), and the files after the edit (only those listed are compared; a file
 * renamed away must be gone). Unless `remains` is set, the code must no longer be reported once the
 * edit is applied and the bundle re-read (with `ownNode`, on the fixed diagnostic's node); with
 * `clean`, no code may appear in a file that did not report it before (a fix that makes a finding
 * of its own); with `noNewError`, no error may (a file the fix creates reports none). `show` is the
 * place the action opens. A case with `titles: []` asserts that nothing is offered.
 */
import assert from 'node:assert/strict';
import { loadBundle } from '../src/bundle/resolve';
import type { Diagnostic, DiagnosticCode } from '../src/diagnostics';
import { applyWorkspaceEdit, codeActions, type CodeAction } from '../src/ide';
import { parseFixture } from './support/fixture';
import { card, loadFixture } from './support/ide';

interface FixCase {
  readonly fixture: string;
  /** The diagnostic to fix; omitted for the topology's `source.fixAll`. */
  readonly code?: DiagnosticCode;
  readonly title: string;
  readonly expected: string;
  /** Every title offered for the diagnostic, when the list itself matters. */
  readonly titles?: readonly string[];
  /** The titles of the actions marked preferred, when that matters. */
  readonly preferred?: readonly string[];
  readonly remains?: true;
  /** No file reports a code after the fix that it did not report before. */
  readonly clean?: true;
  /** The finding must be gone from its own node only (another node keeps one of the same code). */
  readonly ownNode?: true;
  /** No file reports an error after the fix that it did not report before (a new file: none at all). */
  readonly noNewError?: true;
  /** Findings (`<file> <code>`) the fix must bring, such as the warning that a placeholder stands to be written. */
  readonly warns?: readonly string[];
  /** The place the action opens: its file and the text there (empty for a point), and whether completion is asked there. */
  readonly show?: { readonly file: string; readonly text: string; readonly suggest?: true };
}

const idCodes: readonly DiagnosticCode[] = ['dot/parse-error', 'attractor/bad-node-id', 'attractor/quoted-node-id', 'attractor/boundary-node-id'];

/** Card diagnostics come with a topology: a fixture without one gets an empty graph. */
function withTopology(source: string): string {
  return /^\/\/- [^\n]*\.dot$/m.test(source) ? source : `\n//- topology.dot\ndigraph g {}${source}`;
}

function checkFix(c: FixCase): void {
  const { bundle, fixture } = loadFixture(withTopology(c.fixture));
  let actions: CodeAction[];
  let fixed: Diagnostic | undefined;
  if (c.code === undefined) {
    actions = codeActions(bundle, 'topology.dot', { start: 0, end: 0 }, []).filter((a) => a.kind === 'source.fixAll');
  } else {
    const cursor = fixture.cursor;
    const found = bundle.result.diagnostics.filter(
      (d) =>
        d.code === c.code &&
        (cursor === undefined || (d.location.file === cursor.path && d.location.span !== undefined && d.location.span.start <= cursor.offset && cursor.offset <= d.location.span.end)),
    );
    assert.ok(found.length > 0, `no ${c.code} in ${bundle.result.diagnostics.map((d) => d.code).join(', ')}`);
    const diagnostic = found[0];
    fixed = diagnostic;
    actions = codeActions(bundle, diagnostic.location.file ?? '', diagnostic.location.span ?? { start: 0, end: 0 }, [diagnostic]).filter((a) => a.kind === 'quickfix');
  }
  if (c.titles !== undefined) assert.deepEqual(actions.map((a) => a.title), c.titles);
  if (c.preferred !== undefined) assert.deepEqual(actions.filter((a) => a.isPreferred === true).map((a) => a.title), c.preferred, 'the preferred actions');
  if (c.titles !== undefined && c.titles.length === 0) return;
  const action = actions.find((a) => a.title.includes(c.title));
  assert.ok(action, `no action titled "${c.title}" in: ${actions.map((a) => a.title).join(' | ')}`);
  const before = new Map([...bundle.files].map(([path, f]) => [path, f.text] as const));
  const after = applyWorkspaceEdit(before, action.edit);
  for (const r of action.edit.renames ?? []) assert.ok(!after.has(r.from), `${r.from} was renamed away`);
  for (const f of parseFixture(c.expected).files) assert.equal(after.get(f.path), f.text, `text of ${f.path}`);
  for (const created of action.edit.creates ?? []) assert.ok(!before.has(created.file), `${created.file} is created, not written over`);
  if (c.show !== undefined) {
    assert.ok(action.show, 'the action opens a place');
    assert.equal(action.show.file, c.show.file);
    assert.equal((after.get(action.show.file) ?? '').slice(action.show.span.start, action.show.span.end), c.show.text);
    assert.equal(action.show.suggest, c.show.suggest);
  }
  if (c.remains) return;
  const again = loadBundle([...after].map(([path, text]) => ({ path, text })), { folderName: 'fixture' });
  const codes = c.code === undefined ? idCodes : [c.code];
  const left = again.diagnostics.filter((d) => codes.includes(d.code) && (c.ownNode !== true || d.location.nodeId === fixed?.location.nodeId));
  assert.deepEqual(left.map((d) => `${d.code}: ${d.message}`), [], 'the fix leaves the finding in place');
  for (const warning of c.warns ?? []) assert.ok(again.diagnostics.some((d) => `${d.location.file ?? ''} ${d.code}` === warning), `the fix brings ${warning}`);
  if (c.noNewError) {
    const errors = new Set(bundle.result.diagnostics.filter((d) => d.severity === 'error').map((d) => `${d.location.file ?? ''} ${d.code}`));
    const added = again.diagnostics.filter((d) => d.severity === 'error' && !errors.has(`${d.location.file ?? ''} ${d.code}`));
    assert.deepEqual(added.map((d) => `${d.location.file ?? ''} ${d.code}: ${d.message}`), [], 'the fix brings a new error');
  }
  if (!c.clean) return;
  const reported = new Set(bundle.result.diagnostics.map((d) => `${d.location.file ?? ''} ${d.code}`));
  const added = again.diagnostics.filter((d) => !reported.has(`${d.location.file ?? ''} ${d.code}`));
  assert.deepEqual(added.map((d) => `${d.location.file ?? ''} ${d.code}: ${d.message}`), [], 'the fix brings a new finding');
}

const a1 = card({ id: 'a', outputs: [['draft', 'markdown'], ['notes', 'json']] });
const a2 = card({ id: 'a', version: '2.0.0', outputs: [['draft', 'markdown'], ['notes', 'json']] });
const b1 = card({ id: 'b', inputs: [['prose', 'text']] });
const cards = `
//- cards/a@1.0.0.yaml
${a1}
//- cards/a@2.0.0.yaml
${a2}`;

/** A card's YAML with the given lines in place of its last line (`version`). */
function cardWith(id: string, lines: string): string {
  return `id: ${id}
name: ${id}
type: agent
action: act
spec: Does one well-defined step of the pipeline and reports what it did.
inputs: []
outputs: []
${lines}
version: 1.0.0`;
}

const cases: Record<string, FixCase> = {
  // ---- node ids
  'a hyphenated id is renamed everywhere it occurs': {
    code: 'dot/parse-error',
    title: 'Rename node `code-builder` to `code_builder` everywhere',
    fixture: `
//- topology.dot
digraph g {
  code-builder [label="code-builder"];
  code-builder -> tester;
  tester -> code-builder;
}`,
    expected: `
//- topology.dot
digraph g {
  code_builder [label="code-builder"];
  code_builder -> tester;
  tester -> code_builder;
}`,
  },
  'a keyword in node position is renamed': {
    code: 'dot/parse-error',
    title: 'Rename node `node` to `node_step`',
    fixture: `
//- topology.dot
digraph g { node -> x; x -> node; }`,
    expected: `
//- topology.dot
digraph g { node_step -> x; x -> node_step; }`,
  },
  '`Node [..]` where `Node` names a node elsewhere: both fixes offered, the plain rename preferred': {
    code: 'dot/parse-error',
    title: '`Node [...]` on line 2 included (as written it sets defaults for the nodes after it',
    titles: [
      'Rename node `Node` to `Node_step` everywhere',
      "Rename node `Node` to `Node_step` everywhere, `Node [...]` on line 2 included (as written it sets defaults for the nodes after it, not this node's attributes)",
    ],
    preferred: ['Rename node `Node` to `Node_step` everywhere'],
    fixture: `
//- topology.dot
digraph g {
  Node [card="a@1.0.0"];
  Node -> b;
  c -> Node [label="back"];
  node [shape=box];
}${cards}`,
    expected: `
//- topology.dot
digraph g {
  Node_step [card="a@1.0.0"];
  Node_step -> b;
  c -> Node_step [label="back"];
  node [shape=box];
}`,
  },
  '`Node [..]` inside braces that are an edge\'s end is no declaration to offer (it would gain the edges)': {
    code: 'dot/parse-error',
    title: 'Rename node `Node` to `Node_step`',
    titles: ['Rename node `Node` to `Node_step` everywhere'],
    fixture: `
//- topology.dot
digraph g { a -> { Node [shape=box] }; { Node [shape=box] } -> c; subgraph s { Node [label="x"] } -> d; Node -> b; }`,
    expected: `
//- topology.dot
digraph g { a -> { Node [shape=box] }; { Node [shape=box] } -> c; subgraph s { Node [label="x"] } -> d; Node_step -> b; }`,
  },
  '`Node [..]` in an unclosed graph, inside braces that are an edge\'s end further out: not offered': {
    code: 'dot/parse-error',
    title: 'Rename node `Node` to `Node_step`',
    titles: ['Rename node `Node` to `Node_step` everywhere'],
    remains: true,
    fixture: `
//- topology.dot
digraph g { Node -> b; a -> { subgraph t { Node [shape=box];`,
    expected: `
//- topology.dot
digraph g { Node_step -> b; a -> { subgraph t { Node [shape=box];`,
  },
  '`Edge [..]` where `Edge` names a node: the title says it sets edge defaults; inside a cluster it is offered': {
    code: 'dot/parse-error',
    title: 'included (as written it sets defaults for the edges after it',
    titles: [
      'Rename node `Edge` to `Edge_step` everywhere',
      "Rename node `Edge` to `Edge_step` everywhere, `Edge [...]` on line 2 included (as written it sets defaults for the edges after it, not this node's attributes)",
    ],
    fixture: `
//- topology.dot
digraph g {
  subgraph cluster_a { Edge [label="x"]; }
  Edge -> b;
}`,
    expected: `
//- topology.dot
digraph g {
  subgraph cluster_a { Edge_step [label="x"]; }
  Edge_step -> b;
}`,
  },
  'a lowercase `node [..]` is a defaults statement the keyword fix leaves alone': {
    code: 'dot/parse-error',
    title: 'Rename node `node` to `node_step`',
    titles: ['Rename node `node` to `node_step` everywhere'],
    fixture: `
//- topology.dot
digraph g { node [shape=box]; node -> x; }`,
    expected: `
//- topology.dot
digraph g { node [shape=box]; node_step -> x; }`,
  },
  'a quoted id with a leading digit gets a prefix': {
    code: 'attractor/bad-node-id',
    title: 'to `n_2fast`',
    fixture: `
//- topology.dot
digraph g { "2fast" -> b; b -> "2fast"; }`,
    expected: `
//- topology.dot
digraph g { n_2fast -> b; b -> n_2fast; }`,
  },
  'a quoted id with a space': {
    code: 'attractor/bad-node-id',
    title: 'Rename node `my node` to `my_node`',
    fixture: `
//- topology.dot
digraph g { "my node" -> b; }`,
    expected: `
//- topology.dot
digraph g { my_node -> b; }`,
  },
  'a quoted usable id loses its quotes': {
    code: 'attractor/quoted-node-id',
    title: 'Write node `writer` without quotes everywhere',
    fixture: `
//- topology.dot
digraph g { "writer" [label="writer"]; writer -> b; b -> "writer"; }`,
    expected: `
//- topology.dot
digraph g { writer [label="writer"]; writer -> b; b -> writer; }`,
  },
  'the boundary id start becomes start_step on every line it occurs, and only there': {
    code: 'attractor/boundary-node-id',
    title: 'Rename node `start` to `start_step` everywhere',
    fixture: `
//- topology.dot
// start here: the start node is the entry
digraph g {
  label="start";
  start [card="a@1.0.0", label="start"];
  subgraph cluster_start { start; restart; }
  start -> b -> start_step2;
  b -> start;
  {start b} -> c;
  c -> "start";
  c [card="c@1.0.0"];
}${cards}
//- cards/c@1.0.0.yaml
${card({ id: 'c', inputs: [['in', 'text']], dependencies: ['start'] })}`,
    expected: `
//- topology.dot
// start here: the start node is the entry
digraph g {
  label="start";
  start_step [card="a@1.0.0", label="start"];
  subgraph cluster_start { start_step; restart; }
  start_step -> b -> start_step2;
  b -> start_step;
  {start_step b} -> c;
  c -> start_step;
  c [card="c@1.0.0"];
}
//- cards/c@1.0.0.yaml
${card({ id: 'c', inputs: [['in', 'text']], dependencies: ['start_step'] })}`,
  },
  'a boundary id that pins its card by its id under a version default keeps that card: its statement takes a card= pin': {
    code: 'attractor/boundary-node-id',
    title: 'Rename node `start` to `start_step` everywhere',
    clean: true,
    fixture: `
//- topology.dot
digraph g {
  node [version="1.0.0"];
  start [label="entry"];
  start -> b;
  b [card="b@1.0.0"];
}
//- cards/start@1.0.0.yaml
${card({ id: 'start', outputs: [['prose', 'text']] })}
//- cards/b@1.0.0.yaml
${b1}`,
    expected: `
//- topology.dot
digraph g {
  node [version="1.0.0"];
  start_step [card="start@1.0.0"] [label="entry"];
  start_step -> b;
  b [card="b@1.0.0"];
}`,
  },
  'fix all with a glued start-1 and a start pinned by its id under a version default: the glued run is rewritten, and no pin lands inside it': {
    title: 'Fix all node ids (2 nodes)',
    fixture: `
//- topology.dot
digraph g {
  node [version="1.0.0"];
  start-1 [label="x"];
  start -> b;
}`,
    expected: `
//- topology.dot
digraph g {
  node [version="1.0.0"];
  start_1 [label="x"];
  start_step -> b;
}`,
  },
  'fix all on a topology whose only unusable ids are quoted: they are written bare': {
    title: 'Fix all node ids (1 node)',
    fixture: `
//- topology.dot
digraph g { "writer" -> b; b -> "writer"; }`,
    expected: `
//- topology.dot
digraph g { writer -> b; b -> writer; }`,
  },
  'fix all reaches a hyphenated subgraph name after the graph, which reads as no parse error': {
    title: 'Fix all graph names (1 graph name)',
    fixture: `
//- topology.dot
digraph g { a }
subgraph s-x { b }`,
    expected: `
//- topology.dot
digraph g { a }
subgraph s_x { b }`,
  },
  'exit and end are boundary ids too': {
    code: 'attractor/boundary-node-id',
    title: 'Rename node `end` to `end_step`',
    fixture: `
//- topology.dot
digraph g { a -> end; }`,
    expected: `
//- topology.dot
digraph g { a -> end_step; }`,
  },
  'fix all node ids at once': {
    title: 'Fix all node ids (6 nodes)',
    fixture: `
//- topology.dot
digraph g {
  code-builder -> "my node" -> start;
  "ok" -> end;
  fine -> node;
}`,
    expected: `
//- topology.dot
digraph g {
  code_builder -> my_node -> start_step;
  ok -> end_step;
  fine -> node_step;
}`,
  },
  'a glued `step-1` (DOT: the nodes `step` and `-1`) becomes the one id meant, everywhere it is written so': {
    code: 'attractor/bad-node-id',
    title: 'Rename `step-1` to `step_1` everywhere',
    titles: ['Rename `step-1` to `step_1` everywhere (DOT reads `step` and `-1` as separate nodes)', 'Rename node `-1` to `n_1` everywhere'],
    preferred: ['Rename `step-1` to `step_1` everywhere (DOT reads `step` and `-1` as separate nodes)'],
    clean: true,
    fixture: `
//- topology.dot
digraph g {
  fetch -> step-1 -> publish;
  step-1 [label="Step one"];
}`,
    expected: `
//- topology.dot
digraph g {
  fetch -> step_1 -> publish;
  step_1 [label="Step one"];
}`,
  },
  'renaming the `-1` of a glued `step-1` keeps it apart from `step` (the graph DOT reads is unchanged)': {
    code: 'attractor/bad-node-id',
    title: 'Rename node `-1` to `n_1` everywhere',
    clean: true,
    fixture: `
//- topology.dot
digraph g { fetch -> step-1 -> publish; }`,
    expected: `
//- topology.dot
digraph g { fetch -> step n_1 -> publish; }`,
  },
  'a keyword glued to a number (`node-1`): the parse error offers the id meant': {
    code: 'dot/parse-error',
    title: 'Rename `node-1` to `node_1` everywhere',
    clean: true,
    fixture: `
//- topology.dot
digraph g { fetch -> node-1; }`,
    expected: `
//- topology.dot
digraph g { fetch -> node_1; }`,
  },
  'fix all: each glued run becomes its id, other occurrences are renamed apart from their neighbours': {
    title: 'Fix all node ids (2 nodes)',
    clean: true,
    fixture: `
//- topology.dot
digraph g {
  fetch -> step-1 -> publish;
  check-1 -> publish;
  step-1 [label="Step one"];
  "q"-1 -> publish;
}`,
    expected: `
//- topology.dot
digraph g {
  fetch -> step_1 -> publish;
  check_1 -> publish;
  step_1 [label="Step one"];
  q n_1 -> publish;
}`,
  },
  // ---- DOT syntax
  'a semicolon between attributes becomes a comma': {
    code: 'attractor/attr-separator',
    title: 'Replace `;` with `,`',
    fixture: `
//- topology.dot
digraph g { a [label="x"; shape=box]; }`,
    expected: `
//- topology.dot
digraph g { a [label="x", shape=box]; }`,
  },
  'a space between attributes becomes a comma': {
    code: 'attractor/attr-separator',
    title: 'Separate the attributes with `,`',
    fixture: `
//- topology.dot
digraph g { a [label="x" shape=box]; }`,
    expected: `
//- topology.dot
digraph g { a [label="x", shape=box]; }`,
  },
  'a separator after a string left open: no fix (the comma would land inside the string)': {
    code: 'attractor/attr-separator',
    title: '',
    titles: [],
    fixture: `
//- topology.dot
digraph g {
  a [label="x
  shape=box];
}`,
    expected: '',
  },
  'a `;` after a string left open: no fix': {
    code: 'attractor/attr-separator',
    title: '',
    titles: [],
    fixture: `
//- topology.dot
digraph g {
  a [label="x
  ; shape=box];
}`,
    expected: '',
  },
  'a separator after a string closed on a later line goes after its closing quote': {
    code: 'attractor/attr-separator',
    title: 'Separate the attributes with `,`',
    fixture: `
//- topology.dot
digraph g {
  a [label="x
y"
  shape=box];
}`,
    expected: `
//- topology.dot
digraph g {
  a [label="x
y",
  shape=box];
}`,
  },
  'a # comment becomes //': {
    code: 'attractor/hash-comment',
    title: 'Write the comment with `//`',
    fixture: `
//- topology.dot
digraph g {
  a; # the only node
}`,
    expected: `
//- topology.dot
digraph g {
  a; // the only node
}`,
  },
  'every -- becomes ->': {
    code: 'dot/not-directed',
    title: 'Replace every `--` with `->`',
    fixture: `
//- topology.dot
digraph g { a -- b; b -- c; }`,
    expected: `
//- topology.dot
digraph g { a -> b; b -> c; }`,
  },
  'graph becomes digraph, with its edges': {
    code: 'dot/not-directed',
    title: 'Declare the graph with `digraph` and its edges with `->`',
    fixture: `
//- topology.dot
graph g { a -- b; }`,
    expected: `
//- topology.dot
digraph g { a -> b; }`,
  },
  'strict is dropped': {
    code: 'attractor/strict-graph',
    title: 'Remove `strict`',
    fixture: `
//- topology.dot
strict digraph g { a; }`,
    expected: `
//- topology.dot
digraph g { a; }`,
  },
  'type on a node is removed, the last attribute': {
    code: 'attractor/reserved-attribute',
    title: 'Remove `type` from node `a`',
    fixture: `
//- topology.dot
digraph g { a [label="A", type="codergen"]; }`,
    expected: `
//- topology.dot
digraph g { a [label="A"]; }`,
  },
  'type on a node is removed, the first attribute': {
    code: 'attractor/reserved-attribute',
    title: 'Remove `type`',
    fixture: `
//- topology.dot
digraph g { a [type="codergen", label="A"]; }`,
    expected: `
//- topology.dot
digraph g { a [label="A"]; }`,
  },
  'type on a node is removed with its list when it is alone': {
    code: 'attractor/reserved-attribute',
    title: 'Remove `type`',
    fixture: `
//- topology.dot
digraph g { a [type="codergen"]; }`,
    expected: `
//- topology.dot
digraph g { a; }`,
  },
  'type alone in a node default goes with the whole statement and its line': {
    code: 'attractor/reserved-attribute',
    title: 'Remove `type` from the node defaults',
    fixture: `
//- topology.dot
digraph g {
  node [type="box"];
  a -> b;
}`,
    expected: `
//- topology.dot
digraph g {
  a -> b;
}`,
    clean: true,
  },
  'type alone in a node default inside a cluster: the statement goes, the cluster stays': {
    code: 'attractor/reserved-attribute',
    title: 'Remove `type` from the node defaults',
    fixture: `
//- topology.dot
digraph g {
  subgraph cluster_x { node [type=x]; a; b; }
  a -> b;
}`,
    expected: `
//- topology.dot
digraph g {
  subgraph cluster_x { a; b; }
  a -> b;
}`,
    clean: true,
  },
  'type among other node defaults leaves the others': {
    code: 'attractor/reserved-attribute',
    title: 'Remove `type` from the node defaults',
    fixture: `
//- topology.dot
digraph g {
  node [shape=box, type="box"]; // boxes
  a -> b;
}`,
    expected: `
//- topology.dot
digraph g {
  node [shape=box]; // boxes
  a -> b;
}`,
  },
  'type as the last attribute before a trailing comma leaves no comma behind': {
    code: 'attractor/reserved-attribute',
    title: 'Remove `type` from node `a`',
    fixture: `
//- topology.dot
digraph g { a [label="A", type="codergen",]; }`,
    expected: `
//- topology.dot
digraph g { a [label="A"]; }`,
  },
  // ---- graph names
  'a hyphenated subgraph name is renamed with underscores': {
    code: 'dot/parse-error',
    title: 'Rename subgraph `s-x` to `s_x`',
    fixture: `
//- topology.dot
digraph g {
  subgraph s-x$0 { a; b; }
  a -> b;
}`,
    expected: `
//- topology.dot
digraph g {
  subgraph s_x { a; b; }
  a -> b;
}`,
    clean: true,
  },
  'a hyphenated subgraph name does not take a name another subgraph has': {
    code: 'dot/parse-error',
    title: 'Rename subgraph `s-x` to `s_x_2`',
    fixture: `
//- topology.dot
digraph g {
  subgraph s_x { a; }
  subgraph s-x$0 { b; }
  a -> b;
}`,
    expected: `
//- topology.dot
digraph g {
  subgraph s_x { a; }
  subgraph s_x_2 { b; }
  a -> b;
}`,
  },
  'fix all renames subgraph names with the node ids': {
    title: 'Fix all node ids and graph names (1 node, 1 graph name)',
    fixture: `
//- topology.dot
digraph g {
  subgraph s-x { code-builder; }
  code-builder -> b;
}`,
    expected: `
//- topology.dot
digraph g {
  subgraph s_x { code_builder; }
  code_builder -> b;
}`,
  },
  'fix all is offered for a subgraph name alone': {
    title: 'Fix all graph names (1 graph name)',
    fixture: `
//- topology.dot
digraph g {
  subgraph cluster-one { a; }
}`,
    expected: `
//- topology.dot
digraph g {
  subgraph cluster_one { a; }
}`,
  },
  // ---- pins
  'a pinned card whose file fails to load: no pin is offered, not even the pin itself': {
    code: 'bundle/missing-card',
    title: '',
    titles: [],
    fixture: `
//- topology.dot
digraph g { w [card="writer@1.0.0"]; z [card="zeta@1.0.0"]; }
//- cards/writer@1.0.0.yaml
${card({ id: 'writer', outputs: [['draft', 'markdwn']] })}
//- cards/zeta@1.0.0.yaml
${card({ id: 'zeta' })}`,
    expected: '',
  },
  'a pinned card whose file fails to load: the loaded versions of that id are offered': {
    code: 'bundle/missing-card',
    title: 'Pin `writer@0.9.0`',
    titles: ['Pin `writer@0.9.0`'],
    fixture: `
//- topology.dot
digraph g { w [card="writer@1.0.0"]; }
//- cards/writer@1.0.0.yaml
${card({ id: 'writer', outputs: [['draft', 'markdwn']] })}
//- cards/writer@0.9.0.yaml
${card({ id: 'writer', version: '0.9.0', outputs: [['draft', 'markdown']] })}`,
    expected: `
//- topology.dot
digraph g { w [card="writer@0.9.0"]; }`,
  },
  'a card file named for the pinned version but declaring another: writing the pinned version in it comes first': {
    code: 'bundle/missing-card',
    title: 'Write version `1.1.0` in cards/writer@1.1.0.yaml',
    titles: ['Write version `1.1.0` in cards/writer@1.1.0.yaml', 'Pin `writer@1.0.0`'],
    preferred: ['Write version `1.1.0` in cards/writer@1.1.0.yaml'],
    fixture: `
//- topology.dot
digraph g { w [card="writer@1.1.0"]; }
//- cards/writer@1.1.0.yaml
${card({ id: 'writer' })}`,
    expected: `
//- cards/writer@1.1.0.yaml
${card({ id: 'writer', version: '1.1.0' })}`,
  },
  'a JSON card file named for the pinned version but declaring another: the version is written as a JSON string': {
    code: 'bundle/missing-card',
    title: 'Write version `1.1.0` in cards/writer@1.1.0.json',
    fixture: `
//- topology.dot
digraph g { w [card="writer@1.1.0"]; }
//- cards/writer@1.1.0.json
{"id": "writer", "name": "W", "type": "agent", "action": "act", "spec": "Writes.", "inputs": [], "outputs": [], "version": "1.0.0"}`,
    expected: `
//- cards/writer@1.1.0.json
{"id": "writer", "name": "W", "type": "agent", "action": "act", "spec": "Writes.", "inputs": [], "outputs": [], "version": "1.1.0"}`,
  },
  'a misspelt id: only the cards close to the pin are offered': {
    code: 'bundle/missing-card',
    title: 'Pin `writer@1.0.0`',
    titles: ['Pin `writer@1.0.0`', 'Pin `waiter@1.1.0`', 'Create card `writr@1.0.0` in cards/writr@1.0.0.yaml'],
    fixture: `
//- topology.dot
digraph g { x [card="writr@1.0.0"]; }
//- cards/writer@1.0.0.yaml
${card({ id: 'writer' })}
//- cards/waiter@1.1.0.yaml
${card({ id: 'waiter', version: '1.1.0' })}
//- cards/reviewer@1.0.0.yaml
${card({ id: 'reviewer' })}
//- cards/a@1.0.0.yaml
${card({ id: 'a' })}`,
    expected: `
//- topology.dot
digraph g { x [card="writer@1.0.0"]; }`,
  },
  'a missing version: at most five versions are offered, the newest first': {
    code: 'bundle/missing-card',
    title: 'Pin `a@6.0.0`',
    titles: ['Pin `a@6.0.0`', 'Pin `a@5.0.0`', 'Pin `a@4.0.0`', 'Pin `a@3.0.0`', 'Pin `a@2.0.0`'],
    fixture: `
//- topology.dot
digraph g { x [card="a@9.0.0"]; }${[1, 2, 3, 4, 5, 6].map((v) => `\n//- cards/a@${v}.0.0.yaml\n${card({ id: 'a', version: `${v}.0.0` })}`).join('')}`,
    expected: `
//- topology.dot
digraph g { x [card="a@6.0.0"]; }`,
  },
  'a missing version: pin one the bundle holds, the newest first': {
    code: 'bundle/missing-card',
    title: 'Pin `a@2.0.0`',
    titles: ['Pin `a@2.0.0`', 'Pin `a@1.0.0`'],
    fixture: `
//- topology.dot
digraph g { x [card="a@3.0.0"]; }${cards}`,
    expected: `
//- topology.dot
digraph g { x [card="a@2.0.0"]; }`,
  },
  'a misspelt id: pin the nearest card': {
    code: 'bundle/missing-card',
    title: 'Pin `writer@1.0.0`',
    fixture: `
//- topology.dot
digraph g { x [card="writr@1.0.0"]; }
//- cards/writer@1.0.0.yaml
${card({ id: 'writer' })}`,
    expected: `
//- topology.dot
digraph g { x [card="writer@1.0.0"]; }`,
    remains: true, // the card is now pinned; nothing else is missing, but the bundle has no other card to orphan
  },
  'a misspelt id with a missing version: the versions of the nearest ids are offered, newest first': {
    code: 'bundle/missing-card',
    title: 'Pin `writer@2.0.0`',
    titles: ['Pin `writer@2.0.0`', 'Pin `writer@1.0.0`', 'Create card `wrtr@9.9.9` in cards/wrtr@9.9.9.yaml'],
    fixture: `
//- topology.dot
digraph g { x [card="wrtr@9.9.9"]; }
//- cards/writer@1.0.0.yaml
${card({ id: 'writer' })}
//- cards/writer@2.0.0.yaml
${card({ id: 'writer', version: '2.0.0' })}
//- cards/reviewer@1.0.0.yaml
${card({ id: 'reviewer' })}`,
    expected: `
//- topology.dot
digraph g { x [card="writer@2.0.0"]; }`,
    remains: true, // the node is pinned now; the other cards stay orphans
  },
  'a misspelt id: nearest ids first, each id\'s versions newest first, five at most, no card that fails to load': {
    code: 'bundle/missing-card',
    title: 'Pin `writer@3.0.0`',
    titles: ['Pin `writer@3.0.0`', 'Pin `writer@1.0.0`', 'Pin `waiter@2.0.0`', 'Pin `waiter@1.0.0`', 'Pin `writers@2.0.0`', 'Create card `writr@1.0.0` in cards/writr@1.0.0.yaml'],
    fixture: `
//- topology.dot
digraph g { x [card="writr@1.0.0"]; }
//- cards/writer@1.0.0.yaml
${card({ id: 'writer' })}
//- cards/writer@2.0.0.yaml
${card({ id: 'writer', version: '2.0.0', outputs: [['draft', 'markdwn']] })}
//- cards/writer@3.0.0.yaml
${card({ id: 'writer', version: '3.0.0' })}
//- cards/waiter@1.0.0.yaml
${card({ id: 'waiter' })}
//- cards/waiter@2.0.0.yaml
${card({ id: 'waiter', version: '2.0.0' })}
//- cards/writers@1.0.0.yaml
${card({ id: 'writers' })}
//- cards/writers@2.0.0.yaml
${card({ id: 'writers', version: '2.0.0' })}`,
    expected: `
//- topology.dot
digraph g { x [card="writer@3.0.0"]; }`,
    remains: true,
  },
  'a short misspelt id: one edit at most': {
    code: 'bundle/missing-card',
    title: 'Pin `ab@1.0.0`',
    titles: ['Pin `ab@1.0.0`', 'Create card `ac@1.0.0` in cards/ac@1.0.0.yaml'],
    fixture: `
//- topology.dot
digraph g { x [card="ac@1.0.0"]; }
//- cards/ab@1.0.0.yaml
${card({ id: 'ab' })}
//- cards/xy@1.0.0.yaml
${card({ id: 'xy' })}`,
    expected: `
//- topology.dot
digraph g { x [card="ab@1.0.0"]; }`,
    remains: true,
  },
  'a misspelt id: a card whose outputs fit the node\'s edges comes before a nearer one whose do not': {
    code: 'bundle/missing-card',
    title: 'Pin `waiter@1.0.0`',
    titles: ['Pin `waiter@1.0.0`', 'Pin `writer@1.0.0`', 'Create card `writr@1.0.0` in cards/writr@1.0.0.yaml'],
    fixture: `
//- topology.dot
digraph g { x [card="writr@1.0.0"]; y [card="b@1.0.0"]; x -> y; }
//- cards/writer@1.0.0.yaml
${card({ id: 'writer', outputs: [['state', 'status']] })}
//- cards/waiter@1.0.0.yaml
${card({ id: 'waiter', outputs: [['draft', 'markdown']] })}
//- cards/b@1.0.0.yaml
${card({ id: 'b', inputs: [['prose', 'text']], dependencies: ['waiter'] })}`,
    expected: `
//- topology.dot
digraph g { x [card="waiter@1.0.0"]; y [card="b@1.0.0"]; x -> y; }`,
    clean: true,
  },
  'a misspelt id: a card that lacks the input an edge names comes after one that has it': {
    code: 'bundle/missing-card',
    title: 'Pin `waiter@1.0.0`',
    titles: ['Pin `waiter@1.0.0`', 'Pin `writer@1.0.0`', 'Create card `writr@1.0.0` in cards/writr@1.0.0.yaml'],
    fixture: `
//- topology.dot
digraph g { w [card="a@1.0.0"]; x [card="writr@1.0.0"]; w -> x [in="brief"]; }${cards}
//- cards/writer@1.0.0.yaml
${card({ id: 'writer', inputs: [['notes', 'text']] })}
//- cards/waiter@1.0.0.yaml
${card({ id: 'waiter', inputs: [['brief', 'text']], dependencies: ['a'] })}`,
    expected: `
//- topology.dot
digraph g { w [card="a@1.0.0"]; x [card="waiter@1.0.0"]; w -> x [in="brief"]; }`,
  },
  'a loose version is pinned exactly': {
    code: 'bundle/unpinned-card',
    title: 'Pin `a@1.0.0`',
    fixture: `
//- topology.dot
digraph g { x [card="a@1.x"]; }${cards}`,
    expected: `
//- topology.dot
digraph g { x [card="a@1.0.0"]; }`,
  },
  'a node named like a card gets a card= attribute': {
    code: 'bundle/unpinned-card',
    title: 'Pin `a@1.0.0`',
    fixture: `
//- topology.dot
digraph g { a; }${cards}`,
    expected: `
//- topology.dot
digraph g { a [card="a@1.0.0"]; }`,
  },
  'a node with attributes gets the pin first in its list': {
    code: 'bundle/unpinned-card',
    title: 'Pin `a@2.0.0`',
    fixture: `
//- topology.dot
digraph g { a [label="A"]; }${cards}`,
    expected: `
//- topology.dot
digraph g { a [card="a@2.0.0", label="A"]; }`,
  },
  'a version= pin is fixed in place': {
    code: 'bundle/unpinned-card',
    title: 'Pin version `1.0.0`',
    fixture: `
//- topology.dot
digraph g { a [version="1.x"]; }${cards}`,
    expected: `
//- topology.dot
digraph g { a [version="1.0.0"]; }`,
  },
  'a node only edges mention is declared with its pin': {
    code: 'bundle/unpinned-card',
    title: 'Pin `b@1.0.0`',
    fixture: `
//- topology.dot
digraph g {
  x [card="a@1.0.0"];
  x -> b$0;
}${cards}
//- cards/b@1.0.0.yaml
${b1}`,
    expected: `
//- topology.dot
digraph g {
  x [card="a@1.0.0"];
  b [card="b@1.0.0"];
  x -> b;
}`,
  },
  'a node only edges mention, on the line of the graph header: declared just before its statement, on that line': {
    code: 'bundle/unpinned-card',
    title: 'Pin `b@1.0.0`',
    fixture: `
//- topology.dot
digraph g { x [card="a@1.0.0"]; y -> x -> b$0 }${cards}
//- cards/b@1.0.0.yaml
${b1}`,
    expected: `
//- topology.dot
digraph g { x [card="a@1.0.0"]; b [card="b@1.0.0"]; y -> x -> b }`,
  },
  'a node only edges mention, after a port and a subgraph endpoint: declared before the whole statement': {
    code: 'bundle/unpinned-card',
    title: 'Pin `b@1.0.0`',
    fixture: `
//- topology.dot
digraph g {
  x [card="a@1.0.0"];
  subgraph s { y } -> x:out:ne -> b$0;
}${cards}
//- cards/b@1.0.0.yaml
${b1}`,
    expected: `
//- topology.dot
digraph g {
  x [card="a@1.0.0"];
  b [card="b@1.0.0"];
  subgraph s { y } -> x:out:ne -> b;
}`,
  },
  'a node statement with a port and no list: the pin goes after the port': {
    code: 'bundle/unpinned-card',
    title: 'Pin `b@1.0.0`',
    fixture: `
//- topology.dot
digraph g { x [card="a@1.0.0"]; b$0:p:n; x -> b; }${cards}
//- cards/b@1.0.0.yaml
${b1}`,
    expected: `
//- topology.dot
digraph g { x [card="a@1.0.0"]; b:p:n [card="b@1.0.0"]; x -> b; }`,
  },
  // ---- ports
  'a port name the card lacks: the nearest fitting port first': {
    code: 'bundle/port-mismatch',
    title: 'Use output `draft`',
    titles: ['Use output `draft` (markdown)', 'Use output `notes` (json)', 'Add output `drafts` (`text`) to `a@1.0.0`'],
    fixture: `
//- topology.dot
digraph g { x [card="a@1.0.0"]; y [card="b@1.0.0"]; x -> y [out="drafts"]; }${cards}
//- cards/b@1.0.0.yaml
${card({ id: 'b', inputs: [['prose', 'text']], dependencies: ['a'] })}`,
    expected: `
//- topology.dot
digraph g { x [card="a@1.0.0"]; y [card="b@1.0.0"]; x -> y [out="draft"]; }`,
  },
  'an input name the card lacks': {
    code: 'bundle/port-mismatch',
    title: 'Use input `prose`',
    fixture: `
//- topology.dot
digraph g { x [card="a@1.0.0"]; y [card="b@1.0.0"]; x -> y [in="pros"]; }${cards}
//- cards/b@1.0.0.yaml
${card({ id: 'b', inputs: [['prose', 'text']], dependencies: ['a'] })}`,
    expected: `
//- topology.dot
digraph g { x [card="a@1.0.0"]; y [card="b@1.0.0"]; x -> y [in="prose"]; }`,
  },
  'a port name the card lacks beside a pinned port on the other end: the ports that fit that port come first': {
    code: 'bundle/port-mismatch',
    title: 'Use output `draft`',
    titles: ['Use output `draft` (markdown)', 'Use output `notes` (json)', 'Add output `note` (`text`) to `a@1.0.0`'],
    preferred: ['Use output `draft` (markdown)'],
    fixture: `
//- topology.dot
digraph g { x [card="a@1.0.0"]; y [card="b@1.0.0"]; x -> y [out="note", in="prose"]; }${cards}
//- cards/b@1.0.0.yaml
${card({ id: 'b', inputs: [['prose', 'text'], ['data', 'json']], dependencies: ['a'] })}`,
    expected: `
//- topology.dot
digraph g { x [card="a@1.0.0"]; y [card="b@1.0.0"]; x -> y [out="draft", in="prose"]; }`,
    clean: true,
  },
  'a port name the card lacks where no port fits the other end: none is preferred': {
    code: 'bundle/port-mismatch',
    title: 'Use output `draft`',
    titles: ['Use output `draft` (markdown)', 'Use output `notes` (json)', 'Add output `drafts` (`status`) to `a@1.0.0`'],
    preferred: [],
    fixture: `
//- topology.dot
digraph g { x [card="a@1.0.0"]; y [card="b@1.0.0"]; x -> y [out="drafts"]; }${cards}
//- cards/b@1.0.0.yaml
${card({ id: 'b', inputs: [['state', 'status']], dependencies: ['a'] })}`,
    expected: `
//- topology.dot
digraph g { x [card="a@1.0.0"]; y [card="b@1.0.0"]; x -> y [out="draft"]; }`,
  },
  'a port set by an edge default is fixed in the default when every edge it reaches lacks it': {
    code: 'bundle/port-mismatch',
    title: 'Use input `prose` (text) in the edge defaults',
    titles: ['Use input `prose` (text) in the edge defaults', 'Add input `pros` (`markdown`) to `b@1.0.0`'],
    fixture: `
//- topology.dot
digraph g {
  edge [in="pros"];
  x [card="a@1.0.0"]; y [card="b@1.0.0"]; z [card="b@1.0.0"];
  x -> y;
  x -> z;
}${cards}
//- cards/b@1.0.0.yaml
${card({ id: 'b', inputs: [['prose', 'text']], dependencies: ['a'] })}`,
    expected: `
//- topology.dot
digraph g {
  edge [in="prose"];
  x [card="a@1.0.0"]; y [card="b@1.0.0"]; z [card="b@1.0.0"];
  x -> y;
  x -> z;
}`,
    clean: true,
  },
  'a port set by an edge default that another edge it reaches has: the default kept, the input added to the card that lacks it': {
    code: 'bundle/port-mismatch',
    title: 'Add input `pros` (`markdown`) to `b@1.0.0`',
    titles: ['Add input `pros` (`markdown`) to `b@1.0.0`'],
    fixture: `
//- topology.dot
digraph g {
  edge [in="pros"];
  x [card="a@1.0.0"]; y [card="b@1.0.0"]; z [card="c@1.0.0"];
  x -> y;
  x -> z;
}${cards}
//- cards/b@1.0.0.yaml
${card({ id: 'b', inputs: [['prose', 'text']], dependencies: ['a'] })}
//- cards/c@1.0.0.yaml
${card({ id: 'c', inputs: [['pros', 'text']], dependencies: ['a'] })}`,
    expected: `
//- cards/b@1.0.0.yaml
${card({ id: 'b', inputs: [['prose', 'text'], ['pros', 'markdown']], dependencies: ['a'] })}`,
    noNewError: true,
  },
  'a port on a chain: only the names every pair of the statement has are offered': {
    code: 'bundle/port-mismatch',
    title: 'Use input `plan` (text)',
    titles: ['Use input `plan` (text)', 'Add input `pln` (`markdown`) to `b@1.0.0`'],
    fixture: `
//- topology.dot
digraph g { a [card="a@1.0.0"]; b [card="b@1.0.0"]; c [card="c@1.0.0"]; a -> b -> c [in="pln"]; }${cards}
//- cards/b@1.0.0.yaml
${card({ id: 'b', inputs: [['plan', 'text'], ['notes', 'text']], outputs: [['out', 'text']], dependencies: ['a'] })}
//- cards/c@1.0.0.yaml
${card({ id: 'c', inputs: [['plan', 'text'], ['brief', 'text']], dependencies: ['b'] })}`,
    expected: `
//- topology.dot
digraph g { a [card="a@1.0.0"]; b [card="b@1.0.0"]; c [card="c@1.0.0"]; a -> b -> c [in="plan"]; }`,
    clean: true,
  },
  'a port on a chain that no name of every pair fits: no rename, the input added to the card of the edge': {
    code: 'bundle/port-mismatch',
    title: 'Add input `pln` (`markdown`) to `b@1.0.0`',
    titles: ['Add input `pln` (`markdown`) to `b@1.0.0`'],
    fixture: `
//- topology.dot
digraph g { a [card="a@1.0.0"]; b [card="b@1.0.0"]; c [card="c@1.0.0"]; a -> b -> c [in="pln"]; }${cards}
//- cards/b@1.0.0.yaml
${card({ id: 'b', inputs: [['notes', 'text']], outputs: [['out', 'text']], dependencies: ['a'] })}
//- cards/c@1.0.0.yaml
${card({ id: 'c', inputs: [['plan', 'text']], dependencies: ['b'] })}`,
    expected: `
//- cards/b@1.0.0.yaml
${card({ id: 'b', inputs: [['notes', 'text'], ['pln', 'markdown']], outputs: [['out', 'text']], dependencies: ['a'] })}`,
    // (the edge b -> c still names an input c lacks: its own fix adds it there)
    remains: true,
  },
  'a port on a chain that another pair of the statement has: no rename, the input added to the card that lacks it': {
    code: 'bundle/port-mismatch',
    title: 'Add input `pln` (`text`) to `c@1.0.0`',
    titles: ['Add input `pln` (`text`) to `c@1.0.0`'],
    fixture: `
//- topology.dot
digraph g { a [card="a@1.0.0"]; b [card="b@1.0.0"]; c [card="c@1.0.0"]; a -> b -> c [in="pln"]; }${cards}
//- cards/b@1.0.0.yaml
${card({ id: 'b', inputs: [['pln', 'text']], outputs: [['out', 'text']], dependencies: ['a'] })}
//- cards/c@1.0.0.yaml
${card({ id: 'c', inputs: [['plan', 'text']], dependencies: ['b'] })}`,
    expected: `
//- cards/c@1.0.0.yaml
${card({ id: 'c', inputs: [['plan', 'text'], ['pln', 'text']], dependencies: ['b'] })}`,
    noNewError: true,
  },
  // ---- dependencies
  'two nodes pinning two versions of one card id: the supplier\'s id is added to the receiving version': {
    code: 'bundle/undeclared-dependency',
    title: 'Add `c` to the dependencies of `c@2.0.0`',
    titles: ['Add `c` to the dependencies of `c@2.0.0`'],
    fixture: `
//- topology.dot
digraph g { a [card="c@1.0.0"]; b [card="c@2.0.0"]; a -> b; }
//- cards/c@1.0.0.yaml
${card({ id: 'c', outputs: [['draft', 'text']] })}
//- cards/c@2.0.0.yaml
${card({ id: 'c', version: '2.0.0', inputs: [['notes', 'text']] })}`,
    expected: `
//- cards/c@2.0.0.yaml
${card({ id: 'c', version: '2.0.0', inputs: [['notes', 'text']] }).replace('outputs: []', 'outputs: []\ndependencies: [c]')}`,
    clean: true,
  },
  'two nodes pinning one card: the card is not made to depend on itself': {
    code: 'bundle/undeclared-dependency',
    title: '',
    titles: [],
    fixture: `
//- topology.dot
digraph g { w1 [card="w@1.0.0"]; w2 [card="w@1.0.0"]; w1 -> w2; }
//- cards/w@1.0.0.yaml
${card({ id: 'w', inputs: [['notes', 'text']], outputs: [['draft', 'text']] })}`,
    expected: '',
  },
  'a supplier of one of two nodes pinning a card: no entry the other node would miss': {
    code: 'bundle/undeclared-dependency',
    title: '',
    titles: [],
    fixture: `
//- topology.dot
digraph g { x [card="a@1.0.0"]; y1 [card="b@1.0.0"]; y2 [card="b@1.0.0"]; x -> y1; }${cards}
//- cards/b@1.0.0.yaml
${b1}`,
    expected: '',
  },
  'a supplier of every node pinning a card is added': {
    code: 'bundle/undeclared-dependency',
    title: 'Add `a` to the dependencies of `b@1.0.0`',
    fixture: `
//- topology.dot
digraph g { x [card="a@1.0.0"]; y1 [card="b@1.0.0"]; y2 [card="b@1.0.0"]; x -> y1; x -> y2; }${cards}
//- cards/b@1.0.0.yaml
${b1}`,
    expected: `
//- cards/b@1.0.0.yaml
${b1.replace('outputs: []', 'outputs: []\ndependencies: [a]')}`,
    clean: true,
  },
  'an undeclared supplier is added to a flow list in the card': {
    code: 'bundle/undeclared-dependency',
    title: 'Add `a` to the dependencies of `b@1.0.0`',
    fixture: `
//- topology.dot
digraph g { x [card="a@1.0.0"]; y [card="b@1.0.0"]; x -> y; }${cards}
//- cards/b@1.0.0.yaml
${card({ id: 'b', inputs: [['prose', 'text']], dependencies: [] })}`,
    expected: `
//- cards/b@1.0.0.yaml
${card({ id: 'b', inputs: [['prose', 'text']], dependencies: ['a'] })}`,
  },
  'an undeclared supplier is added to a block list': {
    code: 'bundle/undeclared-dependency',
    title: 'Add `a`',
    fixture: `
//- topology.dot
digraph g { x [card="a@1.0.0"]; z [card="z@1.0.0"]; y [card="b@1.0.0"]; x -> y; z -> y; }${cards}
//- cards/z@1.0.0.yaml
${card({ id: 'z', outputs: [['out', 'text']] })}
//- cards/b@1.0.0.yaml
${cardWith('b', 'dependencies:\n  - z').replace('inputs: []', 'inputs:\n  - name: prose\n    type: text')}`,
    expected: `
//- cards/b@1.0.0.yaml
${cardWith('b', 'dependencies:\n  - z\n  - a').replace('inputs: []', 'inputs:\n  - name: prose\n    type: text')}`,
  },
  'an undeclared supplier creates the dependencies field after outputs': {
    code: 'bundle/undeclared-dependency',
    title: 'Add `a`',
    fixture: `
//- topology.dot
digraph g { x [card="a@1.0.0"]; y [card="b@1.0.0"]; x -> y; }${cards}
//- cards/b@1.0.0.yaml
${b1}`,
    expected: `
//- cards/b@1.0.0.yaml
${b1.replace('outputs: []', 'outputs: []\ndependencies: [a]')}`,
  },
  'an undeclared supplier in a JSON card': {
    code: 'bundle/undeclared-dependency',
    title: 'Add `a`',
    fixture: `
//- topology.dot
digraph g { x [card="a@1.0.0"]; y [card="b@1.0.0"]; x -> y; }${cards}
//- cards/b@1.0.0.json
{"id": "b", "name": "b", "type": "agent", "action": "act", "spec": "Does one well-defined step of the pipeline and reports.", "inputs": [{"name": "prose", "type": "text"}], "outputs": [], "version": "1.0.0"}`,
    expected: `
//- cards/b@1.0.0.json
{"id": "b", "name": "b", "type": "agent", "action": "act", "spec": "Does one well-defined step of the pipeline and reports.", "inputs": [{"name": "prose", "type": "text"}], "outputs": [], "version": "1.0.0", "dependencies": ["a"]}`,
  },
  'a dependency no edge supplies is removed from a flow list': {
    code: 'bundle/missing-dependency',
    title: 'Remove `ghost` from the dependencies',
    fixture: `
//- topology.dot
digraph g { x [card="a@1.0.0"]; y [card="b@1.0.0"]; x -> y; }${cards}
//- cards/b@1.0.0.yaml
${card({ id: 'b', inputs: [['prose', 'text']], dependencies: ['a', 'ghost'] })}`,
    expected: `
//- cards/b@1.0.0.yaml
${card({ id: 'b', inputs: [['prose', 'text']], dependencies: ['a'] })}`,
  },
  'the only dependency of a block list leaves an empty list': {
    code: 'bundle/missing-dependency',
    title: 'Remove `ghost`',
    fixture: `
//- topology.dot
digraph g { y [card="b@1.0.0"]; }
//- cards/b@1.0.0.yaml
${cardWith('b', 'dependencies:\n  - ghost')}`,
    expected: `
//- cards/b@1.0.0.yaml
${cardWith('b', 'dependencies: []')}`,
  },
  'a dependency in the middle of a block list loses its line': {
    code: 'bundle/missing-dependency',
    title: 'Remove `ghost`',
    fixture: `
//- topology.dot
digraph g { x [card="a@1.0.0"]; y [card="b@1.0.0"]; x -> y; }${cards}
//- cards/b@1.0.0.yaml
${cardWith('b', 'dependencies:\n  - ghost\n  - a').replace('inputs: []', 'inputs:\n  - name: prose\n    type: text')}`,
    expected: `
//- cards/b@1.0.0.yaml
${cardWith('b', 'dependencies:\n  - a').replace('inputs: []', 'inputs:\n  - name: prose\n    type: text')}`,
  },
  'the only dependency of a block list: comments after the key and above the entry stay': {
    code: 'bundle/missing-dependency',
    title: 'Remove `ghost`',
    fixture: `
//- topology.dot
digraph g { y [card="b@1.0.0"]; }
//- cards/b@1.0.0.yaml
${cardWith('b', 'dependencies: # upstream cards\n  # ghost feeds the draft\n  - ghost  # why ghost')}`,
    expected: `
//- cards/b@1.0.0.yaml
${cardWith('b', 'dependencies: [] # upstream cards\n  # ghost feeds the draft')}`,
  },
  'a dependency of a block list goes with its own comment, the comment of the next line stays': {
    code: 'bundle/missing-dependency',
    title: 'Remove `ghost`',
    fixture: `
//- topology.dot
digraph g { x [card="a@1.0.0"]; y [card="b@1.0.0"]; x -> y; }${cards}
//- cards/b@1.0.0.yaml
${cardWith('b', 'dependencies:\n  - ghost  # why ghost\n  # about a\n  - a').replace('inputs: []', 'inputs:\n  - name: prose\n    type: text')}`,
    expected: `
//- cards/b@1.0.0.yaml
${cardWith('b', 'dependencies:\n  # about a\n  - a').replace('inputs: []', 'inputs:\n  - name: prose\n    type: text')}`,
  },
  'the last dependency of a flow list over lines: the comment of the line before stays': {
    code: 'bundle/missing-dependency',
    title: 'Remove `ghost`',
    fixture: `
//- topology.dot
digraph g { x [card="a@1.0.0"]; y [card="b@1.0.0"]; x -> y; }${cards}
//- cards/b@1.0.0.yaml
${cardWith('b', 'dependencies: [\n  a, # the drafts\n  ghost\n]').replace('inputs: []', 'inputs:\n  - name: prose\n    type: text')}`,
    expected: `
//- cards/b@1.0.0.yaml
${cardWith('b', 'dependencies: [\n  a # the drafts\n]').replace('inputs: []', 'inputs:\n  - name: prose\n    type: text')}`,
  },
  'a dependency of a flow list over lines: a comment line after it stays': {
    code: 'bundle/missing-dependency',
    title: 'Remove `ghost`',
    fixture: `
//- topology.dot
digraph g { x [card="a@1.0.0"]; y [card="b@1.0.0"]; x -> y; }${cards}
//- cards/b@1.0.0.yaml
${cardWith('b', 'dependencies: [\n  ghost,\n  # the drafts\n  a\n]').replace('inputs: []', 'inputs:\n  - name: prose\n    type: text')}`,
    expected: `
//- cards/b@1.0.0.yaml
${cardWith('b', 'dependencies: [\n  # the drafts\n  a\n]').replace('inputs: []', 'inputs:\n  - name: prose\n    type: text')}`,
  },
  'the last dependency of a flow list over lines goes with its own comment, the line before keeps its': {
    code: 'bundle/missing-dependency',
    title: 'Remove `ghost`',
    fixture: `
//- topology.dot
digraph g { x [card="a@1.0.0"]; y [card="b@1.0.0"]; x -> y; }${cards}
//- cards/b@1.0.0.yaml
${cardWith('b', 'dependencies: [\n  a, # first\n  ghost # second\n]').replace('inputs: []', 'inputs:\n  - name: prose\n    type: text')}`,
    expected: `
//- cards/b@1.0.0.yaml
${cardWith('b', 'dependencies: [\n  a # first\n]').replace('inputs: []', 'inputs:\n  - name: prose\n    type: text')}`,
    clean: true,
  },
  // ---- card fields
  'a retired field is dropped': {
    code: 'card/retired-field',
    title: 'Remove the retired field `requires_human`',
    fixture: `
//- cards/a@1.0.0.yaml
${cardWith('a', 'requires_human: true')}`,
    expected: `
//- cards/a@1.0.0.yaml
${cardWith('a', '').replace('\n\n', '\n')}`,
  },
  'a retired field is dropped from a JSON card': {
    code: 'card/retired-field',
    title: 'Remove the retired field `ontology_version`',
    fixture: `
//- cards/a@1.0.0.json
{"id": "a", "name": "a", "type": "agent", "action": "act", "spec": "Does one well-defined step of the pipeline and reports.", "ontology_version": "0.1", "inputs": [], "outputs": [], "version": "1.0.0"}`,
    expected: `
//- cards/a@1.0.0.json
{"id": "a", "name": "a", "type": "agent", "action": "act", "spec": "Does one well-defined step of the pipeline and reports.", "inputs": [], "outputs": [], "version": "1.0.0"}`,
  },
  'a repeated phase is dropped': {
    code: 'card/duplicate-phase',
    title: 'Remove the repeated phase `testing`',
    fixture: `
//- cards/a@1.0.0.yaml
${cardWith('a', 'phase: [testing, planning, testing]')}`,
    expected: `
//- cards/a@1.0.0.yaml
${cardWith('a', 'phase: [testing, planning]')}`,
  },
  'an unknown tool becomes the nearest tool': {
    code: 'card/unknown-term',
    title: 'Replace `shel` with `shell`',
    fixture: `
//- cards/a@1.0.0.yaml
${cardWith('a', 'tools: [git, shel]')}`,
    expected: `
//- cards/a@1.0.0.yaml
${cardWith('a', 'tools: [git, shell]')}`,
  },
  'an unknown node type, quoted, stays quoted': {
    code: 'card/unknown-term',
    title: 'Replace `agnet` with `agent`',
    fixture: `
//- cards/a@1.0.0.yaml
${cardWith('a', '').replace('type: agent', 'type: "agnet"')}`,
    expected: `
//- cards/a@1.0.0.yaml
${cardWith('a', '').replace('type: agent', 'type: "agent"')}`,
  },
  'an unknown port type becomes the nearest data type': {
    code: 'card/unknown-term',
    title: 'Replace `markdwn` with `markdown`',
    fixture: `
//- cards/a@1.0.0.yaml
${card({ id: 'a', outputs: [['draft', 'markdwn']] })}`,
    expected: `
//- cards/a@1.0.0.yaml
${card({ id: 'a', outputs: [['draft', 'markdown']] })}`,
  },
  'an unknown phase becomes the nearest phase': {
    code: 'card/unknown-phase',
    title: 'Replace `testng` with `testing`',
    fixture: `
//- cards/a@1.0.0.yaml
${cardWith('a', 'phase: [testng]')}`,
    expected: `
//- cards/a@1.0.0.yaml
${cardWith('a', 'phase: [testing]')}`,
  },
  'a term of the wrong kind becomes the nearest term of the right kind': {
    code: 'card/wrong-term-kind',
    title: 'Replace `acme/log` with `acme/logs`',
    fixture: `
//- ontology/extensions.yaml
terms:
  - { id: acme/log, kind: data-type, label: Log, description: A run log., since: "0.1.0", broader: text }
  - { id: acme/logs, kind: tool, label: Logs, description: Reads the logs., since: "0.1.0", broader: tool-capability }
//- cards/a@1.0.0.yaml
${cardWith('a', 'tools: [acme/log]')}`,
    expected: `
//- cards/a@1.0.0.yaml
${cardWith('a', 'tools: [acme/logs]')}`,
  },
  'a sentence in cannot moves to will_not': {
    code: 'card/unknown-term',
    title: 'Move the sentence to `will_not`',
    fixture: `
//- cards/a@1.0.0.yaml
${cardWith('a', 'cannot: [never pushes to main]')}`,
    expected: `
//- cards/a@1.0.0.yaml
${cardWith('a', 'cannot: []\nwill_not: ["never pushes to main"]')}`,
  },
  'the last sentence of a block cannot list moves to will_not': {
    code: 'card/unknown-term',
    title: 'Move the sentence to `will_not`',
    fixture: `
//- cards/a@1.0.0.yaml
${cardWith('a', 'cannot:\n  - json\n  - never pushes to ma$0in')}`,
    expected: `
//- cards/a@1.0.0.yaml
${cardWith('a', 'cannot:\n  - json\nwill_not: ["never pushes to main"]')}`,
  },
  'the only sentence of a block cannot list moves to will_not': {
    code: 'card/unknown-term',
    title: 'Move the sentence to `will_not`',
    fixture: `
//- cards/a@1.0.0.yaml
${cardWith('a', 'cannot:\n  - never pushes to ma$0in')}`,
    expected: `
//- cards/a@1.0.0.yaml
${cardWith('a', 'cannot: []\nwill_not: ["never pushes to main"]')}`,
  },
  'the last sentence of a block cannot list moves to will_not, CRLF kept': {
    code: 'card/unknown-term',
    title: 'Move the sentence to `will_not`',
    fixture: `
//- cards/a@1.0.0.yaml
${cardWith('a', 'cannot:\n  - json\n  - never pushes to ma$0in').replace(/\n/g, '\r\n')}`,
    expected: `
//- cards/a@1.0.0.yaml
${cardWith('a', 'cannot:\n  - json\nwill_not: ["never pushes to main"]').replace(/\n/g, '\r\n')}`,
  },
  'the last sentence of a block cannot list that ends the file moves to will_not, with no blank line': {
    code: 'card/unknown-term',
    title: 'Move the sentence to `will_not`',
    fixture: `
//- cards/a@1.0.0.yaml
${cardWith('a', '')}
cannot:
  - json
  - never pushes to ma$0in`,
    expected: `
//- cards/a@1.0.0.yaml
${cardWith('a', '')}
cannot:
  - json
will_not: ["never pushes to main"]
`,
  },
  'the last sentence of a flow cannot list moves to will_not': {
    code: 'card/unknown-term',
    title: 'Move the sentence to `will_not`',
    fixture: `
//- cards/a@1.0.0.yaml
${cardWith('a', 'cannot: [json, never pushes to ma$0in]')}`,
    expected: `
//- cards/a@1.0.0.yaml
${cardWith('a', 'cannot: [json]\nwill_not: ["never pushes to main"]')}`,
  },
  'the last sentence of a JSON card\'s cannot list moves to will_not': {
    code: 'card/unknown-term',
    title: 'Move the sentence to `will_not`',
    fixture: `
//- cards/a@1.0.0.json
{"id": "a", "name": "a", "type": "agent", "action": "act", "spec": "Does one well-defined step of the pipeline and reports what it did.", "inputs": [], "outputs": [], "cannot": ["json", "never pushes to ma$0in"], "version": "1.0.0"}`,
    expected: `
//- cards/a@1.0.0.json
{"id": "a", "name": "a", "type": "agent", "action": "act", "spec": "Does one well-defined step of the pipeline and reports what it did.", "inputs": [], "outputs": [], "cannot": ["json"], "version": "1.0.0", "will_not": ["never pushes to main"]}`,
  },
  'a data type in will_not moves to a new cannot': {
    code: 'card/prohibition-misfiled',
    title: 'Move `acceptance-criteria` from `will_not` to `cannot`',
    fixture: `
//- cards/a@1.0.0.yaml
${cardWith('a', 'will_not: [acceptance-criteria, "never pushes"]')}`,
    expected: `
//- cards/a@1.0.0.yaml
${cardWith('a', 'will_not: ["never pushes"]').replace('outputs: []', 'outputs: []\ncannot: [acceptance-criteria]')}`,
  },
  'a data type in will_not joins an existing cannot': {
    code: 'card/prohibition-misfiled',
    title: 'Move `code`',
    fixture: `
//- cards/a@1.0.0.yaml
${cardWith('a', 'cannot: [json]\nwill_not:\n  - code')}`,
    expected: `
//- cards/a@1.0.0.yaml
${cardWith('a', 'cannot: [json, code]\nwill_not: []')}`,
  },
  'a shell tool without params gets params.tool_command': {
    code: 'card/missing-field',
    title: 'Add `params.tool_command`',
    fixture: `
//- cards/a@1.0.0.yaml
${cardWith('a', '').replace('type: agent', 'type: shell-tool')}`,
    expected: `
//- cards/a@1.0.0.yaml
${cardWith('a', '').replace('type: agent', 'type: shell-tool\nparams:\n  tool_command: "echo TODO"')}`,
    clean: true,
  },
  'a shell tool with empty flow params': {
    code: 'card/missing-field',
    title: 'Add `params.tool_command`',
    fixture: `
//- cards/a@1.0.0.yaml
${cardWith('a', 'params: {}').replace('type: agent', 'type: shell-tool')}`,
    expected: `
//- cards/a@1.0.0.yaml
${cardWith('a', 'params: { tool_command: "echo TODO" }').replace('type: agent', 'type: shell-tool')}`,
    clean: true,
  },
  'a shell tool with block params': {
    code: 'card/missing-field',
    title: 'Add `params.tool_command`',
    fixture: `
//- cards/a@1.0.0.yaml
${cardWith('a', 'params:\n  max_iterations: 3').replace('type: agent', 'type: shell-tool')}`,
    expected: `
//- cards/a@1.0.0.yaml
${cardWith('a', 'params:\n  tool_command: "echo TODO"\n  max_iterations: 3').replace('type: agent', 'type: shell-tool')}`,
    clean: true,
  },
  'a shell tool in a flow-style card gets params in flow style (a block value is not allowed there)': {
    code: 'card/missing-field',
    title: 'Add `params.tool_command`',
    fixture: `
//- cards/a@1.0.0.yaml
{id: a, name: a, type: shell-tool, action: act, spec: Does one well-defined step of the pipeline and reports., inputs: [], outputs: [], version: 1.0.0}`,
    expected: `
//- cards/a@1.0.0.yaml
{id: a, name: a, type: shell-tool, action: act, spec: Does one well-defined step of the pipeline and reports., inputs: [], outputs: [], version: 1.0.0, params: {tool_command: "echo TODO"}}`,
    clean: true,
  },
  'a shell tool in a JSON card gets a command that is no finding of its own': {
    code: 'card/missing-field',
    title: 'Add `params.tool_command` with a placeholder',
    fixture: `
//- cards/a@1.0.0.json
{"id": "a", "name": "a", "type": "shell-tool", "action": "act", "spec": "Does one well-defined step of the pipeline and reports.", "inputs": [], "outputs": [], "version": "1.0.0"}`,
    expected: `
//- cards/a@1.0.0.json
{"id": "a", "name": "a", "type": "shell-tool", "action": "act", "spec": "Does one well-defined step of the pipeline and reports.", "inputs": [], "outputs": [], "version": "1.0.0", "params": {"tool_command": "echo TODO"}}`,
    clean: true,
  },
  // ---- versions and file names
  'a version bump that is too small: the lowest sufficient version, the file and the pins follow': {
    code: 'card/version-bump-too-small',
    title: 'Set the version to `1.1.0`',
    fixture: `
//- topology.dot
digraph g { x [card="a@1.0.1"]; }
//- cards/a@1.0.0.yaml
${card({ id: 'a', outputs: [['draft', 'markdown']] })}
//- cards/a@1.0.1.yaml
${card({ id: 'a', version: '1.0.1', outputs: [['draft', 'markdown'], ['notes', 'json']] })}`,
    expected: `
//- topology.dot
digraph g { x [card="a@1.1.0"]; }
//- cards/a@1.1.0.yaml
${card({ id: 'a', version: '1.1.0', outputs: [['draft', 'markdown'], ['notes', 'json']] })}`,
  },
  'a card file named otherwise is renamed': {
    code: 'card/filename-mismatch',
    title: 'Rename the file to `cards/writer@1.0.0.yaml`',
    fixture: `
//- cards/writer.yaml
${card({ id: 'writer' })}`,
    expected: `
//- cards/writer@1.0.0.yaml
${card({ id: 'writer' })}`,
  },
  'a namespaced card goes to its namespace folder': {
    code: 'card/filename-mismatch',
    title: 'Rename the file to `cards/acme/writer@1.0.0.yaml`',
    fixture: `
//- cards/writer.yaml
${card({ id: 'acme/writer' })}`,
    expected: `
//- cards/acme/writer@1.0.0.yaml
${card({ id: 'acme/writer' })}`,
  },
  'a card misfiled under a reserved name is renamed': {
    code: 'bundle/misfiled-card',
    title: 'Rename the file to `cards/a@1.0.0.yaml`',
    fixture: `
//- topology.dot
digraph g { x [card="a@1.0.0"]; }
//- cards/blueprint.yaml
${a1}`,
    expected: `
//- cards/a@1.0.0.yaml
${a1}`,
  },
  'a misfiled copy of a card the bundle holds elsewhere is not renamed (its finding says to delete it)': {
    code: 'bundle/misfiled-card',
    title: '',
    titles: [],
    fixture: `
//- topology.dot
digraph g { x [card="a@1.0.0"]; }
//- cards/old-a.yaml
${a1}
//- cards/blueprint.yaml
${a1}`,
    expected: '',
  },

  // ---- writing what the bundle lacks
  'a node with no card: a card written for it, its ports from its edges, and the node pinned to it': {
    code: 'bundle/missing-card',
    warns: ['cards/mid-step@1.0.0.yaml card/spec-too-thin'],
    title: 'Create card `mid-step@1.0.0`',
    noNewError: true,
    show: { file: 'cards/mid-step@1.0.0.yaml', text: 'TODO: say what the step does.' },
    fixture: `
//- topology.dot
digraph g {
  a [card="a@1.0.0"];
  $0mid_step [label="Mid step"];
  b [card="b@1.0.0"];
  a -> mid_step;
  mid_step -> b [in="prose"];
}${cards}
//- cards/b@1.0.0.yaml
${b1}`,
    expected: `
//- topology.dot
digraph g {
  a [card="a@1.0.0"];
  mid_step [card="mid-step@1.0.0", label="Mid step"];
  b [card="b@1.0.0"];
  a -> mid_step;
  mid_step -> b [in="prose"];
}
//- cards/mid-step@1.0.0.yaml
id: mid-step
name: Mid step
type: agent
action: "TODO: one line saying what the node does"
spec: "TODO: say what the step does."
inputs:
  - name: draft
    type: markdown
outputs:
  - name: prose
    type: text
dependencies: [a]
version: 1.0.0

`,
  },
  'a node named by edges only: its card written, and a statement of its own pinning it; ports of an unknown end carry any': {
    code: 'bundle/missing-card',
    title: 'Create card `fixer@1.0.0`',
    noNewError: true,
    ownNode: true,
    fixture: `
//- topology.dot
digraph g {
  a [card="a@1.0.0"];
  a -> $0fixer [label="failure evidence"];
  fixer -> other;
}${cards}`,
    expected: `
//- topology.dot
digraph g {
  a [card="a@1.0.0"];
  fixer [card="fixer@1.0.0"];
  a -> fixer [label="failure evidence"];
  fixer -> other;
}
//- cards/fixer@1.0.0.yaml
id: fixer
name: Fixer
type: agent
action: "TODO: one line saying what the node does"
spec: "TODO: say what the step does."
inputs:
  - name: draft
    type: markdown
outputs:
  - name: to_other
    type: any
dependencies: [a]
version: 1.0.0

`,
  },
  'a pin naming a card id the bundle holds no version of: that card written, the pin kept': {
    code: 'bundle/missing-card',
    title: 'Create card `reviewer@2.1.0`',
    noNewError: true,
    fixture: `
//- topology.dot
digraph g { gate [card="$0reviewer@2.1.0", shape=hexagon, label="Release sign-off"]; }`,
    expected: `
//- topology.dot
digraph g { gate [card="reviewer@2.1.0", shape=hexagon, label="Release sign-off"]; }
//- cards/reviewer@2.1.0.yaml
id: reviewer
name: Release sign-off
type: human-gate
action: "TODO: one line saying what the node does"
spec: "TODO: say what the step does."
inputs: []
outputs: []
version: 2.1.0

`,
  },
  'a card is written only where none of that id exists: a pin to a missing version of a held card gets none': {
    code: 'bundle/missing-card',
    title: 'Pin `a@2.0.0`',
    titles: ['Pin `a@2.0.0`', 'Pin `a@1.0.0`'],
    fixture: `
//- topology.dot
digraph g { x [card="a@3.0.0"]; }${cards}`,
    expected: `
//- topology.dot
digraph g { x [card="a@2.0.0"]; }`,
  },
  'a node with no pin: a pick among the bundle\'s cards, completion asked between the quotes': {
    code: 'bundle/missing-card',
    title: "Pin one of the bundle's cards…",
    remains: true,
    show: { file: 'topology.dot', text: '', suggest: true },
    fixture: `
//- topology.dot
digraph g { $0x [label="X"]; }${cards}`,
    expected: `
//- topology.dot
digraph g { x [card="", label="X"]; }`,
  },
  'an out= naming an output the card lacks: the output added, typed as the input it feeds': {
    code: 'bundle/port-mismatch',
    title: 'Add output `summary` (`text`) to `a@1.0.0`',
    noNewError: true,
    fixture: `
//- topology.dot
digraph g { a [card="a@1.0.0"]; b [card="b@1.0.0"]; a -> b [out="$0summary"]; }${cards}
//- cards/b@1.0.0.yaml
${b1}`,
    expected: `
//- cards/a@1.0.0.yaml
${a1}`.replace('    type: json', '    type: json\n  - name: summary\n    type: text'),
  },
  'an in= naming an input the card lacks, in a JSON card: the input added in its style': {
    code: 'bundle/port-mismatch',
    title: 'Add input `notes` (`json`) to `j@1.0.0`',
    noNewError: true,
    fixture: `
//- topology.dot
digraph g { a [card="a@1.0.0"]; j [card="j@1.0.0"]; a -> j [out="notes", in="$0notes"]; }${cards}
//- cards/j@1.0.0.json
{
  "id": "j",
  "name": "J",
  "type": "agent",
  "action": "act",
  "spec": "Does one well-defined step of the pipeline and reports what it did.",
  "inputs": [],
  "outputs": [],
  "dependencies": ["a"],
  "version": "1.0.0"
}`,
    expected: `
//- cards/j@1.0.0.json
{
  "id": "j",
  "name": "J",
  "type": "agent",
  "action": "act",
  "spec": "Does one well-defined step of the pipeline and reports what it did.",
  "inputs": [{"name": "notes", "type": "json"}],
  "outputs": [],
  "dependencies": ["a"],
  "version": "1.0.0"
}`,
  },
  'an edge that carries nothing between two cards fresh from import: both ports declared, named after its label': {
    code: 'bundle/port-mismatch',
    title: 'Declare the ports: output `finding` (`any`) on `read@0.1.0` and input `finding` (`any`) on `quote@0.1.0`',
    noNewError: true,
    fixture: `
//- topology.dot
digraph escapes {
  read [card="read@0.1.0"];
  quote [card="quote@0.1.0"];

  $0read -> quote [label="finding", condition="context.size!=0"];
}
//- cards/read@0.1.0.yaml
id: "read"
name: "Read"
type: "agent"
phase: []

action: "agent"
spec: "Open the file you were given and report what you found in it."
inputs: []
outputs: []
dependencies: []

version: "0.1.0"
//- cards/quote@0.1.0.yaml
id: "quote"
name: "Quote"
type: "agent"
action: "agent"
spec: "Wrap the finding in quotation marks so the report stays readable."
inputs: []
outputs: []
dependencies: ["read"]
version: "0.1.0"`,
    expected: `
//- cards/read@0.1.0.yaml
id: "read"
name: "Read"
type: "agent"
phase: []

action: "agent"
spec: "Open the file you were given and report what you found in it."
inputs: []
outputs:
  - name: finding
    type: any
dependencies: []

version: "0.1.0"
//- cards/quote@0.1.0.yaml
id: "quote"
name: "Quote"
type: "agent"
action: "agent"
spec: "Wrap the finding in quotation marks so the report stays readable."
inputs:
  - name: finding
    type: any
outputs: []
dependencies: ["read"]
version: "0.1.0"`,
  },
  'an edge into a card with no inputs: the input declared, of the type the source gives': {
    code: 'bundle/port-mismatch',
    title: 'Declare the ports: input `draft` (`markdown`) on `c@1.0.0`',
    noNewError: true,
    fixture: `
//- topology.dot
digraph g { a [card="a@1.0.0", label="x"]; c [card="c@1.0.0"]; $0a -> c; }${cards}
//- cards/c@1.0.0.yaml
${cardWith('c', 'dependencies: [a]')}`,
    expected: `
//- cards/c@1.0.0.yaml
${cardWith('c', 'dependencies: [a]').replace('inputs: []', 'inputs:\n  - name: draft\n    type: markdown')}`,
  },
};

describe('ide: quick fixes', () => {
  for (const [name, c] of Object.entries(cases)) it(name, () => checkFix(c));

  it('offers nothing for a diagnostic it has no fix for, or of another file', () => {
    const { bundle } = loadFixture(`
//- topology.dot
digraph g { a -> b; b -> a; }`);
    const other = bundle.result.diagnostics.filter((d) => d.code === 'bundle/no-entry');
    assert.ok(other.length > 0);
    assert.deepEqual(codeActions(bundle, 'topology.dot', { start: 0, end: 0 }, other), []);
    assert.deepEqual(codeActions(bundle, 'cards/none.yaml', { start: 0, end: 0 }, other), []);
  });

  it('removing type= also offers to open the card\'s type', () => {
    const { bundle } = loadFixture(`
//- topology.dot
digraph g { a [card="a@1.0.0", type="codergen"]; }${cards}`);
    const diagnostic = bundle.result.diagnostics.find((d) => d.code === 'attractor/reserved-attribute');
    assert.ok(diagnostic);
    const actions = codeActions(bundle, 'topology.dot', diagnostic.location.span ?? { start: 0, end: 0 }, [diagnostic]);
    const open = actions.find((a) => a.show !== undefined);
    assert.ok(open, actions.map((a) => a.title).join(' | '));
    assert.equal(open.title, 'Remove `type` from node `a` and open the `type` of `a@1.0.0`');
    const text = bundle.files.get(open.show?.file ?? '')?.text ?? '';
    assert.equal(open.show?.file, 'cards/a@1.0.0.yaml');
    assert.equal(text.slice(open.show?.span.start, open.show?.span.end), 'agent');
  });

  it('fixes only the diagnostics that touch the range asked about', () => {
    const { bundle } = loadFixture(`
//- topology.dot
digraph g { a [label="x"; shape=box]; }`);
    const text = bundle.files.get('topology.dot')?.text ?? '';
    const at = text.indexOf(';');
    const all = bundle.result.diagnostics;
    assert.deepEqual(codeActions(bundle, 'topology.dot', { start: at, end: at }, all).map((a) => a.title), ['Replace `;` with `,`']);
    assert.deepEqual(codeActions(bundle, 'topology.dot', { start: 0, end: 1 }, all), []);
    assert.deepEqual(codeActions(bundle, 'topology.dot', { start: at, end: at }, []), []);
  });

  it('offers no fix-all when every node id is usable', () => {
    const { bundle } = loadFixture(`
//- topology.dot
digraph g { a -> b; }`);
    assert.deepEqual(codeActions(bundle, 'topology.dot', { start: 0, end: 0 }, []), []);
  });
});
