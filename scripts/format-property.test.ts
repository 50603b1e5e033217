/**
 * The formatter's properties (here beside the bundle generator it uses, which the shared project
 * cannot import), over real and generated topologies: the public bundles of the
 * corpus (../shared/corpus, read in place; without that folder its part says so and registers no
 * test), bundles from shared/test/support/generate-bundle.ts and the example bundle. Each topology is
 * formatted as written and with its blanks scrambled at random (fast-check: every blank between
 * two tokens replaced by spaces, tabs and line breaks, the tokens kept), and the formatted text
 * must:
 * - format to itself (idempotent);
 * - read as the same graph (nodes, edges, every attribute with its value);
 * - give the same findings, by code, file, node and edge;
 * - compile to the same Attractor file but for its digest line (the digest hashes the text), or be
 *   refused for the same reasons;
 * - keep every comment, in order.
 * A topology made unreadable (a hyphenated id put before one of its tokens) gets no edit.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { generateBundle } from '../shared/test/support/generate-bundle';
import type { SourceFile } from '../shared/src/bundle/model';
import { loadBundle, type LoadResult } from '../shared/src/bundle/resolve';
import { exportAttractor } from '../shared/src/compile';
import { formatDocument, formatDot } from '../shared/src/ide';
import { lexDot } from '../shared/src/syntax/dot-lexer';
import { parseDot } from '../shared/src/syntax/dot-parser';
import type { DotAttributes } from '../shared/src/syntax/dot-model';
import { assertSameButDigest } from '../shared/test/support/export-fixtures';
import { example, readTree } from '../shared/test/support/mutations';

const corpusRoot = process.env.DARKPRINT_CORPUS ?? path.resolve(__dirname, '../../shared/corpus');
const bundlesRoot = path.join(corpusRoot, 'darkprint-bundles');

interface Bundle {
  readonly name: string;
  readonly files: readonly SourceFile[];
}

const topologyOf = (bundle: Bundle): string => bundle.files.find((f) => f.path === 'topology.dot')?.text ?? '';

function withTopology(bundle: Bundle, text: string): SourceFile[] {
  return bundle.files.map((f) => (f.path === 'topology.dot' ? { path: f.path, text } : f));
}

function attributes(attrs: DotAttributes): string[] {
  return [...attrs.values()].map((a) => `${a.key}=${JSON.stringify(a.value)}${a.fromDefault ? ' (default)' : ''}`).sort();
}

/** The graph a text reads as, without positions. */
function graphOf(text: string): unknown {
  const graph = parseDot(text).graph;
  if (graph === undefined) return undefined;
  return {
    strict: graph.strict,
    directed: graph.directed,
    name: graph.name,
    graph: attributes(graph.graphAttrs),
    nodes: graph.nodes.map((n) => ({ id: n.id, quoted: n.quoted, attrs: attributes(n.attrs), statements: n.statements.length })),
    edges: graph.edges.map((e) => ({ source: e.source, target: e.target, attrs: attributes(e.attrs) })),
  };
}

/** The findings by code, file, node and edge, sorted. */
function findingsOf(result: LoadResult): string[] {
  return result.diagnostics
    .map((d) => `${d.code} ${d.location.file ?? ''} ${d.location.nodeId ?? ''} ${d.location.edge ? `${d.location.edge.source}->${d.location.edge.target}` : ''}`)
    .sort();
}

function commentsOf(text: string): string[] {
  return lexDot(text).table.comments.map((c) => c.text);
}

/** Checks every property of the formatted text of `text`, a topology of `bundle` that reads without a parse error. */
function checkFormatted(bundle: Bundle, text: string, reference: { graph: unknown; findings: string[]; compiled: ReturnType<typeof exportAttractor>; comments: string[] }): void {
  const formatted = formatDot(text);
  assert.ok(formatted !== undefined, `${bundle.name}: the topology is formatted`);
  assert.equal(formatDot(formatted), formatted, `${bundle.name}: formatting is idempotent`);
  assert.deepEqual(graphOf(formatted), reference.graph, `${bundle.name}: the same graph`);
  const result = loadBundle(withTopology(bundle, formatted), { folderName: bundle.name });
  assert.deepEqual(findingsOf(result), reference.findings, `${bundle.name}: the same findings`);
  const compiled = exportAttractor(result);
  assert.equal(compiled.ok, reference.compiled.ok, `${bundle.name}: compiled as before`);
  if (compiled.ok && reference.compiled.ok) assertSameButDigest(reference.compiled.text, compiled.text);
  else if (!compiled.ok && !reference.compiled.ok) assert.deepEqual(compiled.reasons, reference.compiled.reasons);
  assert.deepEqual(commentsOf(formatted), reference.comments, `${bundle.name}: every comment kept, in order`);
}

/** The blanks between the tokens of `text` (comments included), and the tokens themselves. */
function pieces(text: string): { tokens: string[]; gaps: string[]; lineComment: boolean[] } {
  const table = lexDot(text).table;
  const spans: { start: number; end: number; line: boolean }[] = [];
  for (let i = 0; i < table.count; i++) spans.push({ start: table.starts[i], end: table.ends[i], line: false });
  for (const c of table.comments) spans.push({ start: c.span.start, end: c.span.end, line: c.kind !== 'block-comment' });
  spans.sort((a, b) => a.start - b.start);
  const gaps: string[] = [];
  let at = 0;
  for (const s of spans) {
    gaps.push(text.slice(at, s.start));
    at = s.end;
  }
  gaps.push(text.slice(at));
  return { tokens: spans.map((s) => text.slice(s.start, s.end)), gaps, lineComment: spans.map((s) => s.line) };
}

const blanks = fc.constantFrom(' ', '  ', '\t', '\n', '\n\n', '\n\n\n', ' \n  ', '\t\n\t\t', '\r\n');

/**
 * `text` with every blank between two tokens replaced: kept empty where it was (a glued `step-1`),
 * a line break right after a line comment, and one blank at least between two tokens that would
 * otherwise read as one.
 */
function scrambled(text: string): fc.Arbitrary<string> {
  const { tokens, gaps, lineComment } = pieces(text);
  return fc.array(blanks, { minLength: gaps.length, maxLength: gaps.length }).map((chosen) => {
    let out = gaps[0];
    for (let i = 0; i < tokens.length; i++) {
      out += tokens[i];
      const original = gaps[i + 1];
      let gap = i + 1 === gaps.length - 1 ? original : chosen[i + 1];
      if (original === '') gap = '';
      // (a line comment runs to its line's end: blanks before the line break would be part of it)
      else if (lineComment[i] && !/^(\r\n|\n)/.test(gap)) gap = `\n${gap.replace(/^[ \t]+/, '')}`;
      out += gap;
    }
    return out;
  });
}

function referenceOf(bundle: Bundle): { graph: unknown; findings: string[]; compiled: ReturnType<typeof exportAttractor>; comments: string[] } {
  const text = topologyOf(bundle);
  const result = loadBundle([...bundle.files], { folderName: bundle.name });
  return { graph: graphOf(text), findings: findingsOf(result), compiled: exportAttractor(result), comments: commentsOf(text) };
}

function checkBundle(bundle: Bundle, runs: number): void {
  const text = topologyOf(bundle);
  assert.ok(!parseDot(text).diagnostics.some((d) => d.code === 'dot/parse-error'), `${bundle.name}: the topology reads without a parse error`);
  const reference = referenceOf(bundle);
  checkFormatted(bundle, text, reference);
  fc.assert(
    fc.property(scrambled(text), (variant) => {
      // (a blank put where the lexer reads two tokens as one changes the graph: not a variant of the same text)
      fc.pre(pieces(variant).tokens.join('\u0000') === pieces(text).tokens.join('\u0000'));
      checkFormatted(bundle, variant, reference);
    }),
    { numRuns: runs, seed: 20_260_101 },
  );
}

const generated: Bundle[] = [
  { name: 'generated-40', files: generateBundle({ nodes: 40, seed: 3 }) },
  { name: 'generated-120', files: generateBundle({ nodes: 120, seed: 7 }) },
];

describe('ide: formatting, properties', () => {
  it('the example bundle', () => checkBundle({ name: 'example', files: example }, 25));
  for (const bundle of generated) it(`generated bundle ${bundle.name}`, () => checkBundle(bundle, 10));

  it('a topology with a parse error gets no edit', () => {
    const bundles = [{ name: 'example', files: example }, ...generated];
    fc.assert(
      fc.property(fc.constantFrom(...bundles), fc.nat(), (bundle, pick) => {
        const text = topologyOf(bundle);
        const table = lexDot(text).table;
        const at = table.starts[pick % table.count];
        const broken = `${text.slice(0, at)} code-builder ${text.slice(at)}`;
        const files = withTopology(bundle, broken);
        const result = loadBundle(files, { folderName: bundle.name });
        assert.deepEqual(formatDocument({ files: new Map(files.map((f) => [f.path, f] as const)), result }, 'topology.dot'), []);
      }),
      { numRuns: 40, seed: 20_260_102 },
    );
  });
});

if (!existsSync(bundlesRoot)) {
  console.log(`formatting properties: ${bundlesRoot} is absent, so the corpus part has nothing to check (set DARKPRINT_CORPUS to its folder).`);
} else {
  describe('ide: formatting, properties over the corpus', () => {
    for (const name of readdirSync(bundlesRoot, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort()) {
      it(name, () => checkBundle({ name, files: readTree(path.join(bundlesRoot, name)) }, 8));
    }
  });
}
