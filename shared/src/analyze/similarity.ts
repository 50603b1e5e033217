/**
 * Word 3-gram similarity between two specs (docs/compatibility.md#similarity), used by the content
 * half of the criteria-leak check. A word is a maximal run of Unicode letters and digits,
 * lowercased with the locale-free `toLowerCase`. Shingles are the distinct runs of three
 * consecutive words; a text of one or two words has a single shingle made of all its words; an
 * empty text has none. Similarity is the Jaccard index of the two shingle sets, 0 when either set
 * is empty.
 *
 * `findSimilarSpecs` is the bulk form the analyzer uses on large bundles: each text is cut into
 * shingles once, words and shingles are interned to integers (no shingle string is built), and a
 * prefix-filtered inverted index means only pairs that can pass the threshold are ever scored.
 * Given a memo, it also carries its work from one call to the next (the language server
 * re-analyses a bundle on every edit): only pairs involving a changed text are scored again.
 */
import { sameItems } from '../arrays';

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
 *
 * With a `memo` (`createSimilarityMemo`), successive calls share their work: words and
 * shingles keep their integer ids, each text's shingle set is cut once, and the pairs found
 * are kept by text, so a call scores only the pairs involving a subject or reference text the
 * previous call did not have (and a call with the same texts in the same order as the previous
 * one is answered at once). A score depends on the two texts alone, so the answer is the
 * same with or without the memo.
 */
export function findSimilarSpecs(subjects: readonly string[], references: readonly string[], threshold: number, memo?: SimilarityMemo): SimilarPair[] {
  if (memo !== undefined) return findWithMemo(subjects, references, threshold, memo);
  const table = createShingleTable(0);
  const sets = [...references, ...subjects].map((text) => shingleSetOf(text, table));
  return similarPairs(sets.slice(references.length), sets.slice(0, references.length), threshold, table.count);
}

/** What `findSimilarSpecs` reuses from one call to the next. Opaque: create it with `createSimilarityMemo`. */
export interface SimilarityMemo {
  table: ShingleTable;
  /** Shingle sets of the texts of the last call (undefined: fewer than three words). */
  sets: Map<string, Int32Array | undefined>;
  threshold: number;
  /** The reference texts that `hits` is complete for. */
  references: Set<string>;
  /** Per subject text: every reference text (of `references`) it scores above `threshold` with. */
  hits: Map<string, readonly (readonly [string, number])[]>;
  /** The last call's texts, in order, and its answer. */
  last?: { readonly subjects: readonly string[]; readonly references: readonly string[]; readonly pairs: readonly SimilarPair[] };
}

export function createSimilarityMemo(): SimilarityMemo {
  return { table: createShingleTable(0), sets: new Map(), threshold: Number.NaN, references: new Set(), hits: new Map() };
}

/** Beyond this many interned shingles, and four times those in use, the memo starts afresh. */
const memoShingleLimit = 200_000;

function findWithMemo(subjects: readonly string[], references: readonly string[], threshold: number, memo: SimilarityMemo): SimilarPair[] {
  if (!(memo.threshold === threshold)) {
    memo.threshold = threshold;
    memo.references = new Set();
    memo.hits = new Map();
    memo.last = undefined;
  }
  // the same texts in the same order as last time (an edit that changed no spec): the same answer
  const last = memo.last;
  if (last !== undefined && sameItems(last.subjects, subjects) && sameItems(last.references, references)) return last.pairs.slice();
  const pairs = searchWithMemo(subjects, references, threshold, memo);
  memo.last = { subjects: subjects.slice(), references: references.slice(), pairs: pairs.slice() };
  return pairs;
}

function searchWithMemo(subjects: readonly string[], references: readonly string[], threshold: number, memo: SimilarityMemo): SimilarPair[] {
  // the shingle sets of this call's texts, reusing the last call's
  let inUse = 0;
  const sets = new Map<string, Int32Array | undefined>();
  const setOf = (text: string): Int32Array | undefined => {
    if (sets.has(text)) return sets.get(text);
    const set = memo.sets.has(text) ? memo.sets.get(text) : shingleSetOf(text, memo.table);
    sets.set(text, set);
    inUse += set?.length ?? 0;
    return set;
  };
  const referenceTexts = new Set<string>();
  for (const text of references) if (setOf(text) !== undefined) referenceTexts.add(text);
  const subjectTexts = new Set<string>();
  for (const text of subjects) if (setOf(text) !== undefined) subjectTexts.add(text);
  if (memo.table.count > memoShingleLimit && memo.table.count > 4 * inUse) {
    // the table mostly holds shingles of texts long gone: start again with fresh ids
    const fresh = createSimilarityMemo();
    Object.assign(memo, fresh);
    memo.threshold = threshold;
    return searchWithMemo(subjects, references, threshold, memo);
  }
  memo.sets = sets;

  // forget subjects and references that are gone
  for (const text of [...memo.hits.keys()]) if (!subjectTexts.has(text)) memo.hits.delete(text);
  let removed = false;
  for (const text of memo.references) if (!referenceTexts.has(text)) removed = true;
  if (removed) {
    for (const [text, list] of memo.hits) {
      if (list.some(([reference]) => !referenceTexts.has(reference))) memo.hits.set(text, list.filter(([reference]) => referenceTexts.has(reference)));
    }
  }
  const added = [...referenceTexts].filter((text) => !memo.references.has(text));
  const known = [...subjectTexts].filter((text) => memo.hits.has(text));
  const fresh = [...subjectTexts].filter((text) => !memo.hits.has(text));
  const record = (subjectList: readonly string[], referenceList: readonly string[]): void => {
    const pairs = similarPairs(
      subjectList.map((text) => sets.get(text)),
      referenceList.map((text) => sets.get(text)),
      threshold,
      memo.table.count,
    );
    for (const pair of pairs) {
      const text = subjectList[pair.subject];
      const list = memo.hits.get(text) ?? [];
      memo.hits.set(text, [...list, [referenceList[pair.reference], pair.score]]);
    }
  };
  // the known subjects against the new references, then the new subjects against them all
  if (added.length > 0 && known.length > 0) record(known, added);
  for (const text of fresh) memo.hits.set(text, noHits);
  if (fresh.length > 0 && referenceTexts.size > 0) record(fresh, [...referenceTexts]);
  memo.references = referenceTexts;

  // the answer, in subject order then reference order
  let positions: Map<string, number[]> | undefined;
  const out: SimilarPair[] = [];
  const found: { reference: number; score: number }[] = [];
  subjects.forEach((text, subject) => {
    const list = memo.hits.get(text);
    if (list === undefined || list.length === 0) return;
    if (positions === undefined) {
      positions = new Map();
      references.forEach((reference, index) => {
        const at = positions!.get(reference);
        if (at === undefined) positions!.set(reference, [index]);
        else at.push(index);
      });
    }
    for (const [reference, score] of list) for (const index of positions.get(reference) ?? []) found.push({ reference: index, score });
    found.sort((a, b) => a.reference - b.reference);
    for (const hit of found) out.push({ subject, reference: hit.reference, score: hit.score });
    found.length = 0;
  });
  return out;
}

const noHits: readonly (readonly [string, number])[] = [];

/** The pairs of `findSimilarSpecs` over shingle sets already cut with one table (`count` ids). */
function similarPairs(
  subjectSets: readonly (Int32Array | undefined)[],
  referenceSets: readonly (Int32Array | undefined)[],
  threshold: number,
  count: number,
): SimilarPair[] {
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
  const postings = new Map<number, number[]>();
  referenceSets.forEach((set, r) => {
    if (set === undefined) return;
    for (const key of prefix(set)) {
      const id = key % idBits;
      const list = postings.get(id);
      if (list === undefined) postings.set(id, [r]);
      else list.push(r);
    }
  });

  const seen = new Int32Array(referenceSets.length).fill(-1);
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
        const holders = postings.get(key % idBits);
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
 * Word and shingle ids. Words are interned to integers, and a shingle, a triple of word ids, is
 * interned through an open-addressing hash table on typed arrays (grown as needed), so no
 * shingle string is ever built.
 */
interface ShingleTable {
  readonly words: Map<string, number>;
  first: Int32Array;
  second: Int32Array;
  third: Int32Array;
  slotId: Int32Array;
  /** Distinct shingles interned. */
  count: number;
}

function createShingleTable(expected: number): ShingleTable {
  let capacity = 16;
  while (capacity < expected * 2) capacity *= 2;
  return {
    words: new Map(),
    first: new Int32Array(capacity),
    second: new Int32Array(capacity),
    third: new Int32Array(capacity),
    slotId: new Int32Array(capacity).fill(-1),
    count: 0,
  };
}

/** The id of the shingle (a, b, c), interned when new. */
function shingleId(table: ShingleTable, a: number, b: number, c: number): number {
  if ((table.count + 1) * 2 > table.slotId.length) grow(table);
  const mask = table.slotId.length - 1;
  let slot = (Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77) ^ Math.imul(c, 0xc2b2ae3d)) & mask;
  for (;;) {
    const id = table.slotId[slot];
    if (id === -1) {
      table.first[slot] = a;
      table.second[slot] = b;
      table.third[slot] = c;
      table.slotId[slot] = table.count;
      return table.count++;
    }
    if (table.first[slot] === a && table.second[slot] === b && table.third[slot] === c) return id;
    slot = (slot + 1) & mask;
  }
}

function grow(table: ShingleTable): void {
  const { first, second, third, slotId } = table;
  const capacity = slotId.length * 2;
  const mask = capacity - 1;
  table.first = new Int32Array(capacity);
  table.second = new Int32Array(capacity);
  table.third = new Int32Array(capacity);
  table.slotId = new Int32Array(capacity).fill(-1);
  for (let old = 0; old < slotId.length; old++) {
    const id = slotId[old];
    if (id === -1) continue;
    const a = first[old];
    const b = second[old];
    const c = third[old];
    let slot = (Math.imul(a, 0x9e3779b1) ^ Math.imul(b, 0x85ebca77) ^ Math.imul(c, 0xc2b2ae3d)) & mask;
    while (table.slotId[slot] !== -1) slot = (slot + 1) & mask;
    table.first[slot] = a;
    table.second[slot] = b;
    table.third[slot] = c;
    table.slotId[slot] = id;
  }
}

/**
 * The distinct 3-word shingles of `text` as ascending ids of `table`, or undefined for a text of
 * fewer than three words. Same shingles as `shinglesOfWords` for texts of three words or more:
 * words hold no space, so joining them with one is the same as listing them.
 */
function shingleSetOf(text: string, table: ShingleTable): Int32Array | undefined {
  const words = specWords(text);
  if (words.length < shingleWidth) return undefined;
  const ids = new Int32Array(words.length);
  for (let i = 0; i < words.length; i++) {
    let id = table.words.get(words[i]);
    if (id === undefined) {
      id = table.words.size;
      table.words.set(words[i], id);
    }
    ids[i] = id;
  }
  const found = new Int32Array(ids.length - shingleWidth + 1);
  for (let i = 0; i < found.length; i++) found[i] = shingleId(table, ids[i], ids[i + 1], ids[i + 2]);
  found.sort();
  let distinct = 1;
  for (let i = 1; i < found.length; i++) if (found[i] !== found[distinct - 1]) found[distinct++] = found[i];
  return found.slice(0, distinct);
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
