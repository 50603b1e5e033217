/**
 * THE diagnostics registry: every code the engine can report, DarkPrint's and ours.
 *
 * One table, many readers: the checks import codes from here, `explain`, hovers, the README
 * table and `docs/diagnostics.md` all render it. A code not in this table does not type-check.
 * `beyond: true` marks codes DarkPrint does not have (SPEC "[beyond]"), so users can filter them.
 * `emitted: false` marks codes DarkPrint declares but that no check of this engine reports
 * (server-side release checks, a declared-but-unused code); they stay listed for compatibility.
 */
import type { Severity } from './types';

export interface DiagnosticInfo {
  readonly severity: Severity;
  readonly title: string;
  /** One paragraph: what triggers it and how to fix it. */
  readonly docs: string;
  /** A small example that triggers it (a DOT or YAML snippet). */
  readonly example: string;
  readonly beyond: boolean;
  /** False for codes listed for compatibility that this engine never reports; the reason says why. */
  readonly emitted: true | { readonly never: string };
}

type Entry = Omit<DiagnosticInfo, 'beyond' | 'emitted'> & {
  beyond?: boolean;
  emitted?: DiagnosticInfo['emitted'];
};

function table<K extends string>(entries: Record<K, Entry>): Record<K, DiagnosticInfo> {
  const out = {} as Record<K, DiagnosticInfo>;
  for (const key of Object.keys(entries) as K[]) {
    const e = entries[key];
    out[key] = { ...e, beyond: e.beyond ?? false, emitted: e.emitted ?? true };
  }
  return Object.freeze(out);
}

export const diagnosticsRegistry = table({
  // ---- dot/ -----------------------------------------------------------------------------
  'dot/parse-error': { severity: 'error', title: 'The topology is not valid DOT', docs: '', example: '' },
  'dot/unsupported': { severity: 'warning', title: 'DOT construct read but not supported', docs: '', example: '' },
  'dot/not-directed': { severity: 'error', title: 'The topology is not a directed graph', docs: '', example: '' },
  'dot/duplicate-node': { severity: 'info', title: 'A node is declared twice with different attributes', docs: '', example: '' },
  'dot/self-loop': { severity: 'info', title: 'An edge goes from a node to itself', docs: '', example: '' },
  // ---- card/ ----------------------------------------------------------------------------
  'card/parse-error': { severity: 'error', title: 'The card (or vocabulary file) is not valid YAML or JSON', docs: '', example: '' },
  'card/missing-field': { severity: 'error', title: 'A required card field is missing or blank', docs: '', example: '' },
  'card/bad-type': { severity: 'error', title: 'A card field has the wrong shape', docs: '', example: '' },
  'card/bad-id': { severity: 'error', title: 'The card id is not a valid card id', docs: '', example: '' },
  'card/bad-version': { severity: 'error', title: 'The card version is not strict semver', docs: '', example: '' },
  'card/duplicate-port': { severity: 'error', title: 'Two ports on one side share a name', docs: '', example: '' },
  'card/unknown-term': { severity: 'error', title: 'A term is not in the vocabulary', docs: '', example: '' },
  'card/deprecated-term': { severity: 'warning', title: 'A term is deprecated', docs: '', example: '' },
  'card/wrong-term-kind': { severity: 'error', title: 'A term of another kind is used', docs: '', example: '' },
  'card/version-bump-too-small': { severity: 'error', title: 'A new card version bumps less than its changes require', docs: '', example: '' },
  'card/unknown-phase': { severity: 'error', title: 'A phase is not one of the five', docs: '', example: '' },
  'card/namespaced-phase': { severity: 'error', title: 'A phase is namespaced', docs: '', example: '' },
  'card/duplicate-phase': { severity: 'warning', title: 'A phase is listed twice', docs: '', example: '' },
  'card/retired-field': { severity: 'warning', title: 'A retired card field is present', docs: '', example: '' },
  'card/spec-too-thin': { severity: 'warning', title: 'The spec is shorter than 40 characters', docs: '', example: '' },
  'card/prohibition-misfiled': { severity: 'warning', title: 'A data type is listed in will_not instead of cannot', docs: '', example: '' },
  'card/filename-mismatch': { severity: 'info', title: 'The card file is not named after its id and version', docs: '', example: '', beyond: true },
  // ---- bundle/ --------------------------------------------------------------------------
  'bundle/missing-card': { severity: 'error', title: 'A node points at a card the bundle does not hold', docs: '', example: '' },
  'bundle/orphan-card': { severity: 'warning', title: 'A card is pinned by no node', docs: '', example: '' },
  'bundle/unpinned-card': { severity: 'error', title: 'A node does not pin an exact card version', docs: '', example: '' },
  'bundle/digest-mismatch': { severity: 'error', title: 'Card digests disagree', docs: '', example: '' },
  'bundle/port-mismatch': { severity: 'error', title: 'An edge names a port the card lacks, or a side carries no data', docs: '', example: '' },
  'bundle/port-ambiguous': { severity: 'warning', title: 'More than one port pair fits an edge', docs: '', example: '' },
  'bundle/type-mismatch': { severity: 'error', title: 'No output of the source fits an input of the target', docs: '', example: '' },
  'bundle/undeclared-dependency': { severity: 'warning', title: 'A supplier is not listed in the card\'s dependencies', docs: '', example: '' },
  'bundle/missing-dependency': { severity: 'error', title: 'A declared dependency has no edge into the node', docs: '', example: '' },
  'bundle/no-entry': { severity: 'warning', title: 'The graph has no entry node', docs: '', example: '' },
  'bundle/no-exit': { severity: 'warning', title: 'The graph has no exit node', docs: '', example: '' },
  'bundle/unreachable-node': { severity: 'warning', title: 'A node cannot be reached from any entry', docs: '', example: '' },
  'bundle/ontology-mismatch': { severity: 'warning', title: 'A local term reuses a core term id', docs: '', example: '' },
  'bundle/prohibition-violated': { severity: 'error', title: 'An edge carries a data type the target card cannot receive', docs: '', example: '' },
  'bundle/version-bump-too-small': {
    severity: 'error', title: 'A blueprint release bumps less than its changes require', docs: '', example: '',
    emitted: { never: 'a release check of DarkPrint\'s registry service, which compares against the published version' },
  },
  'bundle/legacy-topology-file': { severity: 'warning', title: 'A legacy blueprint.dot sits beside topology.dot', docs: '', example: '' },
  'bundle/misfiled-card': { severity: 'warning', title: 'A card is saved under a reserved file name', docs: '', example: '', beyond: true },
  // ---- attractor/ -----------------------------------------------------------------------
  'attractor/strict-graph': { severity: 'warning', title: 'The graph is declared strict', docs: '', example: '' },
  'attractor/undirected-graph': {
    severity: 'warning', title: 'The graph is undirected', docs: '', example: '',
    emitted: { never: 'an undirected graph stops resolution with dot/not-directed before the Attractor lint runs' },
  },
  'attractor/multiple-graphs': { severity: 'warning', title: 'The file holds more than one graph', docs: '', example: '' },
  'attractor/bad-node-id': { severity: 'warning', title: 'A node id is not an Attractor identifier', docs: '', example: '' },
  'attractor/quoted-node-id': { severity: 'warning', title: 'A node id is quoted', docs: '', example: '' },
  'attractor/attr-separator': { severity: 'warning', title: 'Attributes are not separated by commas', docs: '', example: '' },
  'attractor/hash-comment': { severity: 'warning', title: 'A # comment is used', docs: '', example: '' },
  'attractor/unsupported-value': { severity: 'warning', title: 'A value Attractor cannot read', docs: '', example: '' },
  'attractor/reserved-attribute': { severity: 'warning', title: 'A node sets type in the topology', docs: '', example: '' },
  'attractor/condition-syntax': { severity: 'warning', title: 'An edge condition does not parse', docs: '', example: '' },
  'attractor/boundary-node-id': { severity: 'warning', title: 'A node id collides with an Attractor boundary name', docs: '', example: '', beyond: true },
  'attractor/unguarded-fork': { severity: 'warning', title: 'A fork has an arm with neither condition nor weight', docs: '', example: '', beyond: true },
  'attractor/ignored-attribute': { severity: 'info', title: 'A topology node sets an Attractor attribute the exporter never writes', docs: '', example: '', beyond: true },
  // ---- ontology/ ------------------------------------------------------------------------
  'ontology/unknown-term': {
    severity: 'error', title: 'A term is not in the vocabulary (vocabulary level)', docs: '', example: '',
    emitted: { never: 'DarkPrint declares this code but reports unknown terms on cards as card/unknown-term' },
  },
  'ontology/cyclic-broader': { severity: 'error', title: 'broader pointers form a cycle', docs: '', example: '' },
  'ontology/dangling-pointer': { severity: 'error', title: 'A broader or replacedBy pointer names no term', docs: '', example: '' },
  'ontology/phase-not-extensible': { severity: 'error', title: 'A local term tries to add a phase', docs: '', example: '' },
  'ontology/local-term-unrooted': { severity: 'error', title: 'A local term does not reach a core term', docs: '', example: '' },
  'ontology/local-marker-unweighted': { severity: 'warning', title: 'A local risk marker has no weight', docs: '', example: '' },
  'ontology/local-marker-bad-weight': { severity: 'warning', title: 'A local risk marker has an unusable weight', docs: '', example: '' },
  'ontology/version-bump-too-small': {
    severity: 'error', title: 'A vocabulary release bumps less than its changes require', docs: '', example: '',
    emitted: { never: 'a release check of DarkPrint\'s registry service' },
  },
  // ---- analysis/ ------------------------------------------------------------------------
  'analysis/empty-graph': { severity: 'warning', title: 'The graph has no node to analyse', docs: '', example: '' },
  'analysis/unresolved-node': { severity: 'warning', title: 'A node has no card, so the analysis cannot read it', docs: '', example: '' },
  'analysis/criteria-leak-suspected': { severity: 'warning', title: 'A generator\'s spec paraphrases a criteria producer\'s', docs: '', example: '' },
  'analysis/criteria-leak-unanchored': { severity: 'warning', title: 'The criteria-leak check could not run', docs: '', example: '' },
  'analysis/criteria-out-of-band': { severity: 'warning', title: 'A params criteria key names nothing the graph produces', docs: '', example: '' },
  'analysis/criteria-relayed-through-judge': { severity: 'warning', title: 'Criteria reach a generator only through a judge', docs: '', example: '' },
  'analysis/criteria-leak': { severity: 'warning', title: 'A generator can see its acceptance criteria', docs: '', example: '', beyond: true },
  'analysis/unbounded-loop': { severity: 'warning', title: 'A node sits in a cycle with no iteration cap', docs: '', example: '', beyond: true },
  'analysis/unvalidated-external-access': { severity: 'warning', title: 'External data reaches a node that does not validate it', docs: '', example: '', beyond: true },
});

export type DiagnosticCode = keyof typeof diagnosticsRegistry;

export function isDiagnosticCode(value: string): value is DiagnosticCode {
  return Object.prototype.hasOwnProperty.call(diagnosticsRegistry, value);
}

export function diagnosticInfo(code: DiagnosticCode): DiagnosticInfo {
  return diagnosticsRegistry[code];
}

export const allDiagnosticCodes: readonly DiagnosticCode[] = Object.keys(diagnosticsRegistry) as DiagnosticCode[];
