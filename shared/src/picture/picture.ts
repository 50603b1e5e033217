/**
 * `pictureOf`: the picture model of a loaded bundle (./model.ts), made from what loading already
 * resolved and analysed. Nothing here checks the bundle again or decides a finding: the nodes,
 * edges, pins and port pairs are the resolution's, the risk markers, leaks, relays and uncapped
 * cycles the analysis's, the forks the lint's, the findings the load's. What it adds is where
 * each finding belongs (a node, an edge, or neither), the routes that show an overlay (./routes.ts),
 * positions as lines and columns, and what is still to settle, in words.
 *
 * Total: any `LoadResult` gives a picture, a broken bundle the part that resolved.
 */
import type { Diagnostic, Severity } from '../diagnostics';
import type { LoadResult } from '../bundle/resolve';
import type { Blueprint, CardEntry, ResolvedEdge, ResolvedNode, SourceFile } from '../bundle/model';
import type { Card, CardReadResult } from '../card/card-model';
import type { Vocabulary } from '../vocabulary/types';
import type { Analysis } from '../analyze';
import type { Span } from '../text';
import { lineStarts } from '../text';
import { humanMembership } from '../vocabulary/view';
import { reachableFrom, sinks, sources, stronglyConnected, type Graph } from '../analyze/graph';
import { anchorTerms, criteriaLeakMarker } from '../analyze/criteria';
import { everyArmType, unguardedForks } from '../check/attractor-lint';
import { cardRefNamedBy } from '../check/card';
import { blocksStorage } from '../compile/gate';
import { edgeKey, nodeKey } from './keys';
import { cycleClosers, relayRoutes } from './routes';
import {
  pictureFamilies,
  type Picture,
  type PictureEdge,
  type PictureFamily,
  type PictureFinding,
  type PictureFork,
  type PictureHeader,
  type PictureLoop,
  type PictureNode,
  type PictureOverlays,
  type PicturePlace,
  type PictureRisk,
  type PictureRoute,
  type Rankdir,
  type Unsettled,
} from './model';

export interface PictureOptions {
  /**
   * Count the columns of a file's first line from after a byte order mark, as for files read
   * from disk (the command line does); by default a mark counts as a character, as in a text an
   * editor sent.
   */
  readonly hideByteOrderMark?: boolean;
  /**
   * The bundle's files, for the positions of findings when no directed graph could be read (a
   * resolved bundle holds its own texts).
   */
  readonly files?: readonly SourceFile[];
}

export function pictureOf(result: LoadResult, options: PictureOptions = {}): Picture {
  const places = placeFinder(result.blueprint, options);
  const counts = { error: 0, warning: 0, info: 0 };
  for (const d of result.diagnostics) counts[d.severity]++;
  const blueprint = result.blueprint;
  if (blueprint === undefined) {
    const findings = result.diagnostics.map((d) => findingOf(d, places));
    const file = firstTopologyFile(result.diagnostics);
    return {
      graph: { ...(file !== undefined ? { file } : {}), rankdir: 'TB', drawn: false },
      header: { title: '', slug: '', counts },
      nodes: [],
      edges: [],
      overlays: { leaks: [], relays: [], loops: [], forks: [], entries: [], exits: [], unreachable: [] },
      unsettled: blocking(result.diagnostics, places),
      findings,
    };
  }
  return drawn(blueprint, result.analysis, result.diagnostics, counts, places);
}

/**
 * The family of a node type: the top of its broader chain (after a deprecated type's
 * replacement), when that is one of `pictureFamilies`.
 */
export function familyOf(vocabulary: Vocabulary, type: string | undefined): PictureFamily {
  if (type === undefined || type.trim().length === 0) return 'none';
  const term = vocabulary.resolve(type.trim(), 'node-type');
  if (term === undefined) return 'unknown';
  const chain = vocabulary.ancestors(term.id);
  const top = chain.length > 0 ? chain[chain.length - 1].id : term.id;
  return Object.prototype.hasOwnProperty.call(pictureFamilies, top) ? (top as PictureFamily) : 'unknown';
}

// ---- a resolved bundle ---------------------------------------------------------------------

/**
 * The picture of a bundle whose topology is a directed graph. Made for the edit path (a view
 * draws again after each change, so a 2,000-node bundle must take milliseconds): one object and
 * one place per node and edge, each card type read once, and what depends on a card alone kept
 * while the card is the same object.
 */
function drawn(blueprint: Blueprint, analysis: Analysis | undefined, diagnostics: readonly Diagnostic[], counts: PictureHeader['counts'], places: Places): Picture {
  const { graph, vocabulary } = blueprint;
  const file = blueprint.topology.file.path;
  const dotGraph = blueprint.topology.parse.graph!;
  const resolvedNodes = blueprint.nodes;
  const resolvedEdges = blueprint.edges;
  const slots = slotsOf(graph, resolvedNodes);
  const pairs = edgePairs(graph, resolvedEdges);
  const drafts = draftIndex(blueprint.cardFiles);

  // ---- where each finding belongs ----
  const nodeFindings: (Diagnostic[] | undefined)[] = new Array(resolvedNodes.length);
  const edgeFindings: (Diagnostic[] | undefined)[] = new Array(resolvedEdges.length);
  const toNode = (n: number, d: Diagnostic): void => void (nodeFindings[n] ??= []).push(d);
  const toEdge = (e: number, d: Diagnostic): void => void (edgeFindings[e] ??= []).push(d);
  let anchors: Anchor[] | undefined;
  let nodesByCardFile: Map<string, number[]> | undefined;
  const loose: Diagnostic[] = [];
  for (const d of diagnostics) {
    const location = d.location;
    if (location.edge !== undefined && location.file === file) {
      const e = pairs.find(location.edge.source, location.edge.target, location.span);
      if (e !== undefined) {
        toEdge(e, d);
        continue;
      }
    }
    if (location.nodeId !== undefined) {
      const i = graph.index.get(location.nodeId);
      const n = i === undefined ? -1 : slots[i];
      if (n >= 0) {
        toNode(n, d);
        continue;
      }
    }
    if (location.file === file && location.span !== undefined) {
      const anchor = anchorOf((anchors ??= topologyAnchors(resolvedNodes, resolvedEdges)), location.span);
      if (anchor !== undefined) {
        if (anchor.kind === 'node') toNode(anchor.index, d);
        else toEdge(anchor.index, d);
        continue;
      }
    }
    const pinning = location.file === undefined || location.file === file ? undefined : (nodesByCardFile ??= cardFileNodes(resolvedNodes, drafts)).get(location.file);
    if (pinning !== undefined) {
      for (const n of pinning) toNode(n, d);
      continue;
    }
    loose.push(d);
  }

  // ---- what the analysis found at each node ----
  const weights = new Map<string, number>();
  for (const penalty of analysis?.security.penalties ?? []) weights.set(penalty.marker, penalty.weight);
  const risks = new Map<string, PictureRisk[]>();
  for (const finding of analysis?.security.findings ?? []) {
    const risk: PictureRisk = { marker: finding.marker, weight: weights.get(finding.marker) ?? 0, establishedBy: finding.establishedBy };
    const list = risks.get(finding.nodeId);
    if (list === undefined) risks.set(finding.nodeId, [risk]);
    else list.push(risk);
  }

  // ---- nodes ----
  const kinds = typeReader(vocabulary);
  const phasesByNode = phasesOfNodes(analysis);
  const nodes: PictureNode[] = new Array(resolvedNodes.length);
  for (let n = 0; n < resolvedNodes.length; n++) {
    const node = resolvedNodes[n];
    const entry = node.entry;
    const card = entry?.card;
    const draft = card === undefined ? draftOf(node, drafts) : undefined;
    const type = card !== undefined ? card.type : text(draft?.read.draft.type);
    const kind = kinds(type);
    const found = nodeFindings[n];
    const statement = node.dot.statements.length > 0 ? node.dot.statements[0] : node.dot.span;
    const holder = entry ?? draft;
    const cardPlace = holder === undefined ? undefined : places.card(holder.read);
    const picture: Writable<PictureNode> = {
      id: node.id,
      key: nodeKey(node.id),
      name: nameOf(node, card, draft),
      card: pinOf(node.ref, card !== undefined, cardPlace),
      family: kind.family,
      phases: card !== undefined ? (phasesByNode?.get(node.id) ?? none) : phasesOf(draft?.read.draft.phases),
      human: kind.human,
      risks: risks.get(node.id) ?? none,
      findings: found === undefined ? none : found.map((d) => findingOf(d, places)),
      place: places.at(file, statement) ?? unplaced(file),
    };
    if (type !== undefined) picture.type = type;
    if (found !== undefined) picture.severity = worst(found);
    nodes[n] = picture;
  }

  // ---- edges ----
  const closes = cycleClosers(graph);
  const edges: PictureEdge[] = new Array(resolvedEdges.length);
  for (let e = 0; e < resolvedEdges.length; e++) {
    const edge = resolvedEdges[e];
    const found = edgeFindings[e];
    const s = pairs.sources[e];
    const t = pairs.targets[e];
    const picture: Writable<PictureEdge> = {
      index: e,
      key: edgeKey(e),
      source: edge.source,
      target: edge.target,
      closesCycle: s >= 0 && t >= 0 && closes(s, t),
      findings: found === undefined ? none : found.map((d) => findingOf(d, places)),
      place: places.at(file, edge.dot.span) ?? unplaced(file),
    };
    if (edge.label !== undefined) picture.label = edge.label;
    if (edge.pair !== undefined) {
      picture.ports = { out: edge.pair.output.name, in: edge.pair.input.name };
      picture.carries = edge.pair.output.type;
    }
    if (edge.condition !== undefined) picture.condition = edge.condition;
    if (edge.weight !== undefined) picture.weight = edge.weight;
    if (found !== undefined) picture.severity = worst(found);
    edges[e] = picture;
  }

  const entries = sources(graph);
  const overlays = overlaysOf(blueprint, analysis, entries, pairs, slots);
  const header: PictureHeader = {
    title: blueprint.manifest.title,
    slug: blueprint.manifest.slug,
    ...(analysis !== undefined
      ? {
          security: { level: analysis.security.level, raw: analysis.security.raw, rationale: analysis.security.rationale },
          autonomy: { level: analysis.autonomy.level, class: analysis.autonomy.autonomyClass, label: analysis.autonomy.label, fraction: analysis.autonomy.fraction },
          phases: { covered: analysis.phaseCoverage.covered, missing: analysis.phaseCoverage.missing },
        }
      : {}),
    counts,
  };
  const name = dotGraph.name;
  return {
    graph: { file, ...(name !== undefined ? { name } : {}), rankdir: rankdirOf(dotGraph.graphAttrs.get('rankdir')?.value), drawn: true },
    header,
    nodes,
    edges,
    overlays,
    unsettled: [
      ...blocking(diagnostics, places),
      ...cardless(resolvedNodes, nodeFindings, nodes),
      ...carryingNothing(resolvedEdges, edgeFindings, nodes, edges, pairs, slots),
      ...unfedInputs(resolvedNodes, resolvedEdges, pairs, slots, nodes),
    ],
    findings: loose.map((d) => findingOf(d, places)),
  };
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/** The one empty list every node and edge without findings or risks shares. */
const none: readonly never[] = Object.freeze([]);

/** Per graph index, the index of its node in `blueprint.nodes` (-1 for none): the same index when both lists are in one order, as they nearly always are. */
function slotsOf(graph: Graph, nodes: readonly ResolvedNode[]): Int32Array {
  const ids = graph.ids;
  const slots = new Int32Array(ids.length).fill(-1);
  let aligned = nodes.length === ids.length;
  for (let i = 0; aligned && i < ids.length; i++) aligned = nodes[i].id === ids[i];
  if (aligned) {
    for (let i = 0; i < ids.length; i++) slots[i] = i;
    return slots;
  }
  for (let n = nodes.length - 1; n >= 0; n--) {
    const i = graph.index.get(nodes[n].id);
    if (i !== undefined) slots[i] = n;
  }
  return slots;
}

function pinOf(ref: string | undefined, resolved: boolean, place: PicturePlace | undefined): PictureNode['card'] {
  if (ref === undefined) return place === undefined ? { resolved } : { resolved, place };
  return place === undefined ? { ref, resolved } : { ref, resolved, place };
}

function nameOf(node: ResolvedNode, card: Card | undefined, draft: CardEntry | undefined): string {
  return nonBlank(card?.name) ?? nonBlank(text(draft?.read.draft.name)) ?? nonBlank(node.dot.attrs.get('label')?.value) ?? node.id;
}

/** The family and whether a person acts there, per type, each type read once. */
function typeReader(vocabulary: Vocabulary): (type: string | undefined) => { readonly family: PictureFamily; readonly human: boolean } {
  const known = new Map<string, { family: PictureFamily; human: boolean }>();
  const untyped = { family: 'none' as PictureFamily, human: false };
  return (type) => {
    if (type === undefined) return untyped;
    let kind = known.get(type);
    if (kind === undefined) {
      kind = { family: familyOf(vocabulary, type), human: humanMembership(vocabulary, type) !== undefined };
      known.set(type, kind);
    }
    return kind;
  };
}

/**
 * The phases of each node with a card, as phase coverage reads them (trimmed, each once), in
 * lifecycle order then the others' order of first appearance: read from the analysis rather
 * than from every card again. Undefined without an analysis.
 */
function phasesOfNodes(analysis: Analysis | undefined): Map<string, string[]> | undefined {
  if (analysis === undefined) return undefined;
  const out = new Map<string, string[]>();
  const byPhase = analysis.phaseCoverage.byPhase;
  for (const phase in byPhase) {
    for (const id of byPhase[phase]) {
      const list = out.get(id);
      if (list === undefined) out.set(id, [phase]);
      else if (list[list.length - 1] !== phase) list.push(phase);
    }
  }
  return out;
}

/** The edges by their ends, in graph indexes. */
interface EdgePairs {
  readonly sources: Int32Array;
  readonly targets: Int32Array;
  /** The first edge from `source` to `target`. */
  first(source: string, target: string): number | undefined;
  /** Of the edges from `source` to `target`, the one whose span holds `span`, else the first. */
  find(source: string, target: string, span: Span | undefined): number | undefined;
}

function edgePairs(graph: Graph, edges: readonly ResolvedEdge[]): EdgePairs {
  const size = graph.ids.length;
  const sources = new Int32Array(edges.length);
  const targets = new Int32Array(edges.length);
  for (let e = 0; e < edges.length; e++) {
    sources[e] = graph.index.get(edges[e].source) ?? -1;
    targets[e] = graph.index.get(edges[e].target) ?? -1;
  }
  // made when first asked: the first edge of each pair, and the next edge of the same pair after each
  let firstOf: Map<number, number> | undefined;
  let next: Int32Array | undefined;
  const build = (): Map<number, number> => {
    const map = new Map<number, number>();
    const after = new Int32Array(edges.length).fill(-1);
    const last = new Map<number, number>();
    for (let e = 0; e < edges.length; e++) {
      if (sources[e] < 0 || targets[e] < 0) continue;
      const key = sources[e] * size + targets[e];
      const before = last.get(key);
      if (before === undefined) map.set(key, e);
      else after[before] = e;
      last.set(key, e);
    }
    next = after;
    return map;
  };
  const firstEdge = (source: string, target: string): number | undefined => {
    const s = graph.index.get(source);
    const t = graph.index.get(target);
    return s === undefined || t === undefined ? undefined : (firstOf ??= build()).get(s * size + t);
  };
  return {
    sources,
    targets,
    first: firstEdge,
    find(source, target, span) {
      const first = firstEdge(source, target);
      if (first === undefined || span === undefined) return first;
      for (let e = first; e !== -1; e = next![e]) if (holds(edges[e].dot.span, span)) return e;
      return first;
    },
  };
}

/** The nodes that pin each card file, valid or not. */
function cardFileNodes(nodes: readonly ResolvedNode[], drafts: Drafts): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (let n = 0; n < nodes.length; n++) {
    const path = nodes[n].entry?.read.file ?? draftOf(nodes[n], drafts)?.read.file;
    if (path === undefined) continue;
    const list = out.get(path);
    if (list === undefined) out.set(path, [n]);
    else list.push(n);
  }
  return out;
}

// ---- overlays ------------------------------------------------------------------------------

function overlaysOf(blueprint: Blueprint, analysis: Analysis | undefined, entryIndexes: readonly number[], pairs: EdgePairs, slots: Int32Array): PictureOverlays {
  const { graph, vocabulary } = blueprint;
  const ids = graph.ids;
  const along = (route: readonly string[]): number[] => {
    const out: number[] = [];
    for (let k = 1; k < route.length; k++) {
      const e = pairs.first(route[k - 1], route[k]);
      if (e !== undefined) out.push(e);
    }
    return out;
  };
  const cardAt = (i: number): Card | undefined => (slots[i] < 0 ? undefined : blueprint.nodes[slots[i]].entry?.card);

  // criteria-leak: the analysis's route to each node carrying the marker
  const leaks: PictureRoute[] = [];
  const loopNodes = new Set<string>();
  for (const finding of analysis?.security.findings ?? []) {
    if (finding.marker === unboundedLoop && finding.establishedBy === 'inferred') loopNodes.add(finding.nodeId);
    if (finding.marker !== criteriaLeakMarker) continue;
    const route = finding.path ?? [finding.nodeId];
    const leak: Writable<PictureRoute> = { node: finding.nodeId, nodes: route, edges: along(route) };
    if (finding.pathOmitted !== undefined) leak.omitted = finding.pathOmitted;
    leaks.push(leak);
  }

  // relayed through a judge: a route that shows it, to each node the analysis names
  const relayed: number[] = [];
  for (const d of analysis?.diagnostics ?? []) {
    if (d.code !== 'analysis/criteria-relayed-through-judge' || d.location.nodeId === undefined) continue;
    const i = graph.index.get(d.location.nodeId);
    if (i !== undefined) relayed.push(i);
  }
  const relays: PictureRoute[] = [];
  if (relayed.length > 0) {
    const roles = roleReader(vocabulary);
    const routes = relayRoutes(
      graph,
      (i) => {
        const card = cardAt(i);
        return card !== undefined && roles(card).producer;
      },
      (i) => {
        const card = cardAt(i);
        return card !== undefined && roles(card).judge;
      },
      relayed,
    );
    for (const i of relayed) {
      const found = routes.get(i);
      const route = found === undefined ? [ids[i]] : found.route.map((k) => ids[k]);
      const relay: Writable<PictureRoute> = { node: ids[i], nodes: route, edges: along(route) };
      if (found !== undefined) relay.through = [ids[found.through]];
      relays.push(relay);
    }
  }

  // unbounded loops: the cycles that hold a node the analysis marks
  const loops: PictureLoop[] = [];
  if (loopNodes.size > 0) {
    const member = new Int32Array(ids.length).fill(-1);
    for (const component of stronglyConnected(graph)) {
      if (!component.some((i) => loopNodes.has(ids[i]))) continue;
      for (const i of component) member[i] = loops.length;
      loops.push({ nodes: component.map((i) => ids[i]), edges: [] });
    }
    for (let e = 0; e < pairs.sources.length; e++) {
      const s = pairs.sources[e];
      if (s >= 0 && member[s] !== -1 && member[s] === member[pairs.targets[e]]) (loops[member[s]].edges as number[]).push(e);
    }
  }

  // forks whose arms a runner may pick between by how their ids sort
  const forks: PictureFork[] = [];
  for (const { node, arms } of unguardedForks(blueprint.topology.parse.graph!)) {
    const i = graph.index.get(node.id);
    const type = i === undefined ? undefined : cardAt(i)?.type;
    if (type === undefined || !vocabulary.isA(type, everyArmType)) forks.push({ node: node.id, arms });
  }

  const unreachable: string[] = [];
  if (entryIndexes.length > 0) {
    const reached = reachableFrom(graph, entryIndexes);
    for (let i = 0; i < ids.length; i++) if (!reached[i]) unreachable.push(ids[i]);
  }
  return {
    leaks,
    relays,
    loops,
    forks,
    entries: entryIndexes.map((i) => ids[i]),
    exits: sinks(graph).map((i) => ids[i]),
    unreachable,
  };
}

const unboundedLoop = 'unbounded-loop';

/**
 * What the relay routes ask of a card: whether it outputs acceptance criteria (a producer) and
 * whether its type is a judge's, kept per card object and vocabulary, so that a redraw after an
 * edit reads only the cards that changed.
 */
function roleReader(vocabulary: Vocabulary): (card: Card) => Role {
  const criteriaType = new Map<string, boolean>();
  const carries = (type: string): boolean => {
    let known = criteriaType.get(type);
    if (known === undefined) criteriaType.set(type, (known = vocabulary.isA(type, anchorTerms.acceptanceCriteria)));
    return known;
  };
  return (card) => {
    let role = roles.get(card);
    if (role === undefined || role.vocabulary !== vocabulary) {
      role = { vocabulary, producer: card.outputs.some((port) => carries(port.type)), judge: vocabulary.isA(card.type, anchorTerms.validation) };
      roles.set(card, role);
    }
    return role;
  };
}

interface Role {
  readonly vocabulary: Vocabulary;
  readonly producer: boolean;
  readonly judge: boolean;
}

const roles = new WeakMap<Card, Role>();

// ---- still to settle -------------------------------------------------------------------------

function blocking(diagnostics: readonly Diagnostic[], places: Places): Unsettled[] {
  const out: Unsettled[] = [];
  for (const d of diagnostics) {
    if (!blocksStorage(d)) continue;
    const item: Writable<Unsettled> = { kind: 'blocks-export', message: d.message, code: d.code };
    if (d.location.nodeId !== undefined) item.node = d.location.nodeId;
    const place = d.location.file !== undefined && d.location.span !== undefined ? places.at(d.location.file, d.location.span) : undefined;
    if (place !== undefined) item.place = place;
    out.push(item);
  }
  return out;
}

/** The codes that say why a node has no card. */
const pinCodes: ReadonlySet<string> = new Set(['bundle/missing-card', 'bundle/unpinned-card']);

function cardless(resolved: readonly ResolvedNode[], findings: readonly (readonly Diagnostic[] | undefined)[], nodes: readonly PictureNode[]): Unsettled[] {
  const out: Unsettled[] = [];
  for (let n = 0; n < resolved.length; n++) {
    const node = resolved[n];
    if (node.entry !== undefined) continue;
    const why = findings[n]?.find((d) => pinCodes.has(d.code));
    const message = why?.message ?? `Node ${node.id} has no card, so nothing says what it does; pin one of the bundle's cards with card="<card-id>@<version>".`;
    out.push(why !== undefined ? { kind: 'no-card', message, code: why.code, node: node.id, place: nodes[n].place } : { kind: 'no-card', message, node: node.id, place: nodes[n].place });
  }
  return out;
}

/** The codes that say why an edge between two cards carries nothing. */
const emptyEdgeCodes: ReadonlySet<string> = new Set(['bundle/port-mismatch', 'bundle/type-mismatch']);

function carryingNothing(
  resolved: readonly ResolvedEdge[],
  findings: readonly (readonly Diagnostic[] | undefined)[],
  nodes: readonly PictureNode[],
  edges: readonly PictureEdge[],
  pairs: EdgePairs,
  slots: Int32Array,
): Unsettled[] {
  const out: Unsettled[] = [];
  const hasCard = (i: number): boolean => i >= 0 && slots[i] >= 0 && nodes[slots[i]].card.resolved;
  for (let e = 0; e < resolved.length; e++) {
    const edge = resolved[e];
    if (edge.pair !== undefined) continue;
    const name = `${edge.source} -> ${edge.target}`;
    const missing: string[] = [];
    if (!hasCard(pairs.sources[e])) missing.push(edge.source);
    if (!hasCard(pairs.targets[e]) && edge.target !== edge.source) missing.push(edge.target);
    const why = missing.length === 0 ? findings[e]?.find((d) => emptyEdgeCodes.has(d.code)) : undefined;
    const message =
      missing.length > 0
        ? `Edge ${name} carries nothing yet: ${missing.length === 1 ? `node ${missing[0]} has` : `nodes ${missing[0]} and ${missing[1]} have`} no card, so no port can be paired along it.`
        : (why?.message ?? `Edge ${name} carries nothing: no output of ${edge.source} is paired with an input of ${edge.target}.`);
    const place = edges[e].place;
    out.push(why !== undefined ? { kind: 'carries-nothing', message, code: why.code, edge: e, place } : { kind: 'carries-nothing', message, edge: e, place });
  }
  return out;
}

function unfedInputs(resolved: readonly ResolvedNode[], resolvedEdges: readonly ResolvedEdge[], pairs: EdgePairs, slots: Int32Array, nodes: readonly PictureNode[]): Unsettled[] {
  // per node: 0 no incoming edge, 1 every incoming edge wired, 2 one of them carries nothing;
  // the inputs its wired edges feed, as a list through `next` from `head` (no array per node)
  const state = new Uint8Array(resolved.length);
  const head = new Int32Array(resolved.length).fill(-1);
  const next = new Int32Array(resolvedEdges.length);
  const names: string[] = [];
  for (let e = 0; e < resolvedEdges.length; e++) {
    const t = pairs.targets[e];
    const n = t < 0 ? -1 : slots[t];
    if (n < 0 || state[n] === 2) continue;
    const pair = resolvedEdges[e].pair;
    if (pair === undefined) {
      state[n] = 2;
      continue;
    }
    state[n] = 1;
    next[names.length] = head[n];
    head[n] = names.length;
    names.push(pair.input.name);
  }
  const fed = (n: number, name: string): boolean => {
    for (let k = head[n]; k !== -1; k = next[k]) if (names[k] === name) return true;
    return false;
  };
  const out: Unsettled[] = [];
  for (let n = 0; n < resolved.length; n++) {
    // an entry's inputs come from whoever starts the run; an edge that carries nothing is settled first
    if (state[n] !== 1) continue;
    const card = resolved[n].entry?.card;
    if (card === undefined) continue;
    const id = resolved[n].id;
    for (const port of card.inputs) {
      if (port.required === false || fed(n, port.name)) continue;
      out.push({
        kind: 'unfed-input',
        message: `Input "${port.name}" (${port.type}) of node ${id} receives nothing: no edge into ${id} is wired to it; wire one with in="${port.name}", or mark the input required: false.`,
        node: id,
        place: nodes[n].place,
      });
    }
  }
  return out;
}

// ---- findings in their places ----------------------------------------------------------------

interface Places {
  /** The place of `span` in `file`; undefined when the bundle holds no such file. */
  at(file: string, span: Span): PicturePlace | undefined;
  /** Where a card file writes its `id` value. */
  card(read: CardReadResult): PicturePlace;
}

function placeFinder(blueprint: Blueprint | undefined, options: PictureOptions): Places {
  const hide = options.hideByteOrderMark === true;
  const indexes = new Map<string, LineTable>();
  if (blueprint !== undefined) indexes.set(blueprint.topology.file.path, lineTable(blueprint.topology.file.text, hide));
  // the other files' texts, gathered when a finding first points into one
  let texts: Map<string, string> | undefined;
  const textOf = (file: string): string | undefined => {
    if (texts === undefined) {
      texts = new Map();
      for (const f of options.files ?? []) if (!texts.has(f.path)) texts.set(f.path, f.text);
      if (blueprint !== undefined) {
        if (blueprint.manifestFile !== undefined) texts.set(blueprint.manifestFile.path, blueprint.manifestFile.text);
        if (blueprint.vocabularyFile !== undefined) texts.set(blueprint.vocabularyFile.path, blueprint.vocabularyFile.text);
        for (const entry of blueprint.cardFiles) texts.set(entry.read.file, entry.read.text);
      }
    }
    return texts.get(file);
  };
  const cardPlaces = hide ? hiddenMarkCardPlaces : cardPlaceCache;
  return {
    at(file, span) {
      let index = indexes.get(file);
      if (index === undefined) {
        const text = textOf(file);
        if (text === undefined) return undefined;
        index = lineTable(text, hide);
        indexes.set(file, index);
      }
      return placeIn(index, file, span);
    },
    card(read) {
      let place = cardPlaces.get(read);
      if (place === undefined) {
        place = placeIn(lineTable(read.text, hide), read.file, read.locate('id', 'value'));
        cardPlaces.set(read, place);
      }
      return place;
    },
  };
}

/**
 * The place of each card read's `id` value, kept while the read is the same object: the language
 * server hands back the same read for a card that did not change, so a redraw after an edit
 * reads no card again. (Two caches: a byte order mark shifts the first line's columns.)
 */
const cardPlaceCache = new WeakMap<CardReadResult, PicturePlace>();
const hiddenMarkCardPlaces = new WeakMap<CardReadResult, PicturePlace>();

/** Where each line of a text starts, and whether a byte order mark that starts it takes no column (see `lineIndex`). */
interface LineTable {
  readonly starts: readonly number[];
  readonly length: number;
  readonly mark: number;
}

function lineTable(text: string, hideMark: boolean): LineTable {
  return { starts: lineStarts(text), length: text.length, mark: hideMark && text.charCodeAt(0) === 0xfeff ? 1 : 0 };
}

/** `span` as 1-based lines and columns (what `lineIndex` gives, plus one), with no object made on the way. */
function placeIn(table: LineTable, file: string, span: Span): PicturePlace {
  const { starts, length, mark } = table;
  const from = Math.max(0, Math.min(span.start, length));
  const to = Math.max(from, Math.min(span.end, length));
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (starts[middle] <= from) low = middle;
    else high = middle - 1;
  }
  let last = low;
  while (last + 1 < starts.length && starts[last + 1] <= to) last++;
  const column = (line: number, offset: number): number => (line === 0 ? Math.max(0, offset - mark) : offset - starts[line]) + 1;
  return { file, line: low + 1, column: column(low, from), endLine: last + 1, endColumn: column(last, to) };
}

function findingOf(d: Diagnostic, places: Places): PictureFinding {
  const { file, span } = d.location;
  const place = file !== undefined && span !== undefined ? places.at(file, span) : undefined;
  return place !== undefined ? { code: d.code, severity: d.severity, message: d.message, place } : { code: d.code, severity: d.severity, message: d.message };
}

/** The first line of a file, for a node or edge whose file text is missing (never, for a resolved bundle). */
function unplaced(file: string): PicturePlace {
  return { file, line: 1, column: 1, endLine: 1, endColumn: 1 };
}

function firstTopologyFile(diagnostics: readonly Diagnostic[]): string | undefined {
  return diagnostics.find((d) => d.code.startsWith('dot/') && d.location.file !== undefined)?.location.file;
}

const severityRank: Readonly<Record<Severity, number>> = { error: 0, warning: 1, info: 2 };

/** The worst severity of a list of one finding or more. */
function worst(diagnostics: readonly Diagnostic[]): Severity {
  let out = diagnostics[0].severity;
  for (const d of diagnostics) if (severityRank[d.severity] < severityRank[out]) out = d.severity;
  return out;
}

interface Anchor {
  readonly start: number;
  readonly end: number;
  readonly kind: 'node' | 'edge';
  readonly index: number;
}

/** Node statements and edges by where they start in the topology, for findings that name neither. */
function topologyAnchors(nodes: readonly ResolvedNode[], edges: readonly ResolvedEdge[]): Anchor[] {
  const out: Anchor[] = [];
  nodes.forEach((node, index) => {
    for (const s of node.dot.statements) out.push({ start: s.start, end: s.end, kind: 'node', index });
  });
  edges.forEach((edge, index) => out.push({ start: edge.dot.span.start, end: edge.dot.span.end, kind: 'edge', index }));
  return out.sort((a, b) => a.start - b.start || b.end - a.end);
}

/** The innermost anchor holding `span` among those starting at or before it (a few are looked at: statements hardly nest). */
function anchorOf(anchors: readonly Anchor[], span: Span): Anchor | undefined {
  let low = 0;
  let high = anchors.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (anchors[middle].start <= span.start) low = middle + 1;
    else high = middle;
  }
  for (let k = low - 1; k >= 0 && k >= low - 16; k--) if (holds(anchors[k], span)) return anchors[k];
  return undefined;
}

function holds(outer: Span, inner: Span): boolean {
  return outer.start <= inner.start && inner.end <= outer.end;
}

// ---- cards that did not load -----------------------------------------------------------------

interface Drafts {
  /** By `id@version` as the file writes them, and by the `id@version` the file is named for. */
  readonly byRef: ReadonlyMap<string, CardEntry>;
  /** By id alone. */
  readonly byId: ReadonlyMap<string, CardEntry>;
}

/** The card files that did not load, by what a pin could name them as (the first file wins). */
function draftIndex(cardFiles: readonly CardEntry[]): Drafts {
  const byRef = new Map<string, CardEntry>();
  const byId = new Map<string, CardEntry>();
  for (const entry of cardFiles) {
    if (entry.card !== undefined) continue;
    const id = text(entry.read.draft.id)?.trim();
    const version = text(entry.read.draft.version)?.trim();
    if (id !== undefined && !byId.has(id)) byId.set(id, entry);
    if (id !== undefined && version !== undefined && !byRef.has(`${id}@${version}`)) byRef.set(`${id}@${version}`, entry);
    const named = cardRefNamedBy(entry.read.file);
    if (!byRef.has(named)) byRef.set(named, entry);
  }
  return { byRef, byId };
}

/** The card file a node without a card means, when one did not load. */
function draftOf(node: ResolvedNode, drafts: Drafts): CardEntry | undefined {
  if (node.entry !== undefined) return undefined;
  if (node.ref !== undefined) return drafts.byRef.get(node.ref);
  return node.dot.attrs.get('card') === undefined ? drafts.byId.get(node.id) : undefined;
}

// ---- small readings --------------------------------------------------------------------------

function rankdirOf(value: string | undefined): Rankdir {
  const upper = value?.trim().toUpperCase();
  return upper === 'LR' || upper === 'BT' || upper === 'RL' || upper === 'TB' ? upper : 'TB';
}

function phasesOf(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const out: string[] = [];
  for (const item of value) {
    if (typeof item !== 'string') continue;
    const phase = item.trim();
    if (phase.length > 0) out.push(phase);
  }
  return out;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function nonBlank(value: string | undefined): string | undefined {
  return value === undefined || value.trim().length === 0 ? undefined : value.trim();
}
