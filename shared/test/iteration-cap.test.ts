import assert from 'node:assert/strict';
import type { JsonValue } from '../src/card/card-model';
import { findIterationCap, readIterationCap } from '../src/check/iteration-cap';

describe('iteration cap', () => {
  const table: [string, { [key: string]: JsonValue }, number | undefined, string?][] = [
    ['no key', {}, undefined],
    ['max_iterations', { max_iterations: 5 }, 5, 'max_iterations'],
    ['maxIterations', { maxIterations: 4 }, 4, 'maxIterations'],
    ['max_retries', { max_retries: 2 }, 2, 'max_retries'],
    ['zero is a cap', { max_retries: 0 }, 0, 'max_retries'],
    ['a numeric string counts', { max_iterations: ' 10 ' }, 10, 'max_iterations'],
    ['the first usable key wins, in order', { max_retries: 1, maxIterations: 2, max_iterations: 3 }, 3, 'max_iterations'],
    ['an unusable value does not stop the search', { max_iterations: -1, maxIterations: 2.5, max_retries: 7 }, 7, 'max_retries'],
    ['negative, fraction, blank, words, booleans, lists and null do not count', { max_iterations: -3, maxIterations: '', max_retries: 'many' }, undefined],
    ['other types do not count', { max_iterations: true, maxIterations: [3], max_retries: null }, undefined],
    ['a string that is not an integer does not count', { max_iterations: '2.5', max_retries: 'Infinity' }, undefined],
    ['a nested cap does not count', { loop: { max_iterations: 3 } }, undefined],
  ];
  for (const [name, params, value, key] of table) {
    it(name, () => {
      assert.equal(readIterationCap(params), value);
      assert.equal(findIterationCap(params)?.key, key);
    });
  }
  it('reads own keys only', () => {
    const inherited = Object.create({ max_iterations: 3 }) as { [key: string]: JsonValue };
    assert.equal(readIterationCap(inherited), undefined);
  });
});
