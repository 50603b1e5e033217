/**
 * What the topology alone decides, for resolution (./resolve.ts): the graph of a parse, where
 * each edge landed, the first edge of each (source, target) pair, and the findings about entries,
 * exits and reachability (docs/compatibility.md#entries-exits-and-reachability).
 *
 * Given the shape of the previous parse of the same file, `topologyShape` builds on it instead of
 * starting over, in the cases an edit usually leaves:
 * - the same node ids and edge endpoints in the same order (an attribute, a label, a spacing
 *   changed): the previous graph is the graph, as the same object;
 * - nodes and edges added after all the previous ones (typing at the end of the file): the
 *   previous graph, copied where the new edges touch it;
 * - nodes without edges removed from the end (the same edit undone);
 * - one run of nodes and one run of edges added anywhere, or one run of each removed (a node or
 *   an edge typed in the middle of the file, or the same undone): the previous graph renumbered,
 *   keeping the lists no index in them moved.
 * Anything else builds the graph afresh. The graph is the same either way; the previous one is
 * never changed (shared/test/incremental-load.test.ts compares loads with and without a memo).
 */
import type { Diagnostic } from '../diagnostics';
import { interner } from '../diagnostics/sort';
import type { DotEdge, DotGraph, DotNode } from '../syntax/dot-model';
import { graphOfEdges, reachableFrom, sinks, sources, trimAll, type Graph } from '../analyze/graph';

export interface TopologyShape {
  readonly graph: Graph;
  /**
   * True when graph index `i` is the parse's node `i` (the parse lists every id once, edge-only
   * mentions included, in first-appearance order, as the graph does): then a node's results are
   * found by index, without looking its id up.
   */
  readonly aligned: boolean;
  /** Per edge of the parse, its source's then its target's graph index. */
  readonly endpoints: Int32Array;
  /** Per graph node, the index in `edges` of the first edge from each of its predecessors, in `graph.predecessors` order. */
  readonly firstEdgeIndexes: readonly (readonly number[])[];
  /** The parse's edges. */
  readonly edges: readonly DotEdge[];
  /** Entries, exits and reachability. */
  readonly diagnostics: readonly Diagnostic[];
}

/** The first edge from each predecessor of graph node `index`, in `graph.predecessors` order. */
export function firstEdgesOf(shape: TopologyShape, index: number): DotEdge[] {
  return shape.firstEdgeIndexes[index].map((k) => shape.edges[k]);
}

/** The shape of a parse's graph, built on `previous` (the shape of the last parse of the same file) where it can be. */
export function topologyShape(graphModel: DotGraph, file: string, previous?: TopologyShape): TopologyShape {
  const built = (previous !== undefined ? grownFrom(previous, graphModel) : undefined) ?? fresh(graphModel);
  const { graph, endpoints, firstEdgeIndexes } = built;
  const aligned = graph.ids.length === graphModel.nodes.length;
  const diagnostics =
    previous !== undefined && graph === previous.graph && previous.diagnostics.length === 0
      ? previous.diagnostics // the findings read only the graph, and it had none
      : boundaryFindings(graph, graphModel, aligned, file, previous);
  return { graph, aligned, endpoints, firstEdgeIndexes, edges: graphModel.edges, diagnostics };
}

type Built = Pick<TopologyShape, 'graph' | 'endpoints' | 'firstEdgeIndexes'>;

function fresh(graphModel: DotGraph): Built {
  const { graph, endpoints, first } = graphOfEdges(
    graphModel.nodes.map((n) => n.id),
    graphModel.edges,
  );
  const firstEdgeIndexes: number[][] = [];
  for (let i = 0; i < graph.ids.length; i++) firstEdgeIndexes.push([]);
  for (let k = 0; k < graphModel.edges.length; k++) if (first[k] === 1) firstEdgeIndexes[endpoints[2 * k + 1]].push(k);
  trimAll(firstEdgeIndexes);
  return { graph, endpoints, firstEdgeIndexes };
}

/** `previous` carried over to `graphModel` in the cases the header lists; undefined otherwise. */
function grownFrom(previous: TopologyShape, graphModel: DotGraph): Built | undefined {
  if (!previous.aligned) return undefined;
  const before = previous.graph;
  const nodes = graphModel.nodes;
  const edges = graphModel.edges;
  const oldEdges = previous.edges;
  const sharedNodes = Math.min(before.ids.length, nodes.length);
  let nodePrefix = 0;
  while (nodePrefix < sharedNodes && before.ids[nodePrefix] === nodes[nodePrefix].id) nodePrefix++;
  const sharedEdges = Math.min(oldEdges.length, edges.length);
  let edgePrefix = 0;
  while (edgePrefix < sharedEdges && sameEndpoints(oldEdges[edgePrefix], edges[edgePrefix])) edgePrefix++;
  if (nodePrefix < sharedNodes || edgePrefix < sharedEdges) return spliced(previous, nodes, edges, nodePrefix, edgePrefix);
  if (nodes.length === before.ids.length && edges.length === oldEdges.length) return previous;
  if (nodes.length >= before.ids.length && edges.length >= oldEdges.length) return appended(previous, nodes, edges);
  if (edges.length === oldEdges.length) return truncated(previous, nodes.length);
  return undefined;
}

function sameEndpoints(a: DotEdge, b: DotEdge): boolean {
  return a === b || (a.source === b.source && a.target === b.target);
}

/**
 * `previous` with one run of nodes and one run of edges added, or one run of each removed, the
 * rest the same in the same order (`nodePrefix` nodes and `edgePrefix` edges read the same from
 * the start); undefined for anything else, or when the edit would change which edge is the first
 * of a pair (a parallel edge added before or removed after the first, which the fresh build
 * decides), or when a node removed still has an edge, or an id added was there before.
 *
 * The graph is the one `fresh` builds: every index at or after the run moves by what the run
 * added or removed, a list is kept as the previous object when none of its items moved, and an
 * added edge goes into its lists where the fresh build would put it, among the others by the
 * index of each pair's first edge.
 */
function spliced(previous: TopologyShape, nodes: readonly DotNode[], edges: readonly DotEdge[], nodePrefix: number, edgePrefix: number): Built | undefined {
  const before = previous.graph;
  const oldEdges = previous.edges;
  const oldCount = before.ids.length;
  const newCount = nodes.length;
  const common = Math.min(oldCount, newCount);
  let suffix = 0;
  while (suffix < common - nodePrefix && before.ids[oldCount - 1 - suffix] === nodes[newCount - 1 - suffix].id) suffix++;
  if (nodePrefix + suffix !== common) return undefined;
  const commonEdges = Math.min(oldEdges.length, edges.length);
  let edgeSuffix = 0;
  while (edgeSuffix < commonEdges - edgePrefix && sameEndpoints(oldEdges[oldEdges.length - 1 - edgeSuffix], edges[edges.length - 1 - edgeSuffix])) edgeSuffix++;
  if (edgePrefix + edgeSuffix !== commonEdges) return undefined;
  /** Nodes and edges removed (in the previous graph) and added (in the new one), one of each pair 0. */
  const removedNodes = oldCount - common;
  const addedNodes = newCount - common;
  const removedEdges = oldEdges.length - commonEdges;
  const addedEdges = edges.length - commonEdges;
  // one kind of edit: runs added, or runs removed (a change in place reads as both)
  if ((addedNodes > 0 || addedEdges > 0) && (removedNodes > 0 || removedEdges > 0)) return undefined;
  const nodeShift = addedNodes - removedNodes;
  const edgeShift = addedEdges - removedEdges;
  const nodeAt = (i: number): number => (i < nodePrefix ? i : i < nodePrefix + removedNodes ? -1 : i + nodeShift);
  const edgeAt = (k: number): number => (k < edgePrefix ? k : k < edgePrefix + removedEdges ? -1 : k + edgeShift);

  const ids = before.ids.slice(0, nodePrefix);
  for (let j = nodePrefix; j < nodePrefix + addedNodes; j++) {
    if (before.index.has(nodes[j].id)) return undefined; // an id that moved, not a new one
    ids.push(nodes[j].id);
  }
  for (let i = nodePrefix + removedNodes; i < oldCount; i++) ids.push(before.ids[i]);
  const index = indexOf(ids);
  if (index.size !== ids.length) return undefined;

  // The pairs whose first edge goes: no edge of the pair may stay, and no edge may stay on a node that goes.
  const ends = previous.endpoints;
  let gone: Set<number> | undefined;
  for (let k = edgePrefix; k < edgePrefix + removedEdges; k++) {
    const s = ends[2 * k];
    const t = ends[2 * k + 1];
    if (firstOfPair(previous, k, s, t)) (gone ??= new Set()).add(s * oldCount + t);
  }
  for (let k = 0; k < oldEdges.length; k++) {
    if (edgeAt(k) < 0) continue;
    const s = ends[2 * k];
    const t = ends[2 * k + 1];
    if (nodeAt(s) < 0 || nodeAt(t) < 0) return undefined;
    if (gone !== undefined && gone.has(s * oldCount + t)) return undefined;
  }
  const remapNodes = (list: readonly number[], owner: number, outgoing: boolean): readonly number[] => {
    let changed = false;
    for (let m = 0; m < list.length && !changed; m++) changed = nodeAt(list[m]) !== list[m] || (gone !== undefined && gone.has(outgoing ? owner * oldCount + list[m] : list[m] * oldCount + owner));
    if (!changed) return list;
    // (lists made at their size: most hold one or two items, and thousands are made)
    if (gone === undefined) return list.map(nodeAt);
    return list.filter((v) => !gone!.has(outgoing ? owner * oldCount + v : v * oldCount + owner)).map(nodeAt);
  };
  // (grown by `push`, not made at their size: V8 keeps such arrays packed, as the fresh build's are)
  const successors: (readonly number[])[] = [];
  const predecessors: (readonly number[])[] = [];
  const selfLoop: boolean[] = [];
  const firstEdgeIndexes: (readonly number[])[] = [];
  for (let j = 0; j < newCount; j++) {
    const i = j < nodePrefix ? j : j < nodePrefix + addedNodes ? -1 : j - nodeShift;
    if (i < 0) {
      successors.push([]);
      predecessors.push([]);
      selfLoop.push(false);
      firstEdgeIndexes.push([]);
      continue;
    }
    successors.push(remapNodes(before.successors[i], i, true));
    const preds = before.predecessors[i];
    const firsts = previous.firstEdgeIndexes[i];
    const newPreds = remapNodes(preds, i, false);
    predecessors.push(newPreds);
    let firstsMoved = newPreds !== preds;
    for (let m = 0; m < firsts.length && !firstsMoved; m++) firstsMoved = edgeAt(firsts[m]) !== firsts[m];
    firstEdgeIndexes.push(!firstsMoved ? firsts : removedEdges === 0 ? firsts.map(edgeAt) : firsts.map(edgeAt).filter((k) => k >= 0));
    selfLoop.push(before.selfLoop[i] && !(gone !== undefined && gone.has(i * oldCount + i)));
  }

  const endpoints = new Int32Array(2 * edges.length);
  for (let k = 0; k < oldEdges.length; k++) {
    const e = edgeAt(k);
    if (e < 0) continue;
    endpoints[2 * e] = nodeAt(ends[2 * k]);
    endpoints[2 * e + 1] = nodeAt(ends[2 * k + 1]);
  }
  // the added edges, each a new pair, into their lists by the index of each pair's first edge
  const { own, trim } = listCopies();
  /** The index of the first edge of the pair (s, t), which the lists hold. */
  const firstEdge = (s: number, t: number): number => firstEdgeIndexes[t][predecessors[t].indexOf(s)];
  for (let e = edgePrefix; e < edgePrefix + addedEdges; e++) {
    const s = index.get(edges[e].source);
    const t = index.get(edges[e].target);
    if (s === undefined || t === undefined) return undefined;
    endpoints[2 * e] = s;
    endpoints[2 * e + 1] = t;
    if (successors[s].includes(t)) return undefined; // a parallel edge: which one is first is the fresh build's to say
    const out = own(successors, s);
    let at = 0;
    while (at < out.length && firstEdge(s, out[at]) < e) at++;
    const preds = own(predecessors, t);
    const firsts = own(firstEdgeIndexes, t);
    let place = 0;
    while (place < firsts.length && firsts[place] < e) place++;
    out.splice(at, 0, t);
    preds.splice(place, 0, s);
    firsts.splice(place, 0, e);
    if (s === t) selfLoop[s] = true;
  }
  trim(successors, predecessors, firstEdgeIndexes);
  return { graph: { ids, index, successors, predecessors, selfLoop }, endpoints, firstEdgeIndexes };
}

/** True when edge `k` (from graph node `s` to `t`) is the first of its pair: the one the lists record. */
function firstOfPair(shape: TopologyShape, k: number, s: number, t: number): boolean {
  const at = shape.graph.predecessors[t].indexOf(s);
  return at >= 0 && shape.firstEdgeIndexes[t][at] === k;
}

/** `previous` with the nodes and edges past its own added; undefined when an edge names an id the nodes lack. */
function appended(previous: TopologyShape, nodes: readonly DotNode[], edges: readonly DotEdge[]): Built | undefined {
  const before = previous.graph;
  const ids = before.ids.slice();
  const index = indexOf(ids);
  const successors = before.successors.slice();
  const predecessors = before.predecessors.slice();
  const selfLoop = before.selfLoop.slice();
  const firstEdgeIndexes = previous.firstEdgeIndexes.slice();
  for (let i = before.ids.length; i < nodes.length; i++) {
    const id = nodes[i].id;
    if (index.has(id)) return undefined;
    index.set(id, ids.length);
    ids.push(id);
    successors.push([]);
    predecessors.push([]);
    selfLoop.push(false);
    firstEdgeIndexes.push([]);
  }
  const endpoints = new Int32Array(2 * edges.length);
  endpoints.set(previous.endpoints);
  // the lists of the previous graph are shared: each one an added edge changes is copied first
  const { own, trim } = listCopies();
  for (let k = previous.edges.length; k < edges.length; k++) {
    const s = index.get(edges[k].source);
    const t = index.get(edges[k].target);
    if (s === undefined || t === undefined) return undefined;
    endpoints[2 * k] = s;
    endpoints[2 * k + 1] = t;
    if (successors[s].includes(t)) continue; // parallel edges collapse onto the first
    own(successors, s).push(t);
    own(predecessors, t).push(s);
    own(firstEdgeIndexes, t).push(k);
    if (s === t) selfLoop[s] = true;
  }
  trim(successors, predecessors, firstEdgeIndexes);
  return { graph: { ids, index, successors, predecessors, selfLoop }, endpoints, firstEdgeIndexes };
}

/**
 * Lists of the previous graph written to: they are shared with it, which must not change, so
 * `own(lists, at)` gives list `at` as a copy of its own the first time, and `trim(...)` leaves
 * each copy at its size once done (a list grown by `push` keeps room, which `fresh` does not).
 */
function listCopies(): { own(lists: (readonly number[])[], at: number): number[]; trim(...groups: (readonly number[])[][]): void } {
  const copied = new Set<readonly number[]>();
  return {
    own(lists, at) {
      const list = lists[at];
      if (copied.has(list)) return list as number[];
      const copy = list.slice();
      copied.add(copy);
      lists[at] = copy;
      return copy;
    },
    trim(...groups) {
      if (copied.size === 0) return;
      for (const lists of groups) for (let i = 0; i < lists.length; i++) if (copied.has(lists[i])) lists[i] = lists[i].slice();
    },
  };
}

/** `previous` cut to its first `count` nodes, its edges all kept; undefined when a node cut has an edge. */
function truncated(previous: TopologyShape, count: number): Built | undefined {
  const before = previous.graph;
  // (a parse names every edge's endpoints among its nodes, so with the same edges this holds; checked all the same)
  for (let i = count; i < before.ids.length; i++) if (before.successors[i].length > 0 || before.predecessors[i].length > 0) return undefined;
  const ids = before.ids.slice(0, count);
  const index = indexOf(ids);
  const graph: Graph = {
    ids,
    index,
    successors: before.successors.slice(0, count),
    predecessors: before.predecessors.slice(0, count),
    selfLoop: before.selfLoop.slice(0, count),
  };
  return { graph, endpoints: previous.endpoints, firstEdgeIndexes: previous.firstEdgeIndexes.slice(0, count) };
}

/**
 * The index of distinct `ids` (id → place), in their order, as a graph's own index holds it:
 * made from the list, where copying the previous graph's map would make an entry pair per id.
 */
function indexOf(ids: readonly string[]): Map<string, number> {
  const index = new Map<string, number>();
  for (let i = 0; i < ids.length; i++) index.set(ids[i], i);
  return index;
}

/** Entries, exits and reachability; findings that read as in `previous` come back as its objects. */
function boundaryFindings(graph: Graph, graphModel: DotGraph, aligned: boolean, file: string, previous: TopologyShape | undefined): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  if (graph.ids.length > 0) {
    const dotById = aligned ? undefined : new Map(graphModel.nodes.map((n) => [n.id, n] as const));
    const entries = sources(graph);
    if (entries.length === 0) {
      diagnostics.push({
        code: 'bundle/no-entry',
        severity: 'warning',
        message: 'Every node has an incoming edge, so the pipeline has no place to start; remove the edge into the node that should run first.',
        location: { file, span: graphModel.keywordSpan },
      });
    } else {
      const reached = reachableFrom(graph, entries);
      for (let i = 0; i < graph.ids.length; i++) {
        if (reached[i]) continue;
        const node = dotById === undefined ? graphModel.nodes[i] : dotById.get(graph.ids[i]);
        diagnostics.push({
          code: 'bundle/unreachable-node',
          severity: 'warning',
          message: `No path leads from an entry node to ${graph.ids[i]}, so it never runs; add an edge into it from a node that runs, or remove it.`,
          location: { file, nodeId: graph.ids[i], ...(node ? { span: node.span } : {}) },
        });
      }
    }
    if (sinks(graph).length === 0) {
      diagnostics.push({
        code: 'bundle/no-exit',
        severity: 'warning',
        message: 'Every node has an outgoing edge, so the pipeline has no place to finish; let the final node end without outgoing edges.',
        location: { file, span: graphModel.keywordSpan },
      });
    }
  }
  if (previous !== undefined && diagnostics.length > 0) {
    const intern = interner(previous.diagnostics);
    for (let i = 0; i < diagnostics.length; i++) diagnostics[i] = intern(diagnostics[i]);
  }
  return diagnostics;
}
