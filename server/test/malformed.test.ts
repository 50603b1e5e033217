/**
 * What a client sends malformed, over stdio: every request the server registers answers
 * InvalidParams naming the bad field (never an internal error, never an empty answer after a
 * swallowed exception); a position past the end of its line or document, or a URI no bundle
 * holds, is answered normally; a malformed document notification is dropped whole, so the
 * document keeps its last good text and version and the next incremental change applies to it.
 * Malformed parameters met at random: fuzz-params.test.ts.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Hover, Range } from 'vscode-languageserver-protocol/node';
import { parseFixture } from '../../shared/test/support/fixture';
import { lineIndex } from '../../shared/src/text';
import { reviewerCard, writerCard } from './support/cards';
import { errorLogs, startSession, type Session } from './support/lsp-client';

// (the edge ends its line without a `;`: a position past the end of that line reads `reviewer`)
const topology = `digraph g {
  writer [card="writer@1.0.0"];
  reviewer [card="reviewer@1.0.0"];
  writer -> reviewer
}
`;
const bundle = `//- topology.dot\n${topology}${writerCard()}${reviewerCard()}`;

interface Opened {
  readonly session: Session;
  close(): Promise<void>;
}

async function open(): Promise<Opened> {
  const dir = mkdtempSync(path.join(tmpdir(), 'darkprint-malformed-'));
  for (const f of parseFixture(bundle).files) {
    mkdirSync(path.dirname(path.join(dir, f.path)), { recursive: true });
    writeFileSync(path.join(dir, f.path), f.text);
  }
  const session = await startSession({ folders: [dir], settings: { debounceMs: 0 } });
  // what an editor answers when the server asks it to show a place or apply an edit
  session.connection.onRequest('window/showDocument', () => ({ success: true }));
  session.connection.onRequest('workspace/applyEdit', () => ({ applied: false }));
  return {
    session,
    async close() {
      const logged = errorLogs(session);
      const code = await session.shutdown();
      rmSync(dir, { recursive: true, force: true });
      assert.deepEqual(logged, [], 'the server logged no internal error');
      assert.equal(code, 0, 'the server exits cleanly');
    },
  };
}

/** The request's error code and message, or undefined when it was answered. */
async function failure(session: Session, method: string, params: unknown): Promise<{ code: number; message: string } | undefined> {
  try {
    await session.request(method, params);
    return undefined;
  } catch (error) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    assert.ok(typeof code === 'number', `${method} is answered (not: ${String(error)})`);
    return { code, message: String(message) };
  }
}

const origin = { line: 1, character: 3 };
const emptyRange = { start: origin, end: origin };

describe('server: malformed requests get InvalidParams', function () {
  it('every request the server registers, each part it reads, names the field', async function () {
    const o = await open();
    try {
      const uri = o.session.uri('topology.dot');
      const textDocument = { uri };
      const cases: [method: string, params: unknown, field: RegExp][] = [];
      const atPosition = ['textDocument/hover', 'textDocument/completion', 'textDocument/definition', 'textDocument/prepareRename'];
      const extra: Record<string, Record<string, unknown>> = {
        'textDocument/references': { context: { includeDeclaration: true } },
        'textDocument/rename': { newName: 'author' },
      };
      for (const method of [...atPosition, ...Object.keys(extra)]) {
        const rest = extra[method] ?? {};
        cases.push(
          [method, { textDocument: null, position: origin, ...rest }, /`textDocument` is null/],
          [method, { position: origin, ...rest }, /`textDocument` is missing/],
          [method, { textDocument: { uri: 5 }, position: origin, ...rest }, /`textDocument\.uri` is 5/],
          [method, { textDocument, position: null, ...rest }, /`position` is null/],
          [method, { textDocument, ...rest }, /`position` is missing/],
          [method, { textDocument, position: { line: -1, character: 0 }, ...rest }, /`position\.line` is -1/],
          [method, { textDocument, position: { line: 1, character: '3' }, ...rest }, /`position\.character` is the string "3"/],
          [method, { textDocument, position: { line: 1.5, character: 0 }, ...rest }, /`position\.line` is 1\.5/],
          [method, { textDocument, position: { line: 1 }, ...rest }, /`position\.character` is missing/],
        );
      }
      cases.push(
        ['textDocument/references', { textDocument, position: origin }, /`context` is missing/],
        ['textDocument/references', { textDocument, position: origin, context: { includeDeclaration: 'yes' } }, /`context\.includeDeclaration` is the string "yes"/],
        ['textDocument/rename', { textDocument, position: origin, newName: 5 }, /`newName` is 5/],
        ['textDocument/rename', { textDocument, position: origin }, /`newName` is missing/],
        ['textDocument/completion', { textDocument, position: origin, context: 'invoked' }, /`context` is the string "invoked"/],
        ['textDocument/completion', { textDocument, position: origin, context: { triggerKind: 9 } }, /`context\.triggerKind` is 9/],
        ['textDocument/completion', { textDocument, position: origin, context: { triggerKind: 2, triggerCharacter: 58 } }, /`context\.triggerCharacter` is 58/],
      );
      for (const method of ['textDocument/documentSymbol', 'textDocument/foldingRange']) {
        cases.push(
          [method, { textDocument: null }, /`textDocument` is null/],
          [method, { textDocument: 'file:///x' }, /`textDocument` is the string "file:\/\/\/x"/],
          [method, { textDocument: {} }, /`textDocument\.uri` is missing/],
        );
      }
      const context = { diagnostics: [] };
      cases.push(
        ['textDocument/codeAction', { textDocument: null, range: emptyRange, context }, /`textDocument` is null/],
        ['textDocument/codeAction', { textDocument, range: null, context }, /`range` is null/],
        ['textDocument/codeAction', { textDocument, range: { start: origin }, context }, /`range\.end` is missing/],
        ['textDocument/codeAction', { textDocument, range: { start: { line: 0, character: -4 }, end: origin }, context }, /`range\.start\.character` is -4/],
        ['textDocument/codeAction', { textDocument, range: emptyRange }, /`context` is missing/],
        ['textDocument/codeAction', { textDocument, range: emptyRange, context: {} }, /`context\.diagnostics` is missing/],
        ['textDocument/codeAction', { textDocument, range: emptyRange, context: { diagnostics: [], only: 'quickfix' } }, /`context\.only` is the string "quickfix"/],
        ['textDocument/codeAction', { textDocument, range: emptyRange, context: { diagnostics: [], only: ['quickfix', 7] } }, /`context\.only\[1\]` is 7/],
        ['textDocument/codeAction', { textDocument, range: emptyRange, context: { diagnostics: [], triggerKind: 'auto' } }, /`context\.triggerKind` is the string "auto"/],
        ['workspace/executeCommand', { command: 5 }, /`command` is 5/],
        ['workspace/executeCommand', {}, /`command` is missing/],
        ['workspace/executeCommand', { command: 'darkprint.showLocation', arguments: 'x' }, /`arguments` is the string "x"/],
        ['workspace/executeCommand', { command: 'darkprint.nothing', arguments: [] }, /`command` is the string "darkprint\.nothing", which the server does not offer/],
        ['workspace/executeCommand', { command: 'darkprint.showLocation', arguments: [uri] }, /`arguments\[1\]` is missing/],
        ['workspace/executeCommand', { command: 'darkprint.showLocation', arguments: [uri, { start: origin, end: { line: 'x', character: 0 } }] }, /`arguments\[1\]\.end\.line` is the string "x"/],
        ['workspace/executeCommand', { command: 'darkprint.applyEdit', arguments: [null] }, /`arguments\[0\]` is null/],
        ['workspace/executeCommand', { command: 'darkprint.applyEdit', arguments: [{ documentChanges: 5 }] }, /`arguments\[0\]\.documentChanges` is 5/],
        ['workspace/executeCommand', { command: 'darkprint.applyEdit', arguments: [{ changes: {} }, { command: 'darkprint.showLocation', arguments: null }] }, /`arguments\[1\]\.arguments` is null/],
      );
      for (const method of ['darkprint/compiled', 'darkprint/report']) {
        cases.push([method, {}, /`uri` is missing/], [method, { uri: null }, /`uri` is null/], [method, { uri: ['file:///x'] }, /`uri` is a list/]);
      }
      for (const [method, params, field] of cases) {
        const what = `${method} ${JSON.stringify(params)}`;
        const got = await failure(o.session, method, params);
        assert.ok(got, `${what} is refused`);
        assert.equal(got.code, -32602, `${what}: ${got.message}`);
        assert.match(got.message, field, what);
      }
      // every method the server registers is in the table
      const tried = new Set(cases.map(([method]) => method));
      for (const method of ['textDocument/hover', 'textDocument/completion', 'textDocument/definition', 'textDocument/references', 'textDocument/rename', 'textDocument/prepareRename', 'textDocument/documentSymbol', 'textDocument/foldingRange', 'textDocument/codeAction', 'workspace/executeCommand', 'darkprint/compiled', 'darkprint/report']) {
        assert.ok(tried.has(method), method);
      }
    } finally {
      await o.close();
    }
  });

  it('positions past the end of a line or of the document, and URIs no bundle holds, are answered normally', async function () {
    const o = await open();
    try {
      const textDocument = { uri: o.session.uri('topology.dot') };
      const edgeLine = topology.split('\n').findIndex((l) => l.includes('->'));
      const lineEnd = { line: edgeLine, character: topology.split('\n')[edgeLine].length };
      const atEnd = await o.session.request<Hover | null>('textDocument/hover', { textDocument, position: lineEnd });
      assert.ok(atEnd, 'the end of the edge line reads `reviewer`');
      for (const character of [lineEnd.character + 1, 2 ** 31 - 1, 2 ** 31, Number.MAX_SAFE_INTEGER, 1e300]) {
        assert.deepEqual(await o.session.request('textDocument/hover', { textDocument, position: { line: edgeLine, character } }), atEnd, `character ${character} reads as the end of the line`);
      }
      for (const line of [topology.split('\n').length, 2 ** 31, 1e300]) {
        for (const method of ['textDocument/hover', 'textDocument/completion', 'textDocument/definition', 'textDocument/prepareRename']) {
          assert.equal(await failure(o.session, method, { textDocument, position: { line, character: 0 } }), undefined, `${method} at line ${line}`);
        }
        const range = { start: { line: 0, character: 0 }, end: { line, character: 5 } };
        assert.ok(Array.isArray(await o.session.request('textDocument/codeAction', { textDocument, range, context: { diagnostics: [] } })), `codeAction to line ${line}`);
        // (an end before its start is the same range)
        assert.ok(Array.isArray(await o.session.request('textDocument/codeAction', { textDocument, range: { start: range.end, end: range.start }, context: { diagnostics: [] } })));
      }
      const unknown = ['file:///no/such/folder/topology.dot', 'untitled:Untitled-1', '', 'file://%zz', o.session.uri('notes.txt')];
      for (const uri of unknown) {
        const document = { textDocument: { uri } };
        const at = { ...document, position: origin };
        assert.equal(await o.session.request('textDocument/hover', at), null, uri);
        assert.equal(await o.session.request('textDocument/completion', at), null, uri);
        assert.equal(await o.session.request('textDocument/definition', at), null, uri);
        assert.equal(await o.session.request('textDocument/references', { ...at, context: { includeDeclaration: true } }), null, uri);
        assert.equal(await o.session.request('textDocument/prepareRename', at), null, uri);
        assert.equal(await o.session.request('textDocument/rename', { ...at, newName: 'x' }), null, uri);
        assert.equal(await o.session.request('textDocument/documentSymbol', document), null, uri);
        assert.equal(await o.session.request('textDocument/foldingRange', document), null, uri);
        assert.equal(await o.session.request('textDocument/codeAction', { ...document, range: emptyRange, context: { diagnostics: [] } }), null, uri);
        // (the custom requests answer for any file of a bundle: notes.txt is one)
        for (const method of uri.endsWith('notes.txt') ? [] : ['darkprint/compiled', 'darkprint/report']) {
          const answer = await o.session.request<{ reasons?: string[] }>(method, { uri });
          assert.ok(answer.reasons && answer.reasons.length > 0, `${method} ${uri}: ${JSON.stringify(answer)}`);
        }
      }
      // the commands the server offers, well formed, run
      const range = { start: origin, end: origin };
      assert.equal(await o.session.request('workspace/executeCommand', { command: 'darkprint.showLocation', arguments: [textDocument.uri, range] }), null);
      assert.equal(await o.session.request('workspace/executeCommand', { command: 'darkprint.applyEdit', arguments: [{ changes: {} }, { title: 'Show', command: 'darkprint.showLocation', arguments: [textDocument.uri, range] }] }), null);
    } finally {
      await o.close();
    }
  });
});

describe('server: malformed document notifications are dropped whole', function () {
  it('a malformed didChange leaves the last good text and version, and the next incremental change applies to them', async function () {
    const o = await open();
    try {
      const { session } = o;
      const uri = session.uri('topology.dot');
      session.open('topology.dot', topology);
      await session.versionPublished('topology.dot', 1);
      const change = (version: number, contentChanges: unknown): void => void session.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version }, contentChanges });
      const edge = topology.split('\n').findIndex((l) => l.includes('->'));
      const good = { range: { start: { line: edge, character: 0 }, end: { line: edge, character: 0 } }, text: '  ghost [card="ghost@1.0.0"];\n' };
      const malformed: [contentChanges: unknown, field: RegExp][] = [
        [[{ text: null }], /`contentChanges\[0\]\.text` is null/],
        [[{ text: 42 }], /`contentChanges\[0\]\.text` is 42/],
        [[{ range: { start: { line: 1 }, end: { line: 1, character: 0 } }, text: 'x' }], /`contentChanges\[0\]\.range\.start\.character` is missing/],
        [[{ range: 'all', text: 'x' }], /`contentChanges\[0\]\.range` is the string "all"/],
        [[{ range: null, text: 'digraph h {}\n' }], /`contentChanges\[0\]\.range` is null/],
        [{ text: 'digraph h {}\n' }, /`contentChanges` is an object/],
        [null, /`contentChanges` is null/],
        // a good change before a bad one is not taken either
        [[good, { range: good.range }], /`contentChanges\[1\]\.text` is missing/],
      ];
      malformed.forEach(([contentChanges], i) => change(2 + i, contentChanges));
      void session.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version: 'next' }, contentChanges: [good] });
      void session.connection.sendNotification('textDocument/didChange', { textDocument: null, contentChanges: [good] });
      // the next version, an incremental change of the text of version 1
      const version = 2 + malformed.length;
      const expected = topology.replace('  writer -> reviewer', `${good.text}  writer -> reviewer`);
      change(version, [good]);
      const published = await session.versionPublished('topology.dot', version);
      assert.equal(published.version, version);
      const missing = published.diagnostics.filter((d) => d.code === 'bundle/missing-card');
      assert.deepEqual(
        missing.map((d) => covered(expected, d.range)),
        ['"ghost@1.0.0"'],
        JSON.stringify(published.diagnostics),
      );
      const hover = await session.request<Hover | null>('textDocument/hover', { textDocument: { uri }, position: { line: edge, character: 4 } });
      assert.match(JSON.stringify(hover?.contents), /ghost/);
      // the edge moved down a line with the insert
      const reviewer = await session.request<Hover | null>('textDocument/hover', { textDocument: { uri }, position: { line: edge + 1, character: 14 } });
      assert.match(JSON.stringify(reviewer?.contents), /[Rr]eviewer/);
      const warnings = session.logs.filter((l) => l.type === 2).map((l) => l.message);
      for (const [, field] of malformed) assert.ok(warnings.some((w) => /didChange is ignored/.test(w) && field.test(w)), `${field} in ${JSON.stringify(warnings)}`);
      assert.ok(warnings.some((w) => /`textDocument\.version` is the string "next"/.test(w)), JSON.stringify(warnings));
      assert.ok(warnings.some((w) => /`textDocument` is null/.test(w)), JSON.stringify(warnings));
      assert.ok(warnings.some((w) => w.includes(`${uri} keeps version 1`)), JSON.stringify(warnings));
    } finally {
      await o.close();
    }
  });

  it('a didOpen without a string text or a whole-number version, and a didClose without a URI, are ignored', async function () {
    const o = await open();
    try {
      const { session } = o;
      const card = session.uri('cards/writer@1.0.0.yaml');
      for (const textDocument of [
        { uri: card, languageId: 'yaml', version: 1, text: 42 },
        { uri: card, languageId: 'yaml', version: 1, text: null },
        { uri: card, languageId: 'yaml', version: 1.5, text: 'id: writer\n' },
        { uri: card, languageId: 'yaml', version: '1', text: 'id: writer\n' },
        { uri: null, languageId: 'yaml', version: 1, text: 'id: writer\n' },
      ]) {
        void session.connection.sendNotification('textDocument/didOpen', { textDocument });
      }
      void session.connection.sendNotification('textDocument/didOpen', {});
      // the card is not open: the bundle compiles from the disk's card
      const answer = await session.request<{ text?: string; reasons?: string[] }>('darkprint/compiled', { uri: card });
      assert.ok(answer.text?.includes('writer'), JSON.stringify(answer));
      session.open('topology.dot', topology);
      await session.versionPublished('topology.dot', 1);
      void session.connection.sendNotification('textDocument/didClose', { textDocument: null });
      void session.connection.sendNotification('textDocument/didClose', {});
      // still open: a change applies to the open text
      const version = session.changeIncremental('topology.dot', [{ range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } }, text: '  lone;\n' }], `${topology.slice(0, 12)}  lone;\n${topology.slice(12)}`);
      const published = await session.versionPublished('topology.dot', version);
      assert.equal(published.version, version);
      const warnings = session.logs.filter((l) => l.type === 2).map((l) => l.message);
      assert.equal(warnings.filter((w) => /didOpen is ignored/.test(w)).length, 6, JSON.stringify(warnings));
      assert.equal(warnings.filter((w) => /didClose is ignored/.test(w)).length, 2, JSON.stringify(warnings));
      assert.ok(warnings.some((w) => /`textDocument\.text` is 42/.test(w)) && warnings.some((w) => /`textDocument\.version` is 1\.5/.test(w)), JSON.stringify(warnings));
    } finally {
      await o.close();
    }
  });

  it('a workspace folder change without lists of folders with string URIs is ignored, and the folders stay', async function () {
    const o = await open();
    try {
      const { session } = o;
      for (const event of [null, 5, {}, { added: null, removed: [] }, { added: [{ uri: 5, name: 'x' }], removed: [] }, { added: [], removed: [null] }]) {
        void session.connection.sendNotification('workspace/didChangeWorkspaceFolders', { event });
      }
      // the workspace still holds its bundle: a request about it is answered from it
      const answer = await session.request<{ text?: string; reasons?: string[] }>('darkprint/compiled', { uri: session.uri('topology.dot') });
      assert.ok(answer.text?.includes('writer'), JSON.stringify(answer));
      const warnings = session.logs.filter((l) => l.type === 2).map((l) => l.message);
      assert.equal(warnings.filter((w) => /didChangeWorkspaceFolders is ignored/.test(w)).length, 6, JSON.stringify(warnings));
      assert.deepEqual(errorLogs(session), []);
    } finally {
      await o.close();
    }
  });
});

function covered(text: string, range: Range): string {
  const index = lineIndex(text);
  return text.slice(index.offsetAt(range.start), index.offsetAt(range.end));
}
