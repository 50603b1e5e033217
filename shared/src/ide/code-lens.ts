/**
 * Code lenses: a line of facts above a place, each with what clicking it does.
 * - topology, on the `digraph` keyword: the bundle's security level, autonomy level and phase
 *   coverage (`security 3/4 · autonomy 2 Supervised · phases 4/5`), opening the report;
 * - topology, on each node's first statement: the card it runs (opening the card) and, when the
 *   node carries risk markers, its share of the security penalty (each marker's weight split
 *   evenly among the nodes carrying it, as a marker is charged once for the blueprint), opening
 *   the report;
 * - card, on its `id`: how many nodes pin this card, listing them.
 * The analysis facts come from the bundle's last check; a topology the engine could not analyse
 * gets no graph lens and no penalty lens.
 */
import type { Analysis } from '../analyze';
import type { Span } from '../text';
import { cardAt, cardOfNode, declarationSpan, graphIndex, isCardPath, isTopologyPath, mainTopology, textOf, topologyView, type HeldCard } from './context';
import type { FileSpan, IdeBundle } from './types';

/** What clicking a lens does. */
export type LensAction =
  /** Open the bundle's report. */
  | { readonly kind: 'report' }
  /** Open a place. */
  | { readonly kind: 'show'; readonly target: FileSpan }
  /** List places, shown as references of `at`. */
  | { readonly kind: 'list'; readonly at: FileSpan; readonly places: readonly FileSpan[] };

export interface CodeLens {
  /** The lens is shown above the line of `span.start`. */
  readonly span: Span;
  readonly title: string;
  /** Undefined: the lens is only read. */
  readonly action?: LensAction;
}

export function codeLenses(bundle: IdeBundle, file: string): CodeLens[] {
  if (textOf(bundle, file) === undefined) return [];
  if (isTopologyPath(file)) return topologyLenses(bundle, file);
  if (isCardPath(file)) return cardLenses(bundle, file);
  return [];
}

// ---------------------------------------------------------------------- topology

function topologyLenses(bundle: IdeBundle, file: string): CodeLens[] {
  const view = topologyView(bundle, file);
  const graph = view?.graph;
  if (view === undefined || graph === undefined) return [];
  const out: CodeLens[] = [];
  // (the analysis is of the bundle's own topology, as it read at the last check)
  const analysis = view.current ? bundle.result.analysis : undefined;
  if (analysis !== undefined) out.push({ span: graph.keywordSpan, title: summary(analysis), action: { kind: 'report' } });
  const shares = analysis !== undefined ? penaltyShares(analysis) : undefined;
  for (const node of graph.nodes) {
    if (node.statements.length === 0) continue;
    const span = declarationSpan(graph, node);
    const held = cardOfNode(bundle, node);
    // (the card opens at its top, where its id is written: locating the id would read every card's tree again)
    if (held !== undefined) out.push({ span, title: cardTitle(held), action: { kind: 'show', target: { file: held.file, span: { start: 0, end: 0 } } } });
    const share = shares?.get(node.id);
    if (share !== undefined && share.weight > 0) {
      out.push({ span, title: `security −${share.weight.toFixed(2)} (${share.markers.join(', ')})`, action: { kind: 'report' } });
    }
  }
  return out;
}

function summary(analysis: Analysis): string {
  const phases = analysis.phaseCoverage;
  const lifecycle = phases.covered.length + phases.missing.length;
  return `security ${analysis.security.level}/4 · autonomy ${analysis.autonomy.level} ${analysis.autonomy.label} · phases ${phases.covered.length}/${lifecycle}`;
}

function cardTitle(held: HeldCard): string {
  const type = (held.card ?? held.draft).type;
  return `${held.ref ?? held.file}${type !== undefined ? ` · ${type}` : ''}`;
}

interface Share {
  weight: number;
  readonly markers: string[];
}

/** Per analysis, each node's share of the penalties it carries. */
const sharesCache = new WeakMap<Analysis, ReadonlyMap<string, Share>>();

function penaltyShares(analysis: Analysis): ReadonlyMap<string, Share> {
  let shares = sharesCache.get(analysis);
  if (shares === undefined) {
    const map = new Map<string, Share>();
    for (const penalty of analysis.security.penalties) {
      if (penalty.weight <= 0 || penalty.nodeIds.length === 0) continue;
      const part = penalty.weight / penalty.nodeIds.length;
      for (const id of penalty.nodeIds) {
        const share = map.get(id);
        if (share === undefined) map.set(id, { weight: part, markers: [penalty.marker] });
        else {
          share.weight += part;
          share.markers.push(penalty.marker);
        }
      }
    }
    sharesCache.set(analysis, (shares = map));
  }
  return shares;
}

// ---------------------------------------------------------------------- cards

function cardLenses(bundle: IdeBundle, file: string): CodeLens[] {
  const held = cardAt(bundle, file);
  if (held?.ref === undefined) return [];
  const span = held.read.locate('id', 'value');
  const view = mainTopology(bundle);
  const graph = view?.graph;
  const nodes = graph !== undefined ? (graphIndex(graph).byRef.get(held.ref) ?? []) : [];
  if (view === undefined || graph === undefined || nodes.length === 0) return [{ span, title: 'pinned by no node' }];
  const places = nodes.map((node) => ({ file: view.file, span: declarationSpan(graph, node) }));
  return [{ span, title: `pinned by ${nodes.length === 1 ? '1 node' : `${nodes.length} nodes`}`, action: { kind: 'list', at: { file, span }, places } }];
}
