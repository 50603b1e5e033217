/**
 * Round trips (docs/compatibility.md#round-trip): for every fixture bundle B,
 * export(import(export(B))) equals export(B) byte for byte except the `// Blueprint digest:` line,
 * apart from the losses a fixture declares (a type with no row of its own comes home as the type
 * its shape defaults to). Then a property: for random valid bundles, export -> import -> export is
 * stable.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { readBundleFiles } from '../src/cli';
import { loadBundle } from '../src/bundle/resolve';
import type { SourceFile } from '../src/bundle/model';
import { attractorTypeRows, exportAttractor, importAttractor, importedBundleFiles } from '../src/compile';
import { phaseOrder } from '../src/vocabulary';
import { assertSameButDigest, exportFixtures } from './support/export-fixtures';
import { checkAttractorConformance } from './support/attractor-conformance';

/** Exports the files' bundle; fails the test when the export is refused. */
function exportFiles(files: readonly SourceFile[], folderName: string): string {
  const outcome = exportAttractor(loadBundle(files, { folderName }));
  assert.ok(outcome.ok, outcome.ok ? '' : `export refused: ${outcome.reasons.join(' ')}`);
  return outcome.text;
}

/** export(import(text)), as the command would do it through files. */
function reexport(text: string): string {
  const imported = importAttractor(text, { author: 'round-trip', origin: 'pipeline.dot' });
  assert.ok(imported.readable);
  return exportFiles(importedBundleFiles(imported), 'imported');
}

/**
 * Declared losses: fixture -> node -> [class before, class after]. A type reached through an
 * ancestor's row (a local subtype), an abstract category, or a type with no row at all comes
 * home as the type its shape and classes name, so its `class` changes and nothing else does.
 */
const declaredLosses = new Map<string, Map<string, [string, string]>>([
  [
    'types-through-ancestors',
    new Map<string, [string, string]>([
      ['reviewer', ['dp-acme-reviewer,dp-validation,dp-evaluative,dp-testing', 'dp-validation,dp-evaluative,dp-testing']],
      ['runner', ['dp-acme-runner,dp-shell-tool,dp-tool', 'dp-shell-tool,dp-tool']],
      ['loner', ['dp-acme-loner', 'dp-agent']],
      ['judge', ['dp-evaluative', 'dp-agent']],
      ['conductor', ['dp-orchestration', 'dp-agent']],
      ['someone', ['dp-human-in-the-loop,dp-deployment', 'dp-agent,dp-deployment']],
    ]),
  ],
]);

function applyLosses(text: string, losses: ReadonlyMap<string, [string, string]>): string {
  return text
    .split('\n')
    .map((line) => {
      const id = /^ {2}(\S+) \[/.exec(line)?.[1];
      const loss = id === undefined ? undefined : losses.get(id);
      if (!loss) return line;
      const before = `class="${loss[0]}"`;
      assert.ok(line.includes(before), `${id} had ${before}`);
      return line.replace(before, `class="${loss[1]}"`);
    })
    .join('\n');
}

describe('compile: round trips', () => {
  for (const fixture of exportFixtures) {
    const losses = declaredLosses.get(fixture.name);
    it(`${fixture.name}: export -> import -> export is byte-identical but for the digest${losses ? ', minus its declared losses' : ''}`, async () => {
      const first = exportFiles(await readBundleFiles(fixture.dir), fixture.name);
      const second = reexport(first);
      assertSameButDigest(losses ? applyLosses(first, losses) : first, second);
      // from the second export on, nothing changes any more
      assertSameButDigest(second, reexport(second));
    });
  }

  it('FIXME (as DarkPrint writes it): a trimmed value ending in a control character settles only on the second export', () => {
    // The exporter trims an edge label (and the title and summary) before Q turns control
    // characters into spaces, so the space Q writes is trimmed only by the next export.
    const files: SourceFile[] = [
      { path: 'topology.dot', text: 'digraph g {\n  a [card="a@1.0.0"];\n  a -> a [label="A\u0001"];\n}\n' },
      { path: 'cards/a@1.0.0.yaml', text: 'id: a\nname: A\ntype: agent\naction: run\nspec: A step that loops on itself until it is done.\ninputs: [{name: in, type: any}]\noutputs: [{name: out, type: any}]\nversion: 1.0.0\n' },
    ];
    const first = exportFiles(files, 'g');
    assert.ok(first.includes('  a -> a [label="A "];'));
    const second = reexport(first);
    assert.ok(second.includes('  a -> a [label="A"];'));
    assertSameButDigest(second, reexport(second));
  });

  describe('property: random valid bundles', () => {
    it('export -> import -> export is stable, and every export conforms', () => {
      fc.assert(
        fc.property(bundleArbitrary(), (files) => {
          const first = exportFiles(files, 'random');
          assert.deepEqual(checkAttractorConformance(first).findings, []);
          const second = reexport(first);
          assertSameButDigest(first, second);
        }),
        { numRuns: 100 },
      );
    });
  });
});

// ---- random bundles -----------------------------------------------------------------------

/**
 * Text with at least one letter, from characters that stress quoting (quotes, backslashes, tabs,
 * newlines, control characters, non-ASCII). Fields the exporter trims (title, summary, edge
 * labels) get no control character: see the FIXME test below.
 */
const text = (withBackslash: boolean, withControl = true): fc.Arbitrary<string> =>
  fc
    .tuple(
      fc.constantFrom('A', 'z', 'é', 'Ж', '語'),
      fc.array(fc.constantFrom('a', 'B', ' ', '"', "'", ':', '#', '\t', '\n', '\r\n', 'é', '😀', '-', '{', '}', ...(withControl ? ['\u0001', '\u007f'] : []), ...(withBackslash ? ['\\', '\\n'] : [])), { maxLength: 12 }),
    )
    .map(([first, rest]) => first + rest.join(''));

const slug = fc.array(fc.stringMatching(/^[a-z0-9]{1,6}$/), { minLength: 1, maxLength: 3 }).map((parts) => parts.join('-'));

/** Node ids, some of which need sanitising. */
const nodeIdPool = ['a', 'b_1', 'Step', 'start', 'exit', 'node', 'x y', '2x', 'é', 'a-b', 'a_b', '__start', 'n_start', ''];

const weights = ['1', '-2', '0.5', '.5', '1.', 'high', '07'];
const conditions = ['outcome=success', 'outcome!=fail && context.n=3', 'preferred_label="Go on"', ''];

function dotString(value: string): string {
  return `"${value.split('"').join('\\"')}"`;
}

function bundleArbitrary(): fc.Arbitrary<SourceFile[]> {
  const cardArb = fc.record({
    name: text(true),
    type: fc.constantFrom(...attractorTypeRows.map((r) => r.type)),
    phases: fc.subarray([...phaseOrder]),
    spec: text(true),
    model: fc.option(fc.constantFrom('  model-x ', 'm', '   '), { nil: undefined }),
    cap: fc.option(fc.integer({ min: 0, max: 50 }), { nil: undefined }),
    command: fc.option(fc.constantFrom('make test', ' ls -l ', 'echo "hi" \\ there', '  '), { nil: undefined }),
  });
  return fc
    .record({
      slug,
      title: text(true, false),
      summary: fc.oneof(fc.constant(''), text(true, false)),
      ids: fc.uniqueArray(fc.constantFrom(...nodeIdPool), { maxLength: 7 }),
      cards: fc.array(cardArb, { minLength: 1, maxLength: 4 }),
      pins: fc.array(fc.nat(), { maxLength: 7 }),
      edges: fc.array(
        fc.record({
          from: fc.nat(),
          to: fc.nat(),
          label: fc.option(text(false, false), { nil: undefined }),
          condition: fc.option(fc.constantFrom(...conditions), { nil: undefined }),
          weight: fc.option(fc.constantFrom(...weights), { nil: undefined }),
        }),
        { maxLength: 10 },
      ),
    })
    .map((b) => {
      const files: SourceFile[] = [];
      const lines = [`digraph random {`];
      b.ids.forEach((id, i) => lines.push(`  ${dotString(id)} [card="c${(b.pins[i] ?? i) % b.cards.length}@1.0.0"];`));
      if (b.ids.length > 0) {
        for (const e of b.edges) {
          const attrs: string[] = [];
          if (e.label !== undefined) attrs.push(`label=${dotString(e.label)}`);
          if (e.condition !== undefined) attrs.push(`condition=${dotString(e.condition)}`);
          if (e.weight !== undefined) attrs.push(`weight=${dotString(e.weight)}`);
          lines.push(`  ${dotString(b.ids[e.from % b.ids.length])} -> ${dotString(b.ids[e.to % b.ids.length])}${attrs.length ? ` [${attrs.join(', ')}]` : ''};`);
        }
      }
      lines.push('}');
      files.push({ path: 'topology.dot', text: `${lines.join('\n')}\n` });
      files.push({ path: 'blueprint.yaml', text: `slug: ${JSON.stringify(b.slug)}\ntitle: ${JSON.stringify(b.title)}\nsummary: ${JSON.stringify(b.summary)}\ntags: []\n` });
      b.cards.forEach((c, i) => {
        const params: string[] = [];
        if (c.cap !== undefined) params.push(`  max_iterations: ${c.cap}`);
        if (c.command !== undefined) params.push(`  tool_command: ${JSON.stringify(c.command)}`);
        files.push({
          path: `cards/c${i}@1.0.0.yaml`,
          text: [
            `id: c${i}`,
            `name: ${JSON.stringify(c.name)}`,
            `type: ${c.type}`,
            `phase: ${JSON.stringify(c.phases)}`,
            'action: run',
            `spec: ${JSON.stringify(c.spec)}`,
            ...(c.model !== undefined ? [`model: ${JSON.stringify(c.model)}`] : []),
            params.length ? `params:\n${params.join('\n')}` : 'params: {}',
            'inputs:\n  - name: in\n    type: any',
            'outputs:\n  - name: out\n    type: any',
            'version: 1.0.0',
            '',
          ].join('\n'),
        });
      });
      return files;
    });
}
