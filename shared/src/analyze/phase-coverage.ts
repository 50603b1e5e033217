/**
 * Phase coverage (docs/compatibility.md#phase-coverage): which lifecycle phases the graph's cards
 * work in, and which nodes. Descriptive only: it never scores. A node with several phases is listed
 * under each; a resolved node with none is `unphased`; a node with no card appears nowhere.
 */
import { sameItems } from '../arrays';
import { phaseOrder } from '../vocabulary/core';
import type { AnalysisContext } from './context';

export interface PhaseCoverage {
  /** Phases with at least one node, in lifecycle order. */
  readonly covered: string[];
  /** The other lifecycle phases, same order. */
  readonly missing: string[];
  /**
   * Node ids per phase, in graph order. Always holds the five lifecycle phases first (empty
   * lists included), then any other phase a card declares, in order of first appearance.
   * A prototype-less object, so it serialises as JSON and a key like `__proto__` is inert.
   */
  readonly byPhase: Readonly<Record<string, string[]>>;
  /** Resolved nodes that declare no phase, in graph order. */
  readonly unphased: string[];
}

/**
 * `previous`, the last analysis's context and coverage, is handed back when the nodes with a card
 * list the same phases under the same ids in the same order (all the coverage reads): a topology
 * edit that adds, removes or moves nodes without cards, or touches no card, keeps it.
 */
export function computePhaseCoverage(context: AnalysisContext, previous?: { readonly context: AnalysisContext; readonly coverage: PhaseCoverage }): PhaseCoverage {
  if (previous !== undefined && samePhasing(previous.context, context)) return previous.coverage;
  const byPhase = new Map<string, string[]>();
  for (const phase of phaseOrder) byPhase.set(phase, []);
  const unphased: string[] = [];
  for (let i = 0; i < context.size; i++) {
    // the card's phases, trimmed and without blank ones (see `CardFacts`)
    const phases = context.facts[i]?.phases;
    if (phases === undefined) continue;
    const id = context.graph.ids[i];
    for (const phase of phases) {
      const group = byPhase.get(phase);
      if (group === undefined) byPhase.set(phase, [id]);
      else if (group[group.length - 1] !== id) group.push(id);
    }
    if (phases.length === 0) unphased.push(id);
  }
  const covered: string[] = [];
  const missing: string[] = [];
  for (const phase of phaseOrder) (byPhase.get(phase)!.length > 0 ? covered : missing).push(phase);
  const record = Object.create(null) as Record<string, string[]>;
  for (const [phase, nodes] of byPhase) record[phase] = nodes;
  return { covered, missing, byPhase: record, unphased };
}

/** True when the nodes with a card read the same phases under the same ids, in order, in both contexts (the nodes without one skipped). */
function samePhasing(a: AnalysisContext, b: AnalysisContext): boolean {
  let i = 0;
  let j = 0;
  for (;;) {
    while (i < a.size && a.facts[i]?.phases === undefined) i++;
    while (j < b.size && b.facts[j]?.phases === undefined) j++;
    if (i === a.size || j === b.size) return i === a.size && j === b.size;
    if (a.graph.ids[i] !== b.graph.ids[j]) return false;
    if (!sameItems(a.facts[i]!.phases, b.facts[j]!.phases)) return false;
    i++;
    j++;
  }
}
