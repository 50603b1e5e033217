import assert from 'node:assert/strict';
import { configuredWeight, defaultAnalysisConfig } from '../src/vocabulary/analysis-config';
import type { Diagnostic } from '../src/diagnostics';
import {
  analyzerRole,
  controlMembership,
  coreTerms,
  coreVocabulary,
  createVocabulary,
  explainTerm,
  humanMembership,
  readExtensions,
  renderVocabularyMarkdown,
  termKinds,
  validateVocabulary,
  type Membership,
  type Term,
  type TermKind,
  type Vocabulary,
} from '../src/vocabulary';
import { assertDiagnostics, parseFixture } from './support/fixture';

/** A local term built in code (the extensions file cannot express `deprecated`). */
function local(id: string, kind: TermKind, extra: Partial<Term> = {}): Term {
  return { id, kind, label: id, meaning: `The test term ${id}.`, ...extra };
}

/** Locals exercising redirects, loops and chains; used by the lookup tables below. */
const lookupLocals: readonly Term[] = [
  local('me/old', 'tool', { broader: 'tool-capability', deprecated: { replacedBy: 'me/new' } }),
  local('me/new', 'tool', { broader: 'shell' }),
  local('me/hop-1', 'data-type', { broader: 'text', deprecated: { replacedBy: 'me/hop-2' } }),
  local('me/hop-2', 'data-type', { broader: 'text', deprecated: { replacedBy: 'me/hop-3' } }),
  local('me/hop-3', 'data-type', { broader: 'text' }),
  local('me/ring-a', 'tool', { broader: 'tool-capability', deprecated: { replacedBy: 'me/ring-b' } }),
  local('me/ring-b', 'tool', { broader: 'tool-capability', deprecated: { replacedBy: 'me/ring-a' } }),
  local('me/into-ring', 'tool', { broader: 'tool-capability', deprecated: { replacedBy: 'me/ring-a' } }),
  local('me/cross', 'tool', { broader: 'tool-capability', deprecated: { replacedBy: 'agent' } }),
  local('me/dangle', 'tool', { broader: 'tool-capability', deprecated: { replacedBy: 'me/nothing' } }),
  local('me/loop-a', 'node-type', { broader: 'me/loop-b' }),
  local('me/loop-b', 'node-type', { broader: 'me/loop-a' }),
  local('me/reviewer', 'node-type', { broader: 'human-gate' }),
  local('me/router', 'node-type', { broader: 'decision' }),
  local('me/old-gate', 'node-type', { deprecated: { replacedBy: 'human-gate' } }),
  local('me/old-router', 'node-type', { broader: 'agent', deprecated: { replacedBy: 'me/router' } }),
];
const lookup = createVocabulary(lookupLocals).vocabulary;

describe('vocabulary', () => {
  describe('the core table', () => {
    const counts: [TermKind, number][] = [
      ['phase', 5],
      ['node-type', 13],
      ['risk-marker', 9],
      ['data-type', 15],
      ['tool', 12],
    ];
    for (const [kind, count] of counts) {
      it(`holds ${count} terms of kind ${kind}`, () => {
        assert.equal(coreVocabulary.terms(kind).length, count);
      });
    }

    it('holds 54 distinct ids, each with a label, a meaning and a broader term of its own kind', () => {
      assert.equal(coreTerms.length, 54);
      assert.equal(new Set(coreTerms.map((t) => t.id)).size, 54);
      assert.deepEqual(coreVocabulary.terms(), coreTerms);
      for (const term of coreTerms) {
        assert.ok(term.label.trim() !== '' && /\.$/.test(term.meaning), term.id);
        if (term.broader !== undefined) assert.equal(coreVocabulary.get(term.broader)?.kind, term.kind, term.id);
        assert.equal(coreVocabulary.isLocal(term.id), false);
      }
    });

    const flagged: [string, (t: Term) => boolean, string[]][] = [
      ['abstract', (t) => t.abstract === true, ['evaluative', 'human-in-the-loop', 'orchestration', 'execution-risk', 'isolation-breach']],
      ['root', (t) => t.root === true, ['any', 'tool-capability']],
      ['impliesHuman', (t) => t.impliesHuman === true, ['human-gate', 'human-input']],
      ['governsFlow', (t) => t.governsFlow === true,
        ['decision', 'evaluative', 'human-gate', 'manager-loop', 'orchestration', 'parallel', 'parallel.fan-in', 'validation']],
      ['arrival inferred', (t) => t.arrival === 'inferred', ['criteria-leak', 'unbounded-loop', 'unvalidated-external-access']],
      ['arrival category', (t) => t.arrival === 'category', ['execution-risk', 'isolation-breach']],
    ];
    for (const [flag, test, ids] of flagged) {
      it(`flags exactly these terms ${flag}: ${ids.join(', ')}`, () => {
        assert.deepEqual(coreTerms.filter(test).map((t) => t.id).sort(), [...ids].sort());
      });
    }

    const weights: [string, number | undefined][] = [
      ['arbitrary-code-execution', 2.0],
      ['criteria-leak', 2.0],
      ['execution-risk', undefined],
      ['irreversible-action', 1.5],
      ['isolation-breach', undefined],
      ['secret-access', 1.0],
      ['unbounded-loop', 1.5],
      ['unchecked-write', 1.0],
      ['unvalidated-external-access', 1.0],
    ];
    for (const [id, weight] of weights) {
      it(`weighs ${id} ${String(weight)}, the configured weight`, () => {
        assert.equal(coreVocabulary.get(id)?.defaultWeight, weight);
        assert.equal(configuredWeight(defaultAnalysisConfig, id), weight);
      });
    }

    it('keeps the phases in lifecycle order', () => {
      assert.deepEqual(coreVocabulary.terms('phase').map((t) => t.id), ['planning', 'implementation', 'testing', 'debugging', 'deployment']);
    });
  });

  describe('the analysis configuration', () => {
    it('holds DarkPrint\'s numbers and cannot be changed', () => {
      const c = defaultAnalysisConfig;
      assert.deepEqual({ ...c.autonomyBands }, { level4: 0.9, level3: 0.7, level2: 0.5 });
      assert.equal(c.minControlPoints, 2);
      assert.equal(c.unknownMarkerWeight, 0);
      assert.deepEqual({ ...c.criteriaLeak }, { similarityThreshold: 0.35, similarityFiresMarker: false });
      assert.equal(Object.keys(c.securityWeights).length, 7);
      assert.ok(Object.isFrozen(c) && Object.isFrozen(c.securityWeights) && Object.isFrozen(c.autonomyBands));
    });

    for (const id of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      it(`finds no configured weight for the inherited name ${id}`, () => {
        assert.equal(configuredWeight(defaultAnalysisConfig, id), undefined);
        assert.equal(configuredWeight({ securityWeights: {} }, id), undefined);
      });
    }
  });

  describe('lookups', () => {
    const isA: [string, string, boolean][] = [
      ['code', 'text', true],
      ['code', 'any', true],
      ['text', 'code', false],
      ['acceptance-criteria', 'structured', true],
      ['human-gate', 'human-in-the-loop', true],
      ['human-in-the-loop', 'human-in-the-loop', true],
      ['shell-tool', 'tool', true],
      ['tool', 'shell-tool', false],
      ['web-search', 'tool-capability', true],
      ['unchecked-write', 'isolation-breach', true],
      ['no-such-term', 'no-such-term', true],
      ['no-such-term', 'any', false],
      ['any', 'no-such-term', false],
      ['me/new', 'shell', true],
      ['me/new', 'tool-capability', true],
      ['me/loop-a', 'me/loop-b', true],
      ['me/loop-b', 'me/loop-a', true],
      ['me/loop-a', 'agent', false],
      ['me/reviewer', 'human-in-the-loop', true],
    ];
    for (const [a, b, expected] of isA) {
      it(`isA(${a}, ${b}) is ${String(expected)}`, () => {
        assert.equal(lookup.isA(a, b), expected);
        // asked twice: the memoised answer is the same
        assert.equal(lookup.isA(a, b), expected);
      });
    }

    const ancestors: [string, string[]][] = [
      ['acceptance-criteria', ['acceptance-criteria', 'structured', 'any']],
      ['parallel.fan-in', ['parallel.fan-in', 'orchestration']],
      ['any', ['any']],
      ['no-such-term', []],
      ['me/new', ['me/new', 'shell', 'tool-capability']],
      ['me/loop-a', ['me/loop-a', 'me/loop-b']],
      ['me/reviewer', ['me/reviewer', 'human-gate', 'human-in-the-loop']],
    ];
    for (const [id, expected] of ancestors) {
      it(`ancestors(${id}) is ${expected.join(' > ') || 'empty'}`, () => {
        assert.deepEqual(lookup.ancestors(id).map((t) => t.id), expected);
        assert.equal(lookup.ancestors(id), lookup.ancestors(id), 'memoised per id');
      });
    }

    const resolve: [string, TermKind | undefined, string | undefined][] = [
      ['agent', undefined, 'agent'],
      ['agent', 'node-type', 'agent'],
      ['agent', 'tool', undefined],
      ['no-such-term', undefined, undefined],
      ['me/old', undefined, 'me/new'],
      ['me/old', 'tool', 'me/new'],
      ['me/old', 'node-type', undefined],
      ['me/hop-1', 'data-type', 'me/hop-3'],
      ['me/ring-a', undefined, 'me/ring-a'],
      ['me/ring-b', undefined, 'me/ring-b'],
      ['me/into-ring', undefined, 'me/into-ring'],
      ['me/cross', undefined, 'me/cross'],
      ['me/dangle', undefined, 'me/dangle'],
    ];
    for (const [id, kind, expected] of resolve) {
      it(`resolve(${id}${kind ? `, ${kind}` : ''}) is ${String(expected)}`, () => {
        assert.equal(lookup.resolve(id, kind)?.id, expected);
      });
    }

    const human: [string, Membership | undefined][] = [
      ['human-gate', { term: 'human-gate', via: 'self' }],
      ['human-in-the-loop', { term: 'human-in-the-loop', via: 'self' }],
      ['me/reviewer', { term: 'human-gate', via: 'broader' }],
      ['me/old-gate', { term: 'human-gate', via: 'replacement' }],
      ['agent', undefined],
      ['no-such-term', undefined],
    ];
    for (const [type, expected] of human) {
      it(`a person acts at ${type}: ${expected ? `${expected.term} (${expected.via})` : 'no'}`, () => {
        assert.deepEqual(humanMembership(lookup, type), expected);
      });
    }

    const control: [string, Membership | undefined][] = [
      ['validation', { term: 'validation', via: 'self' }],
      ['human-gate', { term: 'human-gate', via: 'self' }],
      ['me/router', { term: 'decision', via: 'broader' }],
      ['me/old-router', { term: 'me/router', via: 'replacement' }],
      ['human-input', undefined],
      ['agent', undefined],
    ];
    for (const [type, expected] of control) {
      it(`${type} is a control point: ${expected ? `${expected.term} (${expected.via})` : 'no'}`, () => {
        assert.deepEqual(controlMembership(lookup, type), expected);
      });
    }
  });

  describe('merging local terms', () => {
    const merges: { name: string; locals: Term[]; check: (v: Vocabulary, shadowed: Term[]) => void }[] = [
      {
        name: 'a new local term follows the core terms and is local',
        locals: [local('me/x', 'tool', { broader: 'shell' })],
        check: (v, shadowed) => {
          assert.equal(v.terms().length, 55);
          assert.equal(v.terms().at(-1)?.id, 'me/x');
          assert.equal(v.terms('tool').at(-1)?.id, 'me/x');
          assert.equal(v.isLocal('me/x'), true);
          assert.deepEqual(shadowed, []);
        },
      },
      {
        name: 'a local term with a core id replaces it in place and is reported',
        locals: [local('text', 'data-type', { meaning: 'Ours.', broader: 'any' })],
        check: (v, shadowed) => {
          assert.equal(v.terms().length, 54);
          const index = coreTerms.findIndex((t) => t.id === 'text');
          assert.equal(v.terms()[index].meaning, 'Ours.');
          assert.equal(v.get('text')?.meaning, 'Ours.');
          assert.equal(v.isLocal('text'), true);
          assert.deepEqual(shadowed.map((t) => t.meaning), ['Ours.']);
        },
      },
      {
        name: 'the last of two locals with one id wins, and a shadowed id is reported once',
        locals: [
          local('me/x', 'tool', { label: 'first' }),
          local('agent', 'node-type', { label: 'first agent' }),
          local('me/x', 'tool', { label: 'second' }),
          local('agent', 'node-type', { label: 'second agent' }),
        ],
        check: (v, shadowed) => {
          assert.equal(v.terms().length, 55);
          assert.equal(v.get('me/x')?.label, 'second');
          assert.deepEqual(shadowed.map((t) => t.label), ['second agent']);
        },
      },
      {
        name: 'the core view is untouched by a view with locals',
        locals: [local('agent', 'node-type', { label: 'changed' })],
        check: () => {
          assert.equal(coreVocabulary.get('agent')?.label, 'Agent');
          assert.equal(coreVocabulary.get('me/x'), undefined);
        },
      },
    ];
    for (const m of merges) {
      it(m.name, () => {
        const { vocabulary, shadowed } = createVocabulary(m.locals);
        m.check(vocabulary, shadowed);
      });
    }
  });

  describe('__proto__ and friends as term ids', () => {
    it('are ordinary ids: unknown in the core, lookups by them are inert, and a local one is just a term', () => {
      for (const id of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
        assert.equal(coreVocabulary.get(id), undefined);
        assert.equal(coreVocabulary.resolve(id), undefined);
        assert.equal(coreVocabulary.isA(id, 'any'), false);
        assert.equal(coreVocabulary.isA('any', id), false);
        assert.deepEqual(coreVocabulary.ancestors(id), []);
        assert.equal(coreVocabulary.isLocal(id), false);
      }
      const read = readExtensions({
        path: 'ontology/extensions.yaml',
        text: [
          'terms:',
          '  - id: __proto__',
          '    kind: risk-marker',
          '    label: Proto',
          '    description: A marker with an awkward id.',
          '    broader: isolation-breach',
          '    since: "0.1.0"',
          '    __proto__: { polluted: true }',
          '  - id: constructor',
          '    kind: tool',
          '    label: Constructor',
          '    description: A tool with an awkward id.',
          '    broader: __proto__',
          '    since: "0.1.0"',
        ].join('\n'),
      });
      assert.deepEqual(read.diagnostics, []);
      const { vocabulary, shadowed } = createVocabulary(read.terms);
      assert.equal(vocabulary.get('__proto__')?.label, 'Proto');
      assert.equal(vocabulary.isA('__proto__', 'isolation-breach'), true);
      assert.equal(vocabulary.get('toString'), undefined);
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
      const found = validateVocabulary(vocabulary, shadowed, read.terms).map((d) => `${d.code} ${d.message}`);
      // rooting ignores kinds (docs/compatibility.md#vocabulary-checks): `constructor` reaches the
      // core through `__proto__`
      assert.deepEqual(found.map((f) => f.split(' ')[0]), ['ontology/local-marker-unweighted']);
      assert.ok(found[0].includes('`__proto__`'));
    });
  });

  describe('extensions.yaml', () => {
    const fixtures: { name: string; source: string; terms?: string[]; check?: (terms: Term[]) => void }[] = [
      {
        name: 'a valid file: terms read, numbers coerced, nothing reported',
        source: `
//- ontology/extensions.yaml
# local terms
terms:
  - id: me/pii
    kind: risk-marker
    label: PII handling
    description: Reads or passes on personal data.
    broader: isolation-breach
    defaultWeight: 0.5
    since: "0.1.0"
  - id: 12
    kind: data-type
    label: Twelve
    description: A numbered type.
    broader: text
    impliesHuman: false
    since: 0.2
  - id: me/zero
    kind: risk-marker
    label: Free
    description: A marker that costs nothing, on purpose.
    broader: me/pii
    defaultWeight: 0
    since: "0.1.0"
    version: ignored
`,
        terms: ['me/pii', '12', 'me/zero'],
        check: (terms) => {
          assert.equal(terms[1].local?.since, '0.2');
          assert.equal(terms[1].impliesHuman, false);
          assert.equal(terms[0].defaultWeight, 0.5);
          assert.equal(terms[0].meaning, 'Reads or passes on personal data.');
        },
      },
      { name: 'an empty file adds nothing', source: '//- ontology/extensions.yaml\n', terms: [] },
      { name: 'a file of comments adds nothing', source: '//- ontology/extensions.yaml\n# nothing yet\n', terms: [] },
      { name: 'an empty terms list adds nothing', source: '//- ontology/extensions.yaml\nterms:\n', terms: [] },
      {
        name: 'a list at the top level',
        source: `
//- ontology/extensions.yaml
  - id: me/x
# ^^^^^^^^^^ error card/parse-error: not a mapping
`,
        terms: [],
      },
      {
        name: 'text at the top level',
        source: `
//- ontology/extensions.yaml
  just some words
# ^^^^^^^^^^^^^^^ error card/parse-error: \`just some words\`
`,
        terms: [],
      },
      {
        name: 'terms that is not a list',
        source: `
//- ontology/extensions.yaml
terms: me/x
#      ^^^^ error card/parse-error: not a list
`,
        terms: [],
      },
      {
        name: 'entries that are not mappings; the good entry is kept',
        source: `
//- ontology/extensions.yaml
terms:
  - just-a-name
#   ^^^^^^^^^^^ error card/parse-error: Item 1 of \`terms\` is the text
  -
# ^ error card/parse-error: Item 2 of \`terms\` is empty
  - [a, b]
#   ^^^^^^ error card/parse-error: Item 3 of \`terms\` is a list
  - id: me/ok
    kind: tool
    label: OK
    description: Fine.
    broader: shell
    since: "1"
`,
        terms: ['me/ok'],
      },
      {
        name: 'missing fields are reported once per entry, on the entry',
        source: `
//- ontology/extensions.yaml
terms:
  - id: me/x
#   ^^^... error card/parse-error: Term \`me/x\` has no \`description\` or \`since\`
    kind: tool
    label: X
  - kind: tool
#   ^^^... error card/parse-error: Item 2 of \`terms\` has no \`id\`, \`label\`, \`description\` or \`since\`
    broader: shell
  - id: me/nulls
#   ^^^... error card/parse-error: has no \`label\`
    kind: tool
    label: ~
    description: Null fields count as missing.
    since: "1"
`,
        terms: [],
      },
      {
        name: 'fields of the wrong shape, each on its value',
        source: `
//- ontology/extensions.yaml
terms:
  - id: me/x
    kind: gadget
#         ^^^^^^ error card/parse-error: \`kind\` of term \`me/x\` is \`gadget\`
    label: [a, b]
#          ^^^^^^ error card/parse-error: \`label\` of term \`me/x\` is a list
    description: "   "
#                ^^^^^ error card/parse-error: blank
    broader: true
#            ^^^^ error card/parse-error: \`broader\` of term \`me/x\`
    defaultWeight: "0.5"
#                  ^^^^^ error card/parse-error: not a finite number
    impliesHuman: "yes"
#                 ^^^^^ error card/parse-error: not true or false
    since: "1"
  - id: ""
#       ^^ error card/parse-error: \`id\` of item 2 of \`terms\` is blank
    kind: tool
    label: Y
    description: Blank id.
    since: "1"
  - id: me/inf
    kind: risk-marker
    label: Infinite
    description: Costs too much.
    broader: execution-risk
    defaultWeight: .inf
#                  ^^^^ error card/parse-error: the number \`.inf\`
    since: "1"
`,
        terms: [],
      },
      {
        name: 'a YAML syntax error: nothing is read',
        source: `
//- ontology/extensions.yaml
terms:
  - id: me/ok
    kind: tool
    label: OK
    description: Fine.
    broader: shell
    since: "1"
  - id: me/x
    id: me/y
#   ^ error card/parse-error: not valid YAML
`,
        terms: [],
      },
      {
        name: 'a YAML warning is a warning and the terms are still read',
        source: `
//- ontology/extensions.yaml
terms:
  - id: !!odd me/x
#       ^^^^^ warning card/parse-error
    kind: tool
    label: X
    description: Odd tag.
    broader: shell
    since: "1"
`,
        terms: ['me/x'],
      },
      {
        name: 'an alias to an entry reads as that entry',
        source: `
//- ontology/extensions.yaml
base: &tool
  id: me/a
  kind: tool
  label: A
  description: Aliased.
  broader: shell
  since: "1"
terms:
  - *tool
`,
        terms: ['me/a'],
      },
      // ---- the vocabulary's own diagnostics ---------------------------------------------
      {
        name: 'ontology/dangling-pointer on the broader value (and the term is unrooted)',
        source: `
//- ontology/extensions.yaml
terms:
  - id: me/x
#       ^^^^ error ontology/local-term-unrooted: \`me/x\` → \`me/nope\`
    kind: tool
    label: X
    description: Points nowhere.
    broader: me/nope
#            ^^^^^^^ error ontology/dangling-pointer: \`me/nope\`
    since: "1"
`,
        terms: ['me/x'],
      },
      {
        name: 'ontology/cyclic-broader once per cycle, on the smallest member\'s broader',
        source: `
//- ontology/extensions.yaml
terms:
  - id: me/b
#       ^^^^ error ontology/local-term-unrooted
    kind: tool
    label: B
    description: Loops.
    broader: me/a
    since: "1"
  - id: me/a
#       ^^^^ error ontology/local-term-unrooted
    kind: tool
    label: A
    description: Loops.
    broader: me/b
#            ^^^^ error ontology/cyclic-broader: \`me/a\` → \`me/b\` → \`me/a\`
    since: "1"
  - id: me/tail
#       ^^^^^^^ error ontology/local-term-unrooted
    kind: tool
    label: Tail
    description: Leads into the loop.
    broader: me/a
    since: "1"
`,
        terms: ['me/b', 'me/a', 'me/tail'],
      },
      {
        name: 'a cycle through a shadowed core term is located on the first local member',
        source: `
//- ontology/extensions.yaml
terms:
  - id: text
#       ^^^^ warning bundle/ontology-mismatch: \`text\`
    kind: data-type
    label: Text
    description: Our own text.
    broader: me/a
#            ^^^^ error ontology/cyclic-broader: \`code\` → \`text\` → \`me/a\` → \`code\`
    since: "1"
  - id: me/a
    kind: data-type
    label: A
    description: Between.
    broader: code
    since: "1"
`,
        terms: ['text', 'me/a'],
      },
      {
        name: 'ontology/phase-not-extensible on the kind, with no rooting check',
        source: `
//- ontology/extensions.yaml
terms:
  - id: me/triage
    kind: phase
#         ^^^^^ error ontology/phase-not-extensible: \`me/triage\`
    label: Triage
    description: A sixth phase.
    since: "1"
`,
        terms: ['me/triage'],
      },
      {
        name: 'ontology/local-term-unrooted without broader; a term rooted through another local is fine',
        source: `
//- ontology/extensions.yaml
terms:
  - id: me/floating
#       ^^^^^^^^^^^ error ontology/local-term-unrooted: no \`broader\`
    kind: node-type
    label: Floating
    description: Under nothing.
    since: "1"
  - id: me/step
    kind: node-type
    label: Step
    description: Under a core type.
    broader: agent
    since: "1"
  - id: me/sub-step
    kind: node-type
    label: Sub-step
    description: Under another local.
    broader: me/step
    since: "1"
`,
        terms: ['me/floating', 'me/step', 'me/sub-step'],
      },
      {
        name: 'local markers: unweighted on the id, bad weight on the value, zero is a weight',
        source: `
//- ontology/extensions.yaml
terms:
  - id: me/unpriced
#       ^^^^^^^^^^^ warning ontology/local-marker-unweighted: \`me/unpriced\`
    kind: risk-marker
    label: Unpriced
    description: No weight.
    broader: isolation-breach
    since: "1"
  - id: me/credit
    kind: risk-marker
    label: Credit
    description: A negative weight.
    broader: isolation-breach
    defaultWeight: -1
#                  ^^ warning ontology/local-marker-bad-weight: -1
    since: "1"
  - id: me/free
    kind: risk-marker
    label: Free
    description: Zero on purpose.
    broader: execution-risk
    defaultWeight: 0
    since: "1"
`,
        terms: ['me/unpriced', 'me/credit', 'me/free'],
      },
      {
        name: 'bundle/ontology-mismatch on a local term with a core id',
        source: `
//- ontology/extensions.yaml
terms:
  - id: agent
#       ^^^^^ warning bundle/ontology-mismatch: \`agent\`
    kind: node-type
    label: Agent
    description: Our agent.
    since: "1"
`,
        terms: ['agent'],
      },
      {
        name: 'duplicate local ids: only the last spelling is judged',
        source: `
//- ontology/extensions.yaml
terms:
  - id: me/x
    kind: phase
    label: X
    description: First spelling.
    since: "1"
  - id: me/x
    kind: tool
    label: X
    description: Second spelling.
    broader: shell
    since: "1"
`,
        terms: ['me/x', 'me/x'],
      },
    ];

    for (const f of fixtures) {
      it(f.name, () => checkExtensions(f.source, f.terms, f.check));
    }

    it('reports a second YAML document from its `---` marker (column 0, so not a caret fixture)', () => {
      const text = 'terms: []\n---\nterms: []\n';
      const read = readExtensions({ path: 'ontology/extensions.yaml', text });
      assert.deepEqual(read.terms, []);
      assert.deepEqual(read.diagnostics.map((d) => [d.severity, d.code, text.slice(d.location.span?.start, d.location.span?.end).slice(0, 3)]), [
        ['error', 'card/parse-error', '---'],
      ]);
      assert.ok(read.diagnostics[0].message.includes('more than one YAML document'));
    });

    it('gives a local term its file, the span of its id and its field spans', () => {
      const text = 'terms:\n  - id: me/m\n    kind: risk-marker\n    label: M\n    description: D.\n    broader: isolation-breach\n    defaultWeight: 2\n    since: "1"\n';
      const [term] = readExtensions({ path: 'ontology/extensions.yaml', text }).terms;
      const origin = term.local;
      assert.ok(origin);
      const at = (s: { start: number; end: number } | undefined): string => (s ? text.slice(s.start, s.end) : '(none)');
      assert.equal(origin.file, 'ontology/extensions.yaml');
      assert.deepEqual(
        [at(origin.span), at(origin.kindSpan), at(origin.broaderSpan), at(origin.defaultWeightSpan), origin.since],
        ['me/m', 'risk-marker', 'isolation-breach', '2', '1'],
      );
      assert.ok(at(origin.entrySpan).startsWith('id: me/m') && at(origin.entrySpan).endsWith('since: "1"'));
    });

    it('never throws on arbitrary text, and keeps every range inside it', () => {
      const samples = ['\t', ':', '- - -', 'terms: {', 'terms:\n  - id: [', '"', '%YAML 9', '&a [*a]', 'terms: *nope', 'terms:\n  - *nope\n', '\u{1F600}: x', 'terms:\r\n  - id: a\r\n'];
      for (const text of samples) {
        const read = readExtensions({ path: 'e.yaml', text });
        for (const d of read.diagnostics) {
          assert.ok(d.location.span && d.location.span.start >= 0 && d.location.span.end <= text.length && d.location.span.start <= d.location.span.end, JSON.stringify(text));
        }
      }
    });
  });

  describe('validateVocabulary with terms built in code', () => {
    const cases: { name: string; locals: Term[]; config?: { securityWeights: Record<string, number>; unknownMarkerWeight: number }; expected: string[] }[] = [
      { name: 'nothing to say about the core alone', locals: [], expected: [] },
      {
        name: 'a replacement that names no term is a dangling pointer (no location without a file)',
        locals: [local('me/gone', 'tool', { broader: 'shell', deprecated: { replacedBy: 'me/nowhere' } })],
        expected: ['error ontology/dangling-pointer'],
      },
      {
        name: 'a configured weight counts as a weight',
        locals: [local('me/priced', 'risk-marker', { broader: 'isolation-breach' })],
        config: { securityWeights: { 'me/priced': 1 }, unknownMarkerWeight: 0 },
        expected: [],
      },
      {
        name: 'a configured negative weight is a bad weight, located on the id',
        locals: [local('me/priced', 'risk-marker', { broader: 'isolation-breach', defaultWeight: 1 })],
        config: { securityWeights: { 'me/priced': -2 }, unknownMarkerWeight: 0 },
        expected: ['warning ontology/local-marker-bad-weight'],
      },
      {
        name: 'a non-finite default weight is a bad weight',
        locals: [local('me/huge', 'risk-marker', { broader: 'isolation-breach', defaultWeight: Number.POSITIVE_INFINITY })],
        expected: ['warning ontology/local-marker-bad-weight'],
      },
      {
        name: 'the lookup locals: one replacement dangles, one broader loop, its members unrooted, one unrooted gate',
        locals: [...lookupLocals],
        expected: [
          'error ontology/cyclic-broader',
          'error ontology/dangling-pointer',
          'error ontology/local-term-unrooted',
          'error ontology/local-term-unrooted',
          'error ontology/local-term-unrooted',
        ],
      },
    ];
    for (const c of cases) {
      it(c.name, () => {
        const { vocabulary, shadowed } = createVocabulary(c.locals);
        const found = validateVocabulary(vocabulary, shadowed, c.locals, c.config);
        assert.deepEqual(found.map((d) => `${d.severity} ${d.code}`).sort(), c.expected);
        for (const d of found) assert.equal(d.location.span, undefined);
      });
    }
  });

  describe('analyzerRole', () => {
    const roles: [string, string][] = [
      ['human-gate', 'staffed'],
      ['human-gate', 'control point'],
      ['agent', 'unattended'],
      ['evaluative', 'abstract category'],
      ['validation', 'judge for the criteria-leak check'],
      ['shell-tool', 'params.tool_command'],
      ['unbounded-loop', 'iteration cap'],
      ['criteria-leak', '2.00'],
      ['secret-access', 'only when a card lists it'],
      ['isolation-breach', 'no weight of its own'],
      ['any', 'always pairs'],
      ['acceptance-criteria', 'criteria producer'],
      ['code', '`text`'],
      ['web-search', 'unvalidated-external-access'],
      ['git', 'permission only'],
      ['tool-capability', 'root of the tool vocabulary'],
      ['testing', 'stage 3 of 5'],
    ];
    for (const [id, expected] of roles) {
      it(`${id}: mentions "${expected}"`, () => {
        const term = coreVocabulary.get(id);
        assert.ok(term);
        assert.ok(analyzerRole(term).includes(expected), analyzerRole(term));
      });
    }

    it('reads local terms through their chain and weights', () => {
      const locals = [
        local('me/reviewer', 'node-type', { broader: 'human-gate' }),
        local('me/scraper', 'tool', { broader: 'http-fetch' }),
        local('me/unpriced', 'risk-marker', { broader: 'isolation-breach' }),
      ];
      const { vocabulary } = createVocabulary(locals);
      assert.ok(analyzerRole(locals[0], { vocabulary }).includes('(through `human-gate`)'));
      assert.ok(analyzerRole(locals[1], { vocabulary }).includes('falls under `http-fetch`'));
      assert.ok(analyzerRole(locals[2], { vocabulary }).includes('no weight'));
      assert.ok(explainTerm(locals[0], vocabulary).includes('Under: human-gate → human-in-the-loop'));
    });
  });

  describe('docs/vocabulary.md', () => {
    it('is deterministic, carries the generated-file banner and a row for every core term', () => {
      const page = renderVocabularyMarkdown();
      assert.equal(page, renderVocabularyMarkdown());
      assert.ok(page.startsWith('<!--') && page.split('\n')[0].includes('npm run gen'));
      assert.ok(page.endsWith('\n'));
      for (const kind of termKinds) assert.ok(page.includes(`\n## ${kind}: `), kind);
      for (const term of coreTerms) assert.ok(page.includes(`\n| \`${term.id}\` | ${term.label} |`), term.id);
    });
  });
});

/** Reads the fixture's extensions file, validates the resulting vocabulary, and compares every diagnostic. */
function checkExtensions(source: string, expectedTerms?: string[], check?: (terms: Term[]) => void): void {
  const fixture = parseFixture(source);
  const file = fixture.files.find((f) => f.path === 'ontology/extensions.yaml');
  assert.ok(file, 'fixture has no ontology/extensions.yaml');
  const read = readExtensions(file);
  const { vocabulary, shadowed } = createVocabulary(read.terms);
  const diagnostics: Diagnostic[] = [...read.diagnostics, ...validateVocabulary(vocabulary, shadowed, read.terms)];
  assertDiagnostics(fixture, diagnostics);
  if (expectedTerms) assert.deepEqual(read.terms.map((t) => t.id), expectedTerms);
  check?.(read.terms);
}
