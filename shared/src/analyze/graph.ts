/**
 * Graph primitives (E§8 "Graph primitives"): ids in insertion order, adjacency as sets (parallel
 * edges collapse), neighbour lists in first-edge order. Nodes are addressed by index for speed;
 * `ids[i]` is the DOT id. Iterative algorithms only: a 5,000-node chain must not overflow the stack.
 */
export interface Graph {
  readonly ids: readonly string[];
  readonly index: ReadonlyMap<string, number>;
  readonly successors: readonly (readonly number[])[];
  readonly predecessors: readonly (readonly number[])[];
  readonly selfLoop: readonly boolean[];
}

export function buildGraph(ids: readonly string[], edges: readonly { source: string; target: string }[]): Graph {
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
  for (const e of edges) {
    add(e.source);
    add(e.target);
  }
  const successors: number[][] = order.map(() => []);
  const predecessors: number[][] = order.map(() => []);
  const selfLoop = order.map(() => false);
  const seen = new Set<number>();
  const n = order.length;
  for (const e of edges) {
    const s = index.get(e.source)!;
    const t = index.get(e.target)!;
    const key = s * n + t;
    if (seen.has(key)) continue;
    seen.add(key);
    successors[s].push(t);
    predecessors[t].push(s);
    if (s === t) selfLoop[s] = true;
  }
  return { ids: order, index, successors, predecessors, selfLoop };
}

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
  const seen = graph.ids.map(() => false);
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
 * members sorted by graph index, components sorted by their smallest member (E§8 `cycles()`).
 * `all: true` returns every component, trivial ones included, in the same order.
 */
export function stronglyConnected(graph: Graph, options: { all?: boolean } = {}): number[][] {
  const n = graph.ids.length;
  const indexOf = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const stack: number[] = [];
  const components: number[][] = [];
  let counter = 0;
  const work: { v: number; i: number }[] = [];
  for (let root = 0; root < n; root++) {
    if (indexOf[root] !== -1) continue;
    work.push({ v: root, i: 0 });
    indexOf[root] = low[root] = counter++;
    stack.push(root);
    onStack[root] = 1;
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const succ = graph.successors[frame.v];
      if (frame.i < succ.length) {
        const w = succ[frame.i++];
        if (indexOf[w] === -1) {
          indexOf[w] = low[w] = counter++;
          stack.push(w);
          onStack[w] = 1;
          work.push({ v: w, i: 0 });
        } else if (onStack[w]) {
          low[frame.v] = Math.min(low[frame.v], indexOf[w]);
        }
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1].v;
        low[parent] = Math.min(low[parent], low[frame.v]);
      }
      if (low[frame.v] === indexOf[frame.v]) {
        const component: number[] = [];
        let w: number;
        do {
          w = stack.pop()!;
          onStack[w] = 0;
          component.push(w);
        } while (w !== frame.v);
        if (options.all || component.length > 1 || graph.selfLoop[component[0]]) {
          component.sort((a, b) => a - b);
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
