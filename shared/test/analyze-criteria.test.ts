import assert from 'node:assert/strict';
import { checkAnalysis, type AnalysisFixture, type CardFields } from './support/analysis-builder';

interface CriteriaRow extends AnalysisFixture {
  /** `marker node establishedBy`, in findings order. */
  readonly findings?: readonly string[];
  readonly paths?: Readonly<Record<string, readonly string[]>>;
  readonly rationale?: string;
}

function checkCriteria(row: CriteriaRow): void {
  const { security } = checkAnalysis(row);
  if (row.findings !== undefined) {
    assert.deepEqual(security.findings.map((f) => `${f.marker} ${f.nodeId} ${f.establishedBy}`), row.findings, 'findings');
  }
  for (const [key, path] of Object.entries(row.paths ?? {})) {
    const finding = security.findings.find((f) => `${f.marker} ${f.nodeId}` === key);
    assert.ok(finding, `no finding ${key}`);
    assert.deepEqual(finding.path, path, `path of ${key}`);
  }
  if (row.rationale !== undefined) assert.equal(security.rationale, row.rationale);
}

const planner: CardFields = {
  outputs: [
    { name: 'plan', type: 'plan' },
    { name: 'criteria', type: 'acceptance-criteria' },
  ],
};
const judge: CardFields = { type: 'validation' };
const criteriaText = 'Every endpoint must return JSON with a status field and reject requests without a token.';
/** Shares most of its 3-grams with `criteriaText` (0.72). */
const restated = 'Implement the service so that every endpoint must return JSON with a status field and reject requests without a token.';

const topological: CriteriaRow[] = [
  {
    name: '(a) a producer reaches a generator directly',
    fixture: `
//- topology.dot
digraph g {
  planner -> builder -> tester;
//           ^^^^^^^ warning analysis/criteria-leak: Acceptance criteria from planner reach builder along planner → builder, and builder's work is judged by tester
  planner -> tester;
}`,
    cards: { planner, tester: judge },
    findings: ['criteria-leak builder inferred'],
    paths: { 'criteria-leak builder': ['planner', 'builder'] },
    rationale: '4 − 2.00 (criteria-leak) → 2',
  },
  {
    name: '(a) through an intermediary: every generator on the way, and the route names the edge to cut',
    fixture: `
//- topology.dot
digraph g {
  planner -> notes -> builder -> tester;
//           ^^^^^ warning analysis/criteria-leak: along planner → notes, and notes's work is judged by tester
//                    ^^^^^^^ warning analysis/criteria-leak: remove the edge planner -> notes
  planner -> tester;
}`,
    cards: { planner, tester: judge },
    findings: ['criteria-leak builder inferred', 'criteria-leak notes inferred'],
    paths: { 'criteria-leak builder': ['planner', 'notes', 'builder'] },
  },
  {
    name: '(a) clean: the criteria go only to the judge',
    fixture: `
//- topology.dot
digraph g {
  planner -> tester;
  builder -> tester -> deployer;
}`,
    cards: { planner, tester: judge },
    findings: [],
    rationale: '4 − 0.00 (no risk marker present across 4 nodes) → 4',
  },
  {
    name: '(a2) a generator reached only through a judge is reported, not charged',
    fixture: `
//- topology.dot
digraph g {
  planner -> tester;
  builder -> tester;
  tester -> debugger -> tester;
//          ^^^^^^^^ warning analysis/criteria-relayed-through-judge: Acceptance criteria reach debugger only through the validation node tester
  tester -> deployer;
}`,
    cards: { planner, tester: judge, debugger: { params: { max_iterations: 3 } } },
    findings: [],
    rationale: '4 − 0.00 (no risk marker present across 5 nodes) → 4',
  },
  {
    name: '(a2) is silent where (a) already charged the node',
    fixture: `
//- topology.dot
digraph g {
  planner -> builder -> tester -> builder;
//           ^^^^^^^ warning analysis/criteria-leak
}`,
    cards: { planner, tester: judge, builder: { params: { max_retries: 2 } } },
    findings: ['criteria-leak builder inferred'],
  },
  {
    name: '(a) and (a2) never hold a producer to criteria coming back to itself',
    fixture: `
//- topology.dot
digraph g {
  planner -> tester -> planner;
}`,
    cards: { planner: { ...planner, params: { max_iterations: 1 } }, tester: judge },
    findings: [],
  },
];

const producerWithLoops: CardFields = { ...planner, params: { max_iterations: 2 } };

const relayedMany: CriteriaRow[] = [
  {
    name: '(a2) gates fed only by the node itself do not count for it, however many come first',
    fixture: `
//- topology.dot
digraph g {
  v -> j1 -> v;
//^ warning analysis/criteria-relayed-through-judge: through the validation nodes j5 and possibly others
  v -> j2 -> v;
  v -> j3 -> v;
  v -> j4 -> v;
  q -> j5 -> v;
}`,
    cards: { v: producerWithLoops, q: planner, j1: judge, j2: judge, j3: judge, j4: judge, j5: judge },
    findings: [],
  },
  {
    name: '(a2) several gates are all named',
    fixture: `
//- topology.dot
digraph g {
  p -> a -> x;
//          ^ warning analysis/criteria-relayed-through-judge: through the validation nodes a and b:
  p -> b -> x;
  x -> c;
}`,
    cards: { p: planner, a: judge, b: judge, c: judge },
    findings: [],
  },
];

const declarative: CriteriaRow[] = [
  {
    name: '(d) one node writes the criteria and the artefact its judge reads',
    fixture: `
//- topology.dot
digraph g {
  maker -> tester;
//^^^^^ warning analysis/criteria-leak: Node maker outputs acceptance criteria and also build: code, which the validation node tester reads
}`,
    cards: {
      maker: { outputs: [{ name: 'criteria', type: 'acceptance-criteria' }, { name: 'build', type: 'code' }] },
      tester: { type: 'validation', inputs: [{ name: 'criteria', type: 'acceptance-criteria' }, { name: 'build', type: 'text' }] },
    },
    findings: ['criteria-leak maker inferred'],
    paths: { 'criteria-leak maker': ['maker', 'tester'] },
  },
  {
    name: '(d) silent when the other output is not what the judge reads',
    fixture: `
//- topology.dot
digraph g { maker -> tester; }`,
    cards: {
      maker: { outputs: [{ name: 'criteria', type: 'acceptance-criteria' }, { name: 'plan', type: 'plan' }] },
      tester: { type: 'validation', inputs: [{ name: 'criteria', type: 'acceptance-criteria' }, { name: 'build', type: 'code' }] },
    },
    findings: [],
  },
  {
    name: '(d) a judge input typed as criteria is not the artefact',
    fixture: `
//- topology.dot
digraph g { maker -> tester; }`,
    cards: {
      maker: { outputs: [{ name: 'criteria', type: 'acceptance-criteria' }, { name: 'extra', type: 'structured' }] },
      tester: { type: 'validation', inputs: [{ name: 'criteria', type: 'acceptance-criteria' }] },
    },
    findings: [],
  },
];

const unanchored: CriteriaRow[] = [
  {
    name: '(c1) judges but no criteria producer',
    fixture: `
//- topology.dot
digraph g { build -> check; }
//- @bundle
warning analysis/criteria-leak-unanchored: The validation node check judges work in this graph, but no node has an output typed acceptance-criteria`,
    cards: { check: judge },
  },
  {
    name: '(c1) a producer but no validation node',
    fixture: `
//- topology.dot
digraph g { planner -> builder; }
//- @bundle
warning analysis/criteria-leak-unanchored: planner outputs acceptance criteria, but no node is typed validation`,
    cards: { planner },
  },
  {
    name: '(c1) a producer and a judge that nothing feeds',
    fixture: `
//- topology.dot
digraph g { planner -> builder; check; }
//- @bundle
warning analysis/criteria-leak-unanchored: no node with a card hands its work to a validation node`,
    cards: { planner, check: judge },
  },
  {
    name: '(c1) neither anchor: silent',
    fixture: `
//- topology.dot
digraph g { a -> b; }`,
  },
];

const checker = (params: CardFields['params']): CardFields => ({ type: 'validation', params });
const outOfBandTopology = `
//- topology.dot
digraph g {
  planner -> check;
  build -> check;
}`;

const outOfBand: CriteriaRow[] = [
  {
    name: '(c2) a params criteria key naming nothing the graph produces',
    fixture: `
//- topology.dot
digraph g {
  planner -> check;
//           ^^^^^ warning analysis/criteria-out-of-band: Node check names its acceptance criteria in params.criteria_ref ("rubric-v2")
  build -> check;
}`,
    cards: { planner: { ...planner, id: 'acme-planner' }, check: checker({ criteria_ref: 'rubric-v2' }) },
  },
  {
    name: '(c2) the key matches case-insensitively and any criteri- spelling',
    fixture: `
//- topology.dot
digraph g {
  planner -> check;
//           ^^^^^ warning analysis/criteria-out-of-band: params.Criterion
  build -> check;
}`,
    cards: { planner, check: checker({ Criterion: 'elsewhere' }) },
  },
  {
    name: '(c2) strings up to six levels deep are read',
    fixture: `
//- topology.dot
digraph g {
  planner -> check;
//           ^^^^^ warning analysis/criteria-out-of-band: "deep"
  build -> check;
}`,
    cards: { planner, check: checker({ criteria: [[[[[['deep']]]]]] }) },
  },
  ...(
    [
      ['an output port as node.port', { criteria: 'planner.criteria' }],
      ['a port name, in another case', { criteria: 'CRITERIA' }],
      ['a node id inside a list', { acceptance_criteria: ['Planner'] }],
      ['a card id and port', { criteria: 'acme-planner.criteria' }],
      ['one known value among unknown ones', { criteria: ['rubric-v2', 'planner'] }],
      ['numbers and booleans name nothing', { criteria_strict: true, criteria_threshold: 0.8 }],
      ['a blank string names nothing', { criteria: '  ' }],
      ['another key', { rubric: 'rubric-v2' }],
      ['strings seven levels deep are not read', { criteria: [[[[[[['deep']]]]]]] }],
    ] satisfies [string, CardFields['params']][]
  ).map(
    ([what, params]): CriteriaRow => ({
      name: `(c2) silent: ${what}`,
      fixture: outOfBandTopology,
      cards: { planner: { ...planner, id: 'acme-planner' }, check: checker(params) },
    }),
  ),
];

const content: CriteriaRow[] = [
  {
    name: '(b) a generator restating the producer\'s spec is suspected, not charged',
    fixture: `
//- topology.dot
digraph g {
  planner -> check;
  builder -> check;
//^^^^^^^ warning analysis/criteria-leak-suspected: (similarity 0.72, above 0.35)
}`,
    cards: { planner: { ...planner, spec: criteriaText }, builder: { spec: restated }, check: judge },
    findings: [],
  },
  {
    name: '(b) with similarityFiresMarker the suspicion charges the marker too',
    fixture: `
//- topology.dot
digraph g {
  planner -> check;
  builder -> check;
//^^^^^^^ warning analysis/criteria-leak-suspected
//^^^^^^^ warning analysis/criteria-leak: The spec of builder restates the spec of planner
}`,
    cards: { planner: { ...planner, spec: criteriaText }, builder: { spec: restated }, check: judge },
    config: { criteriaLeak: { similarityThreshold: 0.35, similarityFiresMarker: true } },
    findings: ['criteria-leak builder inferred'],
  },
  {
    name: '(b) reported even where (a) fired',
    fixture: `
//- topology.dot
digraph g {
  planner -> builder -> check;
//           ^^^^^^^ warning analysis/criteria-leak-suspected
//           ^^^^^^^ warning analysis/criteria-leak: reach builder
}`,
    cards: { planner: { ...planner, spec: criteriaText }, builder: { spec: restated }, check: judge },
    findings: ['criteria-leak builder inferred'],
  },
  {
    name: '(b) exactly at the threshold is not above it',
    fixture: `
//- topology.dot
digraph g { planner -> check; builder -> check; }`,
    cards: {
      planner: { ...planner, spec: 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu' },
      builder: { spec: 'alpha beta gamma delta epsilon zeta eta theta iota one two three four five six seven eight nine ten' },
      check: judge,
    },
  },
  {
    name: '(b) a lower threshold makes the same pair suspect',
    fixture: `
//- topology.dot
digraph g {
  planner -> check;
  builder -> check;
//^^^^^^^ warning analysis/criteria-leak-suspected: (similarity 0.35, above 0.30)
}`,
    cards: {
      planner: { ...planner, spec: 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu' },
      builder: { spec: 'alpha beta gamma delta epsilon zeta eta theta iota one two three four five six seven eight nine ten' },
      check: judge,
    },
    config: { criteriaLeak: { similarityThreshold: 0.3, similarityFiresMarker: false } },
  },
  {
    name: '(b) specs under three words are never compared',
    fixture: `
//- topology.dot
digraph g { planner -> check; builder -> check; }`,
    cards: { planner: { ...planner, spec: 'Build it.' }, builder: { spec: 'Build it.' }, check: judge },
  },
  {
    name: '(b) a producer is not compared with another producer',
    fixture: `
//- topology.dot
digraph g { planner -> check; second -> check; }`,
    cards: { planner: { ...planner, spec: criteriaText }, second: { ...planner, spec: criteriaText }, check: judge },
  },
];

describe('analysis: criteria-leak', () => {
  for (const [title, rows] of [
    ['topological (a) and relayed (a2)', [...topological, ...relayedMany]],
    ['declarative (d)', declarative],
    ['unanchored (c1)', unanchored],
    ['out of band (c2)', outOfBand],
    ['content (b)', content],
  ] as const) {
    describe(title, () => {
      for (const row of rows) it(row.name, () => checkCriteria(row));
    });
  }
});
