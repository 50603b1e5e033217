/**
 * Arrays built for V8's optimised code, and compared. Must not know: anything of the engine's model.
 *
 * `Array.prototype.map` hands back a packed array while its caller runs in the interpreter and
 * a holey one once the caller is optimised (TurboFan allocates the result with holes, then fills
 * it). An array the engine keeps from one edit to the next (findings, spec lists, suppliers)
 * then shows the code reading it a second shape about twenty edits into a session, and that
 * code loses its optimised form ("wrong map" in `--trace-deopt`), sometimes on every edit after
 * (a deopt loop: an optimised callee never records the new shape for its inlining caller).
 * `mapped` always builds by `push`, so its arrays keep one shape. The edit path uses it where
 * `--trace-deopt` showed a kept array change shape (`.map` stays elsewhere: in a loop over every
 * node, V8 inlines the builtin's callback, which a shared helper's call site cannot match).
 */

/** `list.map(f)` as a packed array, whatever tier the caller runs in. */
export function mapped<T, U>(list: readonly T[], f: (item: T, index: number) => U): U[] {
  const out: U[] = [];
  for (let i = 0; i < list.length; i++) out.push(f(list[i], i));
  return out;
}

/** True when both lists hold the same items (`===`) in the same order. */
export function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
