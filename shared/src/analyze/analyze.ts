/**
 * The analysis facade (docs/compatibility.md#analysis-and-scores): phase coverage first (autonomy
 * reads it for `isDarkFactory`), then security and autonomy over one shared table of per-node
 * facts, and one merged, de-duplicated, sorted list of `analysis/*` warnings. Scoring runs whatever
 * the bundle's errors: a node with no card is still a node.
 *
 * Given a memo (`createAnalysisMemo`; the loader keeps one per bundle in its `LoadMemo`), an
 * analysis reuses the last one's work: the whole result, unchanged, when nothing the metrics
 * read has changed (the same graph, vocabulary and configuration, and per node the same span
 * and the same card facts, see `sameCardFacts`), so an edit to a port or a dependency costs one
 * comparison pass. Otherwise the security reading goes component by component
 * (`securityByComponent`): everything it finds by walking edges or reading one node (declared
 * markers, loops, unvalidated access, and the criteria-leak check but for (c1), (c2) and (b))
 * belongs to one weakly connected component, so the last analysis's part for a component that
 * reads the same (member ids in order, edges in order, card facts) is taken as it was, or with
 * its warnings moved when only its spans moved (text typed before it), and only the other
 * components are read again. What reads the whole graph is computed over the whole graph each
 * time, from the parts: which markers are present (each charged once), the findings and
 * warnings in order (each part's are in order already: merged, not sorted), and the three
 * criteria-leak findings that need every node: (c1) whether producers and generators exist
 * anywhere, (c2) the names of every node, card and output, (b) every generator's spec against
 * every producer's (./similarity.ts answers at once when no spec changed). Phase coverage and
 * autonomy are sums and lists over all nodes in graph order, recomputed each time (cheap: one
 * pass over the per-node facts; autonomy lends each unchanged node's contribution). Also kept:
 * the vocabulary facts of each card type and what the metrics read of each card alone
 * (`CardFacts`: taken from the last analysis by index while the card is the same object), and
 * the relayed-criteria finding of each node whose gates and place read the same
 * (./criteria.ts); every warning that reads as before is handed back as the earlier object.
 * The result is the same with or without a memo.
 *
 * How the reuse is split (docs/architecture.md, the memo layer): what has declared inputs goes
 * through ../stage.ts, the type facts (a table per vocabulary, `stage`), the card facts (per
 * card object and vocabulary, `perKey`) and the analysis itself (`stage`, whose computation
 * `analysisOf` builds on the last analysis: the context is new every time, so whether it stands
 * is decided by comparing facts, `sameFacts`). The component-by-component security reading and
 * the moving of a last analysis's warnings are algorithms of alignment (`securityByComponent`,
 * `relocatedAnalysis`): they receive the last analysis's components and warnings as arguments.
 * The metrics (./security.ts, ./autonomy.ts, ./phase-coverage.ts, ./criteria.ts) never see the
 * memo: they get the context, and the last result they lend from where they build on one.
 */
import type { Diagnostic, DiagnosticLocation } from '../diagnostics';
import type { Card, JsonValue, Port } from '../card/card-model';
import type { Span } from '../text';
import type { Vocabulary } from '../vocabulary/types';
import { controlMembership, humanMembership } from '../vocabulary/view';
import type { Graph } from './graph';
import type { AnalysisContext, AnalysisNode, CardFacts, TypeFacts } from './context';

export type { AnalysisContext, AnalysisNode, CardFacts } from './context';
import { defaultAnalysisConfig, type AnalysisConfig } from '../vocabulary/analysis-config';
import { computeAutonomy, type AutonomyResult } from './autonomy';
import { computePhaseCoverage, type PhaseCoverage } from './phase-coverage';
import {
  combineSecurity,
  computeSecurity,
  emptySecurity,
  securityParts,
  type PartLayout,
  type PlacedPart,
  type SecurityPart,
  type SecurityResult,
} from './security';
import { weakComponents, type WeakComponents } from './graph';
import { findIterationCap } from '../check/iteration-cap';
import { externalAccessTools, phaseOrder } from '../vocabulary/core';
import { anchorTerms, memoise, type RelayedFinding } from './criteria';
import { createSimilarityMemo, findSimilarSpecs, type SimilarPair, type SimilarityMemo } from './similarity';
import { perKey, slot, stage, type Keyed, type Kept, type Slot } from '../stage';
import { identical, interner, sortedDeduped } from '../diagnostics/sort';
import { relocated } from '../diagnostics/move';
import { analysisOrder, mergeRuns, placeOrder, securityOrder } from './order';
import { mapped, sameItems } from '../arrays';


export interface AnalysisInput {
  /** Every DOT node id in graph order, and every edge. */
  readonly graph: Graph;
  /** One entry per graph id, in graph order. */
  readonly nodes: readonly AnalysisNode[];
  readonly vocabulary: Vocabulary;
  /** The topology file name, for located diagnostics. Default `topology.dot`. */
  readonly file?: string;
}

export interface Analysis {
  readonly security: SecurityResult;
  readonly autonomy: AutonomyResult;
  readonly phaseCoverage: PhaseCoverage;
  /** Both metrics' warnings, exact duplicates removed, in the order of docs/compatibility.md#order-of-findings. */
  readonly diagnostics: Diagnostic[];
}

/**
 * What `analyze` may reuse between analyses of one bundle, through the memo layer (../stage.ts),
 * one slot per kind of result, every key present from `createAnalysisMemo` on. Opaque.
 */
export interface AnalysisMemo {
  /** The criteria-leak similarity search's own state (./similarity.ts: an algorithm that carries its work over). */
  readonly similarity: SimilarityMemo;
  /** The type facts of one vocabulary, a table filled as types are asked for (declared input: the vocabulary). */
  readonly typeFacts: Slot<TypeTableInputs, Map<string, TypeFacts>>;
  /** Per card object: what the metrics read of the card alone (declared inputs: the card, the vocabulary). */
  readonly cardFacts: Keyed<Card, Vocabulary, CardFacts>;
  /** The last analysis, with the components its security reading kept (see `analysisOf`). */
  readonly analysis: Slot<AnalysisInputs, KeptAnalysis>;
}

type TypeTableInputs = readonly [vocabulary: Vocabulary];
/** The context the metrics read, the configuration, and whether to keep the security reading's components for the next analysis (with a memo). */
type AnalysisInputs = readonly [context: AnalysisContext, config: AnalysisConfig, keep: boolean];

/** An analysis as kept: the result, and the components of its security reading (with a memo). */
interface KeptAnalysis {
  readonly analysis: Analysis;
  readonly components: KeptComponents | undefined;
}

/**
 * An analysis's weakly connected components by the id of their first node, with their security
 * parts, and its security warnings that no part holds (they read the whole graph).
 */
interface KeptComponents {
  readonly byFirst: ReadonlyMap<string, KeptComponent>;
  readonly global: readonly Diagnostic[];
  readonly layout: WeakComponents;
}

export function createAnalysisMemo(): AnalysisMemo {
  return { similarity: createSimilarityMemo(), typeFacts: slot(), cardFacts: new WeakMap(), analysis: slot() };
}

export function analyze(input: AnalysisInput, config: AnalysisConfig = defaultAnalysisConfig, memo?: AnalysisMemo): Analysis {
  const types = stage(memo?.typeFacts, [input.vocabulary], typeTable);
  const kept = memo === undefined ? undefined : { context: memo.analysis.inputs?.[0], cardFacts: memo.cardFacts, similarity: memo.similarity };
  const context = analysisContext(input, kept, types);
  return stage(memo?.analysis, [context, config, memo !== undefined], analysisOf).analysis;
}

/** A new table of type facts for a vocabulary (`typeFactsOf` fills it as types are asked for). */
function typeTable(): Map<string, TypeFacts> {
  return new Map();
}

/**
 * The analysis of a context, built on the last one: the context is made anew for every analysis,
 * so this always runs, and decides what stands by comparing facts (`sameFacts`), not objects: the
 * last analysis itself when every metric would read the same; moved (`relocatedAnalysis`) when only
 * where nodes sit differs; else the metrics run, the security reading component by component
 * (`securityByComponent`) with the last analysis's components, and phase coverage and autonomy
 * lending from the last analysis. The metrics receive what they build on as arguments.
 */
function analysisOf([context, config, keep]: AnalysisInputs, kept: Kept<AnalysisInputs, KeptAnalysis> | undefined): KeptAnalysis {
  const lastContext = kept?.inputs[0];
  const last = kept?.output;
  const same = kept !== undefined && kept.inputs[1] === config ? sameFacts(lastContext!, context) : 'different';
  if (same === 'same') return last!;
  const relocated = same === 'moved' && last!.components !== undefined ? relocatedAnalysis(last!.analysis, context, last!.components) : undefined;
  if (relocated !== undefined) return relocated;
  const phaseCoverage = computePhaseCoverage(context, last !== undefined ? { context: lastContext!, coverage: last.analysis.phaseCoverage } : undefined);
  const reusable = last !== undefined && kept!.inputs[1] === config && lastContext!.vocabulary === context.vocabulary && lastContext!.file === context.file;
  const byComponent = keep ? securityByComponent(context, config, reusable ? last.components : undefined, last?.analysis.security.diagnostics) : undefined;
  const security = byComponent?.security ?? computeSecurity(context, config);
  const autonomy = computeAutonomy(context, phaseCoverage, config, last !== undefined ? { context: lastContext!, autonomy: last.analysis.autonomy } : undefined);
  // a finding that reads as before is handed back as the same object (see ../diagnostics/sort.ts)
  if (last !== undefined) internAll(autonomy.diagnostics, interner(last.analysis.autonomy.diagnostics));
  // each component's warnings are in the merged order already: merging them costs a few comparisons per new one
  const diagnostics =
    byComponent !== undefined
      ? mergedWarnings(byComponent.runs, autonomy.diagnostics)
      : sortedDeduped([...security.diagnostics, ...autonomy.diagnostics]);
  return { analysis: { security, autonomy, phaseCoverage, diagnostics }, components: byComponent?.components };
}

/**
 * `same` when every metric would read the same thing from both contexts: the same graph (ids,
 * and neighbour lists in order), and per node the same place and card facts; `moved` when only
 * where nodes sit differs (text typed before them), which changes nothing but the warnings'
 * places; else `different`.
 */
function sameFacts(a: AnalysisContext, b: AnalysisContext): 'same' | 'moved' | 'different' {
  if (a.vocabulary !== b.vocabulary || a.file !== b.file || a.size !== b.size) return 'different';
  if (a.graph !== b.graph) {
    for (let i = 0; i < a.size; i++) {
      if (a.graph.ids[i] !== b.graph.ids[i]) return 'different';
      if (!sameNumbers(a.graph.successors[i], b.graph.successors[i]) || !sameNumbers(a.graph.predecessors[i], b.graph.predecessors[i])) return 'different';
    }
  }
  let moved = false;
  for (let i = 0; i < a.size; i++) {
    const x = a.spans[i];
    const y = b.spans[i];
    if (!sameSpan(x, y)) {
      if (x === undefined || y === undefined) return 'different';
      moved = true;
    }
    const left = a.cards[i];
    const right = b.cards[i];
    if (left !== right && (left === undefined || right === undefined || !sameCardFacts(left, right, a.judge[i] === 1))) return 'different';
  }
  return moved ? 'moved' : 'same';
}

/**
 * An algorithm, not a declared-input reuse: the last analysis, whose graph and card facts read as
 * `context`'s (nothing else changes, and every metric places a warning on a node with
 * `nodeLocation`), with every warning that sits on a node moved to where its node now sits, and
 * each of its components (`kept`) moved along (`moved`), so that what is kept is what this
 * analysis would have kept. Undefined when a component is not found.
 */
function relocatedAnalysis(analysis: Analysis, context: AnalysisContext, kept: KeptComponents): KeptAnalysis | undefined {
  const move = mover(context);
  // the same graph: the same components
  const { layout } = kept;
  const ids = context.graph.ids;
  const byFirst = new Map<string, KeptComponent>();
  const runs: (readonly Diagnostic[])[] = [];
  for (let c = 0; c < layout.count; c++) {
    const prior = kept.byFirst.get(ids[layout.members[layout.start[c]]]);
    if (prior === undefined) return undefined;
    const component = moved(prior, context, layout, c, move);
    byFirst.set(component.ids[0], component);
    runs.push(component.part.ordered);
  }
  const global = mapped(kept.global, move).sort(analysisOrder);
  runs.push(global);
  const security = { ...analysis.security, diagnostics: mapped(analysis.security.diagnostics, move) };
  const autonomy = { ...analysis.autonomy, diagnostics: mapped(analysis.autonomy.diagnostics, move) };
  // (written out, not spread: one object shape with the fresh analysis's, for the code reading
  // both; `analysisFields` makes the compiler ask for this line when `Analysis` gains a field)
  const relocated = { security, autonomy, phaseCoverage: analysis.phaseCoverage, diagnostics: mergedWarnings(runs, autonomy.diagnostics) };
  return { analysis: relocated, components: { byFirst, global, layout } };
}

/** Every field of `Analysis`, optional ones too: the relocated analysis above writes each one out. */
const analysisFields: { readonly [K in keyof Required<Analysis>]: true } = { security: true, autonomy: true, phaseCoverage: true, diagnostics: true };
void analysisFields;

function sameNumbers(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
}

function sameSpan(a: Span | undefined, b: Span | undefined): boolean {
  return a === b || (a !== undefined && b !== undefined && a.start === b.start && a.end === b.end);
}

/**
 * `sortedDeduped([...security, ...autonomy])` from the security warnings in runs, each in
 * `analysisOrder`, and the autonomy warnings (at most one): the order of findings
 * (docs/compatibility.md#order-of-findings), ties in list order,
 * which for the security warnings is their own order and puts the autonomy ones after them.
 * Equal warnings tie in every key, so they end up side by side, where the later is dropped.
 */
function mergedWarnings(runs: readonly (readonly Diagnostic[])[], autonomy: readonly Diagnostic[]): Diagnostic[] {
  const late = new Set(autonomy);
  const rank = (d: Diagnostic): number => (late.has(d) ? 1 : 0);
  const merged = mergeRuns([...runs, autonomy], (a, b) => placeOrder(a, b) || rank(a) - rank(b) || securityOrder(a, b));
  let kept = 0;
  for (let i = 0; i < merged.length; i++) {
    const d = merged[i];
    const previous = kept === 0 ? undefined : merged[kept - 1];
    // (equal warnings share code and node first: most neighbours differ there, before any message is read)
    if (previous !== undefined && previous.code === d.code && previous.location.nodeId === d.location.nodeId && identical(previous, d)) continue;
    merged[kept++] = d;
  }
  merged.length = kept;
  return merged;
}

/** Replaces, in place, each diagnostic by `intern`'s answer. */
function internAll(list: Diagnostic[], intern: (d: Diagnostic) => Diagnostic): void {
  for (let i = 0; i < list.length; i++) list[i] = intern(list[i]);
}

// ---- the security reading, component by component ----------------------------------------

/**
 * One weakly connected component as the last analysis read it (what its security part was made
 * from: member ids in graph order, their cards, judge flags and spans, and the edges between
 * them by place among the members), with that part.
 */
export interface KeptComponent {
  readonly ids: readonly string[];
  readonly cards: readonly (Card | undefined)[];
  readonly spans: readonly (Span | undefined)[];
  /**
   * For `n` members: `shape[l]` is 1 when member `l` is a judge; the successors of member `l`
   * (by place among the members) are `shape[shape[n + l] .. shape[n + l + 1])`, its predecessors
   * `shape[shape[2n + 1 + l] .. shape[2n + 2 + l])`. One array, so a small component costs little.
   */
  readonly shape: Int32Array;
  readonly part: SecurityPart;
  /** Where the component sat in the graph it was last compared with (see `Links`). */
  readonly links: Links;
}

/**
 * A component's members' graph indexes, and the graph's successor and predecessor lists of each
 * (the list objects: `n` successor lists, then `n` predecessor lists). While the members sit at
 * the same indexes, a member whose lists are the same objects has the same edges, and their
 * places among the members read the same: `compareComponent` then reads no list. The graph
 * keeps the lists of the nodes an edit does not touch (../bundle/topology-shape.ts).
 */
interface Links {
  readonly places: Int32Array;
  readonly lists: readonly (readonly number[])[];
}

function linksOf(graph: Graph, components: WeakComponents, c: number): Links {
  const from = components.start[c];
  const length = components.start[c + 1] - from;
  const places = components.members.slice(from, from + length);
  const lists: (readonly number[])[] = new Array(2 * length);
  for (let l = 0; l < length; l++) {
    lists[l] = graph.successors[places[l]];
    lists[length + l] = graph.predecessors[places[l]];
  }
  return { places, lists };
}

/**
 * `computeSecurity`, reusing the last analysis's part for every weakly connected component
 * that reads the same (same member ids in the same order, the same edges between them, the same
 * card facts; the same vocabulary, file and configuration), moving its warnings when only its
 * nodes' spans changed, and reading only the other components again. Everything a part holds
 * depends on its component alone (see `securityParts`), and the parts are combined as one
 * analysis combines its single part, so the result is the same as `computeSecurity`'s.
 *
 * An algorithm of alignment (components are matched by their first node's id and compared
 * member by member), not a declared-input reuse: it receives the last analysis's components
 * (`last`, when they were read under the same vocabulary, file and configuration) and its
 * security warnings (`lastWarnings`, to hand back a warning that reads as before), and gives the
 * components to keep for the next analysis.
 */
function securityByComponent(
  context: AnalysisContext,
  config: AnalysisConfig,
  last: KeptComponents | undefined,
  lastWarnings: readonly Diagnostic[] | undefined,
): { readonly security: SecurityResult; readonly runs: readonly (readonly Diagnostic[])[]; readonly components: KeptComponents } {
  const { graph, size } = context;
  const ids = graph.ids;
  if (size === 0) {
    const security = emptySecurity();
    return { security, runs: [security.diagnostics], components: { byFirst: new Map(), global: security.diagnostics, layout: weakComponents(graph) } };
  }
  const earlier = last?.byFirst;
  const components = weakComponents(graph);
  const { count, start, members } = components;
  const layout: PartLayout = { count, part: (i) => components.of[i], local: (i) => components.local[i] };

  const kept: (KeptComponent | undefined)[] = new Array(count);
  const used = new Set<KeptComponent>();
  /** The components read again, and the earlier component each one starts like (if any). */
  const fresh: number[] = [];
  const before: (KeptComponent | undefined)[] = [];
  for (let c = 0; c < count; c++) {
    const prior = earlier?.get(ids[members[start[c]]]);
    const verdict = prior === undefined ? 'different' : compareComponent(prior, context, components, c);
    if (verdict === 'different') {
      fresh.push(c);
      before.push(prior);
      continue;
    }
    used.add(prior!);
    if (verdict === 'same') {
      kept[c] = prior;
      continue;
    }
    const again = verdict === 'relinked' ? prior! : verdict === 'renewed' ? renewed(prior!, context, components, c) : moved(prior!, context, components, c, mover(context));
    kept[c] = { ...again, links: linksOf(graph, components, c) };
  }

  // A new warning that reads as an earlier one is handed back as that object (see
  // ../diagnostics/sort.ts). Only the earlier global warnings and those of the components not
  // kept can read as a new one: a kept component's warnings name its own nodes.
  let intern: ((d: Diagnostic) => Diagnostic) | undefined;
  const internOne = (d: Diagnostic): Diagnostic => {
    if (intern === undefined) {
      const candidates: Diagnostic[] = [];
      if (earlier !== undefined) {
        candidates.push(...last!.global);
        for (const component of earlier.values()) if (!used.has(component)) candidates.push(...component.part.diagnostics);
      } else if (lastWarnings !== undefined) {
        candidates.push(...lastWarnings);
      }
      intern = interner(candidates);
    }
    return intern(d);
  };

  if (fresh.length > 0) {
    const scope = new Uint8Array(size);
    const slot = new Int32Array(count).fill(-1);
    fresh.forEach((c, index) => {
      slot[c] = index;
      for (let m = start[c]; m < start[c + 1]; m++) scope[members[m]] = 1;
    });
    // the earlier (a2) findings of the components not kept, by node id
    let relayed: Map<string, RelayedFinding> | undefined;
    const keptRelayed = (id: string): RelayedFinding | undefined => {
      if (relayed === undefined) {
        relayed = new Map();
        for (const component of earlier?.values() ?? []) {
          if (used.has(component)) continue;
          for (const [l, finding] of component.part.relayed) relayed.set(component.ids[l], finding);
        }
      }
      return relayed.get(id);
    };
    const parts = securityParts(
      context,
      config,
      { count: fresh.length, part: (i) => slot[components.of[i]], local: layout.local },
      { scope, kept: keptRelayed, earlier: (index) => before[index]?.part, intern: internOne },
    );
    fresh.forEach((c, index) => (kept[c] = keptComponent(context, components, c, parts[index])));
  }

  const byFirst = new Map<string, KeptComponent>();
  const placed: PlacedPart[] = new Array(count);
  for (let c = 0; c < count; c++) {
    const component = kept[c]!;
    byFirst.set(component.ids[0], component);
    placed[c] = { part: component.part, members, from: start[c] };
  }
  const { security, global } = combineSecurity(context, config, placed, layout, internOne);
  return { security, runs: [...mapped(placed, ({ part }) => part.ordered), global], components: { byFirst, global, layout: components } };
}

/**
 * `same` when component `c` reads as `prior` did; `relinked` when it does but its links (see
 * `Links`) are not the graph's; `renewed` when some card is another object (with the same
 * facts); `moved` when only its nodes' spans differ (text typed before them), which changes
 * nothing but where its warnings sit; else `different`.
 */
function compareComponent(prior: KeptComponent, context: AnalysisContext, components: WeakComponents, c: number): 'same' | 'relinked' | 'renewed' | 'moved' | 'different' {
  const { graph, cards, spans } = context;
  const from = components.start[c];
  const length = components.start[c + 1] - from;
  if (prior.ids.length !== length) return 'different';
  const local = components.local;
  const shape = prior.shape;
  const { places, lists } = prior.links;
  // the members at the same graph indexes: a member's lists, if the same objects, need no reading
  let placed = places.length === length;
  for (let l = 0; placed && l < length; l++) placed = places[l] === components.members[from + l];
  let linked = placed;
  let moved = false;
  let renewed = false;
  for (let l = 0; l < length; l++) {
    const i = components.members[from + l];
    if (graph.ids[i] !== prior.ids[l]) return 'different';
    const left = prior.cards[l];
    const right = cards[i];
    if (left !== right) {
      if (left === undefined || right === undefined || !sameCardFacts(left, right, shape[l] === 1)) return 'different';
      renewed = true;
    }
    if (!placed || graph.successors[i] !== lists[l] || graph.predecessors[i] !== lists[length + l]) {
      linked = false;
      if (!sameEdges(graph.successors[i], local, shape, shape[length + l], shape[length + l + 1])) return 'different';
      if (!sameEdges(graph.predecessors[i], local, shape, shape[2 * length + 1 + l], shape[2 * length + 2 + l])) return 'different';
    }
    if (!sameSpan(prior.spans[l], spans[i])) {
      if (prior.spans[l] === undefined || spans[i] === undefined) return 'different';
      moved = true;
    }
  }
  return moved ? 'moved' : renewed ? 'renewed' : linked ? 'same' : 'relinked';
}

/** `prior` with component `c`'s cards as they are now. */
function renewed(prior: KeptComponent, context: AnalysisContext, components: WeakComponents, c: number): KeptComponent {
  return { ...prior, cards: memberValues(context.cards, components, c) };
}

/** `values[i]` for each member `i` of component `c`, in order. */
function memberValues<T>(values: readonly T[], components: WeakComponents, c: number): T[] {
  const from = components.start[c];
  const out: T[] = new Array(components.start[c + 1] - from);
  for (let l = 0; l < out.length; l++) out[l] = values[components.members[from + l]];
  return out;
}

function sameEdges(now: readonly number[], local: Int32Array, kept: Int32Array, from: number, to: number): boolean {
  if (now.length !== to - from) return false;
  for (let k = 0; k < now.length; k++) if (local[now[k]] !== kept[from + k]) return false;
  return true;
}

/**
 * `prior`'s part with every warning moved by `move` to where its node now sits (a part's
 * warnings all sit on its nodes). The (a2) findings kept for a later check stay as they were:
 * that check hands back an earlier message wherever only its place differs.
 */
function moved(prior: KeptComponent, context: AnalysisContext, components: WeakComponents, c: number, move: (d: Diagnostic) => Diagnostic): KeptComponent {
  const spans = memberValues(context.spans, components, c);
  const cards = memberValues(context.cards, components, c);
  let still = true;
  for (let l = 0; still && l < spans.length; l++) still = sameSpan(prior.spans[l], spans[l]);
  if (still) return cards.every((card, l) => card === prior.cards[l]) ? prior : { ...prior, cards };
  const diagnostics = mapped(prior.part.diagnostics, move);
  const ordered = mapped(prior.part.ordered, move);
  // the merged order reads positions: unchanged while the members' spans keep their order
  if (!keepsOrder(prior.spans, spans)) ordered.sort(analysisOrder);
  return { ...prior, cards, spans, part: { ...prior.part, diagnostics, ordered } };
}

/** Moves a warning on a node to where the node sits in `context` (the same object when it has not moved), each warning once. */
function mover(context: AnalysisContext): (d: Diagnostic) => Diagnostic {
  const index = context.graph.index;
  const moves = new Map<Diagnostic, Diagnostic>();
  return (d) => {
    let next = moves.get(d);
    if (next === undefined) {
      const at = d.location.nodeId === undefined ? undefined : index.get(d.location.nodeId);
      next = at === undefined || sameSpan(d.location.span, context.spans[at]) ? d : relocated(d, context.nodeLocation(at));
      moves.set(d, next);
    }
    return next;
  };
}

/** True when the members' spans start in ascending order, strictly, both before and now (every span present). */
function keepsOrder(before: readonly (Span | undefined)[], now: readonly (Span | undefined)[]): boolean {
  for (let l = 1; l < now.length; l++) {
    const a = before[l - 1];
    const b = before[l];
    const x = now[l - 1];
    const y = now[l];
    if (a === undefined || b === undefined || x === undefined || y === undefined || a.start >= b.start || x.start >= y.start) return false;
  }
  return true;
}

/** Component `c` as this analysis reads it, with its new part. */
function keptComponent(context: AnalysisContext, components: WeakComponents, c: number, part: SecurityPart): KeptComponent {
  const { graph } = context;
  const { members, local } = components;
  const from = components.start[c];
  const length = components.start[c + 1] - from;
  let edges = 0;
  for (let l = 0; l < length; l++) edges += graph.successors[members[from + l]].length + graph.predecessors[members[from + l]].length;
  const shape = new Int32Array(3 * length + 2 + edges);
  let at = 3 * length + 2;
  for (let l = 0; l < length; l++) {
    const i = members[from + l];
    shape[l] = context.judge[i];
    shape[length + l] = at;
    for (const t of graph.successors[i]) shape[at++] = local[t];
  }
  shape[2 * length] = at;
  for (let l = 0; l < length; l++) {
    shape[2 * length + 1 + l] = at;
    for (const p of graph.predecessors[members[from + l]]) shape[at++] = local[p];
  }
  shape[3 * length + 1] = at;
  return {
    ids: memberValues(graph.ids, components, c),
    cards: memberValues(context.cards, components, c),
    spans: memberValues(context.spans, components, c),
    shape,
    part,
    links: linksOf(graph, components, c),
  };
}

/**
 * True when the two cards agree on every field the metrics read: identity, name, type, spec,
 * phases, tools, risk markers, params, outputs, and (criteria.ts (d) reads them of a judge
 * only) inputs. Descriptions, dependencies, `cannot` and the rest never reach the analysis.
 */
export function sameCardFacts(a: Card, b: Card, judge: boolean): boolean {
  return (
    a.id === b.id &&
    a.version === b.version &&
    a.name === b.name &&
    a.type === b.type &&
    a.spec === b.spec &&
    sameItems(a.phases, b.phases) &&
    sameItems(a.tools, b.tools) &&
    sameItems(a.riskMarkers, b.riskMarkers) &&
    samePorts(a.outputs, b.outputs) &&
    (!judge || samePorts(a.inputs, b.inputs)) &&
    sameJson(a.params, b.params)
  );
}

function samePorts(a: readonly Port[], b: readonly Port[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i].name !== b[i].name || a[i].type !== b[i].type) return false;
  return true;
}

function sameJson(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  const left = Object.keys(a);
  const right = Object.keys(b);
  if (!sameItems(left, right)) return false;
  for (const key of left) if (!sameJson(a[key], b[key])) return false;
  return true;
}

// ---- the per-node facts every metric reads ------------------------------------------------


/**
 * What `analysisContext` may take from the analyses before: the last context (a node object at
 * the same index under the same id is not read again), the card facts kept per card, and the
 * similarity search's state, which the context hands the criteria-leak check as a function.
 */
export interface ContextKept {
  readonly context: AnalysisContext | undefined;
  readonly cardFacts: Keyed<Card, Vocabulary, CardFacts>;
  readonly similarity: SimilarityMemo;
}

/**
 * The per-node facts every metric reads. `types` is the table of type facts for `input`'s
 * vocabulary (a fresh one without a memo); a card's facts go through the memo layer's keyed
 * form (declared inputs: the card object and the vocabulary).
 */
export function analysisContext(input: AnalysisInput, kept?: ContextKept, types: Map<string, TypeFacts> = new Map()): AnalysisContext {
  const { graph, vocabulary } = input;
  const file = input.file ?? 'topology.dot';
  const size = graph.ids.length;
  // the loader hands one node per graph id in graph order: then no lookup table is needed
  // (a node object the last context also had at the same index, under the same id, is not read)
  const lastContext = kept?.context;
  const lastInputs = lastContext?.inputs;
  const lastIds = lastContext?.graph.ids;
  const inputs = input.nodes;
  let aligned = inputs.length === size;
  for (let i = 0; aligned && i < size; i++) {
    aligned = (lastInputs !== undefined && i < lastInputs.length && inputs[i] === lastInputs[i] && graph.ids[i] === lastIds![i]) || inputs[i].id === graph.ids[i];
  }
  const byId = new Map<string, AnalysisNode>();
  if (!aligned) for (const node of input.nodes) if (!byId.has(node.id)) byId.set(node.id, node);

  const cards: (Card | undefined)[] = new Array(size);
  const spans: (Span | undefined)[] = new Array(size);
  const judge = new Uint8Array(size);
  const humanTerm: (string | undefined)[] = new Array(size);
  const controlTerm: (string | undefined)[] = new Array(size);
  // Each card's facts: the last analysis's at the same index when the card is the same object
  // (no need to look the card up, or even read it), else those kept for the card, else new.
  const last = lastContext;
  const lastCards = last !== undefined && last.vocabulary === vocabulary ? last.cards : undefined;
  const lastFacts = last?.facts;
  const facts: (CardFacts | undefined)[] = new Array(size);
  // (a bundle has few distinct types: each is answered once per vocabulary, in `types`)
  const asked: CardAsked = {
    types,
    criteriaType: memoise((type: string) => vocabulary.isA(type, anchorTerms.acceptanceCriteria)),
    externalTool: memoise((tool: string) => externalAccessTools.some((category) => vocabulary.isA(tool, category))),
  };
  const cardFacts = kept?.cardFacts;
  // the same node object at the same index, under the same vocabulary: everything as last time
  const sameInputs = aligned && lastCards !== undefined ? lastInputs : undefined;
  for (let i = 0; i < size; i++) {
    const node = aligned ? input.nodes[i] : byId.get(graph.ids[i]);
    if (sameInputs !== undefined && i < sameInputs.length && node === sameInputs[i]) {
      cards[i] = last!.cards[i];
      spans[i] = last!.spans[i];
      facts[i] = lastFacts![i];
      judge[i] = last!.judge[i];
      humanTerm[i] = last!.humanTerm[i];
      controlTerm[i] = last!.controlTerm[i];
      continue;
    }
    const card = node?.card;
    cards[i] = card;
    spans[i] = node?.span;
    if (card === undefined) continue;
    let known = lastCards !== undefined && i < lastCards.length && lastCards[i] === card ? lastFacts![i] : undefined;
    if (known === undefined) known = perKey(cardFacts, card, vocabulary, cardFactsRule, asked);
    facts[i] = known;
    const type = known.type;
    judge[i] = type.judge ? 1 : 0;
    humanTerm[i] = type.human;
    controlTerm[i] = type.control;
  }

  return {
    graph,
    vocabulary,
    file,
    size,
    cards,
    spans,
    judge,
    humanTerm,
    controlTerm,
    inputs: aligned ? inputs : undefined,
    describe(index: number): string {
      const id = graph.ids[index];
      const name = cards[index]?.name ?? '';
      return name.length > 0 && name !== id ? `"${name}" (${id})` : `"${id}"`;
    },
    nodeLocation(index: number): DiagnosticLocation {
      const span = spans[index];
      return span ? { file, span, nodeId: graph.ids[index] } : { file, nodeId: graph.ids[index] };
    },
    facts,
    similarSpecs: similarSearch(kept?.similarity),
  };
}

/** The criteria-leak check's similarity search, carrying its work over in `memo` when there is one. */
function similarSearch(memo: SimilarityMemo | undefined): AnalysisContext['similarSpecs'] {
  if (memo === undefined) return findSimilarSpecs;
  return (subjects: readonly string[], references: readonly string[], threshold: number): SimilarPair[] => findSimilarSpecs(subjects, references, threshold, memo);
}

/** What every card's facts rule reads alike: answers that are the same whoever asks (type facts, and two questions to the vocabulary). */
interface CardAsked {
  readonly types: Map<string, TypeFacts>;
  readonly criteriaType: (type: string) => boolean;
  readonly externalTool: (tool: string) => boolean;
}

/** A card's facts under a vocabulary (the keyed rule: the card and the vocabulary are its declared inputs). */
function cardFactsRule([card, vocabulary]: readonly [Card, Vocabulary], asked: CardAsked): CardFacts {
  let type = asked.types.get(card.type);
  if (type === undefined) {
    type = typeFactsOf(vocabulary, card.type);
    asked.types.set(card.type, type);
  }
  return cardFactsOf(card, vocabulary, type, asked.criteriaType, asked.externalTool);
}



/** `params` keys that speak about the criteria (`criteria`, `criterion`, `criteri`, …). */
export const criteriaKey = /criteri/i;

function cardFactsOf(
  card: Card,
  vocabulary: Vocabulary,
  type: TypeFacts,
  criteriaType: (type: string) => boolean,
  externalTool: (tool: string) => boolean,
): CardFacts {
  const phases: string[] = [];
  for (const declared of card.phases) {
    const phase = declared.trim();
    // a lifecycle phase as the one string `phaseOrder` holds: phase coverage then finds its
    // group without reading each card's own copy of the word
    const lifecycle = phaseOrder.indexOf(phase);
    if (lifecycle >= 0) phases.push(phaseOrder[lifecycle]);
    else if (phase.length > 0) phases.push(phase);
  }
  return {
    vocabulary,
    type,
    producer: card.outputs.some((port) => criteriaType(port.type)),
    capped: findIterationCap(card.params) !== undefined,
    externalTools: [...new Set(card.tools)].filter(externalTool),
    criteriaKeys: Object.keys(card.params).filter((key) => criteriaKey.test(key)),
    phases,
    spec: card.spec,
  };
}

function typeFactsOf(vocabulary: Vocabulary, type: string): TypeFacts {
  const human = humanMembership(vocabulary, type)?.term;
  const control = controlMembership(vocabulary, type)?.term;
  return {
    ...(human !== undefined ? { human } : {}),
    ...(control !== undefined ? { control } : {}),
    judge: vocabulary.isA(type, anchorTerms.validation),
  };
}
