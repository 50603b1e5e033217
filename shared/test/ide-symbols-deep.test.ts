/**
 * Document symbols and folding ranges of documents nested far deeper than anyone writes by hand
 * (20,000 levels of braces, thousands of JSON brackets, deeply indented YAML): each answer
 * completes without exhausting the stack, with the right number of symbols and folds, a symbol
 * tree cut at `symbolDepthLimit` levels, and fold kinds. The walks here are iterative too.
 */
import assert from 'node:assert/strict';
import { documentSymbols, foldingRanges, type DocumentSymbol, type Fold } from '../src/ide';
import { symbolDepthLimit } from '../src/ide/symbols';
import { maxSubgraphDepth } from '../src/syntax/dot-parser';
import { lineIndex } from '../src/text';
import { loadFixture } from './support/ide';

interface DeepCase {
  readonly file: string;
  readonly text: string;
  readonly symbols: {
    readonly count: number;
    readonly depth: number;
    /** The deepest level, as `kind name` in document order (checked when given). */
    readonly deepest?: readonly string[];
    /** How many symbols the deepest level holds (checked when given). */
    readonly deepestCount?: number;
  };
  readonly folds: {
    readonly count: number;
    /** The longest chain of folds each inside the one before. */
    readonly nesting: number;
    /** Folds of comments, as `startLine-endLine` (1-based). */
    readonly comments?: readonly string[];
  };
}

/** `{` nested `levels` deep on one line around one edge (the audit's input). */
function braces(levels: number): string {
  return `digraph g {${'{'.repeat(levels)}a -> b;${'}'.repeat(levels)}}`;
}

/** Named subgraphs nested `levels` deep, one per line, each declaring a node. */
function subgraphs(levels: number): string {
  const open = Array.from({ length: levels }, (_, i) => `${' '.repeat(Math.min(i, 8))}subgraph s${i} { n${i};\n`).join('');
  return `digraph g {\n${open}${'}\n'.repeat(levels)}}\n`;
}

/** Subgraphs nested past `maxSubgraphDepth` are a parse error: their contents are not read, their braces still fold. */
const readNodes = maxSubgraphDepth;

const cases: Record<string, DeepCase> = {
  'braces 4,000 deep on one line (8 KB)': {
    file: 'topology.dot',
    text: braces(4000),
    // the graph and 4,000 subgraphs; the last level takes every subgraph below the level above it
    symbols: { count: 4001, depth: symbolDepthLimit, deepestCount: 4000 - (symbolDepthLimit - 2) },
    folds: { count: 0, nesting: 0 },
  },
  'braces 20,000 deep on one line': {
    file: 'topology.dot',
    text: braces(20000),
    symbols: { count: 20001, depth: symbolDepthLimit, deepestCount: 20000 - (symbolDepthLimit - 2) },
    folds: { count: 0, nesting: 0 },
  },
  'braces 20,000 deep, one per line': {
    file: 'topology.dot',
    text: `digraph g {\n${'{\n'.repeat(20000)}a -> b;\n${'}\n'.repeat(20000)}}\n`,
    symbols: { count: 20001, depth: symbolDepthLimit, deepestCount: 20000 - (symbolDepthLimit - 2) },
    folds: { count: 20001, nesting: 20001 },
  },
  'named subgraphs 20,000 deep, each with a node': {
    file: 'topology.dot',
    text: subgraphs(20000),
    symbols: { count: 1 + 20000 + readNodes, depth: symbolDepthLimit, deepestCount: 20000 - (symbolDepthLimit - 2) + 1 },
    folds: { count: 20001, nesting: 20001 },
  },
  'the deepest nesting the parser reads is kept whole': {
    file: 'topology.dot',
    text: subgraphs(maxSubgraphDepth),
    symbols: { count: 1 + 2 * maxSubgraphDepth, depth: symbolDepthLimit, deepest: [`node n${maxSubgraphDepth - 1}`] },
    folds: { count: maxSubgraphDepth + 1, nesting: maxSubgraphDepth + 1 },
  },
  'nesting past it is flattened into the last level, in document order': {
    file: 'topology.dot',
    text: subgraphs(maxSubgraphDepth + 2),
    symbols: {
      count: 1 + maxSubgraphDepth + 2 + readNodes,
      depth: symbolDepthLimit,
      deepest: [`node n${maxSubgraphDepth - 1}`, `subgraph s${maxSubgraphDepth}`, `subgraph s${maxSubgraphDepth + 1}`],
    },
    folds: { count: maxSubgraphDepth + 3, nesting: maxSubgraphDepth + 3 },
  },
  'unclosed brackets 20,000 deep, then closing braces': {
    file: 'topology.dot',
    text: `digraph g\n${'[\n'.repeat(20000)}${'}'.repeat(20000)}`,
    symbols: { count: 1, depth: 1 },
    folds: { count: 0, nesting: 0 },
  },
  'two unclosed blocks with the same span nest instead of vanishing': {
    file: 'topology.dot',
    text: 'digraph g {\n  subgraph {\n  {\n',
    symbols: { count: 3, depth: 3, deepest: ['subgraph (anonymous subgraph)'] },
    folds: { count: 0, nesting: 0 },
  },
  'comment folds are marked as comments': {
    file: 'topology.dot',
    text: '// one\n// two\ndigraph g {\n  /* a\n     block */\n  a;\n}\n',
    symbols: { count: 2, depth: 2 },
    folds: { count: 3, nesting: 2, comments: ['1-2', '4-5'] },
  },
  'a JSON card with 5,000 nested lists of objects': {
    file: 'cards/a@1.0.0.json',
    text: `{"id": "a", "x": ${'[{"k":\n'.repeat(5000)}1${'}]'.repeat(5000)}}`,
    // `x` and every `k` entry, and every object in a list
    symbols: { count: 2, depth: 1 },
    folds: { count: 10001, nesting: 10001 },
  },
  'a JSON card with 5,000 nested lists on one line': {
    file: 'cards/a@1.0.0.json',
    text: `{"id": "a", "x": ${'['.repeat(5000)}${']'.repeat(5000)}}`,
    symbols: { count: 2, depth: 1 },
    folds: { count: 0, nesting: 0 },
  },
  'a YAML card indented 300 levels deep': {
    file: 'cards/a@1.0.0.yaml',
    text: `id: a\nx:\n${Array.from({ length: 300 }, (_, i) => `${' '.repeat(i + 1)}k${i}:\n`).join('')}${' '.repeat(301)}v\n`,
    symbols: { count: 2, depth: 1 },
    folds: { count: 301, nesting: 301 },
  },
  'a YAML card with 5,000 nested flow collections (refused by the reader)': {
    file: 'cards/a@1.0.0.yaml',
    text: `id: a\nx: ${'[{k: '.repeat(5000)}1${'}]'.repeat(5000)}\n`,
    symbols: { count: 0, depth: 0 },
    folds: { count: 0, nesting: 0 },
  },
};

interface Shape {
  readonly count: number;
  readonly depth: number;
  readonly deepest: readonly string[];
}

/** Counts the symbols level by level, checking on the way that every selection and child lies inside its symbol. */
function shapeOf(symbols: readonly DocumentSymbol[]): Shape {
  let level: readonly DocumentSymbol[] = symbols;
  let count = 0;
  let depth = 0;
  let deepest: readonly DocumentSymbol[] = [];
  while (level.length > 0) {
    const next: DocumentSymbol[] = [];
    for (const s of level) {
      assert.ok(s.span.start <= s.selectionSpan.start && s.selectionSpan.end <= s.span.end, `the selection of ${s.name} lies inside its span`);
      for (const child of s.children) {
        assert.ok(s.span.start <= child.span.start && child.span.end <= s.span.end, `${child.name} lies inside ${s.name}`);
        next.push(child);
      }
    }
    count += level.length;
    depth++;
    deepest = level;
    level = next;
  }
  return { count, depth, deepest: deepest.map((s) => `${s.kind} ${s.name}`) };
}

/** The longest chain of folds each inside the previous (a sweep over folds sorted outermost first). */
function nestingOf(folds: readonly Fold[]): number {
  const open: Fold[] = [];
  let most = 0;
  for (const fold of [...folds].sort((a, b) => a.start - b.start || b.end - a.end)) {
    while (open.length > 0 && open[open.length - 1].end < fold.end) open.pop();
    open.push(fold);
    most = Math.max(most, open.length);
  }
  return most;
}

function checkDeep(c: DeepCase): void {
  const { bundle } = loadFixture(`//- ${c.file}\n${c.text}`);
  const text = bundle.files.get(c.file)?.text ?? '';
  const shape = shapeOf(documentSymbols(bundle, c.file));
  assert.equal(shape.count, c.symbols.count, 'symbols');
  assert.equal(shape.depth, c.symbols.depth, 'depth of the symbol tree');
  if (c.symbols.deepest !== undefined) assert.deepEqual(shape.deepest, c.symbols.deepest);
  if (c.symbols.deepestCount !== undefined) assert.equal(shape.deepest.length, c.symbols.deepestCount, 'symbols on the deepest level');

  const folds = foldingRanges(bundle, c.file);
  for (const fold of folds) assert.ok(0 <= fold.start && fold.start < fold.end && fold.end <= text.length, 'a fold lies inside the text');
  assert.equal(folds.length, c.folds.count, 'folds');
  assert.equal(nestingOf(folds), c.folds.nesting, 'nesting of the folds');
  const index = lineIndex(text);
  const comments = folds.filter((f) => f.kind === 'comment').map((f) => `${index.positionAt(f.start).line + 1}-${index.positionAt(f.end).line + 1}`);
  assert.deepEqual(comments, c.folds.comments ?? []);
}

describe('ide: symbols and folds of deeply nested documents', () => {
  for (const [name, c] of Object.entries(cases)) it(name, () => checkDeep(c));
});
