/**
 * The DOT graph model the rest of the engine reads
 * (docs/compatibility.md#nodes-edges-and-defaults), with exact spans. Produced by `parseDot` in
 * ./dot-parser.ts. Attribute maps are `Map`s so that keys such as `__proto__` are inert.
 */
import type { Span } from '../text';
import type { Diagnostic } from '../diagnostics';

export interface DotAttribute {
  readonly key: string;
  /** The value after DarkPrint's string reading (`\"` unescaped, backslash-newline removed, `+` concatenation applied). */
  readonly value: string;
  readonly keySpan: Span;
  /** Span of the value token(s) as written, quotes included. */
  readonly valueSpan: Span;
  readonly quoted: boolean;
  /** True when the value came from a `node [...]`/`edge [...]` default rather than the statement itself. */
  readonly fromDefault: boolean;
}

export type DotAttributes = ReadonlyMap<string, DotAttribute>;

export interface DotNode {
  readonly id: string;
  /** The id token of its first appearance (quotes included when quoted). */
  readonly span: Span;
  readonly quoted: boolean;
  /** Effective attributes: defaults in scope merged with explicit ones (docs/compatibility.md#nodes-edges-and-defaults). */
  readonly attrs: DotAttributes;
  /** Spans of the node statements that declare it (id through `]`), in source order. */
  readonly statements: readonly Span[];
  /**
   * Set when the id could only be read by recovering from a `dot/parse-error` that names it:
   * an unquoted id with a hyphen (`code-builder`) or a DOT keyword in node position (`node -> x`).
   */
  readonly idError?: 'hyphenated' | 'keyword';
}

export interface DotEdge {
  readonly source: string;
  readonly target: string;
  readonly sourceSpan: Span;
  readonly targetSpan: Span;
  /** From the source endpoint to the end of the edge statement's attribute list (or its last endpoint). */
  readonly span: Span;
  readonly attrs: DotAttributes;
}

export interface DotGraph {
  readonly strict: boolean;
  readonly directed: boolean;
  readonly name?: string;
  readonly nameSpan?: Span;
  /** Span of the `graph`/`digraph` keyword. */
  readonly keywordSpan: Span;
  readonly strictSpan?: Span;
  readonly graphAttrs: DotAttributes;
  /** First-appearance order (including edge-only mentions). */
  readonly nodes: readonly DotNode[];
  /** Source order; chains expanded to pairs; subgraph endpoints expanded to member ids. */
  readonly edges: readonly DotEdge[];
  /** Every token that names a node in node position (see `DotMentions`). */
  readonly mentions: DotMentions;
}

/**
 * Every token that names a node in node position (node statements and edge endpoints, subgraph
 * members included), in source order: mention `i` names `DotGraph.nodes[node]` with the token
 * (or `+` run) over `[start, end)`, stored column-wise in chunks of `mentionChunkSize`
 * (./dot-mentions.ts reads them: `nodeOccurrences`, `mentionAt`, `mentionStart`…). Kept out of
 * the node objects on purpose: an edit in the middle of a topology moves the mentions after it,
 * and a node declared before the edit stays the same object however many later edges name it,
 * so every later layer keeps what it derived from it. In chunks of typed arrays so that a later
 * parse of the same file shares the full chunks before where it started reading, and the
 * collector has nothing to trace in them.
 */
export interface DotMentions {
  readonly count: number;
  /** The mentions in order, `mentionChunkSize` per chunk; only the last chunk may hold fewer. */
  readonly chunks: readonly DotMentionChunk[];
}

/** Up to `mentionChunkSize` mentions, column-wise: per mention, the index of its node in `DotGraph.nodes`, its start and its end. */
export interface DotMentionChunk {
  readonly nodes: Int32Array;
  readonly starts: Int32Array;
  readonly ends: Int32Array;
}

/** Every token kind, in code order: a token table stores `dotTokenKinds.indexOf(kind)` per token. */
export const dotTokenKinds = [
  'id', 'number', 'string', 'html', 'keyword',
  'arrow', 'line' /* -> and -- */,
  'lbrace', 'rbrace', 'lbracket', 'rbracket', 'semicolon', 'comma', 'equals', 'colon', 'plus',
  'hash-comment', 'line-comment', 'block-comment',
  'unknown',
] as const;

export type DotTokenKind = (typeof dotTokenKinds)[number];

/**
 * The same codes by name, for code that compares kinds in a hot loop: `table.kinds[i] ===
 * DotTokenCode.Arrow` is one comparison, where `tokenKind` first looks the name up. The bundler
 * and the compiler write the numbers in place. A test checks them against `dotTokenKinds`.
 */
export const enum DotTokenCode {
  Id, Number, String, Html, Keyword,
  Arrow, Line,
  LBrace, RBrace, LBracket, RBracket, Semicolon, Comma, Equals, Colon, Plus,
  HashComment, LineComment, BlockComment,
  Unknown,
}

export interface DotToken {
  readonly kind: DotTokenKind;
  readonly span: Span;
  /** Source text of the token. */
  readonly text: string;
  /** For strings: the value after DarkPrint's reading; for HTML-like literals: the text between the outer `<` `>`; otherwise the text. */
  readonly value: string;
  /** An `id` token that runs across hyphens (`code-builder`): not DOT, reported by the parser where it stands. */
  readonly hyphenated?: boolean;
  /** A string, HTML-like literal or block comment that is never closed (a `dot/parse-error`). */
  readonly unterminated?: boolean;
}

/**
 * The significant tokens of a file (comments excluded), stored column-wise so that reading a
 * large topology allocates three typed arrays instead of two objects per token: token `i` is of
 * kind `dotTokenKinds[kinds[i]]` over `[starts[i], ends[i])` of `source`. Plain data:
 * `tokenKind`, `tokenText`, `tokenValue`, `tokenSpan`, `tokenFlag` and `tokenAt`
 * (./dot-lexer.ts) read one token.
 */
export interface DotTokenTable {
  readonly source: string;
  readonly count: number;
  /** Kind codes: token `i` is of kind `dotTokenKinds[kinds[i]]` (see `tokenKind`). */
  readonly kinds: Uint8Array;
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  /** Values that differ from the ones derived from kind and span (escaped or unterminated strings, unclosed HTML-like literals), by index. */
  readonly values: ReadonlyMap<number, string>;
  /** `hyphenated` ids and `unterminated` strings and HTML-like literals, by index. */
  readonly flags: ReadonlyMap<number, 'hyphenated' | 'unterminated'>;
  /** The comment tokens, in source order (few in any file, so kept as objects). */
  readonly comments: readonly DotToken[];
}

export interface DotParseResult {
  /** Undefined only when no graph header could be found at all. Recovered even after errors. */
  readonly graph?: DotGraph;
  /** Every token including comments, for the IDE (built from `table` when first read). */
  readonly tokens: readonly DotToken[];
  /** `tokens` without comments (what the IDE reads): built when first read. */
  readonly significant: readonly DotToken[];
  /** The significant tokens, column-wise (what the parser and the lint read). */
  readonly table: DotTokenTable;
  /** dot/* diagnostics (parse errors, unsupported, not-directed, duplicate-node, self-loop). */
  readonly diagnostics: readonly Diagnostic[];
  /** The first token after the `}` that closes the first graph, when there is one (everything from there on is ignored). */
  readonly trailing?: Span;
}
