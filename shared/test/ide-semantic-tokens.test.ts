/**
 * Semantic tokens. Each case: a fixture whose first file (or the `$0` cursor's file) is the one
 * asked about, with every expected token marked under its line (support/marks.ts) as
 * `type.modifier…`; nothing unmarked may get a token. A case with a `range` asks for the tokens
 * of those lines only (0-based, end excluded).
 */
import assert from 'node:assert/strict';
import { semanticTokens } from '../src/ide';
import { lineIndex } from '../src/text';
import { card } from './support/ide';
import { loadMarked, renderMarks } from './support/marks';

interface Case {
  readonly source: string;
  readonly lines?: readonly [number, number];
}

function check(c: Case): void {
  const { fixture, marks, bundle, file } = loadMarked(c.source);
  const text = bundle.files.get(file)!.text;
  const index = lineIndex(text);
  const span = c.lines === undefined ? undefined : { start: index.offsetAt({ line: c.lines[0], character: 0 }), end: index.offsetAt({ line: c.lines[1], character: 0 }) };
  const got = semanticTokens(bundle, file, span).map((t) => ({ file, start: t.start, end: t.end, label: [t.type, ...t.modifiers].join('.') }));
  assert.deepEqual(renderMarks(fixture, got), renderMarks(fixture, marks));
  for (let i = 1; i < got.length; i++) assert.ok(got[i - 1].end <= got[i].start, 'tokens are sorted and never overlap');
}

const cards = `
//- cards/writer@1.0.0.yaml
${card({ id: 'writer', outputs: [['draft', 'markdown']] })}
//- cards/editor@1.0.0.yaml
${card({ id: 'editor', inputs: [['draft', 'markdown']], dependencies: ['writer'] })}`;

const topology = `//- topology.dot
digraph g {
  rankdir=LR; label="release";
//^^^^^^^ unknownAttribute
//            ^^^^^ attractorAttribute
  node [shape=box, card="writer@1.0.0"];
//      ^^^^^ attractorAttribute
//                 ^^^^ darkprintAttribute
//                       ^^^^^^ card
//                              ^^^^^ cardVersion
  // writer -> editor in a comment
  writer [label="writer", bogus=1];
//^^^^^^ node.declaration
//        ^^^^^ attractorAttribute
//                        ^^^^^ unknownAttribute
  editor [card="editor@1.0.0"];
//^^^^^^ node.declaration
//        ^^^^ darkprintAttribute
//              ^^^^^^ card
//                     ^^^^^ cardVersion
  ghost [card="ghost@2.0.0", shape=box];
//^^^^^ node.declaration.unresolved
//       ^^^^ darkprintAttribute
//             ^^^^^ card.unresolved
//                   ^^^^^ cardVersion.unresolved
//                           ^^^^^ attractorAttribute
  writer -> editor [out="draft", in=draft, weight=2, shape=box];
//^^^^^^ node
//          ^^^^^^ node
//                  ^^^ darkprintAttribute
//                       ^^^^^ port
//                               ^^ darkprintAttribute
//                                  ^^^^^ port
//                                         ^^^^^^ attractorAttribute
//                                                   ^^^^^ unknownAttribute
  editor -> ghost;
//^^^^^^ node
//          ^^^^^ node.unresolved
  old [version="1.0.0"];
//^^^ node.declaration
//     ^^^^^^^ darkprintAttribute
//              ^^^^^ cardVersion
}${cards}`;

const cases: Record<string, Case> = {
  'a topology: node ids, pins, ports and attribute names by who reads them': { source: topology },
  'a range holds only the tokens of its lines': {
    source: topology.replace(/\n\/\/[^\n]*\^[^\n]*/g, '').replace('  ghost [card="ghost@2.0.0", shape=box];', `  ghost [card="ghost@2.0.0", shape=box];
//^^^^^ node.declaration.unresolved
//       ^^^^ darkprintAttribute
//             ^^^^^ card.unresolved
//                   ^^^^^ cardVersion.unresolved
//                           ^^^^^ attractorAttribute`),
    lines: [6, 7],
  },
  'a range that starts inside an attribute list still reads its scope': {
    source: `//- topology.dot
digraph g {
  writer [
    card="writer@1.0.0",
//  ^^^^ darkprintAttribute
//        ^^^^^^ card
//               ^^^^^ cardVersion
    shape=box
//  ^^^^^ attractorAttribute
  ];
}${cards}`,
    lines: [2, 4],
  },
  'a card: terms by their kind (an unknown one gets none), its id, port names and dependencies': {
    source: `//- cards/editor@1.0.0.yaml
id: editor
#   ^^^^^^ card.declaration
name: agent
type: agent
#     ^^^^^ nodeType
phase: implementation
#      ^^^^^^^^^^^^^^ phase
action: act
spec: Edits the markdown draft with git, and nothing else, before it goes on.
tools: [git, web-search, no-such-tool]
#       ^^^ tool
#            ^^^^^^^^^^ tool
inputs:
  - name: draft
#         ^^^^^ port.declaration
    type: markdown
#         ^^^^^^^^ dataType
outputs: []
risk_markers: [irreversible-action]
#              ^^^^^^^^^^^^^^^^^^^ riskMarker
dependencies: [writer]
#              ^^^^^^ card
version: 1.0.0
//- topology.dot
digraph g { editor [card="editor@1.0.0"]; }`,
  },
  'a local term is declared by its kind, and broader names its term': {
    source: `//- ontology/extensions.yaml
terms:
  - id: acme/reviewer
#       ^^^^^^^^^^^^^ nodeType.declaration
    kind: node-type
    label: Reviewer
    description: Reads a change and comments on it.
    since: "0.1.0"
    broader: agent
#            ^^^^^ nodeType`,
  },
  'a word recovery reads twice (a port named, then the key of a broken attribute) gets one token': {
    source: `//- topology.dot
digraph g {
  a -> b [in=outcome="prose"];
//^ node.unresolved
//     ^ node.unresolved
//        ^^ darkprintAttribute
//           ^^^^^^^ port
}`,
  },
};

describe('ide: semantic tokens', function () {
  for (const [name, c] of Object.entries(cases)) it(name, () => check(c));
});
