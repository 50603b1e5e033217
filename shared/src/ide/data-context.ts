/**
 * Where a cursor stands in a card or vocabulary file (YAML or JSON), read from the text itself
 * so that half-typed documents work: the chain of keys from the root (`-` for a list item),
 * whether a key or a value is being typed, and the range of the partly typed word.
 *
 * YAML is read line by line with the block-structure rules (indentation, `- ` items, `key:`,
 * block scalars skipped, flow lists on one line); JSON with a forgiving bracket scanner. Neither
 * needs the document to parse.
 */
import type { Span } from '../text';
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
  /** YAML: the value of a key typed directly after `key:` (not in a list). */
  readonly inline: boolean;
  readonly format: 'yaml' | 'json';
}

export function dataSlot(path: string, text: string, offset: number): DataSlot | undefined {
  const at = Math.max(0, Math.min(offset, text.length));
  return formatOf(path) === 'json' ? jsonSlot(text, at) : yamlSlot(text, at);
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
  let position = 0;
  while (position < lineStart) {
    const end = lineEndOf(text, position);
    const line = text.slice(position, end);
    position = nextLine(text, end);
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const indent = line.length - line.trimStart().length;
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
  }
  if (blockScalarCol !== undefined) {
    const indent = offset - lineStart - text.slice(lineStart, offset).trimStart().length;
    if (indent > blockScalarCol && text.slice(lineStart, offset).trim() !== '') return undefined;
  }

  const before = text.slice(lineStart, offset);
  if (/(^|\s)#/.test(before) && !/["']/.test(before)) return undefined; // in a comment
  const elements = lineElements(before);
  for (const col of elements.items) pushItem(stack, col);
  const wordEnd = (from: number): number => {
    let end = from;
    while (end < text.length && isWordChar(text.charCodeAt(end))) end++;
    return end;
  };
  const base = { format: 'yaml' as const };
  if (elements.key) {
    const { col, name, valueStart } = elements.key;
    pushKey(stack, col, name);
    const path = stack.map((f) => f.name);
    const value = before.slice(valueStart);
    if (value.startsWith('{')) return undefined;
    if (value.startsWith('[')) {
      const element = flowElement(value);
      if (element === undefined) return undefined;
      const start = lineStart + valueStart + element.start;
      return { ...base, role: 'value', path: [...path, item], span: { start, end: wordEnd(offset) }, quoted: element.quoted, inline: false };
    }
    if (value.startsWith('"') || value.startsWith("'")) {
      if (value.length > 1 && value.endsWith(value[0])) return undefined;
      return { ...base, role: 'value', path, span: { start: lineStart + valueStart + 1, end: wordEnd(offset) }, quoted: true, inline: true };
    }
    if (!/^[\w.@/+-]*$/.test(value)) return undefined;
    return { ...base, role: 'value', path, span: { start: lineStart + valueStart, end: wordEnd(offset) }, quoted: false, inline: true };
  }
  const word = before.slice(elements.contentCol);
  if (!/^["']?[\w.@/+-]*$/.test(word)) return undefined;
  const quoted = word.startsWith('"') || word.startsWith("'");
  const start = lineStart + elements.contentCol + (quoted ? 1 : 0);
  const span = { start, end: wordEnd(offset) };
  if (elements.items.length > 0) return { ...base, role: 'item-or-key', path: stack.map((f) => f.name), span, quoted, inline: false };
  if (quoted) return undefined;
  // A key being typed: the mapping is the one whose keys sit at this column.
  while (stack.length > 0 && stack[stack.length - 1].col >= elements.contentCol) stack.pop();
  return { ...base, role: 'key', path: stack.map((f) => f.name), span, quoted: false, inline: false };
}

/** In the text of a flow list typed so far (`[a, b, c`), where the last element starts; undefined once the list is closed. */
function flowElement(value: string): { start: number; quoted: boolean } | undefined {
  let depth = 0;
  let elementStart = 1;
  let quote: number | undefined;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
      continue;
    }
    if (c === 34 || c === 39) quote = c;
    else if (c === 91 || c === 123) {
      depth++;
      if (depth === 1) elementStart = i + 1;
    } else if (c === 93 || c === 125) {
      depth--;
      if (depth === 0) return undefined;
    } else if (c === 44 && depth === 1) elementStart = i + 1;
  }
  if (depth !== 1) return undefined;
  let start = elementStart;
  while (start < value.length && value.charCodeAt(start) === 32) start++;
  const c = value.charCodeAt(start);
  const quoted = c === 34 || c === 39;
  return { start: quoted ? start + 1 : start, quoted };
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
        return slotHere({ start: start + 1, end: closed ? i : offset }, true);
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
  return slotHere({ start: offset, end: offset }, false);
}

// ---------------------------------------------------------------------- what is already written

/** The keys written at the top level of a YAML text, read line by line (the line holding `except` left out). */
export function topLevelKeys(text: string, except: number): Set<string> {
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

/**
 * The entries of the flow list (`[a, "b"]`) the cursor is in, the one under the cursor left out;
 * undefined when the cursor is not in one. YAML flow lists are read on the cursor's line.
 */
export function flowListValues(text: string, offset: number, format: 'yaml' | 'json'): Set<string> | undefined {
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
    if (start <= offset && offset <= end) return;
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
