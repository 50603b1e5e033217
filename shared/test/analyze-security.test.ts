import assert from 'node:assert/strict';
import { checkAnalysis, localTerm, type AnalysisFixture } from './support/analysis-builder';
import { toLevel } from '../src/analyze';

interface SecurityRow extends AnalysisFixture {
  readonly level?: number;
  readonly raw?: number;
  readonly rationale?: string;
  /** marker -> node ids, as the penalties list them (in penalty order). */
  readonly penalties?: readonly (readonly [string, number, readonly string[]])[];
  /** `marker node establishedBy`, in findings order. */
  readonly findings?: readonly string[];
  /** `marker node` -> expected path. */
  readonly paths?: Readonly<Record<string, readonly string[]>>;
  readonly explanation?: Readonly<Record<string, string>>;
}

function checkSecurity(row: SecurityRow): void {
  const { security } = checkAnalysis(row);
  if (row.level !== undefined) assert.equal(security.level, row.level, 'level');
  if (row.raw !== undefined) assert.equal(security.raw, row.raw, 'raw');
  if (row.rationale !== undefined) assert.equal(security.rationale, row.rationale, 'rationale');
  if (row.penalties !== undefined) {
    assert.deepEqual(
      security.penalties.map((p) => [p.marker, p.weight, p.nodeIds]),
      row.penalties.map(([m, w, n]) => [m, w, [...n]]),
      'penalties',
    );
  }
  if (row.findings !== undefined) {
    assert.deepEqual(security.findings.map((f) => `${f.marker} ${f.nodeId} ${f.establishedBy}`), row.findings, 'findings');
  }
  for (const [key, path] of Object.entries(row.paths ?? {})) {
    const finding = security.findings.find((f) => `${f.marker} ${f.nodeId}` === key);
    assert.ok(finding, `no finding ${key}`);
    assert.deepEqual(finding.path, path, `path of ${key}`);
  }
  for (const [key, text] of Object.entries(row.explanation ?? {})) {
    const finding = security.findings.find((f) => `${f.marker} ${f.nodeId}` === key);
    assert.ok(finding, `no finding ${key}`);
    assert.ok(finding.explanation.includes(text), `explanation of ${key}: ${finding.explanation}`);
  }
}

const twoNodes = `
//- topology.dot
digraph g {
  a -> b;
}`;

const scores: SecurityRow[] = [
  {
    name: 'no marker, one node',
    fixture: `
//- topology.dot
digraph g { a; }`,
    level: 4,
    raw: 4,
    rationale: '4 − 0.00 (no risk marker present across 1 node) → 4',
    penalties: [],
    findings: [],
  },
  {
    name: 'no marker, two nodes',
    fixture: twoNodes,
    rationale: '4 − 0.00 (no risk marker present across 2 nodes) → 4',
  },
  {
    name: 'raw 2.5 rounds up to 3',
    fixture: twoNodes,
    cards: { a: { riskMarkers: ['irreversible-action'] } },
    level: 3,
    raw: 2.5,
    rationale: '4 − 1.50 (irreversible-action) → 3',
    findings: ['irreversible-action a declared'],
    explanation: { 'irreversible-action a': 'Node "a" declares the risk marker irreversible-action.' },
  },
  {
    name: 'raw 1.5 rounds up to 2, heavier marker first',
    fixture: twoNodes,
    cards: { a: { riskMarkers: ['unchecked-write'] }, b: { riskMarkers: ['irreversible-action'] } },
    level: 2,
    raw: 1.5,
    rationale: '4 − 1.50 (irreversible-action) − 1.00 (unchecked-write) → 2',
    findings: ['irreversible-action b declared', 'unchecked-write a declared'],
  },
  {
    name: 'raw 0.5 rounds up to 1',
    fixture: twoNodes,
    cards: { a: { riskMarkers: ['arbitrary-code-execution', 'irreversible-action'] } },
    level: 1,
    raw: 0.5,
    rationale: '4 − 2.00 (arbitrary-code-execution) − 1.50 (irreversible-action) → 1',
  },
  {
    name: 'raw 3.5 rounds up to 4 (a local marker with its own weight)',
    fixture: twoNodes,
    terms: [localTerm({ id: 'acme/budget', kind: 'risk-marker', broader: 'execution-risk', defaultWeight: 0.5 })],
    cards: { b: { riskMarkers: ['acme/budget'] } },
    level: 4,
    raw: 3.5,
    rationale: '4 − 0.50 (acme/budget) → 4',
  },
  {
    name: 'weights are rounded to 4 decimals and printed with 2',
    fixture: twoNodes,
    terms: [localTerm({ id: 'acme/third', kind: 'risk-marker', broader: 'execution-risk', defaultWeight: 1 / 3 })],
    cards: { a: { riskMarkers: ['acme/third'] } },
    raw: 3.6667,
    level: 4,
    rationale: '4 − 0.33 (acme/third) → 4',
    penalties: [['acme/third', 0.3333, ['a']]],
  },
  {
    name: 'below 1 clamps to 1 and raw stays negative',
    fixture: twoNodes,
    cards: {
      a: { riskMarkers: ['arbitrary-code-execution', 'criteria-leak', 'unbounded-loop'] },
      b: { riskMarkers: ['irreversible-action', 'secret-access', 'unchecked-write', 'unvalidated-external-access'] },
    },
    level: 1,
    raw: -6,
    rationale:
      '4 − 2.00 (arbitrary-code-execution) − 2.00 (criteria-leak) − 1.50 (irreversible-action) − 1.50 (unbounded-loop) − 1.00 (secret-access) − 1.00 (unchecked-write) − 1.00 (unvalidated-external-access) → 1',
  },
  {
    name: 'a marker on several nodes (and twice on one card) is charged once and lists every node, sorted',
    fixture: `
//- topology.dot
digraph g { b -> a -> c; }`,
    cards: { b: { riskMarkers: ['secret-access', 'secret-access'] }, a: { riskMarkers: ['secret-access'] } },
    raw: 3,
    rationale: '4 − 1.00 (secret-access) → 3',
    penalties: [['secret-access', 1, ['a', 'b']]],
    findings: ['secret-access a declared', 'secret-access b declared'],
  },
  {
    name: 'an unknown marker is kept under its spelling and weighs the unknown weight',
    fixture: twoNodes,
    cards: { a: { riskMarkers: ['acme/mystery'] } },
    level: 4,
    rationale: '4 − 0.00 (acme/mystery) → 4',
    explanation: { 'acme/mystery a': 'which the vocabulary does not define' },
  },
  {
    name: 'the unknown weight comes from the config',
    fixture: twoNodes,
    cards: { a: { riskMarkers: ['acme/mystery'] } },
    config: { unknownMarkerWeight: 0.75 },
    raw: 3.25,
    rationale: '4 − 0.75 (acme/mystery) → 3',
  },
  {
    name: 'a term of another kind is kept under its spelling',
    fixture: twoNodes,
    cards: { a: { riskMarkers: ['code'] } },
    rationale: '4 − 0.00 (code) → 4',
    explanation: { 'code a': 'defines it as a data-type' },
  },
  {
    name: 'a deprecated spelling is charged as its replacement',
    fixture: twoNodes,
    terms: [localTerm({ id: 'acme/old-write', kind: 'risk-marker', broader: 'isolation-breach', deprecated: { replacedBy: 'unchecked-write' } })],
    cards: { a: { riskMarkers: ['acme/old-write'] }, b: { riskMarkers: ['unchecked-write'] } },
    rationale: '4 − 1.00 (unchecked-write) → 3',
    penalties: [['unchecked-write', 1, ['a', 'b']]],
    explanation: { 'unchecked-write a': 'declares acme/old-write, which the vocabulary replaces with the risk marker unchecked-write' },
  },
  {
    name: 'a configured weight wins over the default',
    fixture: twoNodes,
    cards: { a: { riskMarkers: ['irreversible-action'] } },
    config: { securityWeights: { 'irreversible-action': 0.25 } },
    raw: 3.75,
    rationale: '4 − 0.25 (irreversible-action) → 4',
  },
  {
    name: 'an unusable configured weight falls back to the term weight',
    fixture: twoNodes,
    terms: [localTerm({ id: 'acme/budget', kind: 'risk-marker', broader: 'execution-risk', defaultWeight: 0.5 })],
    cards: { a: { riskMarkers: ['acme/budget'] } },
    config: { securityWeights: { 'acme/budget': -1 } },
    rationale: '4 − 0.50 (acme/budget) → 4',
  },
  {
    name: 'an unusable local weight counts the unknown weight',
    fixture: twoNodes,
    terms: [localTerm({ id: 'acme/odd', kind: 'risk-marker', broader: 'execution-risk', defaultWeight: -2 })],
    cards: { a: { riskMarkers: ['acme/odd'] } },
    rationale: '4 − 0.00 (acme/odd) → 4',
  },
  {
    name: 'equal weights sort by marker id',
    fixture: twoNodes,
    cards: { a: { riskMarkers: ['unvalidated-external-access', 'unchecked-write'] }, b: { riskMarkers: ['secret-access'] } },
    rationale: '4 − 1.00 (secret-access) − 1.00 (unchecked-write) − 1.00 (unvalidated-external-access) → 1',
    findings: ['secret-access b declared', 'unchecked-write a declared', 'unvalidated-external-access a declared'],
  },
];

const loops: SecurityRow[] = [
  {
    name: 'a self-loop with no cap',
    fixture: `
//- topology.dot
digraph g {
  a -> a;
//^ warning analysis/unbounded-loop: Node a has an edge to itself
}`,
    rationale: '4 − 1.50 (unbounded-loop) → 3',
    findings: ['unbounded-loop a inferred'],
    paths: { 'unbounded-loop a': ['a'] },
  },
  {
    name: 'every member of an uncapped cycle, and nothing outside it',
    fixture: `
//- topology.dot
digraph g {
  a -> b -> c -> a;
//^ warning analysis/unbounded-loop: sits in a cycle with b and c
//     ^ warning analysis/unbounded-loop: max_iterations
//          ^ warning analysis/unbounded-loop
  c -> d;
}`,
    findings: ['unbounded-loop a inferred', 'unbounded-loop b inferred', 'unbounded-loop c inferred'],
    paths: { 'unbounded-loop b': ['a', 'b', 'c'] },
    explanation: { 'unbounded-loop b': 'Node "b" sits in a cycle with a and c' },
  },
  ...(
    [
      ['max_iterations: 3', { max_iterations: 3 }],
      ['0 counts as a cap', { max_iterations: 0 }],
      ['a numeric string', { max_iterations: ' 7 ' }],
      ['maxIterations', { maxIterations: 2 }],
      ['max_retries', { max_retries: 1 }],
      ['an unusable first key does not stop the search', { max_iterations: 'many', max_retries: 2 }],
    ] as const
  ).map(
    ([what, params]): SecurityRow => ({
      name: `a cap on one member exempts the cycle: ${what}`,
      fixture: `
//- topology.dot
digraph g {
  a -> b -> a;
}`,
      cards: { b: { params } },
      rationale: '4 − 0.00 (no risk marker present across 2 nodes) → 4',
    }),
  ),
  ...(
    [
      ['a nested key', { loop: { max_iterations: 3 } }],
      ['a negative number', { max_iterations: -1 }],
      ['a fraction', { max_iterations: 1.5 }],
      ['a blank string', { max_iterations: ' ' }],
      ['a boolean', { max_iterations: true }],
    ] as const
  ).map(
    ([what, params]): SecurityRow => ({
      name: `not a cap: ${what}`,
      fixture: `
//- topology.dot
digraph g {
  a -> b -> a;
//^ warning analysis/unbounded-loop
//     ^ warning analysis/unbounded-loop
}`,
      cards: { b: { params } },
      findings: ['unbounded-loop a inferred', 'unbounded-loop b inferred'],
    }),
  ),
  {
    name: 'a member with no card still carries the marker',
    fixture: `
//- topology.dot
digraph g {
  a -> b -> a;
//^ warning analysis/unbounded-loop
//     ^ warning analysis/unbounded-loop
//     ^ warning analysis/unresolved-node: Node b has no card
}`,
    missing: ['b'],
    findings: ['unbounded-loop a inferred', 'unbounded-loop b inferred'],
  },
  {
    name: 'a declared marker the graph confirms is declared, and only the other member gets a warning',
    fixture: `
//- topology.dot
digraph g {
  a -> b -> a;
//     ^ warning analysis/unbounded-loop
}`,
    cards: { a: { riskMarkers: ['unbounded-loop'] } },
    findings: ['unbounded-loop a declared', 'unbounded-loop b inferred'],
    explanation: { 'unbounded-loop a': 'declares the risk marker unbounded-loop, and sits in a cycle with b' },
  },
  {
    name: 'node warnings sit in the topology file, whatever its name',
    fixture: `
//- flows/main.dot
digraph g {
  a -> a;
//^ warning analysis/unbounded-loop
}`,
    findings: ['unbounded-loop a inferred'],
  },
  {
    name: 'no cycle, no marker',
    fixture: `
//- topology.dot
digraph g { a -> b -> c; a -> c; }`,
    findings: [],
  },
];

const external: SecurityRow[] = [
  {
    name: 'an external tool feeding an ordinary node',
    fixture: `
//- topology.dot
digraph g {
  fetch -> write;
//^^^^^ warning analysis/unvalidated-external-access: Node fetch reads from outside the graph with tool web-search and passes the result straight to write (not a validation node)
}`,
    cards: { fetch: { tools: ['web-search', 'git'] } },
    rationale: '4 − 1.00 (unvalidated-external-access) → 3',
    findings: ['unvalidated-external-access fetch inferred'],
    paths: { 'unvalidated-external-access fetch': ['fetch', 'write'] },
  },
  {
    name: 'every consumer validates: no marker',
    fixture: `
//- topology.dot
digraph g { fetch -> check; }
//- @bundle
warning analysis/criteria-leak-unanchored`,
    cards: { fetch: { tools: ['http-fetch'] }, check: { type: 'validation' } },
    findings: [],
  },
  {
    name: 'no consumer: no marker',
    fixture: `
//- topology.dot
digraph g { query; other; }`,
    cards: { query: { tools: ['sql'] } },
    findings: [],
  },
  {
    name: 'a node that consumes its own fetch is not its own validator',
    fixture: `
//- topology.dot
digraph g {
  ci_poll -> ci_poll;
//^^^^^^^ warning analysis/unvalidated-external-access: ci_poll itself
  ci_poll -> check;
}
//- @bundle
warning analysis/criteria-leak-unanchored`,
    cards: { ci_poll: { tools: ['ci'], params: { max_iterations: 5 } }, check: { type: 'validation' } },
    findings: ['unvalidated-external-access ci_poll inferred'],
  },
  {
    name: 'a consumer with no card is not a validator',
    fixture: `
//- topology.dot
digraph g {
  fetch -> later;
//^^^^^ warning analysis/unvalidated-external-access: later (no card)
//         ^^^^^ warning analysis/unresolved-node
}`,
    cards: { fetch: { tools: ['web-search'] } },
    missing: ['later'],
    findings: ['unvalidated-external-access fetch inferred'],
  },
  {
    name: 'a local tool under web-search counts; an unrooted one does not',
    fixture: `
//- topology.dot
digraph g {
  scrape -> use;
//^^^^^^ warning analysis/unvalidated-external-access: acme/scraper
  local -> use;
}`,
    terms: [localTerm({ id: 'acme/scraper', kind: 'tool', broader: 'web-search' }), localTerm({ id: 'acme/loose', kind: 'tool' })],
    cards: { scrape: { tools: ['acme/scraper'] }, local: { tools: ['acme/loose', 'messaging', 'shell'] } },
    findings: ['unvalidated-external-access scrape inferred'],
  },
];

describe('analysis: security', () => {
  describe('score, rounding and rationale', () => {
    for (const row of scores) it(row.name, () => checkSecurity(row));
  });
  describe('unbounded-loop', () => {
    for (const row of loops) it(row.name, () => checkSecurity(row));
  });
  describe('unvalidated-external-access', () => {
    for (const row of external) it(row.name, () => checkSecurity(row));
  });
  it('an empty graph scores a vacuous 4 and says so (from both metrics, with no file)', () => {
    const analysis = checkAnalysis({
      name: 'empty',
      fixture: `
//- topology.dot
digraph g { }
//- @bundle
warning analysis/empty-graph: security
warning analysis/empty-graph: autonomy`,
    });
    assert.equal(analysis.security.rationale, '4 − 0.00 (empty graph: no node to analyse) → 4');
    assert.equal(analysis.security.level, 4);
    assert.equal(analysis.security.raw, 4);
  });
  it('levels use JavaScript rounding and clamp to 1..4', () => {
    const table: [number, number][] = [[4, 4], [3.5, 4], [3.4999, 3], [2.5, 3], [1.5, 2], [0.5, 1], [-0.5, 1], [-6, 1], [5, 4]];
    for (const [raw, level] of table) assert.equal(toLevel(raw), level, `raw ${raw}`);
  });
});
