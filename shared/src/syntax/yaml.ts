/**
 * The data reader under cards and vocabulary files: YAML (through the `yaml` package's
 * Document API) and JSON (through a small reader of our own), both turned into one located
 * tree where every mapping key, value and list entry keeps its exact span.
 *
 * Decisions:
 * - Format by file name (docs/compatibility.md#card-file-format): the trimmed, lowercased name
 *   ending in `.json` is JSON, anything else is YAML (so `x.json.bak` is YAML).
 * - JSON is read by our own reader, not by the YAML parser. It accepts exactly what
 *   `JSON.parse` accepts (ECMA-404: no comments, no trailing commas, no BOM, no control
 *   characters in strings), and yields the same values: strings are decoded by `JSON.parse` of
 *   the string token, numbers by `Number` of the number token, and a repeated key keeps its
 *   last value. What it adds is exactness: the first syntax error comes back with its exact
 *   offset and a message of ours (V8's messages sometimes carry no position and sometimes
 *   quote the whole document), and every key and value keeps its span. It is iterative, so
 *   any nesting depth is read without exhausting the stack.
 * - YAML keeps `yaml`'s defaults (YAML 1.2 core schema, unique keys, no merge keys), so the
 *   values are the ones DarkPrint reads. Unique keys are checked here with `yaml`'s own rule
 *   (two scalar keys with the same value) because its check is quadratic in the size of a
 *   mapping; the error sits on the repeated key. We never call `toJS`: the tree is built from the
 *   Document's nodes in document order. An alias becomes a `YamlAlias` pointing at the
 *   anchored node, never a copy, so an alias "bomb" costs nothing to read and a
 *   self-referencing anchor is a cycle in the tree (walkers must guard against it).
 *   DarkPrint's reader (`toJS` with `maxAliasCount` 100) refuses a document whose aliases
 *   expand too much; we reproduce its counting heuristic here and report the alias that trips
 *   it as an error, plus an alias naming no earlier anchor (which `toJS` throws on).
 * - A key is the string DarkPrint's reader would use: the scalar's value as text (`null` is
 *   the empty string). A collection used as a key (`? [a]`) is named by its source text.
 * - The parser never throws: a stack overflow inside `yaml` on absurd nesting becomes an
 *   error at the start of the document.
 * - A file holds one YAML document. `parseDocument` reports a second one (MULTIPLE_DOCS, at
 *   the start of that document: its `---`, its first line after a `...`, or a second `...`) and
 *   stops reading there, so the error costs nothing extra; a lone leading `---` or trailing
 *   `...` is not a second document. Its log level must not be `silent`, which drops that error.
 */
import { Lexer, isAlias, isMap, isPair, isScalar, isSeq, parseDocument } from 'yaml';
import { span, type Span } from '../text';

export type DataFormat = 'yaml' | 'json';

/**
 * A JSON file that starts with a byte order mark: `JSON.parse`, and so DarkPrint, refuses it.
 * Editors hide the mark (VS Code reads the file as "UTF-8 with BOM" and leaves it out of the
 * document's text, then writes it back on save), so a JSON card open in one reads clean and the
 * error shows only while it is closed; the message says where to look.
 */
const byteOrderMark =
  'The file starts with a byte order mark (U+FEFF), which JSON does not allow; save it as UTF-8 without one (editors hide the mark: VS Code shows "UTF-8 with BOM" in its status bar).';

export type ScalarValue = null | boolean | number | string;

export interface YamlScalar {
  readonly kind: 'scalar';
  readonly span: Span;
  readonly value: ScalarValue;
}

export interface YamlEntry {
  readonly key: string;
  readonly keySpan: Span;
  /** Where the value is written (an alias token for an aliased value). */
  readonly value: YamlNode;
}

export interface YamlMapping {
  readonly kind: 'mapping';
  readonly span: Span;
  /** Keys in first-appearance order; a repeated key keeps the position of its first appearance and its last value. */
  readonly entries: ReadonlyMap<string, YamlEntry>;
}

export interface YamlSequence {
  readonly kind: 'sequence';
  readonly span: Span;
  readonly items: readonly YamlNode[];
}

export interface YamlAlias {
  readonly kind: 'alias';
  /** The `*name` token. */
  readonly span: Span;
  readonly name: string;
  /** The anchored node; undefined when no anchor of that name comes before the alias. */
  readonly target: YamlValue | undefined;
}

export type YamlValue = YamlScalar | YamlMapping | YamlSequence;
export type YamlNode = YamlValue | YamlAlias;

export interface SyntaxProblem {
  readonly severity: 'error' | 'warning';
  readonly span: Span;
  /** A sentence of ours that ends with the fix. */
  readonly message: string;
}

export interface DataDocument {
  readonly format: DataFormat;
  /** Undefined when the document holds no node at all (empty, comments only, or unreadable). */
  readonly root: YamlNode | undefined;
  readonly problems: readonly SyntaxProblem[];
}

export interface ParseDataOptions {
  /** DarkPrint's alias limit (`yaml`'s `maxAliasCount`); -1 turns the check off. Default 100. */
  readonly maxAliasCount?: number;
}

/** JSON when the trimmed, lowercased file name ends in `.json`; YAML otherwise (docs/compatibility.md#card-file-format). */
export function formatOf(path: string): DataFormat {
  return path.trim().toLowerCase().endsWith('.json') ? 'json' : 'yaml';
}

/** Reads `text` as YAML or JSON into a located tree. Never throws. */
export function parseData(text: string, format: DataFormat, options: ParseDataOptions = {}): DataDocument {
  try {
    return format === 'json' ? readJson(text) : readYaml(text, options.maxAliasCount ?? 100);
  } catch (error) {
    const why = error instanceof RangeError ? 'it nests too deeply to be read' : 'the reader failed on it';
    return {
      format,
      root: undefined,
      problems: [{ severity: 'error', span: span(0, 0), message: `The document cannot be read: ${why}. Simplify its structure.` }],
    };
  }
}

/**
 * The text to give the `yaml` package for `text`: each lone CR becomes an LF. YAML 1.2 counts a
 * lone CR as a line break, and so does the line index every position is converted with
 * (../text), but `yaml` breaks lines only at LF (CRLF included), so a file saved with CR line
 * endings would read as one line and fail. The replacement is one code unit for one, so every
 * offset and range `yaml` reports holds in `text` too; a scalar's value is the same as with LF
 * endings, as YAML folds every line break in a scalar to LF.
 */
export function yamlSource(text: string): string {
  return text.indexOf('\r') < 0 ? text : text.replace(/\r(?!\n)/g, '\n');
}

/** How deep YAML may nest (flow brackets, or `- `/`? ` entries on one line) before a reader refuses it. */
export const maximumYamlDepth = 1000;

/**
 * A document that nests deeper than `maximumYamlDepth`, or undefined. The `yaml` package
 * spends memory and time that grow with nesting before it gives up (10 MB of `[` exhausts the
 * heap), and DarkPrint's reader (`toJS`) fails below this depth anyway, so every YAML reader
 * here asks this first and refuses such a document unread. A character scan that counts
 * every bracket and every leading `- ` finds the candidates (a few per million real files);
 * `yaml`'s own lexer, streamed and stopped at the limit, confirms them, so brackets and dashes
 * inside quoted or block scalars and comments never count.
 */
export function yamlDepthProblem(text: string): SyntaxProblem | undefined {
  if (!mayNestTooDeeply(text)) return undefined;
  let offset = 0;
  let flow = 0;
  let indicators = 0;
  for (const token of new Lexer().lex(text)) {
    // the lexer's control tokens (document start, scalar start, flow error end) are not source text
    if (token === '\u0002' || token === '\u001f' || token === '\u0018') continue;
    const start = offset;
    offset += token.length;
    if (token === '[' || token === '{') flow++;
    else if (token === ']' || token === '}') flow = Math.max(0, flow - 1);
    else if (token === '-' || token === '?') indicators++;
    else if (token.includes('\n') || token.includes('\r')) indicators = 0;
    if (flow > maximumYamlDepth || indicators > maximumYamlDepth) {
      return {
        severity: 'error',
        span: span(start, Math.min(start + token.length, text.length)),
        message: `The document nests more than ${maximumYamlDepth} levels deep here, more than any reader can hold; flatten the structure.`,
      };
    }
  }
  return undefined;
}

/** The cheap over-estimate behind `yamlDepthProblem`: every bracket, and every run of leading `- `/`? `. */
function mayNestTooDeeply(text: string): boolean {
  // going deeper takes at least one character per level
  if (text.length <= maximumYamlDepth) return false;
  let flow = 0;
  let lineStart = true;
  let indicators = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 91 || c === 123) {
      if (++flow > maximumYamlDepth) return true;
    } else if (c === 93 || c === 125) {
      if (flow > 0) flow--;
    } else if (c === 10 || c === 13) {
      lineStart = true;
      indicators = 0;
      continue;
    }
    if (!lineStart) continue;
    if ((c === 45 || c === 63) && (text.charCodeAt(i + 1) === 32 || text.charCodeAt(i + 1) === 9)) {
      if (++indicators > maximumYamlDepth) return true;
      i++;
    } else if (c !== 32 && c !== 9) lineStart = false;
  }
  return false;
}

/** The node an alias stands for (the node itself when it is not an alias). */
export function deref(node: YamlNode | undefined): YamlValue | undefined {
  return node?.kind === 'alias' ? node.target : node;
}

export type LocatePart = 'key' | 'value';

export interface Location {
  readonly span: Span;
  /** False when the path does not exist and `span` is its nearest existing ancestor. */
  readonly exact: boolean;
}

/**
 * Finds a dotted path (`inputs[1].type`, `params.a.b[2]`, `id`; `''` is the root) in a tree.
 * A mapping step takes the longest key that matches, so keys containing `.` or `[` are found
 * too. For a mapping entry `key` gives the key and `value` the value (the key again when the
 * value is not written, as in `a:`); for a list entry both give the entry. When a step does
 * not exist, the nearest existing ancestor is returned with `exact: false`.
 */
export function locatePath(root: YamlNode | undefined, path: string, part: LocatePart): Location | undefined {
  if (!root) return undefined;
  let here: Position = { node: root };
  let offset = 0;
  while (offset < path.length) {
    const next = step(here, path, offset);
    if (!next) return { span: positionSpan(here, 'key'), exact: false };
    here = next.position;
    offset = next.offset;
  }
  return { span: positionSpan(here, part), exact: true };
}

/** The first line of `range` in `text` (trailing blanks dropped); the whole range when that is empty. */
export function firstLineSpan(text: string, range: Span): Span {
  let end = range.start;
  while (end < range.end) {
    const c = text.charCodeAt(end);
    if (c === 10 || c === 13) break;
    end++;
  }
  while (end > range.start && isBlank(text.charCodeAt(end - 1))) end--;
  return end > range.start ? span(range.start, end) : range;
}

// ---- locating ----------------------------------------------------------------------------

interface Position {
  readonly node: YamlNode;
  readonly entry?: YamlEntry;
}

function positionSpan(position: Position, part: LocatePart): Span {
  const entry = position.entry;
  if (!entry) return position.node.span;
  if (part === 'key') return entry.keySpan;
  return entry.value.span.end > entry.value.span.start ? entry.value.span : entry.keySpan;
}

function step(here: Position, path: string, offset: number): { position: Position; offset: number } | undefined {
  const value = deref(here.node);
  if (!value) return undefined;
  if (path.charCodeAt(offset) === 91 /* [ */) {
    const close = path.indexOf(']', offset);
    if (close < 0 || value.kind !== 'sequence') return undefined;
    const digits = path.slice(offset + 1, close);
    if (!/^[0-9]+$/.test(digits)) return undefined;
    const item = value.items[Number(digits)];
    return item ? { position: { node: item }, offset: close + 1 } : undefined;
  }
  if (value.kind !== 'mapping') return undefined;
  const start = offset > 0 && path.charCodeAt(offset) === 46 /* . */ ? offset + 1 : offset;
  // Candidate key ends: every `.` or `[` after `start`, and the end of the path; longest first.
  const ends: number[] = [];
  for (let i = start + 1; i < path.length; i++) {
    const c = path.charCodeAt(i);
    if (c === 46 || c === 91) ends.push(i);
  }
  ends.push(path.length);
  for (let i = ends.length - 1; i >= 0; i--) {
    const entry = value.entries.get(path.slice(start, ends[i]));
    if (entry) return { position: { node: entry.value, entry }, offset: ends[i] };
  }
  // An empty key (`"": x` or a null key) at the very end of the path.
  const empty = start === path.length ? value.entries.get('') : undefined;
  return empty ? { position: { node: empty.value, entry: empty }, offset: start } : undefined;
}

// ---- YAML ------------------------------------------------------------------------------------

interface MutableMapping {
  kind: 'mapping';
  span: Span;
  entries: Map<string, YamlEntry>;
}
interface MutableSequence {
  kind: 'sequence';
  span: Span;
  items: YamlNode[];
}

/** Stands where a node will be attached once its task runs (never left in a finished tree). */
const pending: YamlScalar = Object.freeze({ kind: 'scalar', span: Object.freeze(span(0, 0)), value: null });

/** DarkPrint's alias bookkeeping (the `yaml` package's `toJS` counting), per anchored node. */
interface AnchorCount {
  count: number;
  /** Undefined until the first alias of this anchor is read. */
  aliasCount?: number;
}

function readYaml(written: string, maxAliasCount: number): DataDocument {
  // (every offset below holds in the text as written: see `yamlSource`)
  const text = yamlSource(written);
  const tooDeep = yamlDepthProblem(text);
  if (tooDeep) return { format: 'yaml', root: undefined, problems: [tooDeep] };
  // `yaml` checks key uniqueness with a linear scan per key (quadratic on a large mapping), so
  // the check is made here instead, with the same rule: two scalar keys with the same value.
  // Log level `error`, not `silent`: `silent` also drops the MULTIPLE_DOCS error DarkPrint
  // reports, and nothing here logs anyway (only `toJS` does, and it is never called).
  const document = parseDocument(text, { prettyErrors: false, logLevel: 'error', uniqueKeys: false });
  const problems: SyntaxProblem[] = [];
  const clamp = (offset: number): number => Math.max(0, Math.min(offset, text.length));
  // An empty range (a character missing at the end, say) is widened to one character so that
  // an editor shows it: the character at the position, or the last one of the text.
  const problemSpan = (pos: [number, number]): Span => {
    const start = clamp(pos[0]);
    const end = clamp(pos[1]);
    if (end > start) return span(start, end);
    if (start < text.length) return span(start, start + 1);
    return text.length > 0 ? span(text.length - 1, text.length) : span(0, 0);
  };
  for (const e of document.errors) {
    problems.push(
      e.code === 'MULTIPLE_DOCS'
        ? secondDocumentProblem(text, clamp(e.pos[0]), problemSpan(e.pos))
        : { severity: 'error', span: problemSpan(e.pos), message: yamlMessage(e.code, e.message) },
    );
  }
  for (const w of document.warnings) {
    problems.push({ severity: 'warning', span: problemSpan(w.pos), message: yamlMessage(w.code, w.message) });
  }

  const nodeSpan = (node: unknown, fallback: Span): Span => {
    const range = (node as { range?: [number, number, number] | null } | null)?.range;
    if (!range) return fallback;
    let end = clamp(range[1]);
    const start = clamp(range[0]);
    while (end > start && isBlank(text.charCodeAt(end - 1))) end--;
    return span(start, end);
  };

  const anchors = new Map<string, YamlValue>();
  const counts = new Map<YamlValue, AnchorCount>();
  let aliasLimitReported = false;

  /** The `yaml` package's estimate of how much an anchored node expands (max over its branches). */
  const aliasCountOf = (root: YamlNode): number => {
    let best = 0;
    const stack: YamlNode[] = [root];
    const seen = new Set<YamlNode>();
    while (stack.length > 0) {
      const node = stack.pop() as YamlNode;
      if (seen.has(node)) continue;
      seen.add(node);
      switch (node.kind) {
        case 'alias': {
          const data = node.target ? counts.get(node.target) : undefined;
          best = Math.max(best, data ? data.count * (data.aliasCount ?? 0) : 0);
          break;
        }
        case 'scalar':
          best = Math.max(best, 1);
          break;
        case 'mapping':
          for (const entry of node.entries.values()) stack.push(entry.value);
          break;
        case 'sequence':
          for (const item of node.items) stack.push(item);
          break;
        default:
          assertNever(node);
      }
    }
    return best;
  };

  // Pre-order, document order: a node is created (and its anchor bound) before its children,
  // so an alias inside its own anchor's node refers to that node, as in `yaml`. A pair's key
  // is read (and any anchor in it bound) before its value.
  // Where a converted node goes: the root, an entry's value, a list item, or nowhere (an anchored
  // key, read only to bind its anchor). Plain data rather than closures: this runs for every node.
  type Target =
    | { readonly kind: 'root' }
    | { readonly kind: 'entry'; readonly entry: { value: YamlNode } }
    | { readonly kind: 'item'; readonly items: YamlNode[]; readonly index: number }
    | { readonly kind: 'none' };
  type Task =
    | { readonly kind: 'node'; readonly node: unknown; readonly fallback: Span; readonly target: Target }
    | { readonly kind: 'pair'; readonly key: unknown; readonly value: unknown; readonly fallback: Span; readonly mapping: MutableMapping };
  let root: YamlNode | undefined;
  const attach = (target: Target, converted: YamlNode): void => {
    switch (target.kind) {
      case 'root':
        root = converted;
        return;
      case 'entry':
        target.entry.value = converted;
        return;
      case 'item':
        target.items[target.index] = converted;
        return;
      case 'none':
        return;
      default:
        assertNever(target);
    }
  };
  /** Per mapping, the raw values of the scalar keys seen so far (the unique-key rule); never kept in the tree. */
  const scalarKeys = new Map<MutableMapping, Set<unknown>>();
  const tasks: Task[] = [];
  if (document.contents) tasks.push({ kind: 'node', node: document.contents, fallback: span(0, 0), target: { kind: 'root' } });
  while (tasks.length > 0) {
    const task = tasks.pop() as Task;
    if (task.kind === 'pair') {
      const keySpan = nodeSpan(task.key, task.fallback);
      const aliased = isAlias(task.key) ? anchors.get(task.key.source) : undefined;
      const key = aliased?.kind === 'scalar' ? (aliased.value === null ? '' : String(aliased.value)) : keyText(task.key, text, keySpan);
      const written = task.value !== null && task.value !== undefined;
      // A missing value (`? a`, `{ b }`) stays null, written nowhere: its span is empty. A written
      // one takes the placeholder's place when its task runs.
      const entry: { key: string; keySpan: Span; value: YamlNode } = {
        key,
        keySpan,
        value: written ? pending : { kind: 'scalar', span: span(keySpan.end, keySpan.end), value: null },
      };
      if (isScalar(task.key)) {
        const raw = task.key.value;
        let seen = scalarKeys.get(task.mapping);
        if (seen === undefined) {
          seen = new Set();
          scalarKeys.set(task.mapping, seen);
        }
        if (seen.has(raw) && !Number.isNaN(raw)) {
          problems.push({ severity: 'error', span: keySpan, message: yamlMessage('DUPLICATE_KEY', 'Map keys must be unique') });
        }
        seen.add(raw);
      }
      // A repeated key keeps its first position and takes the last value, as `toJS` does.
      task.mapping.entries.set(key, entry);
      if (written) {
        // (a value always has a range; were one missing, the key's span would stand in)
        tasks.push({ kind: 'node', node: task.value, fallback: keySpan, target: { kind: 'entry', entry } });
      }
      if (task.key !== null && task.key !== undefined && !(isScalar(task.key) && !task.key.anchor)) {
        tasks.push({ kind: 'node', node: task.key, fallback: keySpan, target: { kind: 'none' } });
      }
      continue;
    }
    const node = task.node;
    const here = nodeSpan(node, task.fallback);
    if (isAlias(node)) {
      const target = anchors.get(node.source);
      const alias: YamlAlias = { kind: 'alias', span: here, name: node.source, target };
      if (!target) {
        problems.push({
          severity: 'error',
          span: here,
          message: `The alias \`*${node.source}\` refers to no anchor \`&${node.source}\` written before it; define the anchor earlier or write the value out.`,
        });
      } else if (maxAliasCount >= 0 && !aliasLimitReported) {
        const data = counts.get(target);
        if (data) {
          data.count += 1;
          data.aliasCount ??= aliasCountOf(target);
          if (data.count * data.aliasCount > maxAliasCount) {
            aliasLimitReported = true;
            problems.push({
              severity: 'error',
              span: here,
              message: `The alias \`*${node.source}\` makes the document expand too much to be read safely (more than ${maxAliasCount} alias expansions); write the values out or use fewer aliases.`,
            });
          }
        }
      }
      attach(task.target, alias);
      continue;
    }
    let converted: YamlValue;
    if (isMap(node)) {
      const mapping: MutableMapping = { kind: 'mapping', span: here, entries: new Map() };
      converted = mapping;
      for (let i = node.items.length - 1; i >= 0; i--) {
        const pair = node.items[i];
        tasks.push({ kind: 'pair', key: pair.key, value: pair.value, fallback: here, mapping });
      }
    } else if (isSeq(node)) {
      const sequence: MutableSequence = { kind: 'sequence', span: here, items: [] };
      converted = sequence;
      const empty = span(here.end, here.end);
      for (let i = node.items.length - 1; i >= 0; i--) {
        const index = i;
        const item = node.items[i];
        if (isPair(item)) {
          // `- a: 1` inside a flow sequence (`[a: 1]`) is a one-pair mapping.
          const single: MutableMapping = { kind: 'mapping', span: nodeSpan(item.key, empty), entries: new Map() };
          sequence.items[index] = single;
          tasks.push({ kind: 'pair', key: item.key, value: item.value, fallback: empty, mapping: single });
        } else {
          sequence.items[index] = pending;
          tasks.push({ kind: 'node', node: item, fallback: empty, target: { kind: 'item', items: sequence.items, index } });
        }
      }
    } else if (isScalar(node)) {
      converted = { kind: 'scalar', span: here, value: scalarValue(node.value) };
    } else {
      converted = { kind: 'scalar', span: here, value: null };
    }
    const anchor = (node as { anchor?: unknown } | null)?.anchor;
    if (typeof anchor === 'string' && anchor !== '') {
      anchors.set(anchor, converted);
      counts.set(converted, { count: 1 });
    }
    attach(task.target, converted);
  }
  return { format: 'yaml', root, problems };
}

/** The string DarkPrint's reader uses for a key: a scalar's value as text, `null` as ''. */
function keyText(key: unknown, text: string, keySpan: Span): string {
  if (key === null || key === undefined) return '';
  if (isScalar(key)) {
    const value = scalarValue(key.value);
    return value === null ? '' : String(value);
  }
  // An alias or a collection used as a key: named by what is written.
  return text.slice(keySpan.start, keySpan.end);
}

function scalarValue(value: unknown): ScalarValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'boolean' || typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  return String(value);
}

/**
 * The error for a second document starting at `start` (where `yaml` puts MULTIPLE_DOCS): on its
 * `---` or `...` marker when it has one, otherwise on the first line of its content.
 */
function secondDocumentProblem(text: string, start: number, range: Span): SyntaxProblem {
  const marker = text.slice(start, start + 3);
  const after = text.charCodeAt(start + 3);
  const isMarker = (marker === '---' || marker === '...') && (Number.isNaN(after) || isBlank(after));
  if (isMarker && marker === '...') {
    return {
      severity: 'error',
      span: span(start, start + 3),
      message: 'This `...` ends a second, empty YAML document, but a card file holds a single document; delete the extra `...` line.',
    };
  }
  if (isMarker) {
    return {
      severity: 'error',
      span: span(start, start + 3),
      message: '`---` starts a second YAML document here, but a card file holds a single card; delete this line and all that follows it, or move the second card into a card file of its own.',
    };
  }
  return {
    severity: 'error',
    span: firstLineSpan(text, range),
    message:
      'A second YAML document starts here, after the `...` that ends the first, but a card file holds a single card; delete the `...` line if the card goes on, or move what follows into a card file of its own.',
  };
}

function yamlMessage(code: string, message: string): string {
  const text = message.replace(/\s+/g, ' ').trim();
  const sentence = text === '' ? 'The YAML reader stops here' : text.replace(/[.!?]$/, '');
  const fix = yamlFixes.get(code) ?? 'correct the YAML syntax here';
  return `${sentence}; ${fix}.`;
}

const yamlFixes: ReadonlyMap<string, string> = new Map([
  ['DUPLICATE_KEY', 'keep one of the repeated keys'],
  ['TAG_RESOLVE_FAILED', 'remove the tag; the value is read as plain text'],
  ['BAD_DIRECTIVE', 'remove the directive'],
  ['BAD_DQ_ESCAPE', 'use a valid escape, or single quotes for a literal backslash'],
  ['TAB_AS_INDENT', 'indent with spaces, not tabs'],
  ['BAD_INDENT', 'align the indentation of this line with its siblings'],
  ['MISSING_CHAR', 'add the missing character'],
  ['BLOCK_AS_IMPLICIT_KEY', 'put the value on its own line or quote the key'],
  ['MULTILINE_IMPLICIT_KEY', 'keep the key on one line'],
  ['KEY_OVER_1024_CHARS', 'shorten the key'],
]);

// ---- JSON ------------------------------------------------------------------------------------

const jsonString = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const jsonNumber = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

type JsonFrame =
  | { readonly kind: 'object'; readonly node: MutableMapping; key?: { text: string; span: Span } }
  | { readonly kind: 'array'; readonly node: MutableSequence };

class JsonSyntaxError {
  constructor(
    readonly span: Span,
    readonly message: string,
  ) {}
}

function readJson(text: string): DataDocument {
  try {
    return { format: 'json', root: readJsonValue(text), problems: [] };
  } catch (error) {
    if (error instanceof JsonSyntaxError) {
      return { format: 'json', root: undefined, problems: [{ severity: 'error', span: error.span, message: error.message }] };
    }
    throw error;
  }
}

function readJsonValue(text: string): YamlNode {
  const length = text.length;
  let offset = 0;
  const fail = (at: number, message: string, end = Math.min(at + 1, length)): never => {
    throw new JsonSyntaxError(span(at, end), message);
  };
  const skipBlanks = (): void => {
    while (offset < length) {
      const c = text.charCodeAt(offset);
      if (c === 32 || c === 9 || c === 10 || c === 13) offset++;
      else break;
    }
  };
  const describeHere = (): string => {
    if (offset >= length) return 'the end of the file';
    const point = text.codePointAt(offset) ?? 0;
    const character = String.fromCodePoint(point);
    return /^[\p{L}\p{N}\p{P}\p{S}]$/u.test(character)
      ? `\`${character}\``
      : `U+${point.toString(16).toUpperCase().padStart(4, '0')}`;
  };
  /** The message for a comment where JSON expects a key or a value (JSON has none), if one starts here. */
  const commentHere = (): string | undefined =>
    text.startsWith('//', offset) || text.startsWith('/*', offset) || text.charCodeAt(offset) === 35
      ? 'JSON has no comments; remove the comment, or write the card in YAML, which has them.'
      : undefined;
  const readString = (): { text: string; span: Span } => {
    const start = offset;
    jsonString.lastIndex = start;
    if (jsonString.test(text)) {
      offset = jsonString.lastIndex;
      const raw = text.slice(start, offset);
      const value = raw.indexOf('\\') < 0 ? raw.slice(1, -1) : (JSON.parse(raw) as string);
      return { text: value, span: span(start, offset) };
    }
    // Find what breaks the string, for an exact message.
    let i = start + 1;
    while (i < length) {
      const c = text.charCodeAt(i);
      if (c === 34) break;
      if (c < 32) fail(i, 'A JSON string cannot hold a raw control character (a line break or a tab); write it escaped, as `\\n` or `\\t`.');
      if (c === 92) {
        const e = text.charCodeAt(i + 1);
        if (e === 117 /* u */) {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail(i, 'A `\\u` escape needs exactly four hexadecimal digits; complete it.', Math.min(i + 6, length));
          i += 6;
          continue;
        }
        if (!'"\\/bfnrt'.includes(String.fromCharCode(e)) || i + 1 >= length) {
          fail(i, 'This escape is not valid JSON; use one of `\\"`, `\\\\`, `\\/`, `\\b`, `\\f`, `\\n`, `\\r`, `\\t` or `\\uXXXX`.', Math.min(i + 2, length));
        }
        i += 2;
        continue;
      }
      i++;
    }
    return fail(start, 'This string is never closed; add the closing `"`.', length);
  };
  const readScalar = (): YamlScalar => {
    const start = offset;
    const c = text.charCodeAt(offset);
    if (c === 34) {
      const s = readString();
      return { kind: 'scalar', span: s.span, value: s.text };
    }
    if (c === 45 || (c >= 48 && c <= 57)) {
      jsonNumber.lastIndex = start;
      if (!jsonNumber.test(text)) fail(start, 'A number must have a digit after `-`; write the digits.');
      offset = jsonNumber.lastIndex;
      return { kind: 'scalar', span: span(start, offset), value: Number(text.slice(start, offset)) };
    }
    for (const [word, value] of jsonWords) {
      if (text.startsWith(word, offset)) {
        offset += word.length;
        return { kind: 'scalar', span: span(start, offset), value };
      }
    }
    return fail(
      start,
      commentHere() ??
        (text.charCodeAt(offset) === 93 ? 'JSON allows no trailing comma before `]`; remove the comma.' : undefined) ??
        (text.charCodeAt(offset) === 39 ? 'A JSON string takes double quotes, not single ones; write it in double quotes.' : undefined) ??
        (offset === 0 && text.charCodeAt(0) === 0xfeff ? byteOrderMark : undefined) ??
        `A JSON value is expected here, but the text has ${describeHere()}; write a string, a number, \`true\`, \`false\`, \`null\`, an object or a list.`,
    );
  };

  const frames: JsonFrame[] = [];
  let root: YamlNode | undefined;
  // Attaches a finished value to the innermost open container (or makes it the root).
  const attach = (node: YamlNode): void => {
    const frame = frames[frames.length - 1];
    if (!frame) {
      root = node;
      return;
    }
    if (frame.kind === 'array') {
      frame.node.items.push(node);
      return;
    }
    const key = frame.key as { text: string; span: Span };
    frame.node.entries.set(key.text, { key: key.text, keySpan: key.span, value: node });
    frame.key = undefined;
  };
  const readKey = (frame: Extract<JsonFrame, { kind: 'object' }>): void => {
    skipBlanks();
    if (text.charCodeAt(offset) !== 34) {
      fail(offset, commentHere() ?? (text.charCodeAt(offset) === 125 ? 'JSON allows no trailing comma before `}`; remove the comma.' : text.charCodeAt(offset) === 39 ? 'A JSON key takes double quotes, not single ones; write it in double quotes.' : `A key in double quotes is expected here, but the text has ${describeHere()}; quote the key.`));
    }
    frame.key = readString();
    skipBlanks();
    if (text.charCodeAt(offset) !== 58) fail(offset, `A \`:\` is expected after the key ${JSON.stringify(frame.key.text)}, but the text has ${describeHere()}; add the colon.`);
    offset++;
  };

  // Each turn reads one value at `offset` (opening containers) and then closes every
  // container that ends after it.
  skipBlanks();
  for (;;) {
    skipBlanks();
    if (offset >= length) fail(length, 'The JSON ends where a value is expected; complete the document.');
    const c = text.charCodeAt(offset);
    if (c === 123 /* { */) {
      const node: MutableMapping = { kind: 'mapping', span: span(offset, offset + 1), entries: new Map() };
      offset++;
      skipBlanks();
      if (text.charCodeAt(offset) === 125 /* } */) {
        offset++;
        node.span = span(node.span.start, offset);
        attach(node);
      } else {
        const frame: JsonFrame = { kind: 'object', node };
        frames.push(frame);
        readKey(frame);
        continue;
      }
    } else if (c === 91 /* [ */) {
      const node: MutableSequence = { kind: 'sequence', span: span(offset, offset + 1), items: [] };
      offset++;
      skipBlanks();
      if (text.charCodeAt(offset) === 93 /* ] */) {
        offset++;
        node.span = span(node.span.start, offset);
        attach(node);
      } else {
        frames.push({ kind: 'array', node });
        continue;
      }
    } else {
      attach(readScalar());
    }
    // After a value: a separator continues the innermost container, a closer ends it.
    for (;;) {
      const frame = frames[frames.length - 1];
      skipBlanks();
      if (!frame) {
        if (offset < length) fail(offset, `The JSON value ends before ${describeHere()}; remove the extra text after it.`);
        return root as YamlNode;
      }
      const closer = frame.kind === 'object' ? 125 : 93;
      const here = text.charCodeAt(offset);
      if (here === 44 /* , */) {
        offset++;
        if (frame.kind === 'object') readKey(frame);
        break;
      }
      if (here === closer) {
        offset++;
        frames.pop();
        frame.node.span = span(frame.node.span.start, offset);
        attach(frame.node);
        continue;
      }
      const closeText = frame.kind === 'object' ? '`}`' : '`]`';
      if (offset >= length) fail(length, `The JSON ends inside ${frame.kind === 'object' ? 'an object' : 'a list'}; add the missing ${closeText}.`);
      fail(offset, `A \`,\` or ${closeText} is expected here, but the text has ${describeHere()}; add the missing separator.`);
    }
  }
}

const jsonWords: readonly (readonly [string, ScalarValue])[] = [
  ['true', true],
  ['false', false],
  ['null', null],
];

function isBlank(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

function assertNever(value: never): never {
  throw new Error(`unexpected value ${JSON.stringify(value)}`);
}
