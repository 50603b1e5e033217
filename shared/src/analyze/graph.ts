/**
 * Graph primitives (docs/compatibility.md#graph-primitives): ids in insertion order, adjacency as
 * sets (parallel edges collapse), neighbour lists in first-edge order. Nodes are addressed by index
 * for speed; `ids[i]` is the DOT id. Iterative algorithms only: a 5,000-node chain must not
 * overflow the stack.
 */
import { mapped } from '../arrays';
export interface Graph {
  readonly ids: readonly string[];
  readonly index: ReadonlyMap<string, number>;
  readonly successors: readonly (readonly number[])[];
  readonly predecessors: readonly (readonly number[])[];
  readonly selfLoop: readonly boolean[];
}

export function buildGraph(ids: readonly string[], edges: readonly { source: string; target: string }[]): Graph {
  return graphOfEdges(ids, edges).graph;
}

/** A graph and, per edge given, where it landed. */
export interface GraphOfEdges {
  readonly graph: Graph;
  /** Per edge, its source's then its target's index. */
  readonly endpoints: Int32Array;
  /** Per edge, 1 when it is the first of its (source, target) pair: the one the adjacency records. */
  readonly first: Uint8Array;
}

/** `buildGraph`, also telling where each edge landed. */
export function graphOfEdges(ids: readonly string[], edges: readonly { source: string; target: string }[]): GraphOfEdges {
  const index = new Map<string, number>();
  const order: string[] = [];
  const add = (id: string): number => {
    let i = index.get(id);
    if (i === undefined) {
      i = order.length;
      index.set(id, i);
      order.push(id);
    }
    return i;
  };
  for (const id of ids) add(id);
  const endpoints = new Int32Array(2 * edges.length);
  for (let k = 0; k < edges.length; k++) {
    endpoints[2 * k] = add(edges[k].source);
    endpoints[2 * k + 1] = add(edges[k].target);
  }
  const n = order.length;
  const successors: number[][] = [];
  const predecessors: number[][] = [];
  const selfLoop: boolean[] = [];
  for (let i = 0; i < n; i++) {
    successors.push([]);
    predecessors.push([]);
    selfLoop.push(false);
  }
  // parallel edges collapse: a pair is looked up in its source's successors (short lists), or
  // in a set once a source has many
  const wide = new Map<number, Set<number>>();
  const first = new Uint8Array(edges.length);
  for (let k = 0; k < edges.length; k++) {
    const s = endpoints[2 * k];
    const t = endpoints[2 * k + 1];
    const out = successors[s];
    if (out.length < wideFrom) {
      if (out.includes(t)) continue;
    } else {
      let set = wide.get(s);
      if (set === undefined) wide.set(s, (set = new Set(out)));
      if (set.has(t)) continue;
      set.add(t);
    }
    first[k] = 1;
    out.push(t);
    predecessors[t].push(s);
    if (s === t) selfLoop[s] = true;
  }
  trimAll(successors);
  trimAll(predecessors);
  return { graph: { ids: order, index, successors, predecessors, selfLoop }, endpoints, first };
}

/**
 * Replaces each list grown by `push` with an exact-size copy. V8 gives an empty array room for 16
 * items at its first push, and most neighbour lists hold one or two: a graph kept as built would
 * hold about 60 bytes of room per list, thousands of lists in a large topology, rebuilt whenever
 * an edit renumbers its nodes (the copies' garbage dies young, where it costs nothing).
 */
export function trimAll(lists: number[][]): void {
  for (let i = 0; i < lists.length; i++) if (lists[i].length > 0) lists[i] = lists[i].slice();
}

/** Past this many successors, a node's pairs are looked up in a set. */
const wideFrom = 16;

/** In-degree 0 (a self-looped node is never a source), in graph order. */
export function sources(graph: Graph): number[] {
  const out: number[] = [];
  for (let i = 0; i < graph.ids.length; i++) if (graph.predecessors[i].length === 0) out.push(i);
  return out;
}

/** Out-degree 0, in graph order. */
export function sinks(graph: Graph): number[] {
  const out: number[] = [];
  for (let i = 0; i < graph.ids.length; i++) if (graph.successors[i].length === 0) out.push(i);
  return out;
}

/** Breadth-first closure from `starts` (inclusive). */
export function reachableFrom(graph: Graph, starts: readonly number[]): boolean[] {
  const seen = mapped(graph.ids, () => false);
  const queue: number[] = [];
  for (const s of starts) {
    if (!seen[s]) {
      seen[s] = true;
      queue.push(s);
    }
  }
  for (let head = 0; head < queue.length; head++) {
    for (const t of graph.successors[queue[head]]) {
      if (!seen[t]) {
        seen[t] = true;
        queue.push(t);
      }
    }
  }
  return seen;
}

/**
 * Strongly connected components that are cycles (size > 1, or a single self-looped node):
 * members sorted by graph index, components sorted by their smallest member
 * (docs/compatibility.md#cycles).
 * `all: true` returns every component, trivial ones included, in the same order. `within`
 * (1 per node to visit) limits the search to those nodes, which must be closed under edges
 * (whole weakly connected components): the components found there are the same.
 */
export function stronglyConnected(graph: Graph, options: { all?: boolean; within?: Uint8Array } = {}): number[][] {
  const n = graph.ids.length;
  const indexOf = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack = new Int32Array(n);
  let top = 0;
  const components: number[][] = [];
  let counter = 0;
  // the depth-first frames, as two columns: the node, and how many of its successors were visited
  const frameNode = new Int32Array(n);
  const frameNext = new Int32Array(n);
  let depth = 0;
  const within = options.within;
  for (let root = 0; root < n; root++) {
    if (indexOf[root] !== -1 || (within !== undefined && within[root] === 0)) continue;
    frameNode[0] = root;
    frameNext[0] = 0;
    depth = 1;
    indexOf[root] = low[root] = counter++;
    stack[top++] = root;
    onStack[root] = 1;
    while (depth > 0) {
      const v = frameNode[depth - 1];
      const succ = graph.successors[v];
      if (frameNext[depth - 1] < succ.length) {
        const w = succ[frameNext[depth - 1]++];
        if (indexOf[w] === -1) {
          indexOf[w] = low[w] = counter++;
          stack[top++] = w;
          onStack[w] = 1;
          frameNode[depth] = w;
          frameNext[depth] = 0;
          depth++;
        } else if (onStack[w]) {
          low[v] = Math.min(low[v], indexOf[w]);
        }
        continue;
      }
      depth--;
      if (depth > 0) {
        const parent = frameNode[depth - 1];
        low[parent] = Math.min(low[parent], low[v]);
      }
      if (low[v] === indexOf[v]) {
        // a single node that is no cycle is dropped without building its component
        if (!options.all && stack[top - 1] === v && !graph.selfLoop[v]) {
          top--;
          onStack[v] = 0;
          continue;
        }
        const component: number[] = [];
        let w: number;
        do {
          w = stack[--top];
          onStack[w] = 0;
          component.push(w);
        } while (w !== v);
        if (options.all || component.length > 1 || graph.selfLoop[component[0]]) {
          sortAscending(component);
          components.push(component);
        }
      }
    }
  }
  components.sort((a, b) => a[0] - b[0]);
  return components;
}

/**
 * Multi-source breadth-first reach that keeps at most `k` distinct labels per node. Every source
 * (a label) offers itself to its successors; a node accepts the first `k` distinct labels offered
 * and, when `expand(node)` allows, offers each accepted label to its own successors. Each node
 * thus ends with min(k, number of sources reaching it) labels, roughly nearest first, at a cost of
 * O(k · (nodes + edges)) however many sources there are. A source is not its own label unless a
 * path leads back to it.
 */
export interface LabelledReach {
  readonly k: number;
  /** `labels[node * k + slot]`: a source index, or -1 past `count[node]`. */
  readonly labels: Int32Array;
  readonly count: Uint8Array;
  /** `parent[node * k + slot]`: the entry (`node * k + slot`) that offered the label, or -1 when the source did. */
  readonly parent: Int32Array;
}

export function labelledReach(graph: Graph, sources: readonly number[], k: number, expand: (node: number) => boolean): LabelledReach {
  const n = graph.ids.length;
  const labels = new Int32Array(n * k).fill(-1);
  const count = new Uint8Array(n);
  const parent = new Int32Array(n * k).fill(-1);
  const queue: number[] = [];
  const offer = (node: number, label: number, from: number): void => {
    const c = count[node];
    if (c >= k) return;
    const base = node * k;
    for (let slot = 0; slot < c; slot++) if (labels[base + slot] === label) return;
    labels[base + c] = label;
    parent[base + c] = from;
    count[node] = c + 1;
    queue.push(base + c);
  };
  for (const source of sources) for (const next of graph.successors[source]) offer(next, source, -1);
  for (let head = 0; head < queue.length; head++) {
    const entry = queue[head];
    const node = (entry / k) | 0;
    if (!expand(node)) continue;
    const label = labels[entry];
    for (const next of graph.successors[node]) offer(next, label, entry);
  }
  return { k, labels, count, parent };
}

/**
 * Sorts numbers ascending in place and returns the list. Short lists (nearly every neighbour or
 * cycle list) are sorted by insertion, which allocates nothing; `Array.prototype.sort` allocates
 * a work area per call, which adds up over thousands of calls per analysis.
 */
export function sortAscending<T extends number[]>(list: T): T {
  if (list.length > 16) return list.sort((a, b) => a - b);
  for (let i = 1; i < list.length; i++) {
    const value = list[i];
    let j = i - 1;
    while (j >= 0 && list[j] > value) {
      list[j + 1] = list[j];
      j--;
    }
    list[j + 1] = value;
  }
  return list;
}

/**
 * Weakly connected components (edges taken in either direction), numbered by their smallest
 * member, so component 0 holds node 0. `members[start[c] .. start[c + 1])` lists component
 * `c`'s nodes in graph order; `local[i]` is node `i`'s place in that list.
 */
export interface WeakComponents {
  readonly count: number;
  /** Per node, its component. */
  readonly of: Int32Array;
  /** Per node, its position among its component's members. */
  readonly local: Int32Array;
  readonly start: Int32Array;
  readonly members: Int32Array;
}

export function weakComponents(graph: Graph): WeakComponents {
  const n = graph.ids.length;
  // union-find over the edges (halving paths), then numbering in graph order
  const parent = new Int32Array(n);
  for (let i = 0; i < n; i++) parent[i] = i;
  const find = (i: number): number => {
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]];
      i = parent[i];
    }
    return i;
  };
  for (let i = 0; i < n; i++) {
    for (const t of graph.successors[i]) {
      const a = find(i);
      const b = find(t);
      if (a !== b) parent[a < b ? b : a] = a < b ? a : b;
    }
  }
  const of = new Int32Array(n);
  const number = new Int32Array(n).fill(-1);
  let count = 0;
  for (let i = 0; i < n; i++) {
    const root = find(i);
    if (number[root] === -1) number[root] = count++;
    of[i] = number[root];
  }
  const start = new Int32Array(count + 1);
  for (let i = 0; i < n; i++) start[of[i] + 1]++;
  for (let c = 0; c < count; c++) start[c + 1] += start[c];
  const members = new Int32Array(n);
  const local = new Int32Array(n);
  const fill = start.slice(0, count);
  for (let i = 0; i < n; i++) {
    const c = of[i];
    local[i] = fill[c] - start[c];
    members[fill[c]++] = i;
  }
  return { count, of, local, start, members };
}
