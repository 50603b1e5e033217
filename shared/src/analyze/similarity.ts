/**
 * Word 3-gram similarity between two specs (E§8 "Similarity"), used by the content half of the
 * criteria-leak check. A word is a maximal run of Unicode letters and digits, lowercased with
 * the locale-free `toLowerCase`. Shingles are the distinct runs of three consecutive words; a
 * text of one or two words has a single shingle made of all its words; an empty text has none.
 * Similarity is the Jaccard index of the two shingle sets, 0 when either set is empty.
 *
 * `findSimilarSpecs` is the bulk form the analyzer uses on large bundles: each text is cut into
 * shingles once, shingles are interned to integers, and an inverted index from shingle to
 * reference text means only pairs sharing at least one shingle are ever scored.
 */

/** The shingle width. */
export const shingleWidth = 3;

const wordSeparator = /[^\p{L}\p{N}]+/u;

/** The words of `text`: lowercased runs of letters and digits, in order. */
export function specWords(text: string): string[] {
  return text.toLowerCase().split(wordSeparator).filter((word) => word.length > 0);
}

/** The set of word shingles of `text`. */
export function shingles(text: string): Set<string> {
  return shinglesOfWords(specWords(text));
}

/** True when `text` has at least three words, so a score computed on it is evidence of shared prose. */
export function hasShingleEvidence(text: string): boolean {
  return specWords(text).length >= shingleWidth;
}

/** Jaccard index of the two texts' shingle sets, in [0, 1]. */
export function jaccardSimilarity(a: string, b: string): number {
  const left = shingles(a);
  const right = shingles(b);
  if (left.size === 0 || right.size === 0) return 0;
  const [small, large] = left.size <= right.size ? [left, right] : [right, left];
  let shared = 0;
  for (const shingle of small) if (large.has(shingle)) shared++;
  return shared / (left.size + right.size - shared);
}

export interface SimilarPair {
  /** Index into `subjects`. */
  readonly subject: number;
  /** Index into `references`. */
  readonly reference: number;
  readonly score: number;
}

/**
 * Every (subject, reference) pair whose texts both have at least three words and whose
 * similarity is strictly above `threshold`, in subject order then reference order. Scores are
 * computed with the same arithmetic as `jaccardSimilarity`, so the two always agree.
 */
export function findSimilarSpecs(subjects: readonly string[], references: readonly string[], threshold: number): SimilarPair[] {
  const intern = new Map<string, number>();
  const idsOf = (text: string): number[] | undefined => {
    const words = specWords(text);
    if (words.length < shingleWidth) return undefined;
    const ids: number[] = [];
    for (const shingle of shinglesOfWords(words)) {
      let id = intern.get(shingle);
      if (id === undefined) {
        id = intern.size;
        intern.set(shingle, id);
      }
      ids.push(id);
    }
    return ids;
  };

  // the inverted index: shingle id -> references holding it
  const referenceSizes = new Int32Array(references.length);
  const postings: number[][] = [];
  for (let r = 0; r < references.length; r++) {
    const ids = idsOf(references[r]);
    if (ids === undefined) {
      referenceSizes[r] = -1;
      continue;
    }
    referenceSizes[r] = ids.length;
    for (const id of ids) (postings[id] ??= []).push(r);
  }

  const shared = new Int32Array(references.length);
  const touched: number[] = [];
  const out: SimilarPair[] = [];
  for (let s = 0; s < subjects.length; s++) {
    const words = specWords(subjects[s]);
    if (words.length < shingleWidth) continue;
    const own = shinglesOfWords(words);
    for (const shingle of own) {
      const id = intern.get(shingle);
      if (id === undefined) continue;
      for (const r of postings[id] ?? []) {
        if (shared[r] === 0) touched.push(r);
        shared[r]++;
      }
    }
    const first = out.length;
    for (const r of touched) {
      const common = shared[r];
      const score = common / (own.size + referenceSizes[r] - common);
      if (score > threshold) out.push({ subject: s, reference: r, score });
      shared[r] = 0;
    }
    touched.length = 0;
    if (out.length - first > 1) {
      const hits = out.splice(first).sort((a, b) => a.reference - b.reference);
      for (const hit of hits) out.push(hit);
    }
  }
  return out;
}

function shinglesOfWords(words: readonly string[]): Set<string> {
  const out = new Set<string>();
  if (words.length === 0) return out;
  if (words.length < shingleWidth) {
    out.add(words.join(' '));
    return out;
  }
  for (let i = 0; i + shingleWidth <= words.length; i++) out.add(words.slice(i, i + shingleWidth).join(' '));
  return out;
}
