/**
 * Hover: terms wherever a card or the extensions file names one, diagnostic codes
 * anywhere, and in the topology nodes, pins, edges, attribute names and port values.
 * Each case: a fixture with a `$0` cursor, the text the hover must cover, and what it must say.
 */
import assert from 'node:assert/strict';
import { loadBundle } from '../src/bundle/resolve';
import { hover } from '../src/ide';
import { nodeOccurrences } from '../src/syntax/dot-mentions';
import { parseDot } from '../src/syntax/dot-parser';
import { card, loadWithCursor } from './support/ide';
import { example } from './support/mutations';

interface HoverCase {
  readonly fixture: string;
  /** The text under the hover's range; omitted with `none`. */
  readonly span?: string;
  readonly contains?: readonly string[];
  readonly excludes?: readonly string[];
  readonly none?: true;
}

function checkHover(c: HoverCase): void {
  const { bundle, file, offset } = loadWithCursor(c.fixture);
  const result = hover(bundle, file, offset);
  if (c.none) {
    assert.equal(result, undefined, `expected no hover, got:\n${result?.contents ?? ''}`);
    return;
  }
  assert.ok(result, 'expected a hover');
  const text = bundle.files.get(file)?.text ?? '';
  if (c.span !== undefined) assert.equal(text.slice(result.span.start, result.span.end), c.span);
  for (const part of c.contains ?? []) assert.ok(result.contents.includes(part), `hover lacks ${JSON.stringify(part)}:\n${result.contents}`);
  for (const part of c.excludes ?? []) assert.ok(!result.contents.includes(part), `hover has ${JSON.stringify(part)}:\n${result.contents}`);
}

const writer = card({ id: 'writer', outputs: [['draft', 'markdown'], ['notes', 'json']], extra: ['tools: [file-io]'] });
const editor = card({ id: 'editor', inputs: [['prose', 'text']], outputs: [['final', 'markdown']], dependencies: ['writer'] });
const cards = `
//- cards/writer@1.0.0.yaml
${writer}
//- cards/editor@1.0.0.yaml
${editor}`;

const cases: Record<string, HoverCase> = {
  'a node type in a card: label, kind, meaning and what the analysis does': {
    fixture: `
//- cards/a@1.0.0.yaml
id: a
name: A
type: ag$0ent
action: act
version: 1.0.0`,
    span: 'agent',
    contains: ['**Agent**', 'node-type', 'A model that reasons', 'Under: nothing', 'autonomy counts the node as running unattended'],
  },
  'a node type with a broader chain and a control role': {
    fixture: `
//- cards/a@1.0.0.yaml
type: human-gat$0e`,
    contains: ['**Human gate**', 'Under: `human-in-the-loop`', 'A person acts at a node of this type', 'control point'],
  },
  'a risk marker shows its weight': {
    fixture: `
//- cards/a@1.0.0.yaml
risk_markers: [secret-acc$0ess]`,
    span: 'secret-access',
    contains: ['**Secret access**', 'Weight: 1.00', 'risk-marker'],
  },
  'an inferred risk marker says how it is inferred': {
    fixture: `
//- cards/a@1.0.0.yaml
risk_markers:
  - unbounded-lo$0op`,
    contains: ['Weight: 1.50 (inferred)', 'cycle'],
  },
  'a local marker without a weight of its own says what it weighs instead': {
    fixture: `
//- ontology/extensions.yaml
terms:
  - id: acme/budget
    kind: risk-marker
    label: Budget
    description: Spends money.
    since: "0.1.0"
    broader: execution-risk
//- cards/a@1.0.0.yaml
risk_markers: [acme/bud$0get]`,
    contains: ['Weight: 0.00, what the analysis gives a marker with no weight of its own (declared)'],
  },
  'a port type shows its broader chain': {
    fixture: `
//- cards/a@1.0.0.yaml
inputs:
  - name: notes
    type: markd$0own`,
    span: 'markdown',
    contains: ['**Markdown**', 'Under: `text` → `any`', 'fits an input of'],
  },
  'a cannot entry is a data type': {
    fixture: `
//- cards/a@1.0.0.yaml
cannot: [acceptance-crit$0eria]`,
    contains: ['**Acceptance criteria**', 'Under: `structured` → `any`', 'criteria producer'],
  },
  'a tool in a block list': {
    fixture: `
//- cards/a@1.0.0.yaml
tools:
  - file-io
  - http-fe$0tch`,
    span: 'http-fetch',
    contains: ['**HTTP fetch**', 'unvalidated-external-access'],
  },
  'a phase': {
    fixture: `
//- cards/a@1.0.0.yaml
phase: [plan$0ning]`,
    contains: ['**Planning**', 'Phase coverage'],
  },
  'a term field name shows what its kind means': {
    fixture: `
//- cards/a@1.0.0.yaml
too$0ls: [git]`,
    span: 'tools',
    contains: ['**tool**: what a node is permitted to do'],
  },
  'a term in a JSON card being typed, which does not parse': {
    fixture: `
//- cards/a@1.0.0.json
{"id": "a", "type": "ag$0ent", "x": `,
    span: '"agent"',
    contains: ['**Agent**', 'node-type'],
  },
  'a port type in a JSON card that does not parse': {
    fixture: `
//- cards/a@1.0.0.json
{"id": "a", "inputs": [{"name": "p", "type": "markd$0own"}], "outputs": `,
    span: '"markdown"',
    contains: ['**Markdown**'],
  },
  'a term field name in a JSON card that does not parse': {
    fixture: `
//- cards/a@1.0.0.json
{"id": "a", "too$0ls": ["git"], "x"`,
    span: '"tools"',
    contains: ['**tool**: what a node is permitted to do'],
  },
  'a term in a YAML card whose broken next lines the reader folds into it': {
    fixture: `
//- cards/a@1.0.0.yaml
id: a
type: ag$0ent
  - x
 y:`,
    span: 'agent',
    contains: ['**Agent**'],
  },
  'a term in a flow mapping': {
    fixture: `
//- cards/a@1.0.0.yaml
inputs: [{name: plan, type: markd$0own}]`,
    span: 'markdown',
    contains: ['**Markdown**'],
  },
  'a local term in a card, declared in the extensions file': {
    fixture: `
//- ontology/extensions.yaml
terms:
  - id: acme/reviewer
    kind: node-type
    label: Reviewer
    description: Reads a change and comments on it.
    since: "0.1.0"
    broader: agent
//- cards/a@1.0.0.yaml
type: acme/revie$0wer`,
    span: 'acme/reviewer',
    contains: ['**Reviewer**', 'Reads a change', 'Under: `agent`', 'Local term, declared in `ontology/extensions.yaml` since 0.1.0'],
  },
  'a broader pointer in the extensions file': {
    fixture: `
//- ontology/extensions.yaml
terms:
  - id: acme/pii
    kind: data-type
    label: Personal data
    description: Data about a person.
    since: "0.1.0"
    broader: struct$0ured`,
    span: 'structured',
    contains: ['**Structured**'],
  },
  'a term id in the extensions file': {
    fixture: `
//- ontology/extensions.yaml
terms:
  - id: acme/p$0ii
    kind: data-type
    label: Personal data
    description: Data about a person.
    since: "0.1.0"
    broader: structured`,
    contains: ['**Personal data**', 'Under: `structured` → `any`'],
  },
  'a term kind in the extensions file': {
    fixture: `
//- ontology/extensions.yaml
terms:
  - id: acme/pii
    kind: data-ty$0pe`,
    contains: ['**data-type**: what an edge carries'],
  },
  'an unknown term has no hover': {
    fixture: `
//- cards/a@1.0.0.yaml
type: agn$0et`,
    none: true,
  },
  'a diagnostic code in a topology comment': {
    fixture: `
//- topology.dot
// see bundle/port-mis$0match for why
digraph g { a; }`,
    span: 'bundle/port-mismatch',
    contains: ['**`bundle/port-mismatch`** · error', '```dot'],
  },
  'a diagnostic code in a card comment': {
    fixture: `
//- cards/a@1.0.0.yaml
id: a # silences card/spec-too-th$0in? no
`,
    span: 'card/spec-too-thin',
    contains: ['warning', 'spec'],
  },
  'a beyond code says it is not DarkPrint\'s': {
    fixture: `
//- topology.dot
/* attractor/unguarded-f$0ork */ digraph g { a; }`,
    contains: ['not a DarkPrint code'],
  },
  'a word shaped like a code that is not one has no hover': {
    fixture: `
//- topology.dot
// see dot/no-such-th$0ing
digraph g { a; }`,
    none: true,
  },
  'a node id shows its card': {
    fixture: `
//- topology.dot
digraph g {
  wri$0ter [card="writer@1.0.0"];
  editor [card="editor@1.0.0"];
  writer -> editor;
}${cards}`,
    span: 'writer',
    contains: ['**writer** · node `writer` · `writer@1.0.0` · `agent` (Agent)', 'Outputs: `draft`: `markdown`, `notes`: `json`', '> Does one well-defined step', 'Defined in [cards/writer@1.0.0.yaml](bundle-file:cards/writer@1.0.0.yaml#0)'],
    excludes: ['**Edge**', 'runs'],
  },
  'a pin shows its card': {
    fixture: `
//- topology.dot
digraph g {
  writer [card="wri$0ter@1.0.0"];
}${cards}`,
    span: '"writer@1.0.0"',
    contains: ['**Pin** `writer@1.0.0` of node `writer`', '**writer** · `agent`', 'Versions in the bundle: `1.0.0` (this pin): pinned by `writer`', 'Digest: `sha256:', 'Defined in [cards/writer@1.0.0.yaml]'],
  },
  'a pin lists the versions of its card the bundle holds, orphans said so, and checks a digest prefix': {
    fixture: `
//- topology.dot
digraph g {
  writer [card="wri$0ter@1.0.0", digest="sha256:0000"];
  other [card="writer@1.0.0"];
}${cards}
//- cards/writer@2.0.0.yaml
${writer.replace('version: 1.0.0', 'version: 2.0.0')}`,
    span: '"writer@1.0.0"',
    contains: ['Versions in the bundle: `2.0.0`: orphaned: no node pins it; `1.0.0` (this pin): pinned by `writer`, `other`', "(the node's `digest=` does not match it)"],
  },
  'a pin naming no card the bundle holds says so': {
    fixture: `
//- topology.dot
digraph g { x [card="gh$0ost@1.0.0"]; }${cards}`,
    contains: ['**Pin** `ghost@1.0.0` of node `x`', 'The bundle holds no card `ghost@1.0.0`.'],
    excludes: ['Digest', 'Defined in'],
  },
  'a pin of a node written with a port shows its card': {
    fixture: `
//- topology.dot
digraph g {
  writer:p [card="wri$0ter@1.0.0"];
}${cards}`,
    span: '"writer@1.0.0"',
    contains: ['**Pin** `writer@1.0.0` of node `writer`'],
  },
  'a pin of a node written with a port and a compass point shows its card': {
    fixture: `
//- topology.dot
digraph g {
  writer:p:se [label="w"] [card="wri$0ter@1.0.0"];
}${cards}`,
    span: '"writer@1.0.0"',
    contains: ['**Pin** `writer@1.0.0` of node `writer`'],
  },
  'a pin after an attribute ended by ; shows its card': {
    fixture: `
//- topology.dot
digraph g {
  writer [shape=box; card="wri$0ter@1.0.0"];
}${cards}`,
    span: '"writer@1.0.0"',
    contains: ['**Pin** `writer@1.0.0` of node `writer`'],
  },
  'an attribute name after a ; is the node\'s': {
    fixture: `
//- topology.dot
digraph g {
  writer [shape=box; lab$0el="x"];
}${cards}`,
    span: 'label',
    excludes: ['graph attribute'],
  },
  'an edge arrow shows the ports it pairs and the type it carries': {
    fixture: `
//- topology.dot
digraph g {
  writer [card="writer@1.0.0"];
  editor [card="editor@1.0.0"];
  writer -$0> editor [label="draft"];
}${cards}`,
    span: '->',
    contains: ['**Edge** `writer -> editor` carries `markdown`: output `draft` (`markdown`) of `writer@1.0.0` → input `prose` (`text`) of `editor@1.0.0`', 'label: `draft`'],
  },
  'an edge endpoint shows the node and the edge': {
    fixture: `
//- topology.dot
digraph g {
  writer [card="writer@1.0.0"];
  editor [card="editor@1.0.0"];
  writer -> edi$0tor;
}${cards}`,
    span: 'editor',
    contains: ['**editor** · node `editor`', '**Edge** `writer -> editor` carries `markdown`'],
  },
  'the middle arrow of a chain is its own edge': {
    fixture: `
//- topology.dot
digraph g { a -> b -$0> c; }`,
    contains: ['**Edge** `b -> c`: no port pair, as `b` and `c` have no valid card.'],
    excludes: ['`a -> b`'],
  },
  'a node without a card says so': {
    fixture: `
//- topology.dot
digraph g { gho$0st; }`,
    contains: ['Node `ghost` pins no card.'],
  },
  'a node pinning a card the bundle lacks says so': {
    fixture: `
//- topology.dot
digraph g { gh$0ost [card="ghost@9.0.0"]; }`,
    contains: ['pins `ghost@9.0.0`, which the bundle does not hold'],
  },
  'an Attractor node attribute says what the runner does': {
    fixture: `
//- topology.dot
digraph g { a [time$0out="900s"]; }`,
    span: 'timeout',
    contains: ['**`timeout`** · node attribute', '*Attractor* (duration)', 'The longest the node may run'],
  },
  'a DarkPrint edge attribute': {
    fixture: `
//- topology.dot
digraph g { a -> b [o$0ut="draft"]; }`,
    contains: ['**`out`** · edge attribute', 'output port of the source'],
  },
  'an edge attribute on an edge whose target has a port': {
    fixture: `
//- topology.dot
digraph g { a -> b:w [cond$0ition="outcome=success"]; }`,
    span: 'condition',
    contains: ['**`condition`** · edge attribute'],
  },
  'an Attractor edge attribute': {
    fixture: `
//- topology.dot
digraph g { a -> b [wei$0ght=2]; }`,
    contains: ['Priority among eligible edges', 'default `0`'],
  },
  'a node default attribute uses the node scope': {
    fixture: `
//- topology.dot
digraph g { node [sha$0pe=box]; a; }`,
    contains: ['**`shape`** · node attribute', 'Chooses the handler'],
  },
  'a graph attribute statement': {
    fixture: `
//- topology.dot
digraph g { go$0al="Ship it"; a; }`,
    contains: ['**`goal`** · graph attribute', 'The pipeline\'s goal'],
  },
  'an out= value shows the port': {
    fixture: `
//- topology.dot
digraph g {
  writer [card="writer@1.0.0"];
  editor [card="editor@1.0.0"];
  writer -> editor [out="dr$0aft"];
}${cards}`,
    span: '"draft"',
    contains: ['**output `draft`** of `writer@1.0.0` · `markdown` (Markdown)'],
  },
  'an in= value on an edge whose ends have ports shows the port': {
    fixture: `
//- topology.dot
digraph g {
  writer [card="writer@1.0.0"];
  editor [card="editor@1.0.0"];
  writer:o:ne -> editor:i [out="draft", in="pro$0se"];
}${cards}`,
    span: '"prose"',
    contains: ['**input `prose`** of `editor@1.0.0`'],
  },
  'an out= value after a target with a compass point shows the port': {
    fixture: `
//- topology.dot
digraph g {
  writer [card="writer@1.0.0"];
  editor [card="editor@1.0.0"];
  writer -> editor:w [out="dr$0aft"];
}${cards}`,
    span: '"draft"',
    contains: ['**output `draft`** of `writer@1.0.0`'],
  },
  'an in= value naming no port says so': {
    fixture: `
//- topology.dot
digraph g {
  writer [card="writer@1.0.0"];
  editor [card="editor@1.0.0"];
  writer -> editor [in="pr$0ose2"];
}${cards}`,
    contains: ['`editor@1.0.0` has no input named `prose2`.'],
  },
  'an empty in= value has no port hover': {
    fixture: `
//- topology.dot
digraph g {
  writer [card="writer@1.0.0"];
  editor [card="editor@1.0.0"];
  writer -> editor [in="$0"];
}${cards}`,
    none: true,
  },
  'an undirected topology (no blueprint) still hovers nodes': {
    fixture: `
//- topology.dot
graph g { wri$0ter [card="writer@1.0.0"]; }${cards}`,
    contains: ['**writer** · node `writer` · `writer@1.0.0`'],
  },
  'a dependency entry shows the card it names': {
    fixture: `
${cards.replace('dependencies: [writer]', 'dependencies: [wri$0ter]')}`,
    contains: ['Depends on', '**writer** · `writer@1.0.0`'],
  },
  'a card id shows the nodes pinning it': {
    fixture: `
//- topology.dot
digraph g { w1 [card="writer@1.0.0"]; w2 [card="writer@1.0.0"]; }
${cards.replace('id: writer', 'id: wri$0ter')}`,
    contains: ['`writer@1.0.0` is pinned by `w1`, `w2`.'],
  },
  'a required field key: what it is, that a card needs it, how it is written': {
    fixture: `
//- cards/a@1.0.0.yaml
id: a
act$0ion: act
version: 1.0.0`,
    span: 'action',
    contains: ['**`action`** · card field · required · text', 'One line saying what the node does.', 'Required: a card without it'],
  },
  'an optional field key of free text (`will_not`, `mcp`, `params`) says so and what the engine does with it': {
    fixture: `
//- cards/a@1.0.0.yaml
id: a
will_n$0ot: [leak the brief]
version: 1.0.0`,
    span: 'will_not',
    contains: ['**`will_not`** · card field · optional · a list of texts', 'nothing checks them', 'Also read as `willNot`.'],
    excludes: ['Required'],
  },
  'a field key spelled as its alias says how DarkPrint writes it': {
    fixture: `
//- cards/a@1.0.0.yaml
id: a
pha$0ses: [testing]
version: 1.0.0`,
    contains: ['**`phases`** · card field · optional · one phase or a list of phases (phase)', 'DarkPrint writes it `phase`', '**phase**: the five lifecycle stages'],
  },
  'params and mcp keys are explained too': {
    fixture: `
//- cards/a@1.0.0.yaml
id: a
mcp: [github]
par$0ams: { tool_command: make }
version: 1.0.0`,
    contains: ['**`params`** · card field · optional · a mapping of names to values', '`tool_command`'],
  },
  'a port key inside inputs': {
    fixture: `
//- cards/a@1.0.0.yaml
id: a
inputs:
  - name: brief
    requ$0ired: false
    type: text
version: 1.0.0`,
    span: 'required',
    contains: ['**`required`** · input port field · optional', 'makes the input optional'],
  },
  'a retired field key says what replaced it': {
    fixture: `
//- cards/a@1.0.0.yaml
id: a
requires_hu$0man: true
version: 1.0.0`,
    contains: ['**`requires_human`** · retired card field', 'now follows from its `type`', 'Remove it.'],
  },
  'an unknown key has no hover': {
    fixture: `
//- cards/a@1.0.0.yaml
id: a
colou$0r: red
version: 1.0.0`,
    none: true,
  },
  'whitespace has no hover': {
    fixture: `
//- topology.dot
digraph g {  $0  a; }`,
    none: true,
  },
  'keywords have no hover': {
    fixture: `
//- topology.dot
digr$0aph g { a; }`,
    none: true,
  },
};

describe('ide: hover', () => {
  for (const [name, c] of Object.entries(cases)) it(name, () => checkHover(c));

  // A node's hover opens on its card (no line before it) and fits in about fifteen lines, the
  // edges at that occurrence included: every node occurrence of the example bundle.
  it('every node hover of the example bundle opens on its card and fits in fifteen lines', () => {
    const files = example.map((f) => ({ path: f.path, text: f.text }));
    const bundle = { files: new Map(files.map((f) => [f.path, f] as const)), result: loadBundle(files, { folderName: 'example' }) };
    const text = bundle.files.get('topology.dot')?.text ?? '';
    const graph = parseDot(text).graph;
    assert.ok(graph);
    let checked = 0;
    for (const node of graph.nodes) {
      for (const occurrence of nodeOccurrences(graph, node.id)) {
        const shown = hover(bundle, 'topology.dot', occurrence.start + 1);
        assert.ok(shown, `a hover on ${node.id}`);
        const lines = shown.contents.split('\n').filter((l) => l.trim() !== '');
        assert.ok(lines[0].startsWith('**') && lines[0].includes(`node \`${node.id}\``), `the hover on ${node.id} opens on its card: ${lines[0]}`);
        assert.ok(lines.length <= 15, `the hover on ${node.id} at ${occurrence.start} has ${lines.length} lines:\n${shown.contents}`);
        checked++;
      }
    }
    assert.ok(checked > 20);
  });
});
