import assert from 'node:assert/strict';
import type { Card } from '../src/card/card-model';
import { readCard } from '../src/check/card';
import { bumpSatisfies, checkVersionChain, declaredBump, inferBump, type BumpLevel } from '../src/check/version-bump';
import type { Diagnostic } from '../src/diagnostics';
import { coreVocabulary } from '../src/vocabulary';
import { assertDiagnostics, parseFixture } from './support/fixture';

const base: Card = {
  id: 'writer',
  name: 'Writer',
  type: 'agent',
  phases: ['implementation', 'testing'],
  action: 'Write.',
  spec: 'Write the draft from the outline, one paragraph per section.',
  model: 'model-a',
  agent: 'agent-a',
  tools: ['web-search', 'file-io'],
  mcp: ['server-a', 'server-b'],
  skill: 'skill-a',
  params: { limit: 3, style: { tone: 'plain', width: 80 } },
  inputs: [
    { name: 'outline', type: 'markdown', description: 'The outline.' },
    { name: 'notes', type: 'text', required: false },
  ],
  outputs: [
    { name: 'draft', type: 'markdown' },
    { name: 'log', type: 'text' },
  ],
  dependencies: ['planner', 'researcher'],
  cannot: ['acceptance-criteria'],
  willNot: ['publish anything', 'email anyone'],
  riskMarkers: ['unchecked-write', 'secret-access'],
  notes: 'Some notes.',
  version: '1.0.0',
  author: 'someone',
  provenance: 'hand-written',
};

type Change = (card: Card) => Card;

interface Row {
  readonly rule: string;
  readonly change: Change;
  /** Applied to the base to make the previous card (default: the base itself). */
  readonly from?: Change;
  readonly level: BumpLevel;
  /** Text the strongest reason must contain. */
  readonly reason?: string;
}

const input = (card: Card, i: number, port: Partial<Card['inputs'][number]> | undefined): Card['inputs'] =>
  port === undefined ? card.inputs.filter((_, j) => j !== i) : card.inputs.map((p, j) => (j === i ? { ...p, ...port } : p));
const output = (card: Card, i: number, port: Partial<Card['outputs'][number]> | undefined): Card['outputs'] =>
  port === undefined ? card.outputs.filter((_, j) => j !== i) : card.outputs.map((p, j) => (j === i ? { ...p, ...port } : p));
const without = <K extends keyof Card>(card: Card, key: K): Card => {
  const copy: Partial<Card> = { ...card };
  delete copy[key];
  return copy as Card;
};

const rows: Row[] = [
  // ---- MAJOR ----
  { rule: 'major: id changed', change: (c) => ({ ...c, id: 'author' }), level: 'major', reason: 'the id changes from `writer` to `author`' },
  { rule: 'major: type changed', change: (c) => ({ ...c, type: 'tool' }), level: 'major', reason: 'the type changes' },
  { rule: 'major: an input removed', change: (c) => ({ ...c, inputs: input(c, 0, undefined) }), level: 'major', reason: 'input `outline` is removed' },
  { rule: 'major: an output removed', change: (c) => ({ ...c, outputs: output(c, 1, undefined) }), level: 'major', reason: 'output `log` is removed' },
  { rule: 'major: a port renamed (removed plus added)', change: (c) => ({ ...c, outputs: output(c, 0, { name: 'text' }) }), level: 'major', reason: 'output `draft` is removed' },
  { rule: 'major: a port type changed', change: (c) => ({ ...c, outputs: output(c, 0, { type: 'text' }) }), level: 'major', reason: 'changes type from `markdown` to `text`' },
  { rule: 'major: an input turned required', change: (c) => ({ ...c, inputs: input(c, 1, { required: true }) }), level: 'major', reason: 'input `notes` becomes required' },
  { rule: 'major: an optional input turned required by dropping `required`', change: (c) => ({ ...c, inputs: [c.inputs[0], { name: 'notes', type: 'text' }] }), level: 'major', reason: 'becomes required' },
  { rule: 'major: a required input added (required absent)', change: (c) => ({ ...c, inputs: [...c.inputs, { name: 'brief', type: 'text' }] }), level: 'major', reason: 'required input `brief` is added' },
  { rule: 'major: an entry added to cannot', change: (c) => ({ ...c, cannot: [...c.cannot, 'code'] }), level: 'major', reason: '`cannot` gains `code`' },
  { rule: 'major: an entry withdrawn from will_not', change: (c) => ({ ...c, willNot: ['email anyone'] }), level: 'major', reason: '`will_not` loses `publish anything`' },
  // ---- MINOR ----
  { rule: 'minor: a phase added', change: (c) => ({ ...c, phases: [...c.phases, 'deployment'] }), level: 'minor', reason: '`phase` gains `deployment`' },
  { rule: 'minor: a phase withdrawn', change: (c) => ({ ...c, phases: ['testing'] }), level: 'minor', reason: '`phase` loses `implementation`' },
  { rule: 'minor: an optional input added', change: (c) => ({ ...c, inputs: [...c.inputs, { name: 'style', type: 'text', required: false }] }), level: 'minor', reason: 'optional input `style` is added' },
  { rule: 'minor: an output added', change: (c) => ({ ...c, outputs: [...c.outputs, { name: 'summary', type: 'text' }] }), level: 'minor', reason: 'output `summary` is added' },
  { rule: 'minor: a tool added', change: (c) => ({ ...c, tools: [...c.tools, 'git'] }), level: 'minor', reason: '`tools` gains `git`' },
  { rule: 'minor: an mcp entry added', change: (c) => ({ ...c, mcp: [...c.mcp, 'server-c'] }), level: 'minor', reason: '`mcp` gains `server-c`' },
  { rule: 'minor: a cannot entry withdrawn', change: (c) => ({ ...c, cannot: [] }), level: 'minor', reason: '`cannot` loses `acceptance-criteria`' },
  { rule: 'minor: a will_not entry added', change: (c) => ({ ...c, willNot: [...c.willNot, 'delete files'] }), level: 'minor', reason: '`will_not` gains `delete files`' },
  { rule: 'minor: a risk marker added', change: (c) => ({ ...c, riskMarkers: [...c.riskMarkers, 'irreversible-action'] }), level: 'minor', reason: '`risk_markers` gains' },
  { rule: 'minor: a dependency added', change: (c) => ({ ...c, dependencies: [...c.dependencies, 'critic'] }), level: 'minor', reason: '`dependencies` gains `critic`' },
  { rule: 'minor: a params key added', change: (c) => ({ ...c, params: { ...c.params, retries: 2 } }), level: 'minor', reason: 'parameter `retries` is added' },
  { rule: 'minor: model renamed', change: (c) => ({ ...c, model: 'model-b' }), level: 'minor', reason: '`model` changes from "model-a" to "model-b"' },
  { rule: 'minor: model unset', change: (c) => without(c, 'model'), level: 'minor', reason: '`model` changes from "model-a" to nothing' },
  { rule: 'minor: model set', from: (c) => without(c, 'model'), change: (c) => ({ ...c, model: 'model-a' }), level: 'minor', reason: '`model` changes from nothing to "model-a"' },
  { rule: 'minor: spec changed', change: (c) => ({ ...c, spec: `${c.spec} Keep it short.` }), level: 'minor', reason: '`spec` changes' },
  { rule: 'minor: skill changed', change: (c) => ({ ...c, skill: 'skill-b' }), level: 'minor', reason: '`skill` changes' },
  { rule: 'minor: skill unset', change: (c) => without(c, 'skill'), level: 'minor', reason: '`skill` changes' },
  // ---- PATCH ----
  { rule: 'patch: an input turned optional', change: (c) => ({ ...c, inputs: input(c, 0, { required: false }) }), level: 'patch', reason: 'input `outline` becomes optional' },
  { rule: 'patch: a port description changed', change: (c) => ({ ...c, outputs: output(c, 0, { description: 'The draft.' }) }), level: 'patch', reason: 'the description of output `draft` changes' },
  { rule: 'patch: an empty description equals an absent one, but the content differs', change: (c) => ({ ...c, outputs: output(c, 0, { description: '' }) }), level: 'patch', reason: 'the card content changes' },
  { rule: 'patch: ports reordered with the same names', change: (c) => ({ ...c, outputs: [c.outputs[1], c.outputs[0]] }), level: 'patch', reason: 'the outputs are reordered' },
  { rule: 'patch: a tool removed', change: (c) => ({ ...c, tools: ['web-search'] }), level: 'patch', reason: '`tools` loses `file-io`' },
  { rule: 'patch: an mcp entry removed', change: (c) => ({ ...c, mcp: ['server-a'] }), level: 'patch', reason: '`mcp` loses `server-b`' },
  { rule: 'patch: a risk marker removed', change: (c) => ({ ...c, riskMarkers: ['unchecked-write'] }), level: 'patch', reason: '`risk_markers` loses `secret-access`' },
  { rule: 'patch: a dependency removed', change: (c) => ({ ...c, dependencies: ['planner'] }), level: 'patch', reason: '`dependencies` loses `researcher`' },
  { rule: 'patch: tools reordered', change: (c) => ({ ...c, tools: ['file-io', 'web-search'] }), level: 'patch', reason: 'the entries of `tools` are reordered' },
  { rule: 'patch: mcp reordered', change: (c) => ({ ...c, mcp: ['server-b', 'server-a'] }), level: 'patch', reason: '`mcp` are reordered' },
  { rule: 'patch: risk_markers reordered', change: (c) => ({ ...c, riskMarkers: ['secret-access', 'unchecked-write'] }), level: 'patch', reason: '`risk_markers` are reordered' },
  { rule: 'patch: dependencies reordered', change: (c) => ({ ...c, dependencies: ['researcher', 'planner'] }), level: 'patch', reason: '`dependencies` are reordered' },
  { rule: 'patch: phases reordered', change: (c) => ({ ...c, phases: ['testing', 'implementation'] }), level: 'patch', reason: '`phase` are reordered' },
  { rule: 'patch: cannot reordered', from: (c) => ({ ...c, cannot: ['code', 'report'] }), change: (c) => ({ ...c, cannot: ['report', 'code'] }), level: 'patch', reason: '`cannot` are reordered' },
  { rule: 'patch: will_not reordered', change: (c) => ({ ...c, willNot: ['email anyone', 'publish anything'] }), level: 'patch', reason: '`will_not` are reordered' },
  { rule: 'patch: a params key removed', change: (c) => ({ ...c, params: { style: c.params['style'] } }), level: 'patch', reason: 'parameter `limit` is removed' },
  { rule: 'patch: a params value changed', change: (c) => ({ ...c, params: { ...c.params, limit: 4 } }), level: 'patch', reason: 'parameter `limit` changes from 3 to 4' },
  { rule: 'patch: a params value compared as canonical JSON (key order does not count)', change: (c) => ({ ...c, params: { style: { width: 80, tone: 'plain' }, limit: 3 } }), level: 'none' },
  { rule: 'patch: a long params value is shortened in the reason', change: (c) => ({ ...c, params: { ...c.params, limit: 'x'.repeat(60) } }), level: 'patch', reason: `"${'x'.repeat(39)}…` },
  { rule: 'patch: agent changed', change: (c) => ({ ...c, agent: 'agent-b' }), level: 'patch', reason: '`agent` changes' },
  { rule: 'patch: name changed', change: (c) => ({ ...c, name: 'Drafter' }), level: 'patch', reason: '`name` changes from "Writer" to "Drafter"' },
  { rule: 'patch: action changed', change: (c) => ({ ...c, action: 'Draft.' }), level: 'patch', reason: '`action` changes' },
  { rule: 'patch: notes changed', change: (c) => ({ ...c, notes: 'Other notes.' }), level: 'patch', reason: '`notes` change' },
  // ---- fallback and none ----
  { rule: 'fallback: an explicit `required: true` is the same rule-wise, but the content differs', change: (c) => ({ ...c, inputs: input(c, 0, { required: true }) }), level: 'patch', reason: 'the card content changes' },
  { rule: 'none: identical cards', change: (c) => ({ ...c }), level: 'none' },
  { rule: 'none: version, author and provenance play no part', change: (c) => ({ ...c, version: '9.9.9', author: 'other', provenance: 'derived' }), level: 'none' },
  // ---- several at once ----
  { rule: 'the strongest reason decides and comes first', change: (c) => ({ ...c, name: 'Drafter', tools: [...c.tools, 'git'], outputs: output(c, 1, undefined) }), level: 'major', reason: 'output `log` is removed' },
];

describe('inferBump', () => {
  for (const row of rows) {
    it(row.rule, () => {
      const previous = row.from ? row.from(base) : base;
      const result = inferBump(previous, row.change(previous));
      assert.equal(result.level, row.level, JSON.stringify(result.reasons));
      if (row.level === 'none') assert.deepEqual(result.reasons, []);
      else {
        assert.equal(result.reasons[0].level, row.level);
        if (row.reason) assert.ok(result.reasons[0].text.includes(row.reason), `"${result.reasons[0].text}" should contain "${row.reason}"`);
        for (let i = 1; i < result.reasons.length; i++) {
          const rank = { patch: 1, minor: 2, major: 3 } as const;
          assert.ok(rank[result.reasons[i - 1].level] >= rank[result.reasons[i].level], 'strongest first');
        }
      }
    });
  }
});

describe('declaredBump and bumpSatisfies', () => {
  const table: [string, string, BumpLevel][] = [
    ['1.0.0', '2.0.0', 'major'],
    ['1.2.3', '2.0.0-rc.1', 'major'],
    ['1.0.0', '1.1.0', 'minor'],
    ['1.0.0', '1.0.1', 'patch'],
    ['1.0.0-rc.1', '1.0.0', 'patch'],
    ['1.0.0-alpha', '1.0.0-beta', 'patch'],
    ['1.0.0', '1.0.0', 'none'],
    ['1.0.0', '1.0.0+build', 'none'],
    ['2.0.0', '1.9.9', 'none'],
    ['1.0', '2.0.0', 'none'],
    ['1.0.0', 'v2.0.0', 'none'],
  ];
  for (const [previous, next, level] of table) {
    it(`${previous} -> ${next} declares ${level}`, () => assert.equal(declaredBump(previous, next), level));
  }
  it('a declared bump satisfies a required one of the same or a lower level', () => {
    const levels: BumpLevel[] = ['none', 'patch', 'minor', 'major'];
    for (const [i, declared] of levels.entries()) {
      for (const [j, required] of levels.entries()) assert.equal(bumpSatisfies(declared, required), i >= j, `${declared} vs ${required}`);
    }
  });
});

const spec = 'Write the draft from the outline, one paragraph per section.';
const card = (version: string, extra = ''): string => `  id: writer
  name: Writer
  type: agent
  action: Write.
  spec: ${spec}
  inputs: []
  outputs:
    - {name: draft, type: markdown}
${extra}  version: ${version}`;

function checkChain(source: string): void {
  const fixture = parseFixture(source);
  const entries = fixture.files.map((file) => {
    const read = readCard(file, coreVocabulary);
    assert.ok(read.card, `${file.path} reads: ${read.diagnostics.map((d) => d.message).join(' ')}`);
    return { file: file.path, card: read.card, locate: read.locate };
  });
  const diagnostics: Diagnostic[] = checkVersionChain(entries);
  for (const d of diagnostics) {
    assert.equal(d.location.path, 'version');
    assert.ok(d.related && d.related.length === 1, 'points at the previous version');
  }
  assertDiagnostics(fixture, diagnostics, ['card/']);
}

const chains: { name: string; source: string }[] = [
  {
    name: 'too small: on the newer version value, naming the lowest satisfying version and the reason',
    source: `
//- cards/writer@1.0.0.yaml
${card('1.0.0')}
//- cards/writer@1.0.1.yaml
${card('1.0.1', '  tools: [git]\n')}
#          ^^^^^ error card/version-bump-too-small: only a patch bump over \`1.0.0\`, but its changes need a minor bump (\`tools\` gains \`git\`); set \`version\` to \`1.1.0\`
`,
  },
  {
    name: 'enough: a major bump for a removed output fires nothing',
    source: `
//- cards/writer@1.0.0.yaml
${card('1.0.0')}
//- cards/writer@2.0.0.yaml
${card('2.0.0').replace('    - {name: draft, type: markdown}\n', '    - {name: text, type: markdown}\n')}
`,
  },
  {
    name: 'versions are ordered by semver, not by file name; every consecutive pair is checked',
    source: `
//- cards/a.yaml
${card('1.10.0', '  tools: [git]\n  cannot: [report]\n')}
#          ^^^^^^ error card/version-bump-too-small: only a minor bump over \`1.2.0\`, but its changes need a major bump (\`cannot\` gains \`report\`); set \`version\` to \`2.0.0\`
//- cards/b.yaml
${card('1.2.0', '  tools: [git]\n')}
//- cards/c.yaml
${card('1.0.0-rc.1')}
//- cards/d.yaml
${card('1.0.0', '  cannot: [code]\n  tools: [git, ci]\n')}
#          ^^^^^ error card/version-bump-too-small: over \`1.0.0-rc.1\`, but its changes need a major bump (\`cannot\` gains \`code\`); set \`version\` to \`2.0.0\`
`,
  },
  {
    name: 'an unchanged card with a new version is fine; the same version twice is not compared',
    source: `
//- cards/writer@1.0.0.yaml
${card('1.0.0')}
//- cards/writer@1.0.1.yaml
${card('1.0.1')}
//- cards/copy.yaml
${card('1.0.1', '  notes: different\n')}
`,
  },
  {
    name: 'different card ids are never compared',
    source: `
//- cards/writer@1.0.0.yaml
${card('1.0.0')}
//- cards/other@1.0.1.yaml
${card('1.0.1', '  tools: [git]\n').replace('id: writer', 'id: other')}
`,
  },
];

describe('checkVersionChain (card/version-bump-too-small)', () => {
  for (const c of chains) it(c.name, () => checkChain(c.source));

  it('the message lists at most three of the strongest reasons', () => {
    const previous = { ...base };
    const next: Card = { ...base, version: '1.0.1', tools: [...base.tools, 'git', 'ci', 'sql', 'shell'] };
    const locate = (): { start: number; end: number } => ({ start: 0, end: 1 });
    const [d] = checkVersionChain([
      { file: 'cards/a.yaml', card: previous, locate },
      { file: 'cards/b.yaml', card: next, locate },
    ]);
    assert.equal(d.code, 'card/version-bump-too-small');
    assert.equal(d.severity, 'error');
    assert.equal(d.location.cardRef, 'writer@1.0.1');
    assert.ok(d.message.includes('; and 1 more'), d.message);
    assert.ok(d.hint?.includes('1.1.0'));
  });
});
