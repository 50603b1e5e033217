/**
 * A new bundle (the editor's "New Bundle…"): whatever its title, it validates with no error and
 * no warning (no finding at all), its manifest carries the title, and its topology joins its two
 * cards by an edge that carries a type.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { loadBundle, newBundleFiles } from '../src/bundle';

const titles: readonly { readonly title: string; readonly slug: string; readonly shown: string }[] = [
  { title: 'Release notes line', slug: 'release-notes-line', shown: 'Release notes line' },
  { title: '  2024 plan:   Q1 ', slug: '2024-plan-q1', shown: '2024 plan: Q1' },
  { title: '', slug: 'new-blueprint', shown: 'New blueprint' },
  { title: 'Ünïcode — “quotes” # and a tab\t!', slug: 'n-code-quotes-and-a-tab', shown: 'Ünïcode — “quotes” # and a tab !' },
];

describe('bundle: a new bundle', () => {
  for (const c of titles) {
    it(`titled ${JSON.stringify(c.title)}: no finding, the title in its manifest`, () => {
      const result = loadBundle(newBundleFiles(c.title), { folderName: 'anywhere' });
      assert.deepEqual(result.diagnostics.map((d) => `${d.severity} ${d.code}: ${d.message}`), []);
      assert.equal(result.blueprint?.manifest.slug, c.slug);
      assert.equal(result.blueprint?.manifest.title, c.shown);
      assert.deepEqual(result.blueprint?.edges.map((e) => `${e.source} -> ${e.target}: ${e.pair?.output.type ?? 'nothing'}`), ['drafter -> reviewer: markdown']);
    });
  }

  it('any title gives a bundle with no finding', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), (title) => {
        const result = loadBundle(newBundleFiles(title), { folderName: 'anywhere' });
        assert.deepEqual(result.diagnostics.map((d) => `${d.code}: ${d.message}`), []);
      }),
      { numRuns: 200, seed: 20_260_104 },
    );
  });
});
