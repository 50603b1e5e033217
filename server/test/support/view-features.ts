/**
 * Data-driven protocol tests of the requests that answer with places in a file (document
 * highlight, semantic tokens, inlay hints, code lenses, document links) and of workspace
 * symbols, over stdio. A case is a bundle written as a fixture whose expected answer is marked in
 * place under the text (shared/test/support/marks.ts), with a `$0` cursor in the file asked
 * about; the runner sends one request as a client would and renders the answer as marks, with
 * the engine's line index, so that both read `path:line:column text «label»`.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ClientCapabilities, CodeLens, DocumentHighlight, DocumentLink, InlayHint, Range, SemanticTokens, SemanticTokensDelta, SemanticTokensLegend, SymbolInformation } from 'vscode-languageserver-protocol/node';
import { lineIndex } from '../../../shared/src/text';
import { parseMarked, renderMarks, type Mark } from '../../../shared/test/support/marks';
import { errorLogs, startSession, type Session } from './lsp-client';
import { assertInside } from './scenario';

export type ViewRequest = 'documentHighlight' | 'semanticTokens' | 'semanticTokensRange' | 'inlayHint' | 'codeLens' | 'documentLink';

export interface ViewCase {
  readonly name: string;
  /** The bundle, with the cursor in the file asked about and the expected answer marked under its lines. */
  readonly fixture: string;
  readonly request: ViewRequest;
  /** For `semanticTokensRange`: the lines asked for (0-based, end excluded). */
  readonly lines?: readonly [number, number];
  /** The `darkprint` settings the client reports. */
  readonly settings?: Record<string, unknown>;
  /** What the client declares, when not the test client's usual capabilities. */
  readonly capabilities?: ClientCapabilities;
}

export interface Opened {
  readonly session: Session;
  readonly dir: string;
  readonly texts: ReadonlyMap<string, string>;
  readonly file: string;
  readonly offset: number;
  readonly marks: readonly Mark[];
  close(): Promise<void>;
}

/** Writes the fixture's files to a fresh folder, starts the server on it and opens the cursor's file. */
export async function openMarked(source: string, settings: Record<string, unknown> = {}, capabilities?: ClientCapabilities): Promise<Opened> {
  const { fixture, marks } = parseMarked(source);
  assert.ok(fixture.cursor, 'the fixture marks the cursor with $0');
  const dir = mkdtempSync(path.join(tmpdir(), 'darkprint-view-'));
  const texts = new Map<string, string>();
  for (const f of fixture.files) {
    mkdirSync(path.dirname(path.join(dir, f.path)), { recursive: true });
    writeFileSync(path.join(dir, f.path), f.text);
    texts.set(f.path, f.text);
  }
  const session = await startSession({ folders: [dir], settings: { debounceMs: 0, ...settings }, ...(capabilities !== undefined ? { capabilities } : {}) });
  const file = fixture.cursor.path;
  session.open(file, texts.get(file)!);
  await session.versionPublished(file, 1);
  return {
    session,
    dir,
    texts,
    file,
    offset: fixture.cursor.offset,
    marks,
    close: async () => {
      const logged = errorLogs(session);
      const code = await session.shutdown();
      rmSync(dir, { recursive: true, force: true });
      assert.deepEqual(logged, [], 'the server logged no internal error');
      assert.equal(code, 0, 'the server exits cleanly');
    },
  };
}

export async function checkView(c: ViewCase): Promise<void> {
  const opened = await openMarked(c.fixture, c.settings, c.capabilities);
  try {
    const got = await answer(opened, c);
    const expected = c.request === 'inlayHint' ? opened.marks.map((m) => ({ ...m, end: m.start })) : opened.marks;
    assert.deepEqual(renderMarks(opened.texts, got), renderMarks(opened.texts, expected));
  } finally {
    await opened.close();
  }
}

async function answer(opened: Opened, c: ViewCase): Promise<Mark[]> {
  const { session, texts, file, offset } = opened;
  const text = texts.get(file)!;
  const index = lineIndex(text);
  const textDocument = { uri: session.uri(file) };
  const mark = (f: string, range: Range, label: string): Mark => {
    const t = texts.get(f) ?? '';
    assertInside(t, range, `a range in ${f}`);
    const i = lineIndex(t);
    return { file: f, start: i.offsetAt(range.start), end: i.offsetAt(range.end), label };
  };
  switch (c.request) {
    case 'documentHighlight': {
      const highlights = (await session.request<DocumentHighlight[] | null>('textDocument/documentHighlight', { textDocument, position: index.positionAt(offset) })) ?? [];
      return highlights.map((h) => mark(file, h.range, h.kind === 3 ? 'write' : h.kind === 2 ? 'read' : 'text'));
    }
    case 'semanticTokens':
    case 'semanticTokensRange': {
      const range = c.lines === undefined ? undefined : { start: { line: c.lines[0], character: 0 }, end: { line: c.lines[1], character: 0 } };
      const tokens =
        range === undefined
          ? await session.request<SemanticTokens>('textDocument/semanticTokens/full', { textDocument })
          : await session.request<SemanticTokens>('textDocument/semanticTokens/range', { textDocument, range });
      return decodeTokens(tokens.data, legendOf(session)).map((t) => mark(file, { start: { line: t.line, character: t.character }, end: { line: t.line, character: t.character + t.length } }, t.label));
    }
    case 'inlayHint': {
      const hints = (await session.request<InlayHint[] | null>('textDocument/inlayHint', { textDocument, range: { start: { line: 0, character: 0 }, end: index.positionAt(text.length) } })) ?? [];
      return hints.map((h) => mark(file, { start: h.position, end: h.position }, typeof h.label === 'string' ? h.label : h.label.map((p) => p.value).join('')));
    }
    case 'codeLens': {
      // listed without commands, each resolved as an editor resolves those it shows
      const listed = (await session.request<CodeLens[] | null>('textDocument/codeLens', { textDocument })) ?? [];
      for (const l of listed) assert.equal(l.command, undefined, 'a lens is listed without its command');
      const lenses = await Promise.all(listed.map((l) => session.request<CodeLens>('codeLens/resolve', l)));
      lenses.forEach((l, i) => assert.deepEqual(l.range, listed[i].range, 'a lens keeps its range when resolved'));
      const target = (args: unknown[] | undefined): string => (typeof args?.[0] === 'string' && args[0].startsWith('file:') ? ` ${path.relative(opened.dir, new URL(args[0]).pathname).split(path.sep).join('/')}` : '');
      return lenses.map((l) => mark(file, l.range, `${l.command?.title ?? ''}${l.command?.command ? ` → ${l.command.command}${target(l.command.arguments)}` : ''}`));
    }
    case 'documentLink': {
      const links = (await session.request<DocumentLink[] | null>('textDocument/documentLink', { textDocument })) ?? [];
      return links.map((l) => mark(file, l.range, l.target === undefined ? '' : path.relative(opened.dir, new URL(l.target).pathname).split(path.sep).join('/')));
    }
  }
}

export function legendOf(session: Session): SemanticTokensLegend {
  const provider = session.initializeResult.capabilities.semanticTokensProvider;
  assert.ok(provider, 'the server offers semantic tokens');
  return provider.legend;
}

/** Decodes the protocol's relative encoding: each token's line, character, length and `type.modifier…` label. */
export function decodeTokens(data: readonly number[], legend: SemanticTokensLegend): { line: number; character: number; length: number; label: string }[] {
  assert.equal(data.length % 5, 0, 'five numbers per token');
  const out: { line: number; character: number; length: number; label: string }[] = [];
  let line = 0;
  let character = 0;
  for (let i = 0; i < data.length; i += 5) {
    line += data[i];
    character = data[i] === 0 ? character + data[i + 1] : data[i + 1];
    const type = legend.tokenTypes[data[i + 3]];
    assert.ok(type !== undefined, `token type ${data[i + 3]} is in the legend`);
    const modifiers = legend.tokenModifiers.filter((_, bit) => (data[i + 4] & (1 << bit)) !== 0);
    out.push({ line, character, length: data[i + 2], label: [type, ...modifiers].join('.') });
  }
  return out;
}

/** Applies a delta's edits to the numbers they edit (the protocol applies them as given, in order of start, from the end). */
export function applyTokenEdits(data: readonly number[], delta: SemanticTokensDelta): number[] {
  const out = [...data];
  for (const edit of [...delta.edits].sort((a, b) => b.start - a.start)) out.splice(edit.start, edit.deleteCount, ...(edit.data ?? []));
  return out;
}

/** Workspace symbols as `name kind file:line (container)`, in the order answered. */
export function renderSymbols(dir: string, symbols: readonly SymbolInformation[], texts: (file: string) => string): string[] {
  return symbols.map((s) => {
    const file = path.relative(dir, new URL(s.location.uri).pathname).split(path.sep).join('/');
    assertInside(texts(file), s.location.range, `symbol ${s.name}`);
    return `${s.name} ${s.kind} ${file}:${s.location.range.start.line + 1}${s.containerName !== undefined ? ` (${s.containerName})` : ''}`;
  });
}
