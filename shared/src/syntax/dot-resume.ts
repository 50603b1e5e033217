/**
 * The DOT parser's incremental step: what a parse of an edited text takes from the earlier parse
 * of the same file, kept apart from the grammar (./dot-parser.ts), which only asks at the places
 * where taking is possible.
 *
 * A parse given an earlier one (`parseDot(text, file, previous)`) takes from it twice:
 * - **Resume** (`resumeAt`), before the edit: it starts at the last top-level statement whose
 *   first `resumeMargin + 1` tokens end before the first character where the texts differ, and
 *   takes the earlier parse's state there: the tokens before it (the lexer copies them, see
 *   `LexResume`), the nodes named before it as the same objects, the edges, the mentions (their
 *   full chunks shared), the findings, the root defaults and the graph attributes.
 * - **Rejoin** (`rejoin`), after the edit: once the lexer has taken the earlier tokens of the end
 *   the two texts share (`LexResume.suffix`), the grammar asks at each top-level statement there
 *   (at most `maxRejoinTries` times) whether the statements read so far left the state the
 *   earlier parse had at that statement; when they did, the rest of the earlier parse is taken,
 *   moved by what the edit added or removed (`movedBy`), instead of being read again.
 *
 * Why this is safe. DOT is read statement by statement, left to right, and what a top-level
 * statement makes depends only on its own tokens (its predecessor looked at most `resumeMargin`
 * tokens into it to find where it ends) and on the state the statements before it left: the root
 * defaults in force, the nodes already named (naming one again mentions it, or re-declares and so
 * changes it), the self-loops already reported, the graph attributes, and how many findings of
 * each code are listed. A parse is kept to be resumed from only when it reads cleanly
 * (`resumableOf`: no parse error, no finding but duplicate nodes and self-loops under the cap, no
 * `strict`, directed), so that this state is plain to rebuild from its result. `resumeAt`
 * declines when a statement after the point re-declares a node named before it or sets a graph
 * attribute; `rejoin` compares each part of the state before it takes anything. A node taken is
 * never changed in place (`ownNode` copies it first), so the earlier parse stays as it was. The
 * result is the one a parse from the beginning gives, every span and finding included
 * (shared/test/dot-parser-resume.test.ts holds the two together over random edits).
 *
 * What later stages may rely on: a resumed parse hands back the earlier parse's unchanged nodes
 * (named before the edit and not declared again after it) as the same objects, and what it took
 * after the edit as `DotTaken` says (`dotParseReuse`).
 */
import type { Diagnostic, DiagnosticCode } from '../diagnostics';
import { movedDiagnostic } from '../diagnostics';
import { commonPrefixLength, commonSuffixLength, partitionPoint, type Span } from '../text';
import { AttributeList, LayeredMap, type NodeBuilder } from './dot-builders';
import { maxParseErrors } from './dot-lexer';
import { mentionEnd, mentionNode as mentionedNode, mentionStart, type MentionWriter } from './dot-mentions';
import type { DotAttribute, DotEdge, DotGraph, DotMentions, DotParseResult, DotTokenTable } from './dot-model';

/**
 * How many top-level statements in the end the two texts share a resumed parse tries to rejoin the
 * earlier parse at (see `rejoin`): each try reads the nodes named so far, and a state that does
 * not match at the first statements seldom matches later.
 */
export const maxRejoinTries = 4;

/**
 * How many tokens after a statement's first one must also read the same before a parse resumes
 * there: the statement before it decided where it ends by looking at the tokens that follow it
 * (an edge operator, another `[`, a `;`), never more than two.
 */
const resumeMargin = 3;

// ---------------------------------------------------------------------- what a parse took

/** What a parse took from the earlier one it was given (see `dotParseReuse`). */
export interface DotParseReuse {
  /** The parse read from this top-level statement on (by index), taking those before it. */
  readonly resumedAt: number;
  /** It took the earlier parse's top-level statements from this one (by the earlier index) to the end, moved. */
  readonly rejoinedAt?: number;
  /** The nodes and edges it took from the earlier parse then. */
  readonly taken?: DotTaken;
}

/**
 * The nodes and edges a parse took from an earlier one after the text it read anew (see
 * `rejoin`): the earlier parse's nodes from index `earlierNodes` on are this graph's from `nodes`
 * on, in the same order, and its edges from `earlierEdges` on are this one's from `edges` on,
 * each read the same, what lies after the text read anew `delta` code units further on (its
 * spans and its own attributes; a default set before that text stays where it was). For the
 * engine's memos, which may then skip reading them again.
 */
export interface DotTaken {
  /** The earlier parse, as `dotParseSerial` numbers it. */
  readonly from: number;
  readonly nodes: number;
  readonly earlierNodes: number;
  readonly edges: number;
  readonly earlierEdges: number;
  readonly delta: number;
}

const serials = new WeakMap<DotParseResult, number>();
let nextSerial = 1;

/** A number for a parse result, the same each time it is asked, never given to another (for `DotTaken.from`: no reference that would keep the earlier parse alive). */
export function dotParseSerial(result: DotParseResult): number {
  return serialOf(result);
}

function serialOf(result: DotParseResult): number {
  let serial = serials.get(result);
  if (serial === undefined) serials.set(result, (serial = nextSerial++));
  return serial;
}

const reuses = new WeakMap<DotParseResult, DotParseReuse>();

/** For tests and benchmarks: what `parseDot` took from the earlier parse, undefined when it read the whole text. */
export function dotParseReuse(result: DotParseResult): DotParseReuse | undefined {
  return reuses.get(result);
}

/**
 * Per earlier parse, the last parse made from it, with its text and file. The server reads a
 * topology just typed into for a completion (from the last load's parse, see
 * ../ide/context.ts) before it loads the bundle, which parses the same text from the same parse:
 * the load then takes the parse made for the completion. A parse is never changed once made.
 */
const latestFrom = new WeakMap<DotParseResult, { readonly text: string; readonly file: string; readonly result: DotParseResult }>();

/** The parse made last from `previous`, when it was made of the same text and file (see `latestFrom`). */
export function parseMadeFrom(previous: DotParseResult | undefined, text: string, file: string): DotParseResult | undefined {
  const known = previous === undefined ? undefined : latestFrom.get(previous);
  return known !== undefined && known.text === text && known.file === file ? known.result : undefined;
}

/**
 * Keeps what a parse of `text` leaves for later parses: what a parse may resume from it
 * (`resume`, when it read cleanly), what it took from `previous` (`start`, `rejoined`), and
 * itself as the parse made last from `previous`.
 */
export function keepParse(
  result: DotParseResult,
  text: string,
  file: string,
  previous: DotParseResult | undefined,
  start: ResumeStart | undefined,
  rejoined: Rejoined | undefined,
  resume: Resumable | undefined,
): void {
  if (resume !== undefined) resumables.set(result, resume);
  if (start !== undefined) reuses.set(result, rejoined === undefined ? { resumedAt: start.index } : { resumedAt: start.index, rejoinedAt: rejoined.at, taken: rejoined.taken });
  if (previous !== undefined) latestFrom.set(previous, { text, file, result });
}

// ---------------------------------------------------------------------- what a parse keeps to be resumed

/** What a later parse of the same file needs to start after the statements it shares with a parse. */
export interface Resumable {
  readonly text: string;
  readonly file: string;
  /** The `{` that opens the graph body. */
  readonly open: Span;
  /** The first token of each top-level statement, in order. */
  readonly statements: readonly number[];
  /** The root defaults in force at each of those statements. */
  readonly nodeDefaults: readonly ReadonlyMap<string, DotAttribute>[];
  readonly edgeDefaults: readonly ReadonlyMap<string, DotAttribute>[];
  /** See `Places`. */
  readonly nodePlaces: Int32Array;
  readonly edgeStarts: Int32Array;
  readonly selfLoops: readonly number[];
}

/** Kept beside each parse that can be resumed from, so the model itself carries nothing extra. */
const resumables = new WeakMap<DotParseResult, Resumable>();

/** What `resumableOf` reads of a finished parse besides its graph. */
export interface FinishedParse {
  readonly text: string;
  readonly file: string;
  readonly reportCounts: ReadonlyMap<DiagnosticCode, number>;
  readonly topStatements: readonly number[];
  readonly topNodeDefaults: readonly ReadonlyMap<string, DotAttribute>[];
  readonly topEdgeDefaults: readonly ReadonlyMap<string, DotAttribute>[];
}

/**
 * What a later parse needs to resume from this one: kept only for a file that reads cleanly
 * (`clean`: no parse error, no `strict`, directed, read to its end; and no finding but duplicate
 * nodes and self-loops), so that the state after any top-level statement is plain to rebuild
 * from the result.
 */
export function resumableOf(parse: FinishedParse, clean: boolean, graph: DotGraph | undefined, open: Span | undefined, start: ResumeStart | undefined): Resumable | undefined {
  const resumable =
    graph !== undefined && open !== undefined && clean &&
    [...parse.reportCounts].every(([code, seen]) => seen === 0 || ((code === 'dot/duplicate-node' || code === 'dot/self-loop') && seen <= maxParseErrors));
  return resumable && open !== undefined && graph !== undefined
    ? { text: parse.text, file: parse.file, open, statements: parse.topStatements, nodeDefaults: parse.topNodeDefaults, edgeDefaults: parse.topEdgeDefaults, ...placesOf(graph, start) }
    : undefined;
}

/**
 * Where the graph's nodes and edges are, in flat arrays, so that `resumeAt` finds what lies
 * before a point without reading thousands of objects scattered over the heap.
 */
interface Places {
  /** Per node, two offsets: where its id is first named, where its last statement starts (-1: none). */
  readonly nodePlaces: Int32Array;
  /** Per edge, where it starts. */
  readonly edgeStarts: Int32Array;
  /** The indexes of the self-loops among the edges. */
  readonly selfLoops: readonly number[];
}

/**
 * The places of `graph`'s nodes and edges. A parse that resumed copies those of the nodes it
 * took unchanged from the earlier parse (the same objects at the same index) and of the edges
 * it took (its first ones), and reads only the others.
 */
function placesOf(graph: DotGraph, start: ResumeStart | undefined): Places {
  const nodes = graph.nodes;
  const nodePlaces = new Int32Array(2 * nodes.length);
  const before = start?.previous;
  const earlier = before?.graph?.nodes;
  const earlierPlaces = before === undefined ? undefined : resumables.get(before)?.nodePlaces;
  for (let n = 0; n < nodes.length; n++) {
    if (earlier !== undefined && earlierPlaces !== undefined && n < earlier.length && nodes[n] === earlier[n]) {
      nodePlaces[2 * n] = earlierPlaces[2 * n];
      nodePlaces[2 * n + 1] = earlierPlaces[2 * n + 1];
      continue;
    }
    const node = nodes[n];
    const statements = node.statements;
    nodePlaces[2 * n] = node.span.start;
    nodePlaces[2 * n + 1] = statements.length > 0 ? statements[statements.length - 1].start : -1;
  }
  const edges = graph.edges;
  const edgeStarts = new Int32Array(edges.length);
  const earlierStarts = before === undefined ? undefined : resumables.get(before)?.edgeStarts;
  // a resumed parse's first edges are the earlier parse's
  const kept = start !== undefined && earlierStarts !== undefined ? start.keptEdges : 0;
  if (kept > 0) edgeStarts.set(earlierStarts!.subarray(0, kept));
  const selfLoops: number[] = kept > 0 ? start!.selfLoops.slice() : [];
  for (let e = kept; e < edges.length; e++) {
    const edge = edges[e];
    edgeStarts[e] = edge.span.start;
    if (edge.source === edge.target) selfLoops.push(e);
  }
  return { nodePlaces, edgeStarts, selfLoops };
}

// ---------------------------------------------------------------------- resume: before the edit

/** A parse's state before one of its top-level statements, rebuilt from its result. */
export interface ResumeStart {
  readonly graph: DotGraph;
  readonly table: DotTokenTable;
  readonly open: Span;
  /** The statement's first token, and its index among the top-level statements. */
  readonly token: number;
  readonly index: number;
  readonly rootNode: ReadonlyMap<string, DotAttribute>;
  readonly rootEdge: ReadonlyMap<string, DotAttribute>;
  /** The records of the statements before it (new arrays, for the new parse to extend). */
  readonly statements: number[];
  readonly nodeDefaults: ReadonlyMap<string, DotAttribute>[];
  readonly edgeDefaults: ReadonlyMap<string, DotAttribute>[];
  /** The nodes named before it, in order: the earlier objects (no later statement declares them again). */
  readonly nodes: readonly NodeBuilder[];
  /** Those of `nodes` that are the earlier objects (all of them, until the new parse copies one to change it). */
  readonly shared: Set<NodeBuilder>;
  /** The earlier parse's mentions (the first `mentionsBefore` of them come before it). */
  readonly mentions: DotMentions;
  /** How many of `mentions` come before it. */
  readonly mentionsBefore: number;
  /** The edges before it: a new array, which the new parse extends (so never read after that parse starts: see `keptEdges`). */
  readonly edges: DotEdge[];
  /** How many edges come before it. */
  readonly keptEdges: number;
  /** The indexes of the self-loops among the edges before it. */
  readonly selfLoops: readonly number[];
  /** The parse it resumes. */
  readonly previous: DotParseResult;
  readonly graphAttrs: readonly (readonly [string, DotAttribute])[];
  /** The findings before it (duplicate nodes and self-loops only: see `resumableOf`). */
  readonly diagnostics: readonly Diagnostic[];
  /** What was kept of `previous` to resume from. */
  readonly earlier: Resumable;
  /** How many code units the two texts share at their start. */
  readonly same: number;
}

/**
 * Where a parse of `text` can start, given `previous`: the last top-level statement whose first
 * `resumeMargin + 1` tokens end before the first character where the texts differ (the first
 * statement too: nothing before it is taken, but the statements after the edit may be, see
 * `rejoin`). Undefined when `previous` cannot be resumed from (not clean, another file), when the
 * edit reaches into the header or the first statement's first tokens, or when a later statement
 * changed what a node or the graph read before it (a re-declaration, a graph attribute after
 * it): then the parse starts at the beginning.
 */
export function resumeAt(previous: DotParseResult, text: string, file: string): ResumeStart | undefined {
  const info = resumables.get(previous);
  const graph = previous.graph;
  if (info === undefined || graph === undefined || info.file !== file) return undefined;
  const same = commonPrefixLength(info.text, text);
  const table = previous.table;
  const statements = info.statements;
  // the number of statements whose guarded tokens all end before `same` (their ends grow with the statement)
  const guarded = (k: number): boolean => statements[k] + resumeMargin < table.count && table.ends[statements[k] + resumeMargin] < same;
  const at = partitionPoint(statements.length, guarded) - 1;
  if (at < 0) return undefined;
  const token = statements[at];
  const offset = table.starts[token];
  const graphAttrs: (readonly [string, DotAttribute])[] = [];
  for (const entry of graph.graphAttrs) {
    if (entry[1].keySpan.start >= offset) return undefined;
    graphAttrs.push(entry);
  }
  const nodes: NodeBuilder[] = [];
  const shared = new Set<NodeBuilder>();
  const places = info.nodePlaces;
  const earlierNodes = graph.nodes;
  for (let n = 0; n < earlierNodes.length; n++) {
    if (places[2 * n] >= offset) break;
    if (places[2 * n + 1] >= offset) return undefined;
    // the model's node is the builder it was made from (see `NodeBuilder`); this one is never changed in place
    const node = earlierNodes[n] as NodeBuilder;
    nodes.push(node);
    shared.add(node);
  }
  const mentioned = graph.mentions;
  const before = partitionPoint(mentioned.count, (m) => mentionStart(mentioned, m) < offset);
  const edgeStarts = info.edgeStarts;
  let kept = 0;
  while (kept < edgeStarts.length && edgeStarts[kept] < offset) kept++;
  const edges = graph.edges.slice(0, kept);
  const selfLoops: number[] = [];
  for (const e of info.selfLoops) if (e < kept) selfLoops.push(e);
  const diagnostics = previous.diagnostics.filter((d) => d.location.span !== undefined && d.location.span.start < offset);
  return {
    graph,
    table,
    open: info.open,
    token,
    index: at,
    rootNode: info.nodeDefaults[at],
    rootEdge: info.edgeDefaults[at],
    statements: statements.slice(0, at),
    nodeDefaults: info.nodeDefaults.slice(0, at),
    edgeDefaults: info.edgeDefaults.slice(0, at),
    nodes,
    shared,
    mentions: mentioned,
    mentionsBefore: before,
    edges,
    keptEdges: kept,
    selfLoops,
    previous,
    graphAttrs,
    diagnostics,
    earlier: info,
    same,
  };
}

/**
 * The end the two texts share, for the lexer to take the earlier tokens there (see
 * `LexResume.suffix`) and the parser the earlier statements (see `rejoin`).
 */
export function suffixOf(start: ResumeStart, text: string): { suffix: { from: number; delta: number } } | undefined {
  const earlier = start.earlier.text;
  const tail = commonSuffixLength(earlier, text, Math.min(earlier.length, text.length) - start.same);
  return tail > 0 ? { suffix: { from: text.length - tail, delta: text.length - earlier.length } } : undefined;
}

/**
 * `node` ready to change: a node taken from the earlier parse (still in `shared`) is copied, and
 * the copy put in its place in `nodes`, so that the earlier parse's node stays as it was.
 */
export function ownNode(shared: Set<NodeBuilder>, nodes: Map<string, NodeBuilder>, node: NodeBuilder): NodeBuilder {
  if (!shared.delete(node)) return node;
  const copy: NodeBuilder = { id: node.id, span: node.span, quoted: node.quoted, attrs: node.attrs, statements: node.statements.slice() };
  if (node.idError !== undefined) copy.idError = node.idError;
  nodes.set(node.id, copy);
  return copy;
}

// ---------------------------------------------------------------------- rejoin: after the edit

/** What `rejoin` reads of the parse in progress at a top-level statement, and what it extends when it takes the rest. */
export interface ParseInProgress {
  readonly text: string;
  readonly file: string;
  /** The statement's first token; after a rejoin, the graph's closing `}`. */
  pos: number;
  /** How many tokens the text has. */
  readonly count: number;
  readonly nodes: ReadonlyMap<string, NodeBuilder>;
  /** Each node's index in the graph's list. */
  readonly nodeIndexes: ReadonlyMap<string, number>;
  readonly edges: DotEdge[];
  readonly graphAttrs: ReadonlyMap<string, DotAttribute>;
  readonly mentions: MentionWriter;
  /** Per code, how many of the findings that are not parse errors were met. */
  readonly reportCounts: Map<DiagnosticCode, number>;
  readonly other: Diagnostic[];
  readonly topStatements: number[];
  readonly topNodeDefaults: ReadonlyMap<string, DotAttribute>[];
  readonly topEdgeDefaults: ReadonlyMap<string, DotAttribute>[];
}

/** What a rejoin took: the earlier top-level statement it took from, the nodes and edges (see `DotTaken`), and the nodes themselves, moved. */
export interface Rejoined {
  readonly at: number;
  readonly taken: DotTaken;
  /** The nodes named first after the cut, moved: the graph lists them after the others. */
  readonly nodes: NodeBuilder[];
}

/** Where and how a rejoin takes the rest of the earlier parse (see `rejoin`). */
interface RejoinPoint {
  /** The earlier top-level statement it takes from, and its first token. */
  readonly statement: number;
  readonly oldToken: number;
  /** Where the taken statements start in the earlier text, and how far on they are now. */
  readonly cut: number;
  readonly delta: number;
  /** The earlier nodes named first before the cut. */
  readonly named: number;
  /** The earlier parse's first mention after the cut. */
  readonly tail: number;
  /** Where the earlier nodes read anew (from `from.nodes.length` to `named`) are now; -1 for one gone. */
  readonly readAgain: Int32Array;
  /** The earlier parse's first edge after the cut. */
  readonly firstTakenEdge: number;
  /** The earlier findings after the cut. */
  readonly later: readonly Diagnostic[];
}

/**
 * At the top-level statement at `p.pos`, in the end both texts share (the lexer took the earlier
 * tokens from there, `shift` further on): when it is one of the earlier parse's top-level
 * statements and what the statements before it left behind reads as it did there, takes the rest
 * of the earlier parse, moved by what the edit added or removed, instead of reading it again, and
 * leaves `p.pos` at the graph's closing `}`. The earlier parse was clean (see `resumableOf`), and
 * so must the statements read since the resumed one be (the caller checks that); what a later
 * statement reads of the earlier ones must be the same in both:
 * - the root defaults in force (the same maps, or maps that read the same where the same
 *   statements set them, when the parse read their statement again), and no graph attribute
 *   set in between;
 * - a node the rest names again is named here too, and not declared again in the rest;
 * - a node the rest names first is not named here;
 * - the same nodes have self-loops;
 * - the findings stay under the cap of listed ones.
 * Anything else, and the parse reads on.
 */
export function rejoin(p: ParseInProgress, from: ResumeStart, shift: number, nodeDefaults: ReadonlyMap<string, DotAttribute>, edgeDefaults: ReadonlyMap<string, DotAttribute>): Rejoined | undefined {
  const point = rejoinPoint(p, from, shift, nodeDefaults, edgeDefaults);
  return point === undefined ? undefined : takeRest(p, from, point);
}

/** Where the rest may be taken from at `p.pos`, when every condition of `rejoin` holds. */
function rejoinPoint(p: ParseInProgress, from: ResumeStart, shift: number, nodeDefaults: ReadonlyMap<string, DotAttribute>, edgeDefaults: ReadonlyMap<string, DotAttribute>): RejoinPoint | undefined {
  const info = from.earlier;
  const previous = from.previous;
  const statements = info.statements;
  const oldToken = p.pos - shift;
  const j = partitionPoint(statements.length, (k) => statements[k] < oldToken);
  if (j >= statements.length || statements[j] !== oldToken) return undefined;
  if (!sameDefaults(nodeDefaults, info.nodeDefaults[j]) || !sameDefaults(edgeDefaults, info.edgeDefaults[j]) || p.graphAttrs.size !== from.graphAttrs.length) return undefined;
  const old = previous.graph!;
  const cut = previous.table.starts[oldToken];
  const places = info.nodePlaces;
  const named = partitionPoint(old.nodes.length, (n) => places[2 * n] < cut);
  const oldMentions = old.mentions;
  const tail = partitionPoint(oldMentions.count, (m) => mentionStart(oldMentions, m) < cut);
  const readAgain = nodesReadAgain(p, from, cut, named, tail);
  if (readAgain === undefined) return undefined;
  const edgeStarts = info.edgeStarts;
  const firstTakenEdge = partitionPoint(edgeStarts.length, (e) => edgeStarts[e] < cut);
  if (!sameSelfLoops(p, from, firstTakenEdge)) return undefined;
  const later = previous.diagnostics.filter((d) => d.location.span !== undefined && d.location.span.start >= cut);
  const counts = new Map(p.reportCounts);
  for (const d of later) counts.set(d.code, (counts.get(d.code) ?? 0) + 1);
  for (const seen of counts.values()) if (seen > maxParseErrors) return undefined;
  return { statement: j, oldToken, cut, delta: p.text.length - info.text.length, named, tail, readAgain, firstTakenEdge, later };
}

/**
 * Where the earlier parse's nodes named first between where this parse resumed and the cut are
 * here (-1 for one gone), when the nodes read the same on both sides of the cut; else undefined.
 * (A node named before the resumed statement is never declared again after it: see `resumeAt`.)
 */
function nodesReadAgain(p: ParseInProgress, from: ResumeStart, cut: number, named: number, tail: number): Int32Array | undefined {
  const places = from.earlier.nodePlaces;
  const old = from.previous.graph!;
  const oldNodes = old.nodes;
  const oldMentions = old.mentions;
  const readAgain = new Int32Array(Math.max(0, named - from.nodes.length));
  for (let k = from.nodes.length; k < named; k++) {
    // declared again after the cut: its attributes here may differ
    if (places[2 * k + 1] >= cut) return undefined;
    readAgain[k - from.nodes.length] = p.nodeIndexes.get(oldNodes[k].id) ?? -1;
  }
  // a node named again after the cut must exist here too
  for (let m = tail; m < oldMentions.count; m++) {
    const k = mentionedNode(oldMentions, m);
    if (k >= from.nodes.length && k < named && readAgain[k - from.nodes.length] < 0) return undefined;
  }
  // a node named first after the cut must be new here too
  for (let k = named; k < oldNodes.length; k++) if (p.nodes.has(oldNodes[k].id)) return undefined;
  return readAgain;
}

/** True when the edges read since the resumed statement have self-loops on the same nodes as the earlier ones up to `firstTakenEdge`. */
function sameSelfLoops(p: ParseInProgress, from: ResumeStart, firstTakenEdge: number): boolean {
  const edges = p.edges;
  const oldEdges = from.previous.graph!.edges;
  const loopsNow = new Set<string>();
  for (let e = from.keptEdges; e < edges.length; e++) if (edges[e].source === edges[e].target) loopsNow.add(edges[e].source);
  const loopsThen = new Set<string>();
  for (const e of from.earlier.selfLoops) if (e >= from.keptEdges && e < firstTakenEdge) loopsThen.add(oldEdges[e].source);
  return loopsNow.size === loopsThen.size && ![...loopsNow].some((id) => !loopsThen.has(id));
}

/** Takes the rest of the earlier parse from `point`, moved: its findings, statements, mentions, nodes and edges. */
function takeRest(p: ParseInProgress, from: ResumeStart, point: RejoinPoint): Rejoined {
  const info = from.earlier;
  const previous = from.previous;
  const statements = info.statements;
  const old = previous.graph!;
  const oldNodes = old.nodes;
  const oldEdges = old.edges;
  const oldMentions = old.mentions;
  const { cut, delta, named, oldToken, readAgain } = point;
  const move = movedBy(cut, delta);
  for (const d of point.later) {
    p.reportCounts.set(d.code, (p.reportCounts.get(d.code) ?? 0) + 1);
    p.other.push(movedDiagnostic(d, p.file, move.span));
  }
  for (let k = point.statement; k < statements.length; k++) {
    p.topStatements.push(p.pos + statements[k] - oldToken);
    p.topNodeDefaults.push(move.attributes(info.nodeDefaults[k]));
    p.topEdgeDefaults.push(move.attributes(info.edgeDefaults[k]));
  }
  // (the nodes named first after the cut follow those here, in the same order)
  const shift = p.nodes.size - named;
  for (let m = point.tail; m < oldMentions.count; m++) {
    const k = mentionedNode(oldMentions, m);
    p.mentions.add(k < from.nodes.length ? k : k < named ? readAgain[k - from.nodes.length] : k + shift, mentionStart(oldMentions, m) + delta, mentionEnd(oldMentions, m) + delta);
  }
  const taken: DotTaken = { from: serialOf(previous), nodes: p.nodes.size, earlierNodes: named, edges: p.edges.length, earlierEdges: point.firstTakenEdge, delta };
  // (kept out of the id maps: nothing is read after them, and the graph lists them after the rest)
  const nodes: NodeBuilder[] = [];
  for (let k = named; k < oldNodes.length; k++) nodes.push(move.node(oldNodes[k] as NodeBuilder));
  for (let e = point.firstTakenEdge; e < oldEdges.length; e++) p.edges.push(move.edge(oldEdges[e]));
  p.pos = p.count - 1;
  return { at: point.statement, taken, nodes };
}

/** Every field of `DotAttribute`, as `sameDefaults` compares them (the compiler checks none is missing). */
const attributeFields = ['key', 'value', 'keySpan', 'valueSpan', 'quoted', 'fromDefault'] as const;
const everyAttributeField: Exclude<keyof DotAttribute, (typeof attributeFields)[number]> extends never ? true : never = true;
void everyAttributeField;

/** True when two defaults maps hold the same attributes, set by the same tokens, in the same order. */
function sameDefaults(a: ReadonlyMap<string, DotAttribute>, b: ReadonlyMap<string, DotAttribute>): boolean {
  if (a === b) return true;
  if (a.size !== b.size) return false;
  const others = [...b.values()];
  let k = 0;
  for (const x of a.values()) {
    const y = others[k++];
    if (x === y) continue;
    if (x.key !== y.key || x.value !== y.value || x.quoted !== y.quoted || x.fromDefault !== y.fromDefault) return false;
    if (x.keySpan.start !== y.keySpan.start || x.keySpan.end !== y.keySpan.end || x.valueSpan.start !== y.valueSpan.start || x.valueSpan.end !== y.valueSpan.end) return false;
  }
  return true;
}

/** The earlier parse's objects after `cut`, moved by `delta` (the same objects when nothing moves). */
interface Mover {
  span(span: Span): Span;
  attributes(map: ReadonlyMap<string, DotAttribute>): ReadonlyMap<string, DotAttribute>;
  node(node: NodeBuilder): NodeBuilder;
  edge(edge: DotEdge): DotEdge;
}

/**
 * Moves what starts at or after `cut` by `delta`. Only whole statements after `cut` are moved, so
 * a span lies either wholly before it or wholly after. A defaults map is moved once however many
 * nodes share it, and an attribute map stays the same object when none of its attributes move.
 */
function movedBy(cut: number, delta: number): Mover {
  const span = (s: Span): Span => (delta === 0 || s.start < cut ? s : { start: s.start + delta, end: s.end + delta });
  const attribute = (a: DotAttribute): DotAttribute =>
    delta === 0 || (a.keySpan.start < cut && a.valueSpan.start < cut)
      ? a
      : { key: a.key, value: a.value, keySpan: span(a.keySpan), valueSpan: span(a.valueSpan), quoted: a.quoted, fromDefault: a.fromDefault };
  /** Moved plain maps: the defaults, which many nodes and edges share (a list or a view belongs to one statement). */
  const maps = new Map<ReadonlyMap<string, DotAttribute>, ReadonlyMap<string, DotAttribute>>();
  const attributes = (map: ReadonlyMap<string, DotAttribute>): ReadonlyMap<string, DotAttribute> => {
    if (delta === 0 || map.size === 0) return map;
    // (a statement's own list lies wholly after the cut or wholly before it: shown moved, or kept)
    if (map instanceof AttributeList) return map.allFrom(cut) ? map.moved(delta) : map.mapped(attribute);
    if (map instanceof LayeredMap) return (map as LayeredMap<string, DotAttribute>).remapped(attributes);
    const known = maps.get(map);
    if (known !== undefined) return known;
    let changed = false;
    const out = new Map<string, DotAttribute>();
    for (const [key, a] of map) {
      const b = attribute(a);
      if (b !== a) changed = true;
      out.set(key, b);
    }
    const moved = changed ? out : map;
    maps.set(map, moved);
    return moved;
  };
  return {
    span,
    attributes,
    node(node) {
      if (delta === 0) return node;
      const moved: NodeBuilder = { id: node.id, span: span(node.span), quoted: node.quoted, attrs: attributes(node.attrs), statements: node.statements.map(span) };
      if (node.idError !== undefined) moved.idError = node.idError;
      return moved;
    },
    edge(edge) {
      if (delta === 0) return edge;
      return { source: edge.source, target: edge.target, sourceSpan: span(edge.sourceSpan), targetSpan: span(edge.targetSpan), span: span(edge.span), attrs: attributes(edge.attrs) };
    },
  };
}
