import type { Span } from '../text';
import type { DiagnosticCode } from './registry';

export type Severity = 'error' | 'warning' | 'info';

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
 * E§2 order: severity, file (code units), position, code; ties keep input order.
 * Sorting by offset is sorting by (line, column); a missing span sorts first (line 0).
 */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics
    .map((d, i) => ({ d, i }))
    .sort((a, b) => {
      const x = a.d;
      const y = b.d;
      return (
        severityRank[x.severity] - severityRank[y.severity] ||
        compareCodeUnits(x.location.file ?? '', y.location.file ?? '') ||
        (x.location.span?.start ?? -1) - (y.location.span?.start ?? -1) ||
        compareCodeUnits(x.code, y.code) ||
        a.i - b.i
      );
    })
    .map((e) => e.d);
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

/** Removes exact duplicates (same code, severity, message, hint and location), keeping the first. */
export function dedupeDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  const out: Diagnostic[] = [];
  for (const d of diagnostics) {
    const key = JSON.stringify([d.code, d.severity, d.message, d.hint ?? null, d.location]);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(d);
  }
  return out;
}
