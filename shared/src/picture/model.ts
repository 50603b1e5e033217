/**
 * The picture model: what a drawing of a bundle shows, as plain data that survives
 * `JSON.stringify` unchanged (no `Map`, no `undefined` inside arrays, no functions). Made by
 * `pictureOf` (./picture.ts), drawn by `pictureDot` and `renderPicture`; docs/graph.md describes
 * every field for clients that draw it themselves.
 */
import type { Severity } from '../diagnostics';
import type { AutonomyClass, AutonomyLevel, SecurityLevel } from '../analyze';

export interface Picture {
  readonly graph: PictureGraph;
  readonly header: PictureHeader;
  /** One per DOT node, in first-appearance order. */
  readonly nodes: readonly PictureNode[];
  /** One per edge as the topology writes them (chains expanded), in source order; `index` is the place in this list. */
  readonly edges: readonly PictureEdge[];
  readonly overlays: PictureOverlays;
  /** What keeps the bundle from being a finished pipeline, in words (see `Unsettled`). */
  readonly unsettled: readonly Unsettled[];
  /** Findings on no node and no edge: the bundle's, the manifest's, an unpinned card's. */
  readonly findings: readonly PictureFinding[];
}

export interface PictureGraph {
  /** The topology file, relative to the bundle; absent when the bundle has none. */
  readonly file?: string;
  /** The digraph's name as written. */
  readonly name?: string;
  /** The topology's own `rankdir`, upper-cased; `TB` when it sets none (or one Graphviz does not know). */
  readonly rankdir: Rankdir;
  /** False when no directed graph could be read: then nodes and edges are empty. */
  readonly drawn: boolean;
}

export type Rankdir = 'TB' | 'LR' | 'BT' | 'RL';

export interface PictureHeader {
  /** The manifest's title and slug (a stub's when the bundle has no `blueprint.yaml`). */
  readonly title: string;
  readonly slug: string;
  /** Absent when the bundle could not be analysed (no directed graph). */
  readonly security?: { readonly level: SecurityLevel; readonly raw: number; readonly rationale: string };
  readonly autonomy?: { readonly level: AutonomyLevel; readonly class: AutonomyClass; readonly label: string; readonly fraction: number };
  readonly phases?: { readonly covered: readonly string[]; readonly missing: readonly string[] };
  /** The bundle's findings by severity. */
  readonly counts: { readonly error: number; readonly warning: number; readonly info: number };
}

/**
 * The kind of block a node is drawn as: the top of its type's broader chain in the vocabulary
 * (`pictureFamilies`), `unknown` for a type the vocabulary does not root in one of them, `none`
 * for a node with no type at all (no card, or a card that names none).
 */
export type PictureFamily = 'agent' | 'tool' | 'evaluative' | 'human-in-the-loop' | 'orchestration' | 'unknown' | 'none';

/** The families a core node type can belong to, with the short word a block shows for each. */
export const pictureFamilies: Readonly<Record<Exclude<PictureFamily, 'unknown' | 'none'>, { readonly word: string }>> = Object.freeze({
  agent: { word: 'agent' },
  tool: { word: 'tool' },
  evaluative: { word: 'evaluative' },
  'human-in-the-loop': { word: 'human' },
  orchestration: { word: 'orchestration' },
});

export interface PictureNode {
  /** The DOT id as written (unquoted). */
  readonly id: string;
  /** An id for the drawn element, safe in HTML and stable while the node id is: `dp-n-` and the node id (see ./keys.ts). */
  readonly key: string;
  /** The card's `name`, else the DOT `label`, else the id. */
  readonly name: string;
  readonly card: PictureCard;
  /** The card's `type` as written; absent when it has none. */
  readonly type?: string;
  readonly family: PictureFamily;
  /** The card's phases as phase coverage reads them: trimmed, each once, the five lifecycle phases first in their order. */
  readonly phases: readonly string[];
  /** A person acts at the node (its type falls under `human-in-the-loop`). */
  readonly human: boolean;
  /** The risk markers the analysis charges at this node, heaviest first. */
  readonly risks: readonly PictureRisk[];
  /** The worst severity among `findings`; absent when there are none. */
  readonly severity?: Severity;
  readonly findings: readonly PictureFinding[];
  /** The node's first statement (or, for a node only edges name, its first mention). */
  readonly place: PicturePlace;
}

export interface PictureCard {
  /** The `id@version` the node pins, as it parsed; absent when the node pins nothing readable. */
  readonly ref?: string;
  /** True when the pin found a valid card. */
  readonly resolved: boolean;
  /** The card file the pin names, valid or not (its `id` value), when the bundle holds one. */
  readonly place?: PicturePlace;
}

export interface PictureRisk {
  readonly marker: string;
  /** What the marker subtracts from the security score, once for the whole blueprint. */
  readonly weight: number;
  /** `declared` when the card lists it (even if the graph also infers it). */
  readonly establishedBy: 'declared' | 'inferred';
}

export interface PictureEdge {
  readonly index: number;
  /** `dp-e-` and the index. */
  readonly key: string;
  readonly source: string;
  readonly target: string;
  readonly label?: string;
  /** The output and input the edge wires, when both ends resolved and a pair fits. */
  readonly ports?: { readonly out: string; readonly in: string };
  /** The data type the wired output carries. */
  readonly carries?: string;
  readonly condition?: string;
  readonly weight?: string;
  /**
   * The edge closes a cycle: inside a cycle, it leads to a node the topology names no later than
   * its source (a self-loop always does). Every cycle has one, and without them no cycle is left,
   * so a drawing that runs them backwards keeps the order the topology is written in.
   */
  readonly closesCycle: boolean;
  readonly severity?: Severity;
  readonly findings: readonly PictureFinding[];
  readonly place: PicturePlace;
}

export interface PictureFinding {
  readonly code: string;
  readonly severity: Severity;
  readonly message: string;
  /** Where the finding points, when it points at a range of a file the bundle holds. */
  readonly place?: PicturePlace;
}

/** A range in a bundle file: 1-based lines, 1-based columns counted in UTF-16 code units (the end is exclusive). */
export interface PicturePlace {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly endLine: number;
  readonly endColumn: number;
}

export interface PictureOverlays {
  /** One per node carrying the criteria-leak marker. */
  readonly leaks: readonly PictureRoute[];
  /** One per node that acceptance criteria reach only through a judge. */
  readonly relays: readonly PictureRoute[];
  /** One per cycle in which no card declares an iteration cap. */
  readonly loops: readonly PictureLoop[];
  readonly forks: readonly PictureFork[];
  /** Nodes with no incoming edge, in graph order. */
  readonly entries: readonly string[];
  /** Nodes with no outgoing edge, in graph order. */
  readonly exits: readonly string[];
  /** Nodes no path from an entry reaches (empty when the graph has no entry), in graph order. */
  readonly unreachable: readonly string[];
}

/**
 * A route the analysis found: `node` is the node the finding is on; `nodes` the route from where
 * the criteria start (the producer) to it, in order; `edges` the indexes of the edges along it.
 * A long criteria-leak route keeps its two ends, `omitted` ids left out between them.
 */
export interface PictureRoute {
  readonly node: string;
  readonly nodes: readonly string[];
  readonly edges: readonly number[];
  readonly omitted?: number;
  /** For a relay: the judges the criteria pass through. */
  readonly through?: readonly string[];
}

export interface PictureLoop {
  /** The cycle's members, in graph order. */
  readonly nodes: readonly string[];
  /** The edges between members. */
  readonly edges: readonly number[];
}

export interface PictureFork {
  readonly node: string;
  /** The outgoing edges that carry neither `condition` nor `weight`. */
  readonly arms: readonly number[];
}

/**
 * One thing still to settle, in words:
 * - `blocks-export`: an error that stops the bundle from being stored, hence exported;
 * - `no-card`: a node that resolves to no card (export refuses it too);
 * - `carries-nothing`: an edge no port pair is wired along;
 * - `unfed-input`: a required input of a node that has incoming edges, which none of them feeds.
 */
export interface Unsettled {
  readonly kind: 'blocks-export' | 'no-card' | 'carries-nothing' | 'unfed-input';
  readonly message: string;
  readonly code?: string;
  readonly node?: string;
  readonly edge?: number;
  readonly place?: PicturePlace;
}
