/**
 * The Attractor lint (docs/compatibility.md#lint-rules): what in a readable topology Attractor
 * would read differently or refuse. Every `attractor/*` finding is a warning (except the [beyond]
 * `attractor/ignored-attribute`, an info); each code is listed at most 20 times, then once more as
 * a summary with no range.
 *
 * Two sources: the parsed graph (ids, effective attributes, edges) for what the parser settled,
 * and the token stream for what it threw away (quotes, separators, `#`, `+`, HTML-like values).
 * `attractor/undirected-graph` is never emitted: an undirected graph stops resolution earlier.
 */
import type { Diagnostic, DiagnosticCode, DiagnosticLocation } from '../diagnostics';
import { diagnosticInfo, sortDiagnostics } from '../diagnostics';
import type { Span } from '../text';
import {
  isAttractorDuration,
  isAttractorIdentifier,
  isAttractorKeyword,
  isBoundaryNodeId,
  isReservedAttribute,
  suggestNodeId,
} from '../syntax/attractor-table';
import { DotTokenCode as Code, type DotAttribute, type DotEdge, type DotGraph, type DotNode, type DotParseResult, type DotTokenTable } from '../syntax/dot-model';
import { tokenFlag, tokenSpan, tokenText, tokenValue } from '../syntax/dot-lexer';
import { dotParseReuse, dotParseSerial, type DotTaken } from '../syntax/dot-parser';
import { perItem, slot, stage, type Items, type Kept, type Slot } from '../stage';
import { checkCondition } from './condition';

/** How many times one code is listed before the rest are folded into one summary (docs/compatibility.md#attractor-checks). */
export const maxFindingsPerCode = 20;

/**
 * Node attributes Attractor reserves that a topology may still set on purpose: `label` and
 * `shape` also draw the topology itself when it is rendered with Graphviz, so setting them
 * (`node [shape=box]` is in nearly every bundle) is not a mistake even though the exporter takes
 * both from the card. Every other reserved node attribute set in the topology only matters to
 * an Attractor runner, and the exporter never copies it, so it is reported as ignored.
 */
const drawingAttributes: ReadonlySet<string> = new Set(['label', 'shape']);

/**
 * What `lintAttractor` may take from its last run over an earlier parse of the same file, through
 * the memo layer (../stage.ts), both slots with the parse as their declared input (an immutable
 * value): per node of the parse, by index, its facts (`NodeFacts`) kept with the node object
 * they were read from (`perItem`, declared input: the node), the list moved over from the last
 * parse's by `carriedFacts`; and the edge findings (`edgeFindingsOf`, built on the last ones).
 * Every key is present from `createLintMemo` on, each holding one kind of value. Opaque.
 */
export interface LintMemo {
  readonly nodes: Slot<ParseInputs, Items<NodeInputs, NodeFacts>>;
  readonly edges: Slot<ParseInputs, EdgeFindings>;
}

/** The parse, for what the lint reads of its graph. */
type ParseInputs = readonly [parse: DotParseResult];
/** A node's facts read the node alone: the parse's node object is their one declared input. */
type NodeInputs = readonly [node: DotNode, unused: undefined];

export function createLintMemo(): LintMemo {
  return { nodes: slot(), edges: slot() };
}

export function lintAttractor(parse: DotParseResult, text: string, file = 'topology.dot', memo?: LintMemo): Diagnostic[] {
  const graph = parse.graph;
  if (graph === undefined) return [];
  const report = createReporter(file);
  const nodes = graph.nodes;
  // (a one-shot lint keeps nothing: no list of kept facts to fill)
  const items = memo === undefined ? undefined : stage(memo.nodes, [parse], carriedFacts);
  const facts: NodeFacts[] = [];
  for (let n = 0; n < nodes.length; n++) facts.push(perItem(items, n, nodes[n], nodes[n], undefined, nodeFacts, undefined));
  const edgeFindings = stage(memo?.edges, [parse], edgeFindingsOf);

  checkHeader(graph, parse, report);
  checkNodeIds(graph, facts, report);
  checkNodeAttributes(graph, facts, report);
  reportEdgeProblems(graph, edgeFindings, report);
  scanTokens(graph, parse.table, text, report);

  return sortDiagnostics(report.finish());
}

/**
 * The kept node facts of a parse, by node index, moved over from the last parse's: an algorithm
 * of alignment across parses, as resolution's `carryOver` is, not a declared-input reuse. A node
 * at the same index that reads as before (`readsAsBefore`, the one structural comparison: the
 * same id, id error and attribute view) keeps its facts, now kept with the new node object; so
 * does a node the parse took from the last one after the text it read anew (`DotTaken`, at an
 * index moved by the nodes added or removed) when its facts hold no place (`plainNode`: facts
 * with an attribute in them would have to move with it, and are read again).
 */
function carriedFacts([parse]: ParseInputs, last: Kept<ParseInputs, Items<NodeInputs, NodeFacts>> | undefined): Items<NodeInputs, NodeFacts> {
  const nodes = parse.graph!.nodes;
  // (grown by `push`: a kept array, see ../arrays.ts)
  const carried: Items<NodeInputs, NodeFacts> = [];
  if (last === undefined) {
    for (let n = 0; n < nodes.length; n++) carried.push(undefined);
    return carried;
  }
  const before = last.output;
  const reuse = dotParseReuse(parse)?.taken;
  const taken = reuse !== undefined && reuse.from === dotParseSerial(last.inputs[0]) ? reuse : undefined;
  for (let n = 0; n < nodes.length; n++) carried.push(carriedNode(before, nodes[n], n, taken));
  return carried;
}

/** The kept facts of node `n` of a new parse (see `carriedFacts`), undefined when they must be read again. */
function carriedNode(before: Items<NodeInputs, NodeFacts>, node: DotNode, n: number, taken: DotTaken | undefined): Kept<NodeInputs, NodeFacts> | undefined {
  const same = n < before.length ? before[n] : undefined;
  if (same !== undefined && readsAsBefore(same.inputs[0], node)) return same.inputs[0] === node ? same : { inputs: [node, undefined], output: same.output };
  if (taken === undefined || n < taken.nodes) return undefined;
  const m = n - taken.nodes + taken.earlierNodes;
  const earlier = m < before.length ? before[m] : undefined;
  return earlier !== undefined && earlier.output === plainNode ? { inputs: [node, undefined], output: plainNode } : undefined;
}

/**
 * The edge findings of a parse, built on the last computation when there is one: while every edge
 * reads the same (`sameEdges`: the same ends and guard values; text typed before the edges only
 * moves where the findings are reported), the last findings moved to this graph (`repointed`),
 * else found anew.
 */
function edgeFindingsOf([parse]: ParseInputs, last: Kept<ParseInputs, EdgeFindings> | undefined): EdgeFindings {
  const graph = parse.graph!;
  if (last !== undefined) {
    const earlier = last.inputs[0];
    const reuse = dotParseReuse(parse)?.taken;
    const taken = reuse !== undefined && reuse.from === dotParseSerial(earlier) ? reuse : undefined;
    const takenFrom = taken !== undefined && taken.edges === taken.earlierEdges ? taken.edges : Infinity;
    const kept = earlier.graph !== undefined && sameEdges(earlier.graph.edges, graph.edges, takenFrom) ? repointed(last.output, graph) : undefined;
    if (kept !== undefined) return kept;
  }
  return findEdgeProblems(graph);
}

/** What the lint reads of one node alone. */
interface NodeFacts {
  /** What is wrong with its id for Attractor, if anything (a hyphenated or keyword id already has a parse error). */
  readonly idProblem?: 'boundary' | 'keyword' | 'identifier';
  /** Its `type` attribute. */
  readonly type?: DotAttribute;
  /** Its reserved node attributes but `type` and the drawing ones, in order. */
  readonly reserved: readonly DotAttribute[];
}

/** True when `node` has what `nodeFacts` reads of `before`: the same id and the same attribute view (a parse that resumes hands the view back, also to a node it copies). */
function readsAsBefore(before: DotNode | undefined, node: DotNode): boolean {
  return before === node || (before !== undefined && before.attrs === node.attrs && before.id === node.id && before.idError === node.idError);
}

/** The facts of the many nodes with none. */
const plainNode: NodeFacts = { reserved: [] };

/** What the lint reads of one node alone (the per-item rule: the node is its declared input). */
function nodeFacts(node: DotNode): NodeFacts {
  const id = node.id;
  const idProblem = node.idError !== undefined ? undefined : isBoundaryNodeId(id) ? 'boundary' : isAttractorKeyword(id) ? 'keyword' : isAttractorIdentifier(id) ? undefined : 'identifier';
  const type = node.attrs.get('type');
  let reserved: DotAttribute[] | undefined;
  // (`forEach` walks an attribute view without copying it)
  node.attrs.forEach((attr) => {
    if (attr.key === 'type' || drawingAttributes.has(attr.key) || !isReservedAttribute('node', attr.key)) return;
    (reserved ??= []).push(attr);
  });
  if (idProblem === undefined && type === undefined && reserved === undefined) return plainNode;
  return { ...(idProblem !== undefined ? { idProblem } : {}), ...(type !== undefined ? { type } : {}), reserved: reserved ?? [] };
}

/**
 * True when the edges read the same for `findEdgeProblems`: the same ends and the same `condition`
 * and `weight` values, edge by edge, wherever they now are (text typed before them moves them;
 * `repointed` takes the places from the new objects). Edges from index `takenFrom` on were taken
 * from the parse `a` belongs to, at the same index: they read the same.
 */
function sameEdges(a: readonly DotEdge[], b: readonly DotEdge[], takenFrom: number): boolean {
  if (a.length !== b.length) return false;
  // (from `takenFrom` on, the edges were taken from the earlier parse at the same index: see `DotTaken`)
  const end = Math.min(a.length, takenFrom);
  for (let e = 0; e < end; e++) {
    const x = a[e];
    const y = b[e];
    if (x === y) continue;
    if (x.source !== y.source || x.target !== y.target) return false;
    if (x.attrs.get('condition')?.value !== y.attrs.get('condition')?.value || x.attrs.get('weight')?.value !== y.attrs.get('weight')?.value) return false;
  }
  return true;
}

// ---------------------------------------------------------------------- reporting

interface Reporter {
  /** A finding; its message may be given as a function, called only for the findings that are listed. */
  add(code: DiagnosticCode, message: string | (() => string), span: Span, extra?: Omit<DiagnosticLocation, 'file' | 'span'>): void;
  finish(): Diagnostic[];
}

function createReporter(file: string): Reporter {
  const found: Diagnostic[] = [];
  const counts = new Map<DiagnosticCode, number>();
  return {
    add(code, message, span, extra) {
      const seen = (counts.get(code) ?? 0) + 1;
      counts.set(code, seen);
      if (seen > maxFindingsPerCode) return;
      found.push({ code, severity: diagnosticInfo(code).severity, message: typeof message === 'string' ? message : message(), location: { file, span, ...extra } });
    },
    finish() {
      for (const [code, seen] of counts) {
        if (seen <= maxFindingsPerCode) continue;
        found.push({
          code,
          severity: diagnosticInfo(code).severity,
          message: `This problem occurs ${seen} times; only the first ${maxFindingsPerCode} are listed. Fix those and the rest will show.`,
          location: { file },
        });
      }
      return found;
    },
  };
}

// ---------------------------------------------------------------------- graph-level checks

function checkHeader(graph: DotGraph, parse: DotParseResult, report: Reporter): void {
  if (graph.strict && graph.strictSpan !== undefined) {
    report.add('attractor/strict-graph', 'The graph is declared `strict`, which Attractor does not accept; remove `strict`.', graph.strictSpan);
  }
  if (parse.trailing !== undefined) {
    report.add(
      'attractor/multiple-graphs',
      'The file goes on after its graph closes, and Attractor reads exactly one graph per file; move anything after the closing `}` to its own file, or delete it.',
      parse.trailing,
    );
  }
}

function checkNodeIds(graph: DotGraph, facts: readonly NodeFacts[], report: Reporter): void {
  // (the ids are gathered only when a listed finding suggests a new name)
  let ids: ReadonlySet<string> | undefined;
  const taken = (candidate: string): boolean => (ids ??= new Set(graph.nodes.map((n) => n.id))).has(candidate);
  for (let n = 0; n < graph.nodes.length; n++) {
    const problem = facts[n].idProblem;
    if (problem === undefined) continue;
    const node = graph.nodes[n];
    const id = node.id;
    if (problem === 'boundary') {
      const role = id === 'start' || id === 'Start' ? 'entry' : 'exit';
      report.add(
        'attractor/boundary-node-id',
        () => `Attractor treats a node named \`${id}\` as the pipeline's ${role}, so the exporter renames this node to \`n_${id}\` and the compiled file no longer matches the topology; rename it, e.g. to \`${suggestNodeId(id, taken)}\`.`,
        node.span,
        { nodeId: id },
      );
      continue;
    }
    if (problem === 'keyword') {
      report.add(
        'attractor/bad-node-id',
        () => `Node id \`${id}\` is a DOT keyword, so Attractor reads a statement starting with it as something other than a node; rename it, e.g. to \`${suggestNodeId(id, taken)}\`.`,
        node.span,
        { nodeId: id },
      );
      continue;
    }
    report.add(
      'attractor/bad-node-id',
      () => `Node id \`${id}\` is not an Attractor identifier (letters, digits and \`_\`, not starting with a digit); rename it, e.g. to \`${suggestNodeId(id, taken)}\`, and keep the readable name in the card.`,
      node.span,
      { nodeId: id },
    );
  }
}

function checkNodeAttributes(graph: DotGraph, facts: readonly NodeFacts[], report: Reporter): void {
  const reportedKeys = new Set<number>();
  for (let n = 0; n < graph.nodes.length; n++) {
    const { type, reserved } = facts[n];
    if (type === undefined && reserved.length === 0) continue;
    const id = graph.nodes[n].id;
    if (type !== undefined) {
      report.add(
        'attractor/reserved-attribute',
        () => `Node \`${id}\` sets \`type\`, which Attractor reads as a handler override, while a node's type belongs in its card; remove \`type\` from the topology.`,
        type.keySpan,
        { nodeId: id },
      );
    }
    for (const attr of reserved) {
      // A default (`node [timeout=…]`) reaches many nodes but is written once: report it once.
      if (reportedKeys.has(attr.keySpan.start)) continue;
      reportedKeys.add(attr.keySpan.start);
      report.add(
        'attractor/ignored-attribute',
        () => `\`${attr.key}\` on ${attr.fromDefault ? 'the node defaults' : `node \`${id}\``} does nothing: the exporter writes Attractor attributes from the card, never from the topology; set it on the card, or by hand in the compiled file.`,
        attr.keySpan,
        { nodeId: id },
      );
    }
  }
}

/** The edge findings of a graph, in the order they are reported. */
interface EdgeFindings {
  /** Each problem of each edge's `condition`, in edge order. */
  readonly conditions: readonly { readonly edge: DotEdge; readonly condition: DotAttribute; readonly index: number; readonly message: string }[];
  /** Each node with two or more outgoing edges of which some carry no guard, in node order (`index` in `graph.nodes`). */
  readonly forks: readonly { readonly node: DotNode; readonly index: number; readonly total: number; readonly unguarded: number }[];
  /** The messages of the forks listed so far, by node id (they read only the edges, so they hold while the findings are kept). */
  readonly messages: Map<string, string>;
}

function findEdgeProblems(graph: DotGraph): EdgeFindings {
  // Per source id: how many edges leave it, and how many of those carry neither guard.
  const arms = new Map<string, { total: number; open: number }>();
  const edges = graph.edges;
  const conditions: { edge: DotEdge; condition: DotAttribute; index: number; message: string }[] = [];
  // A pipeline repeats a few conditions (`outcome=success`) on many edges: each is parsed once.
  const problemsOf = new Map<string, ReturnType<typeof checkCondition>>();
  for (let e = 0; e < edges.length; e++) {
    const edge = edges[e];
    const condition = edge.attrs.get('condition');
    if (condition !== undefined) {
      let problems = problemsOf.get(condition.value);
      if (problems === undefined) problemsOf.set(condition.value, (problems = checkCondition(condition.value)));
      for (const problem of problems) conditions.push({ edge, condition, index: e, message: problem.message });
    }
    let counts = arms.get(edge.source);
    if (counts === undefined) arms.set(edge.source, (counts = { total: 0, open: 0 }));
    counts.total++;
    if (!guarded(condition, edge.attrs.get('weight'))) counts.open++;
  }
  const forks: { node: DotNode; index: number; total: number; unguarded: number }[] = [];
  for (let index = 0; index < graph.nodes.length; index++) {
    const node = graph.nodes[index];
    const counts = arms.get(node.id);
    if (counts === undefined || !isFork(counts.total, counts.open)) continue;
    forks.push({ node, index, total: counts.total, unguarded: counts.open });
  }
  return { conditions, forks, messages: new Map() };
}

/**
 * The findings of an earlier graph whose edges read the same (`sameEdges`), for `graph`: the same
 * condition problems, on this graph's edge at the same index, and the same ids are forks with the
 * same counts and messages, reported at this graph's node of that id. Forks are listed in node
 * order, so each is looked for after the one before; undefined when one is not found there (the
 * nodes were reordered). The earlier findings themselves when nothing moved.
 */
function repointed(findings: EdgeFindings, graph: DotGraph): EdgeFindings | undefined {
  let moved = false;
  const conditions: EdgeFindings['conditions'][number][] = [];
  for (const found of findings.conditions) {
    const edge = graph.edges[found.index];
    const condition = edge.attrs.get('condition');
    if (condition === undefined) return undefined; // (`sameEdges` rules this out)
    if (!samePlace(condition.valueSpan, found.condition.valueSpan)) moved = true;
    conditions.push({ edge, condition, index: found.index, message: found.message });
  }
  const forks: EdgeFindings['forks'][number][] = [];
  let at = 0;
  for (const fork of findings.forks) {
    while (at < graph.nodes.length && graph.nodes[at].id !== fork.node.id) at++;
    if (at === graph.nodes.length) return undefined;
    const node = graph.nodes[at];
    if (at !== fork.index || !samePlace(node.span, fork.node.span)) moved = true;
    forks.push({ node, index: at, total: fork.total, unguarded: fork.unguarded });
    at++;
  }
  return moved ? { conditions, forks, messages: findings.messages } : findings;
}

function samePlace(a: Span, b: Span): boolean {
  return a.start === b.start && a.end === b.end;
}

function reportEdgeProblems(graph: DotGraph, findings: EdgeFindings, report: Reporter): void {
  for (const { edge, condition, message } of findings.conditions) {
    report.add(
      'attractor/condition-syntax',
      () => `The condition on edge \`${edge.source} -> ${edge.target}\` does not parse: ${message}`,
      condition.valueSpan,
      { edge: { source: edge.source, target: edge.target } },
    );
  }
  // the targets of unguarded edges, gathered only once a fork is listed
  let openTargets: Map<string, Set<string>> | undefined;
  const targetsOf = (id: string): readonly string[] => {
    if (openTargets === undefined) {
      openTargets = new Map();
      for (const edge of graph.edges) {
        if (guarded(edge.attrs.get('condition'), edge.attrs.get('weight'))) continue;
        let targets = openTargets.get(edge.source);
        if (targets === undefined) openTargets.set(edge.source, (targets = new Set()));
        targets.add(edge.target);
      }
    }
    return [...(openTargets.get(id) ?? [])];
  };
  for (const { node, total, unguarded } of findings.forks) {
    const id = node.id;
    const message = (): string => {
      let text = findings.messages.get(id);
      if (text === undefined) {
        const names = targetsOf(id).map((target) => `\`${target}\``).join(', ');
        text = `Node \`${id}\` has ${total} outgoing edges and the one${unguarded > 1 ? 's' : ''} to ${names} carr${unguarded > 1 ? 'y' : 'ies'} neither \`condition\` nor \`weight\`, so an Attractor runner may choose between arms by how the target ids sort; give every arm a \`condition\` (or a \`weight\`).`;
        findings.messages.set(id, text);
      }
      return text;
    };
    report.add('attractor/unguarded-fork', message, node.span, { nodeId: id });
  }
}

/**
 * The node type under which a node runs every arm of its fan-out, so its arms need no guard:
 * resolution drops the `attractor/unguarded-fork` of such a node (the lint cannot know the card's
 * type), and the graph picture draws no fork there.
 */
export const everyArmType = 'parallel';

/** One fork as the lint reads it: a node with two or more outgoing edges, and the indexes (in `DotGraph.edges`) of the arms that carry neither guard. */
export interface UnguardedFork {
  readonly node: DotNode;
  readonly arms: readonly number[];
}

/**
 * Every fork the lint reports as `attractor/unguarded-fork`, in node order, with no cap on their
 * number (the lint lists 20): the graph picture draws each one.
 */
export function unguardedForks(graph: DotGraph): UnguardedFork[] {
  const bySource = new Map<string, { total: number; arms: number[] }>();
  for (let e = 0; e < graph.edges.length; e++) {
    const edge = graph.edges[e];
    let found = bySource.get(edge.source);
    if (found === undefined) bySource.set(edge.source, (found = { total: 0, arms: [] }));
    found.total++;
    if (!guarded(edge.attrs.get('condition'), edge.attrs.get('weight'))) found.arms.push(e);
  }
  const forks: UnguardedFork[] = [];
  for (const node of graph.nodes) {
    const found = bySource.get(node.id);
    if (found !== undefined && isFork(found.total, found.arms.length)) forks.push({ node, arms: found.arms });
  }
  return forks;
}

/** An edge with a `condition` or a `weight` is a guarded arm. */
function guarded(condition: DotAttribute | undefined, weight: DotAttribute | undefined): boolean {
  return isSet(condition) || isSet(weight);
}

/** A node is a fork to report when two or more edges leave it and some of them are unguarded. */
function isFork(total: number, unguarded: number): boolean {
  return total >= 2 && unguarded > 0;
}

/** A `condition`/`weight` that is present and not blank; a runner reads a blank one as absent. */
function isSet(attr: DotAttribute | undefined): boolean {
  return attr !== undefined && attr.value.trim().length > 0;
}

// ---------------------------------------------------------------------- token checks

function scanTokens(graph: DotGraph, table: DotTokenTable, text: string, report: Reporter): void {
  const count = table.count;
  // `#` comments and HTML-like values first, in source order (they are counted before the rest).
  let comment = 0;
  const hashComment = (before: number): void => {
    for (; comment < table.comments.length && table.comments[comment].span.start < before; comment++) {
      const t = table.comments[comment];
      if (t.kind === 'hash-comment') report.add('attractor/hash-comment', 'Attractor does not read `#` comments; write `//` instead of `#`.', t.span);
    }
  };
  // (the HTML-like values are found by the typed array's own search, not by a loop over every
  // token: V8 compiled such a loop while it ran (on-stack replacement), before the code after it
  // had ever run, and kept that code, which then gave up at the same place on every later call,
  // the rest of the scan run slowly; seen with --trace-deopt in about one session of ten:
  // `npm run bench:deopt`. The loop below, which reads every token, has nothing after it.)
  const kinds = table.kinds;
  for (let i = kinds.indexOf(Code.Html); i >= 0 && i < count; i = kinds.indexOf(Code.Html, i + 1)) {
    hashComment(table.starts[i]);
    if (tokenFlag(table, i) !== 'unterminated') {
      report.add('attractor/unsupported-value', 'Attractor has no HTML-like `<…>` values; write the value as a quoted string.', tokenSpan(table, i));
    }
  }
  hashComment(Number.POSITIVE_INFINITY);

  let ids: ReadonlySet<string> | undefined;
  const isNodeId = (value: string): boolean => (ids ??= new Set(graph.nodes.map((n) => n.id))).has(value);
  for (let i = 0; i < count; i++) {
    switch (table.kinds[i]) {
      case Code.LBracket:
        i = scanAttributeList(table, i, text, report) - 1;
        break;
      case Code.Plus:
        report.add('attractor/unsupported-value', 'Attractor cannot join strings with `+`; write the value as one quoted string.', tokenSpan(table, i));
        break;
      case Code.Number:
        if (kindOf(table, i - 1) === Code.Equals) checkNumberValue(table, i, report);
        break;
      case Code.String: {
        // (most strings are attribute values, which the position rules out before the value is read)
        if (!isNodePosition(table, i)) break;
        const value = tokenValue(table, i);
        if (isNodeId(value)) {
          const written = tokenText(table, i);
          const bare = isAttractorIdentifier(value) && !isAttractorKeyword(value);
          report.add(
            'attractor/quoted-node-id',
            () => bare
              ? `Node id \`${written}\` is quoted, and Attractor only reads bare node ids; write \`${value}\` without the quotes.`
              : `Node id \`${written}\` is quoted, and Attractor only reads bare node ids; rename the node to an identifier such as \`${suggestNodeId(value, isNodeId)}\` and write it without quotes.`,
            tokenSpan(table, i),
            { nodeId: value },
          );
        }
        break;
      }
      default:
        break;
    }
  }
}

/**
 * DarkPrint's node position for a quoted token (docs/compatibility.md#lint-rules): not beside `=`,
 * not the name after `digraph`/`graph`/`subgraph`, and either next to an edge operator, or opening
 * a statement (after nothing, `{`, `}`, `;` or `]`) and followed by `[`, `;` or `}`.
 */
function isNodePosition(table: DotTokenTable, i: number): boolean {
  const previous = kindOf(table, i - 1);
  const next = kindOf(table, i + 1);
  if (previous === Code.Equals || next === Code.Equals) return false;
  if (previous === Code.Keyword) {
    const word = tokenText(table, i - 1).toLowerCase();
    if (word === 'digraph' || word === 'graph' || word === 'subgraph') return false;
  }
  if (previous === Code.Arrow || previous === Code.Line || next === Code.Arrow || next === Code.Line) return true;
  const opensStatement = previous === undefined || previous === Code.LBrace || previous === Code.RBrace || previous === Code.Semicolon || previous === Code.RBracket;
  return opensStatement && (next === Code.LBracket || next === Code.Semicolon || next === Code.RBrace);
}

/** Walks one `[ … ]` list from its `[` (attr-separator and value forms, docs/compatibility.md#lint-rules); returns the index after it. */
function scanAttributeList(table: DotTokenTable, open: number, text: string, report: Reporter): number {
  const { starts, ends, count } = table;
  let i = open + 1;
  for (;;) {
    if (i >= count) return i;
    const keyKind = table.kinds[i];
    if (keyKind === Code.RBracket) return i + 1;
    if (!isIdLike(keyKind) || kindOf(table, i + 1) !== Code.Equals) return skipToClose(table, i);
    i += 2;
    if (i >= count || !isIdLike(table.kinds[i])) return skipToClose(table, i);
    const value = i;
    const valueKind = table.kinds[value];
    i++;
    if (valueKind === Code.String) {
      while (kindOf(table, i) === Code.Plus) {
        report.add('attractor/unsupported-value', 'Attractor cannot join strings with `+`; write the value as one quoted string.', tokenSpan(table, i));
        i++;
        if (kindOf(table, i) === Code.String) i++;
      }
    } else if (valueKind === Code.Number) {
      checkNumberValue(table, value, report);
    }
    // `1.0.0` unquoted: the parser reads the glued tokens as one value (and reports it).
    if (isGlued(valueKind)) {
      while (i < count && starts[i] === ends[i - 1] && isGlued(table.kinds[i])) i++;
    }
    if (i >= count) return i;
    const separator = table.kinds[i];
    if (separator === Code.Comma) {
      i++;
      continue;
    }
    if (separator === Code.RBracket) return i + 1;
    if (separator === Code.Semicolon) {
      report.add('attractor/attr-separator', 'Attractor needs commas between attributes, and this is a `;`; write `,` instead.', tokenSpan(table, i));
      i++;
      continue;
    }
    // A bare next key: the range is the gap where the comma belongs (the key itself when there is no gap).
    const gap = { start: ends[i - 1], end: starts[i] };
    const spaced = gap.end > gap.start && text.slice(gap.start, gap.end).trim().length === 0;
    report.add(
      'attractor/attr-separator',
      spaced
        ? 'Attractor needs commas between attributes, and these two are separated by a space; add `,` after the first.'
        : 'Attractor needs commas between attributes; add `,` before the next one.',
      spaced ? gap : tokenSpan(table, i),
    );
  }
}

function skipToClose(table: DotTokenTable, from: number): number {
  let i = from;
  while (i < table.count) {
    const kind = table.kinds[i];
    i++;
    if (kind === Code.RBracket) return i;
    if (kind === Code.RBrace || kind === Code.LBrace) return i - 1;
  }
  return i;
}

/** `900s` is a duration; `5min`, `30x`, `1.5h` are not values Attractor reads (docs/compatibility.md#lexer-decisions). */
function checkNumberValue(table: DotTokenTable, index: number, report: Reporter): void {
  const text = tokenText(table, index);
  let letters = -1;
  for (let k = 0; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c !== 45 && c !== 46 && (c < 48 || c > 57)) {
      letters = k;
      break;
    }
  }
  if (letters < 0 || isAttractorDuration(text)) return;
  report.add(
    'attractor/unsupported-value',
    `\`${text}\` is not a value Attractor reads: a duration is a whole number followed by \`ms\`, \`s\`, \`m\`, \`h\` or \`d\` (e.g. \`900s\`); write it that way, or quote it if it is text.`,
    tokenSpan(table, index),
  );
}

/** The kind code of token `i`, undefined outside the table. */
function kindOf(table: DotTokenTable, i: number): Code | undefined {
  return i >= 0 && i < table.count ? table.kinds[i] : undefined;
}

function isIdLike(kind: Code): boolean {
  return kind === Code.Id || kind === Code.Number || kind === Code.String || kind === Code.Html || kind === Code.Keyword;
}

function isGlued(kind: Code): boolean {
  return kind === Code.Id || kind === Code.Number || kind === Code.Keyword || kind === Code.Unknown;
}

