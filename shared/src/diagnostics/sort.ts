/**
 * Helpers that let an incremental load hand back the SAME diagnostic objects for unchanged
 * findings (callers downstream, such as the language server's publisher, reuse their work per
 * object) and keep the order of findings (docs/compatibility.md#order-of-findings) without sorting
 * everything again.
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
  /** The list `last` was made from (`sortedDeduped` only). */
  lastInput?: readonly T[];
  /** Where each of `last` sits in `lastInput` (`sortedDeduped` only, made when first needed: see `permuted`). */
  lastOrder?: Int32Array;
}

const severityRank: Readonly<Record<Severity, number>> = { error: 0, warning: 1, info: 2 };

/** The order of `sortDiagnostics` (docs/compatibility.md#order-of-findings), without its tie-break on position. */
function diagnosticOrder(x: Diagnostic, y: Diagnostic): number {
  return (
    severityRank[x.severity] - severityRank[y.severity] ||
    compareCodeUnits(x.location.file ?? '', y.location.file ?? '') ||
    (x.location.span?.start ?? -1) - (y.location.span?.start ?? -1) ||
    compareCodeUnits(x.code, y.code)
  );
}

/**
 * `sortDiagnostics(dedupeDiagnostics(list))`. With a memo: when `list` is the memo's last input
 * with a few objects added or removed in one stretch (what an edit does to a load's list), the
 * last result with those removed and the new ones put in place (`patched`); otherwise merging
 * with the last result (see `sortedStably`).
 */
export function sortedDeduped(list: readonly Diagnostic[], memo?: SortMemo): Diagnostic[] {
  if (memo === undefined) return sortedStably(dedupeDiagnostics(list), diagnosticOrder);
  let order: Int32Array | undefined;
  let out = patched(list, memo);
  if (out === undefined) {
    const lastOrder = orderOf(memo);
    if (lastOrder !== undefined && list.length === lastOrder.length) {
      order = lastOrder;
      out = permuted(list, order);
    } else if (lastOrder !== undefined) {
      const found = splicedOrder(list, memo.lastInput!, lastOrder);
      if (found !== undefined) ({ out, order } = found);
    }
    if (out === undefined) order = undefined;
  }
  out ??= sortedStably(dedupeDiagnostics(list), diagnosticOrder, memo);
  memo.last = out;
  memo.lastInput = list;
  memo.lastOrder = order;
  return out;
}

/**
 * `list` taken in the order the last result took the last input (`order`), when that reads
 * strictly increasing under the order: then no two of `list` tie, so none duplicates another and
 * this is the one sorted order. What text typed in the middle of a file gives: as many findings,
 * in the same input order, those after the typing new objects moved by the same amount. The
 * references differ there, so `patched` cannot pair them; this path reads one comparison per
 * finding and builds no index.
 */
function permuted(list: readonly Diagnostic[], order: Int32Array): Diagnostic[] | undefined {
  if (list.length !== order.length) return undefined;
  const out: Diagnostic[] = [];
  for (let r = 0; r < order.length; r++) {
    const d = list[order[r]];
    if (r > 0 && diagnosticOrder(out[r - 1], d) >= 0) return undefined;
    out.push(d);
  }
  return out;
}

/**
 * `permuted` for a list that is the last input with a few findings added and taken out here and
 * there (what declaring or deleting a node in the middle of a topology does): the others, new
 * objects where the text moved but in the same input order, each reading as its earlier one
 * (code and message), are taken in the order the last result took them, the added ones put in by
 * binary search. The lists are paired walking both (`paired`). Undefined unless the whole
 * result reads strictly increasing under the order (then it is the one sorted order, with no
 * duplicates: see `permuted`), which holds however the findings were paired.
 */
function splicedOrder(list: readonly Diagnostic[], lastInput: readonly Diagnostic[], order: Int32Array): { out: Diagnostic[]; order: Int32Array } | undefined {
  if (Math.abs(list.length - lastInput.length) > patchLimit) return undefined;
  const pairing = paired(list, lastInput, alike);
  if (pairing === undefined) return undefined;
  const { newAt, added } = pairing;
  const outOrder = new Int32Array(list.length);
  const out: Diagnostic[] = [];
  for (let r = 0; r < order.length; r++) {
    const at = newAt[order[r]];
    if (at < 0) continue;
    const d = list[at];
    if (out.length > 0 && diagnosticOrder(out[out.length - 1], d) >= 0) return undefined;
    outOrder[out.length] = at;
    out.push(d);
  }
  for (const a of added) {
    const d = list[a];
    // the first place whose finding comes after `d`
    let lo = 0;
    let hi = out.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (diagnosticOrder(out[mid], d) < 0) lo = mid + 1;
      else hi = mid;
    }
    if ((lo < out.length && diagnosticOrder(d, out[lo]) >= 0) || (lo > 0 && diagnosticOrder(out[lo - 1], d) >= 0)) return undefined;
    out.splice(lo, 0, d);
    outOrder.copyWithin(lo + 1, lo, out.length - 1);
    outOrder[lo] = a;
  }
  return { out, order: outOrder };
}

/** Two findings that read alike (code and message): a finding and its copy moved by an edit. */
function alike(a: Diagnostic, b: Diagnostic): boolean {
  return a.code === b.code && a.message === b.message;
}

/** The memo's `lastOrder`, made from its last input and result when missing (each object is in the input once: nothing was de-duplicated). */
function orderOf(memo: SortMemo): Int32Array | undefined {
  const last = memo.last;
  const lastInput = memo.lastInput;
  if (last === undefined || lastInput === undefined || last.length !== lastInput.length) return undefined;
  if (memo.lastOrder !== undefined && memo.lastOrder.length === last.length) return memo.lastOrder;
  const at = new Map<Diagnostic, number>();
  for (let i = 0; i < lastInput.length; i++) at.set(lastInput[i], i);
  if (at.size !== lastInput.length) return undefined;
  const order = new Int32Array(last.length);
  for (let r = 0; r < last.length; r++) {
    const i = at.get(last[r]);
    if (i === undefined) return undefined;
    order[r] = i;
  }
  return order;
}

/** At most this many objects added and removed for `patched` to apply, and how far it looks past a difference for the lists to agree again. */
const patchLimit = 64;

/**
 * The memo's last result for `list`, which is the last input with a few objects added and
 * removed here and there (what an edit does to a load's list). The two lists are walked
 * together comparing references only, so the diagnostics themselves are not read. Undefined
 * (the caller sorts) when they differ by much, when the last input had duplicates, or when a
 * new finding ties with another under the order: an exact duplicate always ties, and a tie is
 * broken by input position, which this path does not track. Otherwise no new finding
 * duplicates another, the others keep their relative order in the input (so their sorted
 * order too), and each new one goes where its order puts it.
 */
function patched(list: readonly Diagnostic[], memo: SortMemo): Diagnostic[] | undefined {
  const last = memo.last;
  const lastInput = memo.lastInput;
  if (last === undefined || lastInput === undefined || last.length !== lastInput.length) return undefined;
  const pairing = paired(list, lastInput, noOther);
  if (pairing === undefined) return undefined;
  const added = pairing.added.map((i) => list[i]);
  const removed = lastInput.filter((_, j) => pairing.newAt[j] < 0);
  added.sort(diagnosticOrder);
  for (let n = 1; n < added.length; n++) if (diagnosticOrder(added[n - 1], added[n]) === 0) return undefined;
  const kept = removed.length === 0 ? last : last.filter((d) => !removed.includes(d));
  if (kept.length !== last.length - removed.length) return undefined;
  return insertSorted(kept, added, diagnosticOrder, true);
}

/**
 * Pairs the findings of `list` with those of `earlier`, walking both in order: the same object,
 * or one `alsoSame` holds for, pairs; a difference is skipped by the fewest added and removed
 * after which the lists agree again (`realigned`). Gives, per finding of `earlier`, its index in
 * `list` (-1: gone), and the indexes in `list` of the added ones; undefined past `patchLimit`
 * added and removed in all. A function of its own, ending in its walk: V8 compiles a long loop
 * while it runs (on-stack replacement), and code after it that had not run by then made that
 * compiled code give up at the same place on every later call (seen with --trace-deopt over a
 * session of topology edits: `npm run bench:deopt`).
 */
function paired(list: readonly Diagnostic[], earlier: readonly Diagnostic[], alsoSame: (a: Diagnostic, b: Diagnostic) => boolean): { newAt: Int32Array; added: number[] } | undefined {
  const newAt = new Int32Array(earlier.length).fill(-1);
  const added: number[] = [];
  let differences = 0;
  let i = 0;
  let j = 0;
  while (i < list.length || j < earlier.length) {
    if (i < list.length && j < earlier.length && (list[i] === earlier[j] || alsoSame(list[i], earlier[j]))) {
      newAt[j++] = i++;
      continue;
    }
    // (past the end of one list, the rest of the other is added or removed)
    let a = list.length - i;
    let b = earlier.length - j;
    if (a > 0 && b > 0) {
      const step = realigned(list, i, earlier, j, alsoSame);
      if (step < 0) return undefined;
      a = step >> 8;
      b = step & 0xff;
    }
    differences += a + b;
    if (differences > patchLimit) return undefined;
    for (let k = 0; k < a; k++) added.push(i++);
    j += b;
  }
  return { newAt, added };
}

/** Pairs only the same objects (`paired`). */
const noOther = (): boolean => false;

/**
 * Where two lists that differ at `list[i]` and `earlier[j]` agree again: `a` objects added and
 * `b` removed, fewest in all first, as `a << 8 | b` (both at most `patchLimit`); -1 when they do
 * not within `patchLimit`. Two findings agree when they are the same object or `alsoSame` holds.
 * A function of its own, apart from the walk in `paired`: V8 compiled that walk before any edit
 * had taken this path, then threw the compiled walk away at each edit that did (seen with
 * `--trace-deopt` over a session of topology edits).
 */
function realigned(list: readonly Diagnostic[], i: number, earlier: readonly Diagnostic[], j: number, alsoSame: (a: Diagnostic, b: Diagnostic) => boolean): number {
  for (let t = 1; t <= patchLimit; t++) {
    for (let a = 0; a <= t; a++) {
      const b = t - a;
      if (i + a < list.length && j + b < earlier.length && (list[i + a] === earlier[j + b] || alsoSame(list[i + a], earlier[j + b]))) return (a << 8) | b;
    }
  }
  return -1;
}

/**
 * `list` sorted by `compare`, ties in list order (what a stable sort gives; `list` holds each
 * object once). With a memo, the objects that were in the last result are taken in that
 * result's order, checked to be in order under this call's comparison (position in `list`
 * breaking ties), and merged with the newcomers sorted alone; a check that fails falls back to
 * a full sort. Both give the one order the comparison defines, so the result is the same.
 */
export function sortedStably<T extends object>(list: readonly T[], compare: (a: T, b: T) => number, memo?: Pick<SortMemo<T>, 'last'>): T[] {
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
  // (filled by push: an array made with `new Array(n)` has holes to V8, a shape the full sort's
  // arrays do not have; see arrays.ts)
  const out: T[] = [];
  let i = 0;
  let j = 0;
  while (i < kept.length && j < added.length) out.push(compare(kept[i], added[j]) <= 0 ? kept[i++] : added[j++]);
  while (i < kept.length) out.push(kept[i++]);
  while (j < added.length) out.push(added[j++]);
  return out;
}

/**
 * `items` (sorted by `compare`) put into a copy of `base` (sorted too), each after the elements
 * that sort before or equal to it, found by binary search from where the item before it went:
 * a few items go into a long list for a few comparisons each, and the rest of `base` is copied
 * without being read. With `distinct`, undefined as soon as an item compares equal to an element
 * of `base` (if any does, the search meets one: the last element at or before the item).
 */
export function insertSorted<T>(base: readonly T[], items: readonly T[], compare: (a: T, b: T) => number, distinct = false): T[] | undefined {
  const out: T[] = []; // (by push, as in `merged`)
  let from = 0;
  for (const item of items) {
    let low = from;
    let high = base.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      const c = compare(base[middle], item);
      if (distinct && c === 0) return undefined;
      if (c <= 0) low = middle + 1;
      else high = middle;
    }
    while (from < low) out.push(base[from++]);
    out.push(item);
  }
  while (from < base.length) out.push(base[from++]);
  return out;
}
