/**
 * The server's pure pieces, as tables: position ⇄ offset conversion (line breaks of every
 * kind, positions past a line's end), incremental changes, the docs anchors of every code,
 * settings read from whatever a client sends, and edits that create files.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { allDiagnosticCodes, diagnosticInfo } from '../../shared/src/diagnostics';
import { lineIndex } from '../../shared/src/text';
import { CompletionItemKind, InsertTextFormat } from 'vscode-languageserver';
import type { CodeAction, CompletionResult, HoverResult } from '../../shared/src/ide/types';
import { applyChanges, docsAnchor, docsLinker, fullSupport, toCodeAction, toCompletionList, toHover, toLspDiagnostic, toOffset, toRange, type ClientSupport, type FileContext } from '../src/convert';
import { logsAt, readSettings, type LogLevel } from '../src/settings';
import { isBundleFile, isRootMarker } from '../src/workspace';
import { repoRoot } from './support/lsp-client';

describe('server: position conversion', function () {
  const offsets: { text: string; line: number; character: number; offset: number; why: string; hideMark?: boolean }[] = [
    { text: 'ab\ncd', line: 0, character: 1, offset: 1, why: 'inside a line' },
    { text: 'ab\ncd', line: 0, character: 2, offset: 2, why: 'the end of a line' },
    { text: 'ab\ncd', line: 0, character: 9, offset: 2, why: 'past the end of a line: its end, not the next line' },
    { text: 'ab\r\ncd', line: 0, character: 3, offset: 2, why: 'between CR and LF: before the break' },
    { text: 'ab\rcd', line: 0, character: 5, offset: 2, why: 'past a line ended by a lone CR' },
    { text: 'ab\r\ncd', line: 1, character: 1, offset: 5, why: 'after a CRLF' },
    { text: 'ab\ncd', line: 1, character: 9, offset: 5, why: 'past the end of the last line: the end of the text' },
    { text: 'ab\ncd', line: 7, character: 0, offset: 5, why: 'a line past the end: the end of the text' },
    { text: 'ab\ncd', line: -1, character: 0, offset: 0, why: 'a negative line: the start' },
    { text: '\r\n\r\n', line: 1, character: 4, offset: 2, why: 'an empty CRLF line' },
    { text: '😀x', line: 0, character: 2, offset: 2, why: 'UTF-16 code units, as the LSP counts by default' },
    { text: '\uFEFFid: a\nb', line: 0, character: 0, offset: 1, why: 'a file from disk: its first column is after the byte order mark', hideMark: true },
    { text: '\uFEFFid: a\nb', line: 0, character: 4, offset: 5, why: 'a file from disk: the mark takes no column', hideMark: true },
    { text: '\uFEFFid: a\nb', line: 0, character: 99, offset: 6, why: 'a file from disk: past the first line’s end', hideMark: true },
    { text: '\uFEFFid: a\nb', line: 1, character: 1, offset: 8, why: 'a file from disk: later lines as they are', hideMark: true },
    { text: '\uFEFFid: a\nb', line: -1, character: 0, offset: 1, why: 'a file from disk: a negative line is the start, after the mark', hideMark: true },
    { text: '\uFEFFid: a\nb', line: 0, character: 4, offset: 4, why: 'a text an editor sent keeps its mark as a character' },
  ];
  for (const c of offsets) {
    it(`toOffset: ${c.why}`, function () {
      assert.equal(toOffset(lineIndex(c.text, c.hideMark), { line: c.line, character: c.character }), c.offset);
    });
  }

  const ranges: { text: string; start: number; end: number; range: [number, number, number, number]; why: string; hideMark?: boolean }[] = [
    { text: 'ab\ncd', start: 1, end: 4, range: [0, 1, 1, 1], why: 'across a line break' },
    { text: 'ab\r\ncd', start: 3, end: 3, range: [0, 2, 0, 2], why: 'an offset between CR and LF moves before the CR' },
    { text: 'ab\r\ncd', start: 0, end: 3, range: [0, 0, 0, 2], why: 'a span ending between CR and LF ends before the CR' },
    { text: 'ab', start: 1, end: 99, range: [0, 1, 0, 2], why: 'a span past the end is clamped' },
    { text: '\uFEFFid: a\nb', start: 5, end: 6, range: [0, 4, 0, 5], why: 'a file from disk: the first line counts from after the mark', hideMark: true },
    { text: '\uFEFFid: a\nb', start: 0, end: 1, range: [0, 0, 0, 0], why: 'a file from disk: the mark itself is empty at the start', hideMark: true },
    { text: '\uFEFFid: a\nb', start: 7, end: 8, range: [1, 0, 1, 1], why: 'a file from disk: later lines as they are', hideMark: true },
  ];
  for (const c of ranges) {
    it(`toRange: ${c.why}`, function () {
      const r = toRange(lineIndex(c.text, c.hideMark), { start: c.start, end: c.end });
      assert.deepEqual([r.start.line, r.start.character, r.end.line, r.end.character], c.range);
    });
  }

  const changes: { text: string; changes: Parameters<typeof applyChanges>[1]; after: string; why: string }[] = [
    { text: 'abc', changes: [{ text: 'xyz' }], after: 'xyz', why: 'a whole-text change' },
    { text: 'abc', changes: [{ range: { start: { line: 0, character: 1 }, end: { line: 0, character: 2 } }, text: 'XY' }], after: 'aXYc', why: 'a replacement' },
    {
      text: 'a\r\nb',
      changes: [{ range: { start: { line: 0, character: 5 }, end: { line: 1, character: 0 } }, text: '' }],
      after: 'ab',
      why: 'a deletion from past a line’s end to the next line removes the break',
    },
    {
      text: 'one\ntwo',
      changes: [
        { range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } }, text: '\n' },
        { range: { start: { line: 2, character: 3 }, end: { line: 2, character: 3 } }, text: '!' },
      ],
      after: 'one\n\ntwo!',
      why: 'changes apply in order, each to the result of the previous one',
    },
    {
      text: 'ab',
      changes: [{ range: { start: { line: 0, character: 2 }, end: { line: 0, character: 1 } }, text: '' }],
      after: 'a',
      why: 'a reversed range is taken in order',
    },
  ];
  for (const c of changes) {
    it(`applyChanges: ${c.why}`, function () {
      assert.equal(applyChanges(c.text, c.changes), c.after);
    });
  }
});

describe('server: diagnostic tags', function () {
  it("a finding is tagged by its code's `shownAs` in the registry (unused: faded, retired: struck through), and only then", function () {
    const files: FileContext = { uri: (relative) => `file:///${relative}`, lineIndex: () => lineIndex('x\n'), versions: new Map() };
    const tagged = allDiagnosticCodes.map((code) => {
      const lsp = toLspDiagnostic({ code, severity: 'warning', message: 'm', location: { file: 'a', span: { start: 0, end: 1 } } }, 'a', { files, support: fullSupport });
      return [code, lsp.tags] as const;
    });
    const expected = allDiagnosticCodes.map((code) => {
      const shownAs = diagnosticInfo(code).shownAs;
      return [code, shownAs === 'unused' ? [1] : shownAs === 'retired' ? [2] : undefined] as const;
    });
    assert.deepEqual(tagged, expected);
    assert.deepEqual(tagged.filter(([, tags]) => tags !== undefined).map(([code]) => code).sort(), ['bundle/orphan-card', 'bundle/unreachable-node', 'card/deprecated-term', 'card/retired-field']);
  });
});

describe('server: docs links', function () {
  it('every code’s anchor names its heading in docs/diagnostics.md', function () {
    const docs = readFileSync(path.join(repoRoot, 'docs/diagnostics.md'), 'utf8');
    const anchors = new Set([...docs.matchAll(/^### `([^`]+)`/gm)].map((m) => docsAnchor(m[1])));
    for (const code of allDiagnosticCodes) assert.ok(anchors.has(docsAnchor(code)), `${code} has a heading`);
    assert.equal(docsAnchor('bundle/prohibition-violated'), 'bundleprohibition-violated');
  });
  it('a code links to its heading: by anchor on the web, by line in a page on this machine', function () {
    const page = '# Codes\n\n### `dot/parse-error`\n\ntext\n\n### `bundle/missing-card`\n';
    assert.equal(docsLinker('https://x.test/d.md', page)('bundle/missing-card'), 'https://x.test/d.md#bundlemissing-card');
    assert.equal(docsLinker('file:///d.md', page)('bundle/missing-card'), 'file:///d.md#L7');
    assert.equal(docsLinker('file:///d.md', page)('dot/parse-error'), 'file:///d.md#L3');
    assert.equal(docsLinker('file:///d.md', page)('card/bad-type'), 'file:///d.md#cardbad-type', 'a code the page lacks keeps its anchor');
    assert.equal(docsLinker('file:///d.md')('dot/parse-error'), 'file:///d.md#dotparse-error', 'a page that could not be read: anchors');
  });
});

describe('server: settings', function () {
  const cases: { raw: unknown; debounceMs: number; severity?: [string, string][]; ignore?: string[]; docsUrl?: string; inlayHints?: { nodeCards: boolean; edgeTypes: boolean }; problems: number; why: string }[] = [
    { raw: undefined, debounceMs: 150, problems: 0, why: 'nothing sent: the defaults' },
    { raw: { debounceMs: 0 }, debounceMs: 0, problems: 0, why: 'the section itself' },
    { raw: { darkprint: { debounceMs: 20, ignore: ['attractor/'] } }, debounceMs: 20, ignore: ['attractor/'], problems: 0, why: 'the section under its name' },
    { raw: { 'darkprint.debounceMs': 30 }, debounceMs: 30, problems: 0, why: 'a dotted key' },
    { raw: { debounceMs: -5 }, debounceMs: 150, problems: 1, why: 'a negative debounce is refused' },
    { raw: { debounceMs: '10' }, debounceMs: 150, problems: 1, why: 'a debounce that is not a number is refused' },
    {
      raw: { severity: { 'bundle/orphan-card': 'error', 'attractor/*': 'off', 'card/': 'loud' } },
      debounceMs: 150,
      severity: [['bundle/orphan-card', 'error'], ['attractor/*', 'off']],
      problems: 1,
      why: 'severities: known levels kept, others refused one by one',
    },
    { raw: { ignore: ['dot/self-loop', 3, ''] }, debounceMs: 150, ignore: ['dot/self-loop'], problems: 2, why: 'ignore entries that are not codes are refused' },
    { raw: { severity: ['x'], ignore: 'dot/' }, debounceMs: 150, problems: 2, why: 'wrong shapes are refused whole' },
    {
      raw: { severity: { 'bundle/prohibition-violatd': 'off', 'bundle/*': 'info' }, ignore: ['attractr/', 'card/', 'attractr/'] },
      debounceMs: 150,
      severity: [['bundle/prohibition-violatd', 'off'], ['bundle/*', 'info']],
      ignore: ['attractr/', 'card/', 'attractr/'],
      problems: 2,
      why: 'a code or family misspelt is said (and changes nothing)',
    },
    { raw: { docsUrl: ' https://x.test/d.md ' }, debounceMs: 150, docsUrl: 'https://x.test/d.md', problems: 0, why: 'a docs URL' },
    { raw: { __proto__: { debounceMs: 1 } }, debounceMs: 150, problems: 0, why: 'a __proto__ key is inert' },
    { raw: { inlayHints: { nodeCards: false } }, debounceMs: 150, inlayHints: { nodeCards: false, edgeTypes: true }, problems: 0, why: 'an inlay hint kind turned off' },
    { raw: { 'darkprint.inlayHints.edgeTypes': false }, debounceMs: 150, inlayHints: { nodeCards: true, edgeTypes: false }, problems: 0, why: 'an inlay hint kind turned off by a dotted key' },
    { raw: { inlayHints: { nodeCards: 'no' } }, debounceMs: 150, problems: 1, why: 'an inlay hint switch that is not true or false is refused' },
    { raw: { inlayHints: true }, debounceMs: 150, problems: 1, why: 'inlay hints that are not an object of switches are refused' },
  ];
  for (const c of cases) {
    it(c.why, function () {
      const read = readSettings(c.raw);
      assert.equal(read.settings.debounceMs, c.debounceMs);
      assert.deepEqual([...read.settings.severity], c.severity ?? []);
      assert.deepEqual(read.settings.ignore, c.ignore ?? []);
      assert.equal(read.settings.docsUrl, c.docsUrl);
      assert.deepEqual(read.settings.inlayHints, c.inlayHints ?? { nodeCards: true, edgeTypes: true });
      assert.equal(read.problems.length, c.problems, read.problems.join('\n'));
    });
  }
});

describe('server: bundle files', function () {
  const files: [string, boolean][] = [
    ['topology.dot', true],
    ['pipeline.gv', true],
    ['blueprint.yaml', true],
    ['extensions.json', true],
    ['ontology/extensions.yaml', true],
    ['cards/a@1.0.0.yaml', true],
    ['cards/ns/a@1.0.0.yml', true],
    ['cards/a.json', true],
    ['README.md', false],
    ['notes.yaml', false],
    ['sub/topology.dot', false],
    ['ontology/other.yaml', false],
    ['cards/readme.md', false],
  ];
  for (const [file, wanted] of files) {
    it(`${file} is ${wanted ? '' : 'not '}a bundle file`, function () {
      assert.equal(isBundleFile(file), wanted);
    });
  }
  const markers: [string, boolean, boolean][] = [
    ['topology.dot', false, true],
    ['Topology.DOT', false, true],
    ['blueprint.yml', false, true],
    ['cards', true, true],
    ['cards', false, false],
    ['pipeline.dot', false, false],
  ];
  for (const [name, folder, wanted] of markers) {
    it(`${folder ? 'a folder' : 'a file'} named ${name} does ${wanted ? '' : 'not '}make a bundle root`, function () {
      assert.equal(isRootMarker(name, folder), wanted);
    });
  }
});

describe('server: completion lists', function () {
  // One item list converted more than once (the IDE layer hands back the same items while the
  // cards are the same): each conversion gives the form its own request asks for.
  const text = 'a [card=x];\nb;\n';
  const files: FileContext = { uri: (relative) => `file:///${relative}`, lineIndex: () => lineIndex(text), versions: new Map() };
  const result: CompletionResult = { items: [{ label: 'x@1.0.0', kind: 'card', insertText: '"x@1.0.0"', documentation: 'The *x* card.' }], span: { start: 8, end: 9 } };
  const inside = { line: 0, character: 9 };
  const elsewhere = { line: 1, character: 1 };
  const withoutDefaults: ClientSupport = { ...fullSupport, completionEditRange: false };
  // (Markdown hovers, but plain completion documentation: the two are asked for apart)
  const plainDocumentation: ClientSupport = { ...fullSupport, documentationMarkdown: false };
  const markdown = { documentation: { kind: 'markdown', value: 'The *x* card.' } };
  const forms = [
    { name: 'the shared edit range', position: inside, support: fullSupport, item: { ...markdown, textEditText: '"x@1.0.0"' } },
    { name: 'a cursor outside the replaced text', position: elsewhere, support: fullSupport, item: { ...markdown, insertText: '"x@1.0.0"' } },
    { name: 'an edit of its own', position: inside, support: withoutDefaults, item: { ...markdown, textEdit: { range: { start: { line: 0, character: 8 }, end: { line: 0, character: 9 } }, newText: '"x@1.0.0"' } } },
    { name: 'a client without Markdown documentation', position: inside, support: plainDocumentation, item: { documentation: 'The x card.', textEditText: '"x@1.0.0"' } },
  ];
  for (const round of [1, 2]) {
    for (const form of forms) {
      // each form asked twice in a row (the second answer is the kept one), then again after the others
      it(`${form.name} (${round === 1 ? 'first' : 'again, after the others'})`, function () {
        for (let ask = 0; ask < 2; ask++) {
          const list = toCompletionList(files, 'topology.dot', form.position, result, form.support);
          assert.deepEqual(list.items, [{ label: 'x@1.0.0', kind: CompletionItemKind.Module, ...form.item }]);
        }
      });
    }
  }
});

describe('server: completion snippets', function () {
  // A JSON key before another member: `"model": $0,` for a client that takes snippets, the plain text for one that does not.
  const text = '{\n  mo\n  "type": "agent"\n}\n';
  const files: FileContext = { uri: (relative) => `file:///${relative}`, lineIndex: () => lineIndex(text), versions: new Map() };
  const result: CompletionResult = { items: [{ label: 'model', kind: 'field', insertText: '"model": ', snippet: '"model": $0,' }], span: { start: 4, end: 6 } };
  const inside = { line: 1, character: 4 };
  const range = { start: { line: 1, character: 2 }, end: { line: 1, character: 4 } };
  const forms = [
    { name: 'a snippet in the shared edit range', support: fullSupport, position: inside, item: { insertTextFormat: InsertTextFormat.Snippet, textEditText: '"model": $0,' } },
    { name: 'a snippet in an edit of its own', support: { ...fullSupport, completionEditRange: false }, position: inside, item: { insertTextFormat: InsertTextFormat.Snippet, textEdit: { range, newText: '"model": $0,' } } },
    { name: 'a snippet as insert text, the cursor outside the replaced text', support: fullSupport, position: { line: 2, character: 0 }, item: { insertTextFormat: InsertTextFormat.Snippet, insertText: '"model": $0,' } },
    { name: 'plain text for a client without snippets', support: { ...fullSupport, snippets: false }, position: inside, item: { textEditText: '"model": ' } },
  ];
  for (const form of forms) {
    it(form.name, function () {
      const list = toCompletionList(files, 'cards/a@1.0.0.json', form.position, result, form.support);
      assert.deepEqual(list.items, [{ label: 'model', kind: CompletionItemKind.Field, ...form.item }]);
    });
  }
});

describe('server: hovers', function () {
  const text = 'a [card="x@1.0.0"];\n';
  const files: FileContext = { uri: (relative) => `file:///${relative}`, lineIndex: () => lineIndex(text), versions: new Map() };
  const hover: HoverResult = { contents: '**x** · `x@1.0.0`\n\nReads \\*notes\\*.', span: { start: 9, end: 16 } };
  const rows: readonly { readonly name: string; readonly support: ClientSupport; readonly contents: { kind: string; value: string } }[] = [
    { name: 'Markdown as it is', support: fullSupport, contents: { kind: 'markdown', value: hover.contents } },
    // a client that takes Markdown documentation in completion only still gets plain hovers
    { name: 'plain text without the marks', support: { ...fullSupport, markdown: false }, contents: { kind: 'plaintext', value: 'x · x@1.0.0\n\nReads *notes*.' } },
  ];
  const plainRows: readonly { readonly markdown: string; readonly plain: string }[] = [
    { markdown: '*In a card*: the `type` field', plain: 'In a card: the type field' },
    { markdown: '**Agent** · *node-type*', plain: 'Agent · node-type' },
    { markdown: '```yaml\nid: writer\n```\nafter', plain: 'id: writer\nafter' },
    { markdown: 'weight 2 * 3 and a*b stay', plain: 'weight 2 * 3 and a*b stay' },
    { markdown: 'an escaped \\*star\\* stays', plain: 'an escaped *star* stays' },
  ];
  for (const row of plainRows) {
    it(`plain text of ${JSON.stringify(row.markdown)}`, function () {
      assert.deepEqual(toHover(files, 'topology.dot', { ...hover, contents: row.markdown }, { ...fullSupport, markdown: false }).contents, { kind: 'plaintext', value: row.plain });
    });
  }
  for (const row of rows) {
    it(row.name, function () {
      assert.deepEqual(toHover(files, 'topology.dot', hover, row.support), { contents: row.contents, range: { start: { line: 0, character: 9 }, end: { line: 0, character: 16 } } });
    });
  }
});

describe('server: edits that create a file', function () {
  const files: FileContext = { uri: (relative) => `file:///b/${relative}`, lineIndex: () => lineIndex('digraph g { a; }\n'), versions: new Map([['topology.dot', 4]]) };
  const action: CodeAction = {
    title: 'Create card `a@1.0.0`',
    kind: 'quickfix',
    edit: { creates: [{ file: 'cards/a@1.0.0.yaml', text: 'id: a\nspec: TODO\n' }], changes: [{ file: 'topology.dot', edits: [{ span: { start: 13, end: 13 }, newText: ' [card="a@1.0.0"]' }] }] },
    show: { file: 'cards/a@1.0.0.yaml', span: { start: 12, end: 16 } },
  };
  const rows: readonly { readonly name: string; readonly support: ClientSupport; readonly expected: unknown }[] = [
    {
      name: 'a client that creates files: the file created, its text inserted, then the other changes; the place opened is read in the new text',
      support: fullSupport,
      expected: {
        title: action.title,
        kind: 'quickfix',
        edit: {
          documentChanges: [
            { kind: 'create', uri: 'file:///b/cards/a@1.0.0.yaml', options: { overwrite: false, ignoreIfExists: false } },
            { textDocument: { uri: 'file:///b/cards/a@1.0.0.yaml', version: null }, edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: 'id: a\nspec: TODO\n' }] },
            { textDocument: { uri: 'file:///b/topology.dot', version: 4 }, edits: [{ range: { start: { line: 0, character: 13 }, end: { line: 0, character: 13 } }, newText: ' [card="a@1.0.0"]' }] },
          ],
        },
        command: { title: action.title, command: 'darkprint.showLocation', arguments: ['file:///b/cards/a@1.0.0.yaml', { start: { line: 1, character: 6 }, end: { line: 1, character: 10 } }] },
      },
    },
    { name: 'a client that cannot create files: no such action', support: { ...fullSupport, createFiles: false }, expected: undefined },
    { name: 'a client without documentChanges: no such action', support: { ...fullSupport, documentChanges: false }, expected: undefined },
  ];
  for (const row of rows) {
    it(row.name, function () {
      assert.deepEqual(toCodeAction(files, action, row.support, () => undefined), row.expected);
    });
  }
  it('a place to complete carries the suggest argument', function () {
    const pick: CodeAction = { title: 'Pin one', kind: 'quickfix', edit: { changes: [{ file: 'topology.dot', edits: [{ span: { start: 13, end: 13 }, newText: ' [card=""]' }] }] }, show: { file: 'topology.dot', span: { start: 21, end: 21 }, suggest: true } };
    assert.deepEqual(toCodeAction(files, pick, fullSupport, () => undefined)?.command?.arguments?.[2], 'suggest');
  });
});

describe('server: links to bundle files in hovers', function () {
  const card = 'id: a\nname: A\n';
  const files: FileContext = { uri: (relative) => `file:///b/${relative.split('/').map(encodeURIComponent).join('/')}`, lineIndex: (relative) => lineIndex(relative === 'cards/a@1.0.0.yaml' ? card : ''), versions: new Map() };
  const rows: readonly { readonly name: string; readonly markdown: string; readonly converted: string; readonly plain: string }[] = [
    {
      name: 'a link to a file at an offset: its URI at that line',
      markdown: 'Defined in [cards/a@1.0.0.yaml](bundle-file:cards/a@1.0.0.yaml#6)',
      converted: 'Defined in [cards/a@1.0.0.yaml](file:///b/cards/a%401.0.0.yaml#L2)',
      plain: 'Defined in cards/a@1.0.0.yaml',
    },
    {
      name: 'a link without an offset, to a path with a space',
      markdown: 'See [cards/my card.yaml](bundle-file:cards/my%20card.yaml).',
      converted: 'See [cards/my card.yaml](file:///b/cards/my%20card.yaml).',
      plain: 'See cards/my card.yaml.',
    },
    { name: 'other links stay as they are', markdown: 'Read [the docs](https://example.com/docs#codes).', converted: 'Read [the docs](https://example.com/docs#codes).', plain: 'Read the docs.' },
  ];
  for (const row of rows) {
    it(row.name, function () {
      assert.deepEqual(toHover(files, 'topology.dot', { contents: row.markdown, span: { start: 0, end: 0 } }, fullSupport).contents, { kind: 'markdown', value: row.converted });
      assert.deepEqual(toHover(files, 'topology.dot', { contents: row.markdown, span: { start: 0, end: 0 } }, { ...fullSupport, markdown: false }).contents, { kind: 'plaintext', value: row.plain });
    });
  }
});

describe('server: log level', function () {
  const reads: readonly { readonly raw: unknown; readonly level: string; readonly problems: number; readonly why: string }[] = [
    { raw: undefined, level: 'info', problems: 0, why: 'nothing sent: info' },
    { raw: { logLevel: 'debug' }, level: 'debug', problems: 0, why: 'debug' },
    { raw: { 'darkprint.logLevel': 'error' }, level: 'error', problems: 0, why: 'a dotted key' },
    { raw: { logLevel: 'verbose' }, level: 'info', problems: 1, why: 'an unknown level is refused' },
  ];
  for (const c of reads) {
    it(`read: ${c.why}`, function () {
      const read = readSettings(c.raw);
      assert.equal(read.settings.logLevel, c.level);
      assert.equal(read.problems.length, c.problems, read.problems.join('\n'));
    });
  }
  // what each level writes: the memory-tuning lines are debug lines, written only at debug
  const writes: readonly { readonly setting: LogLevel; readonly written: readonly LogLevel[] }[] = [
    { setting: 'error', written: ['error'] },
    { setting: 'warning', written: ['error', 'warning'] },
    { setting: 'info', written: ['error', 'warning', 'info'] },
    { setting: 'debug', written: ['error', 'warning', 'info', 'debug'] },
  ];
  for (const c of writes) {
    it(`at ${c.setting}, the server writes ${c.written.join(', ')}`, function () {
      assert.deepEqual((['error', 'warning', 'info', 'debug'] as const).filter((message) => logsAt(c.setting, message)), c.written);
    });
  }
});
