/**
 * Reading a parse's node mentions (`DotGraph.mentions`): where a node's id is written in node
 * position, and which node a position names. For the IDE, which reads them per request; the
 * engine's checks read nodes and edges only.
 */
import type { Span } from '../text';
import type { DotGraph } from './dot-model';

/** Per graph, each node id's occurrences in source order (built on first read; a graph never changes). */
const byIdCache = new WeakMap<DotGraph, ReadonlyMap<string, readonly Span[]>>();

/** Every occurrence of each node id, in source order. */
export function occurrencesById(graph: DotGraph): ReadonlyMap<string, readonly Span[]> {
  let byId = byIdCache.get(graph);
  if (byId === undefined) {
    const map = new Map<string, Span[]>();
    const { ids, starts, ends } = graph.mentions;
    for (let m = 0; m < ids.length; m++) {
      const span = { start: starts[m], end: ends[m] };
      const list = map.get(ids[m]);
      if (list === undefined) map.set(ids[m], [span]);
      else list.push(span);
    }
    byId = map;
    byIdCache.set(graph, byId);
  }
  return byId;
}

/** Every token where node `id` is written in node position (statements and edge endpoints), in source order. */
export function nodeOccurrences(graph: DotGraph, id: string): readonly Span[] {
  return occurrencesById(graph).get(id) ?? [];
}

/** The mention whose token covers `offset` (either end included), the first one when two touch there. */
export function mentionAt(graph: DotGraph, offset: number): { readonly id: string; readonly span: Span } | undefined {
  const { ids, starts, ends } = graph.mentions;
  for (let m = 0; m < ids.length; m++) {
    if (starts[m] > offset) break;
    if (offset <= ends[m]) return { id: ids[m], span: { start: starts[m], end: ends[m] } };
  }
  return undefined;
}
