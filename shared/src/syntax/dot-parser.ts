/**
 * The resilient DOT parser for DarkPrint's dialect (docs/compatibility.md#dot-dialect,
 * docs/compatibility.md#parse-errors-and-recovery).
 *
 * `parseDot` never throws and always returns what it could read: the graph is recovered
 * statement by statement, so a typo on one line leaves every other node and edge in place.
 * A broken statement is skipped to the next `;`, to the next line that starts a statement, or
 * to the `}` that closes its block; a broken attribute is skipped to the next `,`/`;`/`]` of its
 * list. Parse errors stay `dot/parse-error` errors (DarkPrint refuses such a file), at most 20
 * of them plus one "too many" line.
 *
 * Semantics (docs/compatibility.md#nodes-edges-and-defaults): keywords are case-insensitive;
 * `node`/`edge`/`graph [..]` set scoped defaults (a root `graph [..]` also sets graph attributes);
 * subgraphs are flattened and copy the defaults in force; edge chains expand to consecutive pairs,
 * a subgraph endpoint to all of its members; nodes keep first-appearance order and position; a bare
 * mention never changes an existing node; a re-declaration overwrites explicit keys
 * (`dot/duplicate-node` when a value changes) and fills missing keys from the defaults in scope;
 * `strict` merges parallel edges.
 *
 * This file is the grammar, read top-down: `parseDot`, the parse's state (`Parser`), the graph
 * and its header, the statements, the graph being built, the attribute lists, the ids and values,
 * recovery, the token helpers and the findings. What a parse of an edited text takes from the
 * earlier parse (resuming before the edit, rejoining after it) is ./dot-resume.ts; the grammar
 * only asks it, at the top-level statements (`parseStatements`). The node builders and attribute
 * maps it makes are ./dot-builders.ts.
 */
import type { Diagnostic, DiagnosticCode } from '../diagnostics';
import { diagnosticInfo } from '../diagnostics';
import type { Span } from '../text';
import { suggestNodeId } from './attractor-table';
import { AttributeList, layered, type NodeBuilder } from './dot-builders';
import { lexDot, maxParseErrors, tokenFlag, tokenSpan, tokenText, tokenValue, type DotLexResult } from './dot-lexer';
import { mentionWriter, type MentionWriter } from './dot-mentions';
import { DotTokenCode as Code, type DotAttribute, type DotEdge, type DotGraph, type DotParseResult, type DotTokenTable } from './dot-model';
import { keepParse, maxRejoinTries, ownNode, parseMadeFrom, rejoin, resumableOf, resumeAt, suffixOf, type Rejoined, type ResumeStart } from './dot-resume';

export { dotParseReuse, dotParseSerial, type DotParseReuse, type DotTaken } from './dot-resume';

/** Subgraphs nested deeper than this are a parse error (docs/compatibility.md#parse-errors-and-recovery). */
export const maxSubgraphDepth = 100;

/** Distinct default attributes one scope keeps (see `withDefaults`). */
export const maxDefaultKeys = 100;

/**
 * Parses `text`. Given `previous`, an earlier parse of the same file, it starts after the
 * top-level statements the two texts share instead of at the beginning (see `resumeAt` in
 * ./dot-resume.ts): those statements' nodes, edges, tokens and findings are taken from `previous`,
 * the nodes that no later statement declares again as the same objects (a mention alone changes
 * no node: the mentions are the graph's, see `DotMentions`). The result is the same as without
 * `previous` (a property test in dot-parser-resume.test.ts holds the two together).
 */
export function parseDot(text: string, file = 'topology.dot', previous?: DotParseResult): DotParseResult {
  // the same text again from the same earlier parse: the parse made then
  const made = parseMadeFrom(previous, text, file);
  if (made !== undefined) return made;
  const start = previous === undefined ? undefined : resumeAt(previous, text, file);
  const lexed = lexDot(text, file, start === undefined ? undefined : { table: start.table, token: start.token, ...suffixOf(start, text) });
  const p = newParser(text, file, lexed, start);
  const graph = parseGraph(p);
  const resume = resumableOf(p, readsCleanly(p) && p.pos >= p.count, graph, p.openSpan, start);
  release(p);
  const trailing = graph !== undefined && p.pos < p.count ? reportTrailing(p) : undefined;
  const errors = listedErrors(p);
  // A file this broken is reported by its parse errors alone: warnings about it are noise.
  if (lexed.parseErrorCount + p.parseErrorCount > maxParseErrors) return parseResult(lexed, graph, errors, trailing);
  const result = parseResult(lexed, graph, listedFindings(p, errors), trailing);
  keepParse(result, text, file, previous, start, p.rejoined, resume);
  return result;
}

// ---------------------------------------------------------------------- the parse's state

/**
 * Everything one parse reads and builds, passed to every function of the grammar. One object
 * literal makes it (`newParser`), so that every parse's state has the same shape.
 */
interface Parser {
  // the text and its significant tokens
  readonly text: string;
  readonly file: string;
  readonly lexed: DotLexResult;
  readonly table: DotTokenTable;
  readonly codes: Uint8Array;
  readonly starts: Int32Array;
  readonly ends: Int32Array;
  readonly count: number;
  /** The token being read. */
  pos: number;

  // findings
  readonly parseErrors: Diagnostic[];
  parseErrorCount: number;
  /** The findings that are not parse errors, at most `maxParseErrors + 1` per code (see `report`). */
  readonly other: Diagnostic[];
  /** Per code, how many of `other` were met (built or not). */
  readonly reportCounts: Map<DiagnosticCode, number>;
  /** What the graph is, beyond a plain `digraph`, and what is reported once per file. */
  strict: boolean;
  directed: boolean;
  notDirectedReported: boolean;
  portsReported: boolean;
  unclosedReported: boolean;
  defaultsCapReported: boolean;

  // the graph being built
  readonly graphAttrs: Map<string, DotAttribute>;
  readonly nodes: Map<string, NodeBuilder>;
  /** Each node's index in `nodes` (its place in the graph's list), for its mentions. */
  readonly nodeIndexes: Map<string, number>;
  /** Nodes whose attribute map is their own (after a re-declaration); the others share views. */
  readonly ownedAttrs: Map<NodeBuilder, Map<string, DotAttribute>>;
  /** A resumed parse extends the earlier edges before where it resumes (`ResumeStart.edges`, a new array). */
  readonly edges: DotEdge[];
  /** In `strict` graphs: source -> target -> the attributes of the edge that parallel edges merge into. */
  readonly strictIndex: Map<string, Map<string, Map<string, DotAttribute>>>;
  readonly selfLoops: Set<string>;
  /**
   * Every node mention made inside an open subgraph, in order. A subgraph's members are the
   * distinct ids of its slice of this log, computed only when the subgraph is an edge endpoint,
   * so deep nesting costs nothing per level.
   */
  readonly mentionLog: string[];
  openSubgraphs: number;
  /**
   * Every node mention, in source order (`DotGraph.mentions`). A resumed parse starts with the
   * earlier parse's mentions before where it resumes, sharing their full chunks.
   */
  readonly mentions: MentionWriter;
  /** The `{` that opens the graph body, once read. */
  openSpan: Span | undefined;
  /** Per top-level statement: its first token, and the root defaults in force there (what a later parse resumes from). */
  readonly topStatements: number[];
  readonly topNodeDefaults: ReadonlyMap<string, DotAttribute>[];
  readonly topEdgeDefaults: ReadonlyMap<string, DotAttribute>[];

  // attribute lists (see `readKey` and `collectAttribute`)
  /** One string per distinct attribute name, shared by every list that sets it. */
  readonly keyNames: Map<string, string>;
  /** The first few names, matched against the source text directly, and the first code unit of each. */
  readonly frequentKeys: string[];
  readonly frequentFirsts: number[];
  /** The list being read is gathered here, then copied into an `AttributeList` of exactly its size. */
  readonly listAttributes: DotAttribute[];
  /** How many of `listAttributes` belong to the list being read (the rest are stale). */
  listCount: number;
  readonly listIndex: Map<string, number>;
  /** Where the last `parseAttributeLists` stopped: the end of its last `]` (or of what it read). */
  listEnd: number;

  // what it takes from an earlier parse (./dot-resume.ts)
  /** Where it resumed, when it did. */
  readonly start: ResumeStart | undefined;
  /** Nodes taken from the earlier parse and not yet declared again: copied before they change (see `ownNode`). */
  readonly shared: Set<NodeBuilder>;
  /** The lexer took the earlier tokens from the one after this on (see `LexResume.suffix`); a statement there may rejoin. */
  readonly rejoinAfter: number;
  rejoinTries: number;
  /** What it took from the earlier parse after the edit, when it rejoined it (see `rejoin`). */
  rejoined: Rejoined | undefined;
}

function newParser(text: string, file: string, lexed: DotLexResult, start: ResumeStart | undefined): Parser {
  const table = lexed.table;
  const other: Diagnostic[] = [];
  const reportCounts = new Map<DiagnosticCode, number>([['dot/unsupported', lexed.htmlCount]]);
  if (start !== undefined) {
    for (const d of start.diagnostics) {
      other.push(d);
      reportCounts.set(d.code, (reportCounts.get(d.code) ?? 0) + 1);
    }
  }
  return {
    text,
    file,
    lexed,
    table,
    codes: table.kinds,
    starts: table.starts,
    ends: table.ends,
    count: table.count,
    pos: 0,
    parseErrors: [],
    parseErrorCount: 0,
    other,
    reportCounts,
    strict: false,
    directed: true,
    notDirectedReported: false,
    portsReported: false,
    unclosedReported: false,
    defaultsCapReported: false,
    graphAttrs: new Map(),
    nodes: new Map(),
    nodeIndexes: new Map(),
    ownedAttrs: new Map(),
    edges: start === undefined ? [] : start.edges,
    strictIndex: new Map(),
    selfLoops: new Set(),
    mentionLog: [],
    openSubgraphs: 0,
    mentions: start === undefined ? mentionWriter() : mentionWriter(start.mentions, start.mentionsBefore),
    openSpan: undefined,
    topStatements: start === undefined ? [] : start.statements,
    topNodeDefaults: start === undefined ? [] : start.nodeDefaults,
    topEdgeDefaults: start === undefined ? [] : start.edgeDefaults,
    keyNames: new Map(),
    frequentKeys: [],
    frequentFirsts: [],
    listAttributes: [],
    listCount: 0,
    listIndex: new Map(),
    listEnd: 0,
    start,
    shared: start === undefined ? new Set() : start.shared,
    rejoinAfter: lexed.rejoined === undefined ? Number.POSITIVE_INFINITY : lexed.rejoined.token,
    rejoinTries: 0,
    rejoined: undefined,
  };
}

/** True when nothing read so far makes the graph other than a clean, plain `digraph` (what an earlier parse must have been to be resumed or rejoined). */
function readsCleanly(p: Parser): boolean {
  const lexed = p.lexed;
  return p.parseErrorCount === 0 && lexed.parseErrorCount === 0 && lexed.diagnostics.length === 0 && !p.strict && p.directed &&
    !p.notDirectedReported && !p.portsReported && !p.unclosedReported && !p.defaultsCapReported;
}

/**
 * Drops the working containers' references once the graph is made: any of them the garbage
 * collector has already moved to the old generation would otherwise keep this parse's newer
 * objects alive through later young collections, long after the result itself is gone.
 */
function release(p: Parser): void {
  p.shared.clear();
  p.nodes.clear();
  p.nodeIndexes.clear();
  p.edges.length = 0;
  p.mentionLog.length = 0;
  p.keyNames.clear();
  p.listAttributes.length = 0;
  p.listIndex.clear();
  p.ownedAttrs.clear();
  p.strictIndex.clear();
}

// ---------------------------------------------------------------------- the graph

function parseGraph(p: Parser): DotGraph | undefined {
  if (p.start !== undefined) return resumeGraph(p, p.start);
  const header = parseHeader(p);
  if (header === undefined) return undefined;
  let name: string | undefined;
  let nameSpan: Span | undefined;
  const codes = p.codes;
  if (isIdLike(codes[p.pos]) && (codes[p.pos] !== Code.Keyword || codes[p.pos + 1] === Code.LBrace)) {
    const read = readValue(p);
    checkBareWord(p, read, 'graph name');
    name = read.value;
    nameSpan = read.span;
  }
  let open: Span;
  if (codes[p.pos] === Code.LBrace) {
    open = spanAt(p, p.pos);
    p.pos++;
  } else {
    open = nameSpan ?? header.keywordSpan;
    fail(p, p.pos < p.count ? spanAt(p, p.pos) : open, `Expected \`{\` after the graph header, found ${describe(p, p.pos)}; open the graph body with \`{\`.`);
  }
  return parseBody(p, { node: new Map(), edge: new Map(), depth: 0 }, open, header.keywordSpan, header.strictSpan, name, nameSpan);
}

/**
 * Finds and reads the header, `[strict] (graph|digraph)`, and leaves `p.pos` after it (at the
 * graph's name or `{`). Anything before it is reported once. Undefined when the file holds no
 * header keyword and no `{` either (reported).
 */
function parseHeader(p: Parser): { readonly keywordSpan: Span; readonly strictSpan: Span | undefined } | undefined {
  const codes = p.codes;
  const count = p.count;
  let header = 0;
  while (header < count && codes[header] !== Code.LBrace && !(keywordAt(p, header) === 'strict' || keywordAt(p, header) === 'digraph' || keywordAt(p, header) === 'graph')) header++;
  if (header < count && codes[header] === Code.LBrace) header = count;
  if (header >= count) return headerMissing(p);
  if (header > 0) {
    fail(p, { start: p.starts[0], end: p.ends[header - 1] }, `${describe(p, 0)} comes before the graph header; remove it, so the file starts with \`digraph <name> {\`.`);
  }
  p.pos = header;
  let strictSpan: Span | undefined;
  if (keywordAt(p, p.pos) === 'strict') {
    p.strict = true;
    strictSpan = spanAt(p, p.pos);
    p.pos++;
  }
  const keyword = keywordAt(p, p.pos);
  if (keyword !== 'digraph' && keyword !== 'graph') {
    const at = strictSpan ?? spanAt(p, 0);
    fail(p, at, `\`strict\` must be followed by \`digraph\`, found ${describe(p, p.pos)}; write \`digraph <name> {\`.`);
    return { keywordSpan: { start: at.end, end: at.end }, strictSpan };
  }
  const keywordSpan = spanAt(p, p.pos);
  if (keyword === 'graph') {
    p.directed = false;
    p.notDirectedReported = true;
    report(p, 'dot/not-directed', () => make(p.file, 'dot/not-directed', 'The graph is declared with `graph`, so its edges have no direction; write `digraph`.', keywordSpan));
  }
  p.pos++;
  return { keywordSpan, strictSpan };
}

/** No header keyword at all: reads the first `{ … }` as the graph if there is one (from its name, when one stands before it). */
function headerMissing(p: Parser): { readonly keywordSpan: Span; readonly strictSpan: undefined } | undefined {
  const codes = p.codes;
  const brace = codes.indexOf(Code.LBrace);
  if (brace < 0) {
    fail(p, p.count > 0 ? spanAt(p, 0) : { start: 0, end: 0 }, p.count > 0
      ? `Expected \`digraph\`, found ${describe(p, 0)}; a topology is one \`digraph <name> { … }\`.`
      : 'The file holds no graph; write `digraph <name> { … }` with one node per card.');
    return undefined;
  }
  const named = brace > 0 && isIdLike(codes[brace - 1]) ? brace - 1 : brace;
  fail(p, spanAt(p, 0), `Expected \`digraph\`, found ${describe(p, 0)}; a topology starts with \`digraph <name> {\`.`);
  p.pos = named;
  return { keywordSpan: { start: p.starts[named], end: p.starts[named] }, strictSpan: undefined };
}

/** The graph of `from`'s parse from its first statement on, its earlier statements read from the earlier parse (./dot-resume.ts). */
function resumeGraph(p: Parser, from: ResumeStart): DotGraph {
  for (const node of from.nodes) {
    p.nodeIndexes.set(node.id, p.nodes.size);
    p.nodes.set(node.id, node);
  }
  for (const e of from.selfLoops) p.selfLoops.add(p.edges[e].source);
  for (const [key, attr] of from.graphAttrs) p.graphAttrs.set(key, attr);
  p.pos = from.token;
  const graph = from.graph;
  return parseBody(p, { node: from.rootNode, edge: from.rootEdge, depth: 0 }, from.open, graph.keywordSpan, undefined, graph.name, graph.nameSpan);
}

/** The statements of the graph body from `p.pos` on, its closing `}`, and the graph. */
function parseBody(p: Parser, root: Scope, open: Span, keywordSpan: Span, strictSpan: Span | undefined, name: string | undefined, nameSpan: Span | undefined): DotGraph {
  p.openSpan = open;
  parseStatements(p, root);
  if (p.pos < p.count) {
    p.pos++; // parseStatements stops only at the end or at a `}`: this one closes the graph
  } else if (!p.unclosedReported) {
    fail(p, open, 'The graph\'s `{` is never closed; add `}` at the end of the graph.');
  }
  const taken = p.rejoined?.nodes;
  const graph: DotGraph = {
    strict: p.strict,
    directed: p.directed,
    keywordSpan,
    graphAttrs: p.graphAttrs,
    nodes: taken === undefined ? [...p.nodes.values()] : [...p.nodes.values(), ...taken],
    edges: p.edges.slice(),
    mentions: p.mentions.done(),
    ...(name !== undefined ? { name, nameSpan } : {}),
    ...(strictSpan !== undefined ? { strictSpan } : {}),
  };
  return graph;
}

// ---------------------------------------------------------------------- statements

/** Defaults in force. The maps are never changed in place (see `withDefaults`), so scopes and edges share them. */
interface Scope {
  node: ReadonlyMap<string, DotAttribute>;
  edge: ReadonlyMap<string, DotAttribute>;
  readonly depth: number;
}

/**
 * The statements of a block, to its closing `}` or the end. At the top level it records each
 * statement for a later parse to resume from, and, where the lexer took the earlier parse's
 * tokens, asks whether the rest of the earlier parse can be taken (`rejoin` in ./dot-resume.ts).
 */
function parseStatements(p: Parser, scope: Scope): void {
  const codes = p.codes;
  while (p.pos < p.count) {
    const kind = codes[p.pos];
    if (kind === Code.RBrace) return;
    if (kind === Code.Semicolon) {
      p.pos++;
      continue;
    }
    const start = p.pos;
    if (scope.depth === 0) {
      if (start > p.rejoinAfter && p.rejoinTries < maxRejoinTries && rejoinHere(p, scope)) return;
      p.topStatements.push(start);
      p.topNodeDefaults.push(scope.node);
      p.topEdgeDefaults.push(scope.edge);
    }
    if (parseStatement(p, scope)) {
      if (codes[p.pos] === Code.Semicolon) p.pos++;
    } else {
      recover(p, start);
    }
  }
}

/** At a top-level statement after the edit: takes the rest of the earlier parse when it may (see `rejoin`), leaving `p.pos` at the closing `}`. */
function rejoinHere(p: Parser, scope: Scope): boolean {
  p.rejoinTries++;
  if (!readsCleanly(p) || p.codes[p.count - 1] !== Code.RBrace) return false;
  const rejoined = rejoin(p, p.start!, p.lexed.rejoined!.shift, scope.node, scope.edge);
  if (rejoined === undefined) return false;
  p.rejoined = rejoined;
  return true;
}

/** One statement. False when it is broken (already reported) and the caller must recover. */
function parseStatement(p: Parser, scope: Scope): boolean {
  const codes = p.codes;
  const kind = codes[p.pos];
  switch (kind) {
    case Code.Keyword: {
      const keyword = textAt(p, p.pos).toLowerCase();
      const next = codes[p.pos + 1];
      if ((keyword === 'node' || keyword === 'edge' || keyword === 'graph') && next === Code.LBracket) {
        p.pos++;
        const attrs = parseAttributeLists(p, keyword !== 'graph');
        // Scope maps are replaced, never changed in place: edges and child scopes share them.
        if (keyword === 'node') scope.node = withDefaults(p, scope.node, attrs);
        else if (keyword === 'edge') scope.edge = withDefaults(p, scope.edge, attrs);
        else if (scope.depth === 0) for (const [key, attr] of attrs) p.graphAttrs.set(key, attr);
        // (a subgraph's own graph attributes stay in the subgraph, and the flat model drops them)
        return true;
      }
      if (next === Code.Equals) return parseGraphAttribute(p, scope);
      if ((keyword === 'digraph' || keyword === 'graph') && (next === Code.LBrace || (isIdLike(next) && codes[p.pos + 2] === Code.LBrace))) {
        // read on as a subgraph, so its nodes are kept
        fail(p, spanAt(p, p.pos), `A second graph header \`${textAt(p, p.pos)}\` appears inside the graph; close the first graph with \`}\` before it, or move it to its own file.`);
      }
      return parseEndpointStatement(p, scope);
    }
    case Code.Id:
    case Code.Number:
    case Code.String:
    case Code.Html:
      if (codes[p.pos + 1] === Code.Equals) return parseGraphAttribute(p, scope);
      return parseEndpointStatement(p, scope);
    case Code.LBrace:
      return parseEndpointStatement(p, scope);
    case Code.Unknown:
      p.pos++; // already reported by the lexer; the statement after it is still read
      return true;
    case Code.Arrow:
    case Code.Line:
      fail(p, spanAt(p, p.pos), `\`${textAt(p, p.pos)}\` needs a node on its left; write the source node before it.`);
      return false;
    default:
      fail(p, spanAt(p, p.pos), `Expected a node, an edge or an attribute, found ${describe(p, p.pos)}; remove it.`);
      return false;
  }
}

/** `key = value` at statement level (kept as a graph attribute only at the root: docs/compatibility.md#nodes-edges-and-defaults). */
function parseGraphAttribute(p: Parser, scope: Scope, keyRead?: ReadValue): boolean {
  const key = keyRead ?? readValue(p);
  checkBareWord(p, key, 'attribute name');
  const equals = p.pos++; // the caller saw `=`
  if (!isIdLike(p.codes[p.pos]) || valueLooksMissing(p, p.pos)) {
    if (p.codes[p.pos] !== Code.Unknown) fail(p, spanAt(p, equals), `The attribute \`${key.value}\` has no value after \`=\`; write one, e.g. \`${key.value}="…"\`.`);
    return false;
  }
  const value = readAttributeValue(p);
  const attr: DotAttribute = {
    key: key.value,
    value: value.value,
    keySpan: key.span,
    valueSpan: value.span,
    quoted: value.kind === Code.String,
    fromDefault: false,
  };
  if (scope.depth === 0) p.graphAttrs.set(key.value, attr);
  return true;
}

/** A node statement, an edge chain, or a subgraph (used as a statement or as the first endpoint). */
function parseEndpointStatement(p: Parser, scope: Scope): boolean {
  const first = parseEndpoint(p, scope);
  if (first === undefined) return false;
  if (first.read !== undefined && p.codes[p.pos] === Code.Equals) {
    // `"a" + "b" = value`: only now is it clear this was a graph attribute.
    return parseGraphAttribute(p, scope, first.read);
  }
  const idError = first.read !== undefined ? checkNodeIdToken(p, first.read) : undefined;
  const next = p.codes[p.pos];
  if (next === Code.Arrow || next === Code.Line) return parseEdgeChain(p, scope, first, idError);
  if (first.read === undefined) return true; // a subgraph statement: its members are in
  if (next !== Code.LBracket) {
    mentionNode(p, first.read, idError, scope.node, undefined, first.span);
    return true;
  }
  const attrs = parseAttributeLists(p, false);
  const statement = { start: first.span.start, end: p.listEnd };
  const known = p.nodes.get(first.read.value);
  if (known === undefined) addNode(p, first.read, idError, scope.node, attrs, statement);
  else redeclareNode(p, known, first.read, scope.node, attrs, statement);
  return true;
}

function parseEdgeChain(p: Parser, scope: Scope, first: Endpoint, firstError: NodeBuilder['idError']): boolean {
  const codes = p.codes;
  const segments: Endpoint[] = [first];
  if (first.read !== undefined) mentionNode(p, first.read, firstError, scope.node);
  let broken = false;
  while (codes[p.pos] === Code.Arrow || codes[p.pos] === Code.Line) {
    const op = p.pos++;
    if (codes[op] === Code.Line && !p.notDirectedReported) {
      p.notDirectedReported = true;
      const opSpan = spanAt(p, op);
      report(p, 'dot/not-directed', () => make(p.file, 'dot/not-directed', '`--` is an undirected edge, and a topology is a directed graph; write `->`.', opSpan));
    }
    if (!isIdLike(codes[p.pos]) && codes[p.pos] !== Code.LBrace) {
      if (codes[p.pos] !== Code.Unknown) {
        const opText = textAt(p, op);
        fail(p, spanAt(p, op), `\`${opText}\` has no node on its right (found ${describe(p, p.pos)}); write the target node, or remove the \`${opText}\`.`);
      }
      broken = true;
      break;
    }
    const endpoint = parseEndpoint(p, scope);
    if (endpoint === undefined) {
      broken = true;
      break;
    }
    if (endpoint.read !== undefined) mentionNode(p, endpoint.read, checkNodeIdToken(p, endpoint.read), scope.node);
    segments.push(endpoint);
  }
  let explicit: AttributeList | undefined;
  let end = segments[segments.length - 1].span.end;
  if (!broken && codes[p.pos] === Code.LBracket) {
    explicit = parseAttributeLists(p, false);
    end = p.listEnd;
  }
  // One map per statement, shared by its edges (addEdge copies it when `strict` may merge into it).
  const attrs = explicit === undefined || explicit.size === 0 ? scope.edge : scope.edge.size === 0 ? explicit : layered(scope.edge, explicit);
  addEdges(p, segments, attrs, end);
  return !broken;
}

/** The edges of a chain of endpoints, each consecutive pair's, a subgraph endpoint standing for each of its members. */
function addEdges(p: Parser, segments: readonly Endpoint[], attrs: ReadonlyMap<string, DotAttribute>, end: number): void {
  let sources: readonly EndpointId[] | undefined;
  for (let s = 0; s + 1 < segments.length; s++) {
    const from = segments[s];
    const to = segments[s + 1];
    const span = { start: from.span.start, end };
    if (from.read !== undefined && to.read !== undefined) {
      // the common case, `a -> b`: no member lists to build
      addEdge(p, from.read.value, from.read.span, to.read.value, to.read.span, attrs, span);
      sources = undefined;
      continue;
    }
    sources ??= endpointIds(p, from);
    const targets = endpointIds(p, to);
    for (const source of sources) {
      for (const target of targets) addEdge(p, source.id, source.span, target.id, target.span, attrs, span);
    }
    sources = targets;
  }
}

function endpointIds(p: Parser, endpoint: Endpoint): EndpointId[] {
  if (endpoint.read !== undefined) return [{ id: endpoint.read.value, span: endpoint.read.span }];
  const members = new Set<string>();
  for (let k = endpoint.logStart; k < endpoint.logEnd; k++) members.add(p.mentionLog[k]);
  return [...members].map((id) => ({ id, span: endpoint.span }));
}

/** A node id (with any port specifier skipped) or a subgraph. Undefined when broken (reported). */
function parseEndpoint(p: Parser, scope: Scope): Endpoint | undefined {
  const codes = p.codes;
  const kind = codes[p.pos];
  const keyword = keywordAt(p, p.pos);
  if (kind === Code.LBrace || keyword === 'subgraph' || ((keyword === 'digraph' || keyword === 'graph') && (codes[p.pos + 1] === Code.LBrace || (isIdLike(codes[p.pos + 1]) && codes[p.pos + 2] === Code.LBrace)))) {
    return parseSubgraph(p, scope);
  }
  if (!isIdLike(kind)) {
    if (kind !== Code.Unknown) fail(p, spanAt(p, p.pos), `Expected a node id, found ${describe(p, p.pos)}; write a node id here.`);
    return undefined;
  }
  const read = readValue(p);
  const end = skipPorts(p);
  if (end === undefined) return undefined;
  return { read, logStart: 0, logEnd: 0, span: end === read.span.end ? read.span : { start: read.span.start, end } };
}

/**
 * `a:port:compass` — ports live on cards, so the specifier is skipped with one warning per
 * file. Returns where the endpoint ends, or undefined when a port name is missing (reported).
 */
function skipPorts(p: Parser): number | undefined {
  const codes = p.codes;
  let end = p.ends[p.pos - 1];
  while (codes[p.pos] === Code.Colon) {
    const colon = p.pos++;
    if (!isIdLike(codes[p.pos])) {
      fail(p, spanAt(p, colon), `Expected a port name after \`:\`, found ${describe(p, p.pos)}; remove the \`:\`.`);
      return undefined;
    }
    const port = p.pos++;
    end = p.ends[port];
    if (!p.portsReported) {
      p.portsReported = true;
      const at = { start: p.starts[colon], end: p.ends[port] };
      report(p, 'dot/unsupported', () =>
        make(p.file, 'dot/unsupported', 'Port specifiers (`node:port`) are ignored; remove them and name the card ports with `out=`/`in=` on the edge instead.', at),
      );
    }
  }
  return end;
}

/** `[subgraph [ID]] { ... }`, flattened; it starts with the enclosing defaults, and its own stay inside it. */
function parseSubgraph(p: Parser, scope: Scope): Endpoint | undefined {
  const codes = p.codes;
  const start = p.pos;
  const startSpan = spanAt(p, start);
  if (codes[start] === Code.Keyword) {
    p.pos++;
    if (isIdLike(codes[p.pos]) && codes[p.pos] !== Code.Keyword) checkBareWord(p, readValue(p), 'subgraph name');
    else if (codes[p.pos] === Code.Keyword && codes[p.pos + 1] === Code.LBrace) p.pos++;
  }
  if (codes[p.pos] !== Code.LBrace) {
    fail(p, startSpan, `Expected \`{\` to open the subgraph, found ${describe(p, p.pos)}; add \`{ … }\` after \`${textAt(p, start)}\`.`);
    return undefined;
  }
  const open = p.pos;
  if (scope.depth >= maxSubgraphDepth) {
    fail(p, spanAt(p, open), `Subgraphs are nested more than ${maxSubgraphDepth} deep here; flatten them, or close the \`{\` that is missing its \`}\`.`);
    p.pos = skipBalanced(p, p.pos);
    return { logStart: 0, logEnd: 0, span: { start: startSpan.start, end: p.ends[p.pos - 1] } };
  }
  p.pos++;
  const child: Scope = { node: scope.node, edge: scope.edge, depth: scope.depth + 1 };
  const logStart = p.mentionLog.length;
  p.openSubgraphs++;
  parseStatements(p, child);
  p.openSubgraphs--;
  const logEnd = p.mentionLog.length;
  let end: number;
  if (codes[p.pos] === Code.RBrace) {
    end = p.ends[p.pos];
    p.pos++;
  } else {
    end = p.pos > 0 ? p.ends[p.pos - 1] : p.ends[open];
    if (!p.unclosedReported) {
      p.unclosedReported = true;
      fail(p, spanAt(p, open), 'This `{` is never closed; add the matching `}`.');
    }
  }
  return { logStart, logEnd, span: { start: startSpan.start, end } };
}

/** From a `{` at `from`, the index just past its matching `}` (or the end). Iterative. */
function skipBalanced(p: Parser, from: number): number {
  const codes = p.codes;
  let depth = 0;
  let k = from;
  while (k < p.count) {
    const kind = codes[k];
    k++;
    if (kind === Code.LBrace) depth++;
    else if (kind === Code.RBrace) {
      depth--;
      if (depth === 0) return k;
    }
  }
  return k;
}

// ---------------------------------------------------------------------- the graph being built

/** Records a mention of a node (see `DotMentions`), and logs it for the subgraphs open around it. */
function collect(p: Parser, read: ReadValue): void {
  p.mentions.add(p.nodeIndexes.get(read.value)!, read.span.start, read.span.end);
  if (p.openSubgraphs > 0) p.mentionLog.push(read.value);
}

/**
 * Names a node; creates it (with the defaults in force and any explicit attributes) when it is
 * new. Its attributes are a view over the shared defaults, copied only if it is re-declared.
 */
function mentionNode(
  p: Parser,
  read: ReadValue,
  idError: NodeBuilder['idError'],
  defaults: ReadonlyMap<string, DotAttribute>,
  explicit?: ReadonlyMap<string, DotAttribute>,
  statement?: Span,
): NodeBuilder {
  const found = p.nodes.get(read.value);
  if (found === undefined) return addNode(p, read, idError, defaults, explicit, statement);
  // (a mention alone leaves the node as it is: one taken from the earlier parse stays that object)
  const node = statement !== undefined && p.shared.size > 0 ? ownNode(p.shared, p.nodes, found) : found;
  if (statement !== undefined) node.statements.push(statement);
  collect(p, read);
  return node;
}

/** A node named for the first time (the caller knows it is new). */
function addNode(
  p: Parser,
  read: ReadValue,
  idError: NodeBuilder['idError'],
  defaults: ReadonlyMap<string, DotAttribute>,
  explicit?: ReadonlyMap<string, DotAttribute>,
  statement?: Span,
): NodeBuilder {
  // Arrays start as literals sized to what they hold: most nodes have one statement.
  const node: NodeBuilder = {
    id: read.value,
    span: read.span,
    quoted: read.kind === Code.String,
    attrs: explicit === undefined || explicit.size === 0 ? defaults : defaults.size === 0 ? explicit : layered(defaults, explicit),
    statements: statement === undefined ? [] : [statement],
  };
  if (idError !== undefined) node.idError = idError;
  p.nodeIndexes.set(read.value, p.nodes.size);
  p.nodes.set(read.value, node);
  collect(p, read);
  return node;
}

/** A node statement with attributes for a node that already exists (a re-declaration: docs/compatibility.md#nodes-edges-and-defaults). */
function redeclareNode(p: Parser, found: NodeBuilder, read: ReadValue, defaults: ReadonlyMap<string, DotAttribute>, explicit: ReadonlyMap<string, DotAttribute>, statement: Span): void {
  const existing = p.shared.size > 0 ? ownNode(p.shared, p.nodes, found) : found;
  existing.statements.push(statement);
  collect(p, read);
  let attrs = p.ownedAttrs.get(existing);
  if (attrs === undefined) {
    attrs = new Map(existing.attrs);
    p.ownedAttrs.set(existing, attrs);
    existing.attrs = attrs;
  }
  const changes: [string, string, string][] = [];
  for (const [key, attr] of explicit) {
    const previous = attrs.get(key);
    if (previous !== undefined && previous.value !== attr.value) changes.push([key, previous.value, attr.value]);
    attrs.set(key, attr);
  }
  for (const [key, attr] of defaults) if (!attrs.has(key)) attrs.set(key, attr);
  if (changes.length > 0) {
    const file = p.file;
    report(p, 'dot/duplicate-node', () => ({
      ...make(
        file,
        'dot/duplicate-node',
        `Node \`${read.value}\` is declared again and changes ${changes.map(([key, from, to]) => `\`${key}\` from ${quoteShort(from)} to ${quoteShort(to)}`).join(', ')}; merge the declarations so each attribute is set once.`,
        read.span,
        { nodeId: read.value },
      ),
      related: [{ file, span: existing.span, message: `\`${read.value}\` first appears here.` }],
    }));
  }
}

function addEdge(p: Parser, sourceId: string, sourceSpan: Span, targetId: string, targetSpan: Span, attrs: ReadonlyMap<string, DotAttribute>, span: Span): void {
  let own: Map<string, DotAttribute> | undefined;
  if (p.strict) {
    let targets = p.strictIndex.get(sourceId);
    if (targets === undefined) p.strictIndex.set(sourceId, (targets = new Map()));
    const existing = targets.get(targetId);
    if (existing !== undefined) {
      for (const [k, a] of attrs) existing.set(k, a);
      return;
    }
    own = new Map(attrs);
    targets.set(targetId, own);
  }
  p.edges.push({ source: sourceId, target: targetId, sourceSpan, targetSpan, span, attrs: own ?? attrs });
  if (sourceId === targetId && !p.selfLoops.has(sourceId)) {
    p.selfLoops.add(sourceId);
    const file = p.file;
    report(p, 'dot/self-loop', () =>
      make(file, 'dot/self-loop', `Node \`${sourceId}\` has an edge to itself, which is a cycle; make sure its card caps the iterations, or remove the edge.`, span, {
        nodeId: sourceId,
        edge: { source: sourceId, target: targetId },
      }),
    );
  }
}

// ---------------------------------------------------------------------- attributes

/**
 * One or more `[ k=v, ... ]` lists, merged left to right into a new list. Reports and recovers
 * inside the list; sets `p.listEnd`.
 */
function parseAttributeLists(p: Parser, fromDefault: boolean): AttributeList {
  p.listCount = 0;
  if (p.listIndex.size > 0) p.listIndex.clear(); // (clearing allocates a new table even when empty)
  p.listEnd = p.pos > 0 ? p.ends[p.pos - 1] : 0;
  while (p.codes[p.pos] === Code.LBracket) {
    if (!parseAttributeList(p, p.pos++, fromDefault)) break;
  }
  return new AttributeList(p.listAttributes.slice(0, p.listCount));
}

/** One `[ k=v, ... ]` list after its `[` at `open`, to its `]`. False when it is never closed (reported). */
function parseAttributeList(p: Parser, open: number, fromDefault: boolean): boolean {
  const codes = p.codes;
  p.listEnd = p.ends[open];
  for (;;) {
    if (p.pos >= p.count) {
      fail(p, spanAt(p, open), 'This `[` is never closed; add `]` after the last attribute.');
      return false;
    }
    switch (codes[p.pos]) {
      case Code.RBracket:
        p.listEnd = p.ends[p.pos];
        p.pos++;
        return true;
      case Code.Comma:
      case Code.Semicolon:
        p.listEnd = p.ends[p.pos];
        p.pos++;
        break;
      case Code.RBrace:
      case Code.LBrace:
      case Code.Arrow:
      case Code.Line:
      case Code.LBracket:
        fail(p, spanAt(p, open), `This \`[\` is never closed before ${describe(p, p.pos)}; add \`]\` after the last attribute.`);
        return false;
      case Code.Unknown:
        p.pos++;
        skipAttribute(p);
        break;
      case Code.Id:
      case Code.Number:
      case Code.String:
      case Code.Html:
      case Code.Keyword:
        if (looksLikeStatementAfter(p, p.pos) && startsLine(p, p.pos)) {
          fail(p, spanAt(p, open), `This \`[\` is never closed before the next statement; add \`]\` after the last attribute.`);
          return false;
        }
        parseAttribute(p, fromDefault);
        break;
      default:
        fail(p, spanAt(p, p.pos), `Expected an attribute name, found ${describe(p, p.pos)}; remove it.`);
        p.pos++;
        skipAttribute(p);
        break;
    }
  }
}

/** One `k=v` of a list, at its name; a broken one is reported and skipped. */
function parseAttribute(p: Parser, fromDefault: boolean): void {
  const key = readKey(p);
  const name = key.value;
  if (p.codes[p.pos] !== Code.Equals) {
    fail(p, p.pos < p.count ? spanAt(p, p.pos) : key.span, `Expected \`=\` after the attribute name \`${key.value}\`, found ${describe(p, p.pos)}; write \`${key.value}=<value>\`.`);
    p.listEnd = key.span.end;
    skipAttribute(p);
    return;
  }
  const equals = p.pos++;
  p.listEnd = p.ends[equals];
  if (!isIdLike(p.codes[p.pos]) || valueLooksMissing(p, p.pos)) {
    if (p.codes[p.pos] !== Code.Unknown) {
      fail(p, spanAt(p, equals), `The attribute \`${key.value}\` has no value after \`=\`; write one, e.g. \`${key.value}="…"\`.`);
    }
    skipAttribute(p);
    return;
  }
  const value = readAttributeValue(p);
  p.listEnd = value.span.end;
  collectAttribute(p, {
    key: name,
    value: value.value,
    keySpan: key.span,
    valueSpan: value.span,
    quoted: value.kind === Code.String,
    fromDefault,
  });
}

/** At a line-opening id inside an unclosed list: does a statement (`a ->`, `a [`, `a;`, `a }`) start here? */
function looksLikeStatementAfter(p: Parser, index: number): boolean {
  const after = p.codes[index + 1];
  return after === Code.Arrow || after === Code.Line || after === Code.LBracket || after === Code.Semicolon || after === Code.RBrace || after === undefined;
}

/** Adds an attribute to the list being read; a later one for the same key replaces the earlier in place. */
function collectAttribute(p: Parser, attribute: DotAttribute): void {
  const listAttributes = p.listAttributes;
  const listIndex = p.listIndex;
  const name = attribute.key;
  let at = -1;
  if (p.listCount > AttributeList.indexFrom) at = listIndex.get(name) ?? -1;
  else for (let i = 0; i < p.listCount; i++) if (listAttributes[i].key === name) at = i;
  if (at >= 0) {
    listAttributes[at] = attribute;
    return;
  }
  listAttributes[p.listCount++] = attribute;
  if (p.listCount > AttributeList.indexFrom) {
    if (listIndex.size === 0) for (let i = 0; i < p.listCount; i++) listIndex.set(listAttributes[i].key, i);
    else listIndex.set(name, p.listCount - 1);
  }
}

/**
 * Reads an attribute name at `p.pos`: `readValue`, with the name's string shared. One string per
 * distinct attribute name, shared by every list that sets it: a file repeats a handful of names
 * thousands of times. The first few are matched against the source text directly, without
 * making a string to look up.
 */
function readKey(p: Parser): ReadValue {
  const pos = p.pos;
  if (p.codes[pos] === Code.Id && tokenFlag(p.table, pos) === undefined) {
    const start = p.starts[pos];
    const end = p.ends[pos];
    const text = p.text;
    const first = text.charCodeAt(start);
    const frequentKeys = p.frequentKeys;
    const frequentFirsts = p.frequentFirsts;
    for (let k = 0; k < frequentKeys.length; k++) {
      const known = frequentKeys[k];
      if (frequentFirsts[k] === first && known.length === end - start && text.startsWith(known, start)) {
        p.pos++;
        return { kind: Code.Id, span: { start, end }, value: known, hyphenated: false };
      }
    }
  }
  const key = readValue(p);
  checkBareWord(p, key, 'attribute name');
  const known = p.keyNames.get(key.value);
  if (known !== undefined) return { ...key, value: known };
  const wellKnown = wellKnownKeys.get(key.value);
  const name = wellKnown ?? key.value;
  p.keyNames.set(key.value, name);
  if (p.frequentKeys.length < 16 && name.length > 0) {
    p.frequentKeys.push(name);
    p.frequentFirsts.push(name.charCodeAt(0));
  }
  return wellKnown === undefined ? key : { ...key, value: wellKnown };
}

/**
 * Defaults after a `node [..]`/`edge [..]` statement (a new map; the old one may be shared).
 * A scope keeps at most `maxDefaultKeys` distinct keys, so that copying the defaults keeps a
 * generated or hostile file linear; no real topology comes near it.
 */
function withDefaults(p: Parser, base: ReadonlyMap<string, DotAttribute>, over: ReadonlyMap<string, DotAttribute>): ReadonlyMap<string, DotAttribute> {
  let out: Map<string, DotAttribute> | undefined;
  for (const [key, attr] of over) {
    const current = out ?? base;
    if (current.size >= maxDefaultKeys && !current.has(key)) {
      if (p.defaultsCapReported) continue;
      p.defaultsCapReported = true;
      report(p, 'dot/unsupported', () =>
        make(p.file, 'dot/unsupported', `This default sets more than ${maxDefaultKeys} different attributes in one scope, so \`${key}\` and the ones after it are ignored; set them on the nodes or edges themselves.`, attr.keySpan),
      );
      continue;
    }
    (out ??= new Map(base)).set(key, attr);
  }
  return out ?? base;
}

/**
 * The attribute names the engine reads, each as the one string a literal in the source is: a
 * key read from the text is replaced by it, so that the engine's lookups (`attrs.get('card')`)
 * compare two identical strings at once instead of reading both (the same text, so nothing
 * else changes): DarkPrint's own names, the Attractor ones (./attractor-table.ts) and
 * three Graphviz names common in topologies (`rankdir`, `style`, `color`).
 */
const wellKnownKeys: ReadonlyMap<string, string> = new Map(
  [
    'card', 'version', 'digest', 'out', 'in', 'label', 'condition', 'weight', 'shape', 'type', 'prompt', 'goal', 'goal_gate',
    'retry_target', 'fallback_retry_target', 'max_retries', 'default_max_retry', 'default_max_retries', 'default_fidelity',
    'fidelity', 'thread_id', 'class', 'timeout', 'llm_model', 'llm_provider', 'reasoning_effort', 'auto_status',
    'allow_partial', 'tool_command', 'join_policy', 'max_parallel', 'loop_restart', 'model_stylesheet', 'rankdir', 'style', 'color',
  ].map((name) => [name, name] as const),
);

// ---------------------------------------------------------------------- ids and values

/**
 * One ID as read: one token, or, for `"a" + "b"` and a glued `1.0.0`, the whole run (its
 * `value` joined, its `span` covering every piece, its kind the first token's, or `string`).
 */
interface ReadValue {
  /** Its first token's kind code (`DotTokenCode`). */
  readonly kind: Code;
  readonly span: Span;
  readonly value: string;
  /** An unquoted id across hyphens (`code-builder`), read whole. */
  readonly hyphenated: boolean;
}

interface Endpoint {
  /** Set for a node endpoint; undefined for a subgraph. */
  readonly read?: ReadValue;
  /** For a subgraph: its slice of the mention log (its members are the distinct ids there). */
  readonly logStart: number;
  readonly logEnd: number;
  readonly span: Span;
}

interface EndpointId {
  readonly id: string;
  readonly span: Span;
}

/** Reads one ID at `p.pos` (id, number, string, HTML-like literal or keyword), joining `"a" + "b"`. */
function readValue(p: Parser): ReadValue {
  const codes = p.codes;
  const ends = p.ends;
  const table = p.table;
  const first = p.pos++;
  const kind = codes[first];
  let value = tokenValue(table, first);
  let end = ends[first];
  if (kind === Code.String) {
    let parts: string[] | undefined;
    while (codes[p.pos] === Code.Plus) {
      if (codes[p.pos + 1] !== Code.String) {
        fail(p, spanAt(p, p.pos), `A \`+\` joins two quoted strings, but ${describe(p, p.pos + 1)} follows it; quote that value too, or remove the \`+\`.`);
        p.pos++;
        break;
      }
      (parts ??= [value]).push(tokenValue(table, p.pos + 1));
      end = ends[p.pos + 1];
      p.pos += 2;
    }
    if (parts !== undefined) value = parts.join('');
  }
  return { kind, span: { start: p.starts[first], end }, value, hyphenated: end === ends[first] && tokenFlag(table, first) === 'hyphenated' };
}

/**
 * The value after `=`. An unquoted value that runs on without a space into more word tokens
 * (`1.0.0`, `spec-planner@1.0.0`) is not one DOT word: it is read whole and reported once,
 * asking for quotes (by the lexer when an unreadable character such as `@` is part of it).
 */
function readAttributeValue(p: Parser): ReadValue {
  const value = readValue(p);
  if (value.kind !== Code.Id && value.kind !== Code.Number) {
    checkBareWord(p, value, 'value');
    return value;
  }
  let end = value.span.end;
  let glued = false;
  let unreadable = false;
  while (p.pos < p.count && p.starts[p.pos] === end) {
    const next = p.codes[p.pos];
    if (next === Code.Unknown) unreadable = true;
    else if (next !== Code.Number && next !== Code.Id && next !== Code.Keyword) break;
    end = p.ends[p.pos];
    glued = true;
    p.pos++;
  }
  if (!glued) {
    checkBareWord(p, value, 'value');
    return value;
  }
  const written = p.text.slice(value.span.start, end);
  if (!unreadable) fail(p, { start: value.span.start, end }, `The value \`${written}\` is not one DOT word; quote it: \`"${written}"\`.`);
  return { kind: value.kind, span: { start: value.span.start, end }, value: written, hyphenated: false };
}

function isIdLike(kind: number | undefined): boolean {
  return kind === Code.Id || kind === Code.Number || kind === Code.String || kind === Code.Html || kind === Code.Keyword;
}

/** The source spelling of an ID as read (quotes included). */
function writtenOf(p: Parser, read: ReadValue): string {
  return p.text.slice(read.span.start, read.span.end);
}

/** Reports an id that stands where a node belongs but is not DOT: `code-builder`, or a keyword. */
function checkNodeIdToken(p: Parser, t: ReadValue): NodeBuilder['idError'] {
  if (t.hyphenated) {
    const written = writtenOf(p, t);
    const suggestion = suggestNodeId(written, (candidate) => p.nodes.has(candidate));
    fail(p, t.span, `The node id \`${written}\` contains \`-\`, which DOT does not allow in a bare id; rename the node to \`${suggestion}\` everywhere it appears.`);
    return 'hyphenated';
  }
  if (t.kind === Code.Keyword) {
    const written = writtenOf(p, t);
    const suggestion = suggestNodeId(written, (candidate) => p.nodes.has(candidate));
    fail(p, t.span, `\`${written}\` is a DOT keyword, so it cannot name a node here; rename the node, e.g. to \`${suggestion}\`, everywhere it appears.`);
    return 'keyword';
  }
  return undefined;
}

function checkBareWord(p: Parser, t: ReadValue, role: 'attribute name' | 'value' | 'graph name' | 'subgraph name'): void {
  if (!t.hyphenated) return;
  const written = writtenOf(p, t);
  const underscored = written.replace(/-/g, '_');
  switch (role) {
    case 'attribute name':
      fail(p, t.span, `The attribute name \`${written}\` contains \`-\`, which DOT does not allow in a bare word; write \`${underscored}\`, or quote it as \`"${written}"\`.`);
      return;
    case 'value':
      fail(p, t.span, `The value \`${written}\` contains \`-\`, which DOT does not allow in a bare word; quote it: \`"${written}"\`.`);
      return;
    case 'graph name':
    case 'subgraph name':
      fail(p, t.span, `The ${role} \`${written}\` contains \`-\`, which DOT does not allow in a bare word; rename it to \`${underscored}\`, or quote it.`);
      return;
    default:
      return assertNever(role);
  }
}

// ---------------------------------------------------------------------- recovery

/**
 * Skips the rest of a broken statement that began at `statementStart`: stops after a `;`,
 * before the `}` closing the current block, or before a token that opens a line and can start
 * a statement. Balanced `{}` and `[]` met on the way are skipped whole.
 */
function recover(p: Parser, statementStart: number): void {
  const codes = p.codes;
  let braces = 0;
  let brackets = 0;
  while (p.pos < p.count) {
    const kind = codes[p.pos];
    if (p.pos > statementStart && braces === 0 && brackets === 0 && canStartStatement(kind) && startsLine(p, p.pos)) return;
    switch (kind) {
      case Code.RBrace:
        if (braces === 0) return;
        braces--;
        break;
      case Code.LBrace:
        braces++;
        break;
      case Code.LBracket:
        brackets++;
        break;
      case Code.RBracket:
        if (brackets > 0) brackets--;
        break;
      case Code.Semicolon:
        if (braces === 0 && brackets === 0) {
          p.pos++;
          return;
        }
        break;
      default:
        break;
    }
    p.pos++;
  }
}

/** Skips a broken attribute to the next `,`, `;` or `]` of its list (not consumed), or to what ends the list. */
function skipAttribute(p: Parser): void {
  const codes = p.codes;
  while (p.pos < p.count) {
    const k = codes[p.pos];
    if (k === Code.Comma || k === Code.Semicolon || k === Code.RBracket || k === Code.RBrace || k === Code.LBrace || k === Code.Arrow || k === Code.Line) return;
    p.pos++;
  }
}

// ---------------------------------------------------------------------- token helpers

function spanAt(p: Parser, index: number): Span {
  return tokenSpan(p.table, index);
}

function textAt(p: Parser, index: number): string {
  return tokenText(p.table, index);
}

/** True when a line break separates token `index` from the significant token before it. */
function startsLine(p: Parser, index: number): boolean {
  if (index <= 0 || index >= p.count) return index <= 0;
  const text = p.text;
  const from = p.ends[index - 1];
  const to = p.starts[index];
  for (let k = from; k < to; k++) {
    const c = text.charCodeAt(k);
    if (c === 10 || c === 13) return true;
  }
  return false;
}

function keywordAt(p: Parser, index: number): string | undefined {
  return index < p.count && p.codes[index] === Code.Keyword ? textAt(p, index).toLowerCase() : undefined;
}

function describe(p: Parser, index: number): string {
  if (index >= p.count) return 'the end of the file';
  const written = textAt(p, index);
  const shown = written.length > 30 ? `${written.slice(0, 30)}…` : written;
  return `\`${shown.replace(/[\r\n]+/g, ' ')}\``;
}

/** A token that may begin a statement when it opens a line. */
function canStartStatement(kind: number | undefined): boolean {
  return kind === Code.Id || kind === Code.Number || kind === Code.String || kind === Code.Html || kind === Code.Keyword || kind === Code.LBrace;
}

/** A value after `=` that sits on the next line and is really the start of something else. */
function valueLooksMissing(p: Parser, index: number): boolean {
  const after = p.codes[index + 1];
  return (after === Code.Equals || after === Code.Arrow || after === Code.Line || after === Code.LBracket) && startsLine(p, index);
}

// ---------------------------------------------------------------------- findings

function fail(p: Parser, at: Span, message: string): void {
  p.parseErrorCount++;
  if (p.parseErrorCount > maxParseErrors + 1) return;
  p.parseErrors.push(make(p.file, 'dot/parse-error', message, at));
}

/** Non-error dot/* findings: at most `maxParseErrors` per code are built; the rest are only counted. */
function report(p: Parser, code: DiagnosticCode, build: () => Diagnostic): void {
  const seen = (p.reportCounts.get(code) ?? 0) + 1;
  p.reportCounts.set(code, seen);
  if (seen <= maxParseErrors + 1) p.other.push(build());
}

function make(file: string, code: DiagnosticCode, message: string, at: Span, extra?: Partial<Diagnostic['location']>): Diagnostic {
  return { code, severity: diagnosticInfo(code).severity, message, location: { file, span: at, ...extra } };
}

/** Reports what follows the `}` that closes the graph (at `p.pos`), and returns where it starts. */
function reportTrailing(p: Parser): Span {
  const at = spanAt(p, p.pos);
  report(p, 'dot/unsupported', () =>
    make(p.file, 'dot/unsupported', 'Only the first graph in the file is read, so everything from here on is ignored; move a second graph to its own file, or remove the stray `}` that closed the graph early.', at),
  );
  return at;
}

/** The lexer's and the parser's errors, in source order, capped at `maxParseErrors` plus one "too many" line. */
function listedErrors(p: Parser): Diagnostic[] {
  const lexed = p.lexed;
  const lexErrors = lexed.diagnostics.filter((d) => d.code === 'dot/parse-error');
  p.parseErrors.sort((a, b) => (a.location.span?.start ?? 0) - (b.location.span?.start ?? 0));
  const errors = mergeBySpan(lexErrors, p.parseErrors);
  const kept = errors.slice(0, maxParseErrors);
  if (lexed.parseErrorCount + p.parseErrorCount > maxParseErrors) {
    const at = errors[maxParseErrors]?.location.span ?? kept[kept.length - 1]?.location.span ?? { start: 0, end: 0 };
    kept.push(make(p.file, 'dot/parse-error', `The file has more than ${maxParseErrors} parse errors and the rest are not listed; fix the ones above first.`, at));
  }
  return kept;
}

/** `errors` and the other dot/* findings: at most `maxParseErrors` per code in source order, then one summary without a range; all in source order. */
function listedFindings(p: Parser, errors: readonly Diagnostic[]): Diagnostic[] {
  const findings = [...p.lexed.diagnostics.filter((d) => d.code !== 'dot/parse-error'), ...p.other];
  findings.sort((a, b) => (a.location.span?.start ?? 0) - (b.location.span?.start ?? 0));
  const listed = new Map<DiagnosticCode, number>();
  const diagnostics: Diagnostic[] = [...errors];
  for (const d of findings) {
    const n = (listed.get(d.code) ?? 0) + 1;
    listed.set(d.code, n);
    if (n <= maxParseErrors) diagnostics.push(d);
  }
  for (const [code, seen] of p.reportCounts) {
    if (seen <= maxParseErrors) continue;
    diagnostics.push({
      code,
      severity: diagnosticInfo(code).severity,
      message: `This finding occurs ${seen} times in the file and only the first ${maxParseErrors} are listed; deal with those and the rest will show.`,
      location: { file: p.file },
    });
  }
  diagnostics.sort((a, b) => (a.location.span?.start ?? -1) - (b.location.span?.start ?? -1));
  return diagnostics;
}

function quoteShort(value: string): string {
  const oneLine = value.replace(/\s+/g, ' ');
  return JSON.stringify(oneLine.length > 40 ? `${oneLine.slice(0, 40)}…` : oneLine);
}

function mergeBySpan(a: readonly Diagnostic[], b: readonly Diagnostic[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (j >= b.length || (i < a.length && (a[i].location.span?.start ?? 0) <= (b[j].location.span?.start ?? 0))) out.push(a[i++]);
    else out.push(b[j++]);
  }
  return out;
}

function assertNever(value: never): never {
  throw new Error(`unexpected value ${String(value)}`);
}

// ---------------------------------------------------------------------- the result

/**
 * The result, built apart from the parse's state so that nothing of the parse holds the graph
 * beside it: a parse long enough to see a young-generation collection has its state promoted,
 * and an old object pointing at the new graph would keep the whole graph alive through later
 * young collections after the result is dropped.
 */
function parseResult(lexed: DotLexResult, graph: DotGraph | undefined, diagnostics: readonly Diagnostic[], trailing: Span | undefined): DotParseResult {
  return {
    ...(graph !== undefined ? { graph } : {}),
    table: lexed.table,
    diagnostics,
    ...(trailing !== undefined ? { trailing } : {}),
    get tokens() {
      return lexed.tokens;
    },
    get significant() {
      return lexed.significant;
    },
  };
}
