/**
 * What the topology alone decides, for resolution (./resolve.ts): the graph of a parse, where
 * each edge landed, the first edge of each (source, target) pair, and the findings about entries,
 * exits and reachability (E§4's last step).
 *
 * Given the shape of the previous parse of the same file, `topologyShape` builds on it instead of
 * starting over, in the cases an edit usually leaves:
 * - the same node ids and edge endpoints in the same order (an attribute, a label, a spacing
 *   changed): the previous graph is the graph, as the same object;
 * - nodes and edges added after all the previous ones (typing at the end of the file): the
 *   previous graph, copied where the new edges touch it;
 * - nodes without edges removed from the end (the same edit undone).
 * Anything else builds the graph afresh. The graph is the same either way; the previous one is
 * never changed (scripts/incremental-load.test.ts compares loads with and without a memo).
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
  for (let i = 0; i < sharedNodes; i++) if (before.ids[i] !== nodes[i].id) return undefined;
  const sharedEdges = Math.min(oldEdges.length, edges.length);
  for (let k = 0; k < sharedEdges; k++) {
    const a = oldEdges[k];
    const b = edges[k];
    if (a !== b && (a.source !== b.source || a.target !== b.target)) return undefined;
  }
  if (nodes.length === before.ids.length && edges.length === oldEdges.length) return previous;
  if (nodes.length >= before.ids.length && edges.length >= oldEdges.length) return appended(previous, nodes, edges);
  if (edges.length === oldEdges.length) return truncated(previous, nodes.length);
  return undefined;
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
  const copied = new Set<readonly number[]>();
  const own = (lists: (readonly number[])[], at: number): number[] => {
    const list = lists[at];
    if (copied.has(list)) return list as number[];
    const copy = list.slice();
    copied.add(copy);
    lists[at] = copy;
    return copy;
  };
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
  // (the lists copied above grew by a push: kept at their size, as `fresh` keeps its own)
  if (copied.size > 0) for (const lists of [successors, predecessors, firstEdgeIndexes]) for (let i = 0; i < lists.length; i++) if (copied.has(lists[i])) lists[i] = lists[i].slice();
  return { graph: { ids, index, successors, predecessors, selfLoop }, endpoints, firstEdgeIndexes };
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
