/**
 * Document symbols and folding ranges (issue 4). Symbols are rendered as an indented outline
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
  for (const s of symbols) {
    assert.ok(s.span.start <= s.selectionSpan.start && s.selectionSpan.end <= s.span.end, `selection inside span for ${s.name}`);
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
};

describe('ide: document symbols', () => {
  for (const [name, c] of Object.entries(symbolCases)) it(name, () => checkSymbols(c));
});

describe('ide: folding ranges', () => {
  for (const [name, c] of Object.entries(foldCases)) it(name, () => checkFolds(c));
});
