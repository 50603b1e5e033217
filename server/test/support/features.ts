/**
 * Data-driven request tests over stdio: a bundle written as a fixture with a `$0` cursor, one
 * request at the cursor, and the expected answer as data (texts the answer's ranges cover,
 * labels it holds, or the files as they read after applying its edit). The runner converts
 * between the fixture's offsets and LSP positions with the engine's line index, as a client
 * would.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type {
  ClientCapabilities,
  CodeAction,
  CompletionList,
  DocumentSymbol,
  FoldingRange,
  Hover,
  Location,
  Range,
  TextDocumentEdit,
  TextEdit,
  WorkspaceEdit,
} from 'vscode-languageserver-protocol/node';
import { parseFixture } from '../../../shared/test/support/fixture';
import { lineIndex } from '../../../shared/src/text';
import { errorLogs, startSession, type Session } from './lsp-client';
import { assertInside } from './scenario';

/** A place in the workspace, named by the text its range covers. */
export interface Target {
  readonly file: string;
  /** The exact text the range covers (omit to accept any range in the file). */
  readonly text?: string;
}

export type Expectation =
  | { readonly request: 'hover'; readonly contains: readonly string[]; readonly covers?: string }
  | { readonly request: 'hover'; readonly none: true }
  | { readonly request: 'completion'; readonly labels: readonly string[]; readonly absent?: readonly string[] }
  | { readonly request: 'definition' | 'references'; readonly targets: readonly Target[] }
  | { readonly request: 'prepareRename'; readonly covers: string; readonly placeholder: string }
  | { readonly request: 'prepareRename'; readonly none: true }
  | { readonly request: 'prepareRename'; readonly refused: string }
  | { readonly request: 'rename'; readonly newName: string; readonly after: string }
  | { readonly request: 'rename'; readonly newName: string; readonly refused: string }
  | { readonly request: 'documentSymbol'; readonly names: readonly string[] }
  | { readonly request: 'foldingRange'; readonly lines: readonly (readonly [number, number])[] }
  | { readonly request: 'codeAction'; readonly only?: readonly string[]; readonly title: string; readonly after: string; readonly opens?: { readonly file: string; readonly suggest?: true } }
  | { readonly request: 'codeAction'; readonly only?: readonly string[]; readonly titles: readonly string[] }
  | { readonly request: 'formatting'; readonly after: string; readonly options?: { readonly tabSize: number; readonly insertSpaces: boolean } }
  | { readonly request: 'formatting'; readonly none: true }
  | { readonly request: 'rangeFormatting'; readonly after: string };

export interface FeatureCase {
  readonly name: string;
  /** What the client declares, when not `testCapabilities`. */
  readonly capabilities?: ClientCapabilities;
  /** The bundle; one file holds the `$0` cursor (for code actions and range formatting, the range runs from it to the end of its line). */
  readonly fixture: string;
  readonly expect: Expectation;
}

export interface Workspace {
  readonly dir: string;
  readonly session: Session;
  readonly texts: Map<string, string>;
}

/** Writes the fixture's files to a fresh folder, starts the server on it and opens the cursor's file. */
export async function openCase(fixtureText: string, capabilities?: ClientCapabilities): Promise<{ workspace: Workspace; file: string; offset: number; close: () => Promise<void> }> {
  const fixture = parseFixture(fixtureText);
  assert.ok(fixture.cursor, 'the fixture marks the cursor with $0');
  const dir = mkdtempSync(path.join(tmpdir(), 'darkprint-feature-'));
  const texts = new Map<string, string>();
  for (const f of fixture.files) {
    mkdirSync(path.dirname(path.join(dir, f.path)), { recursive: true });
    writeFileSync(path.join(dir, f.path), f.text);
    texts.set(f.path, f.text);
  }
  const session = await startSession({ folders: [dir], settings: { debounceMs: 0 }, ...(capabilities !== undefined ? { capabilities } : {}) });
  const file = fixture.cursor.path;
  session.open(file, texts.get(file)!);
  await session.versionPublished(file, 1);
  return {
    workspace: { dir, session, texts },
    file,
    offset: fixture.cursor.offset,
    close: async () => {
      const logged = errorLogs(session);
      const code = await session.shutdown();
      rmSync(dir, { recursive: true, force: true });
      assert.deepEqual(logged, [], 'the server logged no internal error');
      assert.equal(code, 0, 'the server exits cleanly');
    },
  };
}

export async function checkFeature(c: FeatureCase): Promise<void> {
  const { workspace, file, offset, close } = await openCase(c.fixture, c.capabilities);
  try {
    await check(workspace, file, offset, c.expect);
  } finally {
    await close();
  }
}

async function check(workspace: Workspace, file: string, offset: number, expect: Expectation): Promise<void> {
  const { session, texts } = workspace;
  const text = texts.get(file)!;
  const index = lineIndex(text);
  const position = index.positionAt(offset);
  const textDocument = { uri: session.uri(file) };
  const covered = (f: string, range: Range): string => {
    const t = texts.get(f) ?? '';
    assertInside(t, range, `a range in ${f}`);
    const i = lineIndex(t);
    return t.slice(i.offsetAt(range.start), i.offsetAt(range.end));
  };
  const fileOf = (uri: string): string => {
    const found = [...texts.keys()].find((f) => session.uri(f) === uri);
    assert.ok(found, `the answer points at ${uri}, which is not a file of the bundle`);
    return found;
  };
  switch (expect.request) {
    case 'hover': {
      const hover = await session.request<Hover | null>('textDocument/hover', { textDocument, position });
      if ('none' in expect) {
        assert.equal(hover, null);
        return;
      }
      assert.ok(hover, 'a hover is shown');
      const value = typeof hover.contents === 'object' && 'value' in hover.contents ? hover.contents.value : JSON.stringify(hover.contents);
      for (const part of expect.contains) assert.ok(value.includes(part), `the hover mentions ${JSON.stringify(part)}:\n${value}`);
      if (expect.covers !== undefined) {
        assert.ok(hover.range, 'the hover has a range');
        assert.equal(covered(file, hover.range), expect.covers);
      }
      return;
    }
    case 'completion': {
      const list = await session.request<CompletionList | null>('textDocument/completion', { textDocument, position });
      const items = list?.items ?? [];
      const labels = items.map((i) => i.label);
      for (const label of expect.labels) assert.ok(labels.includes(label), `completion offers ${label}; it offers ${labels.join(', ')}`);
      for (const label of expect.absent ?? []) assert.ok(!labels.includes(label), `completion does not offer ${label}`);
      for (const item of items) {
        const edit = item.textEdit as TextEdit | undefined;
        if (!edit) continue;
        assert.equal(edit.range.start.line, position.line, `${item.label}: the replaced range is on the cursor's line`);
        assert.ok(edit.range.start.character <= position.character && position.character <= edit.range.end.character, `${item.label}: the replaced range holds the cursor`);
      }
      return;
    }
    case 'definition':
    case 'references': {
      const method = expect.request === 'definition' ? 'textDocument/definition' : 'textDocument/references';
      const answer = await session.request<Location[] | Location | null>(method, { textDocument, position, context: { includeDeclaration: true } });
      const locations = answer === null ? [] : Array.isArray(answer) ? answer : [answer];
      const got = locations.map((l) => ({ file: fileOf(l.uri), text: covered(fileOf(l.uri), l.range) }));
      const wanted = expect.targets.map((t) => ({ file: t.file, text: t.text }));
      assert.equal(got.length, wanted.length, `${expect.request}: ${JSON.stringify(got)}`);
      for (const w of wanted) {
        const i = got.findIndex((g) => g.file === w.file && (w.text === undefined || g.text === w.text));
        assert.ok(i >= 0, `${expect.request} includes ${JSON.stringify(w)}; got ${JSON.stringify(got)}`);
        got.splice(i, 1);
      }
      return;
    }
    case 'prepareRename': {
      if ('refused' in expect) {
        await assert.rejects(session.request('textDocument/prepareRename', { textDocument, position }), (error: Error) => {
          assert.ok(error.message.includes(expect.refused), `the refusal says why: ${error.message}`);
          return true;
        });
        return;
      }
      const answer = await session.request<{ range: Range; placeholder: string } | null>('textDocument/prepareRename', { textDocument, position });
      if ('none' in expect) {
        assert.equal(answer, null);
        return;
      }
      assert.ok(answer, 'the position can be renamed');
      assert.equal(covered(file, answer.range), expect.covers);
      assert.equal(answer.placeholder, expect.placeholder);
      return;
    }
    case 'rename': {
      if ('refused' in expect) {
        await assert.rejects(session.request('textDocument/rename', { textDocument, position, newName: expect.newName }), (error: Error) => {
          assert.ok(error.message.includes(expect.refused), `the refusal says why: ${error.message}`);
          return true;
        });
        return;
      }
      const edit = await session.request<WorkspaceEdit | null>('textDocument/rename', { textDocument, position, newName: expect.newName });
      assert.ok(edit, 'the rename answers an edit');
      assertApplied(workspace, edit, expect.after);
      return;
    }
    case 'documentSymbol': {
      const symbols = (await session.request<DocumentSymbol[] | null>('textDocument/documentSymbol', { textDocument })) ?? [];
      const names: string[] = [];
      const walk = (list: readonly DocumentSymbol[]): void => {
        for (const s of list) {
          assertInside(text, s.range, `symbol ${s.name}`);
          names.push(s.name);
          walk(s.children ?? []);
        }
      };
      walk(symbols);
      for (const name of expect.names) assert.ok(names.includes(name), `the symbols include ${name}; they are ${names.join(', ')}`);
      return;
    }
    case 'foldingRange': {
      const folds = (await session.request<FoldingRange[] | null>('textDocument/foldingRange', { textDocument })) ?? [];
      const got = folds.map((f) => [f.startLine, f.endLine] as const);
      // every fold, no more: a fold too many (a one-line list, say) is as wrong as one missing
      assert.deepEqual(got, expect.lines.map(([a, b]) => [a, b] as const), `the folds, as [start, end] lines`);
      return;
    }
    case 'codeAction': {
      const lineEnd = index.positionAt(Math.max(offset, text.indexOf('\n', offset) < 0 ? text.length : text.indexOf('\n', offset)));
      const context = {
        diagnostics: session.diagnostics.get(session.uri(file))?.diagnostics ?? [],
        ...(expect.only ? { only: expect.only } : {}),
      };
      const actions = (await session.request<CodeAction[] | null>('textDocument/codeAction', { textDocument, range: { start: position, end: lineEnd }, context })) ?? [];
      const titles = actions.map((a) => a.title);
      if ('titles' in expect) {
        for (const title of expect.titles) assert.ok(titles.includes(title), `the actions include ${JSON.stringify(title)}; they are ${JSON.stringify(titles)}`);
        return;
      }
      const action = actions.find((a) => a.title === expect.title);
      assert.ok(action, `the actions include ${JSON.stringify(expect.title)}; they are ${JSON.stringify(titles)}`);
      assert.ok(action.edit, 'the action carries its edit');
      assertApplied(workspace, action.edit, expect.after);
      if (expect.opens !== undefined) {
        assert.equal(action.command?.command, 'darkprint.showLocation', 'the action opens a place');
        assert.equal(action.command?.arguments?.[0], session.uri(expect.opens.file));
        assert.equal(action.command?.arguments?.[2], expect.opens.suggest === true ? 'suggest' : undefined);
      }
      return;
    }
    case 'formatting':
    case 'rangeFormatting': {
      const options = ('options' in expect ? expect.options : undefined) ?? { tabSize: 2, insertSpaces: true };
      const lineEnd = index.positionAt(Math.max(offset, text.indexOf('\n', offset) < 0 ? text.length : text.indexOf('\n', offset)));
      const edits =
        expect.request === 'formatting'
          ? await session.request<TextEdit[] | null>('textDocument/formatting', { textDocument, options })
          : await session.request<TextEdit[] | null>('textDocument/rangeFormatting', { textDocument, range: { start: position, end: lineEnd }, options });
      if ('none' in expect) {
        assert.deepEqual(edits ?? [], [], 'no edit');
        return;
      }
      assertApplied(workspace, { changes: { [textDocument.uri]: edits ?? [] } }, expect.after);
      return;
    }
  }
}

/** Applies a workspace edit to the workspace's texts and compares the changed files with the `after` fixture. */
function assertApplied(workspace: Workspace, edit: WorkspaceEdit, afterFixture: string): void {
  const { session, texts } = workspace;
  const result = new Map(texts);
  const fileOf = (uri: string): string => {
    const found = [...result.keys()].find((f) => session.uri(f) === uri);
    assert.ok(found, `the edit touches ${uri}, which is not a file of the bundle`);
    return found;
  };
  const applyEdits = (file: string, edits: readonly TextEdit[]): void => {
    const before = result.get(file)!;
    const index = lineIndex(before);
    const spans = edits
      .map((e) => ({ start: index.offsetAt(e.range.start), end: index.offsetAt(e.range.end), text: e.newText }))
      .sort((a, b) => b.start - a.start);
    let out = before;
    for (const s of spans) out = out.slice(0, s.start) + s.text + out.slice(s.end);
    result.set(file, out);
  };
  for (const change of edit.documentChanges ?? []) {
    if ('textDocument' in change) {
      const c = change as TextDocumentEdit;
      const file = fileOf(c.textDocument.uri);
      const open = session.versions.get(c.textDocument.uri);
      if (open !== undefined) assert.equal(c.textDocument.version, open, `the edit of the open ${file} names its version`);
      applyEdits(file, c.edits as TextEdit[]);
    } else if (change.kind === 'create') {
      const created = path.relative(workspace.dir, new URL(change.uri).pathname).split(path.sep).join('/');
      assert.ok(!result.has(created) && change.options?.overwrite !== true, `${created} is created, never written over`);
      result.set(created, '');
    } else if (change.kind === 'rename') {
      const from = fileOf(change.oldUri);
      const to = path.relative(workspace.dir, new URL(change.newUri).pathname).split(path.sep).join('/');
      result.set(to, result.get(from)!);
      result.delete(from);
    }
  }
  for (const [uri, edits] of Object.entries(edit.changes ?? {})) applyEdits(fileOf(uri), edits);
  const after = parseFixture(afterFixture);
  for (const f of after.files) assert.equal(result.get(f.path), f.text, `${f.path} after the edit`);
  const listed = new Set(after.files.map((f) => f.path));
  for (const [file, text] of result) {
    if (listed.has(file)) continue;
    assert.equal(text, texts.get(file), `${file} is not changed by the edit (the expected files list every changed file)`);
  }
}
