/**
 * Multi-file fixtures with expected diagnostics annotated in place (docs/architecture.md#tests).
 *
 *   //- topology.dot
 *   digraph g { outline-writer [card="a@1.0.0"]; }
 *   //          ^^^^^^^^^^^^^^ warning attractor/bad-node-id
 *
 * - `//- <path>` starts a file (`#- <path>` works too). Text before the first header is ignored.
 * - An annotation line is a comment (`//` or `#`) whose first non-blank character after the
 *   comment marker is `^`. It is removed from the file; its carets mark columns of the closest
 *   preceding non-annotation line. `^^^...` means the range starts there and runs past the line.
 *   After the carets: `<severity> <code>`, optionally `: <text the message must contain>`.
 * - `//[a,b) <severity> <code>` (or `#[a,b)`) gives the columns explicitly, for tokens at column 0
 *   or 1 that carets cannot reach.
 * - `//! <severity> <code>[: text]` (or `#!`) expects a diagnostic of this file with no range.
 * - `//- @bundle` holds lines `<severity> <code>[: text]` for diagnostics with no file at all.
 * - `$0` marks a cursor (removed from the text).
 */
import assert from 'node:assert/strict';
import type { Diagnostic, Severity } from '../../src/diagnostics';
import { lineStarts } from '../../src/text';

export interface FixtureFile {
  path: string;
  text: string;
}

export interface ExpectedDiagnostic {
  file?: string;
  start?: number;
  /** Undefined with a start means "runs past the annotated line". */
  end?: number;
  severity: Severity;
  code: string;
  messageIncludes?: string;
}

export interface Fixture {
  files: FixtureFile[];
  expected: ExpectedDiagnostic[];
  cursor?: { path: string; offset: number };
}

const header = /^(?:\/\/|#)- (.+)$/;
const caretLine = /^(\s*(?:\/\/|#)\s*)(\^+)(\.\.\.)?\s+(error|warning|info)\s+(\S+?)(?::\s*(.*))?\s*$/;
const columnLine = /^\s*(?:\/\/|#)\[(\d+),(\d+)\)\s+(error|warning|info)\s+(\S+?)(?::\s*(.*))?\s*$/;
const fileLevel = /^\s*(?:\/\/|#)!\s*(error|warning|info)\s+(\S+?)(?::\s*(.*))?\s*$/;
const bundleLevel = /^\s*(error|warning|info)\s+(\S+?)(?::\s*(.*))?\s*$/;

export function parseFixture(source: string): Fixture {
  const files: FixtureFile[] = [];
  const expected: ExpectedDiagnostic[] = [];
  let cursor: Fixture['cursor'];
  let current: { path: string; lines: string[]; pending: { line: number; col: number; len: number; open: boolean; e: ExpectedDiagnostic }[] } | undefined;
  const flush = (): void => {
    if (!current) return;
    if (current.path === '@bundle') {
      current = undefined;
      return;
    }
    let text = current.lines.join('\n');
    const starts = lineStarts(text);
    for (const p of current.pending) {
      const start = starts[p.line] + p.col;
      p.e.start = start;
      p.e.end = p.open ? undefined : start + p.len;
    }
    const marker = text.indexOf('$0');
    if (marker >= 0) {
      cursor = { path: current.path, offset: marker };
      text = text.slice(0, marker) + text.slice(marker + 2);
      for (const p of current.pending) {
        if (p.e.start !== undefined && p.e.start > marker) p.e.start -= 2;
        if (p.e.end !== undefined && p.e.end > marker) p.e.end -= 2;
      }
    }
    files.push({ path: current.path, text });
    current = undefined;
  };
  const rawLines = source.split('\n');
  // a trailing newline in the template literal should not add an empty last line to the last file
  if (rawLines.length > 0 && rawLines[rawLines.length - 1].trim() === '') rawLines.pop();
  for (const line of rawLines) {
    const h = header.exec(line);
    if (h) {
      flush();
      current = { path: h[1].trim(), lines: [], pending: [] };
      continue;
    }
    if (!current) continue;
    if (current.path === '@bundle') {
      const b = bundleLevel.exec(line);
      if (b) expected.push({ severity: b[1] as Severity, code: b[2], messageIncludes: b[3] });
      continue;
    }
    const c = caretLine.exec(line);
    if (c && current.lines.length > 0) {
      const e: ExpectedDiagnostic = { file: current.path, severity: c[4] as Severity, code: c[5], messageIncludes: c[6] };
      expected.push(e);
      current.pending.push({ line: current.lines.length - 1, col: c[1].length, len: c[2].length, open: c[3] !== undefined, e });
      continue;
    }
    const k = columnLine.exec(line);
    if (k && current.lines.length > 0) {
      const e: ExpectedDiagnostic = { file: current.path, severity: k[3] as Severity, code: k[4], messageIncludes: k[5] };
      expected.push(e);
      const col = Number(k[1]);
      current.pending.push({ line: current.lines.length - 1, col, len: Number(k[2]) - col, open: false, e });
      continue;
    }
    const f = fileLevel.exec(line);
    if (f) {
      expected.push({ file: current.path, severity: f[1] as Severity, code: f[2], messageIncludes: f[3] });
      continue;
    }
    current.lines.push(line);
  }
  flush();
  return { files, expected, cursor };
}

function describeActual(d: Diagnostic, files: readonly FixtureFile[]): string {
  const file = d.location.file;
  const s = d.location.span;
  if (!file) return `${d.severity} ${d.code} (bundle): ${d.message}`;
  if (!s) return `${d.severity} ${d.code} ${file} (no range): ${d.message}`;
  const text = files.find((f) => f.path === file)?.text ?? '';
  return `${d.severity} ${d.code} ${file} [${s.start},${s.end}) ${JSON.stringify(text.slice(s.start, s.end))}: ${d.message}`;
}

function describeExpected(e: ExpectedDiagnostic, files: readonly FixtureFile[]): string {
  if (!e.file) return `${e.severity} ${e.code} (bundle)`;
  if (e.start === undefined) return `${e.severity} ${e.code} ${e.file} (no range)`;
  const text = files.find((f) => f.path === e.file)?.text ?? '';
  const end = e.end ?? text.length;
  return `${e.severity} ${e.code} ${e.file} [${e.start},${e.end ?? '...'}) ${JSON.stringify(text.slice(e.start, end))}`;
}

function matches(e: ExpectedDiagnostic, d: Diagnostic, files: readonly FixtureFile[]): boolean {
  if (e.code !== d.code || e.severity !== d.severity) return false;
  if ((e.file ?? undefined) !== (d.location.file ?? undefined)) return false;
  if (e.messageIncludes && !d.message.includes(e.messageIncludes)) return false;
  const s = d.location.span;
  if (e.start === undefined) return s === undefined;
  if (!s || s.start !== e.start) return false;
  if (e.end !== undefined) return s.end === e.end;
  const text = files.find((f) => f.path === e.file)?.text ?? '';
  const lineEnd = text.indexOf('\n', s.start);
  return lineEnd >= 0 && s.end > lineEnd;
}

/**
 * Asserts that `actual` holds exactly the expected diagnostics (as a multiset; order free).
 * `codes` restricts the comparison to codes with one of these prefixes (e.g. ['card/']), so a
 * fixture about one concern need not annotate every other finding.
 */
export function assertDiagnostics(fixture: Fixture, actual: readonly Diagnostic[], codes?: readonly string[]): void {
  const relevant = codes ? actual.filter((d) => codes.some((c) => d.code.startsWith(c))) : [...actual];
  const remaining = [...relevant];
  const missing: ExpectedDiagnostic[] = [];
  for (const e of fixture.expected) {
    if (codes && !codes.some((c) => e.code.startsWith(c))) continue;
    const i = remaining.findIndex((d) => matches(e, d, fixture.files));
    if (i >= 0) remaining.splice(i, 1);
    else missing.push(e);
  }
  if (missing.length || remaining.length) {
    const lines = [
      ...missing.map((e) => `  missing:    ${describeExpected(e, fixture.files)}`),
      ...remaining.map((d) => `  unexpected: ${describeActual(d, fixture.files)}`),
    ];
    assert.fail(`diagnostics differ:\n${lines.join('\n')}`);
  }
}
