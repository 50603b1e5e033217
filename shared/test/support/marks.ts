/**
 * Fixtures whose expected answer is marked in place under the text, for the features that
 * answer with places (highlights, semantic tokens, inlay hints, lenses, links):
 *
 *   //- topology.dot
 *   digraph g {
 *     wri$0ter [card="writer@1.0.0"];
 *   //^^^^^^ write
 *   }
 *
 * A mark line is a comment (`//` or `#`) whose first character after the comment marker and
 * blanks is `^`: its carets mark columns of the closest line above it that is no mark line
 * (columns as that line reads once `$0` is taken out), and the rest of the line is the mark's
 * label (a token type, `write`, a hint's text…). A mark of one caret at the end of a line or past
 * it marks the end of that line. `//[a,b) label` (or `#[a,b)`) gives the columns `[a, b)`
 * explicitly, for text at column 0 or 1 that carets cannot reach. Mark lines are taken out of the file; the rest is a fixture as
 * ./fixture.ts reads it (`//- path` headers, the `$0` cursor), also given back as `source`.
 *
 * Answers are compared as rendered lines, `path:line:column text «label»` (line and column
 * 1-based, the text the place covers), so a difference reads as the places that differ.
 */
import assert from 'node:assert/strict';
import { loadBundle } from '../../src/bundle/resolve';
import type { IdeBundle } from '../../src/ide';
import { lineIndex } from '../../src/text';
import { parseFixture, type Fixture } from './fixture';

export interface Mark {
  readonly file: string;
  readonly start: number;
  readonly end: number;
  readonly label: string;
}

const header = /^(?:\/\/|#)- (.+)$/;
const markLine = /^(\s*(?:\/\/|#)\s*)(\^+)(?:\s+(.*?))?\s*$/;
const columnLine = /^\s*(?:\/\/|#)\[(\d+),(\d+)\)(?:\s+(.*?))?\s*$/;

export function parseMarked(source: string): { readonly fixture: Fixture; readonly marks: readonly Mark[]; readonly source: string } {
  const kept: string[] = [];
  const pending: { file: string; line: number; col: number; len: number; label: string }[] = [];
  let file: string | undefined;
  let line = -1;
  /** Where `$0` is written on the last kept line, if it is. */
  let cursorColumn = -1;
  for (const raw of source.split('\n')) {
    const h = header.exec(raw);
    if (h) {
      file = h[1].trim();
      line = -1;
      kept.push(raw);
      continue;
    }
    const columns = file !== undefined && line >= 0 ? columnLine.exec(raw) : null;
    if (columns && file !== undefined) {
      pending.push({ file, line, col: Number(columns[1]), len: Number(columns[2]) - Number(columns[1]), label: columns[3] ?? '' });
      continue;
    }
    const m = file !== undefined && line >= 0 ? markLine.exec(raw) : null;
    if (m && file !== undefined) {
      // (written under the line as it reads with `$0`: columns after the cursor move back by two)
      const col = cursorColumn >= 0 && m[1].length > cursorColumn ? m[1].length - 2 : m[1].length;
      pending.push({ file, line, col, len: m[2].length, label: m[3] ?? '' });
      continue;
    }
    kept.push(raw);
    cursorColumn = raw.indexOf('$0');
    if (file !== undefined) line++;
  }
  const fixture = parseFixture(kept.join('\n'));
  const marks = pending.map((p): Mark => {
    const text = fixture.files.find((f) => f.path === p.file)?.text ?? '';
    const lines = text.split('\n');
    const lineStart = lines.slice(0, p.line).reduce((sum, l) => sum + l.length + 1, 0);
    const lineEnd = lineStart + (lines[p.line] ?? '').length;
    const start = Math.min(lineStart + p.col, lineEnd);
    // one caret at or past the end of its line marks the end of the line, with no width
    const end = p.len === 1 && lineStart + p.col >= lineEnd ? start : Math.min(start + p.len, lineEnd);
    return { file: p.file, start, end, label: p.label };
  });
  return { fixture, marks, source: kept.join('\n') };
}

/** A marked fixture loaded as an `IdeBundle`, with its cursor (the first file's start when it has none). */
export function loadMarked(source: string): { readonly fixture: Fixture; readonly marks: readonly Mark[]; readonly bundle: IdeBundle; readonly file: string; readonly offset: number } {
  const { fixture, marks } = parseMarked(source);
  assert.ok(fixture.files.length > 0, 'the fixture holds files');
  const files = new Map(fixture.files.map((f) => [f.path, f] as const));
  const result = loadBundle(fixture.files, { folderName: 'fixture' });
  const cursor = fixture.cursor ?? { path: fixture.files[0].path, offset: 0 };
  return { fixture, marks, bundle: { files, result }, file: cursor.path, offset: cursor.offset };
}

/** A place and its label as compared: `path:line:column text «label»`. */
export function renderMark(texts: ReadonlyMap<string, string> | Fixture, mark: Mark): string {
  const text = ('files' in texts ? texts.files.find((f) => f.path === mark.file)?.text : texts.get(mark.file)) ?? '';
  const at = lineIndex(text).positionAt(mark.start);
  return `${mark.file}:${at.line + 1}:${at.character + 1} ${text.slice(mark.start, mark.end)} «${mark.label}»`;
}

/** The rendered marks in document order (by file, then place). */
export function renderMarks(texts: ReadonlyMap<string, string> | Fixture, marks: readonly Mark[]): string[] {
  return [...marks].sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.start - b.start || a.end - b.end || (a.label < b.label ? -1 : 1))).map((m) => renderMark(texts, m));
}
