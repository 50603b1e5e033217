/**
 * Inlay hints. Each case: a topology with every expected hint marked by one caret where it is
 * shown (at or past the end of its line for a hint at the end) and its label (support/marks.ts);
 * `options` turns kinds off, `lines` asks for those lines only (0-based, end excluded).
 */
import assert from 'node:assert/strict';
import { inlayHints, type InlayHintOptions } from '../src/ide';
import { lineIndex } from '../src/text';
import { card } from './support/ide';
import { loadMarked, renderMarks } from './support/marks';

interface Case {
  readonly source: string;
  readonly options?: InlayHintOptions;
  readonly lines?: readonly [number, number];
}

function check(c: Case): void {
  const { fixture, marks, bundle, file } = loadMarked(c.source);
  const text = bundle.files.get(file)!.text;
  const index = lineIndex(text);
  const span = c.lines === undefined ? { start: 0, end: text.length } : { start: index.offsetAt({ line: c.lines[0], character: 0 }), end: index.offsetAt({ line: c.lines[1], character: 0 }) };
  const got = inlayHints(bundle, file, span, c.options).map((h) => ({ file, start: h.offset, end: h.offset, label: h.label }));
  assert.deepEqual(renderMarks(fixture, got), renderMarks(fixture, marks.map((m) => ({ ...m, end: m.start }))));
}

const cards = `
//- cards/writer@1.0.0.yaml
${card({ id: 'writer', outputs: [['draft', 'markdown']], extra: ['phase: [planning, implementation]'] })}
//- cards/editor@1.0.0.yaml
${card({ id: 'editor', type: 'validation', inputs: [['draft', 'markdown']], outputs: [['notes', 'text']], dependencies: ['writer'] })}
//- cards/reader@1.0.0.yaml
${card({ id: 'reader', inputs: [['remarks', 'text']], dependencies: ['editor'] })}`;

const topology = `//- topology.dot
digraph g {
  writer [card="writer@1.0.0"];
//                             ^ agent · planning, implementation
  editor [card="editor@1.0.0"]
//                            ^ validation
  reader [card="reader@1.0.0"];
//                             ^ agent
  ghost [card="ghost@1.0.0"];
  writer -> editor;
//                 ^ draft: markdown
  editor -> reader [label="notes"];
//                                 ^ notes: text → remarks
  writer -> ghost;
}${cards}`;

const cases: Record<string, Case> = {
  'a node gets its card’s type and phases, an edge the ports and type it carries': { source: topology },
  'the node hints turned off': { source: topology.replace(/\n\/\/ +\^ (agent|validation)[^\n]*/g, ''), options: { nodeCards: false, edgeTypes: true } },
  'the edge hints turned off': { source: topology.replace(/\n\/\/ +\^ [a-z]+: [^\n]*/g, ''), options: { nodeCards: true, edgeTypes: false } },
  'only the lines asked for': { source: topology.replace(/\n\/\/ +\^ (agent ·|validation|agent$|draft)[^\n]*/gm, ''), lines: [6, 8] },
  'a chain hints each link after its own target; a pin written in a later statement gets the hint there': {
    source: `//- topology.dot
digraph g {
  writer;
  writer [card="writer@1.0.0"];
//                             ^ agent · planning, implementation
  editor [card="editor@1.0.0"]; reader [card="reader@1.0.0"];
//                             ^ validation
//                                                           ^ agent
  writer -> editor -> reader;
//                ^ draft: markdown
//                          ^ notes: text → remarks
}${cards}`,
  },
};

describe('ide: inlay hints', function () {
  for (const [name, c] of Object.entries(cases)) it(name, () => check(c));

  it('asked a line at a time, the hints of every line, as asked for the whole file', function () {
    const { bundle, file } = loadMarked(cases['a chain hints each link after its own target; a pin written in a later statement gets the hint there'].source);
    const text = bundle.files.get(file)!.text;
    const whole = inlayHints(bundle, file, { start: 0, end: text.length });
    const byLine = [];
    // (a line's span runs up to its line break; a hint at the end of the line is the line's)
    for (let start = 0; start <= text.length; ) {
      const breakAt = text.indexOf('\n', start);
      const end = breakAt < 0 ? text.length : breakAt;
      byLine.push(...inlayHints(bundle, file, { start, end }));
      start = end + 1;
    }
    assert.ok(whole.length >= 4, 'the fixture has hints of both kinds');
    assert.deepEqual(byLine, whole);
  });
});
