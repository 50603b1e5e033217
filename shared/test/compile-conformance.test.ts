/**
 * The conformance checker is itself checked: every rule fires on a pipeline that breaks it and
 * stays quiet on one that does not, so "every export passes it" means something.
 */
import assert from 'node:assert/strict';
import { checkAttractorConformance, conditionProblem, type ConformanceRule } from './support/attractor-conformance';

const ok = `// a comment, and /* a block */ before the graph
digraph ok {
  goal="Do it.";
  graph [label="Ok"];
  node [shape=box];
  edge [weight=0];
  start [shape=Mdiamond, label="Start"];
  work [prompt="Line\\nnext \\"q\\" \\\\ tab\\t", max_retries=3, timeout=900s, goal_gate=true, reasoning_effort=high, "x"=1];
  subgraph cluster_a { label="A"; other [label="Other", llm_model="m-1.2:latest"]; }
  exit [shape=Msquare];
  start -> work -> other [label="go"];
  other -> exit [condition="outcome=success && context.a.b!=\\"x y\\"", weight=-1.5];
}
`;

const cases: { name: string; text: string; rules: ConformanceRule[]; lenient?: boolean }[] = [
  { name: 'a pipeline that follows every rule (quoted keys only when lenient)', text: ok, rules: [], lenient: true },
  { name: 'a quoted attribute key is outside the strict grammar', text: ok, rules: ['grammar'] },
  { name: 'strict graphs', text: 'strict digraph g { start [shape=Mdiamond]; exit [shape=Msquare]; start -> exit; }', rules: ['grammar'] },
  { name: 'undirected graphs', text: 'graph g { start [shape=Mdiamond]; }', rules: ['grammar'] },
  { name: 'undirected edges', text: 'digraph g { start [shape=Mdiamond]; exit [shape=Msquare]; start -- exit; }', rules: ['grammar'] },
  { name: 'two graphs', text: 'digraph g { start [shape=Mdiamond]; exit [shape=Msquare]; start -> exit; } digraph h {}', rules: ['grammar'] },
  { name: 'attributes without commas', text: 'digraph g { start [shape=Mdiamond label="s"]; }', rules: ['grammar'] },
  { name: 'a quoted node id', text: 'digraph g { "start" [shape=Mdiamond]; }', rules: ['grammar'] },
  { name: 'a hyphenated node id', text: 'digraph g { a-b [shape=box]; }', rules: ['grammar'] },
  { name: 'a keyword node id', text: 'digraph g { start [shape=Mdiamond]; exit [shape=Msquare]; start -> node; }', rules: ['grammar'] },
  { name: 'an escape the String rule lacks', text: 'digraph g { start [shape=Mdiamond, label="a\\qb"]; }', rules: ['grammar'] },
  { name: 'an unterminated string', text: 'digraph g { start [label="a]; }', rules: ['grammar'] },
  { name: 'a value that is no Value', text: 'digraph g { start [shape=Mdiamond, weight=1.]; }', rules: ['grammar'] },
  { name: 'a # comment', text: 'digraph g {\n# note\n}', rules: ['grammar'] },
  { name: 'no start node', text: 'digraph g { a [shape=box]; exit [shape=Msquare]; a -> exit; }', rules: ['start_node'] },
  { name: 'two start nodes', text: 'digraph g { start [shape=box]; s2 [shape=Mdiamond]; exit [shape=Msquare]; start -> exit; s2 -> exit; }', rules: ['start_node'] },
  { name: 'no terminal node', text: 'digraph g { start [shape=Mdiamond]; a [shape=box]; start -> a; }', rules: ['terminal_node'] },
  { name: 'two terminal nodes', text: 'digraph g { start [shape=Mdiamond]; end [shape=box]; x [shape=Msquare]; start -> end; start -> x; }', rules: ['terminal_node'] },
  { name: 'an unreachable node', text: 'digraph g { start [shape=Mdiamond]; a [shape=box]; exit [shape=Msquare]; start -> exit; a -> exit; }', rules: ['reachability'] },
  { name: 'an edge to an undeclared node', text: 'digraph g { start [shape=Mdiamond]; exit [shape=Msquare]; start -> exit; start -> ghost; }', rules: ['edge_target_exists'] },
  { name: 'an edge into the start node', text: 'digraph g { start [shape=Mdiamond]; a [shape=box]; exit [shape=Msquare]; start -> a -> exit; a -> start; }', rules: ['start_no_incoming'] },
  { name: 'an edge out of the exit node', text: 'digraph g { start [shape=Mdiamond]; a [shape=box]; exit [shape=Msquare]; start -> a -> exit; exit -> a; }', rules: ['exit_no_outgoing'] },
  { name: 'a condition that does not parse', text: 'digraph g { start [shape=Mdiamond]; exit [shape=Msquare]; start -> exit [condition="score > 3"]; }', rules: ['condition_syntax'] },
  { name: 'a node type', text: 'digraph g { start [shape=Mdiamond]; a [type="codergen"]; exit [shape=Msquare]; start -> a -> exit; }', rules: ['type_absent'] },
];

describe('attractor conformance checker (test support)', () => {
  for (const c of cases) {
    it(`${c.rules.length === 0 ? 'accepts' : `rejects (${c.rules.join(', ')})`}: ${c.name}`, () => {
      const result = checkAttractorConformance(c.text, { lenient: c.lenient });
      assert.deepEqual(result.findings.map((f) => f.rule), c.rules, result.findings.map((f) => f.message).join('; '));
    });
  }

  it('reads values as a runner does: strings unescaped, scoped defaults, chains expanded, subgraphs flattened', () => {
    const graph = checkAttractorConformance(ok, { lenient: true }).graph!;
    assert.equal(graph.attrs.get('goal')?.text, 'Do it.');
    assert.equal(graph.attrs.get('label')?.text, 'Ok');
    const work = graph.nodes.get('work')!;
    assert.equal(work.attrs.get('prompt')?.text, 'Line\nnext "q" \\ tab\t');
    assert.equal(work.attrs.get('shape')?.text, 'box');
    assert.equal(work.attrs.get('timeout')?.kind, 'duration');
    assert.equal(work.attrs.get('max_retries')?.kind, 'integer');
    assert.equal(graph.nodes.get('other')?.attrs.get('shape')?.text, 'box');
    assert.ok(!graph.attrs.has('label') || graph.attrs.get('label')?.text === 'Ok', 'a subgraph label is not the graph label');
    assert.deepEqual(graph.edges.map((e) => `${e.from}->${e.to}:${e.attrs.get('label')?.text ?? ''}:${e.attrs.get('weight')?.text}`), ['start->work:go:0', 'work->other:go:0', 'other->exit::-1.5']);
    assert.ok(graph.hasSubgraph);
  });

  const conditions: [string, boolean][] = [
    ['outcome=success', true],
    ['outcome != fail', true],
    ['preferred_label="Approve it"', true],
    ['context.a.b_c=x:y-1.2', true],
    ['context.n=-3 && outcome=success', true],
    ['context.flag=true', true],
    ['', true],
    ['outcome', false],
    ['outcome==success', false],
    ['score=1', false],
    ['context.=x', false],
    ['context.a=0.8', false],
    ['outcome=success &&', false],
    ['outcome=success || outcome=fail', false],
    ['(outcome=success)', false],
    ['outcome="unterminated', false],
    ['outcome=a b', false],
  ];
  for (const [condition, valid] of conditions) {
    it(`condition ${JSON.stringify(condition)} is ${valid ? 'valid' : 'rejected'}`, () => {
      assert.equal(conditionProblem(condition) === undefined, valid, conditionProblem(condition));
    });
  }
});
