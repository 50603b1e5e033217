/**
 * Document symbols and folding ranges. Symbols are rendered as an indented outline
 * (`kind name — detail [selection text]`); folds as `startLine-endLine` (1-based).
 */
import assert from 'node:assert/strict';
import { documentSymbols, foldingRanges, type DocumentSymbol } from '../src/ide';
import { lineIndex } from '../src/text';
import { loadFixture } from './support/ide';

interface SymbolCase {
  readonly fixture: string;
  readonly file: string;
  readonly outline: string;
}

interface FoldCase {
  readonly fixture: string;
  readonly file: string;
  readonly folds: readonly string[];
}

function outline(symbols: readonly DocumentSymbol[], text: string, depth = 0): string[] {
  return symbols.flatMap((s) => [
    `${'  '.repeat(depth)}${s.kind} ${s.name}${s.detail !== undefined ? ` — ${s.detail}` : ''} [${text.slice(s.selectionSpan.start, s.selectionSpan.end)}]`,
    ...outline(s.children, text, depth + 1),
  ]);
}

function checkSymbols(c: SymbolCase): void {
  const { bundle } = loadFixture(c.fixture);
  const text = bundle.files.get(c.file)?.text ?? '';
  const symbols = documentSymbols(bundle, c.file);
  // LSP: every symbol's selection lies within its range, and every child's range within its parent's, at every level.
  const pending = [...symbols];
  for (let s = pending.pop(); s !== undefined; s = pending.pop()) {
    assert.ok(s.span.start <= s.selectionSpan.start && s.selectionSpan.end <= s.span.end, `selection inside span for ${s.kind} ${s.name}`);
    for (const child of s.children) {
      assert.ok(s.span.start <= child.span.start && child.span.end <= s.span.end, `${child.kind} ${child.name} inside ${s.kind} ${s.name}`);
    }
    pending.push(...s.children);
  }
  assert.equal(outline(symbols, text).join('\n'), c.outline.trim());
}

function checkFolds(c: FoldCase): void {
  const { bundle } = loadFixture(c.fixture);
  const index = lineIndex(bundle.files.get(c.file)?.text ?? '');
  const folds = foldingRanges(bundle, c.file).map((s) => `${index.positionAt(s.start).line + 1}-${index.positionAt(s.end).line + 1}`);
  assert.deepEqual(folds, c.folds);
}

const symbolCases: Record<string, SymbolCase> = {
  'a topology: graph, subgraphs, nodes with pins, edges': {
    file: 'topology.dot',
    fixture: `
//- topology.dot
digraph release {
  a [card="a@1.0.0"];
  subgraph cluster_work {
    b;
    { c }
  }
  a -> b;
}`,
    outline: `
graph release — digraph [release]
  node a — a@1.0.0 [a]
  subgraph cluster_work [cluster_work]
    node b [b]
    subgraph (anonymous subgraph) [{]
      node c [c]
  edge a -> b [a]`,
  },
  'an edge from a subgraph sits beside the subgraph, in the scope whose body holds it': {
    file: 'topology.dot',
    fixture: `
//- topology.dot
digraph g {
  {a b} -> c;
  subgraph s { x } -> y;
  subgraph t { m -> { n }; { u } -> v }
}`,
    outline: `
graph g — digraph [g]
  subgraph (anonymous subgraph) [{]
    node a [a]
    node b [b]
  edge a -> c [{a b}]
  edge b -> c [{a b}]
  node c [c]
  subgraph s [s]
    node x [x]
  edge x -> y [subgraph s { x }]
  node y [y]
  subgraph t [t]
    node m [m]
    edge m -> n [m]
    subgraph (anonymous subgraph) [{]
      node n [n]
    subgraph (anonymous subgraph) [{]
      node u [u]
    edge u -> v [{ u }]
    node v [v]`,
  },
  'a second graph in the file, which the parser ignores, is left out of the outline': {
    file: 'topology.dot',
    fixture: `
//- topology.dot
digraph g { a -> b }
digraph h { subgraph s { p } -> q }`,
    outline: `
graph g — digraph [g]
  node a [a]
  edge a -> b [a]
  node b [b]`,
  },
  'a card: fields, ports, term lists': {
    file: 'cards/a@1.0.0.yaml',
    fixture: `
//- cards/a@1.0.0.yaml
id: a
tools: [git, shell]
inputs:
  - name: notes
    type: json
params:
  max_iterations: 3
version: 1.0.0`,
    outline: `
field id — a [id]
list tools — 2 entries [tools]
  term git [git]
  term shell [shell]
list inputs — 1 entry [inputs]
  port notes — json [notes]
field params — 1 key [params]
field version — 1.0.0 [version]`,
  },
  'a garbled card: a port whose name lies outside its entry selects what lies inside': {
    file: 'cards/a@1.0.0.yaml',
    fixture: `
//- cards/a@1.0.0.yaml
id: a
inputs:
  - &p
    name: notes
    type: json
  - *p
  - name:
    type: text
outputs: [{name: ]x, type: text}]
version: 1.0.0`,
    outline: `
field id — a [id]
list inputs — 3 entries [inputs]
  port notes — json [notes]
  port notes — json [*p]
  port (unnamed port) — text [name]
list outputs — 2 entries [outputs]
  port (unnamed port) [name]
  port (unnamed port) — text [type: text]`,
  },
  'a garbled extensions file: a term whose id lies outside its entry selects what lies inside': {
    file: 'ontology/extensions.yaml',
    fixture: `
//- ontology/extensions.yaml
terms:
  - &t
    id: acme/pii
    kind: data-type
  - {id: ]x, kind: tool}
  - *t`,
    outline: `
list terms — 3 local terms [terms]
  term acme/pii — data-type [acme/pii]
  term (no id) [{id: ]x, kind: tool}]
  term acme/pii — data-type [*t]`,
  },
  'the extensions file: its terms': {
    file: 'ontology/extensions.yaml',
    fixture: `
//- ontology/extensions.yaml
terms:
  - id: acme/pii
    kind: data-type
    label: Personal data`,
    outline: `
list terms — 1 local term [terms]
  term acme/pii — data-type: Personal data [acme/pii]`,
  },
  'a broken topology still has its nodes': {
    file: 'topology.dot',
    fixture: `
//- topology.dot
digraph g {
  a [card="a@
  b -> c`,
    outline: `
graph g — digraph [g]
  node a — a@ [a]
  node b [b]
  edge b -> c [b]
  node c [c]`,
  },
};

const foldCases: Record<string, FoldCase> = {
  'a topology: braces, multi-line lists, comments': {
    file: 'topology.dot',
    fixture: `
//- topology.dot
// one
// two
digraph g {
  a [
    card="a@1.0.0"
  ];
  subgraph s {
    b;
  }
  /* a
     block */
  c [label="x"];
}`,
    folds: ['1-2', '3-13', '4-6', '7-9', '10-11'],
  },
  'a card: multi-line entries and ports': {
    file: 'cards/a@1.0.0.yaml',
    fixture: `
//- cards/a@1.0.0.yaml
id: a
inputs:
  - name: notes
    type: json
version: 1.0.0`,
    folds: ['2-4', '3-4'],
  },
  'a card: runs of comment lines, but not a # line inside a block scalar, nor a lone comment': {
    file: 'cards/a@1.0.0.yaml',
    fixture: `
//- cards/a@1.0.0.yaml
# The writer: drafts the release notes
# from the merged changes.
id: a
spec: |
  # Heading of the spec
  # still the spec
  Writes notes.
# one line only
version: 1.0.0  # trailing
  # indented, after it
  # and one more`,
    folds: ['1-2', '4-7', '10-11'],
  },
};

describe('ide: document symbols', () => {
  for (const [name, c] of Object.entries(symbolCases)) it(name, () => checkSymbols(c));
});

describe('ide: folding ranges', () => {
  for (const [name, c] of Object.entries(foldCases)) it(name, () => checkFolds(c));
});
