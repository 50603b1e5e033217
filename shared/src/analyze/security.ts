/**
 * Security (E§8): `raw = round4(4 − Σ weight)` over each distinct risk marker present anywhere
 * in the blueprint (charged once, however many nodes carry it), `level = clamp(round(raw), 1, 4)`.
 *
 * Markers arrive two ways, merged per (marker, node): declared in a card's `risk_markers`
 * (canonicalised through the vocabulary; unknown spellings kept as written), or inferred from
 * the graph: `unbounded-loop` (a cycle where no card declares an iteration cap),
 * `unvalidated-external-access` (an external-data tool whose output reaches a node that is not
 * a judge) and `criteria-leak` (./criteria.ts). [beyond] every marker only the graph
 * establishes is also a warning on its node, saying how it was established and how to fix it.
 */
import type { Diagnostic, DiagnosticCode } from '../diagnostics';
import type { Vocabulary } from '../vocabulary/types';
import { compareCodeUnits as compare } from '../diagnostics';
import { iterationCapKeys } from '../check/iteration-cap';
import { markerWeight } from '../vocabulary/view';
import { configuredWeight, type AnalysisConfig } from './config';
import type { AnalysisContext } from './analyze';
import { listIds, round4 } from './autonomy';
import { checkCriteria, criteriaLeakMarker, type Inference } from './criteria';
import { stronglyConnected } from './graph';
import { sortedStably } from '../diagnostics/sort';

export type SecurityLevel = 1 | 2 | 3 | 4;

export interface SecurityPenalty {
  readonly marker: string;
  /** What the marker subtracts, once for the blueprint (4 decimals). */
  readonly weight: number;
  /** Every node carrying it, sorted. */
  readonly nodeIds: string[];
  readonly explanation: string;
}

export interface SecurityFinding {
  readonly marker: string;
  readonly nodeId: string;
  /** `declared` when the card lists the marker (even if the graph also infers it). */
  readonly establishedBy: 'declared' | 'inferred';
  readonly explanation: string;
  readonly hint?: string;
  /**
   * The evidence of an inferred marker as node ids: for criteria-leak the route from the producer
   * to the node (or, for one node writing both, the node and its judge); for unbounded-loop the
   * cycle's members in graph order; for unvalidated-external-access the node, then its unchecked
   * consumers.
   */
  readonly path?: readonly string[];
  /** A long route keeps its first and last 32 ids in `path`; this many were left out between them. */
  readonly pathOmitted?: number;
}

export interface SecurityResult {
  readonly level: SecurityLevel;
  readonly raw: number;
  /** `4 − 1.50 (irreversible-action) − … → L` (U+2212, U+2192). */
  readonly rationale: string;
  /** By weight, heaviest first, then marker id. */
  readonly penalties: SecurityPenalty[];
  /** By marker weight, heaviest first, then marker id, then node id. */
  readonly findings: SecurityFinding[];
  readonly diagnostics: Diagnostic[];
}

const unboundedLoop = 'unbounded-loop';
const unvalidatedExternalAccess = 'unvalidated-external-access';

/** The [beyond] warning that repeats an inferred marker on its node. */
const inferredCodes: ReadonlyMap<string, DiagnosticCode> = new Map<string, DiagnosticCode>([
  [criteriaLeakMarker, 'analysis/criteria-leak'],
  [unboundedLoop, 'analysis/unbounded-loop'],
  [unvalidatedExternalAccess, 'analysis/unvalidated-external-access'],
]);

/** One risk marker a card declares, as its node's finding states it. */
export interface DeclaredMarker {
  readonly marker: string;
  readonly clause: string;
  readonly hint: string;
}

interface Hit {
  readonly marker: string;
  readonly node: number;
  declared: boolean;
  readonly clauses: string[];
  declaredHint?: string;
  readonly inferences: Inference[];
}

export function computeSecurity(context: AnalysisContext, config: AnalysisConfig): SecurityResult {
  const { graph, vocabulary, cards, size } = context;
  const ids = graph.ids;
  if (size === 0) {
    return {
      level: 4,
      raw: 4,
      rationale: '4 − 0.00 (empty graph: no node to analyse) → 4',
      penalties: [],
      findings: [],
      diagnostics: [
        {
          code: 'analysis/empty-graph',
          severity: 'warning',
          message: 'The topology declares no node, so the security level of 4 measures nothing; declare the pipeline\'s nodes in the topology.',
          location: {},
        },
      ],
    };
  }

  const hits = new Map<string, Hit>();
  const hitFor = (marker: string, node: number): Hit => {
    const key = `${marker}\u0000${node}`;
    let hit = hits.get(key);
    if (hit === undefined) {
      hit = { marker, node, declared: false, clauses: [], inferences: [] };
      hits.set(key, hit);
    }
    return hit;
  };
  const infer = (inference: Inference): void => {
    const hit = hitFor(inference.marker, inference.node);
    hit.clauses.push(inference.clause);
    hit.inferences.push(inference);
  };

  // ---- declared ----
  // what a card declares reads only the card, its node's id and the vocabulary: kept in the card's facts
  const facts = context.facts;
  for (let i = 0; i < size; i++) {
    const known = facts[i];
    if (known === undefined) continue;
    let declared = known.declared;
    if (declared === undefined || declared.nodeId !== ids[i]) {
      declared = { nodeId: ids[i], markers: declaredMarkers(cards[i]!.riskMarkers, ids[i], vocabulary) };
      known.declared = declared;
    }
    for (const { marker, clause, hint } of declared.markers) {
      const hit = hitFor(marker, i);
      hit.declared = true;
      hit.clauses.push(clause);
      hit.declaredHint ??= hint;
    }
  }

  // ---- inferred: cycles with no iteration cap ----
  const capAdvice = `a top-level params.${iterationCapKeys[0]} (or ${listIds(iterationCapKeys.slice(1)).replace(' and ', ' or ')})`;
  for (const component of stronglyConnected(graph)) {
    if (component.some((i) => facts[i]?.capped === true)) continue;
    const members = component.map((i) => ids[i]);
    for (const i of component) {
      const id = ids[i];
      if (members.length === 1) {
        infer({
          marker: unboundedLoop,
          node: i,
          clause: 'has an edge to itself and declares no iteration cap, so a run can repeat it without end',
          hint: `Set ${capAdvice} on the card of ${id}.`,
          message: `Node ${id} has an edge to itself and ${cards[i] === undefined ? 'no card to declare an' : 'declares no'} iteration cap, so a run can repeat it without end; set ${capAdvice} on ${cards[i] === undefined ? 'the card it pins' : 'its card'}.`,
          path: members,
        });
        continue;
      }
      const others = othersThan(members, id);
      infer({
        marker: unboundedLoop,
        node: i,
        clause: `sits in a cycle with ${others} where no node declares an iteration cap, so a run can go round without end`,
        hint: `Set ${capAdvice} on the card of one of ${listIds(members)}.`,
        message:
          `Node ${id} sits in a cycle with ${others}, and no card in that cycle declares an iteration cap, so a run can go round without end; ` +
          `set ${capAdvice} on the card of one of ${listIds(members)}.`,
        path: members,
      });
    }
  }

  // ---- inferred: external data handed on unchecked ----
  for (let i = 0; i < size; i++) {
    const tools = facts[i]?.externalTools;
    if (tools === undefined || tools.length === 0) continue;
    const consumers = graph.successors[i];
    const unchecked = consumers.filter((c) => c === i || context.judge[c] === 0);
    if (unchecked.length === 0) continue;
    const id = ids[i];
    const described = unchecked.map((c) =>
      c === i ? `${id} itself` : cards[c] === undefined ? `${ids[c]} (no card)` : `${ids[c]} (not a validation node)`,
    );
    const toolText = `${tools.length === 1 ? 'tool' : 'tools'} ${listIds(tools)}`;
    const targets = unchecked.map((c) => ids[c]);
    infer({
      marker: unvalidatedExternalAccess,
      node: i,
      clause: `reads from outside the graph with ${toolText} and passes the result straight to ${listIds(described)}, with no validation node in between`,
      hint: `Put a validation node between ${id} and ${targets.length === 1 ? targets[0] : `each of ${listIds(targets)}`}, so what comes from outside is checked before it is used.`,
      message:
        `Node ${id} reads from outside the graph with ${toolText} and passes the result straight to ${listIds(described)}, so outside data is used unchecked; ` +
        `put a validation node between ${id} and ${targets.length === 1 ? targets[0] : `each of ${listIds(targets)}`}.`,
      path: [id, ...targets],
    });
  }

  // ---- inferred: criteria leak ----
  const criteria = checkCriteria(context, config);
  for (const inference of criteria.inferences) infer(inference);

  // ---- findings, penalties, score ----
  const weightOf = (marker: string): number => {
    const configured = configuredWeight(config, marker);
    if (configured !== undefined && Number.isFinite(configured) && configured >= 0) return configured;
    const term = vocabulary.resolve(marker, 'risk-marker');
    return term !== undefined ? markerWeight(term, config) : config.unknownMarkerWeight;
  };
  const byMarker = new Map<string, string[]>();
  for (const hit of hits.values()) {
    const list = byMarker.get(hit.marker);
    if (list === undefined) byMarker.set(hit.marker, [ids[hit.node]]);
    else list.push(ids[hit.node]);
  }
  const penalties: SecurityPenalty[] = [];
  for (const [marker, nodeIds] of byMarker) {
    const weight = round4(weightOf(marker));
    nodeIds.sort(compare);
    const where = `Carried by ${nodeIds.length === 1 ? 'node' : `${nodeIds.length} nodes`}: ${listIds(nodeIds)}.`;
    penalties.push({
      marker,
      weight,
      nodeIds,
      explanation:
        weight === 0
          ? `Risk marker ${marker} weighs nothing in this configuration, so it is listed without moving the level. ${where}`
          : `Risk marker ${marker} subtracts ${weight.toFixed(2)} once for the blueprint, however many nodes carry it. ${where}`,
    });
  }
  penalties.sort((a, b) => b.weight - a.weight || compare(a.marker, b.marker));
  const weights = new Map(penalties.map((penalty) => [penalty.marker, penalty.weight]));

  const findings: SecurityFinding[] = [];
  const diagnostics: Diagnostic[] = [...criteria.diagnostics];
  for (const hit of hits.values()) {
    const first = hit.inferences[0];
    const hint = first?.hint ?? hit.declaredHint;
    findings.push({
      marker: hit.marker,
      nodeId: ids[hit.node],
      establishedBy: hit.declared ? 'declared' : 'inferred',
      explanation: `Node ${context.describe(hit.node)} ${hit.clauses.join(', and ')}.`,
      ...(hint !== undefined ? { hint } : {}),
      ...(first?.path !== undefined ? { path: first.path } : {}),
      ...(first?.pathOmitted !== undefined ? { pathOmitted: first.pathOmitted } : {}),
    });
    const code = inferredCodes.get(hit.marker);
    if (hit.declared || code === undefined) continue;
    for (const inference of hit.inferences) {
      diagnostics.push({ code, severity: 'warning', message: inference.message, location: context.nodeLocation(hit.node) });
    }
  }
  findings.sort(
    (a, b) => (weights.get(b.marker) ?? 0) - (weights.get(a.marker) ?? 0) || compare(a.marker, b.marker) || compare(a.nodeId, b.nodeId),
  );

  let total = 0;
  for (const penalty of penalties) total += penalty.weight;
  const raw = round4(4 - total);
  const level = toLevel(raw);
  const rationale =
    penalties.length === 0
      ? `4 − 0.00 (no risk marker present across ${size} ${size === 1 ? 'node' : 'nodes'}) → ${level}`
      : `4 ${penalties.map((penalty) => `− ${penalty.weight.toFixed(2)} (${penalty.marker})`).join(' ')} → ${level}`;

  // the unchanged findings are the same objects as last time (see `RelayedMemo`): their order is merged, not sorted again
  const sorted = sortedStably(diagnostics, securityOrder, context.securityOrder);
  return { level, raw, rationale, penalties, findings, diagnostics: sorted };
}

/** The markers a card's `risk_markers` declare (each spelling once), as node `id`'s finding states them. */
function declaredMarkers(riskMarkers: readonly string[], id: string, vocabulary: Vocabulary): DeclaredMarker[] {
  const declared: DeclaredMarker[] = [];
  for (const spelling of new Set(riskMarkers)) {
    const term = vocabulary.resolve(spelling, 'risk-marker');
    if (term !== undefined) {
      declared.push({
        marker: term.id,
        clause: term.id === spelling ? `declares the risk marker ${spelling}` : `declares ${spelling}, which the vocabulary replaces with the risk marker ${term.id}`,
        hint: `Remove ${spelling} from risk_markers if ${id} no longer does this, or record in the card's notes why the risk is accepted.`,
      });
      continue;
    }
    const other = vocabulary.get(spelling);
    declared.push({
      marker: spelling,
      clause:
        other !== undefined
          ? `declares ${spelling} as a risk marker, but the vocabulary defines it as a ${other.kind}`
          : `declares ${spelling}, which the vocabulary does not define`,
      hint:
        other !== undefined
          ? `Replace ${spelling} in risk_markers with a risk-marker term.`
          : `Correct the spelling, or define ${spelling} in ontology/extensions.yaml as a risk-marker under a core marker, with a defaultWeight.`,
    });
  }
  return declared;
}

/** The order of the security warnings: code, node, message. */
function securityOrder(a: Diagnostic, b: Diagnostic): number {
  return compare(a.code, b.code) || compare(a.location.nodeId ?? '', b.location.nodeId ?? '') || compare(a.message, b.message);
}

/** `clamp(Math.round(raw), 1, 4)`: JavaScript rounding, so an exact .5 rounds up. */
export function toLevel(raw: number): SecurityLevel {
  const rounded = Math.round(raw);
  return rounded >= 4 ? 4 : rounded === 3 ? 3 : rounded === 2 ? 2 : 1;
}

/** The other members of a cycle, as `listIds` writes them, without copying a large component per member. */
function othersThan(members: readonly string[], id: string): string {
  const shown: string[] = [];
  for (const member of members) {
    if (member === id) continue;
    if (shown.length === 11) break;
    shown.push(member);
  }
  return shown.length <= 10 ? listIds(shown) : `${shown.slice(0, 10).join(', ')} and ${members.length - 11} more`;
}
