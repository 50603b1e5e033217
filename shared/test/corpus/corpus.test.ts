/**
 * The real-world corpus (../shared/corpus beside the repository, read in place, never copied):
 * every DarkPrint bundle loads without a crash; the complete ones show no error; and the
 * engine's digests and levels are compared with the site's published figures.
 * Without the corpus folder this suite says so and registers no test.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { readBundleFiles } from '../../src/cli';
import { loadBundle, type LoadResult } from '../../src/bundle/resolve';

export const corpusRoot = process.env.DARKPRINT_CORPUS ?? path.resolve(__dirname, '../../../../shared/corpus');
const bundlesRoot = path.join(corpusRoot, 'darkprint-bundles');

/** The bundles the corpus README lists as complete (every pinned card is present). */
const complete = new Set([
  'checkpoint-resume-runner',
  'grounded-research-desk',
  'guarded-merge-bot',
  'pipeline-observability',
  'producer-critic-refinery',
  'starter-software-factory',
]);

/**
 * Complete bundles whose files are the ones the site hashed: their blueprint digests must agree
 * byte for byte. (The other complete bundles' published digests were computed from a different
 * copy of their cards; their levels still agree.)
 */
const sameFilesAsSite = ['pipeline-observability', 'producer-critic-refinery'];

interface Published {
  slug: string;
  digest: string;
  autonomyClass: string;
  securityLevel: number;
}

if (!existsSync(bundlesRoot)) {
  console.log(`corpus: ${bundlesRoot} is absent, so the corpus suite has nothing to check (set DARKPRINT_CORPUS to its folder).`);
} else {
  const slugs = readdirSync(bundlesRoot, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const published = new Map(
    (JSON.parse(readFileSync(path.join(bundlesRoot, 'published-figures.json'), 'utf8')) as Published[]).map((p) => [p.slug, p]),
  );
  const results = new Map<string, LoadResult>();

  describe('real-world corpus', () => {
    before(async () => {
      for (const slug of slugs) {
        const dir = path.join(bundlesRoot, slug);
        results.set(slug, loadBundle(await readBundleFiles(dir), { folderName: slug }));
      }
    });

    it('holds the sixteen public bundles', () => {
      assert.equal(slugs.length, 16);
    });

    for (const slug of slugs) {
      it(`${slug} loads into a blueprint with an analysis`, () => {
        const r = results.get(slug)!;
        assert.ok(r.blueprint, 'the topology is a directed graph');
        assert.ok(r.analysis);
        for (const d of r.diagnostics) assert.ok(d.message.length > 0);
      });
      if (complete.has(slug)) {
        it(`${slug} (complete) reports no error`, () => {
          const errors = results.get(slug)!.diagnostics.filter((d) => d.severity === 'error');
          assert.deepEqual(errors.map((d) => `${d.location.file}: ${d.code}: ${d.message}`), []);
        });
      } else {
        it(`${slug} (incomplete) reports its absent cards as bundle/missing-card`, () => {
          const codes = new Set(results.get(slug)!.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code));
          assert.ok(codes.has('bundle/missing-card'));
        });
      }
    }

    it('compares digests and levels with the published figures', () => {
      const rows: string[] = [];
      let digestsEqual = 0;
      let securityEqual = 0;
      let autonomyEqual = 0;
      for (const slug of slugs) {
        const r = results.get(slug)!;
        const p = published.get(slug);
        if (!p || !r.blueprint || !r.analysis) continue;
        const d = r.blueprint.digest === p.digest;
        const s = r.analysis.security.level === p.securityLevel;
        const a = r.analysis.autonomy.autonomyClass === p.autonomyClass;
        digestsEqual += d ? 1 : 0;
        securityEqual += s ? 1 : 0;
        autonomyEqual += a ? 1 : 0;
        rows.push(
          `  ${slug.padEnd(28)} ${complete.has(slug) ? 'complete  ' : 'incomplete'} digest ${d ? 'same' : 'differs'}  security ${r.analysis.security.level}/${p.securityLevel}  autonomy ${r.analysis.autonomy.autonomyClass}/${p.autonomyClass}`,
        );
      }
      for (const slug of complete) {
        const r = results.get(slug)!;
        const p = published.get(slug)!;
        assert.equal(r.analysis!.security.level, p.securityLevel, `${slug}: security level`);
        assert.equal(r.analysis!.autonomy.autonomyClass, p.autonomyClass, `${slug}: autonomy class`);
      }
      for (const slug of sameFilesAsSite) assert.equal(results.get(slug)!.blueprint!.digest, published.get(slug)!.digest, `${slug}: digest`);
      console.log(`corpus vs published figures (ours/published):\n${rows.join('\n')}\n  digests equal ${digestsEqual}/${rows.length}, security equal ${securityEqual}/${rows.length}, autonomy equal ${autonomyEqual}/${rows.length}`);
      assert.equal(rows.length, published.size);
    });
  });
}
