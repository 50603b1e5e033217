/**
 * Word 3-gram similarity between two specs (E§8 "Similarity"), used by the content half of the
 * criteria-leak check. A word is a maximal run of Unicode letters and digits, lowercased with
 * the locale-free `toLowerCase`. Shingles are the distinct runs of three consecutive words; a
 * text of one or two words has a single shingle made of all its words; an empty text has none.
 * Similarity is the Jaccard index of the two shingle sets, 0 when either set is empty.
 *
 * `findSimilarSpecs` is the bulk form the analyzer uses on large bundles: each text is cut into
 * shingles once, words and shingles are interned to integers (no shingle string is built), and a
 * prefix-filtered inverted index means only pairs that can pass the threshold are ever scored.
 */

/** The shingle width. */
export const shingleWidth = 3;

const wordSeparator = /[^\p{L}\p{N}]+/u;

/** The words of `text`: lowercased runs of letters and digits, in order. */
export function specWords(text: string): string[] {
  const lower = text.toLowerCase();
  // ASCII text (nearly every spec) is cut by a scan; anything else by the Unicode-aware pattern
  const words: string[] = [];
  let start = -1;
  for (let i = 0; i < lower.length; i++) {
    const c = lower.charCodeAt(i);
    if (c >= 128) return lower.split(wordSeparator).filter((word) => word.length > 0);
    const wordy = (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90);
    if (wordy) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      words.push(lower.slice(start, i));
      start = -1;
    }
  }
  if (start >= 0) words.push(lower.slice(start));
  return words;
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
 *
 * Specs share stock phrases ("the test report", a house closing sentence), so an index of every
 * shingle would still pair most subjects with most references. This is a set-similarity join
 * with prefix filtering instead: shingles are ordered rarest first (by how many references hold
 * them), and a pair can only reach a Jaccard index of `t` when the first
 * `size − ⌈t · size⌉ + 1` shingles of each side share one. Only those prefixes are indexed and
 * probed; each candidate pair found that way is then scored exactly on the full sets.
 */
export function findSimilarSpecs(subjects: readonly string[], references: readonly string[], threshold: number): SimilarPair[] {
  const { sets, count } = shingleSets([...references, ...subjects]);
  const referenceSets = sets.slice(0, references.length);
  const subjectSets = sets.slice(references.length);

  // the global order: rarer among the references first, ties by id
  const frequency = new Int32Array(count);
  for (const set of referenceSets) if (set !== undefined) for (const id of set) frequency[id]++;
  // sorted natively as numbers: frequency in the high bits, id in the low 32
  const idBits = 2 ** 32;
  const prefix = (set: Int32Array): Float64Array => {
    const keys = new Float64Array(set.length);
    for (let i = 0; i < set.length; i++) keys[i] = frequency[set[i]] * idBits + set[i];
    keys.sort();
    const length = Math.min(set.length, set.length - Math.ceil(threshold * set.length - 1e-9) + 1);
    return keys.subarray(0, Math.max(1, length));
  };

  // the inverted index over reference prefixes: shingle id -> references
  const postings: (number[] | undefined)[] = new Array<number[] | undefined>(count);
  referenceSets.forEach((set, r) => {
    if (set === undefined) return;
    for (const key of prefix(set)) {
      const id = key % idBits;
      const list = postings[id];
      if (list === undefined) postings[id] = [r];
      else list.push(r);
    }
  });

  const seen = new Int32Array(references.length).fill(-1);
  const candidates: number[] = [];
  const out: SimilarPair[] = [];
  // below zero even pairs sharing nothing pass: every pair is a candidate
  const everyPair = threshold < 0;
  subjectSets.forEach((own, s) => {
    if (own === undefined) return;
    if (everyPair) {
      referenceSets.forEach((set, r) => {
        if (set !== undefined) candidates.push(r);
      });
    } else {
      for (const key of prefix(own)) {
        const holders = postings[key % idBits];
        if (holders === undefined) continue;
        for (const r of holders) {
          if (seen[r] === s) continue;
          seen[r] = s;
          candidates.push(r);
        }
      }
      candidates.sort((a, b) => a - b);
    }
    for (const r of candidates) {
      const other = referenceSets[r] as Int32Array;
      const common = sharedCount(own, other);
      const score = common / (own.length + other.length - common);
      if (score > threshold) out.push({ subject: s, reference: r, score });
    }
    candidates.length = 0;
  });
  return out;
}

/** How many ids two ascending lists of distinct ids share. */
function sharedCount(a: Int32Array, b: Int32Array): number {
  let i = 0;
  let j = 0;
  let common = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      common++;
      i++;
      j++;
    } else if (a[i] < b[j]) i++;
    else j++;
  }
  return common;
}

/**
 * The distinct 3-word shingles of each text, as ascending integer ids shared by all the texts
 * (undefined for a text of fewer than three words), and how many distinct shingles there are.
 * Words are interned to integers, and a shingle, a triple of word ids, is interned through an
 * open-addressing hash table on typed arrays, so no shingle string is ever built. Same
 * shingles as `shinglesOfWords` for texts of three words or more: words hold no space, so
 * joining them with one is the same as listing them.
 */
function shingleSets(texts: readonly string[]): { sets: (Int32Array | undefined)[]; count: number } {
  const wordIds = new Map<string, number>();
  const wordLists: (Int32Array | undefined)[] = [];
  let positions = 0;
  for (const text of texts) {
    const words = specWords(text);
    if (words.length < shingleWidth) {
      wordLists.push(undefined);
      continue;
    }
    const ids = new Int32Array(words.length);
    for (let i = 0; i < words.length; i++) {
      let id = wordIds.get(words[i]);
      if (id === undefined) {
        id = wordIds.size;
        wordIds.set(words[i], id);
      }
      ids[i] = id;
    }
    wordLists.push(ids);
    positions += words.length - shingleWidth + 1;
  }

  let capacity = 16;
  while (capacity < positions * 2) capacity *= 2;
  const mask = capacity - 1;
  const first = new Int32Array(capacity);
  const second = new Int32Array(capacity);
  const third = new Int32Array(capacity);
  const slotId = new Int32Array(capacity).fill(-1);
  let count = 0;
  const sets = wordLists.map((ids) => {
    if (ids === undefined) return undefined;
    const found = new Int32Array(ids.length - shingleWidth + 1);
    for (let i = 0; i < found.length; i++) {
      const a = ids[i];
      const b = ids[i + 1];
      const c = ids[i + 2];
      let slot = (Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77) ^ Math.imul(c, 0xc2b2ae3d)) & mask;
      for (;;) {
        const id = slotId[slot];
        if (id === -1) {
          first[slot] = a;
          second[slot] = b;
          third[slot] = c;
          slotId[slot] = count;
          found[i] = count++;
          break;
        }
        if (first[slot] === a && second[slot] === b && third[slot] === c) {
          found[i] = id;
          break;
        }
        slot = (slot + 1) & mask;
      }
    }
    found.sort();
    let distinct = 1;
    for (let i = 1; i < found.length; i++) if (found[i] !== found[distinct - 1]) found[distinct++] = found[i];
    return found.subarray(0, distinct);
  });
  return { sets, count };
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
