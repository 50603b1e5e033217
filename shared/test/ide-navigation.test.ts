/**
 * Definition and references. Each case: a fixture with a `$0` cursor and the expected
 * locations as `path:line:text` (the text the location covers), in order.
 */
import assert from 'node:assert/strict';
import { definition, references } from '../src/ide';
import { card, loadWithCursor, render } from './support/ide';

interface NavigationCase {
  readonly fixture: string;
  readonly expected: readonly string[];
  /** For references: include the declaration (default true). */
  readonly includeDeclaration?: boolean;
}

function checkDefinition(c: NavigationCase): void {
  const { bundle, file, offset } = loadWithCursor(c.fixture);
  assert.deepEqual(definition(bundle, file, offset).map((l) => render(bundle, l)), c.expected);
}

function checkReferences(c: NavigationCase): void {
  const { bundle, file, offset } = loadWithCursor(c.fixture);
  assert.deepEqual(references(bundle, file, offset, c.includeDeclaration ?? true).map((l) => render(bundle, l)), c.expected);
}

const extensions = `
//- ontology/extensions.yaml
terms:
  - id: acme/reviewer
    kind: node-type
    label: Reviewer
    description: Reads a change and comments on it.
    since: "0.1.0"
    broader: agent
  - id: acme/lead
    kind: node-type
    label: Lead reviewer
    description: Reviews the reviewers.
    since: "0.1.0"
    broader: acme/reviewer`;

const writer = card({ id: 'writer', outputs: [['draft', 'markdown']] });
const editor = card({ id: 'editor', inputs: [['notes', 'json'], ['prose', 'text']], dependencies: ['writer'] });

function topology(body: string): string {
  return `
//- topology.dot
digraph g {
  writer [card="writer@1.0.0"];
  editor [card="editor@1.0.0"];
${body}
}
//- cards/writer@1.0.0.yaml
${writer}
//- cards/editor@1.0.0.yaml
${editor}`;
}

const definitions: Record<string, NavigationCase> = {
  'a pin goes to the card id': {
    fixture: topology('  w2 [card="wri$0ter@1.0.0"];'),
    expected: ['cards/writer@1.0.0.yaml:1:writer'],
  },
  'a pin of a node written with a port goes to the card id': {
    fixture: topology('  w2:p [card="wri$0ter@1.0.0"];'),
    expected: ['cards/writer@1.0.0.yaml:1:writer'],
  },
  'a node id in an edge goes to its first statement': {
    fixture: topology('  writer -> edi$0tor;'),
    expected: ['topology.dot:3:editor'],
  },
  'a node id in its own statement goes to its card': {
    fixture: topology('').replace('  editor [card', '  edi$0tor [card'),
    expected: ['cards/editor@1.0.0.yaml:1:editor'],
  },
  'a node only edges mention goes to its first mention': {
    fixture: topology('  writer -> ghost;\n  gho$0st -> editor;'),
    expected: ['topology.dot:4:ghost'],
  },
  'out= goes to the output port name': {
    fixture: topology('  writer -> editor [out="dr$0aft"];'),
    expected: ['cards/writer@1.0.0.yaml:8:draft'],
  },
  'in= goes to the input port name': {
    fixture: topology('  writer -> editor [in="pro$0se"];'),
    expected: ['cards/editor@1.0.0.yaml:9:prose'],
  },
  'in= on an edge whose ends have ports goes to the input port name': {
    fixture: topology('  writer:o:ne -> editor:i [out="draft", in="pro$0se"];'),
    expected: ['cards/editor@1.0.0.yaml:9:prose'],
  },
  'out= after a target with a compass point goes to the output port name': {
    fixture: topology('  writer -> editor:w [out="dr$0aft"];'),
    expected: ['cards/writer@1.0.0.yaml:8:draft'],
  },
  'a card= node default goes to the card id': {
    fixture: topology('  subgraph s { node [card="wri$0ter@1.0.0"]; w2; }'),
    expected: ['cards/writer@1.0.0.yaml:1:writer'],
  },
  'a card= node default that reaches no node still goes to the card id': {
    fixture: topology('  node [card="wri$0ter@1.0.0"];'),
    expected: ['cards/writer@1.0.0.yaml:1:writer'],
  },
  'a version= node default goes to the card of every node it reaches, once each': {
    fixture: `
//- topology.dot
digraph g {
  node [version="1.0$0.0"];
  writer; editor; w2 [card="writer@1.0.0"]; ghost;
}
//- cards/writer@1.0.0.yaml
${writer}
//- cards/editor@1.0.0.yaml
${editor}`,
    expected: ['cards/writer@1.0.0.yaml:1:writer', 'cards/editor@1.0.0.yaml:1:editor'],
  },
  'in= in an edge default goes to the input port of every edge it reaches, once each': {
    fixture: topology('  w2 [card="writer@1.0.0"];\n  edge [in="pro$0se"];\n  writer -> editor;\n  w2 -> editor;'),
    expected: ['cards/editor@1.0.0.yaml:9:prose'],
  },
  'out= in an edge default goes to the output port': {
    fixture: topology('  edge [out="dr$0aft"];\n  writer -> editor;'),
    expected: ['cards/writer@1.0.0.yaml:8:draft'],
  },
  'an unknown port goes nowhere': {
    fixture: topology('  writer -> editor [in="pro$0se2"];'),
    expected: [],
  },
  'a dependency entry goes to the card': {
    fixture: topology('').replace('dependencies: [writer]', 'dependencies: [wr$0iter]'),
    expected: ['cards/writer@1.0.0.yaml:1:writer'],
  },
  'a dependency naming a node goes to the node': {
    fixture: topology('  w1 [card="writer@1.0.0"];').replace('dependencies: [writer]', 'dependencies: [w$01]'),
    expected: ['topology.dot:4:w1'],
  },
  'a local term in a card goes to the extensions file': {
    fixture: `${extensions}
//- cards/a@1.0.0.yaml
type: acme/rev$0iewer`,
    expected: ['ontology/extensions.yaml:2:acme/reviewer'],
  },
  'a local broader goes to its term': {
    fixture: extensions.replace('broader: acme/reviewer', 'broader: acme/rev$0iewer'),
    expected: ['ontology/extensions.yaml:2:acme/reviewer'],
  },
  'a core term has no definition': {
    fixture: `
//- cards/a@1.0.0.yaml
type: ag$0ent`,
    expected: [],
  },
};

const referenceCases: Record<string, NavigationCase> = {
  'a card id: its declaration, the nodes pinning it, the dependencies naming it': {
    fixture: topology('  w2 [card="writer@1.0.0"];\n  w2 -> editor;').replace('id: writer', 'id: wri$0ter'),
    expected: ['cards/writer@1.0.0.yaml:1:writer', 'topology.dot:2:writer', 'topology.dot:4:writer', 'cards/editor@1.0.0.yaml:12:writer'],
  },
  'a card id without its declaration': {
    fixture: topology('').replace('id: writer', 'id: wri$0ter'),
    includeDeclaration: false,
    expected: ['topology.dot:2:writer', 'cards/editor@1.0.0.yaml:12:writer'],
  },
  'from a pin: the same card': {
    fixture: topology('').replace('card="writer@1.0.0"', 'card="wri$0ter@1.0.0"'),
    expected: ['cards/writer@1.0.0.yaml:1:writer', 'topology.dot:2:writer', 'cards/editor@1.0.0.yaml:12:writer'],
  },
  'from a card= node default: the same card, the default listed once': {
    fixture: topology('  node [card="wri$0ter@1.0.0"];\n  w2;\n  w3;'),
    expected: ['cards/writer@1.0.0.yaml:1:writer', 'topology.dot:2:writer', 'topology.dot:4:writer', 'cards/editor@1.0.0.yaml:12:writer'],
  },
  'from a dependencies entry naming a card: that card': {
    fixture: topology('  writer -> editor;').replace('dependencies: [writer]', 'dependencies: [wri$0ter]'),
    expected: ['cards/writer@1.0.0.yaml:1:writer', 'topology.dot:2:writer', 'cards/editor@1.0.0.yaml:12:writer'],
  },
  'from a dependencies entry naming a node: that node, and the entries naming it': {
    fixture: topology('  w1 [card="writer@1.0.0"];\n  w1 -> editor;').replace('dependencies: [writer]', 'dependencies: [w$01]'),
    expected: ['topology.dot:4:w1', 'topology.dot:5:w1', 'cards/editor@1.0.0.yaml:12:w1'],
  },
  'from a pin in a second topology file: its pins too': {
    fixture: `${topology('')}
//- legacy.dot
digraph old {
  w [card="wri$0ter@1.0.0"];
}`,
    expected: ['cards/writer@1.0.0.yaml:1:writer', 'topology.dot:2:writer', 'legacy.dot:2:writer', 'cards/editor@1.0.0.yaml:12:writer'],
  },
  'a node: every occurrence': {
    fixture: `
//- topology.dot
digraph g {
  a [label="a"];
  a -> b -> a;
  subgraph s { a; }
  { a b } -> c;
}`.replace('a -> b', 'a$0 -> b'),
    expected: ['topology.dot:2:a', 'topology.dot:3:a', 'topology.dot:3:a', 'topology.dot:4:a', 'topology.dot:5:a'],
  },
  'a node without its declaration': {
    fixture: `
//- topology.dot
digraph g {
  a;
  a$0 -> b;
}`,
    includeDeclaration: false,
    expected: ['topology.dot:3:a'],
  },
  'a term: every card field and broader naming it': {
    fixture: `${extensions}
//- cards/a@1.0.0.yaml
type: acme/reviewer
//- cards/b@1.0.0.yaml
type: acme/rev$0iewer`,
    expected: ['ontology/extensions.yaml:2:acme/reviewer', 'cards/a@1.0.0.yaml:1:acme/reviewer', 'cards/b@1.0.0.yaml:1:acme/reviewer', 'ontology/extensions.yaml:13:acme/reviewer'],
  },
  'a core term used as a port type and in cannot': {
    fixture: `
//- cards/a@1.0.0.yaml
inputs:
  - name: x
    type: js$0on
cannot: [json]`,
    expected: ['cards/a@1.0.0.yaml:3:json', 'cards/a@1.0.0.yaml:4:json'],
  },
};

describe('ide: definition', () => {
  for (const [name, c] of Object.entries(definitions)) it(name, () => checkDefinition(c));
});

describe('ide: references', () => {
  for (const [name, c] of Object.entries(referenceCases)) it(name, () => checkReferences(c));
});
