import assert from 'node:assert/strict';
import { checkAnalysis, localTerm, type AnalysisFixture, type CardFields } from './support/analysis-builder';
import { formatFraction } from '../src/analyze';

interface AutonomyRow extends AnalysisFixture {
  readonly rationale?: string;
  readonly level?: number;
  readonly autonomyClass?: string;
  readonly fraction?: number;
  readonly staffingFraction?: number;
  readonly control?: { totalNodes: number; unattendedNodes: number; fraction: number; counted: boolean };
  readonly isDarkFactory?: boolean;
  /** `nodeId requiresHuman governsFlow resolved [term] [controlTerm]` per contribution. */
  readonly contributions?: readonly string[];
  readonly phaseCoverage?: { covered: string[]; missing: string[]; byPhase: Record<string, string[]>; unphased: string[] };
}

function checkAutonomy(row: AutonomyRow): void {
  const { autonomy, phaseCoverage } = checkAnalysis(row);
  if (row.rationale !== undefined) assert.equal(autonomy.rationale, row.rationale, 'rationale');
  if (row.level !== undefined) assert.equal(autonomy.level, row.level, 'level');
  if (row.autonomyClass !== undefined) assert.equal(autonomy.autonomyClass, row.autonomyClass, 'class');
  if (row.fraction !== undefined) assert.equal(autonomy.fraction, row.fraction, 'fraction');
  if (row.staffingFraction !== undefined) assert.equal(autonomy.staffingFraction, row.staffingFraction, 'staffingFraction');
  if (row.control !== undefined) assert.deepEqual(autonomy.control, row.control, 'control');
  if (row.isDarkFactory !== undefined) assert.equal(autonomy.isDarkFactory, row.isDarkFactory, 'isDarkFactory');
  if (row.contributions !== undefined) {
    assert.deepEqual(
      autonomy.contributions.map((c) =>
        [c.nodeId, c.requiresHuman, c.governsFlow, c.resolved, ...(c.term ? [c.term] : []), ...(c.controlTerm ? [c.controlTerm] : [])].join(' '),
      ),
      row.contributions,
    );
  }
  if (row.phaseCoverage !== undefined) {
    assert.deepEqual(
      { ...phaseCoverage, byPhase: Object.entries(phaseCoverage.byPhase) },
      { ...row.phaseCoverage, byPhase: Object.entries(row.phaseCoverage.byPhase) },
    );
  }
}

/** `count` nodes n0..n(count-1) in a line; the cards object types the first ones. */
function line(count: number): string {
  return `
//- topology.dot
digraph g { ${Array.from({ length: count }, (_, i) => `n${i}`).join(' -> ')}; }`;
}
function typed(...types: string[]): Record<string, CardFields> {
  return Object.fromEntries(types.map((type, i) => [`n${i}`, { type }]));
}

const bands: AutonomyRow[] = [
  {
    name: 'one node, unattended',
    fixture: line(1),
    rationale: '1 of 1 node runs unattended, none have a person in the loop. 1.00 > 0.90 → level 4 (Closed-loop).',
    level: 4,
    autonomyClass: 'closed-loop',
    fraction: 1,
  },
  {
    name: 'just above 0.9 is closed-loop',
    fixture: line(11),
    cards: typed('human-input'),
    rationale: '10 of 11 nodes run unattended, 1 has a person in the loop. 0.9091 > 0.90 → level 4 (Closed-loop).',
    level: 4,
  },
  {
    name: 'exactly 0.9 is conditional (level 4 needs strictly more)',
    fixture: line(10),
    cards: typed('human-gate'),
    rationale:
      '9 of 10 nodes run unattended, 1 has a person in the loop. The graph declares 1 control point, which is one reading rather than a share. 0.90 ≥ 0.70 → level 3 (Conditional).',
    level: 3,
    autonomyClass: 'conditional',
    control: { totalNodes: 1, unattendedNodes: 0, fraction: 0, counted: false },
  },
  {
    name: 'exactly 0.7 is conditional',
    fixture: line(10),
    cards: typed('human-input', 'human-input', 'human-input'),
    rationale: '7 of 10 nodes run unattended, 3 have a person in the loop. 0.70 ≥ 0.70 → level 3 (Conditional).',
    autonomyClass: 'conditional',
  },
  {
    name: 'just under 0.7 is supervised',
    fixture: line(3),
    cards: typed('human-input'),
    rationale: '2 of 3 nodes run unattended, 1 has a person in the loop. 0.6667 ≥ 0.50 → level 2 (Supervised).',
    level: 2,
    fraction: 0.6667,
  },
  {
    name: 'exactly 0.5 is supervised',
    fixture: line(2),
    cards: typed('human-input'),
    rationale: '1 of 2 nodes run unattended, 1 has a person in the loop. 0.50 ≥ 0.50 → level 2 (Supervised).',
    autonomyClass: 'supervised',
  },
  {
    name: 'under 0.5 is assisted',
    fixture: line(3),
    cards: typed('human-input', 'human-gate'),
    rationale:
      '1 of 3 nodes run unattended, 2 have a person in the loop. The graph declares 1 control point, which is one reading rather than a share. 0.3333 < 0.50 → level 1 (Assisted).',
    level: 1,
    autonomyClass: 'assisted',
  },
  {
    name: 'custom bands',
    fixture: line(2),
    cards: typed('human-input'),
    config: { autonomyBands: { level4: 0.4, level3: 0.3, level2: 0.2 } },
    rationale: '1 of 2 nodes run unattended, 1 has a person in the loop. 0.50 > 0.40 → level 4 (Closed-loop).',
  },
];

const control: AutonomyRow[] = [
  {
    name: 'two control points are counted, and the weaker reading decides',
    fixture: line(4),
    cards: typed('human-gate', 'decision'),
    rationale: '3 of 4 nodes run unattended, 1 has a person in the loop. 1 of 2 control points run unattended. 0.50 ≥ 0.50 → level 2 (Supervised).',
    staffingFraction: 0.75,
    fraction: 0.5,
    control: { totalNodes: 2, unattendedNodes: 1, fraction: 0.5, counted: true },
    contributions: ['n0 true true true human-gate human-gate', 'n1 false true true decision', 'n2 false false true', 'n3 false false true'],
  },
  {
    name: 'a counted control reading above the staffing one leaves the staffing one in charge',
    fixture: `${line(4)}
//- @bundle
warning analysis/criteria-leak-unanchored`,
    cards: typed('decision', 'validation', 'human-input', 'human-input'),
    rationale: '2 of 4 nodes run unattended, 2 have a person in the loop. 2 of 2 control points run unattended. 0.50 ≥ 0.50 → level 2 (Supervised).',
    fraction: 0.5,
    control: { totalNodes: 2, unattendedNodes: 2, fraction: 1, counted: true },
    contributions: [
      'n0 false true true decision',
      'n1 false true true validation',
      'n2 true false true human-input',
      'n3 true false true human-input',
    ],
  },
  {
    name: 'a control point is found through its ancestors (orchestration branch)',
    fixture: line(3),
    cards: typed('parallel', 'parallel.fan-in', 'manager-loop'),
    control: { totalNodes: 3, unattendedNodes: 3, fraction: 1, counted: true },
    rationale: '3 of 3 nodes run unattended, none have a person in the loop. 3 of 3 control points run unattended. 1.00 > 0.90 → level 4 (Closed-loop).',
  },
  {
    name: 'a local type under human-gate is staffed and decides; a deprecated one counts as its replacement',
    fixture: line(3),
    terms: [
      localTerm({ id: 'acme/approver', kind: 'node-type', broader: 'human-gate' }),
      localTerm({ id: 'acme/old-gate', kind: 'node-type', broader: 'agent', deprecated: { replacedBy: 'human-gate' } }),
    ],
    cards: typed('acme/approver', 'acme/old-gate'),
    contributions: ['n0 true true true human-gate human-gate', 'n1 true true true human-gate human-gate', 'n2 false false true'],
    control: { totalNodes: 2, unattendedNodes: 0, fraction: 0, counted: true },
    rationale: '1 of 3 nodes run unattended, 2 have a person in the loop. 0 of 2 control points run unattended. 0.00 < 0.50 → level 1 (Assisted).',
  },
];

const unresolved: AutonomyRow[] = [
  {
    name: 'one node with no card: counted, neither staffed nor unattended, located on the node',
    fixture: `
//- topology.dot
digraph g {
  a -> b -> c;
//     ^ warning analysis/unresolved-node: Node b has no card in the bundle
}`,
    missing: ['b'],
    rationale: '2 of 3 nodes run unattended, none have a person in the loop, 1 has no card in the bundle. 0.6667 ≥ 0.50 → level 2 (Supervised).',
    contributions: ['a false false true', 'b false false false', 'c false false true'],
    isDarkFactory: false,
  },
  {
    name: 'several nodes with no card: one bundle-wide warning naming them',
    fixture: `
//- topology.dot
digraph g { a -> b -> c; }
//- @bundle
warning analysis/unresolved-node: 2 of the 3 nodes have no card in the bundle (a and c)`,
    missing: ['a', 'c'],
    rationale: '1 of 3 nodes run unattended, none have a person in the loop, 2 have no card in the bundle. 0.3333 < 0.50 → level 1 (Assisted).',
  },
  {
    name: 'no node has a card',
    fixture: `
//- topology.dot
digraph g { a -> b; }
//- @bundle
warning analysis/unresolved-node: None of the 2 nodes has a card`,
    missing: ['a', 'b'],
    rationale: '0 of 2 nodes run unattended, none have a person in the loop, 2 have no card in the bundle. 0.00 < 0.50 → level 1 (Assisted).',
  },
];

const phases = (entries: Record<string, readonly string[]>): Record<string, CardFields> =>
  Object.fromEntries(Object.entries(entries).map(([id, list]) => [id, { phases: list }]));

const coverage: AutonomyRow[] = [
  {
    name: 'all five phases, nobody in the loop: a dark factory',
    fixture: line(5),
    cards: phases({ n0: ['planning'], n1: ['implementation'], n2: ['testing'], n3: ['debugging'], n4: ['deployment'] }),
    isDarkFactory: true,
    phaseCoverage: {
      covered: ['planning', 'implementation', 'testing', 'debugging', 'deployment'],
      missing: [],
      byPhase: { planning: ['n0'], implementation: ['n1'], testing: ['n2'], debugging: ['n3'], deployment: ['n4'] },
      unphased: [],
    },
  },
  {
    name: 'a person in the loop: not a dark factory',
    fixture: line(5),
    cards: {
      ...phases({ n0: ['planning'], n1: ['implementation'], n2: ['testing'], n3: ['debugging'] }),
      n4: { phases: ['deployment'], type: 'human-gate' },
    },
    isDarkFactory: false,
  },
  {
    name: 'several phases, no phase, a missing card, and phases out of order',
    fixture: `
//- topology.dot
digraph g {
  a -> b -> c -> d;
//          ^ warning analysis/unresolved-node
}`,
    cards: phases({ a: ['testing', 'planning'], b: ['planning', ' ', 'planning'], d: [] }),
    missing: ['c'],
    isDarkFactory: false,
    phaseCoverage: {
      covered: ['planning', 'testing'],
      missing: ['implementation', 'debugging', 'deployment'],
      byPhase: { planning: ['a', 'b'], implementation: [], testing: ['a'], debugging: [], deployment: [] },
      unphased: ['d'],
    },
  },
  {
    name: 'a phase outside the five gets its own key after them',
    fixture: line(2),
    cards: phases({ n0: ['acme/review'], n1: ['__proto__'] }),
    phaseCoverage: {
      covered: [],
      missing: ['planning', 'implementation', 'testing', 'debugging', 'deployment'],
      byPhase: { planning: [], implementation: [], testing: [], debugging: [], deployment: [], 'acme/review': ['n0'], ['__proto__']: ['n1'] },
      unphased: [],
    },
  },
];

describe('analysis: autonomy and phase coverage', () => {
  for (const [title, rows] of [
    ['bands and the rationale', bands],
    ['control points', control],
    ['nodes with no card', unresolved],
    ['phase coverage and isDarkFactory', coverage],
  ] as const) {
    describe(title, () => {
      for (const row of rows) it(row.name, () => checkAutonomy(row));
    });
  }

  it('an empty graph: assisted, level 1, nothing covered', () => {
    checkAutonomy({
      name: 'empty',
      fixture: `
//- topology.dot
digraph g { }
//- @bundle
warning analysis/empty-graph: autonomy
warning analysis/empty-graph: security`,
      rationale: 'Nothing to score. The fraction defaults to 0.00 < 0.50 → level 1 (Assisted).',
      level: 1,
      autonomyClass: 'assisted',
      fraction: 0,
      isDarkFactory: false,
      control: { totalNodes: 0, unattendedNodes: 0, fraction: 0, counted: false },
      contributions: [],
      phaseCoverage: {
        covered: [],
        missing: ['planning', 'implementation', 'testing', 'debugging', 'deployment'],
        byPhase: { planning: [], implementation: [], testing: [], debugging: [], deployment: [] },
        unphased: [],
      },
    });
  });

  it('fractions print with 2 to 4 decimals', () => {
    const table: [number, string][] = [[1, '1.00'], [0.5, '0.50'], [0, '0.00'], [0.1, '0.10'], [0.875, '0.875'], [0.6667, '0.6667'], [0.12345, '0.1235'], [0.9091, '0.9091']];
    for (const [value, text] of table) assert.equal(formatFraction(value), text, `${value}`);
  });
});
