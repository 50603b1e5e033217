/**
 * The incremental load, against a fresh one (the oracle of every reuse between edits): a bundle
 * loaded again and again with one `LoadMemo` and a memoised card reader (as the language server
 * does) must give exactly what a fresh `loadBundle` gives, after any sequence of edits. Random
 * sequences of edits to a generated bundle: a card's type, port types, spec, risk markers,
 * dependencies or params changed; a card deleted, restored, copied under a new version or cloned
 * under another name; the topology given a node or an edge, or losing one, a pin broken, a comment
 * that only moves the text after it, or an attribute resolution reads (a node's `card`, `version`,
 * `digest`, an edge's `out`, `in`, `label`, `condition`, `weight`, on the statement or as a
 * default) edited in place, mostly keeping its length. After every step the memoised and the
 * fresh load are compared: diagnostics (content and order), analysis, and the resolved nodes and
 * edges. The files are handed over as new objects at every load, or as the server does, the
 * unchanged ones as the same objects.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createLoadMemo, loadBundle, type LoadMemo, type LoadResult } from '../src/bundle/resolve';
import type { SourceFile } from '../src/bundle/model';
import type { CardReadResult } from '../src/card/card-model';
import { readCard } from '../src/check/card';
import type { Vocabulary } from '../src/vocabulary/types';
import { generateBundle } from './support/generate-bundle';

type Edit =
  | { readonly kind: 'card-type'; readonly card: number; readonly value: number }
  | { readonly kind: 'port-type'; readonly card: number; readonly port: number; readonly value: number }
  | { readonly kind: 'spec'; readonly card: number; readonly from: number; readonly short: boolean }
  | { readonly kind: 'risk'; readonly card: number; readonly value: number }
  | { readonly kind: 'dependencies'; readonly card: number }
  | { readonly kind: 'params'; readonly card: number; readonly value: number }
  | { readonly kind: 'delete-card'; readonly card: number }
  | { readonly kind: 'restore-card' }
  | { readonly kind: 'copy-card'; readonly card: number; readonly value: number }
  | { readonly kind: 'clone-card'; readonly card: number }
  | { readonly kind: 'add-node'; readonly value: number; readonly line: number }
  | { readonly kind: 'remove-node'; readonly node: number }
  | { readonly kind: 'add-edge'; readonly source: number; readonly target: number; readonly line: number }
  | { readonly kind: 'remove-edge'; readonly edge: number }
  | { readonly kind: 'break-pin'; readonly node: number; readonly value: number }
  | { readonly kind: 'comment'; readonly line: number; readonly value: number }
  | { readonly kind: 'attribute'; readonly on: 'node' | 'edge'; readonly defaults: boolean; readonly line: number; readonly key: number; readonly value: number };

const cardTypes = ['agent', 'shell-tool', 'validation', 'human-gate', 'tool', 'parallel'];
const portTypes = ['text', 'acceptance-criteria', 'plan', 'code', 'report', 'status', 'markdown', 'any'];
const risks = ['', 'risk_markers: [irreversible-action]', 'risk_markers: [secret-access, unbounded-loop]', 'risk_markers: [made-up-marker]'];
const params = ['', 'params:\n  max_iterations: 3', 'params:\n  criteria: [criteria_0, nowhere]'];

/** The attributes resolution reads, by statement: each is edited in place below. */
const attributeKeys = { node: ['card', 'version', 'digest'], edge: ['out', 'in', 'label', 'condition', 'weight'] } as const;
/** Values an attribute edit may write, by key; one of the same length as the present value is preferred. */
const attributeValues: Readonly<Record<string, readonly string[]>> = {
  version: ['1.0.0', '2.0.0', '1.0.1', '^1.0', '~1.0', 'x.y.z'],
  digest: ['sha256:00', 'sha256:ff', 'sha256:ab'],
  label: ['pass', 'fail', 'next', 'retry', 'approved', 'rejected'],
  condition: ['outcome=fail', 'outcome=pass', 'outcome=success', 'outcome!=success', 'outcome=retry', 'outcome=f@il'],
  weight: ['1', '2', '5', 'x', '-1', '10'],
};

const index = fc.nat({ max: 10_000 });
/** Mostly one of the first few cards, so that edits meet: a card cloned, then edited. */
const cardIndex = fc.oneof(fc.nat({ max: 3 }), index);
/** Mostly one of the first few statements, so that an attribute added is then edited in place. */
const lineIndex = fc.oneof(fc.nat({ max: 3 }), index);
const editArbitrary: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('card-type' as const), card: cardIndex, value: index }),
  fc.record({ kind: fc.constant('port-type' as const), card: cardIndex, port: index, value: index }),
  fc.record({ kind: fc.constant('spec' as const), card: cardIndex, from: index, short: fc.boolean() }),
  fc.record({ kind: fc.constant('risk' as const), card: cardIndex, value: index }),
  fc.record({ kind: fc.constant('dependencies' as const), card: cardIndex }),
  fc.record({ kind: fc.constant('params' as const), card: cardIndex, value: index }),
  fc.record({ kind: fc.constant('delete-card' as const), card: cardIndex }),
  fc.record({ kind: fc.constant('restore-card' as const) }),
  fc.record({ kind: fc.constant('copy-card' as const), card: cardIndex, value: index }),
  fc.record({ kind: fc.constant('clone-card' as const), card: cardIndex }),
  fc.record({ kind: fc.constant('add-node' as const), value: index, line: index }),
  fc.record({ kind: fc.constant('remove-node' as const), node: index }),
  fc.record({ kind: fc.constant('add-edge' as const), source: index, target: index, line: index }),
  fc.record({ kind: fc.constant('remove-edge' as const), edge: index }),
  fc.record({ kind: fc.constant('break-pin' as const), node: index, value: index }),
  fc.record({ kind: fc.constant('comment' as const), line: index, value: index }),
  fc.record({ kind: fc.constant('attribute' as const), on: fc.constantFrom('node' as const, 'edge' as const), defaults: fc.boolean(), line: lineIndex, key: index, value: index }),
);
/** Edits of attributes in place, mostly of the same length: the edits whose reuse only a comparison of values can refuse. */
const attributeArbitrary: fc.Arbitrary<Edit> = fc.record({
  kind: fc.constant('attribute' as const),
  on: fc.constantFrom('node' as const, 'edge' as const),
  defaults: fc.boolean(),
  line: lineIndex,
  key: index,
  value: index,
});

interface State {
  readonly files: Map<string, string>;
  readonly deleted: SourceFile[];
}

/** Applies one edit to the bundle's files (a no-op when the edit finds nothing to change). */
function apply(state: State, edit: Edit): void {
  const { files } = state;
  const cards = [...files.keys()].filter((p) => p.startsWith('cards/') && p.endsWith('.yaml')).sort();
  const pick = <T>(list: readonly T[], n: number): T | undefined => (list.length === 0 ? undefined : list[n % list.length]);
  const editCard = (n: number, change: (text: string) => string): void => {
    const card = pick(cards, n);
    if (card !== undefined) files.set(card, change(files.get(card)!));
  };
  const topology = files.get('topology.dot') ?? 'digraph g {\n}\n';
  const lines = topology.split('\n');
  const nodeLines = lines.map((line, i) => [line, i] as const).filter(([line]) => /^\s+(?:[a-z_0-9]+|"[a-z_0-9-]+") \[(?:card|version)=/.test(line));
  const edgeLines = lines.map((line, i) => [line, i] as const).filter(([line]) => line.includes(' -> '));
  const nodeIds = nodeLines.map(([line]) => line.trim().split(' ')[0]);
  const setTopology = (text: string): void => void files.set('topology.dot', text);
  /** The topology with `line` added before the closing brace (`at` a multiple of 3), or before a line in the middle. */
  const withLine = (line: string, at: number): string => {
    if (at % 3 === 0 || lines.length < 5) {
      const closing = topology.lastIndexOf('}');
      return `${topology.slice(0, closing)}${line}\n${topology.slice(closing)}`;
    }
    const before = 3 + (at % (lines.length - 4));
    return [...lines.slice(0, before), line, ...lines.slice(before)].join('\n');
  };
  switch (edit.kind) {
    case 'card-type':
      return editCard(edit.card, (text) => text.replace(/^type: .*$/m, `type: ${pick(cardTypes, edit.value)!}`));
    case 'port-type':
      return editCard(edit.card, (text) => {
        let seen = 0;
        return text.replace(/^( {4}type: ).*$/gm, (whole, head: string) => (seen++ === edit.port % 3 ? `${head}${pick(portTypes, edit.value)!}` : whole));
      });
    case 'spec': {
      const source = pick(cards, edit.from);
      const spec = edit.short ? 'Write the code.' : source === undefined ? 'nothing' : specOf(files.get(source)!);
      return editCard(edit.card, (text) => text.replace(/^spec: (>-\n(?: {2}.*\n)+|.*\n)/m, `spec: ${JSON.stringify(spec)}\n`));
    }
    case 'risk':
      return editCard(edit.card, (text) => replaceField(text, 'risk_markers', pick(risks, edit.value)!));
    case 'dependencies':
      return editCard(edit.card, (text) => replaceField(text, 'dependencies', ''));
    case 'params':
      return editCard(edit.card, (text) => replaceField(text, 'params', pick(params, edit.value)!));
    case 'delete-card': {
      const card = pick(cards, edit.card);
      if (card === undefined) return;
      state.deleted.push({ path: card, text: files.get(card)! });
      files.delete(card);
      return;
    }
    case 'restore-card': {
      const back = state.deleted.pop();
      if (back) files.set(back.path, back.text);
      return;
    }
    case 'copy-card': {
      const card = pick(cards, edit.card);
      if (card === undefined) return;
      const version = ['1.0.1', '1.1.0', '2.0.0'][edit.value % 3];
      const text = files.get(card)!.replace(/^version: .*$/m, `version: ${version}`).replace(/^( {4}type: ).*$/m, `$1${pick(portTypes, edit.value)!}`);
      files.set(card.replace('@1.0.0', `@${version}`), text);
      return;
    }
    case 'clone-card': {
      // a second file claiming the same id@version
      const card = pick(cards, edit.card);
      if (card !== undefined) files.set(card.replace(/\.yaml$/, '.copy.yaml'), files.get(card)!);
      return;
    }
    case 'add-node': {
      const pin = edit.value % 2 === 0 ? 'missing-card@1.0.0' : pick(cards, edit.value)?.slice('cards/'.length, -'.yaml'.length) ?? 'x@1.0.0';
      // one in four with odd values: a node named after its card, pinned by `version` alone
      if (edit.value % 4 === 3) return setTopology(withLine(`  "${pin.split('@')[0]}" [version="${pin.split('@')[1]}"];`, edit.line));
      return setTopology(withLine(`  extra_${edit.value} [card="${pin}"];`, edit.line));
    }
    case 'remove-node': {
      const line = pick(nodeLines, edit.node);
      if (line === undefined) return;
      return setTopology(lines.filter((_, i) => i !== line[1]).join('\n'));
    }
    case 'add-edge': {
      const source = pick(nodeIds, edit.source);
      const target = pick(nodeIds, edit.target);
      if (source === undefined || target === undefined) return;
      return setTopology(withLine(`  ${source} -> ${target};`, edit.line));
    }
    case 'remove-edge': {
      const line = pick(edgeLines, edit.edge);
      if (line === undefined) return;
      return setTopology(lines.filter((_, i) => i !== line[1]).join('\n'));
    }
    case 'comment': {
      // text that moves what follows it and changes nothing else
      const at = 3 + (edit.line % Math.max(1, lines.length - 4));
      const comment = ['  // note', '', '  /* a longer remark */'][edit.value % 3];
      return setTopology([...lines.slice(0, at), comment, ...lines.slice(at)].join('\n'));
    }
    case 'attribute': {
      // a statement that has the attribute is edited in place; when none has it, one gets it.
      // With `defaults`, the statement is a `node [...]` or `edge [...]` default (added after the
      // graph's first line when there is none): its value reaches every statement after it, whose
      // spans do not move when the edit keeps the length.
      const keys = attributeKeys[edit.on];
      const key = keys[edit.key % keys.length];
      const defaultLines = lines.map((l, i) => [l, i] as const).filter(([l]) => new RegExp(`^\\s*${edit.on} \\[`).test(l));
      if (edit.defaults && defaultLines.length === 0) {
        const written = key === 'weight' ? `${key}=${attributeValue(key, undefined, edit.value, files)}` : `${key}="${attributeValue(key, undefined, edit.value, files)}"`;
        return setTopology([...lines.slice(0, 3), `  ${edit.on} [${written}];`, ...lines.slice(3)].join('\n'));
      }
      const statements = edit.defaults ? defaultLines : edit.on === 'node' ? nodeLines : edgeLines;
      const having = statements.filter(([l]) => new RegExp(`[\\[,\\s]${key}=`).test(l));
      const line = pick(having.length > 0 ? having : statements, edit.line);
      if (line === undefined) return;
      const edited = withAttribute(line[0], key, (present) => attributeValue(key, present, edit.value, files));
      return setTopology(lines.map((l, i) => (i === line[1] ? edited : l)).join('\n'));
    }
    case 'break-pin': {
      const line = pick(nodeLines, edit.node);
      if (line === undefined) return;
      const broken = line[0].replace(/@1\.0\.0"/, ['@2.0.0"', '"', '@1.0.0" digest="sha256:00"', '@^1.0.0"'][edit.value % 4]);
      return setTopology(lines.map((l, i) => (i === line[1] ? broken : l)).join('\n'));
    }
  }
}

/**
 * The statement `line` with attribute `key` set to what `next` gives for its present value
 * (undefined when absent): replaced where it stands, keeping its quotes, or added to the list.
 */
function withAttribute(line: string, key: string, next: (present: string | undefined) => string): string {
  const pattern = new RegExp(`([\\[,\\s])${key}=(?:"([^"]*)"|([^,\\]\\s;"]+))`);
  const found = pattern.exec(line);
  if (found) {
    const quoted = found[2] !== undefined;
    const value = next(quoted ? found[2] : found[3]);
    return line.replace(pattern, `$1${key}=${quoted ? `"${value}"` : value}`);
  }
  const value = next(undefined);
  const written = key === 'weight' ? `${key}=${value}` : `${key}="${value}"`;
  return line.includes('[') ? line.replace(/\]/, `, ${written}]`) : line.replace(/;\s*$/, ` [${written}];`);
}

/**
 * A value for `key`: for a present value, mostly one of the same length (so that no span after it
 * moves, and only the value tells the edit apart), from the key's usual values, the bundle's card pins or
 * port names, else the present value with one character changed.
 */
function attributeValue(key: string, present: string | undefined, n: number, files: ReadonlyMap<string, string>): string {
  const cards = [...files.keys()].filter((p) => p.startsWith('cards/') && p.endsWith('.yaml'));
  const candidates =
    key === 'card'
      ? cards.flatMap((p) => { const ref = p.slice('cards/'.length, -'.yaml'.length); return [ref, ref.replace('@1.0.0', '@2.0.0'), ref.replace('@1.0.0', '')]; })
      : key === 'in' || key === 'out'
        ? [...new Set(cards.flatMap((p) => [...files.get(p)!.matchAll(/^\s+- name: (\S+)$/gm)].map((m) => m[1])))]
        : (attributeValues[key] ?? []);
  // one edit in four may change the length (a pin without its version, say, that a version attribute then completes)
  const sameLength = n % 4 !== 0;
  const choices = present === undefined ? candidates : candidates.filter((c) => c !== present && (!sameLength || c.length === present.length));
  if (choices.length > 0) return choices[n % choices.length];
  if (present === undefined || present === '') return 'x';
  const at = n % present.length;
  const letter = present[at] === 'q' ? 'z' : 'q';
  return present.slice(0, at) + letter + present.slice(at + 1);
}

function specOf(text: string): string {
  const match = /^spec: >-\n((?: {2}.*\n)+)/m.exec(text);
  if (match) return match[1].split('\n').map((l) => l.trim()).filter((l) => l !== '').join(' ');
  const line = /^spec: (.*)$/m.exec(text);
  return line ? (JSON.parse(line[1]) as string) : '';
}

/** Replaces (or adds before `version:`, or removes when `value` is empty) a top-level field. */
function replaceField(text: string, key: string, value: string): string {
  const pattern = new RegExp(`^${key}:.*\\n(?:(?: {2}| {4}).*\\n)*`, 'm');
  const stripped = text.replace(pattern, '');
  return value === '' ? stripped : stripped.replace(/^version:/m, `${value}\nversion:`);
}

/** A card reader that reuses a read while the file's text and the vocabulary are the same (the server's). */
function memoisedReader(): (file: SourceFile, vocabulary: Vocabulary) => CardReadResult {
  const reads = new Map<string, { text: string; vocabulary: Vocabulary; result: CardReadResult }>();
  return (file, vocabulary) => {
    const kept = reads.get(file.path);
    if (kept && kept.text === file.text && kept.vocabulary === vocabulary) return kept.result;
    const result = readCard(file, vocabulary);
    reads.set(file.path, { text: file.text, vocabulary, result });
    return result;
  };
}

/** What must agree between a memoised and a fresh load. */
function observable(result: LoadResult): unknown {
  const blueprint = result.blueprint;
  return {
    diagnostics: result.diagnostics,
    analysis: result.analysis,
    nodes: blueprint?.nodes.map((n) => ({ id: n.id, ref: n.ref, digest: n.entry?.digest, card: n.entry?.card })),
    edges: blueprint?.edges.map((e) => ({ source: e.source, target: e.target, pair: e.pair, label: e.label, condition: e.condition, weight: e.weight })),
    cards: blueprint ? [...blueprint.cards.keys()] : undefined,
    graph: blueprint?.graph,
  };
}

function ordered(files: ReadonlyMap<string, string>): SourceFile[] {
  return [...files].map(([path, text]) => ({ path, text }));
}

/**
 * `ordered` as the language server hands files over: a file whose text has not changed since
 * the last call is the same object (reuse keyed on objects is then taken, as in the server).
 */
function keptFiles(): (files: ReadonlyMap<string, string>) => SourceFile[] {
  const last = new Map<string, SourceFile>();
  return (files) =>
    [...files].map(([path, text]) => {
      const kept = last.get(path);
      if (kept !== undefined && kept.text === text) return kept;
      const file = { path, text };
      last.set(path, file);
      return file;
    });
}

/**
 * After every step of `steps`, a load with one memo and a memoised card reader (as the server
 * loads) equals a fresh load. Each edit is followed by a load, or (false) joined by the next edit
 * first: a load that follows several edits (a card and the topology at once) must be right too.
 */
function memoisedEqualsFresh(edits: fc.Arbitrary<Edit>, numRuns: number): void {
  fc.assert(
    // the files as new objects at every load, or (true) the unchanged ones as the same objects
    fc.property(fc.integer({ min: 40, max: 100 }), fc.boolean(), fc.array(fc.tuple(edits, fc.boolean()), { minLength: 1, maxLength: 10 }), (nodes, keep, steps) => {
      const state: State = { files: new Map(generateBundle({ nodes }).map((f) => [f.path, f.text] as const)), deleted: [] };
      const memo: LoadMemo = createLoadMemo();
      const read = memoisedReader();
      const files = keep ? keptFiles() : ordered;
      const load = (): LoadResult => loadBundle(files(state.files), { memo, readCard: read, folderName: 'bundle' });
      assert.deepEqual(observable(load()), observable(loadBundle(ordered(state.files), { folderName: 'bundle' })));
      const done: Edit[] = [];
      for (let i = 0; i < steps.length; i++) {
        const [edit, loadNow] = steps[i];
        apply(state, edit);
        done.push(edit);
        if (!loadNow && i < steps.length - 1) continue;
        const memoised = load();
        const fresh = loadBundle(ordered(state.files), { folderName: 'bundle' });
        assert.deepEqual(observable(memoised), observable(fresh), `after ${JSON.stringify(done)}`);
      }
    }),
    { numRuns },
  );
}

describe('incremental load', () => {
  it('a memoised load after any sequence of edits equals a fresh load', () => {
    memoisedEqualsFresh(editArbitrary, 40);
  });

  it('a memoised load after attributes edited in place (same length, other value) equals a fresh load', () => {
    // (with nodes pinned by `version` alone, whose version attribute is then edited in place)
    const versionNode: fc.Arbitrary<Edit> = fc.record({ kind: fc.constant('add-node' as const), value: fc.nat({ max: 2_500 }).map((n) => 4 * n + 3), line: index });
    memoisedEqualsFresh(fc.oneof({ arbitrary: attributeArbitrary, weight: 4 }, { arbitrary: versionNode, weight: 2 }, { arbitrary: editArbitrary, weight: 1 }), 60);
  });

  it('every attribute resolution reads is compared before a node or an edge is reused', () => {
    // per attribute, edits that end with a change of its value in place (same length): the one
    // edit that only a comparison of the attribute's value can tell from no edit at all
    const node = (key: number, defaults = false, value = 1): Edit => ({ kind: 'attribute', on: 'node', defaults, line: 0, key, value });
    const edge = (key: number, value = 1): Edit => ({ kind: 'attribute', on: 'edge', defaults: true, line: 0, key, value });
    const cases: readonly (readonly [string, readonly Edit[]])[] = [
      ['node card', [node(0)]],
      ['node version', [{ kind: 'add-node', value: 3, line: 0 }, node(1), node(1, false, 2)]],
      ['node digest', [node(2), node(2)]],
      ...attributeKeys.edge.map((key, k) => [`edge ${key} (by default)`, [edge(k), edge(k)]] as const),
    ];
    for (const [name, edits] of cases) {
      const state: State = { files: new Map(generateBundle({ nodes: 40 }).map((f) => [f.path, f.text] as const)), deleted: [] };
      const memo = createLoadMemo();
      const read = memoisedReader();
      const files = keptFiles();
      loadBundle(files(state.files), { memo, readCard: read, folderName: 'bundle' });
      for (let i = 0; i < edits.length; i++) {
        const edit = edits[i];
        const before = state.files.get('topology.dot')!;
        apply(state, edit);
        const after = state.files.get('topology.dot')!;
        assert.notEqual(after, before, `${name}: ${JSON.stringify(edit)} changes the topology`);
        if (i === edits.length - 1) assert.equal(after.length, before.length, `${name}: the last edit keeps the length`);
        const memoised = loadBundle(files(state.files), { memo, readCard: read, folderName: 'bundle' });
        assert.deepEqual(observable(memoised), observable(loadBundle(ordered(state.files), { folderName: 'bundle' })), `${name}: after ${JSON.stringify(edit)}`);
      }
    }
  });

  it('a card left without a pin and then pinned by a new node is an orphan only in between', () => {
    const state: State = { files: new Map(generateBundle({ nodes: 60 }).map((f) => [f.path, f.text] as const)), deleted: [] };
    const memo = createLoadMemo();
    const read = memoisedReader();
    loadBundle(ordered(state.files), { memo, readCard: read });
    const cards = [...state.files.keys()].filter((p) => p.startsWith('cards/') && p.endsWith('.yaml')).sort();
    // a node's pin is broken, then a new node pins its card (`add-node` with an odd value pins
    // the card at that place): a node whose card sits at an odd place
    const pins = [...state.files.get('topology.dot')!.matchAll(/^\s+[a-z_0-9]+ \[card="([^"]+)"/gm)].map((m) => m[1]);
    const node = pins.findIndex((ref) => cards.indexOf(`cards/${ref}.yaml`) % 2 === 1);
    const first = pins[node];
    const value = cards.indexOf(`cards/${first}.yaml`);
    const orphans = (): (string | undefined)[] =>
      loadBundle(ordered(state.files), { memo, readCard: read }).diagnostics.filter((d) => d.code === 'bundle/orphan-card').map((d) => d.location.cardRef);
    apply(state, { kind: 'break-pin', node, value: 0 });
    assert.deepEqual(orphans(), [first]);
    apply(state, { kind: 'add-node', value, line: 0 });
    assert.deepEqual(orphans(), []);
  });

  it('edits do change the results (the comparison above is not vacuous)', () => {
    const state: State = { files: new Map(generateBundle({ nodes: 60 }).map((f) => [f.path, f.text] as const)), deleted: [] };
    const memo = createLoadMemo();
    const read = memoisedReader();
    const before = loadBundle(ordered(state.files), { memo, readCard: read });
    const cards = [...state.files.keys()].filter((p) => p.startsWith('cards/') && p.endsWith('.yaml')).sort();
    const card = (name: string): number => cards.indexOf(`cards/${name}@1.0.0.yaml`);
    const steps: Edit[] = [
      { kind: 'port-type', card: card('builder-2'), port: 0, value: portTypes.indexOf('report') },
      // a builder (judged, so a generator) restating a criteria producer's spec
      { kind: 'spec', card: card('planner-3'), from: card('criteria-3'), short: false },
      { kind: 'risk', card: card('planner-1'), value: 3 },
      { kind: 'break-pin', node: 4, value: 0 },
      { kind: 'remove-edge', edge: 2 },
      { kind: 'add-node', value: 2, line: 0 },
    ];
    let previous = before;
    for (const edit of steps) {
      apply(state, edit);
      const next = loadBundle(ordered(state.files), { memo, readCard: read });
      assert.notDeepEqual(observable(next), observable(previous), `edit ${edit.kind} changes the results`);
      assert.deepEqual(observable(next), observable(loadBundle(ordered(state.files))));
      previous = next;
    }
  });
});
