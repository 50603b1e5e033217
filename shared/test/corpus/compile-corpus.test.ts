/**
 * Export and import against the real corpus (../shared/corpus, read in place), as DarkPrint's
 * own round-trip test does (docs/compatibility.md#round-trip):
 * - every public bundle: export -> import -> export is byte-identical except the digest line,
 *   node types and phases survive, and the export conforms; a bundle without errors passes the
 *   command's gate, and one whose pinned cards are absent does not;
 * - the twelve foreign Attractor pipelines: what a round trip loses, read with the independent
 *   conformance reader, is exactly the declared losses, and nothing else.
 * Without the corpus folder this suite says so and registers no test.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { readBundleFiles } from '../../src/cli';
import { loadBundle } from '../../src/bundle/resolve';
import { hasErrors } from '../../src/diagnostics';
import { coreVocabulary } from '../../src/vocabulary';
import {
  attractorClasses,
  emitAttractor,
  exportAttractor,
  importAttractor,
  importedBundleFiles,
  isStorable,
  typeChain,
  unexpressedAttributes,
  type ImportResult,
} from '../../src/compile';
import { checkAttractorConformance } from '../support/attractor-conformance';
import { diffHalves, readHalf } from '../support/attractor-half';
import { assertConformant, assertSameButDigest } from '../support/export-fixtures';

const corpusRoot = process.env.DARKPRINT_CORPUS ?? path.resolve(__dirname, '../../../../shared/corpus');
const bundlesRoot = path.join(corpusRoot, 'darkprint-bundles');
const pipelinesRoot = path.join(corpusRoot, 'attractor-pipelines');

const complete = new Set([
  'checkpoint-resume-runner',
  'grounded-research-desk',
  'guarded-merge-bot',
  'pipeline-observability',
  'producer-critic-refinery',
  'starter-software-factory',
]);

/** What a round trip of each foreign pipeline may lose, as DarkPrint's test declares it; every other file loses nothing. */
const declaredLosses = new Map<string, string[]>([
  ['minimal.dot', ['added on graph `label`: "minimal"']],
  ['supervisor-loop.dot', ['dropped on edge `supervise -> <exit>` `condition`: "outcome=success"']],
  ['no-prompt.dot', ['changed on node `sign_off` `label`: "Sign off" -> "sign_off"', 'changed on node `sign_off` `shape`: "hexagon" -> "box"']],
]);

const author = 'corpus-runner';

function importFile(name: string, text: string): ImportResult {
  return importAttractor(text, { author, origin: name });
}

/** Import, load, emit: the compiled text, whatever the draft's own findings. */
function roundTrip(imported: ImportResult): { text: string; result: ReturnType<typeof loadBundle> } {
  const result = loadBundle(importedBundleFiles(imported), { folderName: imported.manifest.slug });
  assert.ok(result.blueprint, 'the imported topology is a directed graph');
  return { text: emitAttractor(result.blueprint), result };
}

if (!existsSync(bundlesRoot) || !existsSync(pipelinesRoot)) {
  console.log(`compile corpus: ${corpusRoot} is absent, so the export/import corpus suite has nothing to check (set DARKPRINT_CORPUS to its folder).`);
} else {
  const slugs = readdirSync(bundlesRoot, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  const pipelines = readdirSync(pipelinesRoot)
    .filter((f) => f.endsWith('.dot'))
    .sort();

  describe('compile: real bundles (export -> import -> export)', () => {
    it('covers the sixteen public bundles', () => assert.equal(slugs.length, 16));

    for (const slug of slugs) {
      it(`${slug}: byte-identical but for the digest; types and phases survive; conforms`, async () => {
        const loaded = loadBundle(await readBundleFiles(path.join(bundlesRoot, slug)), { folderName: slug });
        assert.ok(loaded.blueprint);
        const outcome = exportAttractor(loaded);
        // the command compiles a bundle without errors, and refuses one whose pinned cards are absent
        if (!hasErrors(loaded.diagnostics)) assert.ok(outcome.ok, outcome.ok ? '' : outcome.reasons.join(' '));
        if (!complete.has(slug)) assert.ok(!outcome.ok && outcome.cardless.length > 0, `${slug} lacks cards, so the command refuses it`);
        const first = emitAttractor(loaded.blueprint);
        if (outcome.ok) assert.equal(outcome.text, first);
        assertConformant(first);
        const imported = importFile(`${slug}.dot`, first);
        const again = roundTrip(imported);
        assertSameButDigest(first, again.text);
        for (const node of loaded.blueprint.nodes) {
          const card = node.entry?.card;
          const back = again.result.blueprint!.nodeById.get(node.id)?.entry?.card;
          if (!card) {
            assert.equal(back, undefined, `${node.id} had no card and gets none`);
            continue;
          }
          assert.ok(back, `${node.id} comes home with a card`);
          assert.equal(back.type, card.type, `${node.id} type`);
          assert.deepEqual(back.phases, card.phases, `${node.id} phases`);
          assert.equal(`${back.id}@${back.version}`, node.entry!.ref);
        }
      });
    }
  });

  describe('compile: foreign Attractor pipelines (import -> export)', () => {
    it('covers the twelve pipelines', () => assert.equal(pipelines.length, 12));

    for (const name of pipelines) {
      it(`${name}: loses exactly its declared losses (${(declaredLosses.get(name) ?? []).length})`, () => {
        const source = readFileSync(path.join(pipelinesRoot, name), 'utf8');
        const imported = importFile(name, source);
        assert.ok(imported.readable);
        const { text, result } = roundTrip(imported);
        const before = readHalf(source);
        const after = readHalf(text);
        assert.ok(before.nodes.size > 0, 'the pipeline has work nodes');
        assert.equal(after.nodes.size, before.nodes.size, 'every work node comes back');

        // a node's class may be added or changed only to what the exporter derives from its imported card
        const blueprint = result.blueprint!;
        const losses: string[] = [];
        for (const line of diffHalves(before, after)) {
          const classChange = /^(?:added|changed) on node `([^`]+)` `class`/.exec(line);
          if (classChange) {
            const card = blueprint.nodeById.get(classChange[1])?.entry?.card;
            assert.ok(card, `${classChange[1]} has a card`);
            const expected = attractorClasses(card, typeChain(card.type, blueprint.vocabulary)).join(',');
            assert.equal(after.nodes.get(classChange[1])?.get('class'), expected, line);
            continue;
          }
          losses.push(line);
        }
        assert.deepEqual(losses.sort(), [...(declaredLosses.get(name) ?? [])].sort());

        // the re-export is clean: it parses, DarkPrint's lint finds nothing, and it conforms
        assertConformant(text);
      });
    }

    const read = (name: string): string => readFileSync(path.join(pipelinesRoot, name), 'utf8');

    it('runner-only.dot: every runner-only name in the source is absent from the re-export, and no node has `type`', () => {
      const source = read('runner-only.dot');
      const sourceGraph = checkAttractorConformance(source, { lenient: true }).graph!;
      const { text } = roundTrip(importFile('runner-only.dot', source));
      const outGraph = checkAttractorConformance(text).graph!;
      const present: string[] = [];
      for (const name of unexpressedAttributes('graph')) if (sourceGraph.attrs.has(name)) present.push(`graph ${name}`);
      for (const n of sourceGraph.nodes.values()) for (const name of [...unexpressedAttributes('node'), 'type']) if (n.attrs.has(name)) present.push(`node ${name}`);
      for (const e of sourceGraph.edges) for (const name of unexpressedAttributes('edge')) if (e.attrs.has(name)) present.push(`edge ${name}`);
      assert.ok(present.length >= 20, `the source sets ${present.length} runner-only names`);
      assert.match(source, /type="codergen"/);
      for (const entry of present) {
        const [scope, name] = entry.split(' ');
        if (scope === 'graph') assert.ok(!outGraph.attrs.has(name), entry);
        if (scope === 'node') for (const n of outGraph.nodes.values()) assert.ok(!n.attrs.has(name), entry);
        if (scope === 'edge') for (const e of outGraph.edges) assert.ok(!e.attrs.has(name), entry);
      }
      for (const n of outGraph.nodes.values()) assert.ok(!n.attrs.has('type'), n.id);
    });

    it('subgraph-classes.dot: the grouping does not survive, and no class comes from a subgraph label', () => {
      const source = read('subgraph-classes.dot');
      assert.match(source, /subgraph cluster_writing/);
      const imported = importFile('subgraph-classes.dot', source);
      const { text } = roundTrip(imported);
      assert.ok(!/\bsubgraph\b/.test(text) && !/\bsubgraph\b/.test(imported.dot));
      assert.deepEqual(imported.cards.map((c) => c.nodeId).sort(), ['draft', 'facts', 'outline']);
      assert.ok(!text.includes('dp-writing'));
      assert.equal(checkAttractorConformance(text).graph!.hasSubgraph, false);
    });

    it('human-gates.dot: both hexagons come home as human-gate; a dp-human-input class picks human-input', () => {
      const imported = importFile('human-gates.dot', read('human-gates.dot'));
      const types = new Map(imported.cards.map((c) => [c.nodeId, c.card.type]));
      assert.equal(types.get('approve'), 'human-gate');
      assert.equal(types.get('collect'), 'human-gate');
      const inline = importFile('inline.dot', 'digraph g { ask [label="Ask", shape=hexagon, prompt="Ask a person.", class="dp-human-input"]; }');
      assert.equal(inline.cards[0].card.type, 'human-input');
    });

    it('conditional-routing.dot: drafts record author, provenance and version; the draft has errors yet is storable', () => {
      const imported = importFile('conditional-routing.dot', read('conditional-routing.dot'));
      for (const c of imported.cards) {
        assert.equal(c.card.author, author);
        assert.equal(c.card.provenance, 'derived:attractor conditional-routing.dot');
        assert.equal(c.card.version, '0.1.0');
      }
      assert.equal(imported.cards.find((c) => c.nodeId === 'classify')?.card.spec, 'Read the ticket and score your confidence between 0 and 1.');
      const loaded = loadBundle(importedBundleFiles(imported), { folderName: 'conditional-routing' });
      assert.ok(hasErrors(loaded.diagnostics));
      assert.ok(isStorable(loaded.diagnostics));
    });

    it('a blank author is refused', () => {
      assert.throws(() => importAttractor(read('minimal.dot'), { author: '  ', origin: 'minimal.dot' }), /author/);
    });

    it('the instrument sees planted changes, and only in the Attractor half (minimal.dot)', () => {
      const source = read('minimal.dot');
      const base = readHalf(source);
      const planted = source
        .replace('goal="Answer one question and stop."', 'goal="Answer two questions."')
        .replace('[label="Answer",', '[label="Reply",')
        .replace('start -> answer;', 'start -> answer [label="go"];');
      assert.deepEqual(diffHalves(base, readHalf(planted)).map((l) => l.replace(/:.*$/, '')).sort(), [
        'added on edge `<start> -> answer` `label`',
        'changed on graph `goal`',
        'changed on node `answer` `label`',
      ]);
      const invisible = source.replace('prompt="Read', 'card="x@1.0.0", dp_node="other", prompt="Read');
      assert.deepEqual(diffHalves(base, readHalf(invisible)), []);
      const renamed = source.replace(/\banswer\b(?=\s*(\[|->|;))/g, 'reply');
      assert.deepEqual(diffHalves(base, readHalf(renamed)).map((l) => l.split(' ')[0]).sort(), [
        'edge-added',
        'edge-added',
        'edge-dropped',
        'edge-dropped',
        'node-added',
        'node-dropped',
      ]);
    });
  });
}
