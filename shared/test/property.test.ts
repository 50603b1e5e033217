/**
 * Property tests (docs/architecture.md#tests): whatever the input, the readers return (never
 * throw), every range they hand back lies inside its file, huge and hostile inputs finish with
 * bounded results, and `__proto__`/`constructor` spellings stay plain data.
 *
 * Inputs are random text and, mostly, real fixture texts (test-fixtures/example) mutated by a
 * few random edits (./support/mutations.ts, shared with the picture's property test). Outcomes
 * are asserted, never times.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseDot } from '../src/syntax/dot-parser';
import { lintAttractor } from '../src/check/attractor-lint';
import { readCard } from '../src/check/card';
import { readExtensions } from '../src/vocabulary/extensions';
import { coreVocabulary } from '../src/vocabulary/view';
import { loadBundle } from '../src/bundle/resolve';
import type { SourceFile } from '../src/bundle/model';
import { isDiagnosticCode, type Diagnostic } from '../src/diagnostics';
import { canonicalJson } from '../src/hash/canonical';
import { findSimilarSpecs, hasShingleEvidence, jaccardSimilarity, specWords } from '../src/analyze/similarity';
import { dotSnippets, exampleCards, exampleDot, exampleExtensions, mutated, mutatedExampleBundles, randomFileSets, yamlSnippets } from './support/mutations';

const runs = { numRuns: 300 };

// ---- the checks ------------------------------------------------------------------------------

/** Every `{ start, end }` reachable from `value` lies inside a text of `length` code units. */
function assertSpansInside(value: unknown, length: number, where: string): void {
  const seen = new Set<object>();
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const here = stack.pop();
    if (here === null || typeof here !== 'object' || seen.has(here)) continue;
    seen.add(here);
    if (here instanceof Map) {
      for (const [key, item] of here) stack.push(key, item);
      continue;
    }
    const record = here as Record<string, unknown>;
    if (typeof record.start === 'number' && typeof record.end === 'number') {
      const { start, end } = record as { start: number; end: number };
      assert.ok(Number.isInteger(start) && Number.isInteger(end) && start >= 0 && start <= end && end <= length, `${where}: span ${start}..${end} outside 0..${length}`);
      continue;
    }
    for (const key of Object.keys(record)) stack.push(record[key]);
  }
}

/** Each diagnostic has a registered code, and its span (and each related span) lies inside the file it names. */
function assertDiagnosticsInside(diagnostics: readonly Diagnostic[], texts: ReadonlyMap<string, string>, defaultFile: string): void {
  for (const d of diagnostics) {
    assert.ok(isDiagnosticCode(d.code), `unregistered code ${d.code}`);
    assert.ok(d.message.length > 0, `${d.code} has an empty message`);
    const file = d.location.file ?? defaultFile;
    if (d.location.span) {
      const text = texts.get(file);
      assert.ok(text !== undefined, `${d.code} points into ${file}, which is not an input`);
      assertSpansInside(d.location.span, text.length, `${d.code} in ${file}`);
    }
    for (const related of d.related ?? []) {
      const text = texts.get(related.file);
      assert.ok(text !== undefined, `${d.code} relates to ${related.file}, which is not an input`);
      assertSpansInside(related.span, text.length, `${d.code} related in ${related.file}`);
    }
  }
}

function checkDot(text: string): void {
  const parse = parseDot(text);
  assertSpansInside(parse, text.length, 'parseDot');
  const texts = new Map([['topology.dot', text]]);
  assertDiagnosticsInside(parse.diagnostics, texts, 'topology.dot');
  if (parse.graph) assertDiagnosticsInside(lintAttractor(parse, text), texts, 'topology.dot');
}

function checkCard(file: SourceFile): void {
  const read = readCard(file, coreVocabulary);
  assertDiagnosticsInside(read.diagnostics, new Map([[file.path, file.text]]), file.path);
  for (const probe of ['id', 'inputs[0].type', 'outputs', 'params.a.b[2]', 'cannot[0]', '', 'x.y[9]']) {
    assertSpansInside(read.locate(probe, 'key'), file.text.length, `locate ${probe}`);
    assertSpansInside(read.locate(probe, 'value'), file.text.length, `locate ${probe}`);
  }
  if (read.card) assert.equal(typeof canonicalJson(read.card), 'string');
}

function checkExtensions(text: string): void {
  const file = { path: 'ontology/extensions.yaml', text };
  const read = readExtensions(file);
  assertDiagnosticsInside(read.diagnostics, new Map([[file.path, text]]), file.path);
  assertSpansInside(read.terms, text.length, 'readExtensions terms');
}

function checkBundle(files: readonly SourceFile[]): void {
  const result = loadBundle(files, { folderName: 'mutated' });
  const texts = new Map(files.map((f) => [f.path, f.text] as const));
  // findings about a file the bundle lacks (no topology, say) carry no span
  assertDiagnosticsInside(result.diagnostics, texts, 'topology.dot');
}

// ---- the properties --------------------------------------------------------------------------

describe('property: the readers never throw and keep every range inside its file', () => {
  it('parseDot and lintAttractor on mutated and random DOT', () => {
    fc.assert(fc.property(mutated(exampleDot, dotSnippets), checkDot), runs);
  });

  it('readCard on mutated and random YAML cards', () => {
    const path = fc.constantFrom('cards/a@1.0.0.yaml', 'cards/ns/b@1.0.0.yml', 'cards/odd-name.yaml');
    fc.assert(fc.property(path, mutated(exampleCards.map((f) => f.text), yamlSnippets), (p, text) => checkCard({ path: p, text })), runs);
  });

  it('readCard on mutated and random JSON cards', () => {
    const json = exampleCards.map((f) => {
      const read = readCard(f, coreVocabulary);
      return JSON.stringify(read.draft, undefined, 2);
    });
    fc.assert(fc.property(mutated(json, ['{', '}', '[', ']', '"', ':', ',', '\\u00', '\\', 'true', 'null', '-0e', '"__proto__": ']), (text) => checkCard({ path: 'cards/a@1.0.0.json', text })), runs);
  });

  it('readExtensions on mutated and random vocabularies', () => {
    fc.assert(fc.property(mutated(exampleExtensions, yamlSnippets), checkExtensions), runs);
  });

  it('loadBundle on the example bundle with mutated files', () => {
    fc.assert(fc.property(mutatedExampleBundles(), checkBundle), { numRuns: 100 });
  });

  it('loadBundle on random file sets', () => {
    fc.assert(fc.property(randomFileSets(), checkBundle), { numRuns: 150 });
  });
});

// ---- huge and hostile inputs -----------------------------------------------------------------

const tenMegabytes = 10 * 1024 * 1024;

/** `unit` repeated to about 10 MB, between `head` and `tail`. */
function huge(head: string, unit: string, tail = ''): string {
  return head + unit.repeat(Math.ceil((tenMegabytes - head.length - tail.length) / unit.length)) + tail;
}

/** 10 MB of deterministic pseudo-random characters, mostly ASCII punctuation and letters (made once). */
let noiseText: string | undefined;
function noise(): string {
  if (noiseText !== undefined) return noiseText;
  const alphabet = '{}[]";,=-><#/*\\:+ \n\tabcxyz019é\u0000';
  let seed = 12345;
  const block: string[] = [];
  for (let i = 0; i < 64 * 1024; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    block.push(alphabet[(seed >> 8) % alphabet.length]);
  }
  // 160 shifted copies of a 64 KB block: no two lines of the result line up
  const chunk = block.join('');
  const parts: string[] = [];
  for (let i = 0; parts.length * chunk.length < tenMegabytes; i++) parts.push(chunk.slice(i % 977) + chunk.slice(0, i % 977));
  noiseText = parts.join('');
  return noiseText;
}

interface HugeCase {
  readonly name: string;
  readonly text: () => string;
  /** What the result must look like: sizes bounded, the expected reading. */
  readonly expect: (text: string) => void;
}

const hugeDot: readonly HugeCase[] = [
  {
    name: 'one unterminated string',
    text: () => huge('digraph g { a [label="', 'x'),
    expect: (text) => {
      const parse = parseDot(text);
      assert.ok(parse.diagnostics.some((d) => d.code === 'dot/parse-error'));
      assert.ok(parse.diagnostics.length <= 25);
      assert.ok(parse.tokens.length < 100);
    },
  },
  {
    name: 'noise',
    text: noise,
    expect: (text) => {
      const parse = parseDot(text);
      // at most 20 findings per code, plus one line saying there are more
      assert.ok(parse.diagnostics.length <= 3 * 21, `${parse.diagnostics.length} diagnostics`);
    },
  },
  {
    name: 'one 10 MB comment',
    text: () => huge('digraph g {\n  a -> b;\n  /*', ' comment ', '*/\n}\n'),
    expect: (text) => {
      const parse = parseDot(text);
      assert.deepEqual(parse.diagnostics, []);
      assert.deepEqual(parse.graph?.nodes.map((n) => n.id), ['a', 'b']);
    },
  },
  {
    name: 'a chain of 200,000 nodes',
    text: () => {
      const lines = ['digraph g {'];
      let size = 0;
      for (let i = 0; size < tenMegabytes; i++) {
        const line = `  step_${i} [card="step-${i}@1.0.0"]; step_${i} -> step_${i + 1};`;
        lines.push(line);
        size += line.length + 1;
      }
      lines.push('}', '');
      return lines.join('\n');
    },
    expect: (text) => {
      const parse = parseDot(text);
      const nodes = parse.graph?.nodes.length ?? 0;
      assert.ok(nodes > 150_000, `${nodes} nodes`);
      assert.equal(parse.graph?.edges.length, nodes - 1);
      assert.deepEqual(parse.diagnostics, []);
    },
  },
];

function card(fields: string): string {
  return `id: big\nname: Big\ntype: agent\naction: act\nversion: 1.0.0\ninputs: []\noutputs: []\n${fields}`;
}

const hugeCards: readonly HugeCase[] = [
  {
    name: 'a 10 MB spec',
    text: () => card(huge('spec: >-\n', '  Read the input and write the output carefully.\n')),
    expect: (text) => {
      const read = readCard({ path: 'cards/big@1.0.0.yaml', text }, coreVocabulary);
      assert.deepEqual(read.diagnostics, []);
      assert.ok((read.card?.spec.length ?? 0) > tenMegabytes / 2);
    },
  },
  {
    name: 'nesting ten million lists deep',
    text: () => card(`spec: ${'Run the step and report what it did, in full.'}\n${huge('params:\n  a: ', '[')}`),
    expect: (text) => {
      const read = readCard({ path: 'cards/big@1.0.0.yaml', text }, coreVocabulary);
      assert.equal(read.card, undefined);
      assert.deepEqual(read.diagnostics.map((d) => [d.code, d.severity]), [['card/parse-error', 'error']]);
    },
  },
  {
    name: 'five million `- ` entries on one line',
    text: () => card(`spec: ${'Run the step and report what it did, in full.'}\n${huge('tools:\n  ', '- ')}`),
    expect: (text) => {
      const read = readCard({ path: 'cards/big@1.0.0.yaml', text }, coreVocabulary);
      assert.equal(read.card, undefined);
      assert.deepEqual(read.diagnostics.map((d) => [d.code, d.severity]), [['card/parse-error', 'error']]);
    },
  },
  {
    name: 'brackets by the million inside a quoted spec (read as text, not nesting)',
    text: () => card(`${huge('spec: "', '[[ ', '"\n')}`),
    expect: (text) => {
      const read = readCard({ path: 'cards/big@1.0.0.yaml', text }, coreVocabulary);
      assert.deepEqual(read.diagnostics, []);
      assert.ok(read.card?.spec.startsWith('[[ [[ '));
    },
  },
  {
    name: 'noise',
    text: noise,
    expect: (text) => {
      const read = readCard({ path: 'cards/big@1.0.0.yaml', text }, coreVocabulary);
      assert.equal(read.card, undefined);
      assert.ok(read.diagnostics.length <= text.length / 100);
    },
  },
];

/** Every YAML file of a bundle, 10 MB deep: refused with one error on that file, never a throw. */
const deepYamlFiles: readonly { readonly path: string; readonly text: () => string }[] = [
  { path: 'blueprint.yaml', text: () => huge('slug: deep\ntags: ', '[') },
  { path: 'ontology/extensions.yaml', text: () => huge('terms:\n  ', '- ') },
  { path: 'cards/deep@1.0.0.yaml', text: () => huge('id: deep\nparams: ', '{a: ') },
];

describe('property: 10 MB inputs finish with bounded results', () => {
  for (const f of deepYamlFiles) {
    it(`loadBundle: ${f.path} nested ten million levels deep`, () => {
      const text = f.text();
      const files = [{ path: 'topology.dot', text: 'digraph g {\n  a;\n}\n' }, { path: f.path, text }];
      const result = loadBundle(files, { folderName: 'deep' });
      const mine = result.diagnostics.filter((d) => d.location.file === f.path);
      assert.deepEqual(mine.map((d) => [d.code, d.severity]), [['card/parse-error', 'error']]);
      assertDiagnosticsInside(result.diagnostics, new Map(files.map((x) => [x.path, x.text] as const)), 'topology.dot');
    });
  }

  for (const c of hugeDot) {
    it(`parseDot: ${c.name}`, () => {
      const text = c.text();
      assert.ok(text.length >= tenMegabytes);
      c.expect(text);
    });
  }
  for (const c of hugeCards) {
    it(`readCard: ${c.name}`, () => {
      const text = c.text();
      assert.ok(text.length >= tenMegabytes);
      c.expect(text);
    });
  }
});

// ---- alias bombs -----------------------------------------------------------------------------

/** The billion laughs: nine levels of ten aliases to the level below, 10^9 leaves expanded. */
function aliasBomb(indent: string): string {
  const lines = [`${indent}l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]`];
  for (let i = 1; i <= 9; i++) lines.push(`${indent}l${i}: &l${i} [${Array.from({ length: 10 }, () => `*l${i - 1}`).join(', ')}]`);
  return lines.join('\n');
}

const bombs: readonly { readonly name: string; readonly file: SourceFile; readonly read: (file: SourceFile) => readonly Diagnostic[] }[] = [
  {
    name: 'a card with the bomb at the top level',
    file: { path: 'cards/bomb@1.0.0.yaml', text: `${card('spec: Read the input and write the output carefully.\n')}${aliasBomb('')}\n` },
    read: (file) => readCard(file, coreVocabulary).diagnostics,
  },
  {
    name: 'a card with the bomb in params',
    file: { path: 'cards/bomb@1.0.0.yaml', text: `${card('spec: Read the input and write the output carefully.\n')}params:\n${aliasBomb('  ')}\n` },
    read: (file) => readCard(file, coreVocabulary).diagnostics,
  },
  {
    name: 'a card with the bomb in params and no alias limit',
    file: { path: 'cards/bomb@1.0.0.yaml', text: `${card('spec: Read the input and write the output carefully.\n')}params:\n${aliasBomb('  ')}\n` },
    read: (file) => readCard(file, coreVocabulary, { maxAliasCount: -1 }).diagnostics,
  },
  {
    name: 'a vocabulary with the bomb',
    file: { path: 'ontology/extensions.yaml', text: `${aliasBomb('')}\nterms: *l9\n` },
    read: (file) => readExtensions(file).diagnostics,
  },
];

describe('property: a YAML alias bomb is refused, never expanded', () => {
  for (const b of bombs) {
    it(b.name, () => {
      const before = process.memoryUsage().heapUsed;
      const diagnostics = b.read(b.file);
      assert.ok(diagnostics.some((d) => d.severity === 'error'), 'the bomb is reported as an error');
      assert.ok(diagnostics.length < 100);
      assertDiagnosticsInside(diagnostics, new Map([[b.file.path, b.file.text]]), b.file.path);
      // expanding it would take gigabytes; reading it takes next to nothing
      assert.ok(process.memoryUsage().heapUsed - before < 256 * 1024 * 1024);
    });
  }
});

// ---- __proto__ and constructor ---------------------------------------------------------------

interface InertCase {
  readonly name: string;
  /** Runs the reader and checks that the spellings came through as data. */
  readonly run: () => void;
}

const cardWith = (extra: string, ports = 'inputs: []\noutputs: []\n'): string =>
  `id: plain\nname: Plain\ntype: agent\naction: act\nspec: Read the input and write the output carefully.\nversion: 1.0.0\n${ports}${extra}`;

const inertCases: readonly InertCase[] = [
  {
    name: 'card fields named __proto__ and constructor',
    run: () => {
      const read = readCard({ path: 'cards/plain@1.0.0.yaml', text: cardWith('__proto__: { polluted: yes }\nconstructor: { prototype: { polluted: yes } }\n') }, coreVocabulary);
      assert.ok(read.card, 'unknown keys are infos: the card still loads');
      assert.deepEqual(read.diagnostics.map((d) => d.location.path).sort(), ['__proto__', 'constructor']);
    },
  },
  {
    name: 'params keys named __proto__ and constructor',
    run: () => {
      const read = readCard({ path: 'cards/plain@1.0.0.yaml', text: cardWith('params:\n  __proto__: { polluted: yes }\n  constructor: { prototype: { polluted: yes } }\n  toString: 3\n') }, coreVocabulary);
      const params = read.card?.params ?? {};
      assert.deepEqual(Object.keys(params).sort(), ['__proto__', 'constructor', 'toString']);
      assert.deepEqual(Object.getOwnPropertyDescriptor(params, '__proto__')?.value, { polluted: 'yes' });
      assert.equal(Object.getPrototypeOf(params), Object.prototype);
      assert.match(canonicalJson(params), /^\{"__proto__":\{"polluted":"yes"\},"constructor":/);
    },
  },
  {
    name: 'a JSON card with __proto__ keys',
    run: () => {
      const text = JSON.stringify({ id: 'plain', name: 'Plain', type: 'agent', action: 'act', spec: 'Read the input and write the output carefully.', version: '1.0.0', inputs: [], outputs: [] }).replace(
        /^\{/,
        '{"__proto__": {"polluted": true}, "params": {"__proto__": {"polluted": true}},',
      );
      const read = readCard({ path: 'cards/plain@1.0.0.json', text }, coreVocabulary);
      assert.ok(read.card);
      assert.deepEqual(Object.getOwnPropertyDescriptor(read.card.params, '__proto__')?.value, { polluted: true });
    },
  },
  {
    name: 'port names __proto__ and constructor',
    run: () => {
      const ports = 'inputs:\n  - name: __proto__\n    type: text\n  - name: constructor\n    type: text\noutputs:\n  - name: hasOwnProperty\n    type: text\n';
      const read = readCard({ path: 'cards/plain@1.0.0.yaml', text: cardWith('', ports) }, coreVocabulary);
      assert.deepEqual(read.card?.inputs.map((p) => p.name), ['__proto__', 'constructor']);
      assert.deepEqual(read.diagnostics, []);
    },
  },
  {
    name: 'node ids and attribute keys __proto__ and constructor',
    run: () => {
      const text = 'digraph g {\n  __proto__ [constructor="x", __proto__="y", toString="z"];\n  __proto__ -> constructor [__proto__="e"];\n}\n';
      const parse = parseDot(text);
      assert.deepEqual(parse.graph?.nodes.map((n) => n.id), ['__proto__', 'constructor']);
      const attrs = parse.graph?.nodes[0].attrs;
      assert.deepEqual([...(attrs?.keys() ?? [])].sort(), ['__proto__', 'constructor', 'toString']);
      assert.equal(parse.graph?.edges[0].attrs.get('__proto__')?.value, 'e');
      lintAttractor(parse, text);
    },
  },
  {
    name: 'term ids __proto__ and constructor in the vocabulary, used by a card',
    run: () => {
      const extensions = [
        'terms:',
        '  - { id: __proto__, kind: data-type, label: P, description: A local data type., since: "1.0.0", broader: text }',
        '  - { id: constructor, kind: tool, label: C, description: A local tool., since: "1.0.0", broader: tool-capability }',
        '  - { id: hasOwnProperty, kind: risk-marker, label: H, description: A local marker., since: "1.0.0", broader: __proto__ }',
        '',
      ].join('\n');
      const files: SourceFile[] = [
        { path: 'topology.dot', text: 'digraph g {\n  __proto__ [card="plain@1.0.0"];\n  constructor [card="plain@1.0.0"];\n  __proto__ -> constructor;\n}\n' },
        { path: 'ontology/extensions.yaml', text: extensions },
        { path: 'cards/plain@1.0.0.yaml', text: cardWith('tools: [constructor]\ndependencies: [__proto__]\n', 'inputs:\n  - name: __proto__\n    type: __proto__\noutputs:\n  - name: constructor\n    type: __proto__\n') },
      ];
      const result = loadBundle(files, { folderName: 'inert' });
      assert.deepEqual(result.blueprint?.nodes.map((n) => [n.id, n.entry?.ref]), [['__proto__', 'plain@1.0.0'], ['constructor', 'plain@1.0.0']]);
      assert.equal(result.blueprint?.vocabulary.get('__proto__')?.kind, 'data-type');
      assert.equal(result.blueprint?.vocabulary.isA('__proto__', 'text'), true);
      assert.equal(result.blueprint?.vocabulary.get('toString'), undefined);
      const codes = result.diagnostics.map((d) => d.code);
      assert.ok(!codes.includes('card/unknown-term') && !codes.includes('card/wrong-term-kind'), codes.join(', '));
      assert.equal(result.blueprint?.vocabulary.get('hasOwnProperty')?.kind, 'risk-marker');
    },
  },
];

describe('property: __proto__ and constructor are inert', () => {
  for (const c of inertCases) {
    it(c.name, () => {
      c.run();
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
      assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted'), false);
      assert.equal(typeof ({} as { constructor: unknown }).constructor, 'function');
    });
  }
});

// ---- the fast paths agree with their definitions -----------------------------------------------

describe('property: the fast paths compute what their definitions say', () => {
  it('specWords is the lowercased Unicode letter-and-digit runs', () => {
    const text = fc.oneof(fc.string({ unit: 'binary-ascii', maxLength: 80 }), fc.string({ unit: 'grapheme', maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }));
    fc.assert(
      fc.property(text, (t) => {
        assert.deepEqual(specWords(t), t.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 0));
      }),
      { numRuns: 500 },
    );
  });

  it('findSimilarSpecs finds exactly the pairs a pairwise comparison finds', () => {
    const text = fc.array(fc.constantFrom('build', 'the', 'parser', 'test', 'report', 'and', 'ok'), { maxLength: 14 }).map((words) => words.join(' '));
    const threshold = fc.oneof(fc.constantFrom(0, 0.35, 0.5, 1), fc.double({ min: -0.1, max: 1.1, noNaN: true }));
    fc.assert(
      fc.property(fc.array(text, { maxLength: 12 }), fc.array(text, { maxLength: 8 }), threshold, (subjects, references, t) => {
        const expected: { subject: number; reference: number; score: number }[] = [];
        subjects.forEach((s, i) =>
          references.forEach((r, j) => {
            if (!hasShingleEvidence(s) || !hasShingleEvidence(r)) return;
            const score = jaccardSimilarity(s, r);
            if (score > t) expected.push({ subject: i, reference: j, score });
          }),
        );
        assert.deepEqual(findSimilarSpecs(subjects, references, t), expected);
      }),
      { numRuns: 500 },
    );
  });

  it('canonicalJson sorts keys by code units at every level and reads back as the same value', () => {
    const key = fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom('__proto__', 'constructor', '10', '9', 'é', 'Z', 'a'));
    const json = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.constant(null), fc.boolean(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.string({ unit: 'binary', maxLength: 6 }), tie('array'), tie('object')),
      array: fc.array(tie('value'), { maxLength: 4 }),
      object: fc.array(fc.tuple(key, tie('value')), { maxLength: 4 }).map((pairs) => {
        const record: Record<string, unknown> = {};
        for (const [k, v] of pairs) Object.defineProperty(record, k, { value: v, enumerable: true, writable: true, configurable: true });
        return record;
      }),
    })).value;
    fc.assert(
      fc.property(json, (value) => {
        assert.equal(canonicalJson(value), reference(value));
      }),
      { numRuns: 500 },
    );
  });
});

/** The canonical form written out plainly (docs/compatibility.md#canonical-json), for the property above. */
function reference(value: unknown): string {
  if (value === null || typeof value !== 'object') return typeof value === 'number' && Object.is(value, -0) ? '0' : JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  keys.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${keys.map((k) => `${JSON.stringify(k)}:${reference(record[k])}`).join(',')}}`;
}
