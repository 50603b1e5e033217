/**
 * A parse's node mentions (`DotGraph.mentions`): reading them (where a node's id is written in
 * node position, which node a position names) and writing them (the parser's `mentionWriter`).
 */
import type { Span } from '../text';
import type { DotGraph, DotMentionChunk, DotMentions, DotNode } from './dot-model';

/** Mentions per chunk (a power of two: mention `m` is item `m & mask` of chunk `m >> shift`). */
export const mentionChunkSize = 1024;
const shift = 10;
const mask = mentionChunkSize - 1;

/** Where mention `m` starts. */
export function mentionStart(mentions: DotMentions, m: number): number {
  return mentions.chunks[m >> shift].starts[m & mask];
}

/** Where mention `m` ends. */
export function mentionEnd(mentions: DotMentions, m: number): number {
  return mentions.chunks[m >> shift].ends[m & mask];
}

/** The index in `DotGraph.nodes` of the node mention `m` names. */
export function mentionNode(mentions: DotMentions, m: number): number {
  return mentions.chunks[m >> shift].nodes[m & mask];
}

/** Mentions being recorded in order (see `mentionWriter`). */
export interface MentionWriter {
  add(node: number, start: number, end: number): void;
  /** How many are recorded so far. */
  count(): number;
  /** The mentions recorded; the writer is not used after this. */
  done(): DotMentions;
}

/**
 * A writer that starts with the first `keep` mentions of `earlier`: its full chunks before
 * `keep` are shared (they never change once full), the rest of them copied.
 */
export function mentionWriter(earlier?: DotMentions, keep = 0): MentionWriter {
  const chunks: DotMentionChunk[] = earlier === undefined ? [] : earlier.chunks.slice(0, keep >> shift);
  let chunk = newChunk();
  let at = 0;
  if (earlier !== undefined && (keep & mask) > 0) {
    const from = earlier.chunks[keep >> shift];
    at = keep & mask;
    chunk.nodes.set(from.nodes.subarray(0, at));
    chunk.starts.set(from.starts.subarray(0, at));
    chunk.ends.set(from.ends.subarray(0, at));
  }
  return {
    add(node, start, end) {
      if (at === mentionChunkSize) {
        chunks.push(chunk);
        chunk = newChunk();
        at = 0;
      }
      chunk.nodes[at] = node;
      chunk.starts[at] = start;
      chunk.ends[at] = end;
      at++;
    },
    count: () => chunks.length * mentionChunkSize + at,
    done() {
      const count = chunks.length * mentionChunkSize + at;
      // (the last chunk at its size: a small topology's whole list is one short chunk)
      if (at === mentionChunkSize) chunks.push(chunk);
      else if (at > 0) chunks.push({ nodes: chunk.nodes.slice(0, at), starts: chunk.starts.slice(0, at), ends: chunk.ends.slice(0, at) });
      return { count, chunks };
    },
  };
}

function newChunk(): DotMentionChunk {
  return { nodes: new Int32Array(mentionChunkSize), starts: new Int32Array(mentionChunkSize), ends: new Int32Array(mentionChunkSize) };
}

/** Per graph, each node id's occurrences in source order (built on first read; a graph never changes). */
const byIdCache = new WeakMap<DotGraph, ReadonlyMap<string, readonly Span[]>>();

/** Every occurrence of each node id, in source order. */
export function occurrencesById(graph: DotGraph): ReadonlyMap<string, readonly Span[]> {
  let byId = byIdCache.get(graph);
  if (byId === undefined) {
    const map = new Map<string, Span[]>();
    const mentions = graph.mentions;
    for (let m = 0; m < mentions.count; m++) {
      const id = graph.nodes[mentionNode(mentions, m)].id;
      const span = { start: mentionStart(mentions, m), end: mentionEnd(mentions, m) };
      const list = map.get(id);
      if (list === undefined) map.set(id, [span]);
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

/** How many times `node` is mentioned (without building `occurrencesById`). */
export function mentionCount(graph: DotGraph, node: DotNode): number {
  const mentions = graph.mentions;
  let count = 0;
  for (let m = 0; m < mentions.count; m++) if (graph.nodes[mentionNode(mentions, m)] === node) count++;
  return count;
}

/**
 * The mention whose token covers `offset` (either end included). Where two mentions touch (a
 * glued `step-1`, `a"b"`), the one on the left: the token the cursor has just passed, as a
 * word is taken where one is being typed.
 */
export function mentionAt(graph: DotGraph, offset: number): { readonly node: DotNode; readonly span: Span } | undefined {
  const mentions = graph.mentions;
  // the last mention starting at or before `offset`, and the one before it (mentions never overlap)
  const last = partitionMentions(mentions, (start) => start <= offset) - 1;
  for (const m of [last - 1, last]) {
    if (m < 0) continue;
    const end = mentionEnd(mentions, m);
    if (end >= offset) return { node: graph.nodes[mentionNode(mentions, m)], span: { start: mentionStart(mentions, m), end } };
  }
  return undefined;
}

/** The mention that starts at `start`, if any. */
export function mentionStartingAt(graph: DotGraph, start: number): { readonly node: DotNode; readonly span: Span } | undefined {
  const mentions = graph.mentions;
  const m = partitionMentions(mentions, (s) => s < start);
  if (m >= mentions.count || mentionStart(mentions, m) !== start) return undefined;
  return { node: graph.nodes[mentionNode(mentions, m)], span: { start, end: mentionEnd(mentions, m) } };
}

/** How many mentions, from the first, start where `before` holds (it holds for a prefix: mentions are in source order). */
function partitionMentions(mentions: DotMentions, before: (start: number) => boolean): number {
  let low = 0;
  let high = mentions.count;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (before(mentionStart(mentions, middle))) low = middle + 1;
    else high = middle;
  }
  return low;
}
