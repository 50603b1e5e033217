/**
 * Edits: collecting text edits per file into one `WorkspaceEdit`, applying them (tests, and any
 * caller that needs the result), and the structural edits the fixes make in cards: replace a
 * scalar keeping its quoting, add to or remove from a list in flow (`[a, b]`) or block (`- a`)
 * style, add or remove a mapping entry, in YAML and in JSON.
 */
import { hasLineBreak, type Span } from '../text';
import { deref, type DataFormat, type YamlEntry, type YamlMapping, type YamlNode, type YamlSequence } from '../syntax/yaml';
import type { TextEdit, WorkspaceEdit } from './types';

// ---------------------------------------------------------------------- workspace edits

export interface EditCollector {
  add(file: string, span: Span, newText: string): void;
  rename(from: string, to: string): void;
  /**
   * Records a place the edit should change but has no text of its own to change (a node that
   * takes its card from its id under a `node [version=…]` default, with no node statement that
   * can take a `card=`): a rename refuses rather than leave it meaning something else; a quick
   * fix makes its edit all the same, and the finding that follows shows the place.
   */
  refuse(file: string, span: Span, why: string): void;
  /** What `refuse` recorded, in order. */
  readonly refused: readonly Refusal[];
  readonly size: number;
  result(): WorkspaceEdit;
}

/** A place an edit could not rewrite: the file, the span, and why, with what to write there (a clause that follows "line N"). */
export interface Refusal {
  readonly file: string;
  readonly span: Span;
  readonly why: string;
}

export function collectEdits(): EditCollector {
  const byFile = new Map<string, TextEdit[]>();
  const renames: { from: string; to: string }[] = [];
  const refused: Refusal[] = [];
  let size = 0;
  return {
    add(file, span, newText) {
      const list = byFile.get(file) ?? [];
      if (list.some((e) => e.span.start === span.start && e.span.end === span.end && e.newText === newText)) return;
      list.push({ span, newText });
      byFile.set(file, list);
      size++;
    },
    rename(from, to) {
      if (from === to || renames.some((r) => r.from === from)) return;
      renames.push({ from, to });
      size++;
    },
    refuse(file, span, why) {
      if (!refused.some((r) => r.file === file && r.span.start === span.start && r.span.end === span.end)) refused.push({ file, span, why });
    },
    refused,
    get size() {
      return size;
    },
    result() {
      const changes = [...byFile.entries()].map(([file, edits]) => ({ file, edits: [...edits].sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end) }));
      return renames.length > 0 ? { changes, renames: [...renames] } : { changes };
    },
  };
}

/** Applies non-overlapping edits to a text. */
export function applyTextEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => b.span.start - a.span.start || b.span.end - a.span.end);
  let out = text;
  for (const edit of sorted) out = out.slice(0, edit.span.start) + edit.newText + out.slice(edit.span.end);
  return out;
}

/** Applies a workspace edit to a set of files (new files first, then text changes, then renames). */
export function applyWorkspaceEdit(files: ReadonlyMap<string, string>, edit: WorkspaceEdit): Map<string, string> {
  const out = new Map(files);
  for (const created of edit.creates ?? []) if (!out.has(created.file)) out.set(created.file, created.text);
  for (const change of edit.changes) out.set(change.file, applyTextEdits(out.get(change.file) ?? '', change.edits));
  for (const rename of edit.renames ?? []) {
    const text = out.get(rename.from);
    if (text === undefined) continue;
    out.delete(rename.from);
    out.set(rename.to, text);
  }
  return out;
}

// ---------------------------------------------------------------------- lines

export function lineStart(text: string, offset: number): number {
  for (let i = Math.min(offset, text.length) - 1; i >= 0; i--) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) return i + 1;
  }
  return 0;
}

export function lineEnd(text: string, offset: number): number {
  let i = Math.max(0, offset);
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) break;
    i++;
  }
  return i;
}

/** The start of the line after the one `offset` is on (the end of the text on the last line). */
export function nextLineStart(text: string, offset: number): number {
  const end = lineEnd(text, offset);
  if (text.charCodeAt(end) === 13 && text.charCodeAt(end + 1) === 10) return end + 2;
  return Math.min(text.length, end + 1);
}

export function newline(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

function indentOf(text: string, offset: number): string {
  const start = lineStart(text, offset);
  let i = start;
  while (i < text.length && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
  return text.slice(start, i);
}

// ---------------------------------------------------------------------- scalars

const yamlReserved = /^(true|false|null|yes|no|on|off|y|n|~)$/i;
const yamlNumber = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$|^[-+]?\.(inf|nan)$|^0[xo][0-9a-f]+$/i;

/** True when `value` reads back as the same string written bare in YAML. */
export function plainYamlSafe(value: string): boolean {
  return /^[A-Za-z0-9_./][A-Za-z0-9_./@+-]*$/.test(value) && !yamlReserved.test(value) && !yamlNumber.test(value);
}

/** How to write `value` in place of `original` (the scalar as written): same quoting, quoted when it must be. */
export function scalarText(value: string, format: DataFormat, original = ''): string {
  if (format === 'json') return JSON.stringify(value);
  if (original.startsWith("'")) return `'${value.replace(/'/g, "''")}'`;
  if (original.startsWith('"') || !plainYamlSafe(value)) return JSON.stringify(value);
  return value;
}

/** A new scalar for a list or an entry (YAML: bare when safe). */
export function newScalar(value: string, format: DataFormat): string {
  return scalarText(value, format);
}

// ---------------------------------------------------------------------- lists

function isFlow(text: string, node: { span: Span }): boolean {
  const c = text.charCodeAt(node.span.start);
  return c === 91 /* [ */ || c === 123 /* { */;
}

/** The offset just after the `:` that ends an entry's key. */
function afterColon(text: string, entry: YamlEntry): number {
  let i = entry.keySpan.end;
  while (i < text.length && text.charCodeAt(i) !== 58) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) return entry.keySpan.end;
    i++;
  }
  return Math.min(text.length, i + 1);
}

/**
 * Removes item `index` of a list; the entry owning the list lets a block list's last item become
 * `[]`. The item goes with its separator and the comment on its own line; a comment on another
 * line (above the item, after the key, between flow items) stays.
 */
export function removeListItem(text: string, list: YamlSequence, index: number, owner?: YamlEntry): TextEdit | undefined {
  const items = list.items;
  const target = items[index];
  if (target === undefined) return undefined;
  if (isFlow(text, list)) return removeFlowItem(text, list, index);
  if (items.length === 1 && owner !== undefined) {
    const colon = afterColon(text, owner);
    const itemLine = lineStart(text, target.span.start);
    if (itemLine <= colon) return { span: { start: colon, end: list.span.end }, newText: ' []' };
    // Keep the comment after the key and the lines between the key and the item.
    const keyRest = text.slice(colon, lineEnd(text, colon)).trimEnd();
    const between = text.slice(nextLineStart(text, colon), itemLine).replace(/(\r?\n|\r)$/, '');
    const kept = between.length > 0 ? `${newline(text)}${between}` : '';
    return { span: { start: colon, end: Math.max(list.span.end, lineEnd(text, target.span.end)) }, newText: ` []${keyRest}${kept}` };
  }
  return { span: { start: lineStart(text, target.span.start), end: nextLineStart(text, target.span.end) }, newText: '' };
}

/** Removes a flow list's item with one comma; an item alone on its line goes with its line, and comments on other lines stay. */
function removeFlowItem(text: string, list: YamlSequence, index: number): TextEdit {
  const items = list.items;
  const target = items[index];
  if (items.length === 1) {
    const inside = text.slice(list.span.start + 1, list.span.end - 1);
    if (!/#/.test(inside)) return { span: { start: list.span.start + 1, end: list.span.end - 1 }, newText: '' };
  }
  const next = items[index + 1];
  const previous = items[index - 1];
  const ownLine = /^[ \t]*$/.test(text.slice(lineStart(text, target.span.start), target.span.start));
  if (next !== undefined) {
    // `a, b` on one line: up to the next item; else the item's line, through its comma and comment.
    if (!hasLineBreak(text, target.span.end, next.span.start)) return { span: { start: target.span.start, end: next.span.start }, newText: '' };
    return { span: { start: ownLine ? lineStart(text, target.span.start) : target.span.start, end: ownLine ? nextLineStart(text, target.span.end) : lineEnd(text, target.span.end) }, newText: '' };
  }
  if (previous === undefined) {
    // The only item, with comments about it in the brackets: the item's line only.
    return { span: ownLine ? { start: lineStart(text, target.span.start), end: nextLineStart(text, target.span.end) } : target.span, newText: '' };
  }
  // The last item: the comma before it goes, what stands between that comma and the item's line
  // stays. On a line of its own, the item takes the rest of that line with it (a trailing comma,
  // its comment), unless the closing bracket is on it too.
  const gap = text.slice(previous.span.end, target.span.start);
  const comma = gap.indexOf(',');
  if (comma < 0 || !/[\r\n]/.test(gap)) return { span: { start: previous.span.end, end: target.span.end }, newText: '' };
  const keptEnd = ownLine ? lineStart(text, target.span.start) : target.span.start;
  const kept = text.slice(previous.span.end + comma + 1, keptEnd).replace(/[ \t]*(\r?\n|\r)?[ \t]*$/, '');
  const rest = text.slice(target.span.end, lineEnd(text, target.span.end));
  const end = ownLine && /^[ \t,]*(#.*)?$/.test(rest) ? lineEnd(text, target.span.end) : target.span.end;
  return { span: { start: previous.span.end, end }, newText: kept };
}

/** Appends `valueText` (already rendered) to a list, in the list's own style. */
export function appendListItem(text: string, list: YamlSequence, valueText: string): TextEdit {
  const items = list.items;
  const last = items[items.length - 1];
  if (isFlow(text, list)) {
    if (last === undefined) return { span: { start: list.span.start + 1, end: list.span.start + 1 }, newText: valueText };
    return { span: { start: last.span.end, end: last.span.end }, newText: `, ${valueText}` };
  }
  if (last === undefined) return { span: { start: list.span.start, end: list.span.end }, newText: `[${valueText}]` };
  const dash = text.lastIndexOf('-', last.span.start);
  const at = lineEnd(text, last.span.end);
  const indent = dash >= 0 ? text.slice(lineStart(text, dash), dash) : indentOf(text, last.span.start);
  return { span: { start: at, end: at }, newText: `${newline(text)}${indent}- ${valueText}` };
}

// ---------------------------------------------------------------------- mappings

/** The entries of a mapping in source order. */
function entriesOf(mapping: YamlMapping): YamlEntry[] {
  return [...mapping.entries.values()].sort((a, b) => a.keySpan.start - b.keySpan.start);
}

function entryEnd(entry: YamlEntry): number {
  return Math.max(entry.keySpan.end, entry.value.span.end);
}

/**
 * Adds `key: value` to a mapping: after the first of `after` that is present, else at the end.
 * `valueText` is rendered for the format; in YAML a value starting with a line break is a block.
 */
export function addMappingEntry(text: string, format: DataFormat, mapping: YamlMapping, key: string, valueText: string, after: readonly string[] = []): TextEdit {
  const entries = entriesOf(mapping);
  const eol = newline(text);
  if (format === 'json') {
    const member = `${JSON.stringify(key)}: ${valueText}`;
    const last = entries[entries.length - 1];
    if (last === undefined) return { span: { start: mapping.span.start + 1, end: mapping.span.start + 1 }, newText: member };
    const firstKey = entries[0].keySpan.start;
    const prefix = text.slice(lineStart(text, firstKey), firstKey);
    const sameLine = !hasLineBreak(text, mapping.span.start, last.value.span.end);
    const separator = sameLine ? ', ' : `,${eol}${/^[ \t]*$/.test(prefix) ? prefix : '  '}`;
    return { span: { start: last.value.span.end, end: last.value.span.end }, newText: `${separator}${member}` };
  }
  const line = `${key}:${valueText.startsWith('\n') ? '' : ' '}${valueText.replace(/\n/g, eol)}`;
  if (isFlow(text, mapping)) {
    const last = entries[entries.length - 1];
    if (last === undefined) return { span: { start: mapping.span.start + 1, end: mapping.span.start + 1 }, newText: ` ${key}: ${valueText.trim()} ` };
    return { span: { start: entryEnd(last), end: entryEnd(last) }, newText: `, ${key}: ${valueText.trim()}` };
  }
  const indent = entries[0] !== undefined ? indentOf(text, entries[0].keySpan.start) : '';
  const anchorKey = after.find((k) => mapping.entries.has(k));
  const anchor = anchorKey !== undefined ? mapping.entries.get(anchorKey) : entries[entries.length - 1];
  if (anchor === undefined) {
    const at = text.length;
    const lead = at > 0 && !/[\r\n]$/.test(text) ? eol : '';
    return { span: { start: at, end: at }, newText: `${lead}${line}${eol}` };
  }
  const at = lineEnd(text, entryEnd(anchor));
  return { span: { start: at, end: at }, newText: `${eol}${indent}${line}` };
}

/** Removes a mapping entry (its whole lines in block YAML; the member and one comma in JSON or flow YAML). */
export function removeMappingEntry(text: string, format: DataFormat, mapping: YamlMapping, entry: YamlEntry): TextEdit {
  if (format === 'json' || isFlow(text, mapping)) {
    const entries = entriesOf(mapping);
    const index = entries.indexOf(entry);
    const keyStart = entry.keySpan.start;
    if (index >= 0 && index < entries.length - 1) return { span: { start: keyStart, end: entries[index + 1].keySpan.start }, newText: '' };
    if (index > 0) return { span: { start: entryEnd(entries[index - 1]), end: entryEnd(entry) }, newText: '' };
    return { span: { start: keyStart, end: entryEnd(entry) }, newText: '' };
  }
  return { span: { start: lineStart(text, entry.keySpan.start), end: nextLineStart(text, entryEnd(entry)) }, newText: '' };
}

/**
 * Adds `valueText` to the list under `key` of `mapping`: appended to the list in its style, or a
 * new `key: [value]` entry (after the first of `after` present) when there is none yet.
 */
export function addToList(text: string, format: DataFormat, mapping: YamlMapping, key: string, valueText: string, after: readonly string[] = []): TextEdit {
  const entry = mapping.entries.get(key);
  if (entry === undefined) return addMappingEntry(text, format, mapping, key, `[${valueText}]`, after);
  const value = deref(entry.value);
  if (value?.kind === 'sequence') return appendListItem(text, value, valueText);
  if (value === undefined || (value.kind === 'scalar' && value.value === null)) {
    if (entry.value.span.end > entry.value.span.start) return { span: entry.value.span, newText: `[${valueText}]` };
    const at = afterColon(text, entry);
    return { span: { start: at, end: at }, newText: ` [${valueText}]` };
  }
  // A scalar where a list belongs: make it a list of both.
  const written = text.slice(entry.value.span.start, entry.value.span.end);
  return { span: entry.value.span, newText: `[${written}, ${valueText}]` };
}

export function mappingOf(node: YamlNode | undefined): YamlMapping | undefined {
  const value = deref(node);
  return value?.kind === 'mapping' ? value : undefined;
}
