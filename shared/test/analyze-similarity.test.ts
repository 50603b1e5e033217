import assert from 'node:assert/strict';
import { findSimilarSpecs, hasShingleEvidence, jaccardSimilarity, specWords } from '../src/analyze';

const scores: [string, string, number][] = [
  ['identical texts of three words or more', 'Write the parser and its tests.', 1],
  ['case and punctuation do not matter', 'Alpha, beta; GAMMA.', 1],
  ['short texts compare as a whole', 'Build it', 1],
  ['empty texts are not similar', '', 0],
  ['punctuation only is empty', ' ,.;! ', 0],
];
const pairs: [string, string, string, number][] = [
  ['case and punctuation', 'Alpha, beta; GAMMA.', 'alpha beta gamma', 1],
  ['a short text never matches a longer one', 'a b', 'a b c', 0],
  ['word order matters', 'one two three four', 'four three two one', 0],
  ['unicode letters are words', 'Città è bella oggi', 'CITTÀ È BELLA OGGI', 1],
  ['shared runs, Jaccard over 3-grams (7 of 20)', 'a1 b1 c1 d1 e1 f1 g1 h1 i1 x y z', 'a1 b1 c1 d1 e1 f1 g1 h1 i1 p q r s t u v w k l', 0.35],
  ['one shared 3-gram of five', 'red green blue one', 'red green blue two', 1 / 3],
];

describe('analysis: spec similarity', () => {
  for (const [name, text, score] of scores) {
    it(`self-similarity: ${name}`, () => assert.equal(jaccardSimilarity(text, text), score));
  }
  for (const [name, a, b, score] of pairs) {
    it(name, () => {
      assert.equal(jaccardSimilarity(a, b), score);
      assert.equal(jaccardSimilarity(b, a), score);
    });
  }
  it('splits words on anything that is not a letter or a digit', () => {
    assert.deepEqual(specWords("Don't STOP—now_1, ok?"), ['don', 't', 'stop', 'now', '1', 'ok']);
  });
  it('needs three words for evidence', () => {
    assert.equal(hasShingleEvidence('Build it.'), false);
    assert.equal(hasShingleEvidence('Build it now'), true);
    assert.equal(hasShingleEvidence("Don't stop"), true);
  });
  it('the indexed search finds exactly the pairs a pairwise comparison finds', () => {
    // a deterministic generator: texts drawn from a small vocabulary so many pairs share shingles
    let seed = 7;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648);
    const words = ['build', 'the', 'parser', 'test'];
    const text = (): string => Array.from({ length: 2 + (next() % 12) }, () => words[next() % words.length]).join(' ');
    const subjects = Array.from({ length: 40 }, text);
    const references = Array.from({ length: 30 }, text);
    for (const threshold of [0, 0.1, 0.35, 0.5]) {
      const expected: { subject: number; reference: number; score: number }[] = [];
      subjects.forEach((s, i) =>
        references.forEach((r, j) => {
          if (!hasShingleEvidence(s) || !hasShingleEvidence(r)) return;
          const score = jaccardSimilarity(s, r);
          if (score > threshold) expected.push({ subject: i, reference: j, score });
        }),
      );
      assert.deepEqual(findSimilarSpecs(subjects, references, threshold), expected, `threshold ${threshold}`);
      assert.ok(expected.length > 0, 'the generator should produce some hits');
    }
  });
});
