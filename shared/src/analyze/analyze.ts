/**
 * The analysis facade (E§8 "Facade"): phase coverage first (autonomy reads it for
 * `isDarkFactory`), then security and autonomy over one shared table of per-node facts, and
 * one merged, de-duplicated, sorted list of `analysis/*` warnings. Scoring runs whatever the
 * bundle's errors: a node with no card is still a node.
 */
import type { Diagnostic, DiagnosticLocation } from '../diagnostics';
import { dedupeDiagnostics, sortDiagnostics } from '../diagnostics';
import type { Card } from '../bundle/card-model';
import type { Span } from '../text';
import type { Vocabulary } from '../vocabulary/types';
import { controlMembership, humanMembership } from '../vocabulary/view';
import type { Graph } from './graph';
import { defaultAnalysisConfig, type AnalysisConfig } from './config';
import { computeAutonomy, type AutonomyResult } from './autonomy';
import { computePhaseCoverage, type PhaseCoverage } from './phase-coverage';
import { computeSecurity, type SecurityResult } from './security';
import { anchorTerms } from './criteria';

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

export function analyze(input: AnalysisInput, config: AnalysisConfig = defaultAnalysisConfig): Analysis {
  const context = analysisContext(input);
  const phaseCoverage = computePhaseCoverage(context);
  const security = computeSecurity(context, config);
  const autonomy = computeAutonomy(context, phaseCoverage, config);
  const diagnostics = sortDiagnostics(dedupeDiagnostics([...security.diagnostics, ...autonomy.diagnostics]));
  return { security, autonomy, phaseCoverage, diagnostics };
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
}

export function analysisContext(input: AnalysisInput): AnalysisContext {
  const { graph, vocabulary } = input;
  const file = input.file ?? 'topology.dot';
  const size = graph.ids.length;
  const byId = new Map<string, AnalysisNode>();
  for (const node of input.nodes) if (!byId.has(node.id)) byId.set(node.id, node);

  const cards: (Card | undefined)[] = new Array(size);
  const spans: (Span | undefined)[] = new Array(size);
  const judge = new Uint8Array(size);
  const humanTerm: (string | undefined)[] = new Array(size);
  const controlTerm: (string | undefined)[] = new Array(size);
  // a bundle has few distinct types: answer each once
  const typeFacts = new Map<string, { human?: string; control?: string; judge: boolean }>();
  for (let i = 0; i < size; i++) {
    const node = byId.get(graph.ids[i]);
    cards[i] = node?.card;
    spans[i] = node?.span;
    const type = node?.card?.type;
    if (type === undefined) continue;
    let facts = typeFacts.get(type);
    if (facts === undefined) {
      facts = typeFactsOf(vocabulary, type);
      typeFacts.set(type, facts);
    }
    judge[i] = facts.judge ? 1 : 0;
    humanTerm[i] = facts.human;
    controlTerm[i] = facts.control;
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
  };
}

function typeFactsOf(vocabulary: Vocabulary, type: string): { human?: string; control?: string; judge: boolean } {
  const human = humanMembership(vocabulary, type)?.term;
  const control = controlMembership(vocabulary, type)?.term;
  return {
    ...(human !== undefined ? { human } : {}),
    ...(control !== undefined ? { control } : {}),
    judge: vocabulary.isA(type, anchorTerms.validation),
  };
}
