/**
 * Every request the server answers, over stdio, as data: a bundle with a `$0` cursor and the
 * expected answer (support/features.ts). These test the plumbing (positions, URIs, conversion,
 * edits with versions, refusals); the features' own behaviour is tested in shared/test.
 */
import { reviewerCard, writerCard as writer } from './support/cards';
import { checkFeature, type FeatureCase } from './support/features';
import { testCapabilities } from './support/lsp-client';

/** A client that opens a place when asked (`window/showDocument`). */
const showing = { ...testCapabilities, window: { showDocument: { support: true } } };

const writerCard = writer();

const cards = writerCard + reviewerCard();

const topology = (body: string): string => `//- topology.dot
digraph g {
${body}
}
`;

const cases: FeatureCase[] = [
  {
    name: 'hover on a node id shows its card',
    fixture: topology('  wri$0ter [card="writer@1.0.0"];\n  reviewer [card="reviewer@1.0.0"];\n  writer -> reviewer;') + cards,
    expect: { request: 'hover', contains: ['Writer', 'writer@1.0.0'], covers: 'writer' },
  },
  {
    name: 'hover on a term in a card explains it',
    fixture: topology('  writer [card="writer@1.0.0"];') + writerCard.replace('type: agent', 'type: ag$0ent'),
    expect: { request: 'hover', contains: ['Agent'], covers: 'agent' },
  },
  {
    name: 'hover on a card field key says what it is and whether it is required',
    fixture: topology('  writer [card="writer@1.0.0"];') + writerCard.replace('action: write', 'act$0ion: write'),
    expect: { request: 'hover', contains: ['**`action`** · card field · required · text'], covers: 'action' },
  },
  {
    name: 'a node hover links to its card file, at the line of its id',
    fixture: topology('  wri$0ter [card="writer@1.0.0"];') + writerCard,
    expect: { request: 'hover', contains: ['**Writer** · node `writer`', 'Defined in [cards/writer@1.0.0.yaml](file://', '/cards/writer@1.0.0.yaml#L1)'] },
  },
  {
    name: 'hover on a pin lists the versions of its card and its digest',
    fixture: topology('  writer [card="wri$0ter@1.0.0"];') + writerCard,
    expect: { request: 'hover', contains: ['**Pin** `writer@1.0.0` of node `writer`', 'pinned by `writer`', 'Digest: `sha256:'] },
  },
  {
    name: 'completion of a dependency offers the feeding card first, then the others',
    fixture: topology('  writer [card="writer@1.0.0"];\n  reviewer [card="reviewer@1.0.0"];\n  writer -> reviewer;') + writerCard + reviewerCard({ dependencies: '[$0]' }),
    expect: { request: 'completion', labels: ['writer'], absent: ['reviewer'] },
  },
  {
    name: 'hover on nothing in particular shows nothing',
    fixture: topology('  writer [card="writer@1.0.0"];\n$0') + writerCard,
    expect: { request: 'hover', none: true },
  },
  {
    name: 'completion inside card=" offers the cards the bundle holds',
    fixture: topology('  writer [card="$0"];\n  reviewer [card="reviewer@1.0.0"];') + cards,
    expect: { request: 'completion', labels: ['writer@1.0.0', 'reviewer@1.0.0'] },
  },
  {
    name: 'completion of a term in a card offers terms of the field’s kind',
    fixture: topology('  writer [card="writer@1.0.0"];') + writerCard.replace('type: agent', 'type: $0'),
    expect: { request: 'completion', labels: ['agent', 'tool'], absent: ['markdown'] },
  },
  {
    name: 'definition of a pin goes to the card',
    fixture: topology('  wri$0ter [card="writer@1.0.0"];') + writerCard,
    expect: { request: 'definition', targets: [{ file: 'cards/writer@1.0.0.yaml', text: 'writer' }] },
  },
  {
    name: 'definition of a node id in an edge goes to its statement',
    fixture: topology('  writer [card="writer@1.0.0"];\n  reviewer [card="reviewer@1.0.0"];\n  wri$0ter -> reviewer;') + cards,
    expect: { request: 'definition', targets: [{ file: 'topology.dot' }] },
  },
  {
    name: 'references of a node id are its occurrences',
    fixture: topology('  wri$0ter [card="writer@1.0.0"];\n  reviewer [card="reviewer@1.0.0"];\n  writer -> reviewer;') + cards,
    expect: { request: 'references', targets: [{ file: 'topology.dot', text: 'writer' }, { file: 'topology.dot', text: 'writer' }] },
  },
  {
    name: 'prepareRename names the node id',
    fixture: topology('  wri$0ter [card="writer@1.0.0"];\n  reviewer [card="reviewer@1.0.0"];\n  writer -> reviewer;') + cards,
    expect: { request: 'prepareRename', covers: 'writer', placeholder: 'writer' },
  },
  {
    name: 'prepareRename on a keyword refuses',
    fixture: topology('  writer [card="writer@1.0.0"];').replace('digraph', 'dig$0raph') + writerCard,
    expect: { request: 'prepareRename', none: true },
  },
  {
    name: 'prepareRename refuses, with the place, a rename that could not rewrite every occurrence',
    fixture: topology('  node [version="1.0.0"];\n  wri$0ter -> check;') + writerCard,
    expect: { request: 'prepareRename', refused: 'topology.dot line 3 pins card writer@1.0.0 through the id of node `writer`' },
  },
  {
    name: 'renaming a node id edits every occurrence',
    fixture: topology('  wri$0ter [card="writer@1.0.0"];\n  reviewer [card="reviewer@1.0.0"];\n  writer -> reviewer;') + cards,
    expect: {
      request: 'rename',
      newName: 'author',
      after: topology('  author [card="writer@1.0.0"];\n  reviewer [card="reviewer@1.0.0"];\n  author -> reviewer;'),
    },
  },
  {
    name: 'renaming a card id edits the card, the pins and the dependencies',
    fixture: topology('  writer [card="writer@1.0.0"];\n  reviewer [card="reviewer@1.0.0"];\n  writer -> reviewer;') + writerCard.replace('id: writer', 'id: wri$0ter') + reviewerCard(),
    expect: {
      request: 'rename',
      newName: 'author',
      after:
        topology('  writer [card="author@1.0.0"];\n  reviewer [card="reviewer@1.0.0"];\n  writer -> reviewer;') +
        writerCard.replace('id: writer', 'id: author').replace('//- cards/writer@1.0.0.yaml', '//- cards/author@1.0.0.yaml') +
        reviewerCard({ dependencies: '[author]' }),
    },
  },
  {
    name: 'a rename the engine refuses answers with its reason',
    fixture: topology('  writer [card="writer@1.0.0"];\n$0') + writerCard,
    expect: { request: 'rename', newName: 'x', refused: 'Nothing here can be renamed' },
  },
  {
    name: 'document symbols of the topology list its nodes',
    fixture: topology('  $0writer [card="writer@1.0.0"];\n  reviewer [card="reviewer@1.0.0"];\n  writer -> reviewer;') + cards,
    expect: { request: 'documentSymbol', names: ['g', 'writer', 'reviewer'] },
  },
  {
    name: 'document symbols of a card list its fields',
    fixture: topology('  writer [card="writer@1.0.0"];') + writerCard.replace('id: writer', '$0id: writer'),
    expect: { request: 'documentSymbol', names: ['id', 'outputs'] },
  },
  {
    name: 'folding ranges cover the graph body',
    fixture: topology('  $0writer [card="writer@1.0.0"];\n  reviewer [card="reviewer@1.0.0"];') + cards,
    expect: { request: 'foldingRange', lines: [[0, 3]] },
  },
  {
    name: 'folding ranges cover each subgraph and each attribute list over several lines, and no list on one line',
    fixture:
      topology('  subgraph cluster_a {\n    $0writer [card="writer@1.0.0"];\n  }\n  reviewer [\n    card="reviewer@1.0.0",\n    label="Reviews"\n  ];\n  writer -> reviewer [label="draft"];') + cards,
    expect: { request: 'foldingRange', lines: [[0, 9], [1, 3], [4, 7]] },
  },
  {
    name: 'a quick fix renames a hyphenated node id everywhere',
    fixture: topology('  $0code-builder [card="writer@1.0.0"];\n  reviewer [card="reviewer@1.0.0"];\n  code-builder -> reviewer;') + cards,
    expect: {
      request: 'codeAction',
      title: 'Rename node `code-builder` to `code_builder` everywhere',
      after: topology('  code_builder [card="writer@1.0.0"];\n  reviewer [card="reviewer@1.0.0"];\n  code_builder -> reviewer;'),
    },
  },
  {
    name: 'a quick fix in a card removes a dependency no edge supplies',
    fixture: topology('  writer [card="writer@1.0.0"];\n  reviewer [card="reviewer@1.0.0"];') + writerCard + reviewerCard({ dependencies: '[$0writer]' }),
    expect: { request: 'codeAction', title: 'Remove `writer` from the dependencies', after: reviewerCard({ dependencies: '[]' }) },
  },
  {
    name: 'fix all renames every unusable node id',
    fixture: topology('  $0code-builder [card="writer@1.0.0"];\n  test-runner [card="reviewer@1.0.0"];\n  code-builder -> test-runner;') + cards,
    expect: {
      request: 'codeAction',
      only: ['source.fixAll'],
      title: 'Fix all node ids (2 nodes)',
      after: topology('  code_builder [card="writer@1.0.0"];\n  test_runner [card="reviewer@1.0.0"];\n  code_builder -> test_runner;'),
    },
  },
  {
    name: 'formatting writes the topology in one style, a run of node statements aligned',
    fixture: '//- topology.dot\ndigraph   g{\n$0writer[card="writer@1.0.0"] reviewer [card="reviewer@1.0.0"]\n      writer->reviewer\n}\n' + cards,
    expect: {
      request: 'formatting',
      // (a fixture file ends without a line break unless a blank line follows it)
      after: `${topology('  writer   [card="writer@1.0.0"]\n  reviewer [card="reviewer@1.0.0"]\n  writer -> reviewer')}\n`,
    },
  },
  {
    name: 'formatting indents as the client asks',
    fixture: '//- topology.dot\ndigraph g {\n$0writer [card="writer@1.0.0"];\n}\n' + writerCard,
    expect: { request: 'formatting', options: { tabSize: 4, insertSpaces: true }, after: '//- topology.dot\ndigraph g {\n    writer [card="writer@1.0.0"];\n}\n\n' },
  },
  {
    name: 'formatting a topology with a parse error gives no edit',
    fixture: topology('  $0code-builder   [card="writer@1.0.0"];') + writerCard,
    expect: { request: 'formatting', none: true },
  },
  {
    name: 'range formatting changes the lines of the range only',
    fixture: '//- topology.dot\ndigraph g {\n      writer [card="writer@1.0.0"];\n$0reviewer    [card="reviewer@1.0.0"];\n   writer   ->   reviewer;\n}\n' + cards,
    expect: {
      request: 'rangeFormatting',
      after: '//- topology.dot\ndigraph g {\n      writer [card="writer@1.0.0"];\n  reviewer [card="reviewer@1.0.0"];\n   writer   ->   reviewer;\n}\n',
    },
  },
  {
    name: 'renaming a node id keeps its run of node statements aligned',
    fixture: topology('  wri$0ter   [card="writer@1.0.0"];\n  reviewer [card="reviewer@1.0.0"];\n  writer -> reviewer;') + cards,
    expect: {
      request: 'rename',
      newName: 'draft_writer',
      after: topology('  draft_writer [card="writer@1.0.0"];\n  reviewer     [card="reviewer@1.0.0"];\n  draft_writer -> reviewer;'),
    },
  },
  {
    name: 'a quick fix writes the card a node lacks (a file created, then its text) and opens it',
    capabilities: showing,
    fixture: topology('  writer [card="writer@1.0.0"];\n  $0checker [label="Style check"];\n  writer -> checker;') + writerCard,
    expect: {
      request: 'codeAction',
      title: 'Create card `checker@1.0.0` in cards/checker@1.0.0.yaml',
      opens: { file: 'cards/checker@1.0.0.yaml' },
      after:
        topology('  writer [card="writer@1.0.0"];\n  checker [card="checker@1.0.0", label="Style check"];\n  writer -> checker;') +
        '//- cards/checker@1.0.0.yaml\nid: checker\nname: Style check\ntype: validation\naction: "TODO: one line saying what the node does"\nspec: "TODO: say what the step does."\ninputs:\n  - name: draft\n    type: markdown\noutputs: []\ndependencies: [writer]\nversion: 1.0.0\n\n',
    },
  },
  {
    name: 'a quick fix picks one of the bundle\'s cards: card="" written, completion asked between the quotes',
    capabilities: showing,
    fixture: topology('  writer [card="writer@1.0.0"];\n  $0checker;') + writerCard,
    expect: { request: 'codeAction', title: "Pin one of the bundle's cards…", opens: { file: 'topology.dot', suggest: true }, after: topology('  writer [card="writer@1.0.0"];\n  checker [card=""];') },
  },
  {
    name: 'a client that cannot open a place still gets the card written',
    fixture: topology('  $0checker;'),
    expect: {
      request: 'codeAction',
      title: 'Create card `checker@1.0.0` in cards/checker@1.0.0.yaml',
      after:
        topology('  checker [card="checker@1.0.0"];') +
        '//- cards/checker@1.0.0.yaml\nid: checker\nname: Checker\ntype: validation\naction: "TODO: one line saying what the node does"\nspec: "TODO: say what the step does."\ninputs: []\noutputs: []\nversion: 1.0.0\n\n',
    },
  },
  {
    name: 'a quick fix declares the ports an edge needs between cards that have none',
    fixture: topology('  writer [card="writer@1.0.0"];\n  reviewer [card="reviewer@1.0.0"];\n  $0writer -> reviewer [label="draft"];') + writer().replace(/outputs:\n  - name: draft\n    type: markdown\n/, 'outputs: []\n') + reviewerCard(),
    expect: {
      request: 'codeAction',
      title: 'Declare the ports: output `draft` (`markdown`) on `writer@1.0.0`',
      after: writer(),
    },
  },
];

describe('server: requests', function () {
  for (const c of cases) {
    it(c.name, async function () {
      await checkFeature(c);
    });
  }
});
