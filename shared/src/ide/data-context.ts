/**
 * Where a cursor stands in a card or vocabulary file (YAML or JSON), read from the text itself
 * so that half-typed documents work: the chain of keys from the root (`-` for a list item),
 * whether a key or a value is being typed, and the range of the partly typed word.
 *
 * YAML is read line by line with the block-structure rules (indentation, `- ` items, `key:`,
 * block scalars skipped), flow collections (`[…]`, `{…}`, on one line or several) with a bracket
 * scanner; JSON with a forgiving bracket scanner. Neither needs the document to parse.
 */
import { hasLineBreak, type Span } from '../text';
import { formatOf } from '../syntax/yaml';

/** A list item in a path. */
export const item = '-';

export interface DataSlot {
  /**
   * `key`: a key of the mapping at `path` is being typed. `value`: the value of `path`'s last key
   * (or of a list item when the last step is `-`). `item-or-key`: a bare word in a block list
   * item, which is a value for a list of scalars and a key for a list of mappings.
   */
  readonly role: 'key' | 'value' | 'item-or-key';
  readonly path: readonly string[];
  /** The range the completion replaces: the partly typed word, quotes excluded. */
  readonly span: Span;
  /** True inside quotes. */
  readonly quoted: boolean;
  /** Inside quotes whose closing quote is not typed on the cursor's line: the quote an item must close. */
  readonly unclosedQuote?: '"' | "'";
  /** YAML: the value of a key typed directly after `key:` (not in a list). */
  readonly inline: boolean;
  readonly format: 'yaml' | 'json';
  /** YAML: inside a flow collection (`[…]`, `{…}`). */
  readonly flow?: boolean;
  /**
   * In a flow list (a JSON list): another entry follows on the line (`[a, |b]`), so what is
   * inserted goes in as an entry of its own, with its `, ` (see `fittedToLine`, `fittedJsonValue`).
   */
  readonly beforeEntry?: boolean;
  /**
   * YAML: the word is followed by a key's `: ` (`- na|me: x`): it can only be replaced by a key,
   * never by a list entry's value (see `fittedToLine`).
   */
  readonly beforeColon?: boolean;
}

export function dataSlot(path: string, text: string, offset: number): DataSlot | undefined {
  const at = Math.max(0, Math.min(offset, text.length));
  if (formatOf(path) === 'json') return jsonSlot(text, at);
  const slot = yamlSlot(text, at);
  return slot === undefined ? undefined : fittedToLine(slot, text);
}

/**
 * A YAML slot as what follows it on its line allows (the cursor right before written text: just
 * after `key:` or `-`, or at the start of a line):
 * - nothing follows but blanks or a comment, or a key (or a list entry's first key) is followed
 *   by its `:`: unchanged;
 * - a value or list entry followed by one scalar takes that scalar into its span, so that the
 *   item replaces it (`type:| validation`, `-| git`, `{type: |text}`);
 * - in a flow list, an entry right before another (`[a, |"b"]`) keeps its span and goes in as an
 *   entry of its own (`beforeEntry`); a word of a flow entry of several words has no slot;
 * - anything else (a key before written text, a value before a flow list or a `key: value`):
 *   no slot, as no item could go in there whole;
 * - the value of a key with nothing after it on its line, whose value is written below it
 *   (`tools:` above its `- ` items, or above a deeper mapping): no slot either, as a value there
 *   would be a second one.
 */
function fittedToLine(slot: DataSlot, text: string): DataSlot | undefined {
  if (slot.quoted) return slot;
  if (slot.flow === true) {
    // A flow entry's text runs to its `,`, across lines too: a word with more of that entry
    // before it (`[pass a candidate, …]`, a sentence) is no place for a term.
    let before = slot.span.start;
    while (before > 0 && (isBlank(text.charCodeAt(before - 1)) || text.charCodeAt(before - 1) === 10 || text.charCodeAt(before - 1) === 13)) before--;
    const opener = text.charCodeAt(before - 1);
    if (!(before === 0 || opener === 91 || opener === 123 || opener === 44 || opener === 58)) return undefined;
  }
  const lineEnd = lineEndOf(text, slot.span.end);
  let from = slot.span.end;
  while (from < lineEnd && isBlank(text.charCodeAt(from))) from++;
  const comment = text.charCodeAt(from) === 35 && (from === 0 || isBlank(text.charCodeAt(from - 1)) || text.charCodeAt(from - 1) === 10 || text.charCodeAt(from - 1) === 13);
  if (from >= lineEnd || comment) {
    return slot.role === 'value' && slot.inline && slot.span.start === slot.span.end && valueBelow(text, slot.span.start) ? undefined : slot;
  }
  // a word typed before its key's colon (`na|me: A`, `- na|me: x`): the key is replaced, the
  // colon kept (a `:` followed by more text, as in `na|me:x`, makes one scalar, no key)
  const colon = from === slot.span.end && text.charCodeAt(from) === 58 && (from + 1 >= lineEnd || isBlank(text.charCodeAt(from + 1)));
  if (slot.role !== 'value' && colon) return { ...slot, beforeColon: true };
  const rest = text.slice(from, lineEnd);
  if (slot.flow === true) {
    const c = rest.charCodeAt(0);
    if (c === 44 || c === 93 || c === 125) return slot; // `,` `]` `}`: nothing else in this entry
    // (a word being typed with more of its entry after a blank: a word of a sentence, as above)
    if ((from > slot.span.end && slot.span.end > slot.span.start) || slot.role === 'key') return undefined;
    // nothing typed yet, before the next entry (`[a, |"b"]`, `[| b ]`): an entry of its own
    if (slot.span.start === slot.span.end && slot.path[slot.path.length - 1] === item) return { ...slot, beforeEntry: true };
  }
  if (slot.role === 'key') return undefined;
  const length = scalarLength(rest, slot.flow === true);
  return length === undefined ? undefined : { ...slot, span: { start: slot.span.start, end: from + length } };
}

/**
 * The length of the one scalar `rest` holds (a plain or quoted scalar, then only blanks or a
 * comment to the line's end, or in a flow collection up to its next `,`, `]` or `}`); undefined
 * when it holds anything else (a collection, a `key: value`, a second scalar).
 */
function scalarLength(rest: string, inFlow: boolean): number | undefined {
  const first = rest.charCodeAt(0);
  let end: number;
  if (first === 34 || first === 39) {
    end = -1;
    for (let i = 1; i < rest.length; i++) {
      const c = rest.charCodeAt(i);
      if (first === 34 && c === 92 /* \ */) i++;
      else if (c === first) {
        if (first === 39 && rest.charCodeAt(i + 1) === 39) i++; // '' inside single quotes
        else {
          end = i + 1;
          break;
        }
      }
    }
    if (end < 0) return undefined;
  } else {
    // (a plain scalar starts with none of YAML's indicators)
    if ('-?:,[]{}#&*!|>%@`'.includes(rest[0])) return undefined;
    end = rest.length;
    for (let i = 1; i < rest.length; i++) {
      const c = rest.charCodeAt(i);
      if (inFlow && (c === 44 || c === 93 || c === 125)) {
        end = i;
        break;
      }
      if (c === 35 && isBlank(rest.charCodeAt(i - 1))) {
        end = i;
        break;
      }
      // a `key: value` pair: no scalar
      if (c === 58 && (i + 1 >= rest.length || isBlank(rest.charCodeAt(i + 1)))) return undefined;
    }
    while (end > 0 && isBlank(rest.charCodeAt(end - 1))) end--;
  }
  let after = end;
  while (after < rest.length && isBlank(rest.charCodeAt(after))) after++;
  if (after >= rest.length || rest.charCodeAt(after) === 35) return end;
  const c = rest.charCodeAt(after);
  return inFlow && (c === 44 || c === 93 || c === 125) ? end : undefined;
}

/**
 * True when the key on the line holding `at` has its value written on the lines below: the next
 * line with content (comments skipped) is indented deeper than the key, or is a `-` item at the
 * key's own column.
 */
function valueBelow(text: string, at: number): boolean {
  const start = lineStartOf(text, at);
  const key = lineElements(text.slice(start, lineEndOf(text, at))).key;
  if (key === undefined) return false;
  for (let position = nextLine(text, lineEndOf(text, at)); position < text.length; ) {
    const end = lineEndOf(text, position);
    const line = text.slice(position, end);
    position = nextLine(text, end);
    const trimmed = line.trimStart();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const indent = line.length - trimmed.length;
    return indent > key.col || (indent === key.col && /^-(\s|$)/.test(trimmed));
  }
  return false;
}


// ---------------------------------------------------------------------- YAML

interface Frame {
  readonly col: number;
  readonly name: string;
}

interface LineElements {
  /** Columns of the `- ` markers, left to right. */
  readonly items: number[];
  readonly key?: { readonly col: number; readonly name: string; readonly valueStart: number };
  /** Column where the content after the markers starts. */
  readonly contentCol: number;
}

function isWordChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45 || c === 46 || c === 47 || c === 64 || c === 43;
}

/** The `- ` markers and the `key:` of one line. */
function lineElements(line: string): LineElements {
  let col = 0;
  while (col < line.length && line.charCodeAt(col) === 32) col++;
  const items: number[] = [];
  while (line.charCodeAt(col) === 45 /* - */ && (col + 1 >= line.length || line.charCodeAt(col + 1) === 32 || line.charCodeAt(col + 1) === 9)) {
    items.push(col);
    col++;
    while (col < line.length && (line.charCodeAt(col) === 32 || line.charCodeAt(col) === 9)) col++;
  }
  const separator = keySeparator(line, col);
  if (separator < 0) return { items, contentCol: col };
  const name = unquote(line.slice(col, separator).trim());
  let valueStart = separator + 1;
  while (valueStart < line.length && line.charCodeAt(valueStart) === 32) valueStart++;
  return { items, key: { col, name, valueStart }, contentCol: col };
}

/** Index of the `:` that ends a key starting at `from` (followed by a blank or the end), or -1. */
function keySeparator(line: string, from: number): number {
  const first = line.charCodeAt(from);
  if (first === 35 /* # */ || first === 91 /* [ */ || first === 123 /* { */) return -1;
  let i = from;
  if (first === 34 || first === 39) {
    const close = line.indexOf(String.fromCharCode(first), from + 1);
    if (close < 0) return -1;
    i = close + 1;
  }
  for (; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c === 35 && i > from && line.charCodeAt(i - 1) === 32) return -1;
    if (c === 58 /* : */ && (i + 1 >= line.length || line.charCodeAt(i + 1) === 32 || line.charCodeAt(i + 1) === 9)) return i;
  }
  return -1;
}

function unquote(key: string): string {
  if (key.length >= 2 && (key.startsWith('"') || key.startsWith("'")) && key.endsWith(key[0])) return key.slice(1, -1);
  return key;
}

function pushItem(stack: Frame[], col: number): void {
  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    if (top.col > col || (top.col === col && top.name === item)) stack.pop();
    else break;
  }
  stack.push({ col, name: item });
}

function pushKey(stack: Frame[], col: number, name: string): void {
  while (stack.length > 0 && stack[stack.length - 1].col >= col) stack.pop();
  stack.push({ col, name });
}

function yamlSlot(text: string, offset: number): DataSlot | undefined {
  const lineStart = lineStartOf(text, offset);
  const stack: Frame[] = [];
  let blockScalarCol: number | undefined;
  // A flow collection (`[…]`, `{…}`) opened on an earlier line and not closed yet.
  let flow: OpenFlow | undefined;
  let position = 0;
  while (position < lineStart) {
    const start = position;
    const end = lineEndOf(text, position);
    const line = text.slice(position, end);
    position = nextLine(text, end);
    const trimmed = line.trim();
    if (trimmed === '') continue;
    const indent = line.length - line.trimStart().length;
    if (flow !== undefined) {
      if (trimmed.startsWith('#')) continue; // (a comment line ends no flow collection)
      if (continuesFlow(flow, indent, trimmed)) {
        if (advanceFlow(text, start, end, flow.scan)) flow = undefined;
        continue;
      }
      flow = undefined; // left open: what follows is read as block structure again
    }
    if (trimmed.startsWith('#')) continue;
    if (blockScalarCol !== undefined) {
      if (indent > blockScalarCol) continue;
      blockScalarCol = undefined;
    }
    if (indent === 0 && (trimmed === '---' || trimmed === '...')) {
      stack.length = 0;
      continue;
    }
    const elements = lineElements(line);
    for (const col of elements.items) pushItem(stack, col);
    if (elements.key) {
      pushKey(stack, elements.key.col, elements.key.name);
      if (/^[|>][-+0-9]*\s*(#.*)?$/.test(line.slice(elements.key.valueStart))) blockScalarCol = elements.key.col;
    }
    const opening = flowOpening(line, elements);
    if (opening !== undefined) {
      if (elements.key === undefined && elements.items.length === 0) popTo(stack, opening);
      const scan: FlowScan = { depth: 0 };
      if (!advanceFlow(text, start + opening, end, scan)) flow = { start: start + opening, col: stack[stack.length - 1]?.col ?? -1, path: stack.map((f) => f.name), scan };
    }
  }
  if (blockScalarCol !== undefined) {
    const indent = offset - lineStart - text.slice(lineStart, offset).trimStart().length;
    if (indent > blockScalarCol && text.slice(lineStart, offset).trim() !== '') return undefined;
  }

  const before = text.slice(lineStart, offset);
  if (flow !== undefined) {
    const trimmed = before.trim();
    if (trimmed === '' || continuesFlow(flow, before.length - before.trimStart().length, trimmed)) return flowSlot(text, flow.start, offset, flow.path);
  }
  if (/(^|\s)#/.test(before) && !/["']/.test(before)) return undefined; // in a comment
  const elements = lineElements(before);
  for (const col of elements.items) pushItem(stack, col);
  const base = { format: 'yaml' as const };
  const opening = flowOpening(before, elements);
  if (opening !== undefined) {
    if (elements.key !== undefined) pushKey(stack, elements.key.col, elements.key.name);
    else if (elements.items.length === 0) popTo(stack, opening);
    return flowSlot(text, lineStart + opening, offset, stack.map((f) => f.name));
  }
  if (elements.key) {
    const { col, name, valueStart } = elements.key;
    pushKey(stack, col, name);
    const path = stack.map((f) => f.name);
    const value = before.slice(valueStart);
    if (value.startsWith('"') || value.startsWith("'")) {
      if (value.length > 1 && value.endsWith(value[0])) return undefined;
      const span = { start: lineStart + valueStart + 1, end: wordEndOf(text, offset) };
      return { ...base, role: 'value', path, span, quoted: true, ...closingQuote(text, offset, value[0]), inline: true };
    }
    if (!/^[\w.@/+-]*$/.test(value)) return undefined;
    return { ...base, role: 'value', path, span: { start: lineStart + valueStart, end: wordEndOf(text, offset) }, quoted: false, inline: true };
  }
  const word = before.slice(elements.contentCol);
  if (!/^["']?[\w.@/+-]*$/.test(word)) return undefined;
  const quote = word.startsWith('"') || word.startsWith("'") ? word[0] : undefined;
  const start = lineStart + elements.contentCol + (quote !== undefined ? 1 : 0);
  const span = { start, end: wordEndOf(text, offset) };
  if (elements.items.length > 0) {
    const quoting = quote !== undefined ? { quoted: true, ...closingQuote(text, offset, quote) } : { quoted: false };
    return { ...base, role: 'item-or-key', path: stack.map((f) => f.name), span, ...quoting, inline: false };
  }
  if (quote !== undefined) return undefined;
  // A key being typed: the mapping is the one whose keys sit at this column.
  popTo(stack, elements.contentCol);
  return { ...base, role: 'key', path: stack.map((f) => f.name), span, quoted: false, inline: false };
}

function popTo(stack: Frame[], col: number): void {
  while (stack.length > 0 && stack[stack.length - 1].col >= col) stack.pop();
}

/** Where the word (an id, a term, an `id@version`) that runs on from `from` ends. */
export function wordEndOf(text: string, from: number): number {
  let end = from;
  while (end < text.length && isWordChar(text.charCodeAt(end))) end++;
  return end;
}

/** `{ unclosedQuote }` when the quoted scalar the cursor is in has no closing quote on the rest of its line. */
function closingQuote(text: string, offset: number, quote: string): { unclosedQuote?: Quote } {
  if (quote !== '"' && quote !== "'") return {};
  return text.slice(offset, lineEndOf(text, offset)).includes(quote) ? {} : { unclosedQuote: quote };
}

// ---- flow collections

/**
 * A flow collection left open at the end of a line. Its later lines belong to it while they are
 * indented deeper than the block node holding it (`col`, -1 at the top) or start with a closing
 * bracket; a line that is not, ends it (an unclosed bracket being typed does not swallow the
 * rest of the file).
 */
interface OpenFlow {
  /** Offset of the opening bracket. */
  readonly start: number;
  readonly col: number;
  /** The block path the collection is the value of. */
  readonly path: readonly string[];
  readonly scan: FlowScan;
}

interface FlowScan {
  depth: number;
}

type Quote = '"' | "'";

function isFlowOpening(c: number): boolean {
  return c === 91 /* [ */ || c === 123 /* { */;
}

function isFlowIndicator(c: number): boolean {
  return c === 44 || c === 91 || c === 93 || c === 123 || c === 125;
}

function isBlank(c: number): boolean {
  return c === 32 || c === 9;
}

/** The column of a flow collection starting a line's node (after `key: ` or the `- ` markers), if there is one. */
function flowOpening(line: string, elements: LineElements): number | undefined {
  const col = elements.key !== undefined ? elements.key.valueStart : elements.contentCol;
  return isFlowOpening(line.charCodeAt(col)) ? col : undefined;
}

function continuesFlow(flow: OpenFlow, indent: number, trimmed: string): boolean {
  return indent > flow.col || trimmed.startsWith(']') || trimmed.startsWith('}');
}

/** Brackets in `text[from, to)` (one line; quotes and comments skipped): true when the collection closes there. */
function advanceFlow(text: string, from: number, to: number, scan: FlowScan): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 34 || c === 39) {
      const close = quoteEnd(text, i, to);
      if (close === undefined) return false;
      i = close;
    } else if (c === 35 /* # */ && (i === from || isBlank(text.charCodeAt(i - 1)))) return false;
    else if (isFlowOpening(c)) scan.depth++;
    else if (c === 93 || c === 125) {
      scan.depth--;
      if (scan.depth <= 0) return true;
    }
  }
  return false;
}

/** The offset of the quote closing the one at `open`, on its line (`to` at the latest), or undefined. */
function quoteEnd(text: string, open: number, to: number = lineEndOf(text, open)): number | undefined {
  const quote = text.charCodeAt(open);
  for (let i = open + 1; i < to; i++) {
    const c = text.charCodeAt(i);
    if (quote === 34 && c === 92) i++;
    else if (c === quote) {
      if (quote === 39 && text.charCodeAt(i + 1) === 39) i++;
      else return i;
    }
  }
  return undefined;
}

type FlowFrame = { readonly kind: 'sequence' } | { readonly kind: 'mapping'; key: string | undefined; expectKey: boolean };

/**
 * The cursor's place in a flow collection opened at `open` (`[{name: plan, type: pl|`), read
 * from there to the cursor: each `[`/`{` nests, `,` starts an entry, `: ` ends a key. Undefined
 * once the collection is closed, in a comment and after a finished scalar.
 */
function flowSlot(text: string, open: number, offset: number, base: readonly string[]): DataSlot | undefined {
  const frames: FlowFrame[] = [];
  let pending: string | undefined;
  // what the last thing read was: an indicator (`[`, `{`, `,`, `:`) or a scalar
  let last = 0;
  const slot = (span: Span, quote: Quote | undefined, unclosed: boolean): DataSlot | undefined => {
    const top = frames[frames.length - 1];
    if (top === undefined) return undefined;
    const path = [...base];
    for (let k = 0; k < frames.length - 1; k++) {
      const frame = frames[k];
      path.push(frame.kind === 'sequence' ? item : frame.key ?? '');
    }
    const quoting = quote !== undefined ? { quoted: true, ...(unclosed ? { unclosedQuote: quote } : {}) } : { quoted: false };
    const common = { span, ...quoting, inline: false, format: 'yaml' as const, flow: true };
    if (top.kind === 'sequence') return last === 58 ? undefined : { ...common, role: 'value', path: [...path, item] };
    if (top.expectKey) return { ...common, role: 'key', path };
    return { ...common, role: 'value', path: [...path, top.key ?? ''] };
  };
  let i = open;
  while (i < offset) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13 || isBlank(c)) {
      i++;
      continue;
    }
    if (c === 34 || c === 39) {
      const close = quoteEnd(text, i);
      if (close === undefined || offset <= close) {
        if (hasLineBreak(text, i, offset)) return undefined;
        return slot({ start: i + 1, end: close ?? wordEndOf(text, offset) }, c === 34 ? '"' : "'", close === undefined);
      }
      pending = text.slice(i + 1, close);
      last = 34;
      i = close + 1;
      continue;
    }
    if (c === 35 /* # */ && (i === open || /\s/.test(text[i - 1]))) {
      const end = lineEndOf(text, i);
      if (offset <= end) return undefined;
      i = end;
      continue;
    }
    const top = frames[frames.length - 1];
    if (isFlowOpening(c)) {
      frames.push(c === 91 ? { kind: 'sequence' } : { kind: 'mapping', key: undefined, expectKey: true });
      pending = undefined;
    } else if (c === 93 || c === 125) {
      frames.pop();
      if (frames.length === 0) return undefined; // closed before the cursor
      pending = undefined;
    } else if (c === 44) {
      if (top?.kind === 'mapping') {
        top.expectKey = true;
        top.key = undefined;
      }
      pending = undefined;
    } else if (c === 58 && (last === 34 || i + 1 >= text.length || /\s/.test(text[i + 1]) || isFlowIndicator(text.charCodeAt(i + 1)))) {
      if (top?.kind === 'mapping' && top.expectKey) {
        top.key = pending ?? '';
        top.expectKey = false;
      }
      pending = undefined;
    } else {
      // a plain scalar, to a flow indicator, `: `, ` #` or the end of the line
      const start = i;
      while (i < text.length) {
        const d = text.charCodeAt(i);
        if (d === 10 || d === 13 || isFlowIndicator(d)) break;
        if (d === 58 && (i + 1 >= text.length || /\s/.test(text[i + 1]) || isFlowIndicator(text.charCodeAt(i + 1)))) break;
        if (d === 35 && isBlank(text.charCodeAt(i - 1))) break;
        i++;
      }
      if (offset <= i) {
        if (!/^[\w.@/+-]*$/.test(text.slice(start, offset))) return undefined;
        return slot({ start, end: wordEndOf(text, offset) }, undefined, false);
      }
      pending = text.slice(start, i).trim();
      last = 0;
      continue;
    }
    last = c;
    i++;
  }
  // Between entries: a value or key starts only after an indicator.
  if (last !== 91 && last !== 123 && last !== 44 && last !== 58) return undefined;
  return slot({ start: offset, end: wordEndOf(text, offset) }, undefined, false);
}

function lineStartOf(text: string, offset: number): number {
  for (let i = offset - 1; i >= 0; i--) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) return i + 1;
  }
  return 0;
}

function lineEndOf(text: string, from: number): number {
  let i = from;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) break;
    i++;
  }
  return i;
}

function nextLine(text: string, lineEnd: number): number {
  if (text.charCodeAt(lineEnd) === 13 && text.charCodeAt(lineEnd + 1) === 10) return lineEnd + 2;
  return lineEnd + 1;
}

// ---------------------------------------------------------------------- JSON

type JsonFrame =
  | { readonly kind: 'object'; key?: string; expectKey: boolean }
  | { readonly kind: 'array' };

function jsonSlot(text: string, offset: number): DataSlot | undefined {
  const stack: JsonFrame[] = [];
  let i = 0;
  let pendingKey: string | undefined;
  const base = { format: 'json' as const, inline: false };
  const pathOf = (): string[] => {
    const out: string[] = [];
    for (let k = 0; k < stack.length - 1; k++) {
      const frame = stack[k];
      out.push(frame.kind === 'array' ? item : frame.key ?? '');
    }
    return out;
  };
  const slotHere = (span: Span, quoted: boolean): DataSlot | undefined => {
    const frame = stack[stack.length - 1];
    if (frame === undefined) return undefined;
    const path = pathOf();
    if (frame.kind === 'array') return { ...base, role: 'value', path: [...path, item], span, quoted };
    if (frame.expectKey) return { ...base, role: 'key', path, span, quoted };
    return { ...base, role: 'value', path: [...path, frame.key ?? ''], span, quoted };
  };
  while (i < offset) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      const start = i;
      i++;
      while (i < text.length) {
        const d = text.charCodeAt(i);
        if (d === 92) {
          i += 2;
          continue;
        }
        if (d === 34 || d === 10 || d === 13) break;
        i++;
      }
      const closed = text.charCodeAt(i) === 34;
      if (offset <= i) {
        // The cursor is inside this string.
        const slot = slotHere({ start: start + 1, end: closed ? i : wordEndOf(text, offset) }, true);
        return slot !== undefined && !closed ? { ...slot, unclosedQuote: '"' } : slot;
      }
      const value = text.slice(start + 1, i);
      i = closed ? i + 1 : i;
      const frame = stack[stack.length - 1];
      if (frame?.kind === 'object' && frame.expectKey) pendingKey = value;
      continue;
    }
    i++;
    const frame = stack[stack.length - 1];
    switch (c) {
      case 123:
        stack.push({ kind: 'object', expectKey: true });
        break;
      case 91:
        stack.push({ kind: 'array' });
        break;
      case 125:
      case 93:
        stack.pop();
        break;
      case 58:
        if (frame?.kind === 'object') {
          frame.key = pendingKey;
          frame.expectKey = false;
        }
        break;
      case 44:
        if (frame?.kind === 'object') {
          frame.expectKey = true;
          frame.key = undefined;
          pendingKey = undefined;
        }
        break;
      default:
        break;
    }
  }
  // Outside a string: only right after `:`, `[` or `,` (blanks allowed) is a value starting.
  let k = offset - 1;
  while (k >= 0 && /\s/.test(text[k])) k--;
  const previous = text.charCodeAt(k);
  if (previous !== 58 && previous !== 91 && previous !== 44 && previous !== 123) return undefined;
  const slot = slotHere({ start: offset, end: offset }, false);
  return slot === undefined || slot.role === 'key' ? slot : fittedJsonValue(slot, text, stack[stack.length - 1]?.kind === 'array');
}

/**
 * A JSON value's slot outside quotes as what follows the cursor on its line allows (the cursor
 * right before a written value, after `": "`, `[` or `, `):
 * - nothing written there (the line ends, or a `,`, `}` or `]` comes): unchanged;
 * - in a list, before another entry (`["git", |"shell"]`, or the next entry on a later line): an
 *   entry of its own, with its `, ` (`beforeEntry`);
 * - a written string, number or word (`"type": |"agent"`): taken into the span, blanks before it
 *   included, so that the item replaces it;
 * - an object or a list written as the value: no slot, as no item could go in there whole.
 * A key's slot is left as it is: a key before another member gets its comma (`keyInsertion`).
 */
function fittedJsonValue(slot: DataSlot, text: string, inList: boolean): DataSlot | undefined {
  const at = slot.span.start;
  let j = at;
  // (in a list the next entry may stand on a later line: it needs the comma all the same)
  while (j < text.length && (text.charCodeAt(j) === 32 || text.charCodeAt(j) === 9 || (inList && /\s/.test(text.charAt(j))))) j++;
  const c = text.charCodeAt(j);
  if (j >= text.length || c === 10 || c === 13 || c === 44 || c === 125 || c === 93) return slot;
  if (inList) return { ...slot, beforeEntry: true };
  if (c === 123 || c === 91) return undefined;
  let end: number;
  if (c === 34) {
    const close = jsonStringEnd(text, j, text.length);
    // (a string not closed on its line is replaced to the line's end)
    end = text.charCodeAt(close) === 34 ? close + 1 : close;
  } else {
    end = j;
    while (end < text.length && !/[\s,}\]]/.test(text.charAt(end))) end++;
  }
  return { ...slot, span: { start: at, end } };
}

// ---------------------------------------------------------------------- what is already written

/**
 * The keys written at the top level of a card's text, read from the text so that a document that
 * does not parse has them too: YAML line by line (the line holding `except` left out), JSON with
 * a bracket scanner (the key holding `except` left out).
 */
export function topLevelKeys(text: string, except: number, format: 'yaml' | 'json' = 'yaml'): Set<string> {
  if (format === 'json') return jsonTopLevelKeys(text, except);
  const keys = new Set<string>();
  const skip = lineStartOf(text, except);
  let position = 0;
  while (position < text.length) {
    const end = lineEndOf(text, position);
    if (position !== skip) {
      const line = text.slice(position, end);
      const elements = lineElements(line);
      if (elements.items.length === 0 && elements.key !== undefined && elements.key.col === 0) keys.add(elements.key.name);
    }
    position = nextLine(text, end);
  }
  return keys;
}

function jsonTopLevelKeys(text: string, except: number): Set<string> {
  // the root: the first bracket outside strings
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) i = jsonStringEnd(text, i, text.length);
    else if (c === 123) return jsonObjectKeys(text, i, except);
    else if (c === 91) break;
  }
  return new Set();
}

/**
 * Where the JSON string opening at `start` ends, read no further than `limit`: the index of its
 * closing quote, or of the line break or limit where it stops unclosed.
 */
function jsonStringEnd(text: string, start: number, limit: number): number {
  let i = start + 1;
  while (i < limit) {
    const d = text.charCodeAt(i);
    if (d === 92) i++;
    else if (d === 34 || d === 10 || d === 13) return i;
    i++;
  }
  return Math.min(i, limit);
}

/** The keys of the JSON object whose `{` is at `open`, read from the text up to its `}`, the key holding `except` left out. */
function jsonObjectKeys(text: string, open: number, except: number): Set<string> {
  const keys = new Set<string>();
  let depth = 0;
  let expectKey = true;
  for (let i = open; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      const start = i;
      i = jsonStringEnd(text, i, text.length);
      const closed = text.charCodeAt(i) === 34;
      if (depth === 1 && expectKey) {
        expectKey = false;
        const end = closed ? i + 1 : i;
        if (!(start <= except && except <= end)) keys.add(text.slice(start + 1, i).replace(/\\(.)/g, '$1'));
      }
      // (a string stopped by a line break leaves that break to be read)
      if (!closed) i--;
      continue;
    }
    if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      depth--;
      if (depth <= 0) break;
    } else if (c === 44 && depth === 1) expectKey = true;
  }
  return keys;
}

/**
 * JSON, read from the text (it may not parse while typed): the keys of the innermost object that
 * holds `offset`, the key under `offset` left out.
 */
export function jsonObjectKeysAt(text: string, offset: number): Set<string> {
  // the innermost `{` or `[` open before the offset, strings skipped
  const opens: number[] = [];
  for (let i = 0; i < offset && i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) i = jsonStringEnd(text, i, offset);
    else if (c === 123 || c === 91) opens.push(i);
    else if (c === 125 || c === 93) opens.pop();
  }
  const open = opens[opens.length - 1];
  return open !== undefined && text.charCodeAt(open) === 123 ? jsonObjectKeys(text, open, offset) : new Set();
}

/**
 * The entries of the flow list (`[a, "b"]`) the cursor is in, the one under the cursor left out
 * (with `beforeEntry`, an entry the cursor stands right before counts); undefined when the cursor
 * is not in one. YAML flow lists are read on the cursor's line.
 */
export function flowListValues(text: string, offset: number, format: 'yaml' | 'json', beforeEntry = false): Set<string> | undefined {
  const from = format === 'json' ? 0 : lineStartOf(text, offset);
  const limit = format === 'json' ? text.length : lineEndOf(text, offset);
  const opens: number[] = [];
  let quote: number | undefined;
  for (let i = from; i < offset; i++) {
    const c = text.charCodeAt(i);
    if (quote !== undefined) {
      if (c === 92 && quote === 34) i++;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === 34 || (c === 39 && format === 'yaml')) quote = c;
    else if (c === 91 || c === 123) opens.push(i);
    else if (c === 93 || c === 125) opens.pop();
  }
  const open = opens[opens.length - 1];
  if (open === undefined || text.charCodeAt(open) !== 91) return undefined;
  const values = new Set<string>();
  let depth = 0;
  let start = open + 1;
  quote = undefined;
  const take = (end: number): void => {
    // (the entry the cursor is in is left out, but not one the cursor stands before: see `DataSlot.beforeEntry`)
    if (start <= offset && offset <= end) {
      let lead = start;
      while (lead < end && /\s/.test(text.charAt(lead))) lead++;
      if (!(beforeEntry && offset <= lead)) return;
    }
    const raw = text.slice(start, end).trim();
    const value = raw.length >= 2 && (raw[0] === '"' || raw[0] === "'") && raw.endsWith(raw[0]) ? raw.slice(1, -1) : raw;
    if (value !== '') values.add(value);
  };
  for (let i = open + 1; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (quote !== undefined) {
      if (c === 92 && quote === 34) i++;
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === 34 || (c === 39 && format === 'yaml')) quote = c;
    else if (c === 91 || c === 123) depth++;
    else if ((c === 93 || c === 125) && depth > 0) depth--;
    else if (c === 93) {
      take(i);
      return values;
    } else if (c === 44 && depth === 0) {
      take(i);
      start = i + 1;
    }
  }
  take(limit);
  return values;
}
