/**
 * Semantic tokens: what each name in a file is, as the engine reads it, for colouring beyond what
 * the TextMate grammar can tell from the text alone.
 * - topology: node ids (a `declaration` where a node statement declares the node, `unresolved`
 *   where the node pins no card the bundle holds), card pins (`card` for the id, `cardVersion`
 *   for the version; `unresolved` when the bundle holds no such card; `version=` values are
 *   versions), `out=`/`in=` values (`port`), and attribute names by who reads them in their scope
 *   (graph, node, edge, or the defaults of one): `darkprintAttribute` (the pins and ports
 *   DarkPrint adds, see ./describe.ts `topologyAttributes`), `attractorAttribute` (the Attractor
 *   table), `unknownAttribute` (neither);
 * - card: vocabulary terms by their kind (`nodeType`, `dataType`, `tool`, `phase`,
 *   `riskMarker`; a term the vocabulary does not hold gets no token), the card's `id` and port
 *   names (`declaration`), `dependencies` entries (`card`). No `deprecated` modifier: no term a
 *   bundle can name is deprecated (docs/architecture.md#semantic-token-modifiers);
 * - extensions file: each local term's `id` (its kind, `declaration`) and `broader` (the kind of
 *   the term it names).
 * Tokens come sorted, never overlap and never span a line break. The types and modifiers are
 * named here; the server's legend numbers them.
 *
 * With a span, only the tokens that meet it are made: the topology's mentions and tokens are
 * searched by halving, and the attribute lists are read from the statement the span starts in.
 */
import { parseCardRef } from '../card/card-ref';
import { attractorAttribute, type AttractorScope } from '../syntax/attractor-table';
import { mentionChunkSize, mentionStart } from '../syntax/dot-mentions';
import { DotTokenCode, type DotGraph, type DotTokenTable } from '../syntax/dot-model';
import type { TermKind } from '../vocabulary/types';
import { hasLineBreak, partitionPoint, type Span } from '../text';
import { assertNever, cardIndex, cardOfNode, isCardPath, isExtensionsPath, isTopologyPath, textOf, topologyView, vocabularyOf, type TopologyView } from './context';
import { item } from './data-context';
import { stringScalars } from './data-scalars';
import { dataDocument, termKindOfField } from './data-tree';
import { topologyAttributes } from './describe';
import type { IdeBundle } from './types';

/** Every token type, in the order a legend may number them. */
export const semanticTokenTypes = [
  'node',
  'card',
  'cardVersion',
  'port',
  'attractorAttribute',
  'darkprintAttribute',
  'unknownAttribute',
  'nodeType',
  'dataType',
  'tool',
  'phase',
  'riskMarker',
] as const;

export type SemanticTokenType = (typeof semanticTokenTypes)[number];

/** Every modifier, in the order a legend may number them. */
export const semanticTokenModifiers = ['declaration', 'unresolved'] as const;

export type SemanticTokenModifier = (typeof semanticTokenModifiers)[number];

export interface SemanticToken {
  readonly start: number;
  readonly end: number;
  readonly type: SemanticTokenType;
  readonly modifiers: readonly SemanticTokenModifier[];
}

/** The tokens of `file`, or those that meet `span` when given. */
export function semanticTokens(bundle: IdeBundle, file: string, span?: Span): SemanticToken[] {
  const text = textOf(bundle, file);
  if (text === undefined) return [];
  const range = span ?? { start: 0, end: text.length };
  let tokens: SemanticToken[];
  if (isTopologyPath(file)) {
    const view = topologyView(bundle, file);
    tokens = view?.graph === undefined ? [] : topologyTokens(bundle, view, view.graph, range);
  } else if (isCardPath(file)) tokens = cardTokens(bundle, file, text);
  else if (isExtensionsPath(file)) tokens = extensionsTokens(bundle, file);
  else tokens = [];
  return withoutOverlaps(tokens.filter((t) => t.end > t.start && t.end >= range.start && t.start <= range.end && !hasLineBreak(text, t.start, t.end)));
}

/**
 * The tokens in order with each that overlaps an earlier one left out: recovery can read one
 * word twice (in `in=outcome="prose"` the word `outcome` is the port `in` names and the key of
 * the attribute that follows), and a client takes tokens that never overlap.
 */
function withoutOverlaps(tokens: SemanticToken[]): SemanticToken[] {
  tokens.sort((a, b) => a.start - b.start || a.end - b.end);
  const out: SemanticToken[] = [];
  let end = -1;
  for (const t of tokens) {
    if (t.start < end) continue;
    out.push(t);
    end = t.end;
  }
  return out;
}

const none: readonly SemanticTokenModifier[] = Object.freeze([]);
const declaration: readonly SemanticTokenModifier[] = Object.freeze(['declaration']);
const unresolved: readonly SemanticTokenModifier[] = Object.freeze(['unresolved']);
const unresolvedDeclaration: readonly SemanticTokenModifier[] = Object.freeze(['declaration', 'unresolved']);

/** Every token is made here, so that all have one shape (the server reads thousands of them in one loop). */
function token(start: number, end: number, type: SemanticTokenType, modifiers: readonly SemanticTokenModifier[]): SemanticToken {
  return { start, end, type, modifiers };
}

function spanToken(span: Span, type: SemanticTokenType, modifiers: readonly SemanticTokenModifier[]): SemanticToken {
  return token(span.start, span.end, type, modifiers);
}

// ---------------------------------------------------------------------- topology

/** Per graph, where each node statement starts (a mention there declares its node). */
const statementStartsCache = new WeakMap<DotGraph, ReadonlySet<number>>();

function statementStarts(graph: DotGraph): ReadonlySet<number> {
  let starts = statementStartsCache.get(graph);
  if (starts === undefined) {
    const set = new Set<number>();
    for (const node of graph.nodes) for (const statement of node.statements) set.add(statement.start);
    statementStartsCache.set(graph, (starts = set));
  }
  return starts;
}

function topologyTokens(bundle: IdeBundle, view: TopologyView, graph: DotGraph, range: Span): SemanticToken[] {
  const mentions = mentionTokens(bundle, graph, range);
  const attributes = attributeTokens(bundle, view.parse.table, range);
  // both lists are sorted and never overlap (a mention is an id in node position, never a key or value)
  const out: SemanticToken[] = [];
  let a = 0;
  for (const m of mentions) {
    while (a < attributes.length && attributes[a].start < m.start) out.push(attributes[a++]);
    out.push(m);
  }
  while (a < attributes.length) out.push(attributes[a++]);
  return out;
}

function mentionTokens(bundle: IdeBundle, graph: DotGraph, range: Span): SemanticToken[] {
  const mentions = graph.mentions;
  const starts = statementStarts(graph);
  /** Per node index: 1 when it pins a card the bundle holds, 2 when not (0: not read yet). */
  const resolved = new Uint8Array(graph.nodes.length);
  const out: SemanticToken[] = [];
  // (mentions never overlap, so those ending after the range's start begin at most one before the first starting there)
  const first = Math.max(0, partitionPoint(mentions.count, (k) => mentionStart(mentions, k) < range.start) - 1);
  // read chunk by chunk (see ../syntax/dot-model.ts `DotMentions`)
  for (let c = Math.floor(first / mentionChunkSize), m = first; c < mentions.chunks.length; c++) {
    const chunk = mentions.chunks[c];
    const size = Math.min(mentionChunkSize, mentions.count - c * mentionChunkSize);
    for (let k = m - c * mentionChunkSize; k < size; k++, m++) {
      const start = chunk.starts[k];
      if (start > range.end) return out;
      const node = chunk.nodes[k];
      if (resolved[node] === 0) resolved[node] = cardOfNode(bundle, graph.nodes[node]) !== undefined ? 1 : 2;
      const declares = starts.has(start);
      const modifiers = resolved[node] === 1 ? (declares ? declaration : none) : declares ? unresolvedDeclaration : unresolved;
      out.push(token(start, chunk.ends[k], 'node', modifiers));
    }
  }
  return out;
}

/** Who owns an attribute list: a scope, or nothing readable. */
type ListScope = AttractorScope | undefined;

/**
 * Attribute names and the values DarkPrint reads (pins, ports), from the token table. The scan
 * starts outside every list, at the statement the range starts in, and keeps which scope the
 * list it is in belongs to (read at its `[` as ./dot-context.ts `listOwner` reads it).
 */
function attributeTokens(bundle: IdeBundle, table: DotTokenTable, range: Span): SemanticToken[] {
  const { kinds, starts, ends, count, source } = table;
  const out: SemanticToken[] = [];
  let i = scanStart(table, partitionPoint(count, (k) => ends[k] < range.start));
  /** The scope of the list the scan is in; 'outside' between lists. */
  let scope: ListScope | 'outside' = 'outside';
  for (; i < count; i++) {
    const kind = kinds[i];
    if (starts[i] > range.end && scope === 'outside') break;
    if (kind === DotTokenCode.LBracket) {
      scope = ownerScope(table, i);
      continue;
    }
    if (kind === DotTokenCode.RBracket || kind === DotTokenCode.LBrace || kind === DotTokenCode.RBrace) {
      scope = 'outside';
      continue;
    }
    if (kind !== DotTokenCode.Equals || i === 0 || !isIdLike(kinds[i - 1])) continue;
    // `key = value`: in a list, of its owner's scope; at statement level, a graph attribute
    const where: ListScope = scope === 'outside' ? 'graph' : scope;
    if (where === undefined || starts[i - 1] > range.end) continue;
    const key = source.slice(starts[i - 1], ends[i - 1]);
    const name = kinds[i - 1] === DotTokenCode.String ? key.slice(1, -1) : key;
    out.push(token(starts[i - 1], ends[i - 1], attributeType(where, name), none));
    if (i + 1 >= count || !isIdLike(kinds[i + 1])) continue;
    const value = { start: starts[i + 1], end: ends[i + 1] };
    if (where === 'node' && name === 'card') out.push(...pinTokens(bundle, source, kinds[i + 1], value));
    else if (where === 'node' && name === 'version') out.push(spanToken(content(source, kinds[i + 1], value), 'cardVersion', none));
    else if (where === 'edge' && (name === 'out' || name === 'in')) out.push(spanToken(content(source, kinds[i + 1], value), 'port', none));
  }
  return out;
}

/**
 * Where to start reading so that the scan knows the list it is in: at `at`'s list's `[` when `at`
 * is inside one (the nearest `[`, `]`, `{` or `}` before it is a `[`), else at `at`.
 */
function scanStart(table: DotTokenTable, at: number): number {
  const { kinds } = table;
  for (let k = Math.min(at, table.count) - 1, steps = 0; k >= 0 && steps < scanBackLimit; k--, steps++) {
    const kind = kinds[k];
    if (kind === DotTokenCode.LBracket) return k;
    if (kind === DotTokenCode.RBracket || kind === DotTokenCode.LBrace || kind === DotTokenCode.RBrace) return at;
  }
  return at;
}

/** How far back `scanStart` looks for the list a range starts in (an attribute list is rarely longer). */
const scanBackLimit = 4096;

/** The scope of the list opened at `open`: the defaults' (`node [..]`), an edge's, a node's, or undefined. */
function ownerScope(table: DotTokenTable, open: number): ListScope {
  const { kinds, starts, ends, source } = table;
  let o = open - 1;
  // `a [x=1][y=2]`: earlier lists of the same statement
  while (o >= 0 && kinds[o] === DotTokenCode.RBracket) {
    let k = o - 1;
    while (k >= 0 && kinds[k] !== DotTokenCode.LBracket) k--;
    o = k - 1;
  }
  if (o < 0) return undefined;
  const last = o;
  // `a:port [..]`: back over the port to the id
  while (o >= 2 && kinds[o - 1] === DotTokenCode.Colon && isIdLike(kinds[o]) && isIdLike(kinds[o - 2])) o -= 2;
  const before = o > 0 ? kinds[o - 1] : undefined;
  const afterArrow = before === DotTokenCode.Arrow || before === DotTokenCode.Line;
  if (kinds[o] === DotTokenCode.Keyword && o === last && !afterArrow) {
    const word = source.slice(starts[o], ends[o]).toLowerCase();
    if (word === 'node' || word === 'edge' || word === 'graph') return word;
  }
  if (kinds[o] === DotTokenCode.RBrace) return 'edge';
  if (!isIdLike(kinds[o])) return undefined;
  return afterArrow ? 'edge' : 'node';
}

/** DarkPrint's own attribute names by scope (./describe.ts `topologyAttributes`), for a lookup per attribute of a large topology. */
const darkprintNames: ReadonlyMap<AttractorScope, ReadonlySet<string>> = (() => {
  const out = new Map<AttractorScope, Set<string>>();
  for (const a of topologyAttributes) {
    const names = out.get(a.scope);
    if (names === undefined) out.set(a.scope, new Set([a.name]));
    else names.add(a.name);
  }
  return out;
})();

function attributeType(scope: AttractorScope, name: string): SemanticTokenType {
  if (darkprintNames.get(scope)?.has(name) === true) return 'darkprintAttribute';
  if (attractorAttribute(scope, name) !== undefined) return 'attractorAttribute';
  return 'unknownAttribute';
}

/** `card="id@version"`: the id and the version, each marked `unresolved` when the bundle holds no such card. */
function pinTokens(bundle: IdeBundle, source: string, kind: number, value: Span): SemanticToken[] {
  const inner = content(source, kind, value);
  const written = source.slice(inner.start, inner.end);
  // (an escape or a concatenation reads as other text than is written: left to the grammar)
  if (written.includes('\\')) return [];
  const parsed = parseCardRef(written);
  const held = parsed !== undefined && cardIndex(bundle).byRef.has(`${parsed.id}@${parsed.version}`);
  const modifiers = held ? none : unresolved;
  const at = written.indexOf('@');
  if (at < 0) return [spanToken(inner, 'card', modifiers)];
  return [
    token(inner.start, inner.start + at, 'card', modifiers),
    token(inner.start + at + 1, inner.end, 'cardVersion', modifiers),
  ];
}

/** A value token's span without its quotes. */
function content(source: string, kind: number, value: Span): Span {
  if (kind !== DotTokenCode.String) return value;
  const closed = value.end - value.start >= 2 && source.charCodeAt(value.end - 1) === 34;
  return { start: value.start + 1, end: closed ? value.end - 1 : value.end };
}

function isIdLike(kind: number): boolean {
  return kind === DotTokenCode.Id || kind === DotTokenCode.Number || kind === DotTokenCode.String || kind === DotTokenCode.Html || kind === DotTokenCode.Keyword;
}

// ---------------------------------------------------------------------- cards and the extensions file

function cardTokens(bundle: IdeBundle, file: string, text: string): SemanticToken[] {
  const vocabulary = vocabularyOf(bundle);
  const out: SemanticToken[] = [];
  for (const scalar of stringScalars(dataDocument(file, text).root)) {
    const { path, value, span } = scalar;
    if (path.length === 1 && path[0] === 'id') out.push(spanToken(span, 'card', declaration));
    else if (path.length === 2 && path[0] === 'dependencies' && path[1] === item) out.push(spanToken(span, 'card', none));
    else if (path.length === 3 && (path[0] === 'inputs' || path[0] === 'outputs') && path[1] === item && path[2] === 'name') out.push(spanToken(span, 'port', declaration));
    else if (termKindOfField(path) !== undefined) {
      const term = vocabulary.get(value);
      if (term !== undefined) out.push(spanToken(span, termType(term.kind), none));
    }
  }
  return out;
}

function extensionsTokens(bundle: IdeBundle, file: string): SemanticToken[] {
  const vocabulary = vocabularyOf(bundle);
  const out: SemanticToken[] = [];
  for (const term of vocabulary.terms()) {
    const local = term.local;
    if (local === undefined || local.file !== file) continue;
    out.push(spanToken(local.span, termType(term.kind), declaration));
    const broader = term.broader !== undefined ? vocabulary.get(term.broader) : undefined;
    if (broader !== undefined && local.broaderSpan !== undefined) out.push(spanToken(local.broaderSpan, termType(broader.kind), none));
  }
  return out.sort((a, b) => a.start - b.start);
}

function termType(kind: TermKind): SemanticTokenType {
  switch (kind) {
    case 'node-type':
      return 'nodeType';
    case 'data-type':
      return 'dataType';
    case 'tool':
      return 'tool';
    case 'phase':
      return 'phase';
    case 'risk-marker':
      return 'riskMarker';
    default:
      return assertNever(kind);
  }
}
