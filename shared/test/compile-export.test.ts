/**
 * Export to Attractor (docs/compatibility.md#attractor-export). Golden files for the example bundle
 * and every bundle under test-fixtures/export/ (one per type row, ids that need sanitising, every
 * wiring case, quoting); each export also passes the independent conformance checker and
 * DarkPrint's lint. Then the pieces as tables: names, quoting, weights, the derived header lists,
 * the gate and the refusals.
 */
import assert from 'node:assert/strict';
import { readBundleFiles } from '../src/cli';
import { loadBundle } from '../src/bundle/resolve';
import type { Diagnostic } from '../src/diagnostics';
import {
  attractorHeader,
  attractorNodeIds,
  blocksStorage,
  disclosedAttributes,
  exportAttractor,
  isBareWeight,
  quoteAttractor,
  reservedAttributes,
  toIdentifier,
  unexpressedAttributes,
  wrapNames,
  emittedAttributes,
} from '../src/compile';
import { assertConformant, exportFixtures } from './support/export-fixtures';
import { assertGolden } from './support/golden';
import { parseFixture } from './support/fixture';

/** The wiring-edges fixture keeps `condition=""` on one edge: the export copies it, and the lint says it is empty. */
const expectedLint = new Map([['wiring-edges', ['attractor/condition-syntax']]]);

describe('compile: export', () => {
  describe('golden exports', () => {
    for (const fixture of exportFixtures) {
      it(`${fixture.name} compiles to its golden file and conforms`, async () => {
        const result = loadBundle(await readBundleFiles(fixture.dir), { folderName: fixture.name });
        const outcome = exportAttractor(result);
        assert.ok(outcome.ok, `export refused: ${outcome.ok ? '' : outcome.reasons.join(' ')}`);
        assertGolden(`export/${fixture.name}.dot`, outcome.text);
        assertConformant(outcome.text, expectedLint.get(fixture.name));
        assert.ok(outcome.text.endsWith('}\n'), 'the file ends with a newline');
        assert.ok(!outcome.text.includes('\r'), 'no carriage return');
        for (const line of outcome.text.split('\n')) {
          if (line.startsWith('  ') && !line.startsWith('  //')) assert.ok(line.endsWith(';'), `statement ends with ';': ${line}`);
          assert.ok(!line.startsWith('\t'), 'two-space indent, no tabs');
        }
      });
    }
  });

  describe('node ids', () => {
    const cases: { ids: string[]; expected: string[] }[] = [
      { ids: ['solver-a', 'plain', 'x y'], expected: ['solver_a', 'plain', 'x_y'] },
      { ids: ['start', 'Start', 'exit', 'end', 'START'], expected: ['n_start', 'n_Start', 'n_exit', 'n_end', 'START'] },
      { ids: ['node', 'EDGE', 'digraph', 'strict', 'subgraph', 'graph'], expected: ['n_node', 'n_EDGE', 'n_digraph', 'n_strict', 'n_subgraph', 'n_graph'] },
      { ids: ['2fast', '', '😀', 'é', 'a\u0000b'], expected: ['n_2fast', 'n_', '_', '__2', 'a_b'] },
      { ids: ['a-b', 'a_b', 'a.b', 'a_b_2'], expected: ['a_b', 'a_b_2', 'a_b_3', 'a_b_2_2'] },
      { ids: ['start', 'n_start'], expected: ['n_start', 'n_start_2'] },
      { ids: ['n_start', 'start'], expected: ['n_start', 'n_start_2'] },
    ];
    for (const c of cases) {
      it(`${JSON.stringify(c.ids)} -> ${JSON.stringify(c.expected)}`, () => {
        assert.deepEqual(attractorNodeIds(c.ids), c.expected);
      });
    }
    it('toIdentifier counts an astral character as one', () => {
      assert.equal(toIdentifier('a😀b'), 'a_b');
      assert.equal(toIdentifier('\ud800x'), '_x');
    });
  });

  describe('quoting Q(s)', () => {
    const cases: [string, string][] = [
      ['plain', '"plain"'],
      ['say "hi"', '"say \\"hi\\""'],
      ['C:\\dir\\n', '"C:\\\\dir\\\\n"'],
      ['a\nb', '"a\\nb"'],
      ['a\r\nb\rc', '"a\\nb\\nc"'],
      ['tab\there', '"tab\\there"'],
      ['bell\u0007 del\u007f nul\u0000', '"bell  del  nul "'],
      ['café 日本 😀 \u0085', '"café 日本 😀 \u0085"'],
      ['', '""'],
    ];
    for (const [input, expected] of cases) {
      it(`${JSON.stringify(input)} -> ${expected}`, () => assert.equal(quoteAttractor(input), expected));
    }
  });

  describe('weights', () => {
    const cases: [string, boolean][] = [
      ['10', true], ['-3', true], ['0.5', true], ['.5', true], ['-.5', true], ['007', true],
      ['1.', false], ['high', false], ['1e3', false], ['+1', false], ['', false], [' 1', false], ['1-', false],
    ];
    for (const [weight, bare] of cases) {
      it(`${JSON.stringify(weight)} is written ${bare ? 'bare' : 'quoted'}`, () => assert.equal(isBareWeight(weight), bare));
    }
  });

  describe('header', () => {
    it('derives the disclosure lists from the reserved sets minus what the mapping writes', () => {
      // The lists DarkPrint writes with today's tables (docs/compatibility.md#export-header): a
      // change to the table must show up here.
      assert.deepEqual(disclosedAttributes('graph'), {
        defaulting: ['model_stylesheet', 'default_max_retries', 'default_max_retry', 'default_fidelity', 'retry_target', 'fallback_retry_target', 'stack.child_workdir', 'tool_hooks.pre', 'tool_hooks.post'],
        handlerNeeded: ['stack.child_dotfile'],
      });
      assert.deepEqual(disclosedAttributes('node'), {
        defaulting: ['goal_gate', 'retry_target', 'fallback_retry_target', 'fidelity', 'thread_id', 'timeout', 'llm_provider', 'reasoning_effort', 'auto_status', 'allow_partial', 'join_policy', 'max_parallel', 'manager.poll_interval', 'manager.max_cycles', 'manager.stop_condition', 'manager.actions', 'stack.child_autostart', 'tool_hooks.pre', 'tool_hooks.post'],
        handlerNeeded: ['human.default_choice'],
      });
      assert.deepEqual(disclosedAttributes('edge'), { defaulting: ['fidelity', 'thread_id', 'loop_restart'], handlerNeeded: [] });
    });

    it('lists every reserved name exactly once: written by the mapping, withheld (`type`), or disclosed', () => {
      for (const scope of ['graph', 'node', 'edge'] as const) {
        const accounted = [...emittedAttributes[scope], ...(scope === 'node' ? ['type'] : []), ...unexpressedAttributes(scope)].sort();
        assert.deepEqual(accounted, [...reservedAttributes[scope]].sort(), scope);
      }
    });

    it('has DarkPrint\'s structure: generator line, digest line, disclosure blocks, closing `//`', () => {
      const lines = attractorHeader(`sha256:${'0'.repeat(64)}`);
      assert.match(lines[0], /^\/\/ \S/);
      assert.equal(lines[1], `// Blueprint digest: sha256:${'0'.repeat(64)}`);
      assert.equal(lines[2], '//');
      assert.equal(lines[lines.length - 1], '//');
      for (const line of lines) assert.ok(line === '//' || line.startsWith('// '), line);
      const body = lines.join('\n');
      for (const scope of ['graph', 'node', 'edge'] as const) {
        for (const name of unexpressedAttributes(scope)) assert.ok(body.includes(name), `${scope} ${name} is disclosed`);
      }
      assert.ok(!/\btool_command\b/.test(body), 'tool_command is written by the mapping, so it is not disclosed');
    });

    const x = 'x'.repeat(40);
    const wraps: { label: string; names: string[]; expected: string[] }[] = [
      { label: 'edge', names: [], expected: [] },
      { label: 'edge', names: ['a', 'b'], expected: ['//   edge: a, b'] },
      // 11 + 40 + 2 + 35 = 88 fits; `, z` would pass 88, so the line breaks there and keeps its comma
      { label: 'node', names: [x, 'y'.repeat(35), 'z'], expected: [`//   node: ${x}, ${'y'.repeat(35)},`, '//         z'] },
      // 11 + 40 + 2 + 36 = 89 does not fit
      { label: 'node', names: [x, 'y'.repeat(36)], expected: [`//   node: ${x},`, `//         ${'y'.repeat(36)}`] },
      { label: 'graph', names: ['w'.repeat(100)], expected: [`//   graph: ${'w'.repeat(100)}`] },
      { label: 'graph', names: ['w'.repeat(100), 'v'], expected: [`//   graph: ${'w'.repeat(100)},`, '//          v'] },
    ];
    for (const w of wraps) {
      it(`wraps ${JSON.stringify(w.names.map((n) => n.length))} under ${w.label}:`, () => {
        assert.deepEqual(wrapNames(w.label, w.names), w.expected);
      });
    }
  });

  describe('refusal', () => {
    const card = (id: string, extra = ''): string =>
      `//- cards/${id}@1.0.0.yaml\nid: ${id}\nname: ${id}\ntype: agent\naction: run\nspec: A step of this fixture that does one small thing and stops.\n${extra}inputs:\n  - name: in\n    type: any\noutputs:\n  - name: out\n    type: any\nversion: 1.0.0\n`;
    const cases: { name: string; source: string; ok: boolean; blocking?: string[]; cardless?: string[] }[] = [
      {
        name: 'a clean bundle compiles',
        source: `//- topology.dot\ndigraph g { a [card="a@1.0.0"]; b [card="b@1.0.0"]; a -> b; }\n${card('a')}${card('b')}`,
        ok: true,
      },
      {
        name: 'an error that does not block storage (port mismatch) still compiles',
        source: `//- topology.dot\ndigraph g { a [card="a@1.0.0"]; b [card="b@1.0.0"]; a -> b [out="nope"]; }\n${card('a')}${card('b')}`,
        ok: true,
      },
      {
        name: 'a parse error refuses',
        source: `//- topology.dot\ndigraph g { a [card="a@1.0.0"]; a -> ; }\n${card('a')}`,
        ok: false,
        blocking: ['dot/parse-error'],
      },
      {
        name: 'an undirected graph refuses',
        source: `//- topology.dot\ngraph g { a [card="a@1.0.0"]; }\n${card('a')}`,
        ok: false,
        blocking: ['dot/not-directed'],
      },
      {
        name: 'a violated prohibition refuses',
        source:
          `//- topology.dot\ndigraph g { a [card="a@1.0.0"]; b [card="b@1.0.0"]; a -> b; }\n` +
          `//- cards/a@1.0.0.yaml\nid: a\nname: A\ntype: agent\naction: run\nspec: Writes the acceptance criteria for the piece of work at hand.\ninputs: []\noutputs:\n  - name: criteria\n    type: acceptance-criteria\nversion: 1.0.0\n` +
          `//- cards/b@1.0.0.yaml\nid: b\nname: B\ntype: agent\naction: run\nspec: Builds the thing without ever seeing how it will be judged.\ninputs:\n  - name: in\n    type: any\noutputs: []\ncannot: [acceptance-criteria]\nversion: 1.0.0\n`,
        ok: false,
        blocking: ['bundle/prohibition-violated'],
      },
      {
        name: 'a card without an id refuses, and its node has no card',
        source: `//- topology.dot\ndigraph g { a [card="a@1.0.0"]; }\n//- cards/a@1.0.0.yaml\nname: A\ntype: agent\naction: run\nspec: A card with no id cannot be addressed by anything at all.\ninputs: []\noutputs: []\nversion: 1.0.0\n`,
        ok: false,
        blocking: ['card/missing-field'],
        cardless: ['a'],
      },
      {
        name: 'a card missing its name does not block storage, but its node has no card',
        source: `//- topology.dot\ndigraph g { a [card="a@1.0.0"]; }\n//- cards/a@1.0.0.yaml\nid: a\ntype: agent\naction: run\nspec: A card with no name is addressable but does not load at all.\ninputs: []\noutputs: []\nversion: 1.0.0\n`,
        ok: false,
        blocking: [],
        cardless: ['a'],
      },
      {
        name: 'a node pinning a card the bundle lacks refuses',
        source: `//- topology.dot\ndigraph g { a [card="a@1.0.0"]; b [card="b@2.0.0"]; a -> b; }\n${card('a')}`,
        ok: false,
        blocking: [],
        cardless: ['b'],
      },
    ];
    for (const c of cases) {
      it(c.name, () => {
        const fixture = parseFixture(c.source);
        const outcome = exportAttractor(loadBundle(fixture.files, { folderName: 'g' }));
        assert.equal(outcome.ok, c.ok, outcome.ok ? 'compiled' : outcome.reasons.join(' '));
        if (outcome.ok) {
          assertConformant(outcome.text);
          assert.ok(!outcome.diagnostics.some(blocksStorage));
          return;
        }
        assert.deepEqual([...new Set(outcome.blocking.map((d: Diagnostic) => d.code))], c.blocking ?? []);
        assert.deepEqual(outcome.cardless, c.cardless ?? []);
        assert.ok(outcome.reasons.length > 0);
        for (const r of outcome.reasons) assert.match(r, /[.;] .*[.]$|\.$/);
        assert.ok(!outcome.diagnostics.some(blocksStorage), 'blocking findings are reported once, as reasons');
      });
    }
  });
});
