/**
 * Data-driven protocol scenarios: a workspace written as a fixture (`//- path` headers,
 * expected diagnostics annotated in place with `^^^ severity code`), then steps. Each step
 * lists only the files whose text or expected diagnostics change (a file not listed keeps
 * both), says how changed files reach the server (typed into open documents, or written on
 * disk and announced as watched-file events), and may delete, rename, open or close files or
 * change settings. After each step the runner waits, by protocol events, until what the
 * client shows is exactly the expected diagnostics of every file, with every open
 * document's latest version, and fails with the difference otherwise.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FileChangeType, type Diagnostic as LspDiagnostic } from 'vscode-languageserver-protocol/node';
import { parseFixture, type ExpectedDiagnostic } from '../../../shared/test/support/fixture';
import { lineIndex } from '../../../shared/src/text';
import { errorLogs, startSession, type Session } from './lsp-client';

export interface Scenario {
  readonly name: string;
  /** Workspace folders relative to the workspace directory (default: the directory itself). */
  readonly folders?: readonly string[];
  /** The `darkprint` settings the client reports from the start (`debounceMs` defaults to 0 here). */
  readonly settings?: Record<string, unknown>;
  /** The files on disk at start, annotated with the diagnostics expected once the server has read them. */
  readonly initial: string;
  /** Documents open from the start (with their disk text). */
  readonly open?: readonly string[];
  readonly steps: readonly Step[];
}

export interface Step {
  readonly name: string;
  /** Files with new text or new expected diagnostics (annotated fixture). */
  readonly files?: string;
  /** How changed files reach the server: `editor` (default for open files) or `disk` (default otherwise). */
  readonly via?: 'editor' | 'disk';
  readonly open?: readonly string[];
  readonly close?: readonly string[];
  /** Deleted on disk and announced (the file's diagnostics must be cleared). */
  readonly delete?: readonly string[];
  /** Renamed on disk, announced as a deletion and a creation; the expectations move along. */
  readonly rename?: readonly { readonly from: string; readonly to: string }[];
  /** New settings, pushed with didChangeConfiguration (and answered to workspace/configuration). */
  readonly settings?: Record<string, unknown>;
  /** Related information expected on a diagnostic: the files it points into. */
  readonly related?: readonly { readonly file: string; readonly code: string; readonly to: readonly string[] }[];
  /** Workspace folders added and removed (didChangeWorkspaceFolders), relative to the workspace directory. */
  readonly folders?: { readonly added?: readonly string[]; readonly removed?: readonly string[] };
  /** `codeDescription.href` expected on a diagnostic. */
  readonly links?: readonly { readonly file: string; readonly code: string; readonly href: string }[];
}

interface State {
  readonly dir: string;
  readonly disk: Map<string, string>;
  readonly editor: Map<string, string>;
  readonly expected: Map<string, ExpectedDiagnostic[]>;
}

export async function runScenario(scenario: Scenario): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'darkprint-scenario-'));
  const state: State = { dir, disk: new Map(), editor: new Map(), expected: new Map() };
  const initial = parseFixture(scenario.initial);
  for (const f of initial.files) {
    writeFile(dir, f.path, f.text);
    state.disk.set(f.path, f.text);
    state.expected.set(f.path, []);
  }
  for (const e of initial.expected) state.expected.get(e.file!)?.push(e);
  let settings: Record<string, unknown> = { debounceMs: 0, ...scenario.settings };
  const session = await startSession({ folders: (scenario.folders ?? ['.']).map((f) => path.resolve(dir, f)), settings, base: dir });
  try {
    for (const file of scenario.open ?? []) openFile(session, state, file);
    // A request answers only once the server has scanned the workspace: a barrier, so an initial
    // state with nothing to show is not taken as settled before the server has looked.
    await session.request('darkprint/report', { uri: session.uri('.') });
    await settle(session, state, 'initial state');
    for (const step of scenario.steps) {
      if (step.settings) {
        settings = { debounceMs: 0, ...step.settings };
        session.setSettings(settings);
      }
      for (const file of step.open ?? []) openFile(session, state, file);
      for (const file of step.close ?? []) {
        session.close(file);
        state.editor.delete(file);
      }
      const events: { file: string; type: FileChangeType }[] = [];
      for (const { from, to } of step.rename ?? []) {
        mkdirSync(path.dirname(path.join(dir, to)), { recursive: true });
        renameSync(path.join(dir, from), path.join(dir, to));
        state.disk.set(to, state.disk.get(from)!);
        state.disk.delete(from);
        state.expected.set(to, state.expected.get(from) ?? []);
        state.expected.delete(from);
        events.push({ file: from, type: FileChangeType.Deleted }, { file: to, type: FileChangeType.Created });
      }
      for (const file of step.delete ?? []) {
        rmSync(path.join(dir, file), { recursive: true, force: true });
        for (const known of [...state.disk.keys()]) {
          if (known !== file && !known.startsWith(`${file}/`)) continue;
          state.disk.delete(known);
          state.expected.delete(known);
        }
        events.push({ file, type: FileChangeType.Deleted });
      }
      if (step.files) {
        const fixture = parseFixture(step.files);
        for (const f of fixture.files) {
          const open = state.editor.has(f.path);
          const via = step.via ?? (open ? 'editor' : 'disk');
          if (via === 'editor') {
            if (!open) {
              state.editor.set(f.path, f.text);
              session.open(f.path, f.text);
            } else if (state.editor.get(f.path) !== f.text) {
              state.editor.set(f.path, f.text);
              session.change(f.path, f.text);
            }
          } else if (state.disk.get(f.path) !== f.text) {
            const existed = state.disk.has(f.path);
            writeFile(dir, f.path, f.text);
            state.disk.set(f.path, f.text);
            events.push({ file: f.path, type: existed ? FileChangeType.Changed : FileChangeType.Created });
          }
          state.expected.set(f.path, fixture.expected.filter((e) => e.file === f.path));
        }
      }
      if (events.length > 0) session.fileEvents(events);
      if (step.folders) {
        const folder = (f: string): { uri: string; name: string } => ({ uri: session.uri(f), name: f });
        session.connection.sendNotification('workspace/didChangeWorkspaceFolders', {
          event: { added: (step.folders.added ?? []).map(folder), removed: (step.folders.removed ?? []).map(folder) },
        });
      }
      await settle(session, state, step.name);
      for (const r of step.related ?? []) {
        const d = find(session, state, r.file, r.code);
        const targets = (d.relatedInformation ?? []).map((i) => i.location.uri).sort();
        assert.deepEqual(targets, r.to.map((t) => session.uri(t)).sort(), `${step.name}: related information of ${r.code} in ${r.file}`);
        for (const i of d.relatedInformation ?? []) {
          const file = r.to.find((t) => session.uri(t) === i.location.uri)!;
          assertInside(textOf(state, file) ?? '', i.location.range, `${step.name}: related range in ${file}`);
        }
      }
      for (const l of step.links ?? []) {
        assert.equal(find(session, state, l.file, l.code).codeDescription?.href, l.href, `${step.name}: link of ${l.code} in ${l.file}`);
      }
    }
    assert.deepEqual(errorLogs(session), [], 'the server logged no internal error');
  } finally {
    const code = await session.shutdown();
    rmSync(dir, { recursive: true, force: true });
    assert.equal(code, 0, 'the server exits cleanly after shutdown and exit');
  }
}

function openFile(session: Session, state: State, file: string): void {
  const text = state.editor.get(file) ?? state.disk.get(file);
  assert.ok(text !== undefined, `cannot open ${file}: no such file in the scenario`);
  state.editor.set(file, text);
  session.open(file, text);
}

function writeFile(dir: string, file: string, text: string): void {
  const full = path.join(dir, file);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, text);
}

function textOf(state: State, file: string): string | undefined {
  return state.editor.get(file) ?? state.disk.get(file);
}

function find(session: Session, state: State, file: string, code: string): LspDiagnostic {
  const d = (session.diagnostics.get(session.uri(file))?.diagnostics ?? []).find((x) => x.code === code);
  assert.ok(d, `no ${code} shown in ${file}; shown: ${describeShown(session, state)}`);
  return d;
}

const severities = ['', 'error', 'warning', 'info', 'info'];

/** What the client shows for a file, as fixture-like lines with offsets. */
function actualOf(session: Session, state: State, file: string): { start: number; end: number; severity: string; code: string; message: string }[] {
  const text = textOf(state, file) ?? '';
  const index = lineIndex(text);
  return (session.diagnostics.get(session.uri(file))?.diagnostics ?? []).map((d) => ({
    start: index.offsetAt(d.range.start),
    end: index.offsetAt(d.range.end),
    severity: severities[d.severity ?? 1],
    code: String(d.code),
    message: d.message,
  }));
}

function matches(expected: readonly ExpectedDiagnostic[], actual: ReturnType<typeof actualOf>): boolean {
  if (expected.length !== actual.length) return false;
  const left = [...actual];
  for (const e of expected) {
    const i = left.findIndex(
      (a) =>
        a.code === e.code &&
        a.severity === e.severity &&
        (e.start === undefined || a.start === e.start) &&
        (e.end === undefined || a.end === e.end) &&
        (e.messageIncludes === undefined || a.message.includes(e.messageIncludes)),
    );
    if (i < 0) return false;
    left.splice(i, 1);
  }
  return true;
}

function settled(session: Session, state: State): boolean {
  const files = new Set([...state.disk.keys(), ...state.editor.keys(), ...state.expected.keys()]);
  for (const file of files) {
    if (!matches(state.expected.get(file) ?? [], actualOf(session, state, file))) return false;
    const version = session.versions.get(session.uri(file));
    if (version !== undefined && session.diagnostics.get(session.uri(file))?.version !== version) return false;
  }
  // Nothing may remain shown for a file that is gone.
  const known = new Set([...files].map((f) => session.uri(f)));
  for (const [uri, params] of session.diagnostics) if (!known.has(uri) && params.diagnostics.length > 0) return false;
  return true;
}

function describeShown(session: Session, state: State): string {
  const lines: string[] = [];
  const files = new Set([...state.disk.keys(), ...state.editor.keys(), ...state.expected.keys()]);
  for (const file of [...files].sort()) {
    const published = session.diagnostics.get(session.uri(file));
    lines.push(`  ${file} (editor version ${session.versions.get(session.uri(file)) ?? '-'}, published version ${published?.version ?? '-'})`);
    for (const e of state.expected.get(file) ?? []) lines.push(`    expected ${e.severity} ${e.code} [${e.start ?? '?'},${e.end ?? '…'})${e.messageIncludes ? ` "${e.messageIncludes}"` : ''}`);
    for (const a of actualOf(session, state, file)) lines.push(`    shown    ${a.severity} ${a.code} [${a.start},${a.end}) ${a.message.split('\n')[0]}`);
  }
  const known = new Set([...files].map((f) => session.uri(f)));
  for (const [uri, params] of session.diagnostics) {
    if (!known.has(uri) && params.diagnostics.length > 0) lines.push(`  ${uri}: ${params.diagnostics.length} diagnostic(s) still shown for a file that is gone`);
  }
  return lines.join('\n');
}

async function settle(session: Session, state: State, name: string): Promise<void> {
  await session.until(
    () => settled(session, state),
    () => `${name}:\n${describeShown(session, state)}\nserver log:\n${session.logs.map((l) => `  ${l.message}`).join('\n')}`,
  );
  for (const file of new Set([...state.disk.keys(), ...state.editor.keys()])) {
    for (const d of session.diagnostics.get(session.uri(file))?.diagnostics ?? []) assertInside(textOf(state, file) ?? '', d.range, `${name}: ${d.code} in ${file}`);
  }
}

/** Asserts that a range lies inside the text (lines exist, characters within their line). */
export function assertInside(text: string | readonly string[], range: LspDiagnostic['range'], what: string): void {
  const lines = typeof text === 'string' ? linesOf(text) : text;
  for (const p of [range.start, range.end]) {
    assert.ok(p.line >= 0 && p.line < lines.length, `${what}: line ${p.line} is outside the document (${lines.length} lines)`);
    assert.ok(p.character >= 0 && p.character <= lines[p.line].length, `${what}: character ${p.character} is outside line ${p.line} (${lines[p.line].length} characters)`);
  }
  assert.ok(range.start.line < range.end.line || (range.start.line === range.end.line && range.start.character <= range.end.character), `${what}: the range ends before it starts`);
}

/** The lines of a text without their breaks (CRLF, CR and LF each end one line). */
export function linesOf(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}
