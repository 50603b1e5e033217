/**
 * Every IDE function is total: on a bundle mangled by random edits (garbage, half-typed
 * DOT and YAML), at any offset, it answers without throwing, and every range it returns lies
 * inside its file; a workspace edit's ranges never overlap within one file.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { loadBundle } from '../src/bundle/resolve';
import {
  codeActions,
  complete,
  definition,
  documentSymbols,
  foldingRanges,
  hover,
  prepareRename,
  references,
  rename,
  type FileSpan,
  type IdeBundle,
  type WorkspaceEdit,
} from '../src/ide';
import { codeLenses, documentHighlights, documentLinks, inlayHints, semanticTokens, workspaceSymbols } from '../src/ide';
import { applyTextEdits, formatDocument, formatDot, formatRange } from '../src/ide';
import type { Span } from '../src/text';
import { card } from './support/ide';

const base: Record<string, string> = {
  'topology.dot': `// a small bundle
digraph g {
  node [shape=box];
  writer [card="writer@1.0.0"];
  editor [card="editor@1.0.0", label="Editor"];
  subgraph cluster_x { start; "my node"; }
  writer -> editor [out="draft", in="prose", condition="outcome=success"];
  editor -> start -> "my node";
}`,
  'cards/writer@1.0.0.yaml': card({ id: 'writer', outputs: [['draft', 'markdown']], extra: ['tools: [git, shel]', 'phase: [testing, testing]', 'requires_human: true'] }),
  'cards/editor@1.0.0.yaml': card({ id: 'editor', inputs: [['prose', 'text']], dependencies: ['ghost'], extra: ['will_not: [code]'] }),
  'cards/tool.json': '{"id": "runner", "name": "Runner", "type": "shell-tool", "action": "run", "spec": "Runs the suite and reports the results of every test.", "inputs": [], "outputs": [], "version": "1.0.0"}',
  'ontology/extensions.yaml': 'terms:\n  - id: acme/pii\n    kind: data-type\n    label: PII\n    description: Personal data.\n    since: "0.1.0"\n    broader: structured',
};
const paths = Object.keys(base);

const pieces = ['[', ']', '"', '->', '--', '=', ':', '- ', '\n', '{', '}', 'card="', '@', '#', '  ', ',', ';', 'start', 'type: ', '\u{1F600}', '\r\n', '\\', '/*', '*/', '&&', 'outcome='];

const editArbitrary = fc.record({
  file: fc.constantFrom(...paths),
  at: fc.nat(),
  remove: fc.nat({ max: 8 }),
  insert: fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom(...pieces)),
});

function within(text: string | undefined, span: Span, what: string): void {
  assert.ok(text !== undefined, `${what}: unknown file`);
  assert.ok(Number.isInteger(span.start) && Number.isInteger(span.end) && 0 <= span.start && span.start <= span.end && span.end <= text.length, `${what}: [${span.start}, ${span.end}) outside 0..${text.length}`);
}

function checkEdit(bundle: IdeBundle, edit: WorkspaceEdit, what: string): void {
  for (const created of edit.creates ?? []) assert.ok(!bundle.files.has(created.file), `${what}: creates ${created.file}, which exists`);
  for (const change of edit.changes) {
    const text = bundle.files.get(change.file)?.text;
    const sorted = [...change.edits].sort((a, b) => a.span.start - b.span.start);
    sorted.forEach((e, i) => {
      within(text, e.span, `${what} edit in ${change.file}`);
      if (i > 0) assert.ok(sorted[i - 1].span.end <= e.span.start, `${what}: overlapping edits in ${change.file}`);
    });
  }
}

function exercise(files: Record<string, string>, offsets: readonly number[]): void {
  const sources = Object.entries(files).map(([path, text]) => ({ path, text }));
  const bundle: IdeBundle = { files: new Map(sources.map((f) => [f.path, f] as const)), result: loadBundle(sources, { folderName: 'fuzz' }) };
  const text = (file: string): string | undefined => bundle.files.get(file)?.text;
  const locations = (list: readonly FileSpan[], what: string): void => list.forEach((l) => within(text(l.file), l.span, what));
  for (const file of Object.keys(files)) {
    const length = files[file].length;
    for (const raw of offsets) {
      const offset = raw % (length + 1);
      const h = hover(bundle, file, offset);
      if (h) within(text(file), h.span, 'hover');
      const c = complete(bundle, file, offset);
      if (c) within(text(file), c.span, 'completion');
      locations(definition(bundle, file, offset), 'definition');
      locations(references(bundle, file, offset, true), 'references');
      const target = prepareRename(bundle, file, offset);
      if (target && !('error' in target)) within(text(file), target.span, 'prepareRename');
      const renamed = rename(bundle, file, offset, 'fresh_name');
      if (!('error' in renamed)) checkEdit(bundle, renamed, 'rename');
      documentHighlights(bundle, file, offset).forEach((h) => within(text(file), h.span, 'highlight'));
    }
    const whole = { start: 0, end: length };
    for (const span of [whole, { start: Math.floor(length / 3), end: Math.floor((2 * length) / 3) }]) {
      const tokens = semanticTokens(bundle, file, span);
      tokens.forEach((t, i) => {
        within(text(file), t, 'semantic token');
        if (i > 0) assert.ok(tokens[i - 1].end <= t.start, 'semantic tokens are sorted and never overlap');
      });
      inlayHints(bundle, file, span).forEach((h) => within(text(file), { start: h.offset, end: h.offset }, 'inlay hint'));
    }
    for (const lens of codeLenses(bundle, file)) {
      within(text(file), lens.span, 'code lens');
      if (lens.action?.kind === 'show') locations([lens.action.target], 'code lens target');
      if (lens.action?.kind === 'list') locations([lens.action.at, ...lens.action.places], 'code lens places');
    }
    documentLinks(bundle, file).forEach((l) => {
      within(text(file), l.span, 'document link');
      assert.ok(bundle.files.has(l.target), `document link to ${l.target}, a file of the bundle`);
    });
    documentSymbols(bundle, file).forEach((s) => within(text(file), s.span, 'symbol'));
    foldingRanges(bundle, file).forEach((s) => within(text(file), s, 'fold'));
    // formatting: blanks only, never overlapping, and what it writes formats to itself
    const formatting = formatDocument(bundle, file);
    checkEdit(bundle, { changes: [{ file, edits: formatting }] }, 'formatting');
    for (const e of [...formatting, ...formatRange(bundle, file, { start: Math.floor(length / 3), end: Math.floor((2 * length) / 3) })]) {
      within(text(file), e.span, 'format edit');
      assert.ok(/^[\s\ufeff]*$/.test(e.newText) && /^[\s\ufeff]*$/.test(files[file].slice(e.span.start, e.span.end)), `a format edit changes blanks only: ${JSON.stringify(e)}`);
    }
    if (formatting.length > 0) {
      const formatted = applyTextEdits(files[file], formatting);
      assert.equal(formatDot(formatted), formatted, 'formatting a formatted topology changes nothing');
    }
    const diagnostics = bundle.result.diagnostics.filter((d) => d.location.file === file);
    for (const action of codeActions(bundle, file, { start: 0, end: 0 }, diagnostics)) checkEdit(bundle, action.edit, action.title);
  }
  for (const query of ['', 'w', 'WRT', '\u{1F600}']) locations(workspaceSymbols([bundle], query).map((m) => m.symbol.location), 'workspace symbol');
}

describe('ide: every function is total', () => {
  it('on the unedited bundle, at every offset', () => {
    const longest = Math.max(...Object.values(base).map((t) => t.length));
    exercise(base, Array.from({ length: longest + 1 }, (_, i) => i));
  });

  it('on randomly edited bundles', () => {
    fc.assert(
      fc.property(fc.array(editArbitrary, { maxLength: 6 }), fc.array(fc.nat(), { minLength: 1, maxLength: 12 }), (edits, offsets) => {
        const files = { ...base };
        for (const e of edits) {
          const t = files[e.file];
          const at = e.at % (t.length + 1);
          files[e.file] = t.slice(0, at) + e.insert + t.slice(at + e.remove);
        }
        exercise(files, offsets);
      }),
      { numRuns: 100 },
    );
  });

  it('on unknown files and offsets out of range', () => {
    exercise({ 'topology.dot': '' }, [0]);
    const sources = [{ path: 'topology.dot', text: 'digraph g { a; }' }];
    const bundle: IdeBundle = { files: new Map(sources.map((f) => [f.path, f] as const)), result: loadBundle(sources) };
    assert.equal(hover(bundle, 'nope.dot', 0), undefined);
    assert.equal(complete(bundle, 'topology.dot', 999), undefined);
    assert.deepEqual(definition(bundle, 'topology.dot', -1), []);
    assert.deepEqual(documentSymbols(bundle, 'README.md'), []);
  });
});
