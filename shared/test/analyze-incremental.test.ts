/**
 * The analysis memo reuses each weakly connected component's security reading while the
 * component reads the same (ids, edges in order, spans, card facts), moves its warnings when
 * only its spans moved, and reads only the changed components again. Whatever the edits, an
 * analysis made with the memo must equal, value for value and in every order, the one made
 * without it.
 *
 * A state is a list of nodes (id, card or none, the text before it, or no span at all) and a
 * list of edges in order; the input is built from it as the loader would build it. Edits: a
 * node added (anywhere in graph order) or removed, an edge added, removed or moved to the end
 * (which reorders neighbour lists), so components merge and split; a card changed, dropped, or
 * copied into a new object with the same fields; text typed before a node; a span dropped or
 * restored, or put anywhere (out of graph order, or where another one sits); the
 * configuration switched. A table of named sequences runs through the same check as the
 * random ones; a second table pins by value what the step that combines the components adds
 * (both analyses go through that step, so comparing them cannot catch a mistake there); the
 * last tests show that reuse does happen.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Card } from '../src/card/card-model';
import type { Span } from '../src/text';
import { analyze, buildGraph, createAnalysisMemo, defaultAnalysisConfig, type Analysis, type AnalysisConfig, type AnalysisInput, type AnalysisMemo } from '../src/analyze';
import { coreVocabulary } from '../src/vocabulary/view';
import { card, checkAnalysis, type AnalysisFixture } from './support/analysis-builder';

const criteriaText = 'Every endpoint must return JSON with a status field and reject requests without a token.';
const restated = 'Implement the service so that every endpoint must return JSON with a status field and reject requests without a token.';

/** Card fields by variant name; `none` is a node with no card. */
const variants: Readonly<Record<string, Partial<Card> | undefined>> = {
  none: undefined,
  agent: {},
  judge: {
    type: 'validation',
    inputs: [
      { name: 'work', type: 'code' },
      { name: 'criteria', type: 'acceptance-criteria' },
    ],
  },
  /** A judge that reads a report rather than code: (d) reads a judge's inputs. */
  reportJudge: {
    type: 'validation',
    inputs: [
      { name: 'work', type: 'report' },
      { name: 'criteria', type: 'acceptance-criteria' },
    ],
  },
  producer: { outputs: [{ name: 'criteria', type: 'acceptance-criteria' }], spec: criteriaText, phases: ['planning'] },
  writer: {
    outputs: [
      { name: 'criteria', type: 'acceptance-criteria' },
      { name: 'code', type: 'code' },
    ],
    spec: `${criteriaText} Also write the code.`,
  },
  restater: { spec: restated, phases: ['implementation'] },
  leakyRestater: { spec: restated, riskMarkers: ['criteria-leak'] },
  capped: { params: { max_iterations: 3 } },
  fetcher: { tools: ['web-search', 'web-search'], phases: ['testing', 'custom-phase'] },
  risky: { riskMarkers: ['irreversible-action', 'made-up-marker', 'criteria-leak'] },
  human: { type: 'human-gate', phases: ['deployment'] },
  decision: { type: 'decision' },
  named: { name: 'A Pretty Name', phases: [' debugging ', ''] },
  outOfBand: { params: { criteria: ['nowhere', { deeper: 'still nowhere' }] } },
  namesNode: { params: { acceptance_criteria: 'a' } },
  namesPort: { params: { criteria_source: 'criteria' } },
};
const variantNames = Object.keys(variants);
const nodeNames = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'n10', 'n2', 'n1', 'Zed', '_x', 'q.q', 'w', 'm'];

/** A config where (b) also charges the marker, with a threshold restated specs pass. */
const firing: AnalysisConfig = { ...defaultAnalysisConfig, criteriaLeak: { similarityThreshold: 0.2, similarityFiresMarker: true } };
const configs: readonly AnalysisConfig[] = [defaultAnalysisConfig, firing];

interface Node {
  readonly id: string;
  readonly card: Card | undefined;
  /** Characters of text before the node's id (after the previous one's). */
  readonly gap: number;
  readonly spanless: boolean;
  /** Where the node's id sits when not after the previous one (spans out of graph order, or shared). */
  readonly placed?: number;
}

interface State {
  readonly nodes: readonly Node[];
  readonly edges: readonly (readonly [string, string])[];
  readonly config: number;
}

type Edit =
  | { readonly kind: 'add-node'; readonly name: number; readonly variant: number; readonly at: number | 'end' }
  | { readonly kind: 'remove-node'; readonly node: number }
  | { readonly kind: 'add-edge'; readonly source: number; readonly target: number }
  | { readonly kind: 'remove-edge'; readonly edge: number }
  | { readonly kind: 'move-edge'; readonly edge: number }
  | { readonly kind: 'card'; readonly node: number; readonly variant: number }
  | { readonly kind: 'renew'; readonly node: number }
  | { readonly kind: 'shift'; readonly node: number; readonly amount: number }
  | { readonly kind: 'spanless'; readonly node: number }
  | { readonly kind: 'place'; readonly node: number; readonly at: number }
  | { readonly kind: 'config'; readonly value: number };

function cardOf(id: string, variant: string): Card | undefined {
  const fields = variants[variant];
  return fields === undefined ? undefined : card(id, fields);
}

function node(id: string, variant: string, gap = 2): Node {
  return { id, card: cardOf(id, variant), gap, spanless: false };
}

/** Applies one edit (a no-op when it finds nothing to change). Indices wrap around. */
function apply(state: State, edit: Edit): State {
  const { nodes, edges } = state;
  const pick = <T>(list: readonly T[], n: number): T | undefined => (list.length === 0 ? undefined : list[n % list.length]);
  const at = (n: number): number => n % Math.max(1, nodes.length);
  const replace = (n: number, change: (node: Node) => Node): State =>
    nodes.length === 0 ? state : { ...state, nodes: nodes.map((x, i) => (i === at(n) ? change(x) : x)) };
  switch (edit.kind) {
    case 'add-node': {
      const id = nodeNames[edit.name % nodeNames.length];
      if (nodes.some((x) => x.id === id)) return state;
      const place = edit.at === 'end' ? nodes.length : edit.at % (nodes.length + 1);
      return { ...state, nodes: [...nodes.slice(0, place), node(id, variantNames[edit.variant % variantNames.length]), ...nodes.slice(place)] };
    }
    case 'remove-node': {
      const gone = pick(nodes, edit.node);
      if (gone === undefined) return state;
      return { ...state, nodes: nodes.filter((x) => x !== gone), edges: edges.filter(([s, t]) => s !== gone.id && t !== gone.id) };
    }
    case 'add-edge': {
      const source = pick(nodes, edit.source);
      const target = pick(nodes, edit.target);
      if (source === undefined || target === undefined) return state;
      return { ...state, edges: [...edges, [source.id, target.id]] };
    }
    case 'remove-edge': {
      const gone = pick(edges, edit.edge);
      return gone === undefined ? state : { ...state, edges: edges.filter((e) => e !== gone) };
    }
    case 'move-edge': {
      const moved = pick(edges, edit.edge);
      return moved === undefined ? state : { ...state, edges: [...edges.filter((e) => e !== moved), moved] };
    }
    case 'card':
      return replace(edit.node, (x) => ({ ...x, card: cardOf(x.id, variantNames[edit.variant % variantNames.length]) }));
    case 'renew':
      return replace(edit.node, (x) => (x.card === undefined ? x : { ...x, card: { ...x.card } }));
    case 'shift':
      return replace(edit.node, (x) => ({ ...x, gap: x.gap + edit.amount }));
    case 'spanless':
      return replace(edit.node, (x) => ({ ...x, spanless: !x.spanless }));
    case 'place':
      return replace(edit.node, (x) => ({ ...x, placed: edit.at }));
    case 'config':
      return { ...state, config: edit.value % configs.length };
  }
}

/** The analysis input of a state, as the loader builds one: every node once, in graph order, its span the place of its id. */
function inputOf(state: State): AnalysisInput {
  const ids = state.nodes.map((x) => x.id);
  const graph = buildGraph(ids, state.edges.map(([source, target]) => ({ source, target })));
  let offset = 0;
  const nodes = state.nodes.map((x) => {
    offset += x.gap;
    const span: Span = x.placed !== undefined ? { start: x.placed, end: x.placed + x.id.length } : { start: offset, end: offset + x.id.length };
    offset += x.id.length;
    return { id: x.id, ...(x.card !== undefined ? { card: x.card } : {}), ...(x.spanless ? {} : { span }) };
  });
  return { graph, nodes, vocabulary: coreVocabulary, file: 'topology.dot' };
}

/** Analyses the state with the memo and without, and asserts both are the same. */
function step(state: State, memo: AnalysisMemo, label: string): Analysis {
  const input = inputOf(state);
  const config = configs[state.config];
  const memoised = analyze(input, config, memo);
  assert.deepStrictEqual(memoised, analyze(input, config), label);
  return memoised;
}

/** Runs a sequence of edits from `start`, comparing after the first analysis and after every edit. */
function checkSequence(start: State, edits: readonly Edit[]): Analysis[] {
  const memo = createAnalysisMemo();
  let state = start;
  const out = [step(state, memo, 'first analysis')];
  edits.forEach((edit, i) => {
    state = apply(state, edit);
    out.push(step(state, memo, `after ${JSON.stringify(edits.slice(0, i + 1))}`));
  });
  return out;
}

/** A state from `id:variant` words and `a->b` edges. */
function stateOf(nodesText: string, edgesText: string, config = 0): State {
  const nodes = nodesText
    .split(/\s+/)
    .filter((word) => word !== '')
    .map((word) => {
      const [id, variant = 'agent'] = word.split(':');
      return node(id, variant);
    });
  const edges = edgesText
    .split(/\s+/)
    .filter((word) => word !== '')
    .map((word) => word.split('->') as [string, string]);
  return { nodes, edges, config };
}

const index = (name: string, names: readonly string[] = nodeNames): number => names.indexOf(name);
const variant = (name: string): number => index(name, variantNames);

interface Scenario {
  readonly name: string;
  readonly start: State;
  readonly edits: readonly Edit[];
  /** Every edit changes the analysis (the sequence tests what it says it tests). */
  readonly everyEditShows?: boolean;
}

const chain = stateOf('a:producer b:restater c:judge d:agent e:judge f:fetcher g:capped', 'a->c b->c c->d d->e f->b d->d a->b');

const scenarios: Scenario[] = [
  {
    name: 'an isolated node with no card added after a chain, removed, added again',
    start: chain,
    edits: [
      { kind: 'add-node', name: index('w'), variant: variant('none'), at: 'end' },
      { kind: 'remove-node', node: 7 },
      { kind: 'add-node', name: index('w'), variant: variant('none'), at: 'end' },
    ],
  },
  {
    name: 'an isolated node added at the front shifts every index',
    start: chain,
    edits: [{ kind: 'add-node', name: index('m'), variant: variant('fetcher'), at: 0 }],
  },
  {
    name: 'an edge merges two components, then its removal splits them',
    start: stateOf('a:producer b:agent c:judge h:agent n1:judge n2:writer', 'a->b b->c h->n1 n2->n1'),
    edits: [
      { kind: 'add-edge', source: 0, target: 3 },
      { kind: 'add-edge', source: 4, target: 1 },
      { kind: 'remove-edge', edge: 4 },
      { kind: 'remove-edge', edge: 4 },
    ],
  },
  {
    name: 'a card changed in one component, dropped, restored as another variant',
    start: stateOf('a:producer b:agent c:judge x:agent y:judge', 'a->b b->c a->c x->y'),
    edits: [
      { kind: 'card', node: 3, variant: variant('risky') },
      { kind: 'card', node: 3, variant: variant('none') },
      { kind: 'card', node: 3, variant: variant('restater') },
    ],
  },
  {
    name: 'text typed before a component moves its warnings; a span dropped and restored',
    start: chain,
    edits: [
      { kind: 'shift', node: 2, amount: 5 },
      { kind: 'add-node', name: index('w'), variant: variant('none'), at: 'end' },
      { kind: 'spanless', node: 3 },
      { kind: 'spanless', node: 3 },
      { kind: 'shift', node: 0, amount: 1 },
    ],
  },
  {
    name: 'moving an edge to the end reorders a judge\'s predecessors',
    start: stateOf('j1:judge j2:judge u:agent v:agent x:agent y:agent p:producer', 'u->j1 v->j2 x->u x->v y->x p->j1 p->j2 p->y'),
    edits: [
      { kind: 'move-edge', edge: 2 },
      { kind: 'move-edge', edge: 0 },
      { kind: 'add-node', name: index('w'), variant: variant('agent'), at: 'end' },
    ],
  },
  {
    name: '(b) across components: the restater and the producer sit apart, the marker fires',
    start: stateOf('a:producer c:judge b:restater d:judge', 'a->c b->d', 1),
    edits: [
      { kind: 'add-node', name: index('w'), variant: variant('none'), at: 'end' },
      { kind: 'remove-node', node: 0 },
      { kind: 'add-node', name: index('a'), variant: variant('producer'), at: 0 },
      { kind: 'add-edge', source: 0, target: 2 },
      { kind: 'config', value: 0 },
    ],
  },
  {
    name: '(b) charges the marker beside (a) and a declared leak, and names the judge further down, as nodes shift',
    start: stateOf('a:producer b:restater c:judge n1:leakyRestater n2:judge x:producer y:restater z:agent j:judge', 'a->b b->c n1->n2 y->z z->j x->j', 1),
    edits: [
      { kind: 'add-node', name: index('w'), variant: variant('none'), at: 'end' },
      { kind: 'add-node', name: index('m'), variant: variant('agent'), at: 0 },
      { kind: 'add-edge', source: 0, target: 1 },
      { kind: 'remove-node', node: 0 },
      { kind: 'card', node: 1, variant: variant('agent') },
    ],
  },
  {
    name: '(b) a restater rewrites its spec: as many generators as before, no longer alike',
    start: chain,
    edits: [
      { kind: 'card', node: 1, variant: variant('named') },
      { kind: 'card', node: 1, variant: variant('restater') },
      { kind: 'card', node: 0, variant: variant('agent') },
      { kind: 'card', node: 4, variant: variant('producer') },
    ],
  },
  {
    name: 'spans out of graph order: moving them reorders a component\'s warnings, or makes them share a place',
    start: chain,
    edits: [
      { kind: 'place', node: 5, at: 0 },
      { kind: 'add-node', name: index('w'), variant: variant('none'), at: 'end' },
      { kind: 'place', node: 5, at: 40 },
      { kind: 'place', node: 3, at: 40 },
      { kind: 'place', node: 1, at: 40 },
    ],
  },
  {
    name: 'two nodes that shared a place move apart: their warnings change order',
    // z and a both warn with the same code: sharing a place, a's comes first (node order); then z's
    start: stateOf('z:fetcher a:fetcher m:agent', 'z->m a->m'),
    edits: [
      { kind: 'place', node: 0, at: 10 },
      { kind: 'place', node: 1, at: 10 },
      { kind: 'place', node: 2, at: 20 },
      { kind: 'place', node: 1, at: 12 },
    ],
  },
  {
    name: 'an edge moved to the end changes which gate a long search finds first',
    // v writes criteria and is judged by g1..g4, which only its own criteria reach and which
    // relay back to it first; G5 and G6 relay p's criteria to it through x and y
    start: stateOf(
      'v:producer g1:judge g2:judge g3:judge g4:judge p:producer G5:judge G6:judge x:agent y:agent',
      'v->g1 v->g2 v->g3 v->g4 g1->v g2->v g3->v g4->v p->G5 p->G6 G5->x G6->y x->v y->v',
    ),
    edits: [
      { kind: 'move-edge', edge: 12 },
      { kind: 'move-edge', edge: 12 },
    ],
    everyEditShows: true,
  },
  {
    name: 'an edge moved to the end changes the order a node\'s consumers are named in',
    start: stateOf('f:fetcher b:agent a:agent', 'f->b f->a'),
    edits: [
      { kind: 'move-edge', edge: 0 },
      { kind: 'move-edge', edge: 0 },
    ],
    everyEditShows: true,
  },
  {
    name: '(d) a judge\'s card changes only in what it reads, beside an isolated node added',
    start: stateOf('w:writer j:judge', 'w->j'),
    edits: [
      { kind: 'card', node: 1, variant: variant('reportJudge') },
      { kind: 'add-node', name: index('m'), variant: variant('none'), at: 'end' },
      { kind: 'card', node: 1, variant: variant('judge') },
    ],
    everyEditShows: true,
  },
  {
    name: '(c2) a node names a node of another component, which then goes away',
    start: stateOf('a:agent b:namesNode c:judge n2:outOfBand', 'b->c'),
    edits: [
      { kind: 'remove-node', node: 0 },
      { kind: 'add-node', name: index('a'), variant: variant('agent'), at: 3 },
      { kind: 'card', node: 3, variant: variant('namesPort') },
    ],
  },
  {
    name: '(c1) the only producer leaves, then the only judge',
    start: stateOf('a:producer b:agent c:judge', 'b->c'),
    edits: [
      { kind: 'remove-node', node: 0 },
      { kind: 'remove-node', node: 1 },
      { kind: 'add-node', name: index('a'), variant: variant('producer'), at: 0 },
    ],
  },
  {
    name: 'a card copied into a new object with the same fields, then the graph edited',
    start: chain,
    edits: [
      { kind: 'renew', node: 1 },
      { kind: 'add-edge', source: 6, target: 6 },
      { kind: 'renew', node: 6 },
      { kind: 'remove-edge', edge: 7 },
    ],
  },
  {
    name: 'the graph emptied and filled again',
    start: stateOf('a:agent', ''),
    edits: [
      { kind: 'remove-node', node: 0 },
      { kind: 'add-node', name: index('b'), variant: variant('none'), at: 0 },
      { kind: 'add-node', name: index('a'), variant: variant('judge'), at: 0 },
    ],
  },
];

/**
 * What the per-component parts leave to the combining step, pinned by value: (b) charging the
 * marker on a node that (a) marked, that declares the marker, or that a judge further down
 * judges. (The sequences above compare two analyses that share that step.)
 */
interface CombinedRow extends AnalysisFixture {
  /** The explanation of the one finding. */
  readonly explanation: string;
  readonly establishedBy: 'declared' | 'inferred';
}

const planner: Partial<Card> = { outputs: [{ name: 'criteria', type: 'acceptance-criteria' }], spec: criteriaText };
const charging: Partial<AnalysisConfig> = { criteriaLeak: { similarityThreshold: 0.35, similarityFiresMarker: true } };

const combinedRows: CombinedRow[] = [
  {
    name: '(b) adds its clause and its warning to the finding (a) made',
    fixture: `
//- topology.dot
digraph g {
  planner -> builder -> check;
//           ^^^^^^^ warning analysis/criteria-leak: Acceptance criteria from planner reach builder along planner → builder
//           ^^^^^^^ warning analysis/criteria-leak: The spec of builder restates the spec of planner, which produces acceptance criteria (similarity 0.72, above 0.35)
//           ^^^^^^^ warning analysis/criteria-leak-suspected
}`,
    cards: { planner, builder: { spec: restated }, check: { type: 'validation' } },
    config: charging,
    establishedBy: 'inferred',
    explanation:
      'Node "builder" hands its work to the validation node check, and the acceptance criteria that planner produces reach it along planner → builder, ' +
      'and also has a spec that restates the spec of planner, which produces acceptance criteria (similarity 0.72).',
  },
  {
    name: '(b) adds its clause to a declared marker, which keeps the node free of marker warnings',
    fixture: `
//- topology.dot
digraph g {
  planner -> check;
  builder -> check;
//^^^^^^^ warning analysis/criteria-leak-suspected
}`,
    cards: { planner, builder: { spec: restated, riskMarkers: ['criteria-leak'] }, check: { type: 'validation' } },
    config: charging,
    establishedBy: 'declared',
    explanation:
      'Node "builder" declares the risk marker criteria-leak, and hands its work to the validation node check, ' +
      'and has a spec that restates the spec of planner, which produces acceptance criteria (similarity 0.72).',
  },
  {
    name: '(b) names the judge further down that its walk reached',
    fixture: `
//- topology.dot
digraph g {
  planner -> check;
  builder -> notes -> check;
//^^^^^^^ warning analysis/criteria-leak: The spec of builder restates the spec of planner
//^^^^^^^ warning analysis/criteria-leak-suspected
}`,
    cards: { planner, builder: { spec: restated }, check: { type: 'validation' } },
    config: charging,
    establishedBy: 'inferred',
    explanation:
      'Node "builder" feeds the validation node check further down, so its work is part of what check judges, ' +
      'and has a spec that restates the spec of planner, which produces acceptance criteria (similarity 0.72).',
  },
];

function checkCombined(row: CombinedRow): void {
  const { security } = checkAnalysis(row);
  assert.deepStrictEqual(
    security.findings.map((finding) => [finding.marker, finding.nodeId, finding.establishedBy, finding.explanation]),
    [['criteria-leak', 'builder', row.establishedBy, row.explanation]],
  );
}

const editArbitrary: fc.Arbitrary<Edit> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('add-node' as const), name: fc.nat(), variant: fc.nat(), at: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('remove-node' as const), node: fc.nat() }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('add-edge' as const), source: fc.nat(), target: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('remove-edge' as const), edge: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('move-edge' as const), edge: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('card' as const), node: fc.nat(), variant: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('renew' as const), node: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('shift' as const), node: fc.nat(), amount: fc.integer({ min: 1, max: 4 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('spanless' as const), node: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('place' as const), node: fc.nat(), at: fc.nat({ max: 60 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('config' as const), value: fc.nat() }) },
);

const startArbitrary: fc.Arbitrary<State> = fc
  .tuple(
    fc.uniqueArray(fc.nat({ max: nodeNames.length - 1 }), { maxLength: 10 }),
    fc.array(fc.nat({ max: variantNames.length - 1 }), { minLength: 10, maxLength: 10 }),
    fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 14 }),
    fc.nat({ max: configs.length - 1 }),
  )
  .map(([names, kinds, pairs, config]) => {
    const nodes = names.map((n, i) => node(nodeNames[n], variantNames[kinds[i]]));
    const edges = nodes.length === 0 ? [] : pairs.map(([s, t]) => [nodes[s % nodes.length].id, nodes[t % nodes.length].id] as const);
    return { nodes, edges, config };
  });

describe('analysis memo: per-component reuse', () => {
  describe('named sequences: the memoised analysis equals a fresh one after every edit', () => {
    for (const scenario of scenarios) {
      it(scenario.name, () => {
        const analyses = checkSequence(scenario.start, scenario.edits);
        if (scenario.everyEditShows) {
          for (let i = 1; i < analyses.length; i++) assert.notDeepStrictEqual(analyses[i], analyses[i - 1], `edit ${i} changes the analysis`);
        }
      });
    }
  });

  describe('what the combining step adds, by value', () => {
    for (const row of combinedRows) it(row.name, () => checkCombined(row));
  });

  it('random graphs and random edits: the memoised analysis equals a fresh one after every edit', () => {
    fc.assert(
      fc.property(startArbitrary, fc.array(editArbitrary, { minLength: 1, maxLength: 14 }), (start, edits) => void checkSequence(start, edits)),
      { numRuns: 400 },
    );
  });

  it('an edit in one component hands back the other components\' findings and warnings as the same objects', () => {
    const [before, after] = checkSequence(chain, [{ kind: 'add-node', name: index('w'), variant: variant('none'), at: 'end' }]);
    assert.ok(before.security.findings.length > 0 && before.security.diagnostics.length > 0, 'the chain has findings and warnings');
    const findings = new Set(after.security.findings);
    for (const finding of before.security.findings) assert.ok(findings.has(finding), `finding ${finding.marker} ${finding.nodeId} reused`);
    const diagnostics = new Set(after.diagnostics);
    for (const d of before.security.diagnostics) assert.ok(diagnostics.has(d), `warning ${d.code} on ${d.location.nodeId} reused`);
    assert.ok(after.diagnostics.some((d) => d.code === 'analysis/unresolved-node' && d.location.nodeId === 'w'), 'the new node is read');
  });

  it('a component read again hands back each warning that reads as before as the earlier object', () => {
    // the edge joins g's component to the chain's: both are read again
    const [before, after] = checkSequence(chain, [{ kind: 'add-edge', source: 4, target: 6 }]);
    const earlier = before.security.diagnostics.find((d) => d.code === 'analysis/criteria-leak' && d.location.nodeId === 'b');
    assert.ok(earlier !== undefined, 'the chain has a criteria-leak warning on b');
    assert.ok(after.diagnostics.includes(earlier), 'the same object after the edit');
  });

  it('after text typed before a component, the next edit elsewhere hands back the moved warnings as the same objects', () => {
    const [, moved, after] = checkSequence(chain, [
      { kind: 'shift', node: 0, amount: 3 },
      { kind: 'add-node', name: index('w'), variant: variant('none'), at: 'end' },
    ]);
    const diagnostics = new Set(after.diagnostics);
    for (const d of moved.security.diagnostics) assert.ok(diagnostics.has(d), `warning ${d.code} on ${d.location.nodeId} reused`);
  });

  it('the phase coverage is handed back while the nodes with a card keep their phases, and read again when one changes', () => {
    const [first, added, shifted, changed] = checkSequence(chain, [
      { kind: 'add-node', name: index('w'), variant: variant('none'), at: 0 },
      { kind: 'shift', node: 3, amount: 2 },
      { kind: 'card', node: 2, variant: variant('human') },
    ]);
    assert.ok(first.phaseCoverage.covered.length > 0, 'the chain covers some phases');
    assert.equal(added.phaseCoverage, first.phaseCoverage, 'a node with no card added: the same object');
    assert.equal(shifted.phaseCoverage, first.phaseCoverage, 'text typed before a node: the same object');
    assert.notEqual(changed.phaseCoverage, first.phaseCoverage, 'a card with other phases: read again');
    assert.deepEqual(changed.phaseCoverage.byPhase.deployment, ['b']);
  });

  it('text typed before a component moves its warnings without changing anything else', () => {
    const [before, after] = checkSequence(chain, [{ kind: 'shift', node: 0, amount: 3 }]);
    assert.deepStrictEqual(after.security.findings, before.security.findings);
    assert.deepStrictEqual(
      after.diagnostics.map((d) => d.location.span?.start),
      before.diagnostics.map((d) => (d.location.span === undefined ? undefined : d.location.span.start + 3)),
    );
  });
});
