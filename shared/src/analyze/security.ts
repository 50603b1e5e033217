/**
 * Security (docs/compatibility.md#security): `raw = round4(4 − Σ weight)` over each distinct risk
 * marker present anywhere in the blueprint (charged once, however many nodes carry it),
 * `level = clamp(round(raw), 1, 4)`.
 *
 * Markers arrive two ways, merged per (marker, node): declared in a card's `risk_markers`
 * (canonicalised through the vocabulary; unknown spellings kept as written), or inferred from
 * the graph: `unbounded-loop` (a cycle where no card declares an iteration cap),
 * `unvalidated-external-access` (an external-data tool whose output reaches a node that is not
 * a judge) and `criteria-leak` (./criteria.ts). [beyond] every marker only the graph
 * establishes is also a warning on its node, saying how it was established and how to fix it.
 *
 * The reading is made in two steps so that an analysis can keep the first per weakly connected
 * component (./analyze.ts): `securityParts` finds what lies inside components (every marker but
 * the ones (b) may add) and splits it into parts, each with its findings and warnings in order;
 * `combineSecurity` adds the criteria-leak check's global half and makes penalties, findings,
 * warnings and the score from the parts. `computeSecurity` is the two over one part.
 */
import type { Diagnostic, DiagnosticCode } from '../diagnostics';
import type { Vocabulary } from '../vocabulary/types';
import { compareCodeUnits as compare } from '../diagnostics';
import { iterationCapKeys } from '../check/iteration-cap';
import { markerWeight } from '../vocabulary/view';
import { configuredWeight, type AnalysisConfig } from '../vocabulary/analysis-config';
import type { AnalysisContext, DeclaredMarker, SecurityCycle } from './context';

export type { SecurityCycle };
import { listIds, round4 } from './autonomy';
import { criteriaLeakMarker, globalCriteria, localCriteria, type Inference, type RelayedFinding } from './criteria';
import { stronglyConnected } from './graph';
import { partitionPoint } from '../text';
import { sortedStably } from '../diagnostics/sort';
import { analysisOrder, mergeRuns, securityOrder } from './order';
import { mapped } from '../arrays';

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
   * cycle's members in graph order (its `cycle`'s `members`, the same array); for
   * unvalidated-external-access the node, then its unchecked consumers.
   */
  readonly path?: readonly string[];
  /** A long route keeps its first and last 32 ids in `path`; this many were left out between them. */
  readonly pathOmitted?: number;
  /**
   * For unbounded-loop inferred by the graph: the cycle, one object shared by the findings of all
   * its members. Whatever writes findings out lists it once and points at it (a cycle of n nodes
   * has n findings, so writing each one's members would take n² ids).
   */
  readonly cycle?: SecurityCycle;
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


/** One marker on one node: how the card declares it and how the graph establishes it, in that order. */
export interface Hit {
  readonly marker: string;
  /** The node's graph index when the hit was made. */
  readonly node: number;
  declared: boolean;
  readonly clauses: string[];
  declaredHint?: string;
  readonly inferences: Inference[];
}

/**
 * What the security reading finds inside whole weakly connected components, kept per component
 * between analyses (./analyze.ts): every marker except the ones (b) may add is established by
 * walking edges or reading one node, so it is the component's alone. Nodes are addressed by
 * their place among the part's members (graph order), which an edit elsewhere does not move.
 */
export interface SecurityPart {
  /** One per (marker, node), in the findings order (weight, marker, node id). */
  readonly findings: readonly SecurityFinding[];
  /** Per marker, the ids of the part's nodes carrying it, sorted. */
  readonly carriers: ReadonlyMap<string, readonly string[]>;
  /** The warnings of its inferred markers and its (a2) findings, in the security order. */
  readonly diagnostics: readonly Diagnostic[];
  /** The same warnings in the order of the analysis's merged list (`analysisOrder`). */
  readonly ordered: readonly Diagnostic[];
  /** Resolved generators, ascending; per generator, its nearest judge (-1: none) and whether (a) marked it. */
  readonly generators: readonly number[];
  readonly judgedBy: readonly number[];
  readonly leaking: readonly boolean[];
  /** The criteria-leak hits by node and their findings, for (b) when it charges the marker. */
  readonly leakHits: ReadonlyMap<number, { readonly hit: Hit; readonly finding: SecurityFinding }>;
  /** The (a2) findings by node, to hand back when the component is checked again. */
  readonly relayed: ReadonlyMap<number, RelayedFinding>;
}

/** Where a graph node sits among the parts: which part, and its place among the part's members. */
export interface PartLayout {
  /** How many parts. */
  readonly count: number;
  /** The part of node `i` (a node in scope). */
  part(i: number): number;
  /** Node `i`'s place among its part's members (graph order). */
  local(i: number): number;
}

/** A part placed in the graph: `members[from + l]` is the graph index of its node `l` (identity when absent). */
export interface PlacedPart {
  readonly part: SecurityPart;
  readonly members?: Int32Array;
  readonly from?: number;
}

export function computeSecurity(context: AnalysisContext, config: AnalysisConfig): SecurityResult {
  if (context.size === 0) return emptySecurity();
  const whole: PartLayout = { count: 1, part: () => 0, local: (i) => i };
  const parts = securityParts(context, config, whole);
  return combineSecurity(context, config, parts.map((part) => ({ part })), whole).security;
}

/** The reading of a graph with no node. */
export function emptySecurity(): SecurityResult {
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

/** What `securityParts` may reuse or apply. */
export interface PartOptions {
  /** The nodes to read (1 per node; whole weakly connected components); every node when absent. */
  readonly scope?: Uint8Array;
  /** An earlier (a2) finding for node id `id` (see `localCriteria`). */
  readonly kept?: (id: string) => RelayedFinding | undefined;
  /** An earlier part that part `index` starts like, to merge the new orders with (see ../diagnostics/sort.ts). */
  readonly earlier?: (index: number) => SecurityPart | undefined;
  /** Hands back an equal earlier warning for a new one (see ../diagnostics/sort.ts). */
  readonly intern?: (d: Diagnostic) => Diagnostic;
}

/**
 * The component-local security reading of the nodes in scope, split into `layout.count` parts:
 * declared markers, unbounded loops, unvalidated external access, and the criteria-leak
 * check's local half (./criteria.ts).
 */
export function securityParts(context: AnalysisContext, config: AnalysisConfig, layout: PartLayout, options: PartOptions = {}): SecurityPart[] {
  const { graph, vocabulary, cards, size } = context;
  const ids = graph.ids;
  const scope = options.scope;
  const inScope = (i: number): boolean => scope === undefined || scope[i] === 1;

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
    if (known === undefined || !inScope(i)) continue;
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
  for (const component of stronglyConnected(graph, scope === undefined ? {} : { within: scope })) {
    if (component.some((i) => facts[i]?.capped === true)) continue;
    const members = component.map((i) => ids[i]);
    if (members.length === 1) {
      const i = component[0];
      const id = ids[i];
      const cycle: SecurityCycle = {
        members,
        explanation: `The node has an edge to itself and ${cards[i] === undefined ? 'no card to declare an' : 'declares no'} iteration cap, so a run can repeat it without end.`,
        hint: `Set ${capAdvice} on the card of ${id}.`,
      };
      infer({
        marker: unboundedLoop,
        node: i,
        clause: 'has an edge to itself and declares no iteration cap, so a run can repeat it without end',
        hint: cycle.hint,
        message: `Node ${id} has an edge to itself and ${cards[i] === undefined ? 'no card to declare an' : 'declares no'} iteration cap, so a run can repeat it without end; set ${capAdvice} on ${cards[i] === undefined ? 'the card it pins' : 'its card'}.`,
        path: members,
        cycle,
      });
      continue;
    }
    // (the hint and the messages name at most ten members, listed once per cycle)
    const listed = listIds(members);
    const cycle: SecurityCycle = {
      members,
      explanation: `These ${members.length} nodes form a cycle where no node declares an iteration cap, so a run can go round without end.`,
      hint: `Set ${capAdvice} on the card of one of ${listed}.`,
    };
    for (const i of component) {
      const id = ids[i];
      const others = othersThan(members, id);
      infer({
        marker: unboundedLoop,
        node: i,
        clause: `sits in a cycle with ${others} where no node declares an iteration cap, so a run can go round without end`,
        hint: cycle.hint,
        message:
          `Node ${id} sits in a cycle with ${others}, and no card in that cycle declares an iteration cap, so a run can go round without end; ` +
          `set ${capAdvice} on the card of one of ${listed}.`,
        path: members,
        cycle,
      });
    }
  }

  // ---- inferred: external data handed on unchecked ----
  for (let i = 0; i < size; i++) {
    const tools = facts[i]?.externalTools;
    if (tools === undefined || tools.length === 0 || !inScope(i)) continue;
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

  // ---- inferred: criteria leak ((a) and (d); (b) reads the whole graph, see `combineSecurity`) ----
  const criteria = localCriteria(context, scope, options.kept);
  for (const inference of criteria.inferences) infer(inference);

  // ---- into parts ----
  const intern = options.intern ?? ((d: Diagnostic): Diagnostic => d);
  const built: PartBuilder[] = new Array(layout.count);
  for (let p = 0; p < layout.count; p++) built[p] = { findings: [], diagnostics: [], generators: [], judgedBy: [], leaking: [] };
  for (const hit of hits.values()) {
    const part = built[layout.part(hit.node)];
    const finding = findingOf(context, hit);
    part.findings.push(finding);
    part.carriers ??= new Map();
    const carriers = part.carriers.get(hit.marker);
    if (carriers === undefined) part.carriers.set(hit.marker, [ids[hit.node]]);
    else carriers.push(ids[hit.node]);
    if (hit.marker === criteriaLeakMarker) (part.leakHits ??= new Map()).set(layout.local(hit.node), { hit, finding });
    const code = inferredCodes.get(hit.marker);
    if (hit.declared || code === undefined) continue;
    for (const inference of hit.inferences) part.diagnostics.push(intern(inferredDiagnostic(context, code, inference, hit.node)));
  }
  for (const [g, finding] of criteria.relayed) {
    const part = built[layout.part(g)];
    const diagnostic = intern(finding.diagnostic);
    part.diagnostics.push(diagnostic);
    (part.relayed ??= new Map()).set(layout.local(g), diagnostic === finding.diagnostic ? finding : { ...finding, diagnostic });
  }
  for (const g of criteria.generators) {
    const part = built[layout.part(g)];
    part.generators.push(layout.local(g));
    const j = criteria.judgedBy[g];
    part.judgedBy.push(j === -1 ? -1 : layout.local(j));
    part.leaking.push(criteria.leaking[g] === 1);
  }
  const order = findingsOrder(markerWeights(context, config));
  return built.map((part, index) => {
    if (part.findings.length > 1) part.findings.sort(order);
    if (part.carriers !== undefined) for (const list of part.carriers.values()) if (list.length > 1) list.sort(compare);
    let diagnostics = part.diagnostics;
    let ordered = part.diagnostics;
    if (diagnostics.length > 1) {
      const earlier = options.earlier?.(index);
      diagnostics = sortedStably(part.diagnostics, securityOrder, earlier !== undefined ? { last: earlier.diagnostics } : undefined);
      ordered = sortedStably(part.diagnostics, analysisOrder, earlier !== undefined ? { last: earlier.ordered } : undefined);
    }
    return {
      findings: part.findings,
      carriers: part.carriers ?? noCarriers,
      diagnostics,
      ordered,
      generators: part.generators,
      judgedBy: part.judgedBy,
      leaking: part.leaking,
      leakHits: part.leakHits ?? noLeakHits,
      relayed: part.relayed ?? noRelayed,
    };
  });
}

/** A part as `securityParts` fills it (the maps made when first needed). */
interface PartBuilder {
  readonly findings: SecurityFinding[];
  carriers?: Map<string, string[]>;
  readonly diagnostics: Diagnostic[];
  readonly generators: number[];
  readonly judgedBy: number[];
  readonly leaking: boolean[];
  leakHits?: Map<number, { hit: Hit; finding: SecurityFinding }>;
  relayed?: Map<number, RelayedFinding>;
}

const noCarriers: ReadonlyMap<string, readonly string[]> = new Map();
const noLeakHits: ReadonlyMap<number, { readonly hit: Hit; readonly finding: SecurityFinding }> = new Map();
const noRelayed: ReadonlyMap<number, RelayedFinding> = new Map();

/**
 * The security reading of the whole graph from the parts of all its components (each node in
 * exactly one part; `layout` says where): the criteria-leak check's global half (./criteria.ts),
 * with the markers (b) may add; penalties, each distinct marker charged once for the blueprint;
 * the findings and warnings of every part in their orders; the score.
 */
export function combineSecurity(
  context: AnalysisContext,
  config: AnalysisConfig,
  parts: readonly PlacedPart[],
  layout: PartLayout,
  intern: (d: Diagnostic) => Diagnostic = (d) => d,
): { readonly security: SecurityResult; readonly global: readonly Diagnostic[] } {
  const { graph, size } = context;
  const ids = graph.ids;
  if (size === 0) {
    const security = emptySecurity();
    return { security, global: security.diagnostics };
  }
  const at = (placed: PlacedPart, l: number): number => (placed.members === undefined ? l : placed.members[(placed.from ?? 0) + l]);

  // ---- the criteria-leak check's global half ----
  const generators: number[] = [];
  for (const placed of parts) for (const l of placed.part.generators) generators.push(at(placed, l));
  /** Where generator `g` sits in its part's list. */
  const generatorAt = (g: number): { placed: PlacedPart; slot: number } => {
    const placed = parts[layout.part(g)];
    const list = placed.part.generators;
    const l = layout.local(g);
    return { placed, slot: partitionPoint(list.length, (k) => list[k] < l) };
  };
  const criteria = globalCriteria(
    context,
    config,
    generators,
    (g) => {
      const { placed, slot } = generatorAt(g);
      const j = placed.part.judgedBy[slot];
      return j === -1 ? -1 : at(placed, j);
    },
    (g) => {
      const { placed, slot } = generatorAt(g);
      return placed.part.leaking[slot];
    },
  );

  // ---- what (b) adds to a node's criteria-leak hit, when it charges the marker ----
  const replaced = new Map<SecurityFinding, SecurityFinding>();
  const added: SecurityFinding[] = [];
  const addedCarriers: string[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const inference of criteria.inferences) {
    const node = inference.node;
    const earlier = parts[layout.part(node)].part.leakHits.get(layout.local(node));
    const hit: Hit =
      earlier === undefined
        ? { marker: inference.marker, node, declared: false, clauses: [inference.clause], inferences: [inference] }
        : { ...earlier.hit, node, clauses: [...earlier.hit.clauses, inference.clause], inferences: [...earlier.hit.inferences, inference] };
    const finding = findingOf(context, hit);
    if (earlier === undefined) {
      added.push(finding);
      addedCarriers.push(ids[node]);
    } else {
      replaced.set(earlier.finding, finding);
    }
    if (!hit.declared) diagnostics.push(intern(inferredDiagnostic(context, 'analysis/criteria-leak', inference, node)));
  }

  // ---- penalties ----
  const weightOf = markerWeights(context, config);
  // per marker, each part's sorted carriers, merged
  const byMarker = new Map<string, (readonly string[])[]>();
  for (const placed of parts) {
    for (const [marker, carriers] of placed.part.carriers) {
      const runs = byMarker.get(marker);
      if (runs === undefined) byMarker.set(marker, [carriers]);
      else runs.push(carriers);
    }
  }
  if (addedCarriers.length > 0) {
    const runs = byMarker.get(criteriaLeakMarker);
    if (runs === undefined) byMarker.set(criteriaLeakMarker, [addedCarriers.sort(compare)]);
    else runs.push(addedCarriers.sort(compare));
  }
  const penalties: SecurityPenalty[] = [];
  for (const [marker, runs] of byMarker) {
    const weight = weightOf(marker);
    const nodeIds = mergeRuns(runs, compare);
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

  // ---- findings and warnings: each part's are in order already, so they are merged, not sorted ----
  const order = findingsOrder(weightOf);
  const findings = mergeRuns(
    [...mapped(parts, (placed) => (replaced.size === 0 ? placed.part.findings : mapped(placed.part.findings, (finding) => replaced.get(finding) ?? finding))), added],
    order,
  );
  // the warnings that read the whole graph
  for (const d of criteria.diagnostics) diagnostics.push(intern(d));
  // (no two warnings tie in this order: each names its node and what was found there)
  const merged = mergeRuns([...mapped(parts, (placed) => placed.part.diagnostics), diagnostics.slice().sort(securityOrder)], securityOrder);

  let total = 0;
  for (const penalty of penalties) total += penalty.weight;
  const raw = round4(4 - total);
  const level = toLevel(raw);
  const rationale =
    penalties.length === 0
      ? `4 − 0.00 (no risk marker present across ${size} ${size === 1 ? 'node' : 'nodes'}) → ${level}`
      : `4 ${penalties.map((penalty) => `− ${penalty.weight.toFixed(2)} (${penalty.marker})`).join(' ')} → ${level}`;
  return { security: { level, raw, rationale, penalties, findings, diagnostics: merged }, global: diagnostics.sort(analysisOrder) };
}

/** One finding from its hit: the node described, the clauses joined, the first inference's hint, path and cycle, else the declared hint. */
function findingOf(context: AnalysisContext, hit: Hit): SecurityFinding {
  const first = hit.inferences[0];
  const hint = first?.hint ?? hit.declaredHint;
  return {
    marker: hit.marker,
    nodeId: context.graph.ids[hit.node],
    establishedBy: hit.declared ? 'declared' : 'inferred',
    explanation: `Node ${context.describe(hit.node)} ${hit.clauses.join(', and ')}.`,
    ...(hint !== undefined ? { hint } : {}),
    ...(first?.path !== undefined ? { path: first.path } : {}),
    ...(first?.pathOmitted !== undefined ? { pathOmitted: first.pathOmitted } : {}),
    ...(first?.cycle !== undefined ? { cycle: first.cycle } : {}),
  };
}

/** The [beyond] warning that repeats an inferred marker on its node. */
function inferredDiagnostic(context: AnalysisContext, code: DiagnosticCode, inference: Inference, node: number): Diagnostic {
  return { code, severity: 'warning', message: inference.message, location: context.nodeLocation(node) };
}

/** The weight each marker subtracts (4 decimals), asked once per marker. */
function markerWeights(context: AnalysisContext, config: AnalysisConfig): (marker: string) => number {
  const known = new Map<string, number>();
  return (marker) => {
    let weight = known.get(marker);
    if (weight === undefined) {
      const configured = configuredWeight(config, marker);
      if (configured !== undefined && Number.isFinite(configured) && configured >= 0) weight = round4(configured);
      else {
        const term = context.vocabulary.resolve(marker, 'risk-marker');
        weight = round4(term !== undefined ? markerWeight(term, config) : config.unknownMarkerWeight);
      }
      known.set(marker, weight);
    }
    return weight;
  };
}

/** The findings order: marker weight, heaviest first, then marker id, then node id. */
function findingsOrder(weightOf: (marker: string) => number): (a: SecurityFinding, b: SecurityFinding) => number {
  return (a, b) => weightOf(b.marker) - weightOf(a.marker) || compare(a.marker, b.marker) || compare(a.nodeId, b.nodeId);
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
