/**
 * Helpers that let an incremental load hand back the SAME diagnostic objects for unchanged
 * findings (callers downstream, such as the language server's publisher, reuse their work per
 * object) and keep the E§2 order without sorting everything again.
 *
 * - `interner(previous)`: a finding recomputed from scratch that equals one of `previous` in
 *   every field is replaced by that earlier object.
 * - `sortedDeduped(list, memo)`: `sortDiagnostics(dedupeDiagnostics(list))`, computed by
 *   merging when most of `list` was in the memo's last result (`sortedStably`, for any order).
 */
import type { Diagnostic, DiagnosticLocation, RelatedInformation, Severity } from './types';
import { compareCodeUnits, dedupeDiagnostics } from './types';

/**
 * Returns, for a diagnostic equal in every field to one of `previous`, that object; else the
 * diagnostic itself. An object of `previous` is answered at once; another is compared only with
 * the earlier diagnostics of its code and message (indexes built when first needed).
 */
export function interner(previous: readonly Diagnostic[]): (d: Diagnostic) => Diagnostic {
  let known: Set<Diagnostic> | undefined;
  let byCode: Map<string, Diagnostic[]> | undefined;
  const byMessage = new Map<string, Map<string, Diagnostic | Diagnostic[]>>();
  return (d) => {
    if (previous.length === 0) return d;
    known ??= new Set(previous);
    if (known.has(d)) return d;
    if (byCode === undefined) {
      byCode = new Map();
      for (const p of previous) {
        const group = byCode.get(p.code);
        if (group === undefined) byCode.set(p.code, [p]);
        else group.push(p);
      }
    }
    let messages = byMessage.get(d.code);
    if (messages === undefined) {
      messages = new Map();
      for (const p of byCode.get(d.code) ?? []) {
        const earlier = messages.get(p.message);
        if (earlier === undefined) messages.set(p.message, p);
        else if (Array.isArray(earlier)) earlier.push(p);
        else messages.set(p.message, [earlier, p]);
      }
      byMessage.set(d.code, messages);
    }
    const found = messages.get(d.message);
    if (found === undefined) return d;
    if (!Array.isArray(found)) return identical(found, d) ? found : d;
    for (const p of found) if (identical(p, d)) return p;
    return d;
  };
}

/**
 * True when two diagnostics hold the same data, key for key (a key present with `undefined`
 * differs from a missing key, as `assert.deepStrictEqual` sees it).
 */
export function identical(a: Diagnostic, b: Diagnostic): boolean {
  if (a === b) return true;
  return (
    a.code === b.code &&
    a.severity === b.severity &&
    a.message === b.message &&
    a.hint === b.hint &&
    'hint' in a === 'hint' in b &&
    sameLocation(a.location, b.location) &&
    sameRelated(a.related, b.related) &&
    'related' in a === 'related' in b &&
    Object.keys(a).length === Object.keys(b).length
  );
}

const locationKeys = ['file', 'nodeId', 'cardRef', 'path'] as const;

function sameLocation(a: DiagnosticLocation, b: DiagnosticLocation): boolean {
  if (a === b) return true;
  for (const key of locationKeys) if (a[key] !== b[key] || key in a !== key in b) return false;
  if ('span' in a !== 'span' in b || 'edge' in a !== 'edge' in b) return false;
  if (a.span !== b.span && (a.span === undefined || b.span === undefined || !sameSpan(a.span, b.span))) return false;
  if (a.edge !== b.edge && (a.edge === undefined || b.edge === undefined || !sameEdge(a.edge, b.edge))) return false;
  return Object.keys(a).length === Object.keys(b).length;
}

function sameSpan(a: { start: number; end: number }, b: { start: number; end: number }): boolean {
  return a.start === b.start && a.end === b.end && Object.keys(a).length === Object.keys(b).length;
}

function sameEdge(a: { source: string; target: string }, b: { source: string; target: string }): boolean {
  return a.source === b.source && a.target === b.target && Object.keys(a).length === Object.keys(b).length;
}

function sameRelated(a: readonly RelatedInformation[] | undefined, b: readonly RelatedInformation[] | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x.file !== y.file || x.message !== y.message || !sameSpan(x.span, y.span) || Object.keys(x).length !== Object.keys(y).length) return false;
  }
  return true;
}

/** What `sortedDeduped` and `sortedStably` keep from one call to the next: the last result. */
export interface SortMemo<T = Diagnostic> {
  last?: readonly T[];
}

const severityRank: Readonly<Record<Severity, number>> = { error: 0, warning: 1, info: 2 };

/** The E§2 order of `sortDiagnostics`, without its tie-break on position. */
function diagnosticOrder(x: Diagnostic, y: Diagnostic): number {
  return (
    severityRank[x.severity] - severityRank[y.severity] ||
    compareCodeUnits(x.location.file ?? '', y.location.file ?? '') ||
    (x.location.span?.start ?? -1) - (y.location.span?.start ?? -1) ||
    compareCodeUnits(x.code, y.code)
  );
}

/** `sortDiagnostics(dedupeDiagnostics(list))`, merging with the memo's last result (see `sortedStably`). */
export function sortedDeduped(list: readonly Diagnostic[], memo?: SortMemo): Diagnostic[] {
  return sortedStably(dedupeDiagnostics(list), diagnosticOrder, memo);
}

/**
 * `list` sorted by `compare`, ties in list order (what a stable sort gives; `list` holds each
 * object once). With a memo, the objects that were in the last result are taken in that
 * result's order, checked to be in order under this call's comparison (position in `list`
 * breaking ties), and merged with the newcomers sorted alone; a check that fails falls back to
 * a full sort. Both give the one order the comparison defines, so the result is the same.
 */
export function sortedStably<T extends object>(list: readonly T[], compare: (a: T, b: T) => number, memo?: SortMemo<T>): T[] {
  const last = memo?.last;
  let out: T[] | undefined;
  if (last !== undefined && last.length > 0) out = merged(list, last, compare);
  out ??= list.slice().sort(compare);
  if (memo) memo.last = out;
  return out;
}

function merged<T extends object>(list: readonly T[], last: readonly T[], order: (a: T, b: T) => number): T[] | undefined {
  const position = new Map<T, number>();
  for (let i = 0; i < list.length; i++) position.set(list[i], i);
  // an object listed twice has no single position: sort in full
  if (position.size !== list.length) return undefined;
  const compare = (x: T, y: T): number => order(x, y) || position.get(x)! - position.get(y)!;
  const kept: T[] = [];
  const isKept = new Uint8Array(list.length);
  for (const d of last) {
    const at = position.get(d);
    if (at === undefined) continue;
    kept.push(d);
    isKept[at] = 1;
  }
  // mostly new: sorting everything costs no more than merging
  if (kept.length * 2 < list.length) return undefined;
  for (let i = 1; i < kept.length; i++) if (compare(kept[i - 1], kept[i]) > 0) return undefined;
  const added: T[] = [];
  for (let i = 0; i < list.length; i++) if (isKept[i] === 0) added.push(list[i]);
  added.sort(compare);
  const out: T[] = new Array(list.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < kept.length && j < added.length) out[k++] = compare(kept[i], added[j]) <= 0 ? kept[i++] : added[j++];
  while (i < kept.length) out[k++] = kept[i++];
  while (j < added.length) out[k++] = added[j++];
  return out;
}
