/**
 * The gate (docs/compatibility.md#storage-and-release-gate): which errors stop a bundle from being
 * stored, and which from being released. Export refuses exactly what would stop storage
 * (docs/compatibility.md#export-refusal): a bundle that cannot be read, a card that cannot be
 * addressed, or an edge that breaks a prohibition its author declared.
 */
import type { Diagnostic, DiagnosticCode } from '../diagnostics';

export type GateClass = 'unreadable' | 'unaddressable' | 'author-declared' | 'unresolved-reference' | 'approval';

const classes: ReadonlyMap<string, GateClass> = new Map<DiagnosticCode, GateClass>([
  ['dot/parse-error', 'unreadable'],
  ['dot/not-directed', 'unreadable'],
  ['card/parse-error', 'unreadable'],
  ['card/bad-type', 'unreadable'],
  ['card/missing-field', 'unaddressable'],
  ['card/bad-id', 'unaddressable'],
  ['card/bad-version', 'unaddressable'],
  ['card/version-bump-too-small', 'unaddressable'],
  ['bundle/digest-mismatch', 'unaddressable'],
  ['bundle/version-bump-too-small', 'unaddressable'],
  ['ontology/version-bump-too-small', 'unaddressable'],
  ['bundle/prohibition-violated', 'author-declared'],
  ['bundle/missing-card', 'unresolved-reference'],
  ['bundle/unpinned-card', 'unresolved-reference'],
]);

/** The gate class of a code; every code not listed is `approval` (a reviewer's call, never a block). */
export function gateClass(code: DiagnosticCode): GateClass {
  return classes.get(code) ?? 'approval';
}

/** Card paths whose blank or ill-typed value leaves the card without an address. */
const addressPaths: ReadonlySet<string> = new Set(['id', 'version']);

/**
 * True for an error that stops storage: unreadable, unaddressable or author-declared, except a
 * missing or ill-typed card field other than `id`/`version` (the card still has an address).
 */
export function blocksStorage(diagnostic: Diagnostic): boolean {
  if (diagnostic.severity !== 'error') return false;
  const kind = gateClass(diagnostic.code);
  if (kind !== 'unreadable' && kind !== 'unaddressable' && kind !== 'author-declared') return false;
  if (diagnostic.code !== 'card/missing-field' && diagnostic.code !== 'card/bad-type') return true;
  const path = diagnostic.location.path;
  return path === undefined || addressPaths.has(path);
}

/** True for an error that stops a release: what stops storage, plus a node whose card cannot be found. */
export function blocksRelease(diagnostic: Diagnostic): boolean {
  return blocksStorage(diagnostic) || (diagnostic.severity === 'error' && gateClass(diagnostic.code) === 'unresolved-reference');
}

export function isStorable(diagnostics: readonly Diagnostic[]): boolean {
  return !diagnostics.some(blocksStorage);
}

export function isReleasable(diagnostics: readonly Diagnostic[]): boolean {
  return !diagnostics.some(blocksRelease);
}
