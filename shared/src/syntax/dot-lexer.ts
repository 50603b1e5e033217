/**
 * The DOT lexer for DarkPrint's dialect (docs/compatibility.md#dot-dialect): one linear pass with
 * `charCodeAt`, every token with its exact span, comments kept as tokens (the lint and the IDE read
 * them). Tokens are stored column-wise (`DotTokenTable`: a kind, a start and an end per token) and
 * become objects only when asked for, so a large file costs three arrays, not a million objects.
 * Never throws; a character it cannot read becomes an `unknown` token and a `dot/parse-error`.
 *
 * Decisions beyond DarkPrint's reading (docs/compatibility.md#lexer-decisions):
 * - a number immediately followed by letters (`900s`, `5min`) is ONE `number` token; the lint
 *   decides whether it is a duration;
 * - an id immediately followed by `-` and a letter (`code-builder`) is ONE `id` token marked
 *   `hyphenated`, so the parser reports it once, by name, and can still recover the node;
 * - an unterminated string or HTML-like literal ends at the end of its first line, so the
 *   lines after it are still read;
 * - a byte-order mark at the very start is whitespace.
 */
import type { Diagnostic } from '../diagnostics';
import { diagnosticInfo } from '../diagnostics';
import { partitionPoint, type Span } from '../text';
import { DotTokenCode, dotTokenKinds, type DotToken, type DotTokenKind, type DotTokenTable } from './dot-model';

export interface DotLexResult {
  /** The significant tokens (comments excluded), stored column-wise: what the grammar reads. */
  readonly table: DotTokenTable;
  /** Every token, comments included, in source order: built from `table` when first read. */
  readonly tokens: readonly DotToken[];
  /** `tokens` without comments: built when first read. */
  readonly significant: readonly DotToken[];
  /**
   * `dot/parse-error`s in source order (at most `maxParseErrors + 1` are kept; `parseErrorCount`
   * has the total) and one `dot/unsupported` per HTML-like literal.
   */
  readonly diagnostics: Diagnostic[];
  readonly parseErrorCount: number;
  /** How many HTML-like literals were read (at most `maxParseErrors + 1` warnings are kept). */
  readonly htmlCount: number;
  /**
   * Set when the lexing took the earlier table's tokens from `token` on (see `LexResume.suffix`):
   * the new table's token `token` is the earlier table's token `token - shift`, and so on to the end.
   */
  readonly rejoined?: { readonly token: number; readonly shift: number };
}

/** How many `dot/parse-error`s a file reports before one "too many" line replaces the rest (docs/compatibility.md#parse-errors-and-recovery). */
export const maxParseErrors = 20;

const keywordSet: ReadonlySet<string> = new Set(['digraph', 'edge', 'graph', 'node', 'strict', 'subgraph']);

/** True for `[A-Za-z_]` and any code unit >= U+0080 (every non-ASCII character counts as a letter: docs/compatibility.md#dot-dialect). */
export function isDotIdStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c >= 0x80;
}

export function isDotIdPart(c: number): boolean {
  return isDotIdStart(c) || (c >= 48 && c <= 57);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isWhitespace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 11;
}

/** True when `text` (already known to be an id) is a DOT keyword, compared case-insensitively. */
export function isDotKeyword(text: string): boolean {
  return isKeywordAt(text, 0, text.length);
}

/** `isDotKeyword` on `text.slice(start, end)`, without making the slice for the ids that cannot be one. */
function isKeywordAt(text: string, start: number, end: number): boolean {
  const length = end - start;
  if (length < 4 || length > 8) return false;
  const first = text.charCodeAt(start) | 32; // d, e, g, n, s
  if (first !== 100 && first !== 101 && first !== 103 && first !== 110 && first !== 115) return false;
  return keywordSet.has(text.slice(start, end).toLowerCase());
}

/** The one-character tokens. */
const punctuation: readonly (readonly [string, DotTokenKind])[] = [
  ['{', 'lbrace'], ['}', 'rbrace'], ['[', 'lbracket'], [']', 'rbracket'], [';', 'semicolon'],
  [',', 'comma'], ['=', 'equals'], [':', 'colon'], ['+', 'plus'],
];

/** Character classes of the ASCII range, for the lexer's first look at a character. */
const otherClass = 0;
const whitespaceClass = 1;
const idStartClass = 2;
const digitClass = 3;
const punctuationClass = 4;
const asciiClass: Uint8Array = (() => {
  const classes = new Uint8Array(128).fill(otherClass);
  for (let c = 0; c < 128; c++) {
    if (isWhitespace(c)) classes[c] = whitespaceClass;
    else if (isDotIdStart(c)) classes[c] = idStartClass;
    else if (isDigit(c)) classes[c] = digitClass;
  }
  for (const [character] of punctuation) classes[character.charCodeAt(0)] = punctuationClass;
  return classes;
})();

/** The code of a token kind in a table (its place in `dotTokenKinds`). */
function codeOf(kind: DotTokenKind): number {
  return dotTokenKinds.indexOf(kind);
}

/** The one-character tokens' codes, by character code (looked up once per punctuation token). */
const punctuationCodes: Uint8Array = (() => {
  const table = new Uint8Array(128);
  for (const [character, kind] of punctuation) table[character.charCodeAt(0)] = codeOf(kind);
  return table;
})();

/**
 * Where `lexDot` may start instead of at the beginning: the first `token` tokens of an earlier
 * table of a text that reads the same up to that token's start (and a little beyond, see
 * `resumeAt` in ./dot-resume.ts). The earlier table must hold no unterminated literal and no
 * unreadable character before that token: the caller (the parser's resume) checks that its
 * lexing reported nothing.
 */
export interface LexResume {
  readonly table: DotTokenTable;
  readonly token: number;
  /**
   * Where the new text ends as the earlier one does: from new offset `from` on, each character
   * is the earlier text's at its offset minus `delta`. Once the lexing reaches a token that starts
   * there at the start of an earlier token, with no unterminated literal behind it, it takes the
   * earlier table's tokens and comments from there on, moved by `delta`, instead of reading on
   * (nothing before a token changes how it reads). The earlier lexing must have reported nothing.
   */
  readonly suffix?: { readonly from: number; readonly delta: number };
}

/**
 * The first `count` items: a view of `array` when it has little room left (as after an edit,
 * whose guess is close), else a copy of that size (a first lexing guesses about twice too many).
 * A view saves a copy of the whole table on every edit, and memory the garbage collector frees
 * only in a full collection (typed arrays' contents live outside the heap).
 */
function fitted<T extends Uint8Array | Int32Array>(array: T, count: number): T {
  return (count * 8 >= array.length * 7 ? array.subarray(0, count) : array.slice(0, count)) as T;
}

/**
 * Reads `text` into a token table. Given `resume`, it copies the earlier table's tokens before
 * `resume.token` instead of reading them again (`copyEarlier`), and takes the earlier tokens of
 * the end the two texts share once it reaches them (`takeEarlierFrom`).
 */
export function lexDot(text: string, file = 'topology.dot', resume?: LexResume): DotLexResult {
  const s = newLexer(text, file, resume);
  const from = resume !== undefined && resume.token > 0 && resume.token < resume.table.count ? copyEarlier(s, resume.table, resume.token) : text.charCodeAt(0) === 0xfeff ? 1 : 0;
  scan(s, from);
  return lexResult(s);
}

/**
 * Everything one lexing reads and writes, passed to each of its functions. One object literal
 * makes it (`newLexer`), so that every lexing's state has the same shape.
 */
interface Lexer {
  readonly text: string;
  readonly file: string;
  /**
   * Kinds and offsets live in typed arrays (nothing for the garbage collector to trace), grown
   * by doubling from a guess (one token per four characters; after an edit, the earlier count and
   * one per four characters added), and cut to size at the end (`fitted`).
   */
  count: number;
  kinds: Uint8Array;
  starts: Int32Array;
  ends: Int32Array;
  /** Values that differ from what `valueOf` derives (escaped and unterminated strings, unclosed HTML). */
  readonly values: Map<number, string>;
  readonly flags: Map<number, 'hyphenated' | 'unterminated'>;
  readonly comments: DotToken[];
  readonly diagnostics: Diagnostic[];
  parseErrorCount: number;
  htmlCount: number;
  /** Where the first string that runs to the end of the file unclosed starts (see `lexString`). */
  unclosedStringFrom: number;
  /** Set once an HTML-like literal ran to the end of the file unclosed (see `lexHtml`). */
  htmlToLineEnd: boolean;
  /** Where the next backslash and the next CR are (the text's length when there is none): searched once, not per string. */
  nextBackslash: number;
  nextReturn: number;
  /** The earlier table this lexing may take tokens from (see `LexResume`). */
  readonly resume: LexResume | undefined;
  /** The first offset where the earlier table's tokens may be taken (see `LexResume.suffix`). */
  readonly rejoinFrom: number;
  /** The earlier token looked at last when trying to rejoin (-1: not looked yet). */
  rejoinCursor: number;
  rejoined: DotLexResult['rejoined'];
  /** The earlier token objects the tokens taken at the rejoin may be moved from (see `TokenSuffix`). */
  suffix: TokenSuffix | undefined;
  /** The token objects an earlier table made that this one may take (see `TokenSource`). */
  source: TokenSource | undefined;
}

function newLexer(text: string, file: string, resume: LexResume | undefined): Lexer {
  const size = Math.max(64, resume === undefined ? Math.ceil(text.length / 4) : resume.table.count + Math.ceil(Math.max(0, text.length - resume.table.source.length) / 4) + 64);
  return {
    text,
    file,
    count: 0,
    kinds: new Uint8Array(size),
    starts: new Int32Array(size),
    ends: new Int32Array(size),
    values: new Map(),
    flags: new Map(),
    comments: [],
    diagnostics: [],
    parseErrorCount: 0,
    htmlCount: 0,
    unclosedStringFrom: Number.POSITIVE_INFINITY,
    htmlToLineEnd: false,
    nextBackslash: -1,
    nextReturn: -1,
    resume,
    rejoinFrom: resume?.suffix === undefined ? Number.POSITIVE_INFINITY : resume.suffix.from,
    rejoinCursor: -1,
    rejoined: undefined,
    suffix: undefined,
    source: undefined,
  };
}

/**
 * Copies the earlier table's first `count` tokens, with their values, flags and the comments
 * among them, as they are (their offsets hold: the text before them is the same). Returns where
 * the lexing goes on: the start of the earlier token `count`.
 */
function copyEarlier(s: Lexer, earlier: DotTokenTable, count: number): number {
  s.count = count;
  s.kinds.set(earlier.kinds.subarray(0, count));
  s.starts.set(earlier.starts.subarray(0, count));
  s.ends.set(earlier.ends.subarray(0, count));
  for (const [index, value] of earlier.values) if (index < count) s.values.set(index, value);
  for (const [index, flag] of earlier.flags) if (index < count) s.flags.set(index, flag);
  const from = earlier.starts[count];
  for (const comment of earlier.comments) if (comment.span.start < from) s.comments.push(comment);
  s.source = tokenSourceAfter(earlier, from);
  return from;
}

/**
 * Reads the tokens from offset `from` to the end (or to where it takes the earlier tokens). Ids
 * and punctuation, by far the most common tokens, are read here; no other token starts with
 * their characters. (A function that ends in its loop: see docs/architecture.md, "The edit
 * path's speed rules".)
 */
function scan(s: Lexer, from: number): void {
  const text = s.text;
  const length = text.length;
  const rejoinFrom = s.rejoinFrom;
  let i = from;
  while (i < length) {
    const c = text.charCodeAt(i);
    const charClass = c < 128 ? asciiClass[c] : idStartClass;
    if (charClass === whitespaceClass) {
      i++;
      continue;
    }
    const start = i;
    if (start >= rejoinFrom && s.unclosedStringFrom === Number.POSITIVE_INFINITY && !s.htmlToLineEnd && takeEarlierFrom(s, start)) break;
    // ---- identifiers and keywords ----
    if (charClass === idStartClass) {
      i++;
      while (i < length) {
        const d = text.charCodeAt(i);
        if (d >= 128 || asciiClass[d] === idStartClass || asciiClass[d] === digitClass) i++;
        else break;
      }
      let hyphenated = false;
      // `code-builder`: keep the whole spelling in one token so it is reported once, by name.
      while (text.charCodeAt(i) === 45 && (hyphenated ? isDotIdPart(text.charCodeAt(i + 1)) : isDotIdStart(text.charCodeAt(i + 1)))) {
        hyphenated = true;
        i += 2;
        while (i < length && isDotIdPart(text.charCodeAt(i))) i++;
      }
      if (hyphenated) pushFlagged(s, 'id', start, i, undefined, 'hyphenated');
      else push(s, isKeywordAt(text, start, i) ? DotTokenCode.Keyword : DotTokenCode.Id, start, i);
      continue;
    }
    if (charClass === punctuationClass) {
      i++;
      push(s, punctuationCodes[c], start, i);
      continue;
    }
    i = lexOther(s, c, start);
  }
}

/** Reads the token at `start` that is neither an id nor punctuation (its first character `c`). Returns its end. */
function lexOther(s: Lexer, c: number, start: number): number {
  const text = s.text;
  // ---- comments ----
  if (c === 47 /* / */ && text.charCodeAt(start + 1) === 47) {
    const end = lineEndFrom(text, start + 2);
    pushComment(s, 'line-comment', start, end);
    return end;
  }
  if (c === 35 /* # */) {
    const end = lineEndFrom(text, start + 1);
    pushComment(s, 'hash-comment', start, end);
    return end;
  }
  if (c === 47 && text.charCodeAt(start + 1) === 42 /* * */) return lexBlockComment(s, start);
  // ---- quoted string: only `\"` and backslash-newline are escapes ----
  // (docs/compatibility.md#strings-and-comments)
  if (c === 34 /* " */) return lexString(s, start);
  // ---- HTML-like literal, nesting counted ----
  if (c === 60 /* < */) return lexHtml(s, start);
  // ---- edge operators, negative numbers, a lone `-` ----
  if (c === 45 /* - */) return lexDash(s, start);
  if (isDigit(c) || (c === 46 /* . */ && isDigit(text.charCodeAt(start + 1)))) return lexNumber(s, start);
  // ---- anything else: one `unknown` token per run of unreadable characters ----
  const length = text.length;
  let i = start + 1;
  while (i < length && isUnreadable(text.charCodeAt(i), text.charCodeAt(i + 1))) i++;
  push(s, DotTokenCode.Unknown, start, i);
  fail(s, { start, end: i }, unknownMessage(text.slice(start, i)));
  return i;
}

/** The table and the lexing's findings, once every token is read. */
function lexResult(s: Lexer): DotLexResult {
  const count = s.count;
  const table: DotTokenTable = { source: s.text, count, kinds: fitted(s.kinds, count), starts: fitted(s.starts, count), ends: fitted(s.ends, count), values: s.values, flags: s.flags, comments: s.comments };
  if (s.source !== undefined) tokenSources.set(table, s.source);
  if (s.suffix !== undefined) tokenSuffixes.set(table, s.suffix);
  const rejoined = s.rejoined;
  return {
    table,
    get tokens(): readonly DotToken[] {
      return tokensOf(table);
    },
    get significant(): readonly DotToken[] {
      return significantOf(table);
    },
    diagnostics: s.diagnostics,
    parseErrorCount: s.parseErrorCount,
    htmlCount: s.htmlCount,
    ...(rejoined !== undefined ? { rejoined } : {}),
  };
}

// ---------------------------------------------------------------------- writing tokens

/** Makes the arrays hold `size` tokens, keeping the first `count`. */
function grow(s: Lexer, size: number): void {
  const count = s.count;
  const grownKinds = new Uint8Array(size);
  grownKinds.set(s.kinds.subarray(0, count));
  s.kinds = grownKinds;
  const grownStarts = new Int32Array(size);
  grownStarts.set(s.starts.subarray(0, count));
  s.starts = grownStarts;
  const grownEnds = new Int32Array(size);
  grownEnds.set(s.ends.subarray(0, count));
  s.ends = grownEnds;
}

function push(s: Lexer, code: number, start: number, end: number): void {
  const count = s.count;
  if (count === s.kinds.length) grow(s, count * 2);
  s.kinds[count] = code;
  s.starts[count] = start;
  s.ends[count] = end;
  s.count = count + 1;
}

/** A token whose value is not the one `valueOf` derives from its kind and span. */
function pushValued(s: Lexer, code: number, start: number, end: number, value: string): void {
  s.values.set(s.count, value);
  push(s, code, start, end);
}

function pushComment(s: Lexer, kind: DotTokenKind, start: number, end: number): void {
  const tokenText = s.text.slice(start, end);
  s.comments.push({ kind, span: { start, end }, text: tokenText, value: tokenText });
}

/** The rare tokens that carry a flag. */
function pushFlagged(s: Lexer, kind: DotTokenKind, start: number, end: number, value: string | undefined, flag: 'hyphenated' | 'unterminated'): void {
  if (kind === 'block-comment') {
    const tokenText = s.text.slice(start, end);
    s.comments.push({ kind, span: { start, end }, text: tokenText, value: tokenText, unterminated: true });
    return;
  }
  s.flags.set(s.count, flag);
  if (value !== undefined) s.values.set(s.count, value);
  push(s, codeOf(kind), start, end);
}

function fail(s: Lexer, span: Span, message: string): void {
  s.parseErrorCount++;
  if (s.parseErrorCount > maxParseErrors + 1) return;
  s.diagnostics.push({ code: 'dot/parse-error', severity: diagnosticInfo('dot/parse-error').severity, message, location: { file: s.file, span } });
}

// ---------------------------------------------------------------------- the tokens other than ids and punctuation

function lineEndFrom(text: string, from: number): number {
  const length = text.length;
  let j = from;
  while (j < length) {
    const c = text.charCodeAt(j);
    if (c === 10 || c === 13) break;
    j++;
  }
  return j;
}

/** Reads a block comment starting at `start` (the `/*`). Returns the end. */
function lexBlockComment(s: Lexer, start: number): number {
  const close = s.text.indexOf('*/', start + 2);
  if (close >= 0) {
    pushComment(s, 'block-comment', start, close + 2);
    return close + 2;
  }
  const end = s.text.length;
  pushFlagged(s, 'block-comment', start, end, undefined, 'unterminated');
  fail(s, { start, end: start + 2 }, 'This block comment is never closed, so the rest of the file is inside it; add `*/` where the comment should end.');
  return end;
}

/** Reads an HTML-like literal starting at `start` (the `<`), nesting counted. Returns the end. */
function lexHtml(s: Lexer, start: number): number {
  const text = s.text;
  let depth = 1;
  let j = start + 1;
  // After one literal ran to the end of the file unclosed, later ones are only looked for
  // on their own line, which keeps a file full of `<` linear.
  const limit = s.htmlToLineEnd ? lineEndFrom(text, j) : text.length;
  while (j < limit) {
    const d = text.charCodeAt(j);
    if (d === 60) depth++;
    else if (d === 62 /* > */) {
      depth--;
      if (depth === 0) break;
    }
    j++;
  }
  if (depth > 0) {
    s.htmlToLineEnd = true;
    const end = lineEndFrom(text, start + 1);
    pushFlagged(s, 'html', start, end, text.slice(start + 1, end), 'unterminated');
    fail(s, { start, end: start + 1 }, 'This HTML-like `<…>` value is never closed with `>`; close it, or write the value as a quoted string.');
    return end;
  }
  push(s, DotTokenCode.Html, start, j + 1);
  if (++s.htmlCount <= maxParseErrors + 1) s.diagnostics.push({
    code: 'dot/unsupported',
    severity: diagnosticInfo('dot/unsupported').severity,
    message: 'HTML-like `<…>` values are read as plain text, markup included; write the value as a quoted string.',
    location: { file: s.file, span: { start, end: j + 1 } },
  });
  return j + 1;
}

/** At a `-` at `start`: an edge operator, a negative number, or a lone `-` (a parse error). Returns the end. */
function lexDash(s: Lexer, start: number): number {
  const text = s.text;
  const next = text.charCodeAt(start + 1);
  if (next === 62 /* > */) {
    push(s, DotTokenCode.Arrow, start, start + 2);
    return start + 2;
  }
  if (next === 45) {
    push(s, DotTokenCode.Line, start, start + 2);
    return start + 2;
  }
  if (isDigit(next) || (next === 46 && isDigit(text.charCodeAt(start + 2)))) return lexNumber(s, start);
  push(s, DotTokenCode.Unknown, start, start + 1);
  fail(s, { start, end: start + 1 }, 'A lone `-` is not DOT: an edge is written `->`, and an id with a hyphen must be renamed (use `_`) or quoted.');
  return start + 1;
}

/** Reads `-?(digits[.digits*] | .digits)` and, glued to it, any letters (`900s`). Returns the end. */
function lexNumber(s: Lexer, from: number): number {
  const text = s.text;
  const length = text.length;
  let j = from;
  if (text.charCodeAt(j) === 45) j++;
  if (text.charCodeAt(j) === 46) {
    j++;
    while (isDigit(text.charCodeAt(j))) j++;
  } else {
    while (isDigit(text.charCodeAt(j))) j++;
    if (text.charCodeAt(j) === 46) {
      j++;
      while (isDigit(text.charCodeAt(j))) j++;
    }
  }
  if (j < length && isDotIdStart(text.charCodeAt(j))) {
    while (j < length && isDotIdPart(text.charCodeAt(j))) j++;
  }
  push(s, DotTokenCode.Number, from, j);
  return j;
}

/** Reads a quoted string starting at `from` (the `"`). Returns the end. */
function lexString(s: Lexer, from: number): number {
  const text = s.text;
  const j = from + 1;
  // Fast path: a string with no backslash and no CR before its closing quote (nearly all).
  if (from < s.unclosedStringFrom) {
    const close = text.indexOf('"', j);
    if (close >= 0) {
      if (s.nextBackslash < j) s.nextBackslash = indexOrEnd(text, '\\', j);
      if (s.nextReturn < j) s.nextReturn = indexOrEnd(text, '\r', j);
      if (close < s.nextBackslash && close < s.nextReturn) {
        push(s, DotTokenCode.String, from, close + 1);
        return close + 1;
      }
    }
  }
  return lexEscapedString(s, from);
}

/** Where `character` is next from `from` on, or the text's length. */
function indexOrEnd(text: string, character: string, from: number): number {
  const at = text.indexOf(character, from);
  return at < 0 ? text.length : at;
}

/** `lexString` for a string with an escape or a CR in it, or never closed. */
function lexEscapedString(s: Lexer, from: number): number {
  const text = s.text;
  const length = text.length;
  let j = from + 1;
  let parts: string[] | undefined; // set once an escape or a CR changes the value
  let chunkStart = j;
  // Once one string ran to the end of the file unclosed, every later one does too (the scan
  // from here would see the same characters), so it need not be scanned again.
  while (from < s.unclosedStringFrom && j < length) {
    const d = text.charCodeAt(j);
    if (d === 34) {
      const end = j + 1;
      if (parts === undefined) push(s, DotTokenCode.String, from, end);
      else {
        parts.push(text.slice(chunkStart, j));
        pushValued(s, DotTokenCode.String, from, end, parts.join(''));
      }
      return end;
    }
    if (d === 92 /* \ */) {
      const e = text.charCodeAt(j + 1);
      if (e === 34) {
        (parts ??= []).push(text.slice(chunkStart, j), '"');
        j += 2;
        chunkStart = j;
        continue;
      }
      if (e === 10 || e === 13) {
        // backslash-newline: both removed (CRLF counts as one newline)
        (parts ??= []).push(text.slice(chunkStart, j));
        j += e === 13 && text.charCodeAt(j + 2) === 10 ? 3 : 2;
        chunkStart = j;
        continue;
      }
      // any other backslash sequence is kept verbatim, and the pair is consumed together
      j += j + 1 < length ? 2 : 1;
      continue;
    }
    if (d === 13) {
      // CRLF and a lone CR read as one LF
      (parts ??= []).push(text.slice(chunkStart, j), '\n');
      j += text.charCodeAt(j + 1) === 10 ? 2 : 1;
      chunkStart = j;
      continue;
    }
    j++;
  }
  // Never closed: end it with its first line so the lines below are read as DOT again.
  if (from < s.unclosedStringFrom) s.unclosedStringFrom = from;
  const end = lineEndFrom(text, from + 1);
  pushFlagged(s, 'string', from, end, text.slice(from + 1, end).split('\\"').join('"'), 'unterminated');
  fail(s, { start: from, end: from + 1 }, 'This string is never closed; add the missing `"` (a `"` inside a string is written `\\"`).');
  return end;
}

// ---------------------------------------------------------------------- taking the earlier tokens after the edit

/**
 * At a token that starts at `at`, in the text both versions end with: when the earlier table
 * has a token starting at the same place, appends that token and all after it, moved (their
 * values, flags and the comments among them too), and says so.
 */
function takeEarlierFrom(s: Lexer, at: number): boolean {
  const earlier = s.resume!.table;
  const delta = s.resume!.suffix!.delta;
  const was = at - delta;
  const earlierStarts = earlier.starts;
  if (s.rejoinCursor < 0) s.rejoinCursor = partitionPoint(earlier.count, (k) => earlierStarts[k] < was);
  while (s.rejoinCursor < earlier.count && earlierStarts[s.rejoinCursor] < was) s.rejoinCursor++;
  if (s.rejoinCursor >= earlier.count || earlierStarts[s.rejoinCursor] !== was) return false;
  const from = s.rejoinCursor;
  const count = s.count;
  const taken = earlier.count - from;
  const shift = count - from;
  const size = count + taken;
  if (size > s.kinds.length) grow(s, size);
  s.kinds.set(earlier.kinds.subarray(from), count);
  const starts = s.starts;
  const ends = s.ends;
  const earlierEnds = earlier.ends;
  for (let k = from; k < earlier.count; k++) {
    starts[k + shift] = earlierStarts[k] + delta;
    ends[k + shift] = earlierEnds[k] + delta;
  }
  for (const [index, value] of earlier.values) if (index >= from) s.values.set(index + shift, value);
  for (const [index, flag] of earlier.flags) if (index >= from) s.flags.set(index + shift, flag);
  for (const comment of earlier.comments) {
    if (comment.span.start < was) continue;
    s.comments.push(movedToken(comment, delta));
  }
  s.count = size;
  s.rejoined = { token: from + shift, shift };
  const made = madeTokens.get(earlier);
  // (kept only when it gives much: a quarter of the file or more)
  const length = s.text.length;
  if (made !== undefined && length - at >= length / 4) s.suffix = { tokens: made, from: was, delta, at };
  return true;
}

/** The kind of token `index`. */
export function tokenKind(table: DotTokenTable, index: number): DotTokenKind {
  return dotTokenKinds[table.kinds[index]];
}

/** Source text of token `index`. */
export function tokenText(table: DotTokenTable, index: number): string {
  return table.source.slice(table.starts[index], table.ends[index]);
}

/** The value of token `index`, as `DotToken.value` defines it. */
export function tokenValue(table: DotTokenTable, index: number): string {
  const kind = table.kinds[index];
  if (kind === DotTokenCode.String || kind === DotTokenCode.Html) {
    if (table.values.size > 0) {
      const special = table.values.get(index);
      if (special !== undefined) return special;
    }
    // a closed string or HTML-like literal: the text between its delimiters
    return table.source.slice(table.starts[index] + 1, table.ends[index] - 1);
  }
  return table.source.slice(table.starts[index], table.ends[index]);
}

export function tokenSpan(table: DotTokenTable, index: number): Span {
  return { start: table.starts[index], end: table.ends[index] };
}

export function tokenFlag(table: DotTokenTable, index: number): 'hyphenated' | 'unterminated' | undefined {
  return table.flags.size > 0 ? table.flags.get(index) : undefined;
}

/** Token `index` as an object. */
export function tokenAt(table: DotTokenTable, index: number): DotToken {
  const kind = tokenKind(table, index);
  const span = tokenSpan(table, index);
  const text = tokenText(table, index);
  const value = tokenValue(table, index);
  return tokenObject(kind, span, text, value, tokenFlag(table, index));
}

/** A token object, in one of the three shapes every token object has. */
function tokenObject(kind: DotTokenKind, span: Span, text: string, value: string, flag: 'hyphenated' | 'unterminated' | undefined): DotToken {
  if (flag === 'hyphenated') return { kind, span, text, value, hyphenated: true };
  if (flag === 'unterminated') return { kind, span, text, value, unterminated: true };
  return { kind, span, text, value };
}

/** The token objects made of each table, once asked for (a long file has tens of thousands), and those that are not comments. */
const madeTokens = new WeakMap<DotTokenTable, readonly DotToken[]>();
const madeSignificant = new WeakMap<DotTokenTable, readonly DotToken[]>();

/**
 * An earlier table whose token objects were made, of which those that start before `before`
 * are this table's tokens too (its text reads the same up to there, and a lexing that resumed
 * copied them): an edit near the end of a long file then makes the objects of the tokens after
 * it only, and so with the list without comments. Kept until this table's lists are made; a
 * table whose lexing resumed from one whose tokens were not made passes that one's source on
 * (with the smaller `before`), so edits in a row keep it.
 */
interface TokenSource {
  readonly table: DotTokenTable;
  readonly before: number;
}

const tokenSources = new WeakMap<DotTokenTable, TokenSource>();

function tokenSourceAfter(earlier: DotTokenTable, before: number): TokenSource | undefined {
  let source: TokenSource | undefined;
  if (madeTokens.has(earlier)) source = { table: earlier, before };
  else {
    const passed = tokenSources.get(earlier);
    if (passed !== undefined) source = { table: passed.table, before: Math.min(before, passed.before) };
  }
  // a source that would give little (an edit near the top of the file) is not worth keeping alive
  return source !== undefined && source.before >= source.table.source.length / 4 ? source : undefined;
}

/**
 * The token objects an earlier table made, of which those from offset `from` on are this table's
 * tokens from offset `at` on, moved by `delta` (the lexing took them at its rejoin, see
 * `LexResume.suffix`): a table's objects there are made from them, with the earlier texts and
 * values, and are the earlier objects themselves when nothing moved. Kept until this table's
 * lists are made.
 */
interface TokenSuffix {
  readonly tokens: readonly DotToken[];
  readonly from: number;
  readonly delta: number;
  readonly at: number;
}

const tokenSuffixes = new WeakMap<DotTokenTable, TokenSuffix>();

/** Every token of a table, comments included, in source order (made once per table). */
function tokensOf(table: DotTokenTable): readonly DotToken[] {
  let out = madeTokens.get(table);
  if (out === undefined) {
    const source = tokenSources.get(table);
    out = allTokens(table, source === undefined ? undefined : { tokens: madeTokens.get(source.table)!, before: source.before }, tokenSuffixes.get(table));
    madeTokens.set(table, out);
    tokenSuffixes.delete(table);
  }
  return out;
}

/**
 * The significant tokens of `table` from index `from` up to `to`, as objects: the entries of the
 * list `significantOf` made when it was made, else new ones. What the IDE reads around a cursor
 * right after an edit (see ../ide/dot-context.ts `tokensNear`): a few dozen objects, not the
 * tens of thousands of a long file's list.
 */
export function significantRange(table: DotTokenTable, from: number, to: number): DotToken[] {
  const made = madeSignificant.get(table);
  if (made !== undefined) return made.slice(from, to);
  const out: DotToken[] = [];
  for (let i = from; i < to; i++) out.push(tokenAt(table, i));
  return out;
}

/**
 * The comment of `table` that `offset` is in: after its first character and before its end, or
 * at the end of a comment that runs to the end of its line (or, unclosed, of the file). What
 * `indexAt` over the list with comments finds at `offset` when that is a comment the cursor is in.
 */
export function commentAt(table: DotTokenTable, offset: number): DotToken | undefined {
  const comments = table.comments;
  const k = partitionPoint(comments.length, (c) => comments[c].span.start < offset) - 1;
  if (k < 0) return undefined;
  const c = comments[k];
  if (offset < c.span.end) return c;
  return offset === c.span.end && (c.kind !== 'block-comment' || c.unterminated === true) ? c : undefined;
}

/** `tokensOf(table)` without comments (made once per table; from the source's own list where it has one). */
function significantOf(table: DotTokenTable): readonly DotToken[] {
  let out = madeSignificant.get(table);
  if (out === undefined) {
    const tokens = tokensOf(table);
    const source = tokenSources.get(table);
    const earlier = source === undefined ? undefined : madeSignificant.get(source.table);
    let from = 0;
    const list = listOf<DotToken>(table.count); // (one per token of the table: see `allTokens`)
    if (source !== undefined && earlier !== undefined) {
      // the earlier list's entries before `before` are this table's tokens there (the same objects)
      const taken = partitionPoint(earlier.length, (k) => earlier[k].span.start < source.before);
      for (let k = 0; k < taken; k++) list.add(earlier[k]);
      from = partitionPoint(tokens.length, (k) => tokens[k].span.start < source.before);
    }
    for (let i = from; i < tokens.length; i++) if (!isComment(tokens[i].kind)) list.add(tokens[i]);
    out = list.done();
    madeSignificant.set(table, out);
    tokenSources.delete(table);
  }
  return out;
}

function allTokens(table: DotTokenTable, source: { readonly tokens: readonly DotToken[]; readonly before: number } | undefined, suffix: TokenSuffix | undefined): DotToken[] {
  // (made at its final size, every token and comment once: a copy of a long prefix that then
  // grew by a push was copied twice, and a list this long is allocated in the old generation)
  const out = listOf<DotToken>(table.count + table.comments.length);
  let index = 0;
  let c = 0;
  if (source !== undefined) {
    // the earlier objects of the tokens before `before` (comments included), then the rest anew
    const before = source.before;
    const taken = partitionPoint(source.tokens.length, (k) => source.tokens[k].span.start < before);
    for (let k = 0; k < taken; k++) out.add(source.tokens[k]);
    index = partitionPoint(table.count, (k) => table.starts[k] < before);
    c = partitionPoint(table.comments.length, (k) => table.comments[k].span.start < before);
  }
  // from the rejoin on, the earlier objects moved (the comments there are the table's own)
  const moveFrom = suffix === undefined ? table.count : Math.max(index, partitionPoint(table.count, (k) => table.starts[k] < suffix.at));
  for (; index < moveFrom; index++) {
    const start = table.starts[index];
    while (c < table.comments.length && table.comments[c].span.start < start) out.add(table.comments[c++]);
    out.add(tokenAt(table, index));
  }
  if (suffix !== undefined) {
    const earlier = suffix.tokens;
    const delta = suffix.delta;
    let e = partitionPoint(earlier.length, (k) => earlier[k].span.start < suffix.from);
    for (; index < table.count; index++) {
      const start = table.starts[index];
      while (c < table.comments.length && table.comments[c].span.start < start) out.add(table.comments[c++]);
      while (e < earlier.length && isComment(earlier[e].kind)) e++;
      const old = e < earlier.length ? earlier[e++] : undefined;
      // (the same token, as the lexing took it; made anew should it ever not be)
      out.add(old !== undefined && old.span.start + delta === start && old.span.end + delta === table.ends[index] ? movedToken(old, delta) : tokenAt(table, index));
    }
  }
  while (c < table.comments.length) out.add(table.comments[c++]);
  return out.done();
}

/**
 * A list filled in order to a size known beforehand, allocated once. Should fewer or more items
 * come than announced (which the callers' counts rule out), `done` still hands back exactly the
 * items added.
 */
function listOf<T>(size: number): { add(item: T): void; done(): T[] } {
  const items = new Array<T>(size);
  let count = 0;
  return {
    add(item) {
      items[count++] = item;
    },
    done() {
      if (count !== items.length) items.length = count;
      return items;
    },
  };
}

function isComment(kind: DotTokenKind): boolean {
  return kind === 'line-comment' || kind === 'hash-comment' || kind === 'block-comment';
}

/** `token` moved by `delta`, in the shape `tokenAt` makes (itself when nothing moves). */
function movedToken(token: DotToken, delta: number): DotToken {
  if (delta === 0) return token;
  const flag = token.hyphenated === true ? 'hyphenated' : token.unterminated === true ? 'unterminated' : undefined;
  return tokenObject(token.kind, { start: token.span.start + delta, end: token.span.end + delta }, token.text, token.value, flag);
}

/** Characters that start no token: control characters and ASCII punctuation DOT does not use. */
function isUnreadable(c: number, next: number): boolean {
  if (Number.isNaN(c) || isWhitespace(c) || isDotIdPart(c) || (c < 128 && asciiClass[c] === punctuationClass)) return false;
  if (c === 34 || c === 60 || c === 35 || c === 45) return false;
  if (c === 47 && (next === 47 || next === 42)) return false;
  if (c === 46 && isDigit(next)) return false;
  return true;
}

function unknownMessage(found: string): string {
  const shown = found.length > 20 ? `${found.slice(0, 20)}…` : found;
  const printable = shown.replace(/[\u0000-\u001f\u007f]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
  switch (found.charAt(0)) {
    case '\'':
      return `\`${printable}\` is not DOT: strings are written between double quotes; use \`"\` instead of \`'\`.`;
    case '@':
    case '.':
    case '/':
      return `\`${printable}\` cannot appear in a bare DOT word; put the whole value between double quotes, e.g. \`card="id@1.0.0"\`.`;
    default:
      return `\`${printable}\` is not DOT and cannot be read here; remove it, or put the value that contains it between double quotes.`;
  }
}
