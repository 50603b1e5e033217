/**
 * The bundle model: what the loader reads (files), what resolution produces (a Blueprint).
 * All paths are relative to the bundle folder with `/` separators.
 */
import type { Diagnostic } from '../diagnostics';
import type { DotEdge, DotNode, DotParseResult } from '../syntax/dot-model';
import type { Vocabulary, Term } from '../vocabulary/types';
import type { Graph } from '../analyze/graph';
import type { Card, CardReadResult, Port } from '../card/card-model';

export interface SourceFile {
  readonly path: string;
  readonly text: string;
}

export interface Manifest {
  readonly slug: string;
  readonly title: string;
  readonly summary: string;
  readonly description?: string;
  readonly category?: string;
  readonly tags: readonly string[];
  readonly author?: string;
}

/** A loaded card file and, when it validated, its card and digest. */
export interface CardEntry {
  readonly read: CardReadResult;
  readonly card?: Card;
  readonly ref?: string;
  readonly digest?: string;
}

export interface ResolvedNode {
  readonly id: string;
  /** Absent for ids that only the graph knows (never: every graph id is a DOT node). */
  readonly dot: DotNode;
  /** The `id@version` this node pins, when the pointer parsed. */
  readonly ref?: string;
  /** Present when the pin resolved to a loaded, valid card. */
  readonly entry?: CardEntry & { readonly card: Card; readonly ref: string };
}

export interface ResolvedEdge {
  readonly dot: DotEdge;
  readonly source: string;
  readonly target: string;
  /** The wired (output, input) pair when both endpoints resolved and a compatible pair exists. */
  readonly pair?: { readonly output: Port; readonly input: Port };
  readonly label?: string;
  readonly condition?: string;
  readonly weight?: string;
}

export interface Blueprint {
  readonly manifest: Manifest;
  readonly manifestFile?: SourceFile;
  readonly topology: { readonly file: SourceFile; readonly parse: DotParseResult };
  readonly vocabulary: Vocabulary;
  readonly vocabularyFile?: SourceFile;
  readonly localTerms: readonly Term[];
  /** Every card file read, in file-name code-unit order. */
  readonly cardFiles: readonly CardEntry[];
  /** Loaded cards by `id@version` (first file wins; a digest clash is reported). */
  readonly cards: ReadonlyMap<string, CardEntry>;
  /** Graph ids in order: DOT nodes in first-appearance order. */
  readonly graph: Graph;
  readonly nodes: readonly ResolvedNode[];
  readonly nodeById: ReadonlyMap<string, ResolvedNode>;
  readonly edges: readonly ResolvedEdge[];
  /** `sha256:<hex>` over the raw topology text and the resolved nodes' card digests. */
  readonly digest: string;
}

export interface ResolveResult {
  /** Absent only when no directed graph could be read at all. */
  readonly blueprint?: Blueprint;
  readonly diagnostics: readonly Diagnostic[];
}
