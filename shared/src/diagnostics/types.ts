import type { Span } from '../text';
import type { DiagnosticCode, Severity } from './registry';
import { mapped } from '../arrays';

export type { Severity };

/** Where a diagnostic is. `file` is relative to the bundle folder (`topology.dot`, `cards/a@1.0.0.yaml`). */
export interface DiagnosticLocation {
  file?: string;
  /** Exact range in `file`'s text. Absent only for bundle-wide findings. */
  span?: Span;
  nodeId?: string;
  /** `id@version` of the card concerned. */
  cardRef?: string;
  edge?: { source: string; target: string };
  /** Dotted path inside a card, e.g. `inputs[1].type`. */
  path?: string;
}

export interface RelatedInformation {
  file: string;
  span: Span;
  message: string;
}

export interface Diagnostic {
  code: DiagnosticCode;
  severity: Severity;
  message: string;
  hint?: string;
  location: DiagnosticLocation;
  related?: RelatedInformation[];
}

const severityRank: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/**
 * The order of findings (docs/compatibility.md#order-of-findings): severity, file (code units),
 * position, code; ties keep input order. Sorting by offset is sorting by (line, column); a missing
 * span sorts first (line 0).
 */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const sorted = mapped(diagnostics, (d, i) => ({ d, i })).sort((a, b) => {
    const x = a.d;
    const y = b.d;
    return (
      severityRank[x.severity] - severityRank[y.severity] ||
      compareCodeUnits(x.location.file ?? '', y.location.file ?? '') ||
      (x.location.span?.start ?? -1) - (y.location.span?.start ?? -1) ||
      compareCodeUnits(x.code, y.code) ||
      a.i - b.i
    );
  });
  return mapped(sorted, (e) => e.d);
}

export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}

export function summarize(diagnostics: readonly Diagnostic[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const d of diagnostics) counts[d.severity]++;
  return counts;
}

/**
 * Removes exact duplicates (same code, severity, message, hint and location), keeping the first.
 * Diagnostics are bucketed by message (nearly always unique) and then by file (a message many
 * files repeat word for word, such as one about a retired field, is compared only within its
 * file), and only diagnostics sharing both are compared field by field, so no key is ever
 * serialised.
 */
export function dedupeDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const byMessage = new Map<string, Diagnostic | Map<string | undefined, Diagnostic[]>>();
  const out: Diagnostic[] = [];
  for (const d of diagnostics) {
    const earlier = byMessage.get(d.message);
    if (earlier === undefined) {
      byMessage.set(d.message, d);
    } else {
      let byFile: Map<string | undefined, Diagnostic[]>;
      if (earlier instanceof Map) byFile = earlier;
      else {
        byFile = new Map([[earlier.location.file, [earlier]]]);
        byMessage.set(d.message, byFile);
      }
      const same = byFile.get(d.location.file);
      if (same === undefined) byFile.set(d.location.file, [d]);
      else {
        if (same.some((e) => sameDiagnostic(e, d))) continue;
        same.push(d);
      }
    }
    out.push(d);
  }
  return out;
}

function sameDiagnostic(a: Diagnostic, b: Diagnostic): boolean {
  return a.code === b.code && a.severity === b.severity && a.hint === b.hint && sameData(a.location, b.location);
}

/** Deep equality of plain data (what a location holds): same keys with defined values, equal values. */
function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  let count = 0;
  for (const key in left) {
    if (!Object.prototype.hasOwnProperty.call(left, key) || left[key] === undefined) continue;
    count++;
    if (!Object.prototype.hasOwnProperty.call(right, key) || !sameData(left[key], right[key])) return false;
  }
  for (const key in right) {
    if (Object.prototype.hasOwnProperty.call(right, key) && right[key] !== undefined) count--;
  }
  return count === 0;
}
