/**
 * Text: spans and offset <-> line/column conversion.
 *
 * Architecture invariant: everything in the engine speaks UTF-16 offsets into a file's text
 * (`Span`). Line/column pairs exist only at the edges (CLI output, LSP conversion), and are
 * computed here, never stored in the model.
 */

/** A half-open range `[start, end)` of UTF-16 code-unit offsets into one file's text. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

/** A 0-based line and a 0-based UTF-16 column (the LSP convention). */
export interface Position {
  readonly line: number;
  readonly character: number;
}

export function span(start: number, end: number): Span {
  return { start, end: Math.max(start, end) };
}

/** Offsets at which each line starts. CRLF, lone CR and LF each end one line. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  // Without a CR every break is an LF, found by the native search (several times faster on a
  // file of a megabyte than reading each code unit).
  if (text.indexOf('\r') < 0) {
    for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
    return starts;
  }
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 13) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    } else if (c === 10) {
      starts.push(i + 1);
    }
  }
  return starts;
}

/** A reusable converter for one text. */
export interface LineIndex {
  readonly text: string;
  /** True when a byte order mark that starts `text` is left out of positions (see `lineIndex`). */
  readonly hidesMark: boolean;
  positionAt(offset: number): Position;
  offsetAt(position: Position): number;
}

/**
 * Positions in `text`. With `hideMark`, a byte order mark (U+FEFF) that starts the text takes no
 * column: editors read a file saved "with BOM" without it, so for a file as read from disk, the
 * first line's columns count from after the mark (offset 1 is 0:0, and so is the mark itself),
 * as the editor shows them. A text an editor sent keeps its mark as a character, if it sent one.
 */
export function lineIndex(text: string, hideMark = false): LineIndex {
  let starts: number[] | undefined;
  const get = (): number[] => (starts ??= lineStarts(text));
  const mark = hideMark && text.charCodeAt(0) === 0xfeff ? 1 : 0;
  return {
    text,
    hidesMark: hideMark,
    positionAt(offset: number): Position {
      const s = get();
      const clamped = Math.max(0, Math.min(offset, text.length));
      let lo = 0;
      let hi = s.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (s[mid] <= clamped) lo = mid;
        else hi = mid - 1;
      }
      return { line: lo, character: lo === 0 ? Math.max(0, clamped - mark) : clamped - s[lo] };
    },
    offsetAt(position: Position): number {
      const s = get();
      if (position.line < 0) return mark;
      if (position.line >= s.length) return text.length;
      const start = position.line === 0 ? mark : s[position.line];
      const lineEnd = position.line + 1 < s.length ? s[position.line + 1] : text.length;
      return Math.max(start, Math.min(start + position.character, lineEnd));
    },
  };
}

/**
 * The first of the indexes `0 .. count - 1` for which `before(index)` is false, or `count` when
 * there is none; `before` must hold for a prefix of the indexes and fail for the rest (a sorted
 * list searched by halving).
 */
export function partitionPoint(count: number, before: (index: number) => boolean): number {
  let low = 0;
  let high = count;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (before(middle)) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** True when a line break (LF or CR) lies in `text` from `start` up to `end`. */
export function hasLineBreak(text: string, start: number, end: number): boolean {
  for (let k = Math.max(0, start); k < end && k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c === 10 || c === 13) return true;
  }
  return false;
}

/** How many code units `a` and `b` share from their start. */
export function commonPrefixLength(a: string, b: string): number {
  const limit = Math.min(a.length, b.length);
  // whole chunks first (string comparison is native), then code unit by code unit
  const chunk = 4096;
  let i = 0;
  while (i + chunk <= limit && a.slice(i, i + chunk) === b.slice(i, i + chunk)) i += chunk;
  while (i < limit && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** How many code units `a` and `b` share at their end, counting at most `limit` (default: the shorter length). */
export function commonSuffixLength(a: string, b: string, limit = Math.min(a.length, b.length)): number {
  const chunk = 4096;
  let i = 0;
  while (i + chunk <= limit && a.slice(a.length - i - chunk, a.length - i) === b.slice(b.length - i - chunk, b.length - i)) i += chunk;
  while (i < limit && a.charCodeAt(a.length - 1 - i) === b.charCodeAt(b.length - 1 - i)) i++;
  return i;
}

/**
 * Edit distance counting an insertion, a deletion, a substitution or a swap of two adjacent
 * characters as one edit (optimal string alignment), giving up (returning `limit`) once every
 * alignment already costs `limit` or more.
 */
export function editDistance(a: string, b: string, limit = Number.POSITIVE_INFINITY): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowBest = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let value = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a.charCodeAt(i - 1) === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === b.charCodeAt(j - 1)) {
        value = Math.min(value, before[j - 2] + 1);
      }
      current.push(value);
      if (value < rowBest) rowBest = value;
    }
    if (rowBest >= limit) return limit;
    before = previous;
    previous = current;
  }
  return previous[b.length];
}
