/**
 * Inlay hints in a topology, each kind behind its own option:
 * - `nodeCards`: after the statement that pins a node's card (else the node's first statement),
 *   the card's type and phases (`agent · implementation, testing`), when the pin names a card
 *   the bundle holds;
 * - `edgeTypes`: after an edge, the ports it pairs and the type it carries (`draft: markdown`, or
 *   `approved: status → approval` when the two ports are named differently), when the blueprint
 *   wired a pair for it. An edge that ends its statement gets the hint after the statement; the
 *   links of a chain (`a -> b -> c`) get theirs after their own target; edges that end at the same
 *   place share one hint.
 * A hint goes after the statement's `;` when one follows at once. Only the hints whose place
 * lies in the span asked for are made (a screenful, as an editor asks): where every hint of a
 * parsed graph could go is listed once per graph, sorted (`placesOf`), and a request finds its
 * span there by halving, so it reads the cards and wired ports of the few nodes and edges in it.
 */
import type { Card } from '../card/card-model';
import type { ResolvedEdge } from '../bundle/model';
import type { DotEdge, DotGraph, DotNode } from '../syntax/dot-model';
import { partitionPoint, type Span } from '../text';
import { cardOfNode, isTopologyPath, pinOf, textOf, topologyView, type TopologyView } from './context';
import type { IdeBundle } from './types';

/** Which hints to make (each a setting of its own in an editor). */
export interface InlayHintOptions {
  readonly nodeCards: boolean;
  readonly edgeTypes: boolean;
}

export const allInlayHints: InlayHintOptions = Object.freeze({ nodeCards: true, edgeTypes: true });

export interface InlayHint {
  /** Where the hint is shown (before the character at this offset). */
  readonly offset: number;
  readonly label: string;
  /** `type` for both kinds: a card's type, an edge's data type. */
  readonly kind: 'type';
  /** Markdown. */
  readonly tooltip: string;
}

export function inlayHints(bundle: IdeBundle, file: string, span: Span, options: InlayHintOptions = allInlayHints): InlayHint[] {
  const text = textOf(bundle, file);
  if (text === undefined || !isTopologyPath(file) || !(options.nodeCards || options.edgeTypes)) return [];
  const view = topologyView(bundle, file);
  if (view?.graph === undefined) return [];
  const places = placesOf(view.graph, view.text);
  const out: InlayHint[] = [];
  if (options.nodeCards) {
    const { ends, nodes } = places;
    for (let i = partitionPoint(ends.length, (k) => ends[k] < span.start); i < ends.length && ends[i] <= span.end; i++) pushNodeHint(bundle, view, nodes[i], ends[i], out);
  }
  if (options.edgeTypes) pushEdgeHints(bundle, view, places, span, out);
  return out.sort((a, b) => a.offset - b.offset);
}

/**
 * Where a graph's hints can go, each list sorted by place: per node, the end of the statement
 * that gets its hint; per place after an edge, the edges hinted there (in source order). They
 * depend on the parse alone, so they are made once per parsed graph, whatever the bundle's cards.
 */
interface Places {
  readonly text: string;
  /** The end of each node's hinted statement (`pinStatement`), ascending, and the node there. */
  readonly ends: readonly number[];
  readonly nodes: readonly DotNode[];
  /** Each place an edge hint goes, ascending, and the edges that share it. */
  readonly edgeOffsets: readonly number[];
  readonly edges: readonly (readonly DotEdge[])[];
}

const placesCache = new WeakMap<DotGraph, Places>();

function placesOf(graph: DotGraph, text: string): Places {
  const cached = placesCache.get(graph);
  if (cached !== undefined && cached.text === text) return cached;
  const statements: { end: number; node: DotNode }[] = [];
  for (const node of graph.nodes) {
    const statement = pinStatement(node);
    if (statement !== undefined) statements.push({ end: statement.end, node });
  }
  statements.sort((a, b) => a.end - b.end);
  /** How many edges end their statement at each place (a chain's links all do). */
  const ending = new Map<number, number>();
  for (const edge of graph.edges) ending.set(edge.span.end, (ending.get(edge.span.end) ?? 0) + 1);
  const byOffset = new Map<number, DotEdge[]>();
  for (const edge of graph.edges) {
    const at = ending.get(edge.span.end) === 1 ? after(text, edge.span.end) : edge.targetSpan.end;
    const shared = byOffset.get(at);
    if (shared === undefined) byOffset.set(at, [edge]);
    else shared.push(edge);
  }
  const edgeOffsets = [...byOffset.keys()].sort((a, b) => a - b);
  const places: Places = {
    text,
    ends: statements.map((s) => s.end),
    nodes: statements.map((s) => s.node),
    edgeOffsets,
    edges: edgeOffsets.map((at) => byOffset.get(at)!),
  };
  placesCache.set(graph, places);
  return places;
}

function pushNodeHint(bundle: IdeBundle, view: TopologyView, node: DotNode, end: number, out: InlayHint[]): void {
  const held = cardOfNode(bundle, node);
  if (held === undefined) return;
  const card: Partial<Card> = held.card ?? held.draft;
  if (card.type === undefined) return;
  const phases = card.phases ?? [];
  const label = phases.length > 0 ? `${card.type} · ${phases.join(', ')}` : card.type;
  const tooltip = `\`${held.ref ?? node.id}\`: type \`${card.type}\`${phases.length > 0 ? `, ${phases.length === 1 ? 'phase' : 'phases'} ${phases.map((p) => `\`${p}\``).join(', ')}` : ', no phase'}`;
  out.push({ offset: after(view.text, end), label, kind: 'type', tooltip });
}

/** The statement that writes the node's pin, else its first statement. */
function pinStatement(node: DotNode): Span | undefined {
  const attr = pinOf(node).attr;
  if (attr !== undefined && !attr.fromDefault) {
    const holding = node.statements.find((s) => s.start <= attr.keySpan.start && attr.keySpan.end <= s.end);
    if (holding !== undefined) return holding;
  }
  return node.statements[0];
}

/** Per blueprint, its resolved edges by parsed edge. */
const resolvedByEdge = new WeakMap<readonly ResolvedEdge[], ReadonlyMap<DotEdge, ResolvedEdge>>();

function pushEdgeHints(bundle: IdeBundle, view: TopologyView, places: Places, span: Span, out: InlayHint[]): void {
  const blueprint = bundle.result.blueprint;
  // (the wired pairs are the blueprint's: only for the topology it was resolved from, as it reads now)
  if (blueprint === undefined || !view.current) return;
  let byEdge = resolvedByEdge.get(blueprint.edges);
  if (byEdge === undefined) resolvedByEdge.set(blueprint.edges, (byEdge = new Map(blueprint.edges.map((e) => [e.dot, e] as const))));
  const { edgeOffsets } = places;
  for (let i = partitionPoint(edgeOffsets.length, (k) => edgeOffsets[k] < span.start); i < edgeOffsets.length && edgeOffsets[i] <= span.end; i++) {
    const labels: string[] = [];
    const tips: string[] = [];
    for (const edge of places.edges[i]) {
      const pair = byEdge.get(edge)?.pair;
      if (pair === undefined) continue;
      const { output, input } = pair;
      const label = output.name === input.name ? `${output.name}: ${output.type}` : `${output.name}: ${output.type} → ${input.name}`;
      if (labels.includes(label)) continue;
      labels.push(label);
      tips.push(`\`${edge.source}\` output \`${output.name}\` → \`${edge.target}\` input \`${input.name}\`, carrying \`${output.type}\``);
    }
    if (labels.length > 0) out.push({ offset: edgeOffsets[i], label: labels.join(', '), kind: 'type', tooltip: tips.join('\n\n') });
  }
}

/** `end`, or just after a `;` written right there. */
function after(text: string, end: number): number {
  return text.charCodeAt(end) === 59 ? end + 1 : end;
}
