/**
 * The memo layer: how one load of a bundle reuses what the last load computed, for `loadBundle`
 * (./bundle/resolve.ts), the Attractor lint (./check/attractor-lint.ts) and the analysis
 * (./analyze/analyze.ts). It sits on the engine's lowest row so that each of them may import it.
 * Must not know: the bundle model, the rules, the language server.
 *
 * Two forms, one rule: a computation declares its inputs, the declared inputs alone decide
 * whether the kept result stands, and the computation receives exactly those inputs.
 *
 * - `stage(slot, inputs, compute)`, the coarse form: one result per load (the vocabulary, the
 *   manifest, the topology's parse and lint, the cards, …). While the inputs are those of the
 *   last computation (each compared with `Object.is`: objects by identity, strings by value),
 *   the kept output comes back and `compute` does not run; else `compute(inputs, last)` runs and
 *   is kept with its inputs. Without a slot (a one-shot load, as the command's) it just computes.
 * - `perItem(items, index, item, a, b, rule, context)`, the per-item form: one result per item
 *   of a list (a node, an edge), kept by index. The item's result stands while its declared
 *   inputs (the card entries of an edge's endpoints, say) are the same (`===`); else
 *   `rule(item, [a, b], context)` runs and is kept. `perItemOver` is the same for an item whose
 *   inputs are one value and then a lookup per key (a node's entry, then its predecessors').
 *   The index stands for the same item from one load to the next: either the kept results belong
 *   to one parse of the topology, and across an edit of the topology resolution moves them to the
 *   new parse's items that read the same (`carryOver` in ./bundle/resolve.ts, comparing every attribute
 *   the rules may read), or the item is among the declared inputs.
 * - `stage(slot, list, itself)` makes a list built anew on every load (the card entries the nodes
 *   pin) an input that compares by identity: the kept list comes back while it holds the same items.
 * - `perKey(kept, key, b, rule, context)`, the keyed form: one result per long-lived object (a
 *   card), kept by the object itself rather than by index, while its second input (the
 *   vocabulary) is the same.
 *
 * What it guarantees: with the inputs declared in full, a load with a memo gives what a load
 * without one gives (shared/test/incremental-load.test.ts compares them after random edits). A
 * computation cannot read what it did not declare by way of this layer: it gets its inputs, the
 * item, the stage's context, and for a coarse stage the last computation (`Kept`) to build on,
 * never the memo. Slots and kept records have one shape from their creation (every key present,
 * in one order), which keeps the loader's optimised code on one object shape (docs/architecture.md,
 * the edit path's speed rules).
 *
 * What it does not do, on purpose: how a computation builds on the last one is its own affair,
 * not this layer's. The parser's resume after the statements two texts share (./syntax/dot-resume.ts),
 * the cards patched rather than read again, the findings' sort that merges rather than sorts
 * (./diagnostics/sort.ts), the alignment of one parse's nodes and edges with the next (`carryOver`,
 * and the lint's `carriedFacts`), the analysis' component-by-component security reading and its
 * moving of warnings, the criteria-leak similarity search (./analyze/similarity.ts), and the
 * language server's reuse of what it publishes stay with their algorithms: their correctness is
 * theirs, checked by their own tests and by the oracle. Such an algorithm may still keep its
 * state in a slot and build on `last` there, receiving what it builds on as arguments.
 * Nor does it check that a declaration is complete: a rule that reads a value it did not declare
 * (through a closure, or through a mutable object whose contents change while it stays the same)
 * breaks the guarantee, and only the oracle tells. Declare the values a rule reads, or an
 * immutable value that holds them and is replaced whenever they change.
 */

/** A computation as kept: the inputs it was given and what it gave. */
export interface Kept<I extends readonly unknown[], O> {
  readonly inputs: I;
  readonly output: O;
}

/**
 * A coarse stage's place in a memo: empty (both `undefined`) until its first computation, then
 * that of its last one. Made by `slot()` only, so that every slot has one shape.
 */
export interface Slot<I extends readonly unknown[], O> {
  inputs: I | undefined;
  output: O | undefined;
}

/** An empty slot. */
export function slot<I extends readonly unknown[], O>(): Slot<I, O> {
  // (the keys of `Kept`, in its order: a slot and a kept record are one object shape)
  return { inputs: undefined, output: undefined };
}

/**
 * The output of a stage for `inputs`: the kept one when they are the inputs of the last
 * computation, else `compute(inputs, last)` (`last` the last computation, when there was one, for
 * the stage to build on), kept with them. Without a slot, `compute(inputs, undefined)`.
 */
export function stage<I extends readonly unknown[], O>(
  slot: Slot<I, O> | undefined,
  inputs: I,
  compute: (inputs: I, last: Kept<I, O> | undefined) => O,
): O {
  if (slot === undefined) return compute(inputs, undefined);
  const kept = slot.inputs;
  if (kept !== undefined && sameInputs(kept, inputs)) return slot.output as O;
  const output = compute(inputs, kept === undefined ? undefined : (slot as Kept<I, O>));
  slot.inputs = inputs;
  slot.output = output;
  return output;
}

/**
 * The kept results of a per-item stage, by item index (see `perItem`). Arrays rather than
 * WeakMaps: young weak keys make every minor garbage collection slower.
 */
export type Items<I extends readonly unknown[], O> = (Kept<I, O> | undefined)[];

/**
 * The result for item `index`, whose declared inputs are `a` and `b` (`undefined` for an input
 * not used): the kept one when it was computed from the same two, else `rule(item, [a, b], context)`,
 * kept with them. `item` must be the item the index held when the result was kept (see the
 * header); `context` holds what every item's rule reads alike and what, when it changes, starts
 * the items anew (a vocabulary, a file name). Without `items`, just the rule.
 *
 * Per-item inputs are objects or `undefined`, compared with `===` (a string would do, but would
 * make every site's comparison the slow generic one), and they are passed one by one, not as a
 * list: the edit path runs this thousands of times per load, and an item whose result stands
 * allocates nothing.
 */
export function perItem<T, C, A, B, O>(
  items: Items<readonly [A, B], O> | undefined,
  index: number,
  item: T,
  a: A,
  b: B,
  rule: (item: T, inputs: readonly [A, B], context: C) => O,
  context: C,
): O {
  if (items !== undefined && index < items.length) {
    const kept = items[index];
    if (kept !== undefined && kept.inputs[0] === a && kept.inputs[1] === b) return kept.output;
  }
  const inputs: readonly [A, B] = [a, b];
  const output = rule(item, inputs, context);
  if (items !== undefined) items[index] = { inputs, output };
  return output;
}

/**
 * `perItem` for an item whose declared inputs are `first`, then `lookup(key)` for each of `keys`
 * in order (a node's card entry, then its predecessors' entries): compared where they are looked
 * up, so that an item whose result stands allocates nothing.
 */
export function perItemOver<T, C, A, B, O>(
  items: Items<readonly [A, ...B[]], O> | undefined,
  index: number,
  item: T,
  first: A,
  keys: readonly number[],
  lookup: (key: number) => B,
  rule: (item: T, inputs: readonly [A, ...B[]], context: C) => O,
  context: C,
): O {
  if (items !== undefined && index < items.length) {
    const kept = items[index];
    if (kept !== undefined && sameLookups(kept.inputs, first, keys, lookup)) return kept.output;
  }
  // (grown by `push`: a kept array, see ./arrays.ts)
  const inputs: [A, ...B[]] = [first];
  for (let k = 0; k < keys.length; k++) inputs.push(lookup(keys[k]));
  const output = rule(item, inputs, context);
  if (items !== undefined) items[index] = { inputs, output };
  return output;
}

/** True when `kept` is `first`, then `lookup(key)` for each of `keys`. */
function sameLookups<A, B>(kept: readonly [A, ...B[]], first: A, keys: readonly number[], lookup: (key: number) => B): boolean {
  if (kept.length !== keys.length + 1 || kept[0] !== first) return false;
  for (let k = 0; k < keys.length; k++) if (kept[k + 1] !== lookup(keys[k])) return false;
  return true;
}

/** The identity, as a stage's computation: `stage(slot, list, itself)` gives back the kept list while `list` holds the same items in the same order. */
export function itself<T extends readonly unknown[]>(list: T): T {
  return list;
}

/** True when both lists of inputs hold the same values (`Object.is`) in the same order. */
function sameInputs(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

/**
 * The kept results of a keyed stage (see `perKey`): by the item object itself, which is its first
 * declared input. A WeakMap, unlike `Items`: for long-lived items (a bundle's cards) that may sit
 * at another index from one load to the next, and whose results should go when they do.
 */
export type Keyed<K extends object, B, O> = WeakMap<K, Kept<readonly [K, B], O>>;

/**
 * The result for the item `key`, whose declared inputs are the item itself and `b` (compared with
 * `===`): the kept one when it was computed for the same `b`, else `rule([key, b], context)`,
 * kept with them. `context` holds what every item's rule reads alike and that does not decide
 * its result (a table of answers that are the same whoever asks). Without `kept`, just the rule.
 */
export function perKey<K extends object, B, C, O>(
  kept: Keyed<K, B, O> | undefined,
  key: K,
  b: B,
  rule: (inputs: readonly [K, B], context: C) => O,
  context: C,
): O {
  if (kept !== undefined) {
    const found = kept.get(key);
    if (found !== undefined && found.inputs[1] === b) return found.output;
  }
  const inputs: readonly [K, B] = [key, b];
  const output = rule(inputs, context);
  if (kept !== undefined) kept.set(key, { inputs, output });
  return output;
}
