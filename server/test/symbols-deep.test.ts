/**
 * The conversion of document symbols and folds to LSP values, as tables: ordinary trees convert
 * exactly as before, trees of any depth convert without recursion into valid trees (ranges nested,
 * selections inside), the IDE layer's tree of a 20,000-deep topology goes through JSON and
 * through the flat form for clients without hierarchical symbols, and comment folds carry the
 * LSP `comment` kind.
 */
import assert from 'node:assert/strict';
import type { DocumentSymbol as LspDocumentSymbol, FoldingRange, Range } from 'vscode-languageserver';
import { documentSymbols, foldingRanges, type DocumentSymbol, type Fold, type IdeBundle } from '../../shared/src/ide';
import { symbolDepthLimit } from '../../shared/src/ide/symbols';
import { loadBundle } from '../../shared/src/bundle/resolve';
import { lineIndex } from '../../shared/src/text';
import { fullSupport, toDocumentSymbols, toFoldingRanges, toSymbolInformation } from '../src/convert';

interface SymbolCase {
  /** The text, and the IDE symbols of it. */
  readonly input: () => { readonly text: string; readonly symbols: readonly DocumentSymbol[] };
  readonly count: number;
  readonly depth: number;
  /** The exact result, for small trees. */
  readonly exact?: readonly LspDocumentSymbol[];
  /** The result goes through JSON and the flat form (true for what the IDE layer gives). */
  readonly sent?: boolean;
}

interface FoldCase {
  readonly input: () => { readonly text: string; readonly folds: readonly Fold[] };
  readonly count: number;
  /** The first few folds, exactly. */
  readonly first: readonly FoldingRange[];
}

function ide(path: string, text: string): IdeBundle {
  const files = [{ path, text }];
  return { files: new Map(files.map((f) => [f.path, f] as const)), result: loadBundle(files, { folderName: 'deep' }) };
}

function fromIde(path: string, text: string): { text: string; symbols: readonly DocumentSymbol[]; folds: readonly Fold[] } {
  const bundle = ide(path, text);
  return { text, symbols: documentSymbols(bundle, path), folds: foldingRanges(bundle, path) };
}

/** A chain of `levels` symbols, the n-th spanning lines n to 2·levels − n, built without the engine. */
function chain(levels: number): { text: string; symbols: readonly DocumentSymbol[] } {
  const text = `${'{\n'.repeat(levels)}${'}\n'.repeat(levels)}`;
  let inner: DocumentSymbol[] = [];
  for (let i = levels - 1; i >= 0; i--) {
    const start = 2 * i;
    const end = text.length - 2 * i - 1;
    inner = [{ name: `level ${i}`, kind: 'subgraph', span: { start, end }, selectionSpan: { start, end: start + 1 }, children: inner }];
  }
  return { text, symbols: inner };
}

const range = (a: number, b: number, c: number, d: number): Range => ({ start: { line: a, character: b }, end: { line: c, character: d } });

const symbolCases: Record<string, SymbolCase> = {
  'an ordinary tree converts as before (empty names named, a stray selection replaced by the range)': {
    input: () => ({
      text: 'digraph g {\n  a;\n}\n',
      symbols: [
        {
          name: 'g',
          detail: 'digraph',
          kind: 'graph',
          span: { start: 0, end: 18 },
          selectionSpan: { start: 8, end: 9 },
          children: [
            { name: ' ', kind: 'node', span: { start: 14, end: 15 }, selectionSpan: { start: 14, end: 15 }, children: [] },
            { name: 'e', kind: 'edge', span: { start: 14, end: 16 }, selectionSpan: { start: 0, end: 1 }, children: [] },
          ],
        },
      ],
    }),
    count: 3,
    depth: 2,
    exact: [
      {
        name: 'g',
        kind: 2,
        range: range(0, 0, 2, 1),
        selectionRange: range(0, 8, 0, 9),
        detail: 'digraph',
        children: [
          { name: '(unnamed)', kind: 5, range: range(1, 2, 1, 3), selectionRange: range(1, 2, 1, 3), children: [] },
          { name: 'e', kind: 24, range: range(1, 2, 1, 4), selectionRange: range(1, 2, 1, 4), children: [] },
        ],
      },
    ],
    sent: true,
  },
  'a topology nested 20,000 deep, as the IDE layer gives it': {
    input: () => fromIde('topology.dot', `digraph g {\n${'{\n'.repeat(20000)}a -> b;\n${'}\n'.repeat(20000)}}\n`),
    count: 20001,
    depth: symbolDepthLimit,
    sent: true,
  },
  'a JSON card nested 5,000 deep, as the IDE layer gives it': {
    input: () => fromIde('cards/a@1.0.0.json', `{"id": "a", "x": ${'[{"k":\n'.repeat(5000)}1${'}]'.repeat(5000)}}`),
    count: 2,
    depth: 1,
    sent: true,
  },
  'a tree 20,000 deep converts level by level, whole': {
    input: () => chain(20000),
    count: 20000,
    depth: 20000,
  },
};

const foldCases: Record<string, FoldCase> = {
  'comment folds carry the comment kind, blocks none, one-line folds are dropped': {
    input: () => ({
      text: '// a\n// b\n{\n}\n{}',
      folds: [
        { start: 0, end: 9, kind: 'comment' },
        { start: 10, end: 13, kind: 'block' },
        { start: 14, end: 16, kind: 'block' },
      ],
    }),
    count: 2,
    first: [{ startLine: 0, endLine: 1, kind: 'comment' }, { startLine: 2, endLine: 3 }],
  },
  'a topology: its comment runs and block comments, from the IDE layer': {
    input: () => fromIde('topology.dot', '// one\n// two\ndigraph g {\n  /* a\n     block */\n  a [\n    label="x"\n  ];\n}\n'),
    count: 4,
    first: [{ startLine: 0, endLine: 1, kind: 'comment' }, { startLine: 2, endLine: 8 }, { startLine: 3, endLine: 4, kind: 'comment' }, { startLine: 5, endLine: 7 }],
  },
  'a topology nested 20,000 deep': {
    input: () => fromIde('topology.dot', `digraph g {\n${'{\n'.repeat(20000)}a -> b;\n${'}\n'.repeat(20000)}}\n`),
    count: 20001,
    first: [{ startLine: 0, endLine: 40002 }, { startLine: 1, endLine: 40001 }],
  },
};

function inside(outer: Range, inner: Range): boolean {
  const before = (a: Range['start'], b: Range['start']): boolean => a.line < b.line || (a.line === b.line && a.character <= b.character);
  return before(outer.start, inner.start) && before(inner.end, outer.end);
}

/** Counts the symbols level by level (no recursion), checking that every tree is well formed. */
function shapeOf(symbols: readonly LspDocumentSymbol[]): { count: number; depth: number } {
  let level = symbols;
  let count = 0;
  let depth = 0;
  while (level.length > 0) {
    const next: LspDocumentSymbol[] = [];
    for (const s of level) {
      assert.ok(s.name.trim() !== '', 'a symbol has a name');
      assert.ok(inside(s.range, s.selectionRange), `the selection of ${s.name} lies inside its range`);
      assert.ok(Array.isArray(s.children), `${s.name} has a list of children`);
      for (const child of s.children ?? []) {
        assert.ok(inside(s.range, child.range), `${child.name} lies inside ${s.name}`);
        next.push(child);
      }
    }
    count += level.length;
    depth++;
    level = next;
  }
  return { count, depth };
}

function checkSymbols(c: SymbolCase): void {
  const { text, symbols } = c.input();
  const lsp = toDocumentSymbols(lineIndex(text), symbols, fullSupport);
  assert.deepEqual(shapeOf(lsp), { count: c.count, depth: c.depth });
  if (c.exact !== undefined) assert.deepEqual(lsp, c.exact);
  if (c.sent === true) {
    assert.deepEqual(JSON.parse(JSON.stringify(lsp)), lsp, 'the symbols go through JSON unchanged');
    assert.equal(toSymbolInformation('file:///deep/topology.dot', lsp).length, c.count, 'the flat form has every symbol');
  }
}

function checkFolds(c: FoldCase): void {
  const { text, folds } = c.input();
  const lsp = toFoldingRanges(lineIndex(text), folds);
  assert.equal(lsp.length, c.count);
  assert.deepEqual(lsp.slice(0, c.first.length), c.first);
  for (const fold of lsp) assert.ok(fold.kind === undefined || fold.kind === 'comment', 'a fold is a block or a comment');
}

describe('server: document symbols of any depth', () => {
  for (const [name, c] of Object.entries(symbolCases)) it(name, () => checkSymbols(c));
});

describe('server: folding ranges and their kinds', () => {
  for (const [name, c] of Object.entries(foldCases)) it(name, () => checkFolds(c));
});
