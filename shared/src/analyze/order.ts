/**
 * Orders the analysis keeps its lists in, and how lists already in order are merged: each
 * weakly connected component's findings and warnings are kept in order (./analyze.ts), so an
 * analysis that recomputes one small component inserts a few items into long sorted lists
 * instead of sorting everything again.
 */
import { compareCodeUnits as compare, type Diagnostic } from '../diagnostics';
import { insertSorted } from '../diagnostics/sort';
import { mapped } from '../arrays';

/**
 * The runs, each sorted by `compare`, merged into one sorted list. `compare` must tell any two
 * items apart (no two compare equal), so the result is the one order it defines. The longest
 * run is copied once; every other item is placed in it by binary search, so merging a few items
 * into a long list costs a few comparisons each.
 */
export function mergeRuns<T>(runs: readonly (readonly T[])[], compare: (a: T, b: T) => number): T[] {
  let longest = -1;
  for (let r = 0; r < runs.length; r++) if (longest === -1 || runs[r].length > runs[longest].length) longest = r;
  if (longest === -1) return [];
  const rest: T[] = [];
  for (let r = 0; r < runs.length; r++) if (r !== longest) for (const item of runs[r]) rest.push(item);
  const base = runs[longest];
  // (a copy by push, not `slice`: a run may have been made with holes, and what reads the
  // merged list should see one array shape; see arrays.ts)
  if (rest.length === 0) return mapped(base, (item) => item);
  rest.sort(compare);
  return insertSorted(base, rest, compare)!;
}

/** The order of the security warnings (docs/compatibility.md#security): code, node, message. */
export function securityOrder(a: Diagnostic, b: Diagnostic): number {
  return compare(a.code, b.code) || compare(a.location.nodeId ?? '', b.location.nodeId ?? '') || compare(a.message, b.message);
}

const severityRank = { error: 0, warning: 1, info: 2 } as const;

/** The order of `sortDiagnostics` (severity, file, position, code; docs/compatibility.md#order-of-findings), without its tie-break. */
export function placeOrder(a: Diagnostic, b: Diagnostic): number {
  return (
    severityRank[a.severity] - severityRank[b.severity] ||
    compare(a.location.file ?? '', b.location.file ?? '') ||
    (a.location.span?.start ?? -1) - (b.location.span?.start ?? -1) ||
    compare(a.code, b.code)
  );
}

/**
 * The order of the security warnings in the analysis's merged list: the order of findings
 * (docs/compatibility.md#order-of-findings), then, where
 * that ties, the security order, which is the order the merged list is made from
 * (`sortDiagnostics` keeps ties in list order).
 */
export function analysisOrder(a: Diagnostic, b: Diagnostic): number {
  return placeOrder(a, b) || securityOrder(a, b);
}
