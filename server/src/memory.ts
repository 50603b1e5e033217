/**
 * The server's memory budget on large workspaces (the goal: a 5,000-node bundle edited in under
 * 300 MB of resident memory).
 *
 * Between two full collections V8 lets its heap grow by a factor it picks from how fast the
 * collector runs, up to four times what the last collection kept. On a small workspace that
 * headroom is what makes an edit cheap (fewer collections while a publication runs). On a very
 * large one it is most of the process: a 5,000-node bundle keeps about 60 MB alive, and while
 * the user types in the middle of its topology the resident memory climbed to 400–460 MB
 * (`npm run bench:lsp`, "RSS MB (peak) after them"), nearly all of it garbage waiting for the
 * next full collection.
 *
 * So the server watches what each full collection keeps, and fixes the growth at
 * `fixedGrowingPercent` (V8's `--heap-growing-percent`, which V8 reads at every collection, so it
 * can be set while the server runs) unless the workspace is known to be small. V8 then uses that
 * factor, 1.5, in place of its own choice, also where it would choose less: near the heap's limit
 * (1.3 at most) or, once the process is idle, its memory reducer's 1.1 (so an idle 5,000-node
 * bundle may hold 90 MB of heap where V8 would hold 66). That is the price of the bound while the
 * user types.
 * - It starts fixed. V8 sets the next limit when a collection ends, before the server hears of
 *   it, so a factor set on the first large reading would come one collection late, and that
 *   collection's limit (up to four times 60 MB, while the workspace loads) is the peak the budget
 *   is about.
 * - A full collection that keeps more than `largeHeapMb` keeps the factor fixed.
 * - One that keeps less than `smallHeapMb`, no more than `settledGrowth` times what the one before
 *   kept, gives the choice back to V8: the workspace is small and no longer loading. (While it
 *   loads, each collection keeps much more than the last: a 5,000-node bundle's first two keep 10
 *   and 56 MB.)
 * - In between, nothing changes, so a workspace near the line does not switch at every
 *   collection, and one that settles between the two lines keeps what it had.
 *
 * Read from the server during `npm run bench:lsp`: once loaded, a 2,000-node bundle's full
 * collections keep 30–38 MB, a 5,000-node one's 58–76 MB. At 2,000 nodes the fixed factor would
 * cost 5–10 ms on a mid-file edit (measured with `DARKPRINT_SERVER_NODE_ARGS=
 * --heap-growing-percent=50`), which that size's latency target cannot spare, and its RSS is under
 * the budget without it.
 *
 * A heap flag given to the server's node (`--heap-growing-percent`, `--max-old-space-size`,
 * `--max-heap-size`, `--optimize-for-size`, on its command line or in NODE_OPTIONS) wins: the
 * policy then stays off. It stays off under Electron too (VS Code desktop starts the server with
 * its own runtime unless told otherwise): Node keeps V8's flags open to change after start, which
 * `setFlagsFromString` relies on, but a V8 embedded elsewhere may freeze them, and changing a
 * frozen flag is a fatal error no `try` can catch (nw.js, for one, fails so). There the heap
 * grows as V8 chooses, as it did before the policy.
 *
 * What a collection kept is read when Node reports the collection (a `gc` performance entry,
 * delivered soon after): the heap's used size without the young generation, which is garbage
 * or not yet promoted. It is an estimate, a little above the truth when objects were promoted
 * in between; the thresholds leave room for that.
 */
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/** Above this much kept by a full collection, the heap's growth is fixed at `fixedGrowingPercent`. */
export const largeHeapMb = 50;
/** Under this much, V8 picks the growth again. */
export const smallHeapMb = 42;
/** The heap grows by half of what the last full collection kept, then collects again. */
export const fixedGrowingPercent = 50;

/** A full collection that keeps at most this many times what the one before kept shows a workspace no longer loading. */
export const settledGrowth = 1.25;

/**
 * The growing percent to use after a full collection that kept `keptMb`, the one before having
 * kept `beforeMb` (undefined for the first), given the percent in force (0: V8's own choice).
 */
export function growingPercentFor(keptMb: number, beforeMb: number | undefined, current: number): number {
  if (keptMb > largeHeapMb) return fixedGrowingPercent;
  if (keptMb < smallHeapMb && beforeMb !== undefined && keptMb <= beforeMb * settledGrowth) return 0;
  return current;
}

/** True when `args` (node's own flags: `process.execArgv` and NODE_OPTIONS) set the heap's size or growth. */
export function heapFlagsGiven(args: readonly string[]): boolean {
  return args.some((arg) => /^--(heap[-_]growing[-_]percent|max[-_]old[-_]space[-_]size|max[-_]heap[-_]size|optimize[-_]for[-_]size)(=|$)/.test(arg));
}

/**
 * Whether the policy may run in a process with these `versions` (`process.versions`) and node
 * flags (`process.execArgv` and NODE_OPTIONS, split): plain Node, no heap flag given.
 */
export function heapPolicyApplies(versions: Readonly<Record<string, string | undefined>>, args: readonly string[]): boolean {
  return versions.electron === undefined && !heapFlagsGiven(args);
}

/** What the heap holds outside the young generation, in MB (see the module's header). */
export function keptHeapMb(): number {
  let bytes = 0;
  for (const space of getHeapSpaceStatistics()) if (space.space_name !== 'new_space' && space.space_name !== 'new_large_object_space') bytes += space.space_used_size;
  return bytes / (1024 * 1024);
}

export interface HeapPolicy {
  /** The growing percent in force (0: V8's own choice). */
  readonly percent: () => number;
  /** Applies the policy to a full collection that kept `keptMb`. */
  readonly afterFullCollection: (keptMb: number) => void;
  readonly stop: () => void;
}

/**
 * Starts the policy for this process: `setFlags` is V8's (tests pass their own), `log` hears each
 * change. Process-wide, so only the server's entry point starts it.
 */
export function startHeapPolicy(options: { readonly setFlags?: (flags: string) => void; readonly log?: (message: string) => void; readonly observe?: boolean } = {}): HeapPolicy {
  const setFlags = options.setFlags ?? setFlagsFromString;
  let percent = fixedGrowingPercent;
  let before: number | undefined;
  setFlags(`--heap-growing-percent=${percent}`);
  const afterFullCollection = (keptMb: number): void => {
    const next = growingPercentFor(keptMb, before, percent);
    before = keptMb;
    if (next === percent) return;
    percent = next;
    setFlags(`--heap-growing-percent=${next}`);
    options.log?.(
      next === 0
        ? `darkprint: a full collection kept ${keptMb.toFixed(0)} MB; the heap now grows as V8 chooses`
        : `darkprint: a full collection kept ${keptMb.toFixed(0)} MB; the heap now grows by ${next}% between collections`,
    );
  };
  let observer: PerformanceObserver | undefined;
  if (options.observe !== false) {
    observer = new PerformanceObserver((list) => {
      const full = list.getEntries().some((entry) => (entry as { readonly detail?: { readonly kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR);
      if (full) afterFullCollection(keptHeapMb());
    });
    observer.observe({ entryTypes: ['gc'] });
  }
  return { percent: () => percent, afterFullCollection, stop: () => observer?.disconnect() };
}
