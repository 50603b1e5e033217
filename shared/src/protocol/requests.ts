/**
 * The custom requests the extension sends the language server, as they travel: their names,
 * parameters and answers (JSON). One declaration: the server (server/src/requests.ts) answers with
 * these types and the client (client/src/protocol.ts) reads its answers as them, checking each
 * answer's shape before it trusts it.
 *
 * - `darkprint/compiled` `{ uri }` (any file of a bundle) → the compiled Attractor pipeline, or
 *   why the bundle does not compile.
 * - `darkprint/report` `{ uri }` → the analysis: security with its rationale, penalties, findings
 *   and the cycles they stand on, where each named node is in the topology, autonomy, phase
 *   coverage. Every node, cycle and location is written once: the answer grows with the bundle,
 *   never faster.
 * - `darkprint/graph` `{ uri }` → the picture model of the bundle (docs/graph.md), with the open
 *   documents it was computed from and their versions.
 * - `darkprint/import` `{ uri, text, author }` → the files of the draft bundle the engine's
 *   importer makes of a pipeline, or why it does not read; both with the importer's findings on
 *   the pipeline. The server reads and writes no file: the client writes them.
 *
 * Any of them answers `{ reasons }` (sentences) for a file no bundle holds.
 */
import type { Picture } from '../picture/model';

export const compiledRequest = 'darkprint/compiled';
export const reportRequest = 'darkprint/report';
export const graphRequest = 'darkprint/graph';
export const importRequest = 'darkprint/import';

/** The parameters of the bundle requests: any file of the bundle, or its folder, as a URI string. */
export interface BundleParams {
  readonly uri: string;
}

/** Why a request has no answer: sentences a person reads. */
export interface Refusal {
  readonly reasons: readonly string[];
}

export type CompiledAnswer = { readonly text: string; readonly slug: string } | Refusal;

/** A 0-based line and UTF-16 character, as LSP has it. */
export interface LinePosition {
  readonly line: number;
  readonly character: number;
}

export interface LineRange {
  readonly start: LinePosition;
  readonly end: LinePosition;
}

export interface ReportPenalty {
  readonly marker: string;
  /** What the marker subtracts, once for the blueprint (4 decimals). */
  readonly weight: number;
  /** Every node carrying it, sorted. */
  readonly nodeIds: readonly string[];
  readonly explanation: string;
}

/**
 * One marker on one node. A finding on a cycle carries `cycle` (an index into `security.cycles`)
 * instead of the cycle's members; when the cycle alone establishes it, its explanation and hint
 * are the cycle's and are not repeated.
 */
export interface ReportFinding {
  readonly marker: string;
  readonly nodeId: string;
  readonly establishedBy: 'declared' | 'inferred';
  readonly explanation?: string;
  readonly hint?: string;
  readonly path?: readonly string[];
  readonly pathOmitted?: number;
  readonly cycle?: number;
}

/** A cycle in which no card declares an iteration cap, listed once however many findings point at it. */
export interface ReportCycle {
  /** Graph order. */
  readonly members: readonly string[];
  readonly explanation: string;
  readonly hint: string;
}

export interface ReportAnswer {
  readonly bundle: { readonly uri: string; readonly slug: string; readonly title: string; readonly digest: string; readonly nodes: number; readonly edges: number };
  readonly security: {
    readonly level: number;
    readonly raw: number;
    readonly rationale: string;
    readonly penalties: readonly ReportPenalty[];
    readonly findings: readonly ReportFinding[];
    /** The cycles unbounded-loop findings stand on, each once, in the order the findings first name them. */
    readonly cycles: readonly ReportCycle[];
  };
  /** Where the nodes the penalties name are declared: the topology's URI, then each node's range by id, each node once. */
  readonly locations: { readonly uri: string; readonly ranges: Readonly<Record<string, LineRange>> };
  readonly autonomy: {
    readonly level: number;
    readonly class: string;
    readonly label: string;
    readonly fraction: number;
    readonly staffingFraction: number;
    readonly isDarkFactory: boolean;
    readonly autonomousNodes: number;
    readonly totalNodes: number;
    readonly control: unknown;
    readonly rationale: string;
  };
  readonly phaseCoverage: { readonly covered: readonly string[]; readonly missing: readonly string[]; readonly byPhase: Readonly<Record<string, readonly string[]>>; readonly unphased: readonly string[] };
}

export interface GraphAnswer {
  /** The bundle folder's URI: a place's `file` is relative to it. */
  readonly root: string;
  readonly picture: Picture;
  /**
   * The files that were open documents when the picture was computed, each with the version it was
   * computed from (the rest were read from disk). A client that holds a newer version of one of
   * them asks again.
   */
  readonly versions: readonly { readonly file: string; readonly uri: string; readonly version: number }[];
  /**
   * Why the topology does not read as written, one sentence per parse error with its place
   * (`topology.dot:3:7: …`), or that it is no directed graph; empty when it reads. The picture
   * then shows only what the parser recovered, so a view may keep its last picture meanwhile.
   */
  readonly unreadable: readonly string[];
}

export interface ImportParams {
  /** The pipeline's URI (its name is the cards' provenance; the findings stand on it). */
  readonly uri: string;
  readonly text: string;
  /** The handle every imported card records as its `author`. */
  readonly author: string;
}

/** A finding on the pipeline, as an LSP diagnostic (the part of it a client reads). */
export interface ImportFinding {
  readonly range: LineRange;
  /** LSP's: 1 error, 2 warning, 3 information, 4 hint. */
  readonly severity?: 1 | 2 | 3 | 4;
  readonly code?: string | number;
  readonly message: string;
}

export type ImportAnswer =
  | { readonly files: readonly { readonly path: string; readonly text: string }[]; readonly diagnostics: readonly ImportFinding[] }
  | (Refusal & { readonly diagnostics: readonly ImportFinding[] });
