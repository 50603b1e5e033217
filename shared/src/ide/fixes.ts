/**
 * Quick fixes (docs/compatibility.md#quick-fixes): one `WorkspaceEdit` per action, found from the
 * diagnostic's location (code, span, path, nodeId, cardRef, edge) and recomputed from the bundle
 * rather than parsed out of a message. Each code with a fix has one fixer in `fixers`;
 * `fix all node ids` is a `source.fixAll` action offered whenever the topology has an id Attractor
 * cannot use or a graph or subgraph name DOT cannot read.
 *
 * Topology: rename an unusable node id everywhere it occurs; rename a hyphenated (sub)graph
 * name; `;`/space separators → `,`; `#` → `//`; `--` → `->`; `graph` → `digraph`; drop
 * `strict`; drop a node's `type` (a default statement left empty goes whole); pin a card the
 * bundle holds (loaded, close to the pin); use a port the card has (in an edge default too);
 * add the supplier to the card's `dependencies` (never the card itself); and, from ./authoring.ts,
 * write the card a node lacks, the port an edge names, the ports an edge needs, or pick a card.
 * Cards: remove a dependency no edge supplies; drop a retired field or a repeated phase; replace
 * an unknown, wrong-kind or deprecated term; move a data type from `will_not` to `cannot`; add
 * `params.tool_command`; set the lowest version the changes need; rename a misnamed card file.
 */
import type { Card, Port } from '../card/card-model';
import { portCompatible } from '../bundle/resolve';
import { cardRefNamedBy, expectedCardPath, suggestTerm } from '../check/card';
import { lowestVersionFor, compareVersionStrings } from '../check/semver';
import { inferBump } from '../check/version-bump';
import { isAttractorIdentifier, isAttractorKeyword, isUsableNodeId, suggestNodeId } from '../syntax/attractor-table';
import { quoteTopology } from '../compile/strings';
import type { Diagnostic, DiagnosticCode } from '../diagnostics';
import { deref, formatOf, type YamlEntry, type YamlMapping } from '../syntax/yaml';
import type { DotAttribute, DotEdge, DotGraph, DotNode, DotToken } from '../syntax/dot-model';
import { mentionNode, mentionStart, nodeOccurrences } from '../syntax/dot-mentions';
import { editDistance, lineIndex, type Span } from '../text';
import type { TermKind } from '../vocabulary/types';
import {
  cardAt,
  cardIndex,
  cardOfNode,
  graphIndex,
  isCardPath,
  isTopologyPath,
  mainTopology,
  pinOf,
  textOf,
  topologyView,
  vocabularyOf,
  type HeldCard,
  type TopologyView,
} from './context';
import { dataDocument, termKindOfField, walkPath, wireField } from './data-tree';
import { item } from './data-context';
import { endpointStart, indexAt, indexBefore, isIdLike, listOwner } from './dot-context';
import {
  addMappingEntry,
  addToList,
  collectEdits,
  lineEnd,
  lineStart,
  mappingOf,
  newScalar,
  nextLineStart,
  removeListItem,
  removeMappingEntry,
  scalarText,
} from './edits';
import { renameNode, separateAdjacentEdits, unglued } from './rename';
import type { CodeAction, IdeBundle, TextEdit, WorkspaceEdit } from './types';
import { createCardActions, pinPickAction, portActions } from './authoring';

/**
 * The quick fixes for those of `diagnostics` (engine-shaped, as published for `file`, after the
 * user's policy) that touch `span`, then the `source.fixAll` action when it applies. Never
 * throws; an action is left out when its edit cannot be worked out from the current text.
 */
export function codeActions(bundle: IdeBundle, file: string, span: Span, diagnostics: readonly Diagnostic[]): CodeAction[] {
  const text = textOf(bundle, file);
  if (text === undefined) return [];
  const actions: CodeAction[] = [];
  const context: FixContext = { bundle, file, text };
  for (const diagnostic of diagnostics) {
    const at = diagnostic.location.span;
    if (diagnostic.location.file !== file || (at !== undefined && (at.end < span.start || span.end < at.start))) continue;
    const fixer = fixers.get(diagnostic.code);
    if (fixer === undefined) continue;
    for (const action of fixer(context, diagnostic)) actions.push({ ...action, diagnostics: [diagnostic] });
  }
  if (isTopologyPath(file)) {
    const all = fixAllNodeIds(bundle, file);
    if (all !== undefined) actions.push(all);
  }
  // The same action for two diagnostics (`bad-node-id` and `quoted-node-id` on one token) is offered once.
  const seen = new Set<string>();
  return actions.filter((a) => {
    const key = `${a.kind}\u0000${a.title}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

interface FixContext {
  readonly bundle: IdeBundle;
  readonly file: string;
  readonly text: string;
}

type Fixer = (context: FixContext, diagnostic: Diagnostic) => CodeAction[];

function quickFix(title: string, edit: WorkspaceEdit, isPreferred = false): CodeAction {
  return { title, kind: 'quickfix', edit, ...(isPreferred ? { isPreferred } : {}) };
}

function single(file: string, span: Span, newText: string): WorkspaceEdit {
  return { changes: [{ file, edits: [{ span, newText }] }] };
}

const fixers: ReadonlyMap<DiagnosticCode, Fixer> = new Map<DiagnosticCode, Fixer>([
  ['dot/parse-error', (context, diagnostic) => [...fixNodeId(context, diagnostic), ...fixGraphName(context, diagnostic)]],
  ['attractor/bad-node-id', fixNodeId],
  ['attractor/quoted-node-id', fixNodeId],
  ['attractor/boundary-node-id', fixNodeId],
  ['attractor/attr-separator', fixSeparator],
  ['attractor/hash-comment', fixHashComment],
  ['dot/not-directed', fixNotDirected],
  ['attractor/strict-graph', fixStrict],
  ['attractor/reserved-attribute', fixNodeType],
  ['bundle/missing-card', fixPinOrWrite],
  ['bundle/unpinned-card', fixPinOrWrite],
  ['bundle/port-mismatch', (context, diagnostic) => [...fixPort(context, diagnostic), ...portActions(context.bundle, context.file, diagnostic)]],
  ['bundle/undeclared-dependency', fixUndeclaredDependency],
  ['bundle/missing-dependency', fixMissingDependency],
  ['card/retired-field', fixRetiredField],
  ['card/duplicate-phase', fixDuplicatePhase],
  ['card/unknown-term', fixTerm],
  ['card/wrong-term-kind', fixTerm],
  ['card/unknown-phase', fixTerm],
  ['card/deprecated-term', fixTerm],
  ['card/prohibition-misfiled', fixMisfiledProhibition],
  ['card/missing-field', fixToolCommand],
  ['card/version-bump-too-small', fixVersionBump],
  ['card/filename-mismatch', fixFileName],
  ['bundle/misfiled-card', fixFileName],
]);

// ---------------------------------------------------------------------- node ids

/** True when a node's id needs renaming for Attractor: not usable, or written quoted somewhere. */
function unusable(view: TopologyView, node: DotNode): boolean {
  if (node.idError !== undefined || !isUsableNodeId(node.id)) return true;
  return view.graph !== undefined && quotedNodes(view.graph, view.text).has(node);
}

/** The nodes written quoted at least once, read from the mentions in one pass (per graph). */
function quotedNodes(graph: DotGraph, text: string): ReadonlySet<DotNode> {
  let quoted = quotedCache.get(graph);
  if (quoted === undefined) {
    const found = new Set<DotNode>();
    const mentions = graph.mentions;
    for (let m = 0; m < mentions.count; m++) if (text.charCodeAt(mentionStart(mentions, m)) === 34) found.add(graph.nodes[mentionNode(mentions, m)]);
    quotedCache.set(graph, (quoted = found));
  }
  return quoted;
}

const quotedCache = new WeakMap<DotGraph, ReadonlySet<DotNode>>();

/**
 * The fixes for an unusable node id. When the diagnostic's occurrence is part of a glued
 * `step-1` (see `gluedRuns`), the preferred fix writes what the user meant, `step_1`, in place of
 * every `step-1` written so; the plain rename stays on offer after it (it renames `-1` alone, a
 * space keeping it apart from `step`, so the graph DOT reads stays as it is).
 */
function fixNodeId(context: FixContext, diagnostic: Diagnostic): CodeAction[] {
  const view = topologyView(context.bundle, context.file);
  const graph = view?.graph;
  const at = diagnostic.location.span;
  if (view === undefined || graph === undefined || at === undefined) return [];
  const nodeId = diagnostic.location.nodeId;
  const node =
    nodeId !== undefined
      ? graphIndex(graph).byId.get(nodeId)
      : graph.nodes.find((n) => n.idError !== undefined && nodeOccurrences(graph, n.id).some((o) => o.start === at.start && o.end === at.end));
  if (node === undefined || !unusable(view, node)) return [];
  const taken = new Set(graph.nodes.map((n) => n.id));
  const actions: CodeAction[] = [];
  const runs = gluedRuns(view);
  const run = runs.find((r) => r.parts.some((p) => p.start === at.start && p.end === at.end));
  if (run !== undefined) {
    const joined = suggestNodeId(run.written, (c) => taken.has(c));
    const edits = collectEdits();
    for (const other of runs) if (other.written === run.written) edits.add(context.file, other.span, unglued(view.text, other.span, joined));
    const parts = run.parts.map((p) => `\`${view.text.slice(p.start, p.end)}\``);
    const read = `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
    actions.push(quickFix(`Rename \`${run.written}\` to \`${joined}\` everywhere (DOT reads ${read} as separate nodes)`, separateAdjacentEdits(edits.result()), true));
  }
  const name = isUsableNodeId(node.id) ? node.id : suggestNodeId(node.id, (c) => taken.has(c));
  const edits = collectEdits();
  renameNode(context.bundle, view, node, name, edits, 'drop');
  if (edits.size > 0) {
    const title = name === node.id ? `Write node \`${node.id}\` without quotes everywhere` : `Rename node \`${node.id}\` to \`${name}\` everywhere`;
    actions.push(quickFix(title, separateAdjacentEdits(edits.result()), run === undefined));
  }
  // `Node [card="…"]` is DOT's defaults statement whatever the case of `node`: it gives every
  // node after it that card, and names no node. Where the same spelling names a node elsewhere
  // (`Node -> b`), it was most likely meant as that node's declaration: a second fix renames it
  // too, which makes it one (and drops the defaults it set, which the title says). Lowercase
  // `node [..]` is how defaults are written, and stays out of it.
  const defaults = node.idError === 'keyword' && node.id !== node.id.toLowerCase() ? keywordDefaults(view, node.id) : [];
  if (defaults.length > 0 && name !== node.id) {
    const declared = collectEdits();
    renameNode(context.bundle, view, node, name, declared, 'drop');
    for (const keyword of defaults) declared.add(context.file, keyword, unglued(view.text, keyword, name));
    const lines = lineIndex(view.text);
    const numbers = defaults.map((d) => lines.positionAt(d.start).line + 1);
    const where = numbers.length === 1 ? `on line ${numbers[0]}` : `on lines ${numbers.join(', ')}`;
    const reads = defaultsReading.get(node.id.toLowerCase()) ?? '';
    actions.push(
      quickFix(
        `Rename node \`${node.id}\` to \`${name}\` everywhere, \`${node.id} [...]\` ${where} included (as written it ${reads}, not this node's attributes)`,
        separateAdjacentEdits(declared.result()),
        false,
      ),
    );
  }
  return actions;
}

/**
 * The keyword tokens spelled exactly `id` (`Node`, `EDGE`, `Graph`…) whose list makes a defaults
 * statement (`Node [..]`, as `listOwner` reads it: not `a -> Node [..]`, which names a node), and
 * not inside braces that are an edge's end (`a -> { Node [..] }`, `{ Node [..] } -> c`), where a
 * node declared would gain those edges.
 */
function keywordDefaults(view: TopologyView, id: string): Span[] {
  const tokens = view.significant;
  const isEdgeOp = (k: number): boolean => tokens[k]?.kind === 'arrow' || tokens[k]?.kind === 'line';
  /** Per open brace, the statements found inside it so far, and whether the braces follow an edge operator. */
  const open: { found: Span[]; edgeEnd: boolean }[] = [];
  const found: Span[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.kind === 'lbrace') {
      // `-> {`, `-> subgraph {`, `-> subgraph s {`
      let k = i - 1;
      if (tokens[k]?.kind !== 'keyword' && isIdLike(tokens[k]?.kind ?? 'unknown') && tokens[k - 1]?.kind === 'keyword') k--;
      if (tokens[k]?.kind === 'keyword' && tokens[k].text.toLowerCase() === 'subgraph') k--;
      open.push({ found: [], edgeEnd: isEdgeOp(k) });
      continue;
    }
    if (token.kind === 'rbrace') {
      const group = open.pop();
      // the graph's own braces close last: what they hold is the answer
      if (group === undefined) continue;
      if (group.edgeEnd || isEdgeOp(i + 1)) continue;
      (open.length > 0 ? open[open.length - 1].found : found).push(...group.found);
      continue;
    }
    if (token.kind !== 'keyword' || token.text !== id || tokens[i + 1]?.kind !== 'lbracket' || listOwner(view, i + 1)?.kind !== 'defaults') continue;
    (open.length > 0 ? open[open.length - 1].found : found).push(token.span);
  }
  // an unclosed graph keeps what its open braces hold, but inside braces that are an edge's end
  let edgeEnd = false;
  for (const group of open) {
    edgeEnd ||= group.edgeEnd;
    if (!edgeEnd) found.push(...group.found);
  }
  return found.sort((a, b) => a.start - b.start);
}

/** What a defaults statement of each scope sets, as the fix's title says it. */
const defaultsReading: ReadonlyMap<string, string> = new Map([
  ['node', 'sets defaults for the nodes after it'],
  ['edge', 'sets defaults for the edges after it'],
  ['graph', "sets the graph's own attributes"],
]);

/**
 * Renames every node id Attractor cannot use, and every graph or subgraph name DOT cannot read
 * (`subgraph s-x`), in one edit (`source.fixAll`). A glued `step-1` whose parts include an
 * unusable id becomes the one id it was meant to be (`step_1`, see `gluedRuns`), the same
 * spelling the same name each time; the other occurrences of its parts are renamed as usual.
 */
export function fixAllNodeIds(bundle: IdeBundle, file: string): CodeAction | undefined {
  // Asked with every code action request on the topology (a client asks as the cursor moves):
  // made once per bundle snapshot and file.
  let byFile = fixAllMemo.get(bundle);
  if (byFile === undefined) fixAllMemo.set(bundle, (byFile = new Map()));
  if (byFile.has(file)) return byFile.get(file);
  const action = makeFixAllNodeIds(bundle, file);
  byFile.set(file, action);
  return action;
}

const fixAllMemo = new WeakMap<IdeBundle, Map<string, CodeAction | undefined>>();

/**
 * True when the topology may have something for the fix-all to do: an unusable node id, a parse
 * error, or text after the graph (a hyphenated graph or subgraph name, the only other thing it
 * renames, is a parse error inside the graph, and after it a `dot/unsupported` that reads
 * nothing). Checked first, as on most topologies there is nothing, without reading tokens.
 */
function mayFixNodeIds(view: TopologyView, graph: DotGraph): boolean {
  if (view.parse.trailing !== undefined || view.parse.diagnostics.some((d) => d.code === 'dot/parse-error')) return true;
  return graph.nodes.some((n) => unusable(view, n));
}

function makeFixAllNodeIds(bundle: IdeBundle, file: string): CodeAction | undefined {
  const view = topologyView(bundle, file);
  const graph = view?.graph;
  if (view === undefined || graph === undefined || !mayFixNodeIds(view, graph)) return undefined;
  const taken = new Set(graph.nodes.map((n) => n.id));
  const edits = collectEdits();
  const nodeAt = occurrenceIndex(graph);
  // Occurrences rewritten as part of a glued run (by start offset), and the nodes that had one.
  const inRuns = new Set<number>();
  const fixed = new Set<DotNode>();
  const joinedNames = new Map<string, string>();
  for (const run of gluedRuns(view)) {
    const parts = run.parts.map((p) => nodeAt.get(p.start));
    if (!parts.some((n) => n !== undefined && unusable(view, n))) continue;
    let joined = joinedNames.get(run.written);
    if (joined === undefined) {
      joined = suggestNodeId(run.written, (c) => taken.has(c));
      taken.add(joined);
      joinedNames.set(run.written, joined);
    }
    edits.add(file, run.span, unglued(view.text, run.span, joined));
    for (const part of run.parts) inRuns.add(part.start);
    for (const n of parts) if (n !== undefined && unusable(view, n)) fixed.add(n);
  }
  for (const node of graph.nodes) {
    if (!unusable(view, node)) continue;
    fixed.add(node);
    // Every occurrence went into a glued run: the node is gone, nothing is left to rename.
    if (nodeOccurrences(graph, node.id).every((o) => inRuns.has(o.start))) continue;
    const name = isUsableNodeId(node.id) ? node.id : suggestNodeId(node.id, (c) => taken.has(c));
    taken.add(name);
    renameNode(bundle, view, node, name, edits, 'drop', inRuns);
  }
  const count = fixed.size;
  const names = hyphenatedNames(view);
  for (const name of names) for (const span of name.spans) edits.add(file, span, name.name);
  if ((count === 0 && names.length === 0) || edits.size === 0) return undefined;
  const counts = [
    ...(count > 0 ? [`${count} node${count === 1 ? '' : 's'}`] : []),
    ...(names.length > 0 ? [`${names.length} graph name${names.length === 1 ? '' : 's'}`] : []),
  ].join(', ');
  const what = names.length === 0 ? 'node ids' : count === 0 ? 'graph names' : 'node ids and graph names';
  return { title: `Fix all ${what} (${counts})`, kind: 'source.fixAll', edit: separateAdjacentEdits(edits.result()) };
}

/** Each node by the start offset of each of its occurrences. */
function occurrenceIndex(graph: DotGraph): Map<number, DotNode> {
  const byStart = new Map<number, DotNode>();
  const mentions = graph.mentions;
  for (let m = 0; m < mentions.count; m++) byStart.set(mentionStart(mentions, m), graph.nodes[mentionNode(mentions, m)]);
  return byStart;
}

/**
 * A node id with a hyphen and a number written straight after it, `step-1` (or `a-1-2`,
 * `node-1`). DOT (docs/compatibility.md#dot-dialect) reads the id, then `-1` as a number, so
 * `step-1 -> b` is the node `step` and an edge `-1 -> b`: two nodes where the user almost surely
 * meant one. `written` is the whole spelling over `span`; `parts` are its tokens, each a node
 * occurrence.
 */
interface GluedRun {
  readonly written: string;
  readonly span: Span;
  readonly parts: readonly Span[];
}

/**
 * Every glued run in the topology, in source order: a bare id (or a keyword, which the parser
 * still reads as a node) in node position, followed without a blank by one or more negative
 * numbers in node position (so never an attribute value). Their fix writes the run as one id
 * (`suggestNodeId`: `step-1` -> `step_1`), which merges the parts into the node meant. That id
 * is made unique among the graph's ids (`step_1_2` when `step_1` is taken), so the fix never
 * folds the run into a node written elsewhere. A quoted `"step"-1` is left out (the quote shows
 * where the id ends, so it reads as written).
 */
function gluedRuns(view: TopologyView): GluedRun[] {
  const graph = view.graph;
  if (graph === undefined) return [];
  const occurrences = occurrenceIndex(graph);
  const tokens = view.significant;
  const out: GluedRun[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const head = tokens[i];
    if ((head.kind !== 'id' && head.kind !== 'keyword') || head.hyphenated === true || !occurrences.has(head.span.start)) continue;
    const parts: Span[] = [head.span];
    let j = i + 1;
    for (; j < tokens.length; j++) {
      const t = tokens[j];
      if (t.kind !== 'number' || t.text.charCodeAt(0) !== 45 /* - */ || t.span.start !== parts[parts.length - 1].end || !occurrences.has(t.span.start)) break;
      parts.push(t.span);
    }
    if (parts.length === 1) continue;
    const span = { start: head.span.start, end: parts[parts.length - 1].end };
    out.push({ written: view.text.slice(span.start, span.end), span, parts });
    i = j - 1;
  }
  return out;
}

// ---------------------------------------------------------------------- graph and subgraph names

/** A graph or subgraph name written bare with a `-` (a `dot/parse-error`), and the name it becomes. */
interface NameFix {
  readonly kind: 'graph' | 'subgraph';
  readonly written: string;
  readonly name: string;
  /** Every bare occurrence of the name in the same role. */
  readonly spans: readonly Span[];
}

/**
 * The graph and subgraph names DOT cannot read because of a `-`, in source order: each becomes
 * its underscored spelling (the parser's suggestion), made unique among the names of its role
 * (two subgraphs of one name are one subgraph), and quoted when that is still no DOT word.
 */
function hyphenatedNames(view: TopologyView): NameFix[] {
  const tokens = view.significant;
  const found = new Map<string, { kind: NameFix['kind']; written: string; spans: Span[] }>();
  const taken = new Set<string>();
  for (let i = 1; i < tokens.length; i++) {
    const before = tokens[i - 1];
    const t = tokens[i];
    if (before.kind !== 'keyword' || !isIdLike(t.kind)) continue;
    const word = before.text.toLowerCase();
    const kind = word === 'subgraph' ? 'subgraph' : word === 'graph' || word === 'digraph' ? 'graph' : undefined;
    if (kind === undefined) continue;
    const key = `${kind}\u0000${t.text}`;
    if (t.kind !== 'id' || t.hyphenated !== true) {
      taken.add(`${kind}\u0000${t.value}`);
      continue;
    }
    const entry = found.get(key);
    if (entry === undefined) found.set(key, { kind, written: t.text, spans: [t.span] });
    else entry.spans.push(t.span);
  }
  const out: NameFix[] = [];
  for (const entry of found.values()) {
    const base = entry.written.replace(/-/g, '_');
    let name = base;
    for (let n = 2; taken.has(`${entry.kind}\u0000${name}`); n++) name = `${base}_${n}`;
    taken.add(`${entry.kind}\u0000${name}`);
    out.push({ ...entry, name: isAttractorIdentifier(name) && !isAttractorKeyword(name) ? name : quoteTopology(entry.written) });
  }
  return out;
}

function fixGraphName(context: FixContext, diagnostic: Diagnostic): CodeAction[] {
  const view = topologyView(context.bundle, context.file);
  const at = diagnostic.location.span;
  if (view === undefined || at === undefined) return [];
  const fix = hyphenatedNames(view).find((n) => n.spans.some((s) => s.start === at.start && s.end === at.end));
  if (fix === undefined) return [];
  const edits = collectEdits();
  for (const span of fix.spans) edits.add(context.file, span, fix.name);
  return [quickFix(`Rename ${fix.kind} \`${fix.written}\` to \`${fix.name}\``, edits.result(), true)];
}

// ---------------------------------------------------------------------- DOT syntax

/**
 * A `,` in place of a `;` or a space, or before the next attribute. Not offered after a string
 * left open: DOT reads everything after its `"` as the string (the lexer only ends it at its
 * line to read on), so the comma would land inside it; closing the string comes first.
 */
function fixSeparator(context: FixContext, diagnostic: Diagnostic): CodeAction[] {
  const at = diagnostic.location.span;
  if (at === undefined) return [];
  const tokens = topologyView(context.bundle, context.file)?.significant;
  const before = tokens !== undefined ? tokens[indexBefore(tokens, at.start)] : undefined;
  if (before !== undefined && (before.unterminated === true || before.span.end > at.start)) return [];
  const written = context.text.slice(at.start, at.end);
  if (written === ';') return [quickFix('Replace `;` with `,`', single(context.file, at, ','), true)];
  if (written.length > 0 && /^[ \t]+$/.test(written)) return [quickFix('Separate the attributes with `,`', single(context.file, at, ', '), true)];
  return [quickFix('Separate the attributes with `,`', single(context.file, { start: at.start, end: at.start }, ','), true)];
}

function fixHashComment(context: FixContext, diagnostic: Diagnostic): CodeAction[] {
  const at = diagnostic.location.span;
  if (at === undefined || context.text.charCodeAt(at.start) !== 35) return [];
  return [quickFix('Write the comment with `//`', single(context.file, { start: at.start, end: at.start + 1 }, '//'), true)];
}

function fixNotDirected(context: FixContext, diagnostic: Diagnostic): CodeAction[] {
  const view = topologyView(context.bundle, context.file);
  const at = diagnostic.location.span;
  if (view === undefined || at === undefined) return [];
  const written = context.text.slice(at.start, at.end);
  const edits = collectEdits();
  for (const t of view.significant) if (t.kind === 'line') edits.add(context.file, t.span, '->');
  if (written.toLowerCase() === 'graph') {
    edits.add(context.file, at, 'digraph');
    const title = edits.size > 1 ? 'Declare the graph with `digraph` and its edges with `->`' : 'Declare the graph with `digraph`';
    return [quickFix(title, edits.result(), true)];
  }
  if (written !== '--' || edits.size === 0) return [];
  return [quickFix(edits.size > 1 ? 'Replace every `--` with `->`' : 'Replace `--` with `->`', edits.result(), true)];
}

function fixStrict(context: FixContext, diagnostic: Diagnostic): CodeAction[] {
  const at = diagnostic.location.span;
  if (at === undefined || context.text.slice(at.start, at.end).toLowerCase() !== 'strict') return [];
  let end = at.end;
  while (end < context.text.length && /[ \t]/.test(context.text[end])) end++;
  return [quickFix('Remove `strict`', single(context.file, { start: at.start, end }, ''), true)];
}

function fixNodeType(context: FixContext, diagnostic: Diagnostic): CodeAction[] {
  const view = topologyView(context.bundle, context.file);
  const at = diagnostic.location.span;
  if (view === undefined || at === undefined) return [];
  const nodeId = diagnostic.location.nodeId;
  const node = view.graph !== undefined && nodeId !== undefined ? graphIndex(view.graph).byId.get(nodeId) : undefined;
  const attr = node?.attrs.get('type');
  if (attr === undefined || attr.keySpan.start !== at.start) return [];
  const removal = attributeRemoval(view, attr);
  if (removal === undefined) return [];
  const where = attr.fromDefault ? 'the node defaults' : `node \`${node?.id ?? ''}\``;
  const edit = single(context.file, removal, '');
  const actions = [quickFix(`Remove \`type\` from ${where} (the card's \`type\` says what runs there)`, edit, true)];
  const held = node !== undefined ? cardOfNode(context.bundle, node) : undefined;
  if (held !== undefined) {
    actions.push({ ...quickFix(`Remove \`type\` from ${where} and open the \`type\` of \`${held.ref ?? held.file}\``, edit), show: { file: held.file, span: held.read.locate('type', 'value') } });
  }
  return actions;
}

/**
 * The range that removes one attribute with its separator: the separator after it when another
 * attribute follows, else the one before it (never leaving `[a=1, ]`). The only attribute of a
 * list takes the list with it; the only attribute of a `node [...]`/`edge [...]`/`graph [...]`
 * default takes the whole statement with its `;` (a bare `node;` would read as a node named
 * `node`), and its line when nothing else is on it.
 */
function attributeRemoval(view: TopologyView, attr: DotAttribute): Span | undefined {
  const tokens = view.significant;
  const text = view.text;
  const key = indexAt(tokens, attr.keySpan.start);
  if (key < 0 || tokens[key].span.start !== attr.keySpan.start) return undefined;
  let open = key - 1;
  while (open >= 0 && tokens[open].kind !== 'lbracket') open--;
  let close = key + 1;
  while (close < tokens.length && tokens[close].kind !== 'rbracket') close++;
  if (open < 0 || close >= tokens.length) return undefined;
  let valueEnd = key;
  while (valueEnd + 1 < close && tokens[valueEnd + 1].span.start < attr.valueSpan.end) valueEnd++;
  let alone = true;
  for (let i = open + 1; i < close && alone; i++) if ((i < key || i > valueEnd) && !isSeparator(tokens[i].kind)) alone = false;
  if (alone) {
    const statement = defaultsStatement(tokens, open, close);
    if (statement !== undefined) return wholeStatement(text, statement);
    // The only attribute in its list: remove the list and the blanks before it.
    let start = tokens[open].span.start;
    while (start > 0 && /[ \t]/.test(text[start - 1])) start--;
    return { start, end: tokens[close].span.end };
  }
  let after = valueEnd + 1;
  if (after < close && isSeparator(tokens[after].kind)) after++;
  // Another attribute follows: remove up to it.
  if (after < close) return { start: attr.keySpan.start, end: tokens[after].span.start };
  // The last attribute: from the end of the one before it, with any separator trailing it.
  const previous = isSeparator(tokens[key - 1].kind) ? key - 2 : key - 1;
  if (previous <= open) return undefined;
  return { start: tokens[previous].span.end, end: tokens[close - 1].span.end };
}

/** The `node`/`edge`/`graph` default statement the list `open`..`close` is the only list of, through its `;`. */
function defaultsStatement(tokens: TopologyView['significant'], open: number, close: number): Span | undefined {
  const keyword = tokens[open - 1];
  if (keyword === undefined || keyword.kind !== 'keyword' || !/^(node|edge|graph)$/i.test(keyword.text)) return undefined;
  const before = tokens[open - 2]?.kind;
  if (before === 'arrow' || before === 'line' || tokens[close + 1]?.kind === 'lbracket') return undefined;
  const end = tokens[close + 1]?.kind === 'semicolon' ? tokens[close + 1].span.end : tokens[close].span.end;
  return { start: keyword.span.start, end };
}

/** A statement's range with its line when nothing else is on it, else with the blanks that would be left doubled. */
function wholeStatement(text: string, statement: Span): Span {
  const start = lineStart(text, statement.start);
  const end = lineEnd(text, statement.end);
  const blankBefore = /^[ \t]*$/.test(text.slice(start, statement.start));
  const blankAfter = /^[ \t]*$/.test(text.slice(statement.end, end));
  if (blankBefore && blankAfter) return { start, end: nextLineStart(text, statement.end) };
  let to = statement.end;
  while (to < text.length && /[ \t]/.test(text[to])) to++;
  if (!blankAfter) return { start: statement.start, end: to };
  let from = statement.start;
  while (from > 0 && /[ \t]/.test(text[from - 1])) from--;
  return { start: from, end: to };
}

function isSeparator(kind: string): boolean {
  return kind === 'comma' || kind === 'semicolon';
}

// ---------------------------------------------------------------------- pins and ports

/**
 * Pins a card the bundle holds in place of a pin that finds none. Offered: the loaded versions
 * of the card id the node names (newest first, the first preferred), else the loaded versions of
 * the card ids near that id (`nearestCards`: the cards whose ports fit the node's edges first,
 * then the nearest id first, each id's versions newest first).
 * Never the pin itself, never a card file whose errors keep it out of the bundle (pinning it
 * would leave the same finding), at most `maxPinSuggestions` of them: a far-off card is a guess
 * the user is better off picking by hand.
 */
function fixPin(context: FixContext, diagnostic: Diagnostic): CodeAction[] {
  const view = topologyView(context.bundle, context.file);
  const nodeId = diagnostic.location.nodeId;
  const node = view?.graph !== undefined && nodeId !== undefined ? graphIndex(view.graph).byId.get(nodeId) : undefined;
  if (view === undefined || node === undefined) return [];
  const pin = pinOf(node);
  const index = cardIndex(context.bundle);
  const usable = (held: HeldCard): boolean => held.card !== undefined && held.ref !== undefined && held.ref !== pin.ref;
  const wanted = pin.id ?? looseId(pin.attr?.value) ?? node.id;
  let same = (index.byId.get(wanted) ?? []).filter(usable);
  if (same.length === 0) same = (index.byId.get(node.id.toLowerCase().replace(/_/g, '-')) ?? []).filter(usable);
  const candidates: HeldCard[] =
    same.length > 0
      ? [...same].reverse().slice(0, maxPinSuggestions)
      : nearestCards([...index.byRef.values()].filter(usable), wanted, maxPinSuggestions, (held) => fitsEdges(context.bundle, view, node, held));
  const actions: CodeAction[] = [];
  // A card file named for the pinned version that declares another (renamed for a new version
  // whose `version` was left as it was): writing the pinned version in it comes first.
  const misnamed = pin.ref !== undefined ? index.files.find((held) => held.card !== undefined && held.ref !== pin.ref && held.id === pin.id && cardRefNamedBy(held.file) === pin.ref) : undefined;
  const version = pin.ref?.slice(pin.ref.lastIndexOf('@') + 1);
  if (misnamed !== undefined && version !== undefined) {
    const at = misnamed.read.locate('version', 'value');
    const quote = misnamed.file.toLowerCase().endsWith('.json') ? '"' : '';
    actions.push(quickFix(`Write version \`${version}\` in ${misnamed.file}`, single(misnamed.file, at, `${quote}${version}${quote}`), true));
  }
  for (const held of candidates) {
    if (held.ref === undefined || held.version === undefined) continue;
    const edit = pinEdit(view, node, held, held.ref);
    if (edit !== undefined) actions.push(quickFix(edit.title, edit.edit, actions.length === 0 && same.length > 0));
  }
  return actions;
}


/** The pins of cards the bundle holds, then a card written for the node, then a pick among the bundle's cards. */
function fixPinOrWrite(context: FixContext, diagnostic: Diagnostic): CodeAction[] {
  const pins = fixPin(context, diagnostic);
  return [
    ...pins,
    ...createCardActions(context.bundle, context.file, diagnostic, attributePlacement).map((a) => (pins.length === 0 ? { ...a, isPreferred: true } : a)),
    ...pinPickAction(context.bundle, context.file, diagnostic, attributePlacement),
  ];
}

const maxPinSuggestions = 5;

/** The id part of a pin that does not parse as `id@exact-version` (`writer@1.x`, `writer@latest`). */
function looseId(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const at = value.trim().lastIndexOf('@');
  return at > 0 ? value.trim().slice(0, at) : undefined;
}

function pinEdit(view: TopologyView, node: DotNode, held: HeldCard, ref: string): { title: string; edit: WorkspaceEdit } | undefined {
  const pin = pinOf(node);
  const attr = pin.attr;
  const file = view.file;
  if (attr !== undefined && !attr.fromDefault) {
    if (pin.via === 'card') return { title: `Pin \`${ref}\``, edit: single(file, attr.valueSpan, `"${ref}"`) };
    if (held.id === node.id) return { title: `Pin version \`${held.version ?? ''}\``, edit: single(file, attr.valueSpan, `"${held.version ?? ''}"`) };
    return { title: `Pin \`${ref}\``, edit: single(file, { start: attr.keySpan.start, end: attr.valueSpan.end }, `card="${ref}"`) };
  }
  const placed = attributePlacement(view, node, `card="${ref}"`);
  return { title: `Pin \`${ref}\``, edit: single(file, placed.span, placed.newText) };
}

/**
 * Where a node takes a new attribute (`card="…"`): first in the list of its first statement, else
 * in a new list after its id (and port) there. A node that only edges mention is declared before
 * the statement of its first mention (in the same scope, so it takes the same defaults), on a line
 * of its own when that statement starts its line, else on the same line.
 */
function attributePlacement(view: TopologyView, node: DotNode, attribute: string): TextEdit {
  const statement = node.statements[0];
  const tokens = view.significant;
  if (statement !== undefined) {
    const open = tokens.find((t) => t.kind === 'lbracket' && t.span.start >= statement.start && t.span.start < statement.end);
    if (open !== undefined) {
      const next = tokens[tokens.indexOf(open) + 1];
      const empty = next === undefined || next.kind === 'rbracket';
      return { span: { start: open.span.end, end: open.span.end }, newText: empty ? attribute : `${attribute}, ` };
    }
    // after the id and its port (`a:p` takes the list after `:p`)
    const idEnd = endpointEnd(tokens, nodeOccurrences(view.graph!, node.id).find((o) => o.start === statement.start)?.end ?? statement.end);
    return { span: { start: idEnd, end: idEnd }, newText: ` [${attribute}]` };
  }
  const text = view.text;
  const idText = text.slice(node.span.start, node.span.end);
  const declaration = `${idText} [${attribute}];`;
  const at = edgeStatementStart(tokens, node.span.start);
  const start = lineStart(text, at);
  if (/^[ \t]*$/.test(text.slice(start, at))) {
    const eol = text.includes('\r\n') ? '\r\n' : '\n';
    return { span: { start, end: start }, newText: `${text.slice(start, at)}${declaration}${eol}` };
  }
  return { span: { start: at, end: at }, newText: `${declaration} ` };
}

/** The end of the endpoint whose id ends at `idEnd`: past its `:port` and `:compass`, when written. */
function endpointEnd(tokens: readonly DotToken[], idEnd: number): number {
  let k = tokens.findIndex((t) => t.span.end === idEnd);
  if (k < 0) return idEnd;
  while (tokens[k + 1]?.kind === 'colon' && tokens[k + 2] !== undefined && isIdLike(tokens[k + 2].kind)) k += 2;
  return tokens[k].span.end;
}

/**
 * Where the edge statement that names a node at `offset` starts: back over every `->`/`--` of
 * its chain, each endpoint's port, and each subgraph endpoint (`{a b} -> c`, `subgraph s {…} -> c`).
 */
function edgeStatementStart(tokens: readonly DotToken[], offset: number): number {
  let k = tokens.findIndex((t) => t.span.start === offset);
  if (k < 0) return offset;
  while (k >= 2 && (tokens[k - 1].kind === 'arrow' || tokens[k - 1].kind === 'line')) {
    k = endpointStart(tokens, k - 2);
    if (tokens[k].kind === 'rbrace') {
      let depth = 0;
      for (; k >= 0; k--) {
        if (tokens[k].kind === 'rbrace') depth++;
        else if (tokens[k].kind === 'lbrace' && --depth === 0) break;
      }
      if (k < 0) return offset;
      if (k >= 1 && isIdLike(tokens[k - 1].kind) && tokens[k - 2]?.kind === 'keyword') k -= 2;
      else if (k >= 1 && tokens[k - 1].kind === 'keyword' && tokens[k - 1].text.toLowerCase() === 'subgraph') k -= 1;
    }
  }
  return tokens[k].span.start;
}

/**
 * The cards whose id is near `wanted` (a card id; the version plays no part, since a misspelt id
 * rarely comes with a version the bundle holds): ids at most `idDistanceLimit(wanted)` edits
 * away, case aside; those that `fits` first, then the nearest id first (then in id order), and
 * for each id its versions, newest first; `limit` cards at most, chosen after that ranking.
 */
function nearestCards(cards: readonly HeldCard[], wanted: string, limit: number, fits: (held: HeldCard) => boolean): HeldCard[] {
  const target = wanted.toLowerCase();
  const cap = idDistanceLimit(target);
  const near: { held: HeldCard; id: string; d: number; fits: boolean }[] = [];
  const distances = new Map<string, number>();
  for (const held of cards) {
    const id = held.id;
    if (held.ref === undefined || id === undefined) continue;
    let d = distances.get(id);
    if (d === undefined) distances.set(id, (d = editDistance(target, id.toLowerCase())));
    if (d <= cap) near.push({ held, id, d, fits: fits(held) });
  }
  return near
    .sort(
      (a, b) =>
        Number(b.fits) - Number(a.fits) ||
        a.d - b.d ||
        (a.id < b.id ? -1 : a.id > b.id ? 1 : 0) ||
        compareVersionStrings(b.held.version ?? '', a.held.version ?? ''),
    )
    .slice(0, limit)
    .map((n) => n.held);
}

/**
 * True when pinning `held` on `node` leaves every edge of the node whose other end pins a loaded
 * card with a pair of ports whose types fit: the port the edge's `out=`/`in=` names on `held`
 * (which it must have), else any of its ports on that side, against the port named on the other
 * end when that card has it, else any of that card's ports. An edge whose other end pins no
 * loaded card, or whose other card declares no port on that side, says nothing either way.
 */
function fitsEdges(bundle: IdeBundle, view: TopologyView, node: DotNode, held: HeldCard): boolean {
  const card = held.card;
  const graph = view.graph;
  if (card === undefined || graph === undefined) return false;
  const lookups = graphIndex(graph);
  const vocabulary = vocabularyOf(bundle);
  const other = (id: string): Card | undefined => {
    if (id === node.id) return card;
    const end = lookups.byId.get(id);
    return end !== undefined ? cardOfNode(bundle, end)?.card : undefined;
  };
  const named = (ports: readonly Port[], name: string | undefined, strict: boolean): readonly Port[] => {
    if (name === undefined) return ports;
    const found = ports.filter((p) => p.name === name);
    return found.length > 0 || strict ? found : ports;
  };
  const carries = (edge: DotEdge): boolean => {
    const source = edge.source === node.id ? card : other(edge.source);
    const target = edge.target === node.id ? card : other(edge.target);
    if (source === undefined || target === undefined) return true;
    const outName = edge.attrs.get('out')?.value.trim();
    const inName = edge.attrs.get('in')?.value.trim();
    const outputs = named(source.outputs, outName, edge.source === node.id);
    const inputs = named(target.inputs, inName, edge.target === node.id);
    if (edge.source !== node.id && source.outputs.length === 0) return true;
    if (edge.target !== node.id && target.inputs.length === 0) return true;
    return outputs.some((o) => inputs.some((i) => portCompatible(vocabulary, o.type, i.type)));
  };
  return (lookups.outgoing.get(node.id) ?? []).every(carries) && (lookups.incoming.get(node.id) ?? []).every(carries);
}

/**
 * How many edits a card id may be from a pin's id to be offered in its place: a third of the
 * pin's id length, rounded up, so one edit for ids of up to three characters (`ac` finds `ab`,
 * not `xy`), two up to six (`wrtr` finds `writer`), and one more for every three characters.
 */
function idDistanceLimit(id: string): number {
  return Math.ceil(id.length / 3);
}

/**
 * Replaces a port name a card lacks with one it has: those whose type fits the other end first
 * (the port the edge's other `in=`/`out=` names, when that card has it, else any port of that
 * card), then by name distance; only a port that fits is preferred.
 * One value can reach several edges: a statement's list sets it on every pair of the statement
 * (`a -> b -> c [in=…]`, `{a b} -> c [out=…]`), an `edge [out=…]`/`edge [in=…]` default on every
 * edge in its scope that does not set its own. The value is fixed where it is written, and only
 * when every checked edge it reaches (both ends pinning a loaded card) lacks the port: the names
 * then offered are those every such card has on that side. Where one edge has the port, changing
 * the value would break it, so nothing is offered (splitting the statement, or setting the port
 * on the failing edge, is the user's call).
 */
function fixPort(context: FixContext, diagnostic: Diagnostic): CodeAction[] {
  const view = topologyView(context.bundle, context.file);
  const at = diagnostic.location.span;
  const ends = diagnostic.location.edge;
  const graph = view?.graph;
  if (view === undefined || graph === undefined || at === undefined || ends === undefined) return [];
  const lookups = graphIndex(graph);
  const cardOf = (id: string): Card | undefined => {
    const node = lookups.byId.get(id);
    return node !== undefined ? cardOfNode(context.bundle, node)?.card : undefined;
  };
  const vocabulary = vocabularyOf(context.bundle);
  for (const edge of lookups.outgoing.get(ends.source) ?? []) {
    if (edge.target !== ends.target) continue;
    for (const key of ['out', 'in'] as const) {
      const attr = edge.attrs.get(key);
      if (attr === undefined) continue;
      const wrong = attr.value.trim();
      let reached: readonly DotEdge[];
      if (!attr.fromDefault) {
        if (attr.valueSpan.start !== at.start || attr.valueSpan.end !== at.end) continue;
        // An edge statement's list sets the port on every pair of the statement (each link of a
        // chain, each member of a subgraph end): the one value is fixed for all of them.
        reached = graph.edges.filter((e) => {
          const a = e.attrs.get(key);
          return a !== undefined && !a.fromDefault && a.valueSpan.start === attr.valueSpan.start;
        });
      } else {
        // The engine reports a default's port on the edge it reaches.
        if (edge.span.start !== at.start || edge.span.end !== at.end) continue;
        const side = cardOf(key === 'out' ? edge.source : edge.target);
        if (side === undefined || (key === 'out' ? side.outputs : side.inputs).some((p) => p.name === wrong)) continue;
        // Both defaults wrong: two findings on one edge, told apart by the card each names.
        const ref = diagnostic.location.cardRef;
        if (ref !== undefined && ref !== `${side.id}@${side.version}`) continue;
        reached = graph.edges.filter((e) => {
          const a = e.attrs.get(key);
          return a !== undefined && a.fromDefault && a.valueSpan.start === attr.valueSpan.start;
        });
      }
      const checked: { own: readonly Port[]; other: readonly Port[] }[] = [];
      for (const e of reached) {
        const source = cardOf(e.source);
        const target = cardOf(e.target);
        if (source === undefined || target === undefined) continue;
        const own = key === 'out' ? source.outputs : target.inputs;
        if (own.some((p) => p.name === wrong)) return [];
        // The other end is the port its own `in=`/`out=` names when the card has it, else any of its ports.
        const others = key === 'out' ? target.inputs : source.outputs;
        const named = e.attrs.get(key === 'out' ? 'in' : 'out')?.value.trim();
        const pinned = named !== undefined ? others.filter((p) => p.name === named) : [];
        checked.push({ own, other: pinned.length > 0 ? pinned : others });
      }
      if (checked.length === 0) return [];
      const fits = (port: Port, other: readonly Port[]): boolean =>
        other.length === 0 || other.some((o) => (key === 'out' ? portCompatible(vocabulary, port.type, o.type) : portCompatible(vocabulary, o.type, port.type)));
      const ranked = checked[0].own
        .filter((port) => checked.every((c) => c.own.some((p) => p.name === port.name)))
        .map((port, i) => ({
          port,
          i,
          fits: checked.every((c) => fits(c.own.find((p) => p.name === port.name) ?? port, c.other)),
          d: editDistance(wrong.toLowerCase(), port.name.toLowerCase()),
        }))
        .sort((a, b) => Number(b.fits) - Number(a.fits) || a.d - b.d || a.i - b.i);
      const where = attr.fromDefault ? ' in the edge defaults' : '';
      // Only a port that fits is preferred: when none does, the edge still needs a change of type.
      return ranked.map((r, i) =>
        quickFix(`Use ${key === 'out' ? 'output' : 'input'} \`${r.port.name}\` (${r.port.type})${where}`, single(context.file, attr.valueSpan, `"${r.port.name}"`), i === 0 && r.fits),
      );
    }
  }
  return [];
}

// ---------------------------------------------------------------------- dependencies

/**
 * Adds the supplier's card id to the receiving card's `dependencies`. Not offered when that would
 * make a card depend on itself (two nodes pinning one `id@version`, one feeding the other: E
 * still reports the edge, but the entry would make every node pinning the card need an edge from
 * a node of its own card), nor when another node pinning the same card receives nothing from that
 * supplier: the entry is the card's, so that node would then report `bundle/missing-dependency`.
 * Two versions of one card id are two cards: `c@2.0.0` may list `c` to receive from `c@1.0.0`.
 */
function fixUndeclaredDependency(context: FixContext, diagnostic: Diagnostic): CodeAction[] {
  const view = topologyView(context.bundle, context.file);
  const ends = diagnostic.location.edge;
  const graph = view?.graph;
  if (graph === undefined || ends === undefined) return [];
  const lookups = graphIndex(graph);
  const source = lookups.byId.get(ends.source);
  const target = lookups.byId.get(diagnostic.location.nodeId ?? ends.target);
  const supplierCard = source ? cardOfNode(context.bundle, source) : undefined;
  const supplier = source ? supplierCard?.id ?? pinOf(source).id : undefined;
  const supplierRef = source ? supplierCard?.ref ?? pinOf(source).ref : undefined;
  const held = target ? cardOfNode(context.bundle, target) : undefined;
  if (supplier === undefined || held === undefined) return [];
  // (compared by `id@version` when both are known, else, to be safe, by id)
  const sameCard = supplierRef !== undefined && held.ref !== undefined ? supplierRef === held.ref : supplier === held.id;
  if (sameCard) return [];
  for (const other of held.ref !== undefined ? lookups.byRef.get(held.ref) ?? [] : []) {
    if (other === target) continue;
    const supplied = (lookups.incoming.get(other.id) ?? []).some((edge) => {
      const from = lookups.byId.get(edge.source);
      const card = from !== undefined ? cardOfNode(context.bundle, from)?.card : undefined;
      return card !== undefined && (card.id === supplier || edge.source === supplier);
    });
    if (!supplied) return [];
  }
  const text = textOf(context.bundle, held.file);
  const root = text !== undefined ? mappingOf(dataDocument(held.file, text).root) : undefined;
  if (text === undefined || root === undefined) return [];
  const format = formatOf(held.file);
  const edit = addToList(text, format, root, 'dependencies', newScalar(supplier, format), ['outputs', 'inputs']);
  return [quickFix(`Add \`${supplier}\` to the dependencies of \`${held.ref ?? held.file}\``, { changes: [{ file: held.file, edits: [edit] }] }, true)];
}

function fixMissingDependency(context: FixContext, diagnostic: Diagnostic): CodeAction[] {
  const path = diagnostic.location.path;
  if (path === undefined) return [];
  const removal = removeAt(context, path);
  return removal === undefined ? [] : [quickFix(`Remove \`${removal.value}\` from the dependencies`, single(context.file, removal.edit.span, removal.edit.newText), true)];
}

// ---------------------------------------------------------------------- card fields

interface DataContext {
  readonly text: string;
  readonly format: 'yaml' | 'json';
  readonly root: YamlMapping;
}

function dataContext(context: FixContext): DataContext | undefined {
  if (!isCardPath(context.file)) return undefined;
  const root = mappingOf(dataDocument(context.file, context.text).root);
  return root === undefined ? undefined : { text: context.text, format: formatOf(context.file), root };
}

/** Removes the list entry at an engine path (`dependencies[2]`, `phase[1]`). */
function removeAt(context: FixContext, path: string): { edit: { span: Span; newText: string }; value: string } | undefined {
  const data = dataContext(context);
  const match = /^(.*)\[(\d+)\]$/.exec(path);
  if (data === undefined || match === null) return undefined;
  const owner = walkPath(data.root, match[1]);
  const found = walkPath(data.root, path);
  const list = deref(owner?.node);
  const node = deref(found?.node);
  if (list?.kind !== 'sequence' || found?.index === undefined || node?.kind !== 'scalar') return undefined;
  const edit = removeListItem(data.text, list, found.index, owner?.entry);
  return edit === undefined ? undefined : { edit, value: String(node.value) };
}

function fixRetiredField(context: FixContext, diagnostic: Diagnostic): CodeAction[] {
  const data = dataContext(context);
  const key = diagnostic.location.path;
  const entry = key !== undefined ? data?.root.entries.get(key) : undefined;
  if (data === undefined || entry === undefined) return [];
  const edit = removeMappingEntry(data.text, data.format, data.root, entry);
  return [quickFix(`Remove the retired field \`${entry.key}\``, single(context.file, edit.span, edit.newText), true)];
}

function fixDuplicatePhase(context: FixContext, diagnostic: Diagnostic): CodeAction[] {
  const path = diagnostic.location.path;
  const removal = path !== undefined ? removeAt(context, path) : undefined;
  return removal === undefined ? [] : [quickFix(`Remove the repeated phase \`${removal.value}\``, single(context.file, removal.edit.span, removal.edit.newText), true)];
}

function fixTerm(context: FixContext, diagnostic: Diagnostic): CodeAction[] {
  const data = dataContext(context);
  const path = diagnostic.location.path;
  if (data === undefined || path === undefined) return [];
  const found = walkPath(data.root, path);
  const node = found?.node;
  if (node?.kind !== 'scalar' || typeof node.value !== 'string') return [];
  const value = node.value;
  const steps = (path.match(/[^.[\]]+|\[\d+\]/g) ?? []).map((s) => (s.startsWith('[') ? item : s));
  const kind: TermKind | undefined = diagnostic.code === 'card/unknown-phase' ? 'phase' : termKindOfField(steps);
  if (kind === undefined) return [];
  const vocabulary = vocabularyOf(context.bundle);
  const actions: CodeAction[] = [];
  const written = data.text.slice(node.span.start, node.span.end);
  let replacement: string | undefined;
  if (diagnostic.code === 'card/deprecated-term') {
    replacement = vocabulary.get(value)?.deprecated?.replacedBy ?? vocabulary.resolve(value)?.id;
    if (replacement === value) replacement = undefined;
  } else replacement = suggestTerm(vocabulary, value, kind);
  if (replacement !== undefined) {
    actions.push(quickFix(`Replace \`${value}\` with \`${replacement}\``, single(context.file, node.span, scalarText(replacement, data.format, written)), true));
  }
  // A sentence in `cannot` belongs in `will_not`.
  if (diagnostic.code === 'card/unknown-term' && wireField(steps[0] ?? '') === 'cannot' && /\s/.test(value.trim())) {
    const move = moveBetweenLists(context, data, path, 'will_not', ['cannot', 'dependencies', 'outputs']);
    if (move !== undefined) actions.push(quickFix(`Move the sentence to \`will_not\``, move, replacement === undefined));
  }
  return actions;
}

/** Removes the entry at `path` from its list and adds its value to the list `to` (created when absent). */
function moveBetweenLists(context: FixContext, data: DataContext, path: string, to: string, after: readonly string[]): WorkspaceEdit | undefined {
  const removal = removeAt(context, path);
  if (removal === undefined) return undefined;
  const target = data.root.entries.has(to) ? to : [...data.root.entries.keys()].find((k) => wireField(k) === to) ?? to;
  const addition = addToList(data.text, data.format, data.root, target, newScalar(removal.value, data.format), after);
  const removed = removal.edit;
  // (at the end of the file the removed item ends where the new list goes: the same case)
  const atRemovedEnd = addition.span.start === removed.span.end && addition.span.end === removed.span.end && removed.span.end === data.text.length;
  if (overlaps(addition.span, removed.span) || atRemovedEnd) {
    // The new list goes after the old one, whose end is inside what the removal takes away when
    // the item moved is its last. A block item goes with its whole line: the new list, which
    // starts a line of its own, goes at the end of the line before. Else it follows what the
    // removal leaves in place.
    if (addition.span.start !== addition.span.end) return undefined;
    const text = data.text;
    const lineBreak = text.charCodeAt(removed.span.start - 1) === 10 ? (text.charCodeAt(removed.span.start - 2) === 13 ? 2 : 1) : 0;
    if (lineBreak > 0 && /^\r?\n/.test(addition.newText)) {
      const at = removed.span.start - lineBreak;
      // (the item ends the file: its line break before goes too, and the file still ends without one)
      if (atRemovedEnd && removed.newText.length === 0) return single(context.file, { start: at, end: removed.span.end }, addition.newText);
      return { changes: [{ file: context.file, edits: [{ span: { start: at, end: at }, newText: addition.newText }, removed] }] };
    }
    return single(context.file, removed.span, `${removed.newText}${addition.newText}`);
  }
  return { changes: [{ file: context.file, edits: [addition, removed].sort((a, b) => a.span.start - b.span.start) }] };
}

function overlaps(a: Span, b: Span): boolean {
  return a.start < b.end && b.start < a.end;
}

function fixMisfiledProhibition(context: FixContext, diagnostic: Diagnostic): CodeAction[] {
  const data = dataContext(context);
  const path = diagnostic.location.path;
  if (data === undefined || path === undefined) return [];
  const found = walkPath(data.root, path);
  const value = found?.node?.kind === 'scalar' ? found.node.value : undefined;
  if (typeof value !== 'string') return [];
  const edit = moveBetweenLists(context, data, path, 'cannot', ['dependencies', 'outputs']);
  return edit === undefined ? [] : [quickFix(`Move \`${value}\` from \`${path.replace(/\[\d+\]$/, '')}\` to \`cannot\``, edit, true)];
}

function fixToolCommand(context: FixContext, diagnostic: Diagnostic): CodeAction[] {
  if (diagnostic.location.path !== 'params.tool_command') return [];
  const data = dataContext(context);
  if (data === undefined) return [];
  const { text, format, root } = data;
  // A blank command is itself a finding (`card/bad-type`, docs/compatibility.md#shell-tools): the
  // fix writes a placeholder command that passes, for the user to replace.
  const command = JSON.stringify(toolCommandPlaceholder);
  const entry: YamlEntry | undefined = root.entries.get('params');
  let edit: { span: Span; newText: string };
  if (entry === undefined) {
    // (in a flow-style card the new mapping is written in flow style too: a block value is not allowed there)
    const value = format === 'json' ? `{"tool_command": ${command}}` : text.charCodeAt(root.span.start) === 123 ? `{tool_command: ${command}}` : `\n  tool_command: ${command}`;
    edit = addMappingEntry(text, format, root, 'params', value, ['tools', 'mcp', 'skill', 'type']);
  } else {
    const params = deref(entry.value);
    if (params?.kind === 'mapping') {
      if (params.entries.has('tool_command')) return [];
      const flow = text.charCodeAt(params.span.start) === 123;
      if (format === 'json' || flow) edit = addMappingEntry(text, format, params, 'tool_command', command);
      else {
        const first = [...params.entries.values()].sort((a, b) => a.keySpan.start - b.keySpan.start)[0];
        const indent = first !== undefined ? text.slice(lineStart(text, first.keySpan.start), first.keySpan.start) : '  ';
        const at = lineEnd(text, entry.keySpan.end);
        edit = { span: { start: at, end: at }, newText: `${text.includes('\r\n') ? '\r\n' : '\n'}${indent}tool_command: ${command}` };
      }
    } else if (params === undefined || (params.kind === 'scalar' && params.value === null)) {
      const span = entry.value.span.end > entry.value.span.start ? entry.value.span : { start: lineEnd(text, entry.keySpan.end), end: lineEnd(text, entry.keySpan.end) };
      edit = { span, newText: format === 'json' ? `{"tool_command": ${command}}` : `${span.start === span.end ? ' ' : ''}{ tool_command: ${command} }` };
    } else return [];
  }
  return [quickFix(`Add \`params.tool_command\` with a placeholder (replace \`${toolCommandPlaceholder}\` with the command the node runs)`, single(context.file, edit.span, edit.newText), true)];
}

const toolCommandPlaceholder = 'echo TODO';

// ---------------------------------------------------------------------- versions and file names

function fixVersionBump(context: FixContext): CodeAction[] {
  const held = cardAt(context.bundle, context.file);
  const card = held?.card;
  const data = dataContext(context);
  if (held === undefined || card === undefined || data === undefined) return [];
  const versions = (cardIndex(context.bundle).byId.get(card.id) ?? []).filter((h): h is HeldCard & { card: Card } => h.card !== undefined);
  const previous = versions.filter((h) => compareVersionStrings(h.card.version, card.version) < 0).pop();
  if (previous === undefined) return [];
  const level = inferBump(previous.card, card).level;
  const target = lowestVersionFor(previous.card.version, level);
  const versionEntry = data.root.entries.get('version');
  if (target === undefined || versionEntry === undefined || versionEntry.value.kind !== 'scalar') return [];
  if (versions.some((h) => h.card.version === target)) return [];
  const edits = collectEdits();
  const written = data.text.slice(versionEntry.value.span.start, versionEntry.value.span.end);
  edits.add(context.file, versionEntry.value.span, scalarText(target, data.format, written));
  if (expectedCardPath(context.file, card.id, card.version) === undefined) {
    const moved = expectedCardPath(context.file, card.id, target);
    if (moved !== undefined && !context.bundle.files.has(moved)) edits.rename(context.file, moved);
  }
  // Nodes pinning the old version follow the card to its new version.
  const view = mainTopology(context.bundle);
  const oldRef = `${card.id}@${card.version}`;
  for (const node of view?.graph?.nodes ?? []) {
    const pin = pinOf(node);
    if (view === undefined || pin.ref !== oldRef || pin.attr === undefined) continue;
    const raw = view.text.slice(pin.attr.valueSpan.start, pin.attr.valueSpan.end);
    const at = raw.lastIndexOf(card.version);
    if (at >= 0) edits.add(view.file, { start: pin.attr.valueSpan.start + at, end: pin.attr.valueSpan.start + at + card.version.length }, target);
  }
  return [quickFix(`Set the version to \`${target}\` (the lowest that covers a ${level} change)`, edits.result(), true)];
}

function fixFileName(context: FixContext, diagnostic: Diagnostic): CodeAction[] {
  const held = cardAt(context.bundle, context.file);
  const id = typeof held?.draft.id === 'string' ? held.draft.id : undefined;
  const version = typeof held?.draft.version === 'string' ? held.draft.version : undefined;
  if (id === undefined || version === undefined || held?.id === undefined || held.version === undefined) return [];
  // A misfiled copy of a card the bundle holds in a card file (the finding points at that file)
  // is stale: the finding says to delete it, and renamed it would be a second file claiming the card.
  if (diagnostic.code === 'bundle/misfiled-card' && (diagnostic.related?.length ?? 0) > 0) return [];
  const to = expectedCardPath(context.file, id, version);
  if (to === undefined || context.bundle.files.has(to)) return [];
  return [quickFix(`Rename the file to \`${to}\``, { changes: [], renames: [{ from: context.file, to }] }, true)];
}
