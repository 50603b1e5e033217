/**
 * Completion, on whole and on half-typed text. Each case: a fixture with a `$0`
 * cursor; the labels that must be offered (and, with `first`, which one sorts first), labels
 * that must not be, the text the completion replaces, and insert texts where they matter.
 */
import assert from 'node:assert/strict';
import { createLoadMemo, loadBundle, type LoadResult } from '../src/bundle/resolve';
import type { SourceFile } from '../src/bundle/model';
import { complete, type CompletionItem } from '../src/ide';
import { card, loadWithCursor } from './support/ide';

interface CompletionCase {
  readonly fixture: string;
  readonly includes?: readonly string[];
  readonly excludes?: readonly string[];
  /** The labels in this order at the head of the sorted list. */
  readonly first?: readonly string[];
  /** The text the items replace. */
  readonly replaces?: string;
  /** Insert texts by label. */
  readonly inserts?: Readonly<Record<string, string>>;
  readonly details?: Readonly<Record<string, string>>;
  /** Filter texts by label (the label itself when the item has none). */
  readonly filters?: Readonly<Record<string, string>>;
  /** Snippets by label (null: the item has none). */
  readonly snippets?: Readonly<Record<string, string | null>>;
  readonly none?: true;
}

function sorted(items: readonly CompletionItem[]): CompletionItem[] {
  return [...items].sort((a, b) => {
    const x = a.sortText ?? a.label;
    const y = b.sortText ?? b.label;
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

function checkCompletion(c: CompletionCase): void {
  const { bundle, file, offset } = loadWithCursor(c.fixture);
  const result = complete(bundle, file, offset);
  if (c.none) {
    assert.equal(result, undefined, `expected no completion, got ${result?.items.map((i) => i.label).join(', ')}`);
    return;
  }
  assert.ok(result, 'expected completions');
  const labels = result.items.map((i) => i.label);
  for (const label of c.includes ?? []) assert.ok(labels.includes(label), `missing ${label} in ${labels.join(', ')}`);
  for (const label of c.excludes ?? []) assert.ok(!labels.includes(label), `unexpected ${label} in ${labels.join(', ')}`);
  if (c.first !== undefined) assert.deepEqual(sorted(result.items).slice(0, c.first.length).map((i) => i.label), c.first);
  const text = bundle.files.get(file)?.text ?? '';
  if (c.replaces !== undefined) assert.equal(text.slice(result.span.start, result.span.end), c.replaces);
  for (const [label, insert] of Object.entries(c.inserts ?? {})) {
    const found: CompletionItem | undefined = result.items.find((i) => i.label === label);
    assert.equal(found?.insertText ?? found?.label, insert, `insert text of ${label}`);
  }
  for (const [label, filter] of Object.entries(c.filters ?? {})) {
    const found: CompletionItem | undefined = result.items.find((i) => i.label === label);
    assert.equal(found?.filterText ?? found?.label, filter, `filter text of ${label}`);
  }
  for (const [label, snippet] of Object.entries(c.snippets ?? {})) {
    assert.equal(result.items.find((i) => i.label === label)?.snippet ?? null, snippet, `snippet of ${label}`);
  }
  for (const [label, detail] of Object.entries(c.details ?? {})) {
    assert.equal(result.items.find((i) => i.label === label)?.detail, detail, `detail of ${label}`);
  }
}

const cards = `
//- cards/a@1.0.0.yaml
${card({ id: 'a', outputs: [['notes', 'json'], ['draft', 'markdown']] })}
//- cards/a@2.0.0.yaml
${card({ id: 'a', version: '2.0.0', outputs: [['notes', 'json'], ['draft', 'markdown']], extra: ['model: m2'] })}
//- cards/b@1.0.0.yaml
${card({ id: 'b', type: 'validation', inputs: [['data', 'json'], ['prose', 'text']], dependencies: ['a'] })}`;

const cases: Record<string, CompletionCase> = {
  // ---- pins
  'card=" offers every id@version the bundle holds': {
    fixture: `
//- topology.dot
digraph g { x [card="$0"]; }${cards}`,
    includes: ['a@1.0.0', 'a@2.0.0', 'b@1.0.0'],
    replaces: '',
    details: { 'b@1.0.0': 'b · Validation' },
  },
  'card=" replaces what is typed inside the quotes': {
    fixture: `
//- topology.dot
digraph g { x [card="b$0"]; }${cards}`,
    includes: ['b@1.0.0'],
    replaces: 'b',
  },
  'after @ the versions of that id, newest first': {
    fixture: `
//- topology.dot
digraph g { x [card="a@$01.0.0"]; }${cards}`,
    first: ['2.0.0', '1.0.0'],
    replaces: '1.0.0',
  },
  'card= without quotes inserts a quoted value': {
    fixture: `
//- topology.dot
digraph g { x [card=$0]; }${cards}`,
    includes: ['a@1.0.0'],
    inserts: { 'a@1.0.0': '"a@1.0.0"' },
  },
  'a half-typed pin on a broken line closes the quote': {
    fixture: `
//- topology.dot
digraph g {
  x [card="a@$0
  y -> x;
}${cards}`,
    first: ['2.0.0', '1.0.0'],
    inserts: { '2.0.0': '2.0.0"' },
  },
  'version=" offers the versions of the card named like the node': {
    fixture: `
//- topology.dot
digraph g { a [version="$0"]; }${cards}`,
    first: ['2.0.0', '1.0.0'],
    excludes: ['b@1.0.0'],
  },
  'a pin left open on its line is closed, though a quote further down ends the string': {
    fixture: `
//- topology.dot
digraph g {
  x [card="a@$0
  y [card="b@1.0.0"];
}${cards}`,
    first: ['2.0.0', '1.0.0'],
    inserts: { '2.0.0': '2.0.0"' },
    replaces: '',
  },
  'a pin left open on its line, before any @': {
    fixture: `
//- topology.dot
digraph g {
  x [card="b$0
  y [card="b@1.0.0"];
}${cards}`,
    includes: ['b@1.0.0'],
    inserts: { 'b@1.0.0': 'b@1.0.0"' },
    replaces: 'b',
  },
  'a bare pin the cursor stands right before is replaced': {
    fixture: `
//- topology.dot
digraph g { x [card=$0a@1.0.0]; }${cards}`,
    includes: ['a@2.0.0'],
    inserts: { 'a@2.0.0': '"a@2.0.0"' },
    replaces: 'a@1.0.0',
  },
  'nothing right before a quoted pin': {
    fixture: `
//- topology.dot
digraph g { x [card=$0"a@1.0.0"]; }${cards}`,
    none: true,
  },
  'attributes separated by ; still belong to the list': {
    fixture: `
//- topology.dot
digraph g { x [shape=box; card="$0"]; }${cards}`,
    includes: ['a@1.0.0', 'b@1.0.0'],
  },
  // ---- ports
  'an edge list whose attributes are separated by ;': {
    fixture: `
//- topology.dot
digraph g {
  x [card="a@1.0.0"];
  y [card="b@1.0.0"];
  x -> y [label="go"; in="$0"];
}${cards}`,
    includes: ['data', 'prose'],
  },
  'out=" offers the source outputs, those fitting the target first': {
    fixture: `
//- topology.dot
digraph g {
  x [card="a@1.0.0"];
  y [card="b@1.0.0"];
  x -> y [out="$0", in="prose"];
}${cards}`,
    first: ['draft', 'notes'],
    details: { draft: 'markdown · fits input prose (text)', notes: 'json · fits no input at the other end' },
  },
  'in=" offers the target inputs, those the source can feed first': {
    fixture: `
//- topology.dot
digraph g {
  x [card="a@1.0.0"];
  y [card="b@1.0.0"];
  x -> y [out="draft", in="p$0"];
}${cards}`,
    first: ['prose', 'data'],
    replaces: 'p',
  },
  'out=" on a chain offers the outputs of every source, those all have and that fit first': {
    fixture: `
//- topology.dot
digraph g {
  x [card="a@1.0.0"];
  y [card="a@2.0.0"];
  z [card="b@1.0.0"];
  x -> y -> z [out="$0"];
}${cards}`,
    first: ['notes', 'draft'],
    details: { notes: 'json · fits 1 of the statement\'s 2 edges', draft: 'markdown · fits 1 of the statement\'s 2 edges' },
  },
  'in=" on a subgraph end: inputs some target lacks come last, saying which': {
    fixture: `
//- topology.dot
digraph g {
  x [card="a@1.0.0"];
  y [card="b@1.0.0"];
  w [card="a@2.0.0"];
  x -> { y w } [in="$0"];
}
//- cards/a@2.0.0.yaml
${card({ id: 'a', version: '2.0.0', inputs: [['data', 'json']], outputs: [['notes', 'json']] })}
//- cards/a@1.0.0.yaml
${card({ id: 'a', outputs: [['notes', 'json'], ['draft', 'markdown']] })}
//- cards/b@1.0.0.yaml
${card({ id: 'b', type: 'validation', inputs: [['data', 'json'], ['prose', 'text']] })}`,
    first: ['data', 'prose'],
    details: { data: 'json · fits every edge of the statement', prose: 'text · w has no input prose' },
  },
  'out=" with ports on both ends offers the source outputs, as without them': {
    fixture: `
//- topology.dot
digraph g {
  x [card="a@1.0.0"];
  y [card="b@1.0.0"];
  x:o:ne -> y:i [out="$0", in="prose"];
}${cards}`,
    first: ['draft', 'notes'],
  },
  'in=" after a target with a compass point offers the target inputs': {
    fixture: `
//- topology.dot
digraph g {
  x [card="a@1.0.0"];
  y [card="b@1.0.0"];
  x -> y:w [in="$0"];
}${cards}`,
    includes: ['data', 'prose'],
  },
  // ---- conditions
  'condition=" starts with the keys': {
    fixture: `
//- topology.dot
digraph g { a -> b [condition="$0"]; }`,
    includes: ['outcome', 'preferred_label', 'context.'],
  },
  'a partly typed key is replaced': {
    fixture: `
//- topology.dot
digraph g { a -> b [condition="outc$0"]; }`,
    includes: ['outcome'],
    replaces: 'outc',
  },
  'a half-typed operator gets the operators it starts': {
    fixture: `
//- topology.dot
digraph g { a -> b [condition="outcome!$0"]; }`,
    includes: ['!='],
    excludes: ['success', '='],
    replaces: '!',
  },
  'a key the cursor stands right before is replaced': {
    fixture: `
//- topology.dot
digraph g { a -> b [condition="$0outcome=fail"]; }`,
    includes: ['outcome'],
    replaces: 'outcome',
  },
  'a value the cursor stands right before is replaced': {
    fixture: `
//- topology.dot
digraph g { a -> b [condition="outcome=$0fail"]; }`,
    includes: ['success', 'fail'],
    replaces: 'fail',
  },
  'after a key, the operators': {
    fixture: `
//- topology.dot
digraph g { a -> b [condition="outcome $0"]; }`,
    first: ['!=', '='],
  },
  'after an operator, the values of outcome': {
    fixture: `
//- topology.dot
digraph g { a -> b [condition="outcome=$0"]; }`,
    includes: ['success', 'partial_success', 'retry', 'fail'],
  },
  'after a complete clause, &&': {
    fixture: `
//- topology.dot
digraph g { a -> b [condition="outcome=success $0"]; }`,
    includes: ['&&'],
  },
  'after &&, the keys again, with context keys used elsewhere': {
    fixture: `
//- topology.dot
digraph g {
  a -> c [condition="context.tests_passed=true"];
  a -> b [condition="outcome=success && $0"];
}`,
    includes: ['outcome', 'context.tests_passed'],
  },
  'values compared elsewhere are offered for a context key': {
    fixture: `
//- topology.dot
digraph g {
  a -> c [condition="context.tests_passed=true"];
  a -> b [condition="context.tests_passed!=$0"];
}`,
    includes: ['true'],
  },
  'preferred_label offers the edge labels': {
    fixture: `
//- topology.dot
digraph g {
  a -> c [label="approve"];
  a -> b [condition="preferred_label=$0"];
}`,
    includes: ['approve'],
  },
  'an edge label with a space is inserted as the condition\'s string, escaped for the DOT string; one with a quote is not offered': {
    fixture: `
//- topology.dot
digraph g {
  a -> c [label="approved build"];
  a -> d [label="say \\"yes\\""];
  a -> e [label="approve"];
  a -> b [condition="preferred_label=$0"];
}`,
    includes: ['approved build', 'approve'],
    excludes: ['say "yes"'],
    inserts: { 'approved build': '\\"approved build\\"', approve: 'approve' },
  },
  'after a value written as the condition\'s string (escaped in the DOT string): the conjunction, then keys, then values': {
    fixture: `
//- topology.dot
digraph g { a -> c [label="approved build"]; a -> b [condition="preferred_label=\\"approved build\\" $0"]; }`,
    includes: ['&&'],
  },
  'after a string value and &&: the keys': {
    fixture: `
//- topology.dot
digraph g { a -> b [condition="preferred_label=\\"approved build\\" && $0"]; }`,
    includes: ['outcome', 'preferred_label', 'context.'],
  },
  'after a string value, && and a key: its values': {
    fixture: `
//- topology.dot
digraph g { a -> b [condition="preferred_label=\\"approved build\\" && outcome=$0"]; }`,
    includes: ['success', 'fail'],
  },
  'a half-typed value is not offered back as a value used in the graph': {
    fixture: `
//- topology.dot
digraph g { a -> b [condition="outcome=fa$0"]; }`,
    includes: ['fail'],
    excludes: ['fa'],
    replaces: 'fa',
  },
  'a value another clause compares is offered, the one being typed is not': {
    fixture: `
//- topology.dot
digraph g {
  a -> c [condition="context.mode=fast"];
  a -> b [condition="context.mode=f$0"];
}`,
    includes: ['fast'],
    excludes: ['f'],
  },
  '&& after a blank adds no second blank': {
    fixture: `
//- topology.dot
digraph g { a -> b [condition="outcome=fail $0"]; }`,
    inserts: { '&&': '&& ' },
  },
  'condition=" on an edge whose ends have ports': {
    fixture: `
//- topology.dot
digraph g { a:p -> b:w [condition="$0"]; }`,
    includes: ['outcome', 'preferred_label', 'context.'],
  },
  'a bare condition gets its key with an opening quote': {
    fixture: `
//- topology.dot
digraph g { a -> b [condition=$0]; }`,
    includes: ['outcome', 'preferred_label'],
    inserts: { outcome: '"outcome', 'context.': '"context.' },
  },
  'a bare condition being typed is replaced by the quoted key': {
    fixture: `
//- topology.dot
digraph g { a -> b [condition=out$0]; }`,
    replaces: 'out',
    inserts: { outcome: '"outcome' },
  },
  // ---- attribute names
  'attribute names on a node: DarkPrint and Attractor, never type': {
    fixture: `
//- topology.dot
digraph g { a [$0]; }`,
    includes: ['card', 'version', 'digest', 'label', 'timeout'],
    excludes: ['type', 'out', 'condition'],
    inserts: { card: 'card=' },
  },
  'attribute names on an edge': {
    fixture: `
//- topology.dot
digraph g { a -> b [co$0]; }`,
    includes: ['out', 'in', 'label', 'condition', 'weight', 'loop_restart'],
    excludes: ['card', 'timeout'],
    replaces: 'co',
  },
  'attribute names on an edge whose target has a port': {
    fixture: `
//- topology.dot
digraph g { a -> b:w [$0]; }`,
    includes: ['out', 'in', 'label', 'condition'],
    excludes: ['card', 'version', 'timeout'],
  },
  'attribute names on a node written with a port and a compass point': {
    fixture: `
//- topology.dot
digraph g { a:p:ne [$0]; }`,
    includes: ['card', 'version', 'label'],
    excludes: ['out', 'condition'],
  },
  'a name whose = is written is replaced by the name alone': {
    fixture: `
//- topology.dot
digraph g { node [sh$0ape=box]; }`,
    includes: ['shape', 'label'],
    replaces: 'shape',
    inserts: { shape: 'shape', label: 'label' },
  },
  'a name the cursor stands right before is replaced, and offered again': {
    fixture: `
//- topology.dot
digraph g { graph [$0goal="x"]; }`,
    includes: ['goal'],
    replaces: 'goal',
    inserts: { goal: 'goal' },
  },
  'names already written in the list are not offered again': {
    fixture: `
//- topology.dot
digraph g { a [card="a@1.0.0", $0]; }`,
    includes: ['version'],
    excludes: ['card'],
  },
  'node defaults offer node attributes': {
    fixture: `
//- topology.dot
digraph g { node [$0]; }`,
    includes: ['shape', 'label'],
    excludes: ['condition'],
  },
  'graph defaults offer graph attributes': {
    fixture: `
//- topology.dot
digraph g { graph [$0]; }`,
    includes: ['goal', 'model_stylesheet'],
    excludes: ['card', 'shape'],
  },
  // ---- node ids
  'node ids after ->': {
    fixture: `
//- topology.dot
digraph g {
  writer [card="a@1.0.0"];
  editor;
  writer -> $0
}${cards}`,
    includes: ['writer', 'editor'],
    details: { writer: 'a@1.0.0' },
  },
  'a partly typed target is replaced': {
    fixture: `
//- topology.dot
digraph g { writer; editor; writer -> ed$0 }`,
    includes: ['editor'],
    replaces: 'ed',
  },
  'a target the cursor stands right before is replaced': {
    fixture: `
//- topology.dot
digraph g { writer; editor; writer -> $0editor }`,
    includes: ['editor', 'writer'],
    replaces: 'editor',
  },
  'node ids where a statement starts': {
    fixture: `
//- topology.dot
digraph g {
  writer [card="a@1.0.0"];
  editor;
  wr$0
}${cards}`,
    includes: ['writer', 'editor'],
    excludes: ['wr'],
    replaces: 'wr',
  },
  'node ids inside a target subgraph, not the one just written': {
    fixture: `
//- topology.dot
digraph g { writer; editor; reviewer; writer -> { editor $0 } }`,
    includes: ['writer', 'reviewer'],
    excludes: ['editor'],
  },
  'node ids on the line after a statement-level attribute written without ;': {
    fixture: `
//- topology.dot
digraph g {
  writer
  rankdir=LR
  $0
}`,
    includes: ['writer', 'goal'],
  },
  'no node ids right after a statement-level value on its line': {
    fixture: `
//- topology.dot
digraph g {
  writer
  rankdir=LR $0
}`,
    none: true,
  },
  'graph attribute names where a statement starts, after the node ids, as statements': {
    fixture: `
//- topology.dot
digraph g {
  writer
  go$0
}`,
    includes: ['writer', 'goal', 'label'],
    excludes: ['card', 'shape'],
    inserts: { goal: 'goal=' },
    first: ['writer'],
  },
  'a node id written before on the line is not offered again': {
    fixture: `
//- topology.dot
digraph g {
  writer; editor
  writer $0
}`,
    includes: ['editor'],
    excludes: ['writer'],
  },
  'no node ids after a node id and :, where a port name belongs': {
    fixture: `
//- topology.dot
digraph g { writer; editor; writer:$0 }`,
    none: true,
  },
  'no node ids in a port name being typed': {
    fixture: `
//- topology.dot
digraph g { writer; editor; writer -> editor:ed$0 }`,
    none: true,
  },
  'no node ids after a target and :': {
    fixture: `
//- topology.dot
digraph g { writer; editor; writer -> editor:$0 }`,
    none: true,
  },
  'no node ids after a port and a second :, where a compass point belongs': {
    fixture: `
//- topology.dot
digraph g {
  writer; editor
  writer:p:$0
}`,
    none: true,
  },
  'node ids after a complete endpoint with a port, where a statement may start': {
    fixture: `
//- topology.dot
digraph g { writer; editor; writer -> editor:w $0 }`,
    includes: ['writer'],
  },
  'an id that needs quotes is inserted quoted': {
    fixture: `
//- topology.dot
digraph g { "code-builder"; "node"; writer; writer -> co$0 }`,
    includes: ['code-builder', 'node', 'writer'],
    inserts: { 'code-builder': '"code-builder"', node: '"node"', writer: 'writer' },
  },
  'an id typed with its opening quote is inserted quoted, and matched with its quote': {
    fixture: `
//- topology.dot
digraph g { writer; editor; "my node"; writer -> "$0 }`,
    inserts: { editor: '"editor"', 'my node': '"my node"' },
    filters: { editor: '"editor"', 'my node': '"my node"' },
    replaces: '"',
  },
  'an id typed without a quote is matched by its name': {
    fixture: `
//- topology.dot
digraph g { "my node"; writer; writer -> my$0 }`,
    inserts: { 'my node': '"my node"' },
    filters: { 'my node': 'my node' },
  },
  'an empty id is shown as written': {
    fixture: `
//- topology.dot
digraph g { ""; writer; writer -> $0 }`,
    includes: ['""', 'writer'],
  },
  'nothing on a line below a pin quote left open': {
    fixture: `
//- topology.dot
digraph g {
  d [card="a@1.0.0

$0  a -> b [label="x"];
}${cards}`,
    none: true,
  },
  'a quoted id with a blank, typed with its quote open, is replaced up to the cursor\'s word': {
    fixture: `
//- topology.dot
digraph g {
  "my writer";
  "my wr$0
}`,
    inserts: { 'my writer': '"my writer"' },
    replaces: '"my wr',
  },
  'no node ids after the graph\'s closing brace': {
    fixture: `
//- topology.dot
digraph g {
  writer;
  subgraph s { editor }
}
$0`,
    none: true,
  },
  'node ids after a subgraph\'s closing brace': {
    fixture: `
//- topology.dot
digraph g {
  writer;
  subgraph s { editor }
  $0
}`,
    includes: ['writer', 'editor'],
  },
  'statements after a list left open are not its attributes, as the parser reads them': {
    fixture: `
//- topology.dot
digraph g {
  writer [
  editor;
  reviewer;
  $0
}`,
    includes: ['writer', 'editor', 'reviewer'],
    excludes: ['card', 'version'],
  },
  'an attribute typed on its own line in a list left open': {
    fixture: `
//- topology.dot
digraph g {
  writer [
    shape=box;
    la$0`,
    includes: ['label'],
    excludes: ['shape'],
    replaces: 'la',
  },
  'no node ids for the name of a subgraph or of the graph': {
    fixture: `
//- topology.dot
digraph g { writer; subgraph s$0 { editor } }`,
    none: true,
  },
  'no node ids in the header': {
    fixture: `
//- topology.dot
digraph g$0 { writer; }`,
    none: true,
  },
  'no node ids in a graph attribute\'s key': {
    fixture: `
//- topology.dot
digraph g { writer; rank$0dir=LR; }`,
    none: true,
  },
  'nothing inside a comment': {
    fixture: `
//- topology.dot
digraph g { a; // a [card="$0"]
}${cards}`,
    none: true,
  },
  'nothing after a closed value': {
    fixture: `
//- topology.dot
digraph g { a [card="a@1.0.0"$0]; }${cards}`,
    none: true,
  },
  // ---- cards
  'type offers node types, never abstract ones or other kinds': {
    fixture: `
//- cards/a@1.0.0.yaml
id: a
type: $0`,
    includes: ['agent', 'tool', 'validation', 'human-gate', 'shell-tool'],
    excludes: ['evaluative', 'human-in-the-loop', 'text'],
    replaces: '',
  },
  'a value right after its key, before the value written, replaces that value': {
    fixture: `
//- cards/a@1.0.0.yaml
id: a
type:$0 validation  # the checker
name: A`,
    includes: ['agent'],
    replaces: ' validation',
    inserts: { agent: ' agent' },
  },
  'a list entry right after its dash, before the entry written, replaces it': {
    fixture: `
//- cards/a@1.0.0.yaml
id: a
tools:
  -$0 git
  - sql`,
    includes: ['shell'],
    excludes: ['sql'],
    replaces: ' git',
    inserts: { shell: ' shell' },
  },
  'a quoted entry written after the dash is replaced whole': {
    fixture: `
//- cards/a@1.0.0.yaml
id: a
tools:
  - $0"git"`,
    includes: ['shell'],
    replaces: '"git"',
  },
  'in a flow list, before another entry, an entry of its own': {
    fixture: `
//- cards/a@1.0.0.yaml
id: a
risk_markers: [criteria-leak, $0"unbounded-loop"]`,
    includes: ['arbitrary-code-execution'],
    replaces: '',
    inserts: { 'arbitrary-code-execution': 'arbitrary-code-execution, ' },
  },
  'no value after a key whose list is written below it': {
    fixture: `
//- cards/a@1.0.0.yaml
id: a
tools:$0
  - git`,
    none: true,
  },
  'no value after a key whose list is written below it at its own column': {
    fixture: `
//- cards/a@1.0.0.yaml
id: a
tools: $0
# the tools
- git`,
    none: true,
  },
  'no value before a flow list written after the key': {
    fixture: `
//- cards/a@1.0.0.yaml
id: a
tools:$0 [git]`,
    none: true,
  },
  'no field name at the start of a line already written': {
    fixture: `
//- cards/a@1.0.0.yaml
id: a
tools:
$0  - git`,
    none: true,
  },
  'a field name typed before its colon is replaced, the colon kept': {
    fixture: `
//- cards/a@1.0.0.yaml
id: a
na$0me: A`,
    includes: ['name', 'type'],
    replaces: 'name',
    inserts: { type: 'type' },
  },
  'a list entry’s first key typed before its colon is replaced, the colon kept': {
    fixture: `
//- cards/a@1.0.0.yaml
id: a
inputs:
  - na$0me: candidate
    type: json`,
    includes: ['description', 'required'],
    replaces: 'name',
    inserts: { description: 'description' },
  },
  'no term inside a flow entry of several words': {
    fixture: `
//- cards/a@1.0.0.yaml
id: a
cannot: [pa$0ss a candidate, secret-access]`,
    none: true,
  },
  'no term after a word of a flow entry of several words': {
    fixture: `
//- cards/a@1.0.0.yaml
id: a
cannot: [pass a$0 candidate]`,
    none: true,
  },
  'no term at the end of a flow entry of several words being typed': {
    fixture: `
//- cards/a@1.0.0.yaml
id: a
cannot: [secret-access, pass a$0
]`,
    none: true,
  },
  'in a flow list, nothing typed yet before an entry after a blank: an entry of its own': {
    fixture: `
//- cards/a@1.0.0.yaml
id: a
phase: [$0 testing ]`,
    includes: ['planning'],
    excludes: ['testing'],
    replaces: '',
    inserts: { planning: 'planning, ' },
  },
  'in a flow list, after a comma and a blank, before the next entry: an entry of its own': {
    fixture: `
//- cards/a@1.0.0.yaml
id: a
phase: [testing, $0 planning]`,
    includes: ['debugging'],
    inserts: { debugging: 'debugging, ' },
  },
  'in a flow mapping, a value written after a blank is replaced': {
    fixture: `
//- cards/a@1.0.0.yaml
id: a
inputs: [{name: x, type:$0 json}]`,
    includes: ['text'],
    replaces: ' json',
    inserts: { text: ' text' },
  },
  'no term for a word of a flow entry that runs over lines': {
    fixture: `
//- cards/a@1.0.0.yaml
id: a
cannot: [pass a
  candi$0date, secret-access]`,
    none: true,
  },
  'no term before a colon in a list of terms (it would make the entry a mapping)': {
    fixture: `
//- cards/a@1.0.0.yaml
id: a
phase:
  - te$0st: x`,
    none: true,
  },
  'no port key before a colon that text follows (one scalar, no key)': {
    fixture: `
//- cards/a@1.0.0.yaml
id: a
inputs:
  - na$0me:candidate`,
    none: true,
  },
  'a JSON field name before another member comes with its comma, as a snippet': {
    fixture: `
//- cards/a@1.0.0.json
{
  "id": "a",
  $0
  "type": "agent"
}`,
    includes: ['model'],
    inserts: { model: '"model": ' },
    snippets: { model: '"model": $0,' },
  },
  'a JSON field name after the last member has no snippet': {
    fixture: `
//- cards/a@1.0.0.json
{
  "id": "a",
  $0
}`,
    includes: ['model'],
    snippets: { model: null },
  },
  'a partly typed type is replaced': {
    fixture: `
//- cards/a@1.0.0.yaml
id: a
type: val$0
name: A`,
    includes: ['validation'],
    replaces: 'val',
  },
  'tools in a flow list, without the ones already listed': {
    fixture: `
//- cards/a@1.0.0.yaml
tools: [file-io, $0]`,
    includes: ['git', 'shell', 'web-search'],
    excludes: ['file-io', 'tool-capability', 'agent'],
  },
  'tools in a block list': {
    fixture: `
//- cards/a@1.0.0.yaml
tools:
  - git
  - $0`,
    includes: ['file-io'],
    excludes: ['git'],
  },
  'tools written inline get a list': {
    fixture: `
//- cards/a@1.0.0.yaml
tools: $0`,
    inserts: { git: '[git]' },
  },
  'cannot offers data types': {
    fixture: `
//- cards/a@1.0.0.yaml
cannot: [$0]`,
    includes: ['acceptance-criteria', 'code'],
    excludes: ['shell', 'agent'],
  },
  'risk markers, never categories': {
    fixture: `
//- cards/a@1.0.0.yaml
risk_markers:
  - sec$0`,
    includes: ['secret-access', 'irreversible-action'],
    excludes: ['execution-risk', 'isolation-breach'],
    replaces: 'sec',
  },
  'port types offer data types': {
    fixture: `
//- cards/a@1.0.0.yaml
inputs:
  - name: notes
    type: $0
outputs: []`,
    includes: ['json', 'markdown', 'any'],
    excludes: ['agent'],
  },
  'a port type in a flow mapping inside a flow list': {
    fixture: `
//- cards/a@1.0.0.yaml
inputs: [{name: plan, type: pl$0}]`,
    includes: ['json', 'markdown'],
    excludes: ['agent', 'name'],
    replaces: 'pl',
  },
  'a port type in a flow mapping written as a list item': {
    fixture: `
//- cards/a@1.0.0.yaml
inputs:
  - { name: plan, type: $0 }`,
    includes: ['text', 'json'],
    excludes: ['agent'],
    replaces: '',
  },
  'port fields in a flow mapping written as a list item': {
    fixture: `
//- cards/a@1.0.0.yaml
inputs:
  - { name: plan, $0 }`,
    includes: ['type', 'description', 'required'],
    excludes: ['name'],
    inserts: { type: 'type: ' },
  },
  'a port type in a flow list spread over lines': {
    fixture: `
//- cards/a@1.0.0.yaml
inputs: [
  {name: plan, type: te$0},
]
type: agent`,
    includes: ['text'],
    excludes: ['agent'],
    replaces: 'te',
  },
  'after a flow list spread over lines, the block structure again': {
    fixture: `
//- cards/a@1.0.0.yaml
tools: [
  git,
]
type: ag$0`,
    includes: ['agent'],
    excludes: ['shell'],
  },
  'nothing after a closed flow collection': {
    fixture: `
//- cards/a@1.0.0.yaml
inputs: [{name: plan, type: text} $0]`,
    none: true,
  },
  'a quoted term left open closes its quote': {
    fixture: `
//- cards/a@1.0.0.yaml
id: a
type: "ag$0
version: 1.0.0`,
    includes: ['agent'],
    replaces: 'ag',
    inserts: { agent: 'agent"' },
  },
  'a quoted term already closed gets no second quote': {
    fixture: `
//- cards/a@1.0.0.yaml
type: 'ag$0'`,
    replaces: 'ag',
    inserts: { agent: 'agent' },
  },
  'a quoted list item left open closes its quote': {
    fixture: `
//- cards/a@1.0.0.yaml
tools:
  - 'gi$0`,
    inserts: { git: "git'" },
  },
  'phase offers the five phases': {
    fixture: `
//- cards/a@1.0.0.yaml
phase: $0`,
    includes: ['planning', 'implementation', 'testing', 'debugging', 'deployment'],
  },
  'field names at the top level, without those already written': {
    fixture: `
//- cards/a@1.0.0.yaml
id: a
ty$0
version: 1.0.0`,
    includes: ['type', 'risk_markers', 'dependencies'],
    excludes: ['id', 'version', 'requires_human'],
    replaces: 'ty',
    inserts: { type: 'type: ' },
  },
  'a field whose colon is written is replaced by the name alone': {
    fixture: `
//- cards/a@1.0.0.yaml
id: a
mo$0del: general-coder
version: 1.0.0`,
    includes: ['model'],
    replaces: 'model',
    inserts: { model: 'model' },
  },
  'a JSON field whose colon is written': {
    fixture: `
//- cards/a@1.0.0.json
{ "id": "a", "ty$0pe": "agent" }`,
    includes: ['type'],
    replaces: 'type',
    inserts: { type: 'type' },
  },
  'a field typed right after a list dash gets a space before it': {
    fixture: `
//- cards/a@1.0.0.yaml
inputs:
  -$0`,
    includes: ['name', 'type'],
    inserts: { name: ' name: ' },
  },
  'a term typed right after a list dash gets a space before it': {
    fixture: `
//- cards/a@1.0.0.yaml
id: a
tools:
  -$0`,
    includes: ['ci'],
    inserts: { ci: ' ci' },
  },
  'JSON port keys the port has are not offered again, though the file does not parse': {
    fixture: `
//- cards/a@1.0.0.json
{ "id": "a", "inputs": [ { "name": "code", "$0" } ] }`,
    includes: ['type', 'description'],
    excludes: ['name'],
  },
  'a term typed right after the colon gets a space before it': {
    fixture: `
//- cards/a@1.0.0.yaml
id: a
type:$0
version: 1.0.0`,
    includes: ['agent'],
    inserts: { agent: ' agent' },
  },
  'a port field whose colon is written': {
    fixture: `
//- cards/a@1.0.0.yaml
inputs:
  - name: notes
    ty$0pe: json`,
    includes: ['type'],
    inserts: { type: 'type' },
  },
  'port fields the port has are not offered again': {
    fixture: `
//- cards/a@1.0.0.yaml
inputs:
  - name: notes
    type: json
    $0
  - name: other
    type: text
    description: more`,
    includes: ['description', 'required'],
    excludes: ['name', 'type'],
  },
  'port fields the port has are not offered again, in a flow mapping': {
    fixture: `
//- cards/a@1.0.0.yaml
inputs: [{ name: notes, $0 }]`,
    includes: ['type', 'description'],
    excludes: ['name'],
  },
  'port fields inside an input': {
    fixture: `
//- cards/a@1.0.0.yaml
inputs:
  - name: notes
    $0`,
    includes: ['type', 'description', 'required'],
  },
  'port fields of an output have no required': {
    fixture: `
//- cards/a@1.0.0.yaml
outputs:
  - na$0`,
    includes: ['name', 'type'],
    excludes: ['required'],
    replaces: 'na',
  },
  'dependencies offer the card ids of the nodes feeding a node that pins the card': {
    fixture: `
//- topology.dot
digraph g {
  x [card="a@1.0.0"];
  z [card="c@1.0.0"];
  y [card="b@1.0.0"];
  x -> y;
  z -> y;
}
//- cards/a@1.0.0.yaml
${card({ id: 'a', outputs: [['out', 'text']] })}
//- cards/c@1.0.0.yaml
${card({ id: 'c', outputs: [['out', 'text']] })}
//- cards/b@1.0.0.yaml
id: b
dependencies: [c, $0]
version: 1.0.0`,
    includes: ['a'],
    excludes: ['c', 'b'],
    details: { a: 'feeds node y from node x' },
  },
  'dependencies offer a feeding node whose card the bundle lacks, last, saying so': {
    fixture: `
//- topology.dot
digraph g {
  x [card="a@1.0.0"];
  ghost [card="ghost@1.0.0"];
  y [card="b@1.0.0"];
  x -> y;
  ghost -> y;
}
//- cards/a@1.0.0.yaml
${card({ id: 'a', outputs: [['out', 'text']] })}
//- cards/b@1.0.0.yaml
id: b
dependencies: [$0]
version: 1.0.0`,
    first: ['a', 'ghost'],
    details: { a: 'feeds node y from node x', ghost: 'feeds node y from node ghost; the bundle holds no card ghost' },
  },
  'dependencies offer every card of the bundle: those of the nodes feeding it first, in edge order, then the others, never the card itself': {
    fixture: `
//- topology.dot
digraph g {
  x [card="zeta@1.0.0"];
  z [card="alpha@1.0.0"];
  y [card="b@1.0.0"];
  x -> y;
  z -> y;
}
//- cards/zeta@1.0.0.yaml
${card({ id: 'zeta', outputs: [['out', 'text']] })}
//- cards/alpha@1.0.0.yaml
${card({ id: 'alpha', outputs: [['out', 'text']] })}
//- cards/lone@1.0.0.yaml
${card({ id: 'lone', outputs: [['out', 'text']] })}
//- cards/b@1.0.0.yaml
id: b
dependencies: [$0]
version: 1.0.0`,
    first: ['zeta', 'alpha', 'lone'],
    excludes: ['b'],
    details: { zeta: 'feeds node y from node x', lone: 'lone · Agent · no edge from it feeds a node pinning this card' },
  },
  'field names carry whether they are required and how they are written, the required ones first': {
    fixture: `
//- cards/a@1.0.0.yaml
id: a
$0
version: 1.0.0`,
    first: ['name', 'type', 'action', 'spec', 'inputs', 'outputs', 'phase'],
    details: { type: 'required · one term (node-type)', model: 'optional · text', will_not: 'optional · a list of texts', params: 'optional · a mapping of names to values' },
  },
  'port field names carry what they are': {
    fixture: `
//- cards/a@1.0.0.yaml
id: a
inputs:
  - name: brief
    $0
version: 1.0.0`,
    includes: ['type', 'description', 'required'],
    details: { type: 'input port field · required', required: 'input port field · optional' },
  },
  'required: of an input offers true and false': {
    fixture: `
//- cards/a@1.0.0.yaml
id: a
inputs:
  - name: brief
    type: text
    required: $0
version: 1.0.0`,
    includes: ['true', 'false'],
  },
  'id: and version: offer what the file name says': {
    fixture: `
//- cards/outline-writer@2.1.0.yaml
id: $0
version: 2.1.0`,
    includes: ['outline-writer'],
    details: { 'outline-writer': 'the id the file name cards/outline-writer@2.1.0.yaml says' },
  },
  'a JSON card completes terms inside quotes': {
    fixture: `
//- cards/a@1.0.0.json
{"id": "a", "type": "ag$0"}`,
    includes: ['agent'],
    replaces: 'ag',
  },
  'a JSON card completes inside a list': {
    fixture: `
//- cards/a@1.0.0.json
{"id": "a", "tools": ["git", $0]}`,
    includes: ['shell'],
    excludes: ['git'],
    inserts: { shell: '"shell"' },
  },
  'a JSON value written after the cursor is replaced by the item': {
    fixture: `
//- cards/a@1.0.0.json
{"id": "a", "type": $0"agent", "name": "A"}`,
    includes: ['validation'],
    replaces: '"agent"',
    inserts: { validation: '"validation"' },
  },
  'a JSON value after a blank keeps the blank when replaced': {
    fixture: `
//- cards/a@1.0.0.json
{"id": "a", "type":$0 "agent"}`,
    replaces: ' "agent"',
    inserts: { validation: ' "validation"' },
  },
  'a JSON list entry before another goes in as an entry of its own': {
    fixture: `
//- cards/a@1.0.0.json
{"id": "a", "tools": [$0"git"]}`,
    replaces: '',
    inserts: { shell: '"shell", ' },
    excludes: ['git'],
  },
  'a YAML flow list entry before another leaves out the one after it too': {
    fixture: `
//- cards/a@1.0.0.yaml
id: a
tools: [shell, $0"git"]`,
    inserts: { ci: 'ci, ' },
    excludes: ['git', 'shell'],
  },
  'a JSON field holding a list gets a list of one': {
    fixture: `
//- cards/a@1.0.0.json
{"id": "a", "tools": $0}`,
    inserts: { git: '["git"]' },
  },
  'nothing goes in before a JSON list written as the value': {
    fixture: `
//- cards/a@1.0.0.json
{"id": "a", "tools": $0["git"]}`,
    none: true,
  },
  'a JSON port type': {
    fixture: `
//- cards/a@1.0.0.json
{"inputs": [{"name": "x", "type": "$0"}]}`,
    includes: ['text'],
  },
  'JSON field names leave out the keys written, though the card does not parse': {
    fixture: `
//- cards/a@1.0.0.json
{
  "id": "a",
  "name": "A",
  "type": "agent",
  "inputs": [{"name": "x", "type": "text"}],
  "$0"
}`,
    includes: ['version', 'outputs', 'tools'],
    excludes: ['id', 'name', 'type', 'inputs'],
  },
  'a JSON key left open closes its quote': {
    fixture: `
//- cards/a@1.0.0.json
{
  "id": "a",
  "ver$0
}`,
    replaces: 'ver',
    inserts: { version: 'version": ' },
    excludes: ['id'],
  },
  'a card broken elsewhere still completes': {
    fixture: `
//- cards/a@1.0.0.yaml
id: a
name: [unclosed
type: to$0`,
    includes: ['tool'],
  },
  'nothing inside a block scalar': {
    fixture: `
//- cards/a@1.0.0.yaml
spec: |
  type: $0`,
    none: true,
  },
  // ---- the extensions file
  'a term kind, never phase': {
    fixture: `
//- ontology/extensions.yaml
terms:
  - id: acme/x
    kind: $0`,
    includes: ['node-type', 'data-type', 'risk-marker', 'tool'],
    excludes: ['phase'],
  },
  'broader offers terms of the entry kind': {
    fixture: `
//- ontology/extensions.yaml
terms:
  - id: acme/x
    kind: risk-marker
    broader: $0`,
    includes: ['isolation-breach', 'secret-access'],
    excludes: ['agent'],
  },
  'the keys of a term entry, without those it has': {
    fixture: `
//- ontology/extensions.yaml
terms:
  - id: acme/x
    kind: tool
    $0`,
    includes: ['label', 'description', 'since', 'broader'],
    excludes: ['id', 'kind'],
  },
  'broader never offers the entry itself': {
    fixture: `
//- ontology/extensions.yaml
terms:
  - id: acme/y
    kind: tool
    label: Y
    description: A tool.
    since: "0.1.0"
  - id: acme/x
    kind: tool
    label: X
    description: A tool.
    since: "0.1.0"
    broader: $0`,
    includes: ['acme/y'],
    excludes: ['acme/x'],
  },
  'broader never offers a term under the entry (a cycle)': {
    fixture: `
//- ontology/extensions.yaml
terms:
  - id: acme/crawler
    kind: tool
    label: Crawler
    description: A tool.
    since: "0.1.0"
    broader: $0
  - id: acme/deep-crawler
    kind: tool
    label: Deep crawler
    description: A tool.
    since: "0.1.0"
    broader: acme/crawler
  - id: acme/deeper
    kind: tool
    label: Deeper
    description: A tool.
    since: "0.1.0"
    broader: acme/deep-crawler`,
    includes: ['web-search'],
    excludes: ['acme/crawler', 'acme/deep-crawler', 'acme/deeper'],
  },
  'an empty extensions file offers its one key': {
    fixture: `
//- ontology/extensions.yaml
$0`,
    includes: ['terms'],
    inserts: { terms: 'terms: ' },
  },
  'the keys of a term entry': {
    fixture: `
//- ontology/extensions.yaml
terms:
  - id: acme/x
    $0`,
    includes: ['kind', 'label', 'description', 'since', 'broader', 'defaultWeight'],
  },
  'broader in a flow entry offers terms of the entry kind': {
    fixture: `
//- ontology/extensions.yaml
terms: [{id: acme/y, kind: tool, broader: $0}]`,
    includes: ['git', 'shell'],
    excludes: ['agent', 'acme/y'],
  },
};

describe('ide: completion', () => {
  for (const [name, c] of Object.entries(cases)) it(name, () => checkCompletion(c));
});

describe('ide: completion across loads of one bundle', () => {
  // A topology edit hands back the same card entries (the load memo reads no card anew), and
  // the IDE keeps its card index for them; the index must still follow the card texts it is
  // asked about.
  const topology = (extra: string): SourceFile => ({ path: 'topology.dot', text: `digraph g {\n  a [card="a@1.0.0"];${extra}\n  b [card="$0"];\n}\n` });
  const cardA = (version: string): SourceFile => ({ path: `cards/a@${version}.yaml`, text: card({ id: 'a', version }) });
  const pinOffset = (file: SourceFile): number => file.text.indexOf('$0');
  const withoutCursor = (file: SourceFile): SourceFile => ({ path: file.path, text: file.text.replace('$0', '') });
  const labels = (files: readonly SourceFile[], result: LoadResult, topologyFile: SourceFile): string[] =>
    complete({ files: new Map(files.map((f) => [f.path, f] as const)), result }, 'topology.dot', pinOffset(topologyFile))?.items.map((i) => i.label) ?? [];

  it('inserts what the pin needs, closed or left open, when asked against the same cards', () => {
    const closed: SourceFile = { path: 'topology.dot', text: 'digraph g {\n  a [card="a@1.0.0"];\n  b [card=""];\n}\n' };
    const a = cardA('1.0.0');
    const result = loadBundle([closed, a], { folderName: 'fixture' });
    const inserts = (topologyText: string, offset: number): (string | undefined)[] =>
      complete({ files: new Map([[closed.path, { path: closed.path, text: topologyText }], [a.path, a]]), result }, 'topology.dot', offset)?.items.map((i) => i.insertText) ?? [];
    const inClosed = closed.text.indexOf('card=""') + 'card="'.length;
    assert.deepEqual(inserts(closed.text, inClosed), [undefined]);
    // the same result and cards, the pin's closing quote not typed yet
    const open = closed.text.replace('card=""];', 'card="');
    assert.deepEqual(inserts(open, inClosed), ['a@1.0.0"']);
    assert.deepEqual(inserts(closed.text, inClosed), [undefined]);
  });

  it('offers the cards of the texts it is given, after a topology edit that kept the card entries', () => {
    const memo = createLoadMemo();
    const before = topology('');
    const a = cardA('1.0.0');
    const first = [withoutCursor(before), a];
    const firstResult = loadBundle(first, { folderName: 'fixture', memo });
    assert.ok(labels(first, firstResult, before).includes('a@1.0.0'));
    const after = topology('\n  c;');
    const second = [withoutCursor(after), a];
    const secondResult = loadBundle(second, { folderName: 'fixture', memo });
    assert.equal(secondResult.blueprint?.cardFiles, firstResult.blueprint?.cardFiles, 'the load kept the card entries');
    assert.ok(labels(second, secondResult, after).includes('a@1.0.0'));
    // the same result asked about with the card file renamed to another version: the texts rule
    const renamed = [withoutCursor(after), cardA('2.0.0')];
    const offered = labels(renamed, secondResult, after);
    assert.ok(offered.includes('a@2.0.0'), offered.join(', '));
    assert.ok(!offered.includes('a@1.0.0'), offered.join(', '));
  });
});
