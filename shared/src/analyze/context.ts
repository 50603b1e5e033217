/**
 * What every part of the analysis reads (the context the analysis builds once per run, and the
 * facts it keeps per card): declared apart from `analyze.ts`, which builds it and calls the
 * parts, so that the parts import their input from here and not from the module that imports them.
 */
import type { DiagnosticLocation } from '../diagnostics';
import type { Card } from '../card/card-model';
import type { Span } from '../text';
import type { Vocabulary } from '../vocabulary/types';
import type { Graph } from './graph';
import type { SimilarPair } from './similarity';

export interface AnalysisNode {
  readonly id: string;
  /** Present when the node resolved to a valid card. */
  readonly card?: Card;
  /** The node's first appearance in the topology (its id token). */
  readonly span?: Span;
}

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
  /** The term that puts a person at the node (docs/compatibility.md#people-and-control-points), when one does. */
  readonly humanTerm: readonly (string | undefined)[];
  /** The nearest term on the type's chain with `governsFlow` (docs/compatibility.md#people-and-control-points), when the node is a control point. */
  readonly controlTerm: readonly (string | undefined)[];
  /** `"Name" (id)` when the card's name differs from the id, else `"id"`. */
  describe(index: number): string;
  /** Where a diagnostic about one node sits: its first appearance in the topology. */
  nodeLocation(index: number): DiagnosticLocation;
  /** The criteria-leak check's similarity search (./similarity.ts `findSimilarSpecs`), carrying its work from one analysis to the next when the caller keeps a memo. */
  similarSpecs(subjects: readonly string[], references: readonly string[], threshold: number): SimilarPair[];
  /** What the metrics read of each node's card alone (undefined for a node with no card). */
  readonly facts: readonly (CardFacts | undefined)[];
  /** The input's nodes when they came one per graph id in graph order (what the next context compares by object). */
  readonly inputs?: readonly AnalysisNode[];
}

export interface TypeFacts {
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

/** A risk marker a card declares, as the finding on its node states it. */
export interface DeclaredMarker {
  readonly marker: string;
  readonly clause: string;
  readonly hint: string;
}

/** A cycle in which no card declares an iteration cap: each member carries unbounded-loop. */
export interface SecurityCycle {
  /** Its members in graph order (one, for a node with an edge to itself). */
  readonly members: readonly string[];
  /** What it is, for all its members at once, naming none of them. */
  readonly explanation: string;
  /** How to remove it: the hint of every member's finding. */
  readonly hint: string;
}
