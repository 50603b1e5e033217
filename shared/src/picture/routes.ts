/**
 * Routes to draw for what the analysis found. The analysis decides which nodes a finding is on;
 * these walks only find one route that shows why, for the picture: the edges to light up.
 */
import { stronglyConnected, type Graph } from '../analyze/graph';

/**
 * For each node in `targets` that criteria reach through a judge: the shortest route from a
 * producer to a judge that criteria reach directly (a walk that does not go on through judges),
 * then on from that judge, through anything, to the node. `producer(i)` and `judge(i)` answer
 * per graph index. A target no such route reaches is left out.
 */
export function relayRoutes(
  graph: Graph,
  producer: (index: number) => boolean,
  judge: (index: number) => boolean,
  targets: readonly number[],
): Map<number, { readonly route: readonly number[]; readonly through: number }> {
  const size = graph.ids.length;
  const out = new Map<number, { route: number[]; through: number }>();
  if (targets.length === 0) return out;
  // criteria from every producer at once, stopping at judges (a judge is reached, not walked through)
  const sources: number[] = [];
  for (let i = 0; i < size; i++) if (producer(i)) sources.push(i);
  const first = walk(graph, sources, (v) => !judge(v));
  const gates: number[] = [];
  for (let i = 0; i < size; i++) if (judge(i) && first.reached[i] === 1) gates.push(i);
  // on from those judges, through anything
  const second = walk(graph, gates, () => true);
  for (const target of targets) {
    // (a target that is itself a gate keeps no parent in the second walk: its route ends there)
    if (second.reached[target] !== 1 && !(first.reached[target] === 1 && judge(target))) continue;
    const route = pathTo(second.parent, target);
    const gate = route[0];
    for (let v = first.parent[gate]; v !== -1; v = first.parent[v]) route.unshift(v);
    out.set(target, { route, through: gate });
  }
  return out;
}

/**
 * Breadth-first from `starts`, walking on from a node other than a start only where `expand`
 * lets it. `reached`: a walk leads to the node along an edge; `parent`: the node it came from
 * when first reached (-1 for a start, which keeps no parent, and for a node never reached).
 */
function walk(graph: Graph, starts: readonly number[], expand: (node: number) => boolean): { reached: Uint8Array; parent: Int32Array } {
  const size = graph.ids.length;
  const reached = new Uint8Array(size);
  const parent = new Int32Array(size).fill(-1);
  const start = new Uint8Array(size);
  const queue: number[] = [];
  for (const s of starts) {
    if (start[s] === 1) continue;
    start[s] = 1;
    queue.push(s);
  }
  for (let head = 0; head < queue.length; head++) {
    const v = queue[head];
    if (start[v] === 0 && !expand(v)) continue;
    for (const t of graph.successors[v]) {
      if (reached[t] === 1) continue;
      reached[t] = 1;
      if (start[t] === 1) continue;
      parent[t] = v;
      queue.push(t);
    }
  }
  return { reached, parent };
}

/** The parent chain ending at `node`, from where it starts. */
function pathTo(parent: Int32Array, node: number): number[] {
  const out: number[] = [];
  for (let v = node; v !== -1; v = parent[v]) out.push(v);
  return out.reverse();
}

/**
 * Which edges close a cycle: inside a cycle (a strongly connected component, or a self-loop), an
 * edge that leads to a node the graph holds no later than its source (graph order is the order
 * the topology first names its nodes, which authors write in the order a run goes). Every cycle
 * has one such edge, and without them none is left, so a drawing that takes them as the
 * backward ones keeps the topology's own order. `closes(source, target)` by graph index.
 */
export function cycleClosers(graph: Graph): (source: number, target: number) => boolean {
  const component = new Int32Array(graph.ids.length).fill(-1);
  stronglyConnected(graph).forEach((members, c) => {
    for (const i of members) component[i] = c;
  });
  return (source, target) => component[source] !== -1 && component[source] === component[target] && target <= source;
}
