/**
 * The analysis facade (E§8 "Facade"): phase coverage first (autonomy reads it for
 * `isDarkFactory`), then security and autonomy over one shared table of per-node facts, and
 * one merged, de-duplicated, sorted list of `analysis/*` warnings. Scoring runs whatever the
 * bundle's errors: a node with no card is still a node.
 *
 * Given a memo (`createAnalysisMemo`; the loader keeps one per bundle in its `LoadMemo`), an
 * analysis reuses the last one's work: the whole result, unchanged, when nothing the metrics
 * read has changed (the same graph shape, vocabulary and configuration, and per node the same
 * span and the same card facts, see `sameCardFacts`), so an edit to a port or a dependency
 * costs one comparison pass; the whole result with its diagnostics moved, when only the nodes'
 * spans changed (text typed in the topology before them); otherwise the vocabulary facts of each
 * card type, what the metrics read of each card alone (`CardFacts`: taken from the last analysis
 * by index while the card is the same object, so a pass does not read the cards at all), the
 * autonomy contribution of each node whose card did not change, the relayed-criteria finding of
 * each node whose gates and place read the same (./criteria.ts), the criteria-leak similarity
 * work (./similarity.ts), and the merged order of the findings that stayed; every finding that
 * reads as before is handed back as the earlier object. The result is the same with or without it.
 */
import type { Diagnostic, DiagnosticLocation } from '../diagnostics';
import { dedupeDiagnostics, sortDiagnostics } from '../diagnostics';
import type { Card, JsonValue, Port } from '../bundle/card-model';
import type { Span } from '../text';
import type { Vocabulary } from '../vocabulary/types';
import { controlMembership, humanMembership } from '../vocabulary/view';
import type { Graph } from './graph';
import { defaultAnalysisConfig, type AnalysisConfig } from './config';
import { computeAutonomy, type AutonomyResult } from './autonomy';
import { computePhaseCoverage, type PhaseCoverage } from './phase-coverage';
import { computeSecurity, type DeclaredMarker, type SecurityResult } from './security';
import { findIterationCap } from '../check/iteration-cap';
import { externalAccessTools } from '../vocabulary/core';
import { anchorTerms, memoise, type RelayedMemo } from './criteria';
import { createSimilarityMemo, type SimilarityMemo } from './similarity';
import { interner, sortedDeduped, type SortMemo } from '../diagnostics/sort';

export interface AnalysisNode {
  readonly id: string;
  /** Present when the node resolved to a valid card. */
  readonly card?: Card;
  /** The node's first appearance in the topology (its id token). */
  readonly span?: Span;
}

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
  /** Both metrics' warnings, exact duplicates removed, in the E§2 order. */
  readonly diagnostics: Diagnostic[];
}

/** What `analyze` may reuse between analyses of one bundle. Opaque: create it with `createAnalysisMemo`. */
export interface AnalysisMemo {
  readonly similarity: SimilarityMemo;
  /** Per card object: what the metrics read of the card alone (`CardFacts`). */
  readonly cardFacts: WeakMap<Card, CardFacts>;
  typeFacts?: { readonly vocabulary: Vocabulary; readonly facts: Map<string, TypeFacts> };
  last?: { readonly context: AnalysisContext; readonly config: AnalysisConfig; readonly analysis: Analysis };
  /** The last merged list, for merging the next one (../diagnostics/sort.ts). */
  readonly order: SortMemo;
  /** The last security warnings in their order, for merging the next ones (./security.ts). */
  readonly securityOrder: SortMemo;
  /** The criteria-relayed findings of the last criteria check, by node id (./criteria.ts). */
  readonly relayed: RelayedMemo;
}

export function createAnalysisMemo(): AnalysisMemo {
  return { similarity: createSimilarityMemo(), cardFacts: new WeakMap(), order: {}, securityOrder: {}, relayed: {} };
}

export function analyze(input: AnalysisInput, config: AnalysisConfig = defaultAnalysisConfig, memo?: AnalysisMemo): Analysis {
  const context = analysisContext(input, memo);
  const last = memo?.last;
  const same = last !== undefined && last.config === config ? sameFacts(last.context, context) : 'different';
  if (same !== 'different') {
    const analysis = same === 'same' ? last!.analysis : relocated(last!.analysis, context);
    memo!.last = { context, config, analysis };
    return analysis;
  }
  const phaseCoverage = computePhaseCoverage(context);
  const security = computeSecurity(context, config);
  const autonomy = computeAutonomy(context, phaseCoverage, config, last !== undefined ? { context: last.context, autonomy: last.analysis.autonomy } : undefined);
  // a finding that reads as before is handed back as the same object (see ../diagnostics/sort.ts)
  if (last !== undefined) {
    const intern = interner(last.analysis.diagnostics);
    internAll(security.diagnostics, intern);
    internAll(autonomy.diagnostics, intern);
  }
  const diagnostics = sortedDeduped([...security.diagnostics, ...autonomy.diagnostics], memo?.order);
  const analysis = { security, autonomy, phaseCoverage, diagnostics };
  if (memo) memo.last = { context, config, analysis };
  return analysis;
}

/**
 * `same` when every metric would read the same thing from both contexts; `moved` when only
 * where nodes sit in the topology differs (an edit that shifts text but not the graph), which
 * changes nothing but the diagnostics' spans; else `different`.
 */
function sameFacts(a: AnalysisContext, b: AnalysisContext): 'same' | 'moved' | 'different' {
  if (a.vocabulary !== b.vocabulary || a.file !== b.file || a.size !== b.size) return 'different';
  if (a.graph !== b.graph) {
    for (let i = 0; i < a.size; i++) {
      if (a.graph.ids[i] !== b.graph.ids[i]) return 'different';
      const x = a.graph.successors[i];
      const y = b.graph.successors[i];
      if (x.length !== y.length) return 'different';
      for (let k = 0; k < x.length; k++) if (x[k] !== y[k]) return 'different';
    }
  }
  let moved = false;
  for (let i = 0; i < a.size; i++) {
    const x = a.spans[i];
    const y = b.spans[i];
    if (x !== y) {
      if (x === undefined || y === undefined) return 'different';
      if (x.start !== y.start || x.end !== y.end) moved = true;
    }
    const left = a.cards[i];
    const right = b.cards[i];
    if (left !== right && (left === undefined || right === undefined || !sameCardFacts(left, right, a.judge[i] === 1))) return 'different';
  }
  return moved ? 'moved' : 'same';
}

/**
 * The last analysis with every node-located diagnostic moved to where its node now sits (every
 * metric locates a finding about a node with `nodeLocation`, and nothing else reads a span),
 * then merged, de-duplicated and sorted again as `analyze` does.
 */
function relocated(analysis: Analysis, context: AnalysisContext): Analysis {
  const move = (d: Diagnostic): Diagnostic => {
    const nodeId = d.location.nodeId;
    const index = nodeId === undefined ? undefined : context.graph.index.get(nodeId);
    return index === undefined ? d : { ...d, location: context.nodeLocation(index) };
  };
  const security = { ...analysis.security, diagnostics: analysis.security.diagnostics.map(move) };
  const autonomy = { ...analysis.autonomy, diagnostics: analysis.autonomy.diagnostics.map(move) };
  const diagnostics = sortDiagnostics(dedupeDiagnostics([...security.diagnostics, ...autonomy.diagnostics]));
  return { ...analysis, security, autonomy, diagnostics };
}

/** Replaces, in place, each diagnostic by `intern`'s answer. */
function internAll(list: Diagnostic[], intern: (d: Diagnostic) => Diagnostic): void {
  for (let i = 0; i < list.length; i++) list[i] = intern(list[i]);
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
    sameStrings(a.phases, b.phases) &&
    sameStrings(a.tools, b.tools) &&
    sameStrings(a.riskMarkers, b.riskMarkers) &&
    samePorts(a.outputs, b.outputs) &&
    (!judge || samePorts(a.inputs, b.inputs)) &&
    sameJson(a.params, b.params)
  );
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
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
  if (!sameStrings(left, right)) return false;
  for (const key of left) if (!sameJson(a[key], b[key])) return false;
  return true;
}

// ---- the per-node facts every metric reads ------------------------------------------------

/**
 * The input indexed by graph position, with each node's vocabulary facts asked once
 * (`isA` chains are walked here and nowhere else).
 */
export interface AnalysisContext {
  readonly graph: Graph;
  readonly vocabulary: Vocabulary;
  readonly file: string;
  /** Node count (graph order); every array below has this length. */
  readonly size: number;
  readonly cards: readonly (Card | undefined)[];
  readonly spans: readonly (Span | undefined)[];
  /** Resolved and typed under `validation`: a judge of the criteria-leak check. */
  readonly judge: Uint8Array;
  /** The term that puts a person at the node (E§7), when one does. */
  readonly humanTerm: readonly (string | undefined)[];
  /** The nearest term on the type's chain with `governsFlow` (E§7), when the node is a control point. */
  readonly controlTerm: readonly (string | undefined)[];
  /** `"Name" (id)` when the card's name differs from the id, else `"id"`. */
  describe(index: number): string;
  /** Where a diagnostic about one node sits: its first appearance in the topology. */
  nodeLocation(index: number): DiagnosticLocation;
  /** The criteria-leak similarity work kept between analyses, when the caller keeps a memo. */
  readonly similarity?: SimilarityMemo;
  /** What the metrics read of each node's card alone (undefined for a node with no card). */
  readonly facts: readonly (CardFacts | undefined)[];
  /** The last criteria check's relayed findings, when the caller keeps a memo. */
  readonly relayed?: RelayedMemo;
  /** The last security warnings in order, when the caller keeps a memo. */
  readonly securityOrder?: SortMemo;
}

export function analysisContext(input: AnalysisInput, memo?: AnalysisMemo): AnalysisContext {
  const { graph, vocabulary } = input;
  const file = input.file ?? 'topology.dot';
  const size = graph.ids.length;
  // the loader hands one node per graph id in graph order: then no lookup table is needed
  let aligned = input.nodes.length === size;
  for (let i = 0; aligned && i < size; i++) aligned = input.nodes[i].id === graph.ids[i];
  const byId = new Map<string, AnalysisNode>();
  if (!aligned) for (const node of input.nodes) if (!byId.has(node.id)) byId.set(node.id, node);

  const cards: (Card | undefined)[] = new Array(size);
  const spans: (Span | undefined)[] = new Array(size);
  const judge = new Uint8Array(size);
  const humanTerm: (string | undefined)[] = new Array(size);
  const controlTerm: (string | undefined)[] = new Array(size);
  // a bundle has few distinct types: answer each once (and, with a memo, once per vocabulary)
  let typeFacts = new Map<string, TypeFacts>();
  if (memo !== undefined) {
    if (memo.typeFacts === undefined || memo.typeFacts.vocabulary !== vocabulary) memo.typeFacts = { vocabulary, facts: typeFacts };
    typeFacts = memo.typeFacts.facts;
  }
  // Each card's facts: the last analysis's at the same index when the card is the same object
  // (no need to look the card up, or even read it), else the memo's for the card, else new.
  const last = memo?.last?.context;
  const lastCards = last !== undefined && last.vocabulary === vocabulary ? last.cards : undefined;
  const lastFacts = last?.facts;
  const facts: (CardFacts | undefined)[] = new Array(size);
  const criteriaType = memoise((type: string) => vocabulary.isA(type, anchorTerms.acceptanceCriteria));
  const externalTool = memoise((tool: string) => externalAccessTools.some((category) => vocabulary.isA(tool, category)));
  for (let i = 0; i < size; i++) {
    const node = aligned ? input.nodes[i] : byId.get(graph.ids[i]);
    const card = node?.card;
    cards[i] = card;
    spans[i] = node?.span;
    if (card === undefined) continue;
    let known = lastCards !== undefined && i < lastCards.length && lastCards[i] === card ? lastFacts![i] : undefined;
    if (known === undefined) {
      known = memo?.cardFacts.get(card);
      if (known === undefined || known.vocabulary !== vocabulary) {
        let type = typeFacts.get(card.type);
        if (type === undefined) {
          type = typeFactsOf(vocabulary, card.type);
          typeFacts.set(card.type, type);
        }
        known = cardFactsOf(card, vocabulary, type, criteriaType, externalTool);
        memo?.cardFacts.set(card, known);
      }
    }
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
    ...(memo !== undefined ? { similarity: memo.similarity, relayed: memo.relayed, securityOrder: memo.securityOrder } : {}),
  };
}

interface TypeFacts {
  readonly human?: string;
  readonly control?: string;
  readonly judge: boolean;
}

/**
 * What the metrics read of one card alone under one vocabulary, made once per card object and
 * kept while the card is the same object (the loader hands back the same card for an unchanged
 * file): a pass over thousands of nodes then reads one small object per node instead of each
 * card's fields.
 */
export interface CardFacts {
  readonly vocabulary: Vocabulary;
  readonly type: TypeFacts;
  /** Some output is typed under `acceptance-criteria` (./criteria.ts). */
  readonly producer: boolean;
  /** `params` declares an iteration cap (./security.ts). */
  readonly capped: boolean;
  /** The card's tools that reach outside the graph, distinct, in order (./security.ts). */
  readonly externalTools: readonly string[];
  /** The `params` keys that speak about criteria, in key order (./criteria.ts). */
  readonly criteriaKeys: readonly string[];
  /** Declared phases, trimmed, blank ones left out, in order (./phase-coverage.ts). */
  readonly phases: readonly string[];
  /** The card's spec (./criteria.ts compares specs). */
  readonly spec: string;
  /** The declared risk markers as the finding on node `nodeId` states them (./security.ts fills it: the hint names the node). */
  declared?: { readonly nodeId: string; readonly markers: readonly DeclaredMarker[] };
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
    if (phase.length > 0) phases.push(phase);
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
