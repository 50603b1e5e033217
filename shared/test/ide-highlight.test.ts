/**
 * Document highlight. Each case: a fixture with a `$0` cursor and every expected highlight marked
 * under its line (support/marks.ts) with its kind, `write` or `read`; a case with no mark expects
 * none. The same words in comments, labels, specs and other ids are never marked.
 */
import assert from 'node:assert/strict';
import { documentHighlights } from '../src/ide';
import { card } from './support/ide';
import { loadMarked, renderMarks } from './support/marks';

function check(source: string): void {
  const { fixture, marks, bundle, file, offset } = loadMarked(source);
  const got = documentHighlights(bundle, file, offset).map((h) => ({ file, start: h.span.start, end: h.span.end, label: h.kind }));
  assert.deepEqual(renderMarks(fixture, got), renderMarks(fixture, marks));
}

const cards = `
//- cards/writer@1.0.0.yaml
${card({ id: 'writer', outputs: [['draft', 'markdown']], extra: ['tools: [git]'] })}
//- cards/editor@1.0.0.yaml
${card({ id: 'editor', inputs: [['draft', 'markdown']], outputs: [['draft', 'markdown']], dependencies: ['writer'] })}`;

const cases: Record<string, string> = {
  'a node id: its statements write, its edge endpoints read; comments, labels and other ids are not lit': `
//- topology.dot
digraph g {
  // writer drafts; writer -> editor is the main edge
  wri$0ter [card="writer@1.0.0", label="writer"];
//^^^^^^ write
  co_writer [label="the writer's twin"];
  editor [card="editor@1.0.0", tooltip="writer"];
  writer -> editor [label="writer to editor"];
//^^^^^^ read
  /* writer */ co_writer -> writer;
//                          ^^^^^^ read
  writer [color=red]; // writer again
//^^^^^^ write
}${cards}`,
  'a node id in an edge lights the same places': `
//- topology.dot
digraph g {
  writer [card="writer@1.0.0"];
  editor [card="editor@1.0.0"];
//^^^^^^ write
  writer -> edi$0tor;
//          ^^^^^^ read
  editor -> writer;
//^^^^^^ read
}${cards}`,
  'a pin lights every pin of the card (the id in card=, also through a default)': `
//- topology.dot
digraph g {
  w1 [card="wri$0ter@1.0.0"];
//          ^^^^^^ read
  w2 [card="writer@1.0.0", label="writer@1.0.0"];
//          ^^^^^^ read
  subgraph s { node [card="writer@1.0.0"]; w3; w4; }
//                         ^^^^^^ read
  e [card="editor@1.0.0"];
}${cards}`,
  'an out= value lights the edge lists naming the same output of the same card': `
//- topology.dot
digraph g {
  w1 [card="writer@1.0.0"];
  w2 [card="writer@1.0.0"];
  e [card="editor@1.0.0"];
  w1 -> e [out="dr$0aft"];
//              ^^^^^ read
  w2 -> e [out=draft];
//             ^^^^^ read
  e -> w1 [out="draft", in="draft"];
}${cards}`,
  'a term in a card lights the term fields naming it, not the spec': `
//- topology.dot
digraph g { writer [card="writer@1.0.0"]; }
//- cards/writer@1.0.0.yaml
id: writer
name: writer
type: agent
action: act
spec: Writes the markdown draft from the brief; markdown only.
inputs:
  - name: brief
    type: mark$0down
#         ^^^^^^^^ read
outputs:
  - name: markdown
    type: markdown
#         ^^^^^^^^ read
version: 1.0.0`,
  'a dependency entry lights its twins only': `
//- topology.dot
digraph g { editor [card="editor@1.0.0"]; }
//- cards/editor@1.0.0.yaml
id: editor
name: writer's editor
type: agent
action: act
spec: Edits what the writer drafts and hands it on to the next step.
inputs: []
outputs: []
dependencies: [wri$0ter]
#              ^^^^^^ read
version: 1.0.0`,
  'a term id in the extensions file is written there and read by broader': `
//- ontology/extensions.yaml
terms:
  - id: acme/revi$0ewer
#       ^^^^^^^^^^^^^ write
    kind: node-type
    label: acme/reviewer
    description: Reads a change; acme/reviewer comments on it.
    since: "0.1.0"
    broader: agent
  - id: acme/lead
    kind: node-type
    label: Lead reviewer
    description: Reviews the reviewers.
    since: "0.1.0"
    broader: acme/reviewer
#            ^^^^^^^^^^^^^ read`,
  'a comment is no occurrence': `
//- topology.dot
digraph g {
  // wri$0ter
  writer [card="writer@1.0.0"];
}${cards}`,
  'a label is no occurrence': `
//- topology.dot
digraph g {
  writer [card="writer@1.0.0", label="wri$0ter"];
}${cards}`,
};

describe('ide: document highlight', function () {
  for (const [name, source] of Object.entries(cases)) it(name, () => check(source));
});
