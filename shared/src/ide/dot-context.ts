/**
 * Where a cursor stands in a topology, read from the token stream rather than the graph, so it
 * works on half-typed text: inside which attribute list, owned by which statement (a node, an
 * edge, or `node`/`edge`/`graph` defaults), on an attribute name or a value, right after `->`,
 * where a statement starts.
 */
import { hasLineBreak, partitionPoint, type Span } from '../text';
import { DotTokenCode, dotTokenKinds, type DotEdge, type DotToken, type DotTokenKind, type DotTokenTable } from '../syntax/dot-model';
import { significantRange } from '../syntax/dot-lexer';
import type { TopologyView } from './context';

export type AttributeScope = 'node' | 'edge' | 'graph';

export type ListOwner =
  | { readonly kind: 'node'; readonly id: string; readonly token: DotToken }
  /** An edge statement's list: every pair of the statement (all the links of a chain, every member of a subgraph end), in graph order. */
  | { readonly kind: 'edge'; readonly edges: readonly EdgeEnds[]; readonly token: DotToken }
  | { readonly kind: 'defaults'; readonly scope: AttributeScope };

export interface EdgeEnds {
  readonly source: string;
  readonly target: string;
  readonly edge?: DotEdge;
}

export type AttributeSlot =
  | {
      readonly kind: 'key';
      readonly owner: ListOwner;
      /** The partly typed name (empty at the cursor when nothing is typed). */
      readonly span: Span;
    }
  | {
      readonly kind: 'value';
      readonly owner: ListOwner | { readonly kind: 'graph-statement' };
      readonly key: string;
      readonly keyToken: DotToken;
      /** The value's text as written so far, quotes excluded. */
      readonly content: Span;
      /** True when the value is (being) written between quotes. */
      readonly quoted: boolean;
      /** True when there is no value token yet (right after `=`). */
      readonly empty: boolean;
      /** True for a quoted value whose closing quote is written. */
      readonly closed: boolean;
    };

export function isIdLike(kind: DotTokenKind | undefined): boolean {
  return kind === 'id' || kind === 'number' || kind === 'string' || kind === 'html' || kind === 'keyword';
}

/** Index of the last token whose start is before `offset`, or -1. */
export function indexBefore(tokens: readonly DotToken[], offset: number): number {
  let lo = 0;
  let hi = tokens.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (tokens[mid].span.start < offset) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** Index of the token that covers `offset` (or ends exactly at it), or -1. A token starting at `offset` wins over one ending there. */
export function indexAt(tokens: readonly DotToken[], offset: number): number {
  const before = indexBefore(tokens, offset + 1);
  if (before < 0) return -1;
  const t = tokens[before];
  if (t.span.start <= offset && offset < t.span.end) return before;
  if (t.span.end === offset) return before;
  const previous = before - 1;
  if (previous >= 0 && tokens[previous].span.end === offset) return previous;
  return -1;
}

/**
 * The `[` of the attribute list the cursor is inside, as an index into the significant tokens; -1
 * when outside every list. A `;` does not end the walk: attributes in a list may be separated by
 * `;` as by `,` (docs/compatibility.md#dot-dialect). The walk ends at a `]`, `{`, `}` or edge
 * operator, after `listWalkLimit` tokens, and, given the text, where the parser ends a list left
 * open: at an id that starts a line and reads as a statement (followed by `->`, `--`, `[`, `;`, `}`
 * or nothing), before the word the cursor is in.
 */
export function enclosingList(tokens: readonly DotToken[], offset: number, text?: string): number {
  let i = indexBefore(tokens, offset);
  let steps = 0;
  while (i >= 0 && steps < listWalkLimit) {
    const t = tokens[i];
    if (text !== undefined && t.span.end < offset && isIdLike(t.kind) && startsLine(text, t.span.start) && endsStatement(tokens[i + 1]?.kind)) return -1;
    switch (t.kind) {
      case 'lbracket':
        return i;
      case 'rbracket':
        return t.span.end > offset ? indexOpening(tokens, i) : -1;
      case 'lbrace':
      case 'rbrace':
      case 'arrow':
      case 'line':
        return -1;
      default:
        break;
    }
    i--;
    steps++;
  }
  return -1;
}

/** True when only blanks stand between the start of its line (or of the text) and `offset`. */
function startsLine(text: string, offset: number): boolean {
  for (let k = offset - 1; k >= 0; k--) {
    const c = text.charCodeAt(k);
    if (c === 10 || c === 13) return true;
    if (c !== 32 && c !== 9) return false;
  }
  return true;
}

/** True when `brace` (a `}` of the file) closes the graph: braces balance there, counted from the file's start. */
function closesGraph(view: TopologyView, brace: DotToken): boolean {
  const { kinds, starts, count } = view.parse.table;
  const at = partitionPoint(count, (k) => starts[k] < brace.span.start);
  let depth = 0;
  for (let k = 0; k <= at && k < count; k++) {
    if (kinds[k] === DotTokenCode.LBrace) depth++;
    else if (kinds[k] === DotTokenCode.RBrace) depth--;
  }
  return depth <= 0;
}

/** The kinds after an id that make it a statement of its own, as the parser reads an open list (or the end). */
function endsStatement(kind: DotTokenKind | undefined): boolean {
  return kind === undefined || kind === 'arrow' || kind === 'line' || kind === 'lbracket' || kind === 'semicolon' || kind === 'rbrace';
}

/** How many tokens `enclosingList` walks back at most. */
const listWalkLimit = 2000;

function indexOpening(tokens: readonly DotToken[], close: number): number {
  for (let i = close - 1; i >= 0; i--) {
    const kind = tokens[i].kind;
    if (kind === 'lbracket') return i;
    if (kind === 'rbracket' || kind === 'lbrace' || kind === 'rbrace') return -1;
  }
  return -1;
}

/**
 * The significant tokens around `offset` that the readings of this file look at from there
 * (`attributeSlot`, `afterArrow`, `listOwner`, `enclosingList` and the keys of the list), in
 * place of the whole list: right after an edit that list is not made yet, and making it makes an
 * object per token of the file (several milliseconds for a long topology, on every completion
 * typed in its middle). Indexes are into the returned list; all these readings take it as they
 * take the whole list, with the same results:
 * - backwards, it starts three tokens before the last `;`, `{` or `}` that lies outside every
 *   attribute list (brackets counted from the cursor back; when the cursor, or the start of the
 *   token it is at the end of, is inside a list, counted from that list's `[`, so that the `;`
 *   between its attributes do not count), or before the id that starts a statement written on
 *   its own line without a `;` before it (see `startsStatement`), not
 *   counting the token the cursor is at the end of (hover reads from that token's start). Every
 *   walk back from the cursor or from that token stops at such a token or inside the lists after
 *   it, and reads at most two tokens before an owner, then back over any port specifier there
 *   (`a:p -> b [`) to the source's id, which the list also starts before; so does the step
 *   limit of `enclosingList`, which counts the same tokens;
 * - forwards, it ends two tokens after the first `[`, `]` or `}` that starts at or after the
 *   cursor: the keys of the list the cursor is in are read up to such a token (there is none
 *   between the list's `[` and the cursor), everything else one token ahead at most;
 * - when either is not found within `windowLimit` tokens, the list runs to that end of the file.
 */
export function tokensNear(view: TopologyView, offset: number): readonly DotToken[] {
  const table = view.parse.table;
  const { from, to } = windowAt(table, offset, view.text);
  return significantRange(table, from, to);
}

/**
 * `tokensNear` with the comments among them (and before them when they start the file, after
 * them when they end it), in source order: what `indexAt` over the list with comments reads at
 * `offset`. The token before the one a cursor is at is always in it (the list starts at least
 * three tokens before its cursor, or at the start of the file).
 */
export function tokensAndCommentsNear(view: TopologyView, offset: number): readonly DotToken[] {
  const table = view.parse.table;
  const { from, to } = windowAt(table, offset, view.text);
  const tokens = significantRange(table, from, to);
  const comments = table.comments;
  const low = from === 0 ? -Infinity : table.starts[from];
  const high = to === table.count ? Infinity : table.ends[to - 1];
  let c = partitionPoint(comments.length, (k) => comments[k].span.start < low);
  const out: DotToken[] = [];
  for (const t of tokens) {
    while (c < comments.length && comments[c].span.start < t.span.start) out.push(comments[c++]);
    out.push(t);
  }
  while (c < comments.length && comments[c].span.start < high) out.push(comments[c++]);
  return out;
}

/** The token indexes `tokensNear` takes, from `from` up to `to`. */
function windowAt(table: DotTokenTable, offset: number, text: string): { from: number; to: number } {
  const { kinds, starts, count } = table;
  const at = partitionPoint(count, (k) => starts[k] < offset);
  // (from the cursor, and from the start of the token it is at the end of, as hover reads)
  const open = Math.min(...[listOpening(kinds, at), listOpening(kinds, at - 1)].filter((k) => k >= 0), at);
  let from = 0;
  let depth = 0;
  for (let k = open - 1; k >= 0 && k >= at - windowLimit; k--) {
    const kind = kinds[k];
    if (kind === DotTokenCode.RBracket) depth++;
    else if (kind === DotTokenCode.LBracket) depth = Math.max(0, depth - 1);
    else if (depth === 0 && k < at - 1 && (kind === DotTokenCode.Semicolon || kind === DotTokenCode.LBrace || kind === DotTokenCode.RBrace || startsStatement(table, k, text))) {
      // (and, before a statement that starts a line, back over the ports of an edge's source
      // on the line above, `a:p ->`, which `listOwner` reads back to its id)
      let source = k - 2;
      while (source >= 2 && kinds[source - 1] === DotTokenCode.Colon && isIdLikeCode(kinds[source]) && isIdLikeCode(kinds[source - 2])) source -= 2;
      from = Math.max(0, Math.min(k - 3, source - 1));
      break;
    }
  }
  let to = count;
  for (let k = at; k < count && k < at + windowLimit; k++) {
    const kind = kinds[k];
    if (kind === DotTokenCode.LBracket || kind === DotTokenCode.RBracket || kind === DotTokenCode.RBrace) {
      to = Math.min(count, k + 3);
      break;
    }
  }
  return { from, to };
}

/**
 * True when token `k` starts a statement written without `;` before it, as `enclosingList` (given
 * the text) and the parser read it: an id at the start of a line, followed by an edge operator,
 * `[`, `;`, `}` or nothing. Every walk back from after it stops there or before it.
 */
function startsStatement(table: DotTokenTable, k: number, text: string): boolean {
  const next = k + 1 < table.count ? dotTokenKinds[table.kinds[k + 1]] : undefined;
  return isIdLike(dotTokenKinds[table.kinds[k]]) && endsStatement(next) && startsLine(text, table.starts[k]);
}

/**
 * The `[` that `enclosingList` finds walking back from token `at` (exclusive), as a token index;
 * -1 when none. It leaves out `enclosingList`'s stop at a statement that starts a line, so it
 * finds the same `[` or one further back: the window is then longer than needed, never short.
 */
function listOpening(kinds: DotTokenTable['kinds'], at: number): number {
  for (let k = at - 1; k >= 0 && k >= at - listWalkLimit; k--) {
    switch (kinds[k]) {
      case DotTokenCode.LBracket:
        return k;
      case DotTokenCode.RBracket:
      case DotTokenCode.LBrace:
      case DotTokenCode.RBrace:
      case DotTokenCode.Arrow:
      case DotTokenCode.Line:
        return -1;
      default:
        break;
    }
  }
  return -1;
}

/** `isIdLike` on a kind code of a token table. */
function isIdLikeCode(code: number): boolean {
  return isIdLike(dotTokenKinds[code]);
}

/** How far `tokensNear` looks for where its list starts and ends, in tokens each way. */
const windowLimit = 4096;

/** The statement an attribute list at `open` (an index into `tokens`) belongs to. */
export function listOwner(view: TopologyView, open: number, tokens: readonly DotToken[] = view.significant): ListOwner | undefined {
  let o = open - 1;
  // `a [x=1][y=2]`: earlier lists of the same statement.
  while (o >= 0 && tokens[o].kind === 'rbracket') {
    let k = o - 1;
    while (k >= 0 && tokens[k].kind !== 'lbracket') k--;
    o = k - 1;
  }
  if (o < 0) return undefined;
  // `a:port [..]`, `a -> b:port:compass [..]`: the parser skips the port, and so does the owner
  const last = o;
  o = endpointStart(tokens, o);
  const t = tokens[o];
  if (t.kind === 'keyword' && o === last) {
    const word = t.text.toLowerCase();
    const previous = tokens[o - 1]?.kind;
    if ((word === 'node' || word === 'edge' || word === 'graph') && previous !== 'arrow' && previous !== 'line') return { kind: 'defaults', scope: word };
  }
  if (!isIdLike(t.kind) && t.kind !== 'rbrace') return undefined;
  const before = tokens[o - 1]?.kind;
  if (before === 'arrow' || before === 'line' || t.kind === 'rbrace') {
    // the edges that end at the list's last endpoint, and the others of their statement (a
    // chain `a -> b -> c [..]` or a subgraph end: every pair reaches to the end of the list)
    const statementEnds = new Set<number>();
    const all = view.graph?.edges ?? [];
    for (const edge of all) if (edge.targetSpan.end === t.span.end && edge.targetSpan.start <= t.span.start) statementEnds.add(edge.span.end);
    const edges: EdgeEnds[] = [];
    if (statementEnds.size > 0) for (const edge of all) if (statementEnds.has(edge.span.end)) edges.push({ source: edge.source, target: edge.target, edge });
    if (edges.length === 0 && t.kind !== 'rbrace') {
      const source = o >= 2 ? tokens[endpointStart(tokens, o - 2)] : undefined;
      if (source !== undefined && isIdLike(source.kind)) edges.push({ source: source.value, target: t.value });
    }
    return { kind: 'edge', edges, token: t };
  }
  return { kind: 'node', id: t.value, token: t };
}

/**
 * The index of the id an endpoint that ends at token `last` starts with: `last` itself, or, when
 * `last` is the port name or compass point of `id:port` or `id:port:compass`, the id before them.
 */
export function endpointStart(tokens: readonly DotToken[], last: number): number {
  let k = last;
  while (k >= 2 && tokens[k - 1].kind === 'colon' && isIdLike(tokens[k].kind) && isIdLike(tokens[k - 2].kind)) k -= 2;
  return k;
}

/** The attribute name or value at the cursor, inside a list or in a statement-level `key = value` (`tokens`: the file's, or those `tokensNear` gives). */
export function attributeSlot(view: TopologyView, offset: number, tokens: readonly DotToken[] = view.significant): AttributeSlot | undefined {
  const open = enclosingList(tokens, offset, view.text);
  // The token the cursor is in or at the end of (the word being typed), if any.
  const before = indexBefore(tokens, offset);
  const touching = before >= 0 && tokens[before].span.end >= offset ? tokens[before] : undefined;
  let inside = touching !== undefined && (isIdLike(touching.kind) || touching.kind === 'equals') ? touching : undefined;
  let insideIndex = inside !== undefined ? before : -1;
  // A name that starts at the cursor (`[|goal="x"]`) is the word completed, as one the cursor ends.
  const next = tokens[before + 1];
  if (inside === undefined && next !== undefined && next.span.start === offset && (next.kind === 'id' || next.kind === 'keyword') && tokens[before]?.kind !== 'equals') {
    inside = next;
    insideIndex = before + 1;
  }
  const previousIndex = inside !== undefined ? insideIndex - 1 : before;
  const previous = previousIndex >= 0 ? tokens[previousIndex] : undefined;
  /** A bare value that starts right at the cursor (`shape=|box`), completed as one the cursor is in; undefined before a quoted one. */
  const valueStartingHere = (equalsIndex: number): DotToken | undefined => {
    const value = tokens[equalsIndex + 1];
    return value !== undefined && value.span.start === offset && isIdLike(value.kind) && value.kind !== 'string' && value.kind !== 'html' ? value : undefined;
  };

  // A value: right after `=`, or in the token that follows it.
  const valueOf = (equalsIndex: number, valueToken: DotToken | undefined): AttributeSlot | undefined => {
    const keyToken = tokens[equalsIndex - 1];
    if (keyToken === undefined || !isIdLike(keyToken.kind)) return undefined;
    const owner = open >= 0 ? listOwner(view, open, tokens) : { kind: 'graph-statement' as const };
    if (owner === undefined) return undefined;
    if (valueToken === undefined) {
      return { kind: 'value', owner, key: keyToken.value, keyToken, content: { start: offset, end: offset }, quoted: false, empty: true, closed: false };
    }
    if (valueToken.kind === 'string') {
      const closed = !valueToken.unterminated && valueToken.text.length >= 2;
      if (closed && offset >= valueToken.span.end) return undefined; // after the closing quote
      const end = closed ? valueToken.span.end - 1 : valueToken.span.end;
      return { kind: 'value', owner, key: keyToken.value, keyToken, content: { start: valueToken.span.start + 1, end: Math.max(end, valueToken.span.start + 1) }, quoted: true, empty: false, closed };
    }
    if (!isIdLike(valueToken.kind)) return undefined;
    return { kind: 'value', owner, key: keyToken.value, keyToken, content: valueToken.span, quoted: false, empty: false, closed: false };
  };

  if (inside !== undefined && inside.kind !== 'equals' && previous?.kind === 'equals') return valueOf(previousIndex, inside);
  // `key=|"…"` and `key= |"…"`: the cursor sits right before a quoted value, outside its quotes.
  const beforeQuoted = (equalsIndex: number): boolean => {
    const value = tokens[equalsIndex + 1];
    return value !== undefined && value.span.start === offset && isIdLike(value.kind) && valueStartingHere(equalsIndex) === undefined;
  };
  if (inside?.kind === 'equals' && inside.span.end === offset) return beforeQuoted(insideIndex) ? undefined : valueOf(insideIndex, valueStartingHere(insideIndex));
  if (inside === undefined && previous?.kind === 'equals') return beforeQuoted(previousIndex) ? undefined : valueOf(previousIndex, valueStartingHere(previousIndex));
  if (open < 0) return undefined;
  const owner = listOwner(view, open, tokens);
  if (owner === undefined) return undefined;
  // A name: at the start of the list, after a separator, or after a complete `key=value`.
  const startsName = (index: number): boolean => {
    const t = tokens[index];
    if (t === undefined) return false;
    if (t.kind === 'lbracket' || t.kind === 'comma' || t.kind === 'semicolon') return true;
    // After a complete value, a name needs a blank first (`a=1 b`), not `a="1"b`.
    return isIdLike(t.kind) && tokens[index - 1]?.kind === 'equals' && t.span.end < offset && (inside === undefined || t.span.end < inside.span.start);
  };
  if (inside !== undefined) {
    if (!(inside.kind === 'id' || inside.kind === 'keyword') || !startsName(insideIndex - 1)) return undefined;
    return { kind: 'key', owner, span: inside.span };
  }
  if (!startsName(previousIndex)) return undefined;
  return { kind: 'key', owner, span: { start: offset, end: offset } };
}

/** True when the cursor stands where an edge's target belongs: right after `->` (possibly in a partly typed id). */
export function afterArrow(view: TopologyView, offset: number, tokens: readonly DotToken[] = view.significant): Span | undefined {
  if (enclosingList(tokens, offset, view.text) >= 0) return undefined;
  const { here, previous } = wordAt(tokens, offset);
  if (previous === undefined || (previous.kind !== 'arrow' && previous.kind !== 'line')) return undefined;
  if (here === undefined) return { start: offset, end: offset };
  if (here.kind === 'id' || here.kind === 'keyword' || here.kind === 'string' || here.kind === 'number') return here.span;
  return undefined;
}

/**
 * The id-like token the cursor is in, at the end of, or at the start of (`-> |target`), and the
 * token before it (or before the cursor, when there is none).
 */
function wordAt(tokens: readonly DotToken[], offset: number): { here: DotToken | undefined; hereIndex: number; previous: DotToken | undefined; previousIndex: number } {
  const before = indexBefore(tokens, offset);
  if (before >= 0 && tokens[before].span.end >= offset && isIdLike(tokens[before].kind)) return { here: tokens[before], hereIndex: before, previous: tokens[before - 1], previousIndex: before - 1 };
  const next = tokens[before + 1];
  if (next !== undefined && next.span.start === offset && isIdLike(next.kind)) return { here: next, hereIndex: before + 1, previous: tokens[before], previousIndex: before };
  return { here: undefined, hereIndex: -1, previous: tokens[before], previousIndex: before };
}

/**
 * Where a statement of the graph's body, or an id inside a subgraph (`a -> { b | }`), may start
 * with a node id: after `{`, `;`, a subgraph's `}`, `]` or after a complete statement's last id,
 * outside every attribute list, and not where the word is the name of a subgraph or a graph, or
 * a statement-level attribute's key (`rankdir|=LR`) or value, nor after the graph's closing `}`.
 * Gives the span of the word being typed (empty at the cursor when none), or undefined.
 */
export function statementStart(view: TopologyView, offset: number, tokens: readonly DotToken[] = view.significant): Span | undefined {
  if (enclosingList(tokens, offset, view.text) >= 0) return undefined;
  const body = view.parse.table.kinds.indexOf(DotTokenCode.LBrace);
  if (body < 0 || offset <= view.parse.table.starts[body]) return undefined;
  const { here, hereIndex, previous, previousIndex } = wordAt(tokens, offset);
  if (here !== undefined && here.kind !== 'id' && here.kind !== 'string' && here.kind !== 'number') return undefined;
  if (previous === undefined) return undefined;
  const after = here !== undefined ? tokens[hereIndex + 1] : undefined;
  if (after?.kind === 'equals') return undefined;
  switch (previous.kind) {
    case 'rbrace':
      // (not after the graph's own closing brace: nothing may follow it)
      return closesGraph(view, previous) ? undefined : (here?.span ?? { start: offset, end: offset });
    case 'lbrace':
    case 'semicolon':
    case 'rbracket':
      return here?.span ?? { start: offset, end: offset };
    case 'id':
    case 'string':
    case 'number': {
      // `subgraph s |`, `digraph g |` and `x = y |`… are not, `a -> b |` and `a |` are, and so is
      // a line after `x = y` (a statement needs no `;`)
      const owner = tokens[previousIndex - 1];
      if (owner?.kind === 'keyword') return undefined;
      if (owner?.kind === 'equals' && !hasLineBreak(view.text, previous.span.end, here?.span.start ?? offset)) return undefined;
      return here?.span ?? { start: offset, end: offset };
    }
    default:
      return undefined;
  }
}
