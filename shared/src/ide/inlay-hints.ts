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
 * lies in the span asked for are made (a screenful, as an editor asks).
 */
import type { Card } from '../card/card-model';
import type { ResolvedEdge } from '../bundle/model';
import type { DotEdge, DotNode } from '../syntax/dot-model';
import type { Span } from '../text';
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
  const out: InlayHint[] = [];
  if (options.nodeCards) for (const node of view.graph.nodes) pushNodeHint(bundle, view, node, span, out);
  if (options.edgeTypes) pushEdgeHints(bundle, view, span, out);
  return out.sort((a, b) => a.offset - b.offset);
}

function pushNodeHint(bundle: IdeBundle, view: TopologyView, node: DotNode, span: Span, out: InlayHint[]): void {
  const statement = pinStatement(node);
  if (statement === undefined || statement.end < span.start || statement.end > span.end) return;
  const held = cardOfNode(bundle, node);
  if (held === undefined) return;
  const card: Partial<Card> = held.card ?? held.draft;
  if (card.type === undefined) return;
  const phases = card.phases ?? [];
  const label = phases.length > 0 ? `${card.type} · ${phases.join(', ')}` : card.type;
  const tooltip = `\`${held.ref ?? node.id}\`: type \`${card.type}\`${phases.length > 0 ? `, ${phases.length === 1 ? 'phase' : 'phases'} ${phases.map((p) => `\`${p}\``).join(', ')}` : ', no phase'}`;
  out.push({ offset: after(view.text, statement.end), label, kind: 'type', tooltip });
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

function pushEdgeHints(bundle: IdeBundle, view: TopologyView, span: Span, out: InlayHint[]): void {
  const blueprint = bundle.result.blueprint;
  // (the wired pairs are the blueprint's: only for the topology it was resolved from, as it reads now)
  if (blueprint === undefined || !view.current || view.graph === undefined) return;
  let byEdge = resolvedByEdge.get(blueprint.edges);
  if (byEdge === undefined) resolvedByEdge.set(blueprint.edges, (byEdge = new Map(blueprint.edges.map((e) => [e.dot, e] as const))));
  const edges = view.graph.edges;
  /** How many edges end their statement at each place (a chain's links all do). */
  const ending = new Map<number, number>();
  for (const edge of edges) ending.set(edge.span.end, (ending.get(edge.span.end) ?? 0) + 1);
  const byOffset = new Map<number, { labels: string[]; tips: string[] }>();
  for (const edge of edges) {
    const single = ending.get(edge.span.end) === 1;
    const at = single ? after(view.text, edge.span.end) : edge.targetSpan.end;
    if (at < span.start || at > span.end) continue;
    const pair = byEdge.get(edge)?.pair;
    if (pair === undefined) continue;
    const { output, input } = pair;
    const label = output.name === input.name ? `${output.name}: ${output.type}` : `${output.name}: ${output.type} → ${input.name}`;
    const tip = `\`${edge.source}\` output \`${output.name}\` → \`${edge.target}\` input \`${input.name}\`, carrying \`${output.type}\``;
    const entry = byOffset.get(at);
    if (entry === undefined) byOffset.set(at, { labels: [label], tips: [tip] });
    else if (!entry.labels.includes(label)) {
      entry.labels.push(label);
      entry.tips.push(tip);
    }
  }
  for (const [offset, entry] of byOffset) out.push({ offset, label: entry.labels.join(', '), kind: 'type', tooltip: entry.tips.join('\n\n') });
}

/** `end`, or just after a `;` written right there. */
function after(text: string, end: number): number {
  return text.charCodeAt(end) === 59 ? end + 1 : end;
}
