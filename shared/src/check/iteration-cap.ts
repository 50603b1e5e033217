/**
 * The iteration cap a card declares (docs/compatibility.md#iteration-cap). One reader, shared by
 * the unbounded-loop analysis and the Attractor export (`max_retries`), so the two never disagree.
 *
 * Only top-level own keys of `params` count, tried in `iterationCapKeys` order; the first key
 * holding a usable value wins and an unusable value does not stop the search. Usable: an
 * integer number >= 0, or a string whose trimmed text is not empty and converts with
 * `Number()` to an integer >= 0. Zero is a cap (the tightest one).
 */
import type { JsonValue } from '../card/card-model';

export const iterationCapKeys: readonly string[] = Object.freeze(['max_iterations', 'maxIterations', 'max_retries']);

export interface IterationCap {
  /** The params key the cap was read from. */
  readonly key: string;
  readonly value: number;
}

/** The cap and the key it came from, or undefined when the params declare none. */
export function findIterationCap(params: { readonly [key: string]: JsonValue }): IterationCap | undefined {
  for (const key of iterationCapKeys) {
    if (!Object.prototype.hasOwnProperty.call(params, key)) continue;
    const value = capValue(params[key]);
    if (value !== undefined) return { key, value };
  }
  return undefined;
}

/** The cap alone, or undefined. */
export function readIterationCap(params: { readonly [key: string]: JsonValue }): number | undefined {
  return findIterationCap(params)?.value;
}

function capValue(value: JsonValue | undefined): number | undefined {
  let number: number;
  if (typeof value === 'number') number = value;
  else if (typeof value === 'string' && value.trim() !== '') number = Number(value.trim());
  else return undefined;
  // Number.isInteger rejects NaN and the infinities; -0 reads as 0.
  return Number.isInteger(number) && number >= 0 ? number + 0 : undefined;
}
