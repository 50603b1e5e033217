/**
 * Code lenses. Each case: the file asked about (the `$0` cursor's, else the first) with every
 * expected lens marked under the text it stands on (support/marks.ts), labelled with its title
 * and what clicking it does: `→ report`, `→ show <file>`, `→ list <path:line text>, …`, or
 * nothing for a lens that is only read.
 */
import assert from 'node:assert/strict';
import { codeLenses, type LensAction } from '../src/ide';
import { lineIndex } from '../src/text';
import { card } from './support/ide';
import { loadMarked, renderMarks } from './support/marks';

function check(source: string): void {
  const { fixture, marks, bundle, file } = loadMarked(source);
  const place = (f: string, start: number, end: number): string => {
    const text = bundle.files.get(f)?.text ?? '';
    return `${f}:${lineIndex(text).positionAt(start).line + 1} ${text.slice(start, end)}`;
  };
  const action = (a: LensAction | undefined): string => {
    if (a === undefined) return '';
    switch (a.kind) {
      case 'report':
        return ' → report';
      case 'show':
        return ` → show ${a.target.file}`;
      case 'list':
        return ` → list ${a.places.map((p) => place(p.file, p.span.start, p.span.end)).join(', ')}`;
    }
  };
  const got = codeLenses(bundle, file).map((l) => ({ file, start: l.span.start, end: l.span.end, label: `${l.title}${action(l.action)}` }));
  assert.deepEqual(renderMarks(fixture, got), renderMarks(fixture, marks));
}

const writer = card({ id: 'writer', outputs: [['draft', 'markdown']], extra: ['phase: implementation'] });
const publisher = card({ id: 'publisher', type: 'tool', inputs: [['draft', 'markdown']], dependencies: ['writer'], extra: ['phase: deployment', 'risk_markers: [irreversible-action]'] });

const cases: Record<string, string> = {
  'a topology: the bundle on the graph keyword, each node’s card and its share of the penalty': `//- topology.dot
digraph g {
//[0,7) security 3/4 · autonomy 3 Conditional · phases 2/5 → report
  writer [card="writer@1.0.0"];
//^^^^^^ writer@1.0.0 · agent → show cards/writer@1.0.0.yaml
  p1 [card="publisher@1.0.0"];
//^^ publisher@1.0.0 · tool → show cards/publisher@1.0.0.yaml
//^^ security −0.75 (irreversible-action) → report
  p2 [card="publisher@1.0.0"];
//^^ publisher@1.0.0 · tool → show cards/publisher@1.0.0.yaml
//^^ security −0.75 (irreversible-action) → report
  ghost [card="ghost@1.0.0"];
  writer -> p1;
  writer -> p2;
  writer -> ghost;
}
//- cards/writer@1.0.0.yaml
${writer}
//- cards/publisher@1.0.0.yaml
${publisher}`,
  'a card: the nodes that pin it, listed': `//- cards/publisher@1.0.0.yaml
${publisher.replace('id: publisher', 'id: publisher\n#   ^^^^^^^^^ pinned by 2 nodes → list topology.dot:3 p1, topology.dot:4 p2')}
//- topology.dot
digraph g {
  writer [card="writer@1.0.0"];
  p1 [card="publisher@1.0.0"];
  p2 [card="publisher@1.0.0"];
  writer -> p1;
  writer -> p2;
}
//- cards/writer@1.0.0.yaml
${writer}`,
  'a card no node pins says so': `//- cards/writer@1.0.0.yaml
${writer.replace('id: writer', 'id: writer\n#   ^^^^^^ pinned by no node')}
//- topology.dot
digraph g { other [card="other@1.0.0"]; }`,
};

describe('ide: code lens', function () {
  for (const [name, source] of Object.entries(cases)) it(name, () => check(source));
});
