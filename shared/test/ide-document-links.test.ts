/**
 * Document links. Each case: the file asked about (the first of the fixture) with every expected
 * link marked under the text it covers (support/marks.ts), labelled with the card file it opens.
 */
import assert from 'node:assert/strict';
import { documentLinks } from '../src/ide';
import { card } from './support/ide';
import { loadMarked, renderMarks } from './support/marks';

function check(source: string): void {
  const { fixture, marks, bundle, file } = loadMarked(source);
  const got = documentLinks(bundle, file).map((l) => ({ file, start: l.span.start, end: l.span.end, label: l.target }));
  assert.deepEqual(renderMarks(fixture, got), renderMarks(fixture, marks));
}

const cards = `
//- cards/writer@1.0.0.yaml
${card({ id: 'writer', outputs: [['draft', 'markdown']] })}
//- cards/writer@2.0.0.yaml
${card({ id: 'writer', version: '2.0.0', outputs: [['draft', 'markdown']] })}
//- cards/editor@1.0.0.yaml
${card({ id: 'editor', inputs: [['draft', 'markdown']], dependencies: ['writer', 'ghost'] })}`;

const cases: Record<string, string> = {
  'a topology links each pin that names a card of the bundle, once per written place': `//- topology.dot
digraph g {
  writer [card="writer@1.0.0", label="writer@2.0.0"];
//              ^^^^^^^^^^^^ cards/writer@1.0.0.yaml
  ghost [card="ghost@1.0.0"];
  subgraph s { node [card="writer@2.0.0"]; w2; w3; }
//                         ^^^^^^^^^^^^ cards/writer@2.0.0.yaml
  editor [version="1.0.0"];
//                 ^^^^^ cards/editor@1.0.0.yaml
}${cards}`,
  'a card links its dependencies to the version the topology pins, else the newest': `//- cards/editor@1.0.0.yaml
${card({ id: 'editor', inputs: [['draft', 'markdown']], dependencies: ['writer', 'ghost'] }).replace('dependencies: [writer, ghost]', 'dependencies:\n  - writer\n#   ^^^^^^ cards/writer@1.0.0.yaml\n  - ghost')}
//- cards/writer@1.0.0.yaml
${card({ id: 'writer', outputs: [['draft', 'markdown']] })}
//- cards/writer@2.0.0.yaml
${card({ id: 'writer', version: '2.0.0', outputs: [['draft', 'markdown']] })}
//- topology.dot
digraph g { writer [card="writer@1.0.0"]; editor [card="editor@1.0.0"]; writer -> editor; }`,
  'with no pin to go by, the newest version': `//- cards/editor@1.0.0.yaml
${card({ id: 'editor', inputs: [['draft', 'markdown']], dependencies: ['writer'] }).replace('dependencies: [writer]', 'dependencies: ["writer"]\n#               ^^^^^^ cards/writer@2.0.0.yaml')}
//- cards/writer@1.0.0.yaml
${card({ id: 'writer', outputs: [['draft', 'markdown']] })}
//- cards/writer@2.0.0.yaml
${card({ id: 'writer', version: '2.0.0', outputs: [['draft', 'markdown']] })}`,
};

describe('ide: document links', function () {
  for (const [name, source] of Object.entries(cases)) it(name, () => check(source));
});
