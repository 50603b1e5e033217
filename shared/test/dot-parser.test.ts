/**
 * The resilient DOT parser (docs/compatibility.md#topology): every dot/* code where it fires and
 * where it does not, recovery, spans, defaults and subgraphs, chains, order, strings and durations.
 * Each case is a fixture (diagnostics annotated in place) plus what the graph must hold.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { assertDiagnostics, parseFixture } from './support/fixture';
import { parseDot } from '../src/syntax/dot-parser';
import { mentionEnd, mentionNode, mentionStart, nodeOccurrences } from '../src/syntax/dot-mentions';
import { lexDot, tokenAt } from '../src/syntax/dot-lexer';
import { DotTokenCode, dotTokenKinds, type DotAttributes, type DotParseResult } from '../src/syntax/dot-model';

interface ParseCase {
  readonly fixture: string;
  /** Only diagnostics with these code prefixes are compared (all by default). */
  readonly codes?: readonly string[];
  /** Node ids in first-appearance order. */
  readonly nodes?: readonly string[];
  /** `source->target` in source order. */
  readonly edges?: readonly string[];
  /** Effective attributes as `k=v` joined by spaces, per node id. */
  readonly nodeAttrs?: Readonly<Record<string, string>>;
  /** Attributes of the first edge `source->target`. */
  readonly edgeAttrs?: Readonly<Record<string, string>>;
  readonly graphAttrs?: string;
  /** `none` when no graph may be returned. */
  readonly graph?: { readonly name?: string; readonly strict?: boolean; readonly directed?: boolean } | 'none';
  readonly idErrors?: Readonly<Record<string, 'hyphenated' | 'keyword'>>;
  /**
   * Source text of spans: `node <id>`, `occurrences <id>` (list), `statements <id>` (list),
   * `edge <s>-><t>`, `source <s>-><t>`, `target <s>-><t>`, `key <id>.<attr>`, `value <id>.<attr>`,
   * `trailing`.
   */
  readonly spans?: Readonly<Record<string, string | readonly string[]>>;
}

function render(attrs: DotAttributes): string {
  return [...attrs.values()].map((a) => `${a.key}=${a.value}`).join(' ');
}

function check(c: ParseCase): void {
  const fixture = parseFixture(c.fixture);
  const file = fixture.files[0];
  const text = file.text;
  const result = parseDot(text);
  assertDiagnostics(fixture, result.diagnostics, c.codes);
  assertInvariants(text, result);
  if (c.graph === 'none') {
    assert.equal(result.graph, undefined);
    return;
  }
  const graph = result.graph;
  assert.ok(graph, 'a graph is returned');
  if (c.graph?.name !== undefined) assert.equal(graph.name, c.graph.name);
  if (c.graph?.strict !== undefined) assert.equal(graph.strict, c.graph.strict);
  if (c.graph?.directed !== undefined) assert.equal(graph.directed, c.graph.directed);
  if (c.nodes) assert.deepEqual(graph.nodes.map((n) => n.id), c.nodes);
  if (c.edges) assert.deepEqual(graph.edges.map((e) => `${e.source}->${e.target}`), c.edges);
  const node = (id: string) => {
    const n = graph.nodes.find((x) => x.id === id);
    assert.ok(n, `node ${id} exists`);
    return n;
  };
  const edge = (key: string) => {
    const e = graph.edges.find((x) => `${x.source}->${x.target}` === key);
    assert.ok(e, `edge ${key} exists`);
    return e;
  };
  for (const [id, expected] of Object.entries(c.nodeAttrs ?? {})) assert.equal(render(node(id).attrs), expected, `attributes of ${id}`);
  for (const [key, expected] of Object.entries(c.edgeAttrs ?? {})) assert.equal(render(edge(key).attrs), expected, `attributes of ${key}`);
  if (c.graphAttrs !== undefined) assert.equal(render(graph.graphAttrs), c.graphAttrs);
  for (const n of graph.nodes) assert.equal(n.idError, c.idErrors?.[n.id], `idError of ${n.id}`);
  // the mentions are in source order (what `mentionAt` relies on), each of a node the graph lists
  const mentions = graph.mentions;
  assert.equal(mentions.chunks.reduce((n, c) => n + c.nodes.length, 0), mentions.count, 'the chunks hold every mention');
  for (let m = 0; m < mentions.count; m++) {
    const [node, start, end] = [mentionNode(mentions, m), mentionStart(mentions, m), mentionEnd(mentions, m)];
    assert.ok(node >= 0 && node < graph.nodes.length, `mention ${m} names a listed node`);
    assert.ok(start < end && (m === 0 || mentionEnd(mentions, m - 1) <= start), `mention ${m} (${start}) comes after the one before it`);
    // (an id written plainly, or quoted without escapes, reads as the node it names)
    const written = text.slice(start, end);
    const plainId = /^[A-Za-z_0-9]+$/.test(written) ? written : /^"[^"\\]*"$/.test(written) ? written.slice(1, -1) : undefined;
    if (plainId !== undefined) assert.equal(graph.nodes[node].id, plainId, `mention ${m} (${written}) names its node`);
  }
  const slice = (s: { start: number; end: number }) => text.slice(s.start, s.end);
  for (const [what, expected] of Object.entries(c.spans ?? {})) {
    const [kind, name = ''] = what.split(' ');
    const attr = (id: string, key: string) => {
      const a = node(id).attrs.get(key);
      assert.ok(a, `${id} has ${key}`);
      return a;
    };
    let actual: string | string[];
    switch (kind) {
      case 'node': actual = slice(node(name).span); break;
      case 'occurrences': actual = nodeOccurrences(graph, name).map(slice); break;
      case 'statements': actual = node(name).statements.map(slice); break;
      case 'edge': actual = slice(edge(name).span); break;
      case 'source': actual = slice(edge(name).sourceSpan); break;
      case 'target': actual = slice(edge(name).targetSpan); break;
      case 'key': actual = slice(attr(name.split('.')[0], name.split('.').slice(1).join('.')).keySpan); break;
      case 'value': actual = slice(attr(name.split('.')[0], name.split('.').slice(1).join('.')).valueSpan); break;
      case 'trailing': actual = result.trailing ? slice(result.trailing) : '(none)'; break;
      default: assert.fail(`unknown span kind ${kind}`);
    }
    assert.deepEqual(actual, expected, `span ${what}`);
  }
}

/** Whatever the input: every range inside the text, tokens in order and covering no overlap. */
function assertInvariants(text: string, result: DotParseResult): void {
  const inside = (s: { start: number; end: number }) => 0 <= s.start && s.start <= s.end && s.end <= text.length;
  let last = 0;
  for (const t of result.tokens) {
    assert.ok(inside(t.span) && t.span.start >= last && t.span.end > t.span.start, `token ${JSON.stringify(t.text)} in order`);
    assert.equal(text.slice(t.span.start, t.span.end), t.text);
    last = t.span.end;
  }
  // the column-wise table and the token objects tell the same story
  const significant = result.tokens.filter((t) => t.kind !== 'line-comment' && t.kind !== 'hash-comment' && t.kind !== 'block-comment');
  assert.deepEqual(Array.from({ length: result.table.count }, (_, i) => tokenAt(result.table, i)), significant);
  for (const d of result.diagnostics) if (d.location.span) assert.ok(inside(d.location.span), `range of ${d.code}`);
  assert.ok(result.diagnostics.filter((d) => d.code === 'dot/parse-error').length <= 21);
  for (const n of result.graph?.nodes ?? []) {
    assert.ok(inside(n.span));
    for (const a of n.attrs.values()) assert.ok(inside(a.keySpan) && inside(a.valueSpan));
  }
  for (const e of result.graph?.edges ?? []) assert.ok(inside(e.span) && inside(e.sourceSpan) && inside(e.targetSpan));
}

const cases: Record<string, ParseCase> = {
  // ---- a clean file -------------------------------------------------------------------
  'a clean topology has no findings and keeps first-appearance order': {
    fixture: `
//- topology.dot
digraph starter {
  rankdir=LR;
  node [shape=box, style=rounded];
  planner [card="spec-planner@1.0.0"];
  tester -> debugger [label="failure", condition="outcome!=success"];
  builder [card="code-builder@1.0.0"];
  builder -> tester;
}
`,
    graph: { name: 'starter', strict: false, directed: true },
    nodes: ['planner', 'tester', 'debugger', 'builder'],
    edges: ['tester->debugger', 'builder->tester'],
    graphAttrs: 'rankdir=LR',
    nodeAttrs: { planner: 'shape=box style=rounded card=spec-planner@1.0.0', tester: 'shape=box style=rounded' },
    edgeAttrs: { 'tester->debugger': 'label=failure condition=outcome!=success', 'builder->tester': '' },
  },

  // ---- dot/parse-error: precise messages and recovery -----------------------------------
  'a hyphenated id is one parse error that names it and the rename, and the node is kept': {
    fixture: `
//- topology.dot
digraph g {
  code-builder -> tester;
//^^^^^^^^^^^^ error dot/parse-error: \`code-builder\`
  reviewer -> code-builder;
//            ^^^^^^^^^^^^ error dot/parse-error: rename the node to \`code_builder\`
  tester [card="t@1.0.0"];
}
`,
    nodes: ['code-builder', 'tester', 'reviewer'],
    edges: ['code-builder->tester', 'reviewer->code-builder'],
    idErrors: { 'code-builder': 'hyphenated' },
    spans: { 'node code-builder': 'code-builder', 'occurrences code-builder': ['code-builder', 'code-builder'] },
  },
  'a keyword in node position is a parse error that names it': {
    fixture: `
//- topology.dot
digraph g {
  node -> x;
//^^^^ error dot/parse-error: \`node\` is a DOT keyword
  y -> EDGE;
//     ^^^^ error dot/parse-error: rename the node, e.g. to \`EDGE_step\`
  node [shape=box];
  z;
}
`,
    nodes: ['node', 'x', 'y', 'EDGE', 'z'],
    edges: ['node->x', 'y->EDGE'],
    idErrors: { node: 'keyword', EDGE: 'keyword' },
    nodeAttrs: { z: 'shape=box', x: '' },
  },
  'a quoted keyword and a quoted hyphenated id are ordinary DOT ids': {
    fixture: `
//- topology.dot
digraph g { "node" -> "code-builder"; }
`,
    nodes: ['node', 'code-builder'],
    spans: { 'node node': '"node"', 'node code-builder': '"code-builder"' },
  },
  'a typo on one line still yields the nodes and edges after it': {
    fixture: `
//- topology.dot
digraph g {
  a -> ;
//  ^^ error dot/parse-error: has no node on its right
  b [label="x" = y];
//             ^ error dot/parse-error: Expected an attribute name
  c -> d [weight=2];
  e ] f
//  ^ error dot/parse-error: found \`]\`
  g -> h
}
`,
    nodes: ['a', 'b', 'c', 'd', 'e', 'g', 'h'],
    edges: ['c->d', 'g->h'],
    nodeAttrs: { b: 'label=x' },
    edgeAttrs: { 'c->d': 'weight=2' },
  },
  'an attribute list missing its ] ends before the next statement': {
    fixture: `
//- topology.dot
digraph g {
  a [label="x", shape=box
//  ^ error dot/parse-error: This \`[\` is never closed
  b -> c
}
`,
    nodes: ['a', 'b', 'c'],
    edges: ['b->c'],
    nodeAttrs: { a: 'label=x shape=box' },
  },
  'a missing = and a missing value are reported and the rest of the list is kept': {
    fixture: `
//- topology.dot
digraph g {
  a [label "x", shape=box, prompt=, color=red];
//         ^^^ error dot/parse-error: Expected \`=\` after the attribute name \`label\`
//                               ^ error dot/parse-error: \`prompt\` has no value
  rankdir=
//       ^ error dot/parse-error: \`rankdir\` has no value
  b -> c
}
`,
    nodes: ['a', 'b', 'c'],
    edges: ['b->c'],
    nodeAttrs: { a: 'shape=box color=red' },
  },
  'a hyphen in an attribute name or a bare value asks for quotes': {
    fixture: `
//- topology.dot
digraph g {
  a [max-retries=3, shape=round-box];
//   ^^^^^^^^^^^ error dot/parse-error: write \`max_retries\`
//                        ^^^^^^^^^ error dot/parse-error: quote it: \`"round-box"\`
}
`,
    nodeAttrs: { a: 'max-retries=3 shape=round-box' },
  },
  'an unquoted dotted value is one error asking for quotes, and is kept': {
    fixture: `
//- topology.dot
digraph g {
  a [version=1.0.0, shape=box];
//           ^^^^^ error dot/parse-error: quote it: \`"1.0.0"\`
  rank = 1.5.2
//       ^^^^^ error dot/parse-error: \`1.5.2\`
  b [card=spec-planner@1.0.0];
//                    ^ error dot/parse-error: between double quotes
}
`,
    nodeAttrs: { a: 'version=1.0.0 shape=box', b: 'card=spec-planner@1.0.0' },
    graphAttrs: 'rank=1.5.2',
  },
  'unreadable characters are reported once per run and skipped': {
    fixture: `
//- topology.dot
digraph g {
  a @@ b;
//  ^^ error dot/parse-error: \`@@\`
  c [label='x'];
//         ^ error dot/parse-error: double quotes
//           ^ error dot/parse-error
  d - e;
//  ^ error dot/parse-error: A lone \`-\`
}
`,
    nodes: ['a', 'b', 'c', 'd', 'e'],
  },
  'an unterminated string ends with its line, so the next lines are read': {
    fixture: `
//- topology.dot
digraph g {
  a [label="open];
//         ^ error dot/parse-error: This string is never closed
//  ^ error dot/parse-error: This \`[\` is never closed
  b -> c;
}
`,
    nodes: ['a', 'b', 'c'],
    edges: ['b->c'],
    nodeAttrs: { a: 'label=open];' },
  },
  'an unterminated HTML value ends with its line': {
    fixture: `
//- topology.dot
digraph g {
  a [label=<<b>x</b>];
//         ^ error dot/parse-error: never closed with \`>\`
//  ^ error dot/parse-error: This \`[\` is never closed
  b; c
}
`,
    nodes: ['a', 'b', 'c'],
  },
  'an unterminated block comment runs to the end of the file': {
    fixture: `
//- topology.dot
digraph g {
//        ^ error dot/parse-error: The graph's \`{\` is never closed
  a -> b /* never closed
//       ^^ error dot/parse-error: block comment
}
`,
    edges: ['a->b'],
  },
  'text before the header is reported once and the graph is still read': {
    fixture: `
//- topology.dot
  hello there
//^^^^^^^^^^^ error dot/parse-error: comes before the graph header
digraph g { a -> b }
`,
    nodes: ['a', 'b'],
  },
  'no header at all: the first { } is read as the graph': {
    fixture: `
//- topology.dot
  topology {
//^^^^^^^^ error dot/parse-error: Expected \`digraph\`
  a -> b
}
`,
    edges: ['a->b'],
  },
  'a file with no braces has no graph': {
    fixture: `
//- topology.dot
  just words
//^^^^ error dot/parse-error: Expected \`digraph\`, found \`just\`
`,
    graph: 'none',
  },
  'a missing { after the header and an unclosed graph': {
    fixture: `
//- topology.dot
  digraph g a -> b
//          ^ error dot/parse-error: Expected \`{\` after the graph header
//        ^ error dot/parse-error: never closed
`,
    edges: ['a->b'],
  },
  'an unclosed subgraph is one error at its {': {
    fixture: `
//- topology.dot
digraph g {
  subgraph cluster_a { a -> b
//                   ^ error dot/parse-error: This \`{\` is never closed
`,
    edges: ['a->b'],
  },
  'subgraphs may nest 100 deep': {
    fixture: `
//- topology.dot
digraph g { ${'{ '.repeat(100)}a${' }'.repeat(100)} }
`,
    nodes: ['a'],
  },
  'a 101st nested subgraph is a parse error': {
    fixture: `
//- topology.dot
digraph g { ${'{ '.repeat(100)}{ a } b${' }'.repeat(100)} c }
//${' '.repeat(210)}^ error dot/parse-error: nested more than 100 deep
`,
    nodes: ['b', 'c'],
  },
  'at most 20 parse errors, then one line saying there are more': {
    fixture: `
//- topology.dot
digraph g {
${Array.from({ length: 25 }, (_, i) => `  n${i} -> ;`).join('\n')}
  last -> ok
}
`,
    codes: ['dot/unsupported', 'dot/self-loop'],
    nodes: [...Array.from({ length: 25 }, (_, i) => `n${i}`), 'last', 'ok'],
    edges: ['last->ok'],
  },

  // ---- dot/unsupported --------------------------------------------------------------------
  'an HTML-like value is read as text with a warning': {
    fixture: `
//- topology.dot
digraph g { a [label=<<b>bold</b>>]; }
//                   ^^^^^^^^^^^^^ warning dot/unsupported: HTML-like
`,
    nodeAttrs: { a: 'label=<b>bold</b>' },
  },
  'port specifiers are skipped with one warning per file': {
    fixture: `
//- topology.dot
digraph g {
  a:out -> b:in:n;
// ^^^^ warning dot/unsupported: Port specifiers
  c:p -> d;
}
`,
    edges: ['a->b', 'c->d'],
    spans: { 'edge a->b': 'a:out -> b:in:n' },
  },
  'tokens after the first graph are ignored with one warning': {
    fixture: `
//- topology.dot
digraph g { a -> b }
  digraph h { c }
//^^^^^^^ warning dot/unsupported: Only the first graph
`,
    nodes: ['a', 'b'],
    spans: { trailing: 'digraph' },
  },
  'a stray } closes the graph early': {
    fixture: `
//- topology.dot
digraph g {
  a -> b
  }
  c -> d
//^ warning dot/unsupported: stray
}
`,
    edges: ['a->b'],
    spans: { trailing: 'c' },
  },
  'one graph, no trailing tokens: no dot/unsupported': {
    fixture: `
//- topology.dot
digraph g { a -> b } // a comment after the graph
# and another
`,
    spans: { trailing: '(none)' },
  },

  // ---- dot/not-directed -------------------------------------------------------------------
  'a graph declared with graph is not directed (once, even with -- edges)': {
    fixture: `
//- topology.dot
  graph g { a -- b; b -- c }
//^^^^^ error dot/not-directed: write \`digraph\`
`,
    graph: { directed: false },
    edges: ['a->b', 'b->c'],
  },
  'the first -- edge of a digraph is reported, once per file': {
    fixture: `
//- topology.dot
digraph g {
  a -> b -- c;
//       ^^ error dot/not-directed: write \`->\`
  c -- d;
}
`,
    graph: { directed: true },
    edges: ['a->b', 'b->c', 'c->d'],
  },

  // ---- dot/duplicate-node -----------------------------------------------------------------
  'a re-declaration that changes a value is reported where it happens': {
    fixture: `
//- topology.dot
digraph g {
  a [label="one", shape=box];
  a;
  b -> a;
  a [label="two", color=red];
//^ info dot/duplicate-node: changes \`label\` from "one" to "two"
}
`,
    nodeAttrs: { a: 'label=two shape=box color=red' },
    spans: { 'node a': 'a', 'occurrences a': ['a', 'a', 'a', 'a'], 'statements a': ['a [label="one", shape=box]', 'a', 'a [label="two", color=red]'] },
  },
  'a re-declaration with the same values, or new keys only, is not reported': {
    fixture: `
//- topology.dot
digraph g {
  a [label="one"];
  a [label="one", shape=box];
}
`,
    nodeAttrs: { a: 'label=one shape=box' },
  },

  // ---- dot/self-loop ----------------------------------------------------------------------
  'a self-loop is reported once per node': {
    fixture: `
//- topology.dot
digraph g {
  a -> a [label="again"];
//^^^^^^^^^^^^^^^^^^^^^^ info dot/self-loop: \`a\` has an edge to itself
  a -> a;
  b -> c -> b;
}
`,
    edges: ['a->a', 'a->a', 'b->c', 'c->b'],
  },

  // ---- defaults, subgraphs, chains --------------------------------------------------------
  'node and edge defaults apply to what follows, in their scope': {
    fixture: `
//- topology.dot
digraph g {
  a;
  node [shape=box];
  edge [style=dashed];
  b;
  subgraph cluster_x {
    node [shape=hexagon, color=red];
    edge [weight=1];
    c -> d;
    graph [label="inner"];
    rank=same;
  }
  e -> a;
  a [label="A"];
}
`,
    nodes: ['a', 'b', 'c', 'd', 'e'],
    nodeAttrs: { a: 'label=A shape=box', b: 'shape=box', c: 'shape=hexagon color=red', d: 'shape=hexagon color=red', e: 'shape=box' },
    edgeAttrs: { 'c->d': 'style=dashed weight=1', 'e->a': 'style=dashed' },
    graphAttrs: '',
  },
  'a bare mention never changes an existing node; a re-declaration fills missing keys from defaults': {
    fixture: `
//- topology.dot
digraph g {
  a [label="A"];
  node [shape=box, color=blue];
  a;
  a [color=red];
}
`,
    nodeAttrs: { a: 'label=A color=red shape=box' },
  },
  'root graph [..] and key=value set graph attributes; several [..] lists merge': {
    fixture: `
//- topology.dot
digraph g {
  graph [goal="ship it"][label="G"];
  rankdir = LR
  a [x=1][y=2, x=3];
}
`,
    graphAttrs: 'goal=ship it label=G rankdir=LR',
    nodeAttrs: { a: 'x=3 y=2' },
  },
  'chains expand to consecutive pairs with the statement attributes': {
    fixture: `
//- topology.dot
digraph g { a -> b -> c [label="next"]; }
`,
    edges: ['a->b', 'b->c'],
    edgeAttrs: { 'a->b': 'label=next', 'b->c': 'label=next' },
    spans: { 'edge a->b': 'a -> b -> c [label="next"]', 'edge b->c': 'b -> c [label="next"]', 'source b->c': 'b', 'target b->c': 'c' },
  },
  'subgraph endpoints expand to all their members': {
    fixture: `
//- topology.dot
digraph g { x -> { a b } -> subgraph s { c; d -> e } }
`,
    nodes: ['x', 'a', 'b', 'c', 'd', 'e'],
    // the subgraph's own edge is read before the chain around it is complete (DarkPrint's order)
    edges: ['d->e', 'x->a', 'x->b', 'a->c', 'a->d', 'a->e', 'b->c', 'b->d', 'b->e'],
    spans: { 'source a->c': '{ a b }', 'target a->c': 'subgraph s { c; d -> e }', 'edge a->c': '{ a b } -> subgraph s { c; d -> e }' },
  },
  'edge-only mentions create nodes in first-appearance order': {
    fixture: `
//- topology.dot
digraph g { c -> b; a; b [label="B"]; }
`,
    nodes: ['c', 'b', 'a'],
    spans: { 'node b': 'b', 'statements b': ['b [label="B"]'] },
  },
  'strict graphs merge parallel edges': {
    fixture: `
//- topology.dot
strict digraph g { a -> b [x=1]; a -> b [y=2]; b -> a; }
`,
    graph: { strict: true },
    edges: ['a->b', 'b->a'],
    edgeAttrs: { 'a->b': 'x=1 y=2' },
  },
  'parallel edges stay in a graph that is not strict': {
    fixture: `
//- topology.dot
digraph g { a -> b [x=1]; a -> b [y=2]; }
`,
    edges: ['a->b', 'a->b'],
  },
  'keywords are case-insensitive; quoted ones are ids': {
    fixture: `
//- topology.dot
DiGraph G { NODE [shape=box]; Edge [w=1]; a -> "graph"; }
`,
    graph: { name: 'G', directed: true },
    nodes: ['a', 'graph'],
    nodeAttrs: { a: 'shape=box' },
    edgeAttrs: { 'a->graph': 'w=1' },
  },

  // ---- comments, strings, values ------------------------------------------------------------
  '# comments run to the end of the line anywhere on it': {
    fixture: `
//- topology.dot
# a heading
digraph g { a -> b # the first edge -> c
  /* a -> x */ d // e -> f
}
`,
    nodes: ['a', 'b', 'd'],
    edges: ['a->b'],
  },
  'strings: only \\" and backslash-newline are escapes; + joins quoted strings': {
    fixture: `
//- topology.dot
digraph g {
  a [label="say \\"hi\\"", prompt="line\\nbreak", note="one \\
two", tab="a\\tb", both="x" + "y" + "z"];
  "x" + "y" = 3;
}
`,
    nodeAttrs: { a: 'label=say "hi" prompt=line\\nbreak note=one two tab=a\\tb both=xyz' },
    graphAttrs: 'xy=3',
    spans: { 'value a.both': '"x" + "y" + "z"', 'key a.both': 'both', 'value a.label': '"say \\"hi\\""' },
  },
  'a line break inside a string reads as one LF, CRLF included': {
    fixture: `
//- topology.dot
digraph g { a [label="one\r\ntwo\rthree"]; }
`,
    nodeAttrs: { a: 'label=one\ntwo\nthree' },
  },
  'a number glued to letters is one value, never a parse error': {
    fixture: `
//- topology.dot
digraph g { a [timeout=900s, wait=5min, ratio=1.5h, delay=-2d, n=.5, m=-3]; }
`,
    nodeAttrs: { a: 'timeout=900s wait=5min ratio=1.5h delay=-2d n=.5 m=-3' },
    spans: { 'value a.wait': '5min' },
  },
  'attribute separators may be commas, semicolons or nothing': {
    fixture: `
//- topology.dot
digraph g { a [x=1; y=2 z=3, w=4,]; }
`,
    nodeAttrs: { a: 'x=1 y=2 z=3 w=4' },
  },
  'a key set twice keeps its first place and its last value, within a list and across lists': {
    fixture: `
//- topology.dot
digraph g {
  a [x=1, y=2, x=3];
  b [x=1] [y=2, x=3];
  a -> b [w=1, w=2];
}
`,
    nodeAttrs: { a: 'x=3 y=2', b: 'x=3 y=2' },
    edgeAttrs: { 'a->b': 'w=2' },
  },
  'a long attribute list with repeats reads as a map would': {
    fixture: `
//- topology.dot
digraph g {
  a [k0=0, k1=1, k2=2, k3=3, k4=4, k5=5, k6=6, k7=7, k8=8, k9=9, k10=10, k3=again, k11=11, k0=last];
}
`,
    nodeAttrs: { a: 'k0=last k1=1 k2=2 k3=again k4=4 k5=5 k6=6 k7=7 k8=8 k9=9 k10=10 k11=11' },
    spans: { 'value a.k3': 'again', 'key a.k11': 'k11' },
  },
  'spans: node, attribute key and value, edge from source to the end of its list': {
    fixture: `
//- topology.dot
digraph g {
  "planner" [card = "p@1.0.0"];
  planner -> tester [label="go"];
  tester
}
`,
    spans: {
      'node planner': '"planner"',
      'occurrences planner': ['"planner"', 'planner'],
      'key planner.card': 'card',
      'value planner.card': '"p@1.0.0"',
      'edge planner->tester': 'planner -> tester [label="go"]',
      'occurrences tester': ['tester', 'tester'],
      'statements tester': ['tester'],
    },
  },
};

describe('DOT parser', () => {
  for (const [name, c] of Object.entries(cases)) it(name, () => check(c));

  it('reports an empty file at offset 0 and returns no graph', () => {
    for (const text of ['', '// nothing here yet\n']) {
      const result = parseDot(text);
      assert.equal(result.graph, undefined);
      assert.deepEqual(result.diagnostics.map((d) => [d.code, d.location.span]), [['dot/parse-error', { start: 0, end: 0 }]]);
      assert.match(result.diagnostics[0].message, /holds no graph/);
    }
  });

  it('lists other dot/* findings 20 times per code, then one summary', () => {
    const text = `digraph g {\n${Array.from({ length: 25 }, (_, i) => `  n${i} [l=<x>]; n${i} [l=2]; n${i} -> n${i};`).join('\n')}\n}`;
    const found = parseDot(text).diagnostics;
    for (const code of ['dot/unsupported', 'dot/duplicate-node', 'dot/self-loop']) {
      const of = found.filter((d) => d.code === code);
      assert.equal(of.length, 21, code);
      assert.deepEqual(of.filter((d) => d.location.span === undefined).map((d) => d.location), [{ file: 'topology.dot' }]);
      assert.match(of.find((d) => d.location.span === undefined)?.message ?? '', /25 times/);
    }
  });

  it('answers get, has, size and every iteration of an attribute map alike, with and without defaults', () => {
    const many = Array.from({ length: 30 }, (_, i) => `k${i}=${i}`).join(', ');
    for (const text of ['digraph g { a [x=1, y=2]; }', 'digraph g { node [y=0, z=9]; a [x=1, y=2]; }', `digraph g { a [${many}, k7=seven]; }`]) {
      const attrs = parseDot(text).graph?.nodes[0].attrs;
      assert.ok(attrs);
      const entries = [...attrs.entries()];
      assert.equal(attrs.size, entries.length);
      assert.deepEqual([...attrs], entries);
      assert.deepEqual([...attrs.keys()], entries.map(([k]) => k));
      assert.deepEqual([...attrs.values()], entries.map(([, v]) => v));
      const visited: string[] = [];
      attrs.forEach((v, k) => visited.push(`${k}=${v.value}`));
      assert.deepEqual(visited, entries.map(([k, v]) => `${k}=${v.value}`));
      for (const [k, v] of entries) {
        assert.equal(attrs.get(k), v);
        assert.ok(attrs.has(k));
      }
      assert.equal(attrs.get('missing'), undefined);
      assert.equal(attrs.has('__proto__'), false);
    }
  });

  it('keeps at most 100 distinct default attributes per scope, and says so once', () => {
    const keys = Array.from({ length: 103 }, (_, i) => `k${i}=1`).join(', ');
    const text = `digraph g { node [${keys}]; a; }`;
    const result = parseDot(text);
    assert.deepEqual(result.diagnostics.map((d) => [d.code, d.location.span && text.slice(d.location.span.start, d.location.span.end)]), [['dot/unsupported', 'k100']]);
    assert.equal(result.graph?.nodes[0].attrs.size, 100);
  });

  it('reports the 21st parse error as "too many" and no more', () => {
    const text = `digraph g {\n  a [l=<html>];\n${Array.from({ length: 30 }, (_, i) => `  n${i} -> ;`).join('\n')}\n}`;
    const all = parseDot(text).diagnostics;
    // a file this broken is reported by its parse errors alone
    assert.deepEqual([...new Set(all.map((d) => d.code))], ['dot/parse-error']);
    const errors = all.filter((d) => d.code === 'dot/parse-error');
    assert.equal(errors.length, 21);
    assert.match(errors[20].message, /more than 20 parse errors/);
    assert.ok(errors[19].location.span && errors[20].location.span && errors[20].location.span.start > errors[19].location.span.start);
  });

  it('keeps every token with its text, comments included', () => {
    const text = 'digraph g { a -> b [x=900s] # c\n // d\n /* e */ "q" -- <h> : + ; , = }';
    assert.deepEqual(
      lexDot(text).tokens.map((t) => `${t.kind}:${t.text}`),
      [
        'keyword:digraph', 'id:g', 'lbrace:{', 'id:a', 'arrow:->', 'id:b', 'lbracket:[', 'id:x', 'equals:=', 'number:900s', 'rbracket:]',
        'hash-comment:# c', 'line-comment:// d', 'block-comment:/* e */', 'string:"q"', 'line:--', 'html:<h>', 'colon::', 'plus:+',
        'semicolon:;', 'comma:,', 'equals:=', 'rbrace:}',
      ],
    );
  });

  it('numbers its token kind codes as the table stores them', () => {
    const byName: Record<string, DotTokenCode> = {
      id: DotTokenCode.Id, number: DotTokenCode.Number, string: DotTokenCode.String, html: DotTokenCode.Html, keyword: DotTokenCode.Keyword,
      arrow: DotTokenCode.Arrow, line: DotTokenCode.Line, lbrace: DotTokenCode.LBrace, rbrace: DotTokenCode.RBrace,
      lbracket: DotTokenCode.LBracket, rbracket: DotTokenCode.RBracket, semicolon: DotTokenCode.Semicolon, comma: DotTokenCode.Comma,
      equals: DotTokenCode.Equals, colon: DotTokenCode.Colon, plus: DotTokenCode.Plus, 'hash-comment': DotTokenCode.HashComment,
      'line-comment': DotTokenCode.LineComment, 'block-comment': DotTokenCode.BlockComment, unknown: DotTokenCode.Unknown,
    };
    assert.deepEqual(dotTokenKinds.map((kind) => byName[kind]), dotTokenKinds.map((_, code) => code));
    const table = lexDot('digraph g { a -> b [x=1] }').table;
    assert.deepEqual([...table.kinds], [DotTokenCode.Keyword, DotTokenCode.Id, DotTokenCode.LBrace, DotTokenCode.Id, DotTokenCode.Arrow, DotTokenCode.Id,
      DotTokenCode.LBracket, DotTokenCode.Id, DotTokenCode.Equals, DotTokenCode.Number, DotTokenCode.RBracket, DotTokenCode.RBrace]);
  });

  it('never throws and keeps every range inside the text, whatever the input', () => {
    const pieces = ['digraph', 'graph', 'strict', 'subgraph', 'node', 'edge', '{', '}', '[', ']', '->', '--', '-', '=', ';', ',', ':', '+',
      '"', '"x"', '<', '>', '#', '//', '/*', '*/', '\\', '\n', '\r\n', ' ', 'a', 'b-c', '900s', '1.5', 'é', '@', '\u0000'];
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom(...pieces), fc.string({ maxLength: 3 })), { maxLength: 60 }), (parts) => {
        const text = parts.join('');
        assertInvariants(text, parseDot(text));
      }),
      { numRuns: 500 },
    );
  });

  it('reads the real-world topologies without a finding', () => {
    const text = `digraph starter_software_factory {
  rankdir=LR;
  node [shape=box, style=rounded];
  planner  [card="spec-planner@1.0.0"];
  tester   [card="acceptance-tester@1.0.0"];
  planner  -> tester   [label="acceptance criteria"];
  tester   -> planner  [label="failure evidence", style=dashed, condition="outcome!=success"];
}`;
    const result = parseDot(text);
    assert.deepEqual(result.diagnostics, []);
    assert.equal(result.graph?.edges.length, 2);
  });
});
