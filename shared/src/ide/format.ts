/**
 * Formatting of a topology (document and range), in one style: two-space indentation (or the
 * unit the editor asks for), one statement per line, `[a=b, c=d]` lists, `a -> b` edges, and the
 * attribute lists of a run of node statements aligned in one column, as the example bundle writes
 * them:
 *
 *   request_intake    [card="request-intake@1.0.0"];
 *   release_publisher [card="release-publisher@1.0.0"];
 *
 * A run is the node statements of one block that follow each other with no blank line and no
 * comment line between them. The formatter changes only the blanks between tokens: every token,
 * comments included, is written as it was and in the same order, so the formatted text reads as
 * the same graph, with the same findings and the same compiled file (a `;` written or not, a
 * separator in a list, a `#` comment stay what they were: changing them is the quick fixes'
 * business). A comment keeps its place: after the token it followed on its line, or on a line of
 * its own, indented as what follows it. At most one blank line is kept where the text had blank
 * lines, none right after `{` or before `}`. A subgraph written on one line stays on one line
 * (`a -> {b c}`); one written over several lines gets a line per statement. Text after the first
 * graph, which nothing reads, is left as it is.
 *
 * On a parse error, or anything the formatter does not read as a whole graph, it answers no edit.
 * As a last guard, the formatted text is read again and must give the same tokens, or no edit is
 * answered either.
 *
 * A rename of a node id keeps an aligned run aligned (`realignedRuns`): the edit also moves the
 * lists of the run to the column the longest new id calls for.
 */
import { lexDot } from '../syntax/dot-lexer';
import { parseDot } from '../syntax/dot-parser';
import { DotTokenCode, type DotParseResult, type DotTokenTable } from '../syntax/dot-model';
import type { Span } from '../text';
import { isTopologyPath, topologyView } from './context';
import type { IdeBundle, TextEdit } from './types';

export interface FormatOptions {
  /** One level of indentation (default two spaces). */
  readonly indent?: string;
}

/** The edits that format a whole topology; none on a parse error or for another file. */
export function formatDocument(bundle: IdeBundle, file: string, options: FormatOptions = {}): TextEdit[] {
  return formatEdits(bundle, file, options, undefined);
}

/**
 * The edits that format the lines `span` touches (the blanks before each token that starts on
 * them), in the style of the whole document: an aligned run is aligned as the whole run needs.
 */
export function formatRange(bundle: IdeBundle, file: string, span: Span, options: FormatOptions = {}): TextEdit[] {
  return formatEdits(bundle, file, options, span);
}

/** `text` formatted, or undefined when it cannot be (a parse error, no graph). */
export function formatDot(text: string, options: FormatOptions = {}, parse?: DotParseResult): string | undefined {
  const layout = layoutOf(text, options, parse);
  if (layout === undefined) return undefined;
  return layout.output;
}

function formatEdits(bundle: IdeBundle, file: string, options: FormatOptions, range: Span | undefined): TextEdit[] {
  if (!isTopologyPath(file)) return [];
  const view = topologyView(bundle, file);
  if (view === undefined) return [];
  const layout = layoutOf(view.text, options, view.parse);
  if (layout === undefined) return [];
  const text = view.text;
  let from = 0;
  let to = text.length;
  if (range !== undefined) {
    const start = Math.max(0, Math.min(range.start, range.end, text.length));
    let end = Math.max(0, Math.min(Math.max(range.start, range.end), text.length));
    // (a selection of whole lines ends at the start of the next line, which it does not touch)
    if (end > start && (text.charCodeAt(end - 1) === 10 || text.charCodeAt(end - 1) === 13)) end = lineStartOf(text, end - 1);
    from = lineStartOf(text, start);
    to = lineEndOf(text, end);
  }
  const edits: TextEdit[] = [];
  const { tokens, gaps } = layout;
  for (const t of layout.changed) {
    const start = t === 0 ? 0 : tokens.ends[t - 1];
    const end = t === tokens.count ? text.length : tokens.starts[t];
    if (end >= from && end <= to) edits.push({ span: { start, end }, newText: gaps[t] });
  }
  return edits;
}

/** True when `text` holds `written` from `start` to `end`. */
function writtenAs(text: string, start: number, end: number, written: string): boolean {
  if (end - start !== written.length) return false;
  for (let i = 0; i < written.length; i++) if (text.charCodeAt(start + i) !== written.charCodeAt(i)) return false;
  return true;
}

// ---------------------------------------------------------------------- tokens

/** Every token of a file, comments included, in source order, column-wise. */
interface AllTokens {
  readonly count: number;
  readonly kinds: Uint8Array;
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  /** The index of each token among the significant ones, -1 for a comment. */
  readonly significant: Int32Array;
  /** The index among all tokens of each significant token. */
  readonly all: Int32Array;
}

function allTokens(table: DotTokenTable): AllTokens {
  const comments = table.comments;
  const count = table.count + comments.length;
  const kinds = new Uint8Array(count);
  const starts = new Int32Array(count);
  const ends = new Int32Array(count);
  const significant = new Int32Array(count);
  const all = new Int32Array(table.count);
  let s = 0;
  let c = 0;
  for (let t = 0; t < count; t++) {
    if (c < comments.length && (s >= table.count || comments[c].span.start < table.starts[s])) {
      const comment = comments[c++];
      kinds[t] = comment.kind === 'line-comment' ? DotTokenCode.LineComment : comment.kind === 'hash-comment' ? DotTokenCode.HashComment : DotTokenCode.BlockComment;
      starts[t] = comment.span.start;
      ends[t] = comment.span.end;
      significant[t] = -1;
    } else {
      kinds[t] = table.kinds[s];
      starts[t] = table.starts[s];
      ends[t] = table.ends[s];
      significant[t] = s;
      all[s] = t;
      s++;
    }
  }
  return { count, kinds, starts, ends, significant, all };
}

function isComment(kind: number): boolean {
  return kind === DotTokenCode.LineComment || kind === DotTokenCode.HashComment || kind === DotTokenCode.BlockComment;
}

/** A value or id: an identifier, a number, a string or an HTML-like literal. */
function isValue(kind: number): boolean {
  return kind === DotTokenCode.Id || kind === DotTokenCode.Number || kind === DotTokenCode.String || kind === DotTokenCode.Html;
}

// ---------------------------------------------------------------------- the walk

/** The blank before a significant token: none, one space, or a line break then the indentation of a depth (0 and up). */
const none = -1;
const space = -2;

/** A node statement of a block: its first token, the last of its id (and port), and its first `[`, as significant indices. */
interface NodeStatement {
  readonly first: number;
  readonly idEnd: number;
  readonly bracket: number;
  /** The block it stands in, and its place there (runs are consecutive statements of one block). */
  readonly block: number;
  readonly place: number;
}

interface Walk {
  /** Per significant token, its blank (`none`, `space` or a depth). */
  readonly layout: Int32Array;
  /** Per significant token, the depth of the statement it belongs to. */
  readonly depth: Int32Array;
  readonly statements: readonly NodeStatement[];
  /** The significant index of the `}` that closes the first graph. */
  readonly close: number;
}

class Unreadable extends Error {}

/**
 * Reads the first graph's statements over the significant tokens and decides the blank before
 * each; throws `Unreadable` (caught by the caller) at anything it does not read as DOT.
 */
function walk(table: DotTokenTable): Walk {
  const count = table.count;
  const kinds = table.kinds;
  const source = table.source;
  const layout = new Int32Array(count).fill(none);
  const depthOf = new Int32Array(count).fill(-1);
  const statements: NodeStatement[] = [];
  let blocks = 0;
  let p = 0;
  const kind = (i: number): number => (i < count ? kinds[i] : -1);
  const word = (i: number): string => source.slice(table.starts[i], table.ends[i]).toLowerCase();
  const expect = (k: number): void => {
    if (kind(p) !== k) throw new Unreadable();
  };
  const set = (i: number, value: number): void => {
    layout[i] = value;
  };
  /** The `}` matching each `{` (computed once). */
  const match = new Int32Array(count).fill(-1);
  {
    const open: number[] = [];
    for (let i = 0; i < count; i++) {
      if (kinds[i] === DotTokenCode.LBrace) open.push(i);
      else if (kinds[i] === DotTokenCode.RBrace) {
        const o = open.pop();
        if (o !== undefined) match[o] = i;
      }
    }
  }
  const oneLine = (from: number, to: number): boolean => {
    for (let i = table.starts[from]; i < table.ends[to]; i++) {
      const c = source.charCodeAt(i);
      if (c === 10 || c === 13) return false;
    }
    return true;
  };

  /** A value: one token, or strings joined by `+`. */
  const value = (): void => {
    if (!isValue(kind(p))) throw new Unreadable();
    const joined = kind(p) === DotTokenCode.String;
    p++;
    while (joined && kind(p) === DotTokenCode.Plus && kind(p + 1) === DotTokenCode.String) {
      set(p, space);
      set(p + 1, space);
      p += 2;
    }
  };
  /** A node id with its port and compass point (`a:p:n`). */
  const nodeId = (): void => {
    value();
    while (kind(p) === DotTokenCode.Colon) {
      set(p++, none);
      if (!isValue(kind(p))) throw new Unreadable();
      set(p++, none);
    }
  };
  const attrLists = (): void => {
    while (kind(p) === DotTokenCode.LBracket) {
      set(p++, space);
      let first = true;
      while (kind(p) !== DotTokenCode.RBracket) {
        set(p, first ? none : space);
        value();
        expect(DotTokenCode.Equals);
        set(p++, none);
        set(p, none);
        value();
        if (kind(p) === DotTokenCode.Comma || kind(p) === DotTokenCode.Semicolon) set(p++, none);
        first = false;
      }
      set(p++, none);
    }
  };
  const isSubgraphStart = (): boolean => kind(p) === DotTokenCode.LBrace || (kind(p) === DotTokenCode.Keyword && word(p) === 'subgraph');
  /** A subgraph (`subgraph s { … }`, `{ … }`), its first token's blank set by the caller. */
  const subgraph = (depth: number): void => {
    if (kind(p) === DotTokenCode.Keyword) {
      p++;
      if (isValue(kind(p))) set(p++, space);
      expect(DotTokenCode.LBrace);
      set(p, space);
    }
    expect(DotTokenCode.LBrace);
    const open = p++;
    const close = match[open];
    if (close < 0) throw new Unreadable();
    if (kind(p) === DotTokenCode.RBrace) {
      set(p++, none);
      return;
    }
    const inline = oneLine(open, close);
    statementList(depth + 1, inline);
    expect(DotTokenCode.RBrace);
    set(p++, inline ? none : depth);
  };
  /** An edge's operand: a node id or a subgraph, its blank set by the caller. */
  const operand = (depth: number): void => {
    if (isSubgraphStart()) subgraph(depth);
    else nodeId();
  };
  const edgeRest = (depth: number): void => {
    while (kind(p) === DotTokenCode.Arrow || kind(p) === DotTokenCode.Line) {
      set(p++, space);
      set(p, space);
      operand(depth);
    }
    attrLists();
  };
  /** One statement, its first token's blank set by the caller; a node statement with a list is recorded. */
  const statement = (depth: number, block: number, place: number): void => {
    const first = p;
    const k = kind(p);
    if (k === DotTokenCode.Keyword) {
      const w = word(p);
      if ((w === 'graph' || w === 'node' || w === 'edge') && kind(p + 1) === DotTokenCode.LBracket) {
        p++;
        attrLists();
        return;
      }
      if (w !== 'subgraph') throw new Unreadable();
    }
    if (isSubgraphStart()) {
      subgraph(depth);
      edgeRest(depth);
      return;
    }
    if (!isValue(k)) throw new Unreadable();
    // `key=value` sets a graph attribute
    let after = p + 1;
    while (kinds[p] === DotTokenCode.String && kind(after) === DotTokenCode.Plus && kind(after + 1) === DotTokenCode.String) after += 2;
    if (kind(after) === DotTokenCode.Equals) {
      value();
      set(p++, none);
      set(p, none);
      value();
      return;
    }
    nodeId();
    if (kind(p) === DotTokenCode.Arrow || kind(p) === DotTokenCode.Line) {
      edgeRest(depth);
      return;
    }
    const idEnd = p - 1;
    if (kind(p) === DotTokenCode.LBracket) statements.push({ first, idEnd, bracket: p, block, place });
    attrLists();
  };
  /** The statements of a block up to its `}`: each on a line of its own at `depth`, or one after another on one line. */
  const statementList = (depth: number, inline: boolean): void => {
    const block = blocks++;
    let place = 0;
    while (kind(p) !== DotTokenCode.RBrace) {
      if (p >= count) throw new Unreadable();
      const start = p;
      if (kind(p) === DotTokenCode.Semicolon) {
        // an empty statement: its `;` stays after what comes before it
        set(p++, none);
        continue;
      }
      set(p, inline ? (place === 0 ? none : space) : depth);
      statement(depth, block, place);
      if (kind(p) === DotTokenCode.Semicolon) set(p++, none);
      for (let i = start; i < p; i++) if (depthOf[i] < 0) depthOf[i] = depth;
      place++;
    }
  };

  // the header: `[strict] (di)graph [name] {`
  set(p, 0);
  if (kind(p) === DotTokenCode.Keyword && word(p) === 'strict') set(++p, space);
  if (kind(p) !== DotTokenCode.Keyword || (word(p) !== 'graph' && word(p) !== 'digraph')) throw new Unreadable();
  p++;
  if (isValue(kind(p))) set(p++, space);
  expect(DotTokenCode.LBrace);
  set(p++, space);
  statementList(1, false);
  expect(DotTokenCode.RBrace);
  set(p, 0);
  for (let i = 0; i <= p; i++) if (depthOf[i] < 0) depthOf[i] = 0;
  return { layout, depth: depthOf, statements, close: p };
}

// ---------------------------------------------------------------------- the layout

interface Layout {
  readonly tokens: AllTokens;
  /** Per token (and one past the last), the blank before it. */
  readonly gaps: readonly string[];
  /** The tokens (and one past the last) whose blank before them changes, in order. */
  readonly changed: readonly number[];
  readonly output: string;
}

function layoutOf(text: string, options: FormatOptions, given?: DotParseResult): Layout | undefined {
  const parse = given ?? parseDot(text);
  if (parse.diagnostics.some((d) => d.code === 'dot/parse-error')) return undefined;
  const table = parse.table;
  if (table.count === 0) return undefined;
  let shape: Walk;
  try {
    shape = walk(table);
  } catch (error) {
    if (error instanceof Unreadable) return undefined;
    throw error;
  }
  const tokens = allTokens(table);
  const indentUnit = options.indent ?? '  ';
  const eol = /\r\n/.test(text) ? '\r\n' : '\n';
  const indents: string[] = [];
  const indent = (depth: number): string => (indents[depth] ??= indentUnit.repeat(depth));
  // (filled in order, so the array stays packed)
  const gaps: string[] = [];
  const { kinds, starts, ends, significant } = tokens;
  /** The line breaks in the blank before token `t` as written (a CRLF counts once); -1 when it holds anything but blanks. */
  const breaksBefore = (t: number): number => {
    const to = t === tokens.count ? text.length : starts[t];
    let n = 0;
    for (let i = t === 0 ? 0 : ends[t - 1]; i < to; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) n++;
      else if (c === 13) {
        if (text.charCodeAt(i + 1) !== 10) n++;
      } else if (c !== 32 && c !== 9 && c !== 11 && c !== 12 && c !== 0xfeff) return -1;
    }
    return n;
  };
  /** The depth a comment on a line of its own takes: that of what follows it (inside a block it closes). */
  const commentDepth = (t: number): number => {
    for (let u = t + 1; u < tokens.count; u++) {
      const s = significant[u];
      if (s < 0) continue;
      const l = shape.layout[s];
      if (l >= 0) return kinds[u] === DotTokenCode.RBrace ? l + 1 : l;
      return shape.depth[s] + 1;
    }
    return 0;
  };
  const newLine = (t: number, breaks: number, depth: number): string => {
    const previous = t > 0 ? kinds[t - 1] : -1;
    const blank = breaks >= 2 && previous !== DotTokenCode.LBrace && kinds[t] !== DotTokenCode.RBrace;
    return `${blank ? eol + eol : eol}${indent(depth)}`;
  };
  // Text after the graph, which nothing reads, is left as it is from its first token on; comments
  // alone after the graph are formatted as lines of their own.
  const formattedEnd = shape.close === table.count - 1 ? tokens.count - 1 : tokens.all[shape.close];
  for (let t = 0; t <= tokens.count; t++) {
    if (t === tokens.count && formattedEnd === tokens.count - 1) {
      gaps[t] = eol;
      continue;
    }
    if (t > formattedEnd) {
      gaps[t] = text.slice(ends[t - 1], t === tokens.count ? text.length : starts[t]);
      continue;
    }
    if (t === 0) {
      gaps[t] = text.charCodeAt(0) === 0xfeff ? '\ufeff' : '';
      continue;
    }
    const breaks = breaksBefore(t);
    if (breaks < 0) return undefined;
    const previous = kinds[t - 1];
    const afterLineComment = previous === DotTokenCode.LineComment || previous === DotTokenCode.HashComment;
    const s = significant[t];
    if (s < 0) {
      gaps[t] = breaks > 0 || afterLineComment ? newLine(t, breaks, commentDepth(t)) : ' ';
      continue;
    }
    const l = shape.layout[s];
    const kind = kinds[t];
    if (l >= 0) gaps[t] = newLine(t, breaks, l);
    else if (afterLineComment) gaps[t] = newLine(t, breaks, shape.depth[s] + 1);
    else if (l === space) gaps[t] = ' ';
    else gaps[t] = isComment(previous) ? ' ' : '';
    // `step-1` is two nodes written glued (a quick fix offers to write the one id meant): kept glued
    if (ends[t - 1] === starts[t] && kind === DotTokenCode.Number && text.charCodeAt(starts[t]) === 45 && (previous === DotTokenCode.Id || previous === DotTokenCode.Number || previous === DotTokenCode.Keyword)) gaps[t] = '';
  }
  align(tokens, shape, gaps, text);
  // the text with each blank that changes replaced (most stay as they are in a formatted text)
  const changed: number[] = [];
  let output = '';
  let copied = 0;
  for (let t = 0; t <= tokens.count; t++) {
    const start = t === 0 ? 0 : ends[t - 1];
    const end = t === tokens.count ? text.length : starts[t];
    if (writtenAs(text, start, end, gaps[t])) continue;
    changed.push(t);
    output += text.slice(copied, start) + gaps[t];
    copied = end;
  }
  output += text.slice(copied);
  if (!sameTokens(table, output)) return undefined;
  return { tokens, gaps, changed, output };
}


/** Puts the lists of each run of node statements in one column (see the module's header). */
function align(tokens: AllTokens, shape: Walk, gaps: string[], text: string): void {
  const runs = runsOf(shape.statements, tokens, (t) => gaps[t], (t) => gaps[t].includes('\n') || gaps[t].includes('\r'));
  for (const run of runs) {
    const widths = run.map((statement) => idWidth(statement, tokens, gaps, text));
    let widest = -1;
    for (const w of widths) if (w !== undefined && w > widest) widest = w;
    run.forEach((statement, i) => {
      const w = widths[i];
      if (w !== undefined) gaps[tokens.all[statement.bracket]] = ' '.repeat(widest - w + 1);
    });
  }
}

/** The width of a statement's id (and port) as formatted; undefined when a comment or a line break stands in it. */
function idWidth(statement: NodeStatement, tokens: AllTokens, gaps: readonly string[], text: string): number | undefined {
  const from = tokens.all[statement.first];
  const to = tokens.all[statement.idEnd];
  if (tokens.all[statement.bracket] !== to + 1) return undefined;
  let width = 0;
  for (let t = from; t <= to; t++) {
    if (t > from) {
      if (/[\r\n]/.test(gaps[t])) return undefined;
      width += gaps[t].length;
    }
    const written = text.slice(tokens.starts[t], tokens.ends[t]);
    if (/[\r\n]/.test(written)) return undefined;
    width += written.length;
  }
  return width;
}

/**
 * The runs of node statements: those of one block, one after the other, each on a line of its
 * own, with no blank line and no comment on a line of its own between two of them (`gap` is the
 * blank before a token, `breaks` whether it holds a line break).
 */
function runsOf(statements: readonly NodeStatement[], tokens: AllTokens, gap: (t: number) => string, breaks: (t: number) => boolean): NodeStatement[][] {
  const runs: NodeStatement[][] = [];
  let run: NodeStatement[] = [];
  let last: NodeStatement | undefined;
  const close = (): void => {
    if (run.length > 1) runs.push(run);
    run = [];
  };
  for (const statement of statements) {
    const first = tokens.all[statement.first];
    const ownLine = first === 0 || breaks(first);
    let joined = ownLine && last !== undefined && last.block === statement.block && last.place + 1 === statement.place;
    if (joined && last !== undefined) {
      // between the end of the last statement's list and this one: blanks and comments after it on its line only
      const lastEnd = tokens.all[last.bracket];
      let lineSeen = false;
      for (let t = lastEnd + 1; t <= first && joined; t++) {
        const g = gap(t);
        const lines = (g.match(/\r\n|\r|\n/g) ?? []).length;
        if (lines > 1) joined = false;
        if (lines > 0) {
          if (lineSeen || (t < first && isComment(tokens.kinds[t]))) joined = false;
          lineSeen = true;
        }
      }
    }
    if (!joined) close();
    if (ownLine) run.push(statement);
    last = statement;
  }
  close();
  return runs;
}

/** True when `output` reads as the same tokens as the table it was formatted from, comments included. */
function sameTokens(table: DotTokenTable, output: string): boolean {
  const again = lexDot(output).table;
  if (again.count !== table.count || again.comments.length !== table.comments.length) return false;
  const source = table.source;
  for (let i = 0; i < table.count; i++) {
    if (again.kinds[i] !== table.kinds[i]) return false;
    if (output.slice(again.starts[i], again.ends[i]) !== source.slice(table.starts[i], table.ends[i])) return false;
  }
  for (let i = 0; i < table.comments.length; i++) if (again.comments[i].text !== table.comments[i].text) return false;
  return true;
}

// ---------------------------------------------------------------------- rename

/**
 * The edits that keep each aligned run of node statements aligned once `edits` (a rename's, on
 * the topology `text`) are applied: a run whose lists all stand in one column, on the line of
 * their id, moves that column by as much as the widest id grows or shrinks. Runs an edit reaches
 * between an id and its list are left alone.
 */
export function realignedRuns(text: string, parse: DotParseResult, edits: readonly TextEdit[]): TextEdit[] {
  if (parse.diagnostics.some((d) => d.code === 'dot/parse-error')) return [];
  let shape: Walk;
  try {
    shape = walk(parse.table);
  } catch (error) {
    if (error instanceof Unreadable) return [];
    throw error;
  }
  const tokens = allTokens(parse.table);
  const gapText = (t: number): string => text.slice(t === 0 ? 0 : tokens.ends[t - 1], tokens.starts[t]);
  const runs = runsOf(shape.statements, tokens, gapText, (t) => /[\r\n]/.test(gapText(t)));
  const out: TextEdit[] = [];
  const sorted = [...edits].sort((a, b) => a.span.start - b.span.start);
  for (const run of runs) {
    const rows = run.map((statement) => {
      const id = tokens.all[statement.first];
      const end = tokens.ends[tokens.all[statement.idEnd]];
      const bracket = tokens.starts[tokens.all[statement.bracket]];
      const lineStart = lineStartOf(text, tokens.starts[id]);
      return { lineStart, end, bracket, gap: text.slice(end, bracket) };
    });
    if (rows.some((r) => !/^ +$/.test(r.gap))) continue;
    const column = rows[0].bracket - rows[0].lineStart;
    if (rows.some((r) => r.bracket - r.lineStart !== column)) continue;
    let reached = false;
    const grown = rows.map((r) => {
      let delta = 0;
      for (const e of sorted) {
        if (e.span.end <= r.lineStart || e.span.start > r.bracket) continue;
        if (e.span.end > r.end || e.span.start >= r.end) {
          reached = true;
          break;
        }
        delta += e.newText.length - (e.span.end - e.span.start);
      }
      return r.end - r.lineStart + delta;
    });
    if (reached) continue;
    const widest = Math.max(...rows.map((r) => r.end - r.lineStart));
    const widestAfter = Math.max(...grown);
    const moved = column + (widestAfter - widest);
    if (moved === column) continue;
    rows.forEach((r, i) => {
      const gap = ' '.repeat(moved - grown[i]);
      if (gap !== r.gap) out.push({ span: { start: r.end, end: r.bracket }, newText: gap });
    });
  }
  return out;
}

// ---------------------------------------------------------------------- lines

function lineStartOf(text: string, offset: number): number {
  let i = offset;
  while (i > 0) {
    const c = text.charCodeAt(i - 1);
    if (c === 10 || c === 13) break;
    i--;
  }
  return i;
}

function lineEndOf(text: string, offset: number): number {
  let i = offset;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) break;
    i++;
  }
  return i;
}
