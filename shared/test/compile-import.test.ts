/**
 * Import from Attractor (docs/compatibility.md#attractor-import). Each case is a pipeline with the
 * diagnostics import must report annotated in place; the files it writes are compared with a golden
 * file (test-fixtures/golden/import/<name>.txt), and the draft must load as a storable bundle.
 */
import assert from 'node:assert/strict';
import { lineIndex } from '../src/text';
import { loadBundle } from '../src/bundle/resolve';
import { cardIdPattern } from '../src/card/card-ref';
import { importAttractor, importedBundleFiles, isStorable, typesByShape, attractorTypeRows, type ImportResult } from '../src/compile';
import { assertDiagnostics, parseFixture } from './support/fixture';
import { assertGolden } from './support/golden';

interface ImportCase {
  name: string;
  /** One `//- pipeline.dot` file, annotated. */
  source: string;
  /** Extra checks on the result. */
  check?: (result: ImportResult) => void;
}

const typeOf = (result: ImportResult, nodeId: string): string | undefined => result.cards.find((c) => c.nodeId === nodeId)?.card.type;

const cases: ImportCase[] = [
  {
    name: 'clean',
    source: `//- pipeline.dot
// What a DarkPrint export looks like: nothing to report.
digraph release_line {
  goal="Ship a change.";
  label="Release line";

  __start [label="start", shape=Mdiamond];
  plan [label="Plan", shape=box, prompt="Write the plan.", class="dp-agent,dp-planning", card="planner@1.2.0"];
  n_node [label="Check", shape=box, prompt="Check the plan.", max_retries=2, class="dp-validation,dp-evaluative,dp-testing,dp-deployment", card="checker@1.0.0", dp_node="node"];
  my_node [label="Run", shape=parallelogram, prompt="Run it.", tool_command="make ship", class="dp-shell-tool,dp-tool", card="acme/runner@2.0.0", dp_node="my node"];
  __exit [label="exit", shape=Msquare];

  __start -> plan;
  plan -> n_node [label="plan", weight=2];
  n_node -> my_node [condition="outcome=success"];
  my_node -> __exit;
}
`,
    check: (r) => {
      assert.deepEqual(r.cards.map((c) => [c.nodeId, c.ref, c.card.type, c.card.phases.join('+')]), [
        ['plan', 'planner@1.2.0', 'agent', 'planning'],
        ['node', 'checker@1.0.0', 'validation', 'testing+deployment'],
        ['my node', 'acme/runner@2.0.0', 'shell-tool', ''],
      ]);
      assert.equal(r.cards[2].file, 'cards/acme/runner@2.0.0.yaml');
      assert.deepEqual(r.cards[1].card.params, { max_iterations: 2 });
      assert.deepEqual(r.cards[2].card.params, { tool_command: 'make ship' });
      assert.deepEqual(r.manifest, { slug: 'release-line', title: 'Release line', summary: 'Ship a change.', tags: [] });
    },
  },
  {
    name: 'boundaries',
    source: `//- pipeline.dot
digraph boundaries {
  start [label="start", prompt="Say hello first."];
//                             ^^^^^^^^^^^^^^^^^^ warning dot/unsupported: entry
  work [label="Work", shape=box, prompt="Do the work."];
  done [label="Done", shape=Msquare, prompt="Say goodbye."];
//                                          ^^^^^^^^^^^^^^ warning dot/unsupported: exit
  end [label="End"];
  begin [shape=Mdiamond];

  start -> work [label="dropped with its edge"];
  begin -> work;
  work -> done;
  work -> end;
}
`,
    check: (r) => {
      assert.deepEqual(r.cards.map((c) => c.nodeId), ['work']);
      assert.ok(!r.dot.includes('->'), 'every edge touched a boundary node');
    },
  },
  {
    name: 'shapes',
    source: `//- pipeline.dot
digraph shapes {
  a [label="A", shape=box, prompt="An LLM step."];
  b [label="B", shape=box, prompt="A tool step.", class="dp-tool"];
  c [label="C", shape=box, prompt="A judge.", class="x, dp-validation ,y"];
  d [label="D", shape=parallelogram, prompt="A shell step.", tool_command="  ls -l  "];
  e [label="E", shape=hexagon, prompt="A person decides."];
  f [label="F", shape=hexagon, prompt="A person answers.", class="dp-human-input"];
  g [label="G", shape=diamond, prompt="Route."];
  h [label="H", shape=component, prompt="Fan out."];
  i [label="I", shape=tripleoctagon, prompt="Fan in."];
  j [label="J", shape=house, prompt="Supervise."];
  k [label="K", shape=ellipse, prompt="Nobody knows."];
//                    ^^^^^^^ warning dot/unsupported: ellipse
  l [label="L", prompt="No shape at all.", tool_command="   "];
//^ warning dot/unsupported: no shape
}
`,
    check: (r) => {
      assert.deepEqual(
        r.cards.map((c) => `${c.nodeId}:${c.card.type}:${c.card.action}`),
        ['a:agent:codergen', 'b:tool:codergen', 'c:validation:codergen', 'd:shell-tool:tool', 'e:human-gate:wait.human', 'f:human-input:wait.human', 'g:decision:conditional', 'h:parallel:parallel', 'i:parallel.fan-in:parallel.fan_in', 'j:manager-loop:stack.manager_loop', 'k:agent:codergen', 'l:agent:codergen'],
      );
      assert.deepEqual(r.cards[3].card.params, { tool_command: '  ls -l  ' });
      assert.deepEqual(r.cards[11].card.params, {});
    },
  },
  {
    name: 'retries-and-prompts',
    source: `//- pipeline.dot
digraph retries {
  a [label="A", shape=box, prompt="Three more tries.", max_retries=3];
  b [label="B", shape=box, prompt="Leading zero.", max_retries="07"];
  c [label="C", shape=box, prompt="Half a try.", max_retries="2.5"];
//                                                           ^^^^^ warning dot/unsupported: 2.5
  d [label="D", shape=box, prompt="Negative.", max_retries=-1];
//                                                         ^^ warning dot/unsupported
  e [label="E", shape=hexagon];
//^ warning card/missing-field: no prompt
  f [label="F", shape=box, prompt="  "];
//                                ^^^^ warning card/missing-field
  g [shape=box, prompt="No label: the node id names the card."];
}
`,
    check: (r) => {
      assert.deepEqual(r.cards.map((c) => c.card.params.max_iterations ?? null), [3, 7, null, null, null, null, null]);
      assert.equal(r.cards[4].card.spec, '');
      assert.equal(r.cards[6].card.name, 'g');
    },
  },
  {
    name: 'edges',
    source: `//- pipeline.dot
digraph edges {
  a [label="A", shape=box, prompt="One."];
  b [label="B", shape=box, prompt="Two."];
  c [label="C", shape=box, prompt="Three."];
  a -> b -> c [label="chained", fidelity="full", thread_id="t"];
  a -> c [label="ends in a backslash \\\\", condition="outcome=success", weight="3"];
//              ^^^^^^^^^^^^^^^^^^^^^^^^ warning dot/unsupported: label
  b -> a [label="line one\\nline two", condition="context.note=\\"x y\\"", weight=-0.5];
  c -> a [condition="say \\\\\\"hi\\"", weight=1];
//                  ^^^^^^^^^^^^^^ warning dot/unsupported: condition
}
`,
    check: (r) => {
      const edgeLines = r.dot.split('\n').filter((l) => l.includes('->'));
      assert.equal(edgeLines.length, 5);
      assert.ok(!r.dot.includes('fidelity') && !r.dot.includes('thread_id'), 'only label, condition and weight pass');
    },
  },
  {
    name: 'ids',
    source: `//- pipeline.dot
digraph "2nd pipeline" {
  label="  Ids and cards  ";
  Draft [label="Draft", shape=box, prompt="Draft it."];
  draft_ [label="Draft again", shape=box, prompt="Draft it again."];
  x1 [label="One", shape=box, prompt="Pinned.", card="shared@1.0.0"];
  x2 [label="Two", shape=box, prompt="Pinned to the same card.", card="shared@1.0.0"];
  ______x [label="Escape", shape=box, prompt="A card id that is a path.", card="../../x@1.0.0", dp_node="../../x"];
  n_graph [label="Keyword", shape=box, prompt="Was a keyword.", dp_node="graph"];
  "n_" [label="Empty", shape=box, prompt="Had an empty id.", dp_node=""];
  Draft_2 [label="Clash", shape=box, prompt="Restores an id already taken.", dp_node="Draft"];
  ends_ [label="Bad record", shape=box, prompt="A dp_node that cannot be written.", dp_node="ends\\\\"];
  x8 [label="Foreign", shape=box, prompt="A record export never made of this node.", dp_node="Draft"];
  x9 [label="Foreign empty", shape=box, prompt="An empty record on a named node.", dp_node=""];
  Draft -> draft_ -> x1 -> x2 -> ______x -> n_graph -> n_ -> Draft_2 -> ends_ -> x8 -> x9;
}
`,
    check: (r) => {
      // (a dp_node names the node only where export would have written it as the node's id: x8
      // and x9 keep theirs, as the pipeline's runner knows them; ends_ keeps its own, its record
      // being unwritable in a topology; every card id comes from the dp_node, as in DarkPrint)
      assert.deepEqual(
        r.cards.map((c) => `${c.nodeId} ${c.ref}`),
        ['Draft draft@0.1.0', 'draft_ draft-2@0.1.0', 'x1 shared@1.0.0', '../../x x@0.1.0', 'graph graph@0.1.0', ' node@0.1.0', 'Draft_2 draft-3@0.1.0', 'ends_ ends@0.1.0', 'x8 draft-4@0.1.0', 'x9 node-2@0.1.0'],
      );
      assert.match(r.dot, /^digraph n_2nd_pipeline \{\n/);
      assert.ok(r.dot.includes('  x2 [card="shared@1.0.0"];'), 'a second node pinning the same card gets no second card');
      assert.ok(r.dot.includes('  "../../x" [card="x@0.1.0"];'));
      assert.ok(r.dot.includes('  "graph" [card="graph@0.1.0"];'), 'a keyword id is quoted');
      assert.deepEqual(r.manifest, { slug: '2nd-pipeline', title: 'Ids and cards', summary: '', tags: [] });
      for (const c of r.cards) assert.match(c.file, /^cards\/[^/]+(\/[^/]+)?@[^/]+\.yaml$/);
      for (const c of r.cards) assert.ok(cardIdPattern.test(c.card.id), c.card.id);
    },
  },
  {
    name: 'card-id-clash',
    source: `//- pipeline.dot
digraph clash {
  x [label="X", shape=box, prompt="Its card id comes from its name."];
  y [label="Y", shape=hexagon, prompt="Pins card x, after the node above.", card="x@0.0.1"];
  x -> y;
}
`,
    check: (r) => {
      // (a derived id takes no id a later node pins: two versions of card x could not be stored)
      assert.deepEqual(
        r.cards.map((c) => `${c.nodeId} ${c.ref}`),
        ['x x-2@0.1.0', 'y x@0.0.1'],
      );
    },
  },
  {
    name: 'anonymous',
    source: `//- pipeline.dot
digraph {
  only [label="Only", shape=box, prompt="The only step."];
}
`,
    check: (r) => {
      assert.equal(r.manifest.slug, 'imported-pipeline');
      assert.equal(r.manifest.title, '');
      assert.match(r.dot, /^digraph imported_pipeline \{/);
    },
  },
  {
    name: 'unreadable',
    source: `//- pipeline.dot
digraph broken {
  a -> ;
//  ^^ error dot/parse-error
}
`,
    check: (r) => {
      assert.equal(r.readable, false);
      assert.equal(r.dot, '');
      assert.deepEqual(r.cards, []);
    },
  },
];

function renderImport(result: ImportResult, text: string): string {
  const index = lineIndex(text);
  const parts: string[] = [];
  for (const f of importedBundleFiles(result)) parts.push(`//- ${f.path}\n${f.text}`);
  parts.push(
    `//- diagnostics\n${result.diagnostics
      .map((d) => {
        const p = d.location.span ? index.positionAt(d.location.span.start) : undefined;
        return `${p ? `${p.line + 1}:${p.character + 1}` : '-'} ${d.severity} ${d.code}: ${d.message}`;
      })
      .join('\n')}\n`,
  );
  return parts.join('');
}

describe('compile: import', () => {
  for (const c of cases) {
    it(`${c.name}: reports what it drops, and writes its golden draft`, () => {
      const fixture = parseFixture(c.source);
      const text = fixture.files[0].text;
      const result = importAttractor(text, { author: 'tester', origin: 'pipeline.dot' });
      assertDiagnostics(fixture, result.diagnostics);
      assertGolden(`import/${c.name}.txt`, renderImport(result, text));
      c.check?.(result);
      if (!result.readable) return;
      for (const card of result.cards) {
        assert.equal(card.card.author, 'tester');
        assert.equal(card.card.provenance, 'derived:attractor pipeline.dot');
      }
      const loaded = loadBundle(importedBundleFiles(result), { folderName: c.name });
      assert.ok(loaded.blueprint, 'the draft topology is a directed graph');
      assert.deepEqual(loaded.diagnostics.filter((d) => d.code === 'dot/parse-error' || d.code === 'card/parse-error'), []);
      assert.ok(isStorable(loaded.diagnostics), 'the draft is storable');
      const blankRefs = new Set(result.cards.filter((x) => x.card.spec.trim() === '').map((x) => x.ref));
      const cardless = loaded.blueprint.nodes.filter((n) => !n.entry).map((n) => n.id);
      const expectedCardless = loaded.blueprint.nodes.filter((n) => n.ref !== undefined && blankRefs.has(n.ref)).map((n) => n.id);
      assert.deepEqual(cardless, expectedCardless, 'only nodes whose prompt was empty lose their card');
    });
  }

  it('reads the cards it writes exactly as it built them', () => {
    const result = importAttractor(parseFixture(cases[0].source).files[0].text, { author: 'tester', origin: 'pipeline.dot' });
    const loaded = loadBundle(importedBundleFiles(result), { folderName: 'clean' });
    for (const imported of result.cards) {
      const entry = loaded.blueprint!.cards.get(imported.ref);
      assert.ok(entry?.card, imported.ref);
      assert.deepEqual(entry.card, imported.card);
    }
  });

  it('needs a non-blank author', () => {
    assert.throws(() => importAttractor('digraph g {}', { author: '  ', origin: 'g.dot' }), /author/);
  });

  it('reads the type of every row back from its own shape and class', () => {
    for (const row of attractorTypeRows) {
      const text = `digraph g { n [label="N", shape=${row.shape}, prompt="P.", class="dp-${row.type.replace('.', '-')}"]; }`;
      assert.equal(typeOf(importAttractor(text, { author: 'a', origin: 'g.dot' }), 'n'), row.type);
    }
    for (const [shape, types] of typesByShape) {
      const text = `digraph g { n [label="N", shape=${shape}, prompt="P."]; }`;
      assert.equal(typeOf(importAttractor(text, { author: 'a', origin: 'g.dot' }), 'n'), types[0], `${shape} defaults to its first type`);
    }
  });
});
