/**
 * Formatting of a topology: each case is a topology as written and as the formatter writes it
 * (the whole document, or the lines of `lines`, 1-based and inclusive). Every case is also
 * formatted again from its result, which must give no edit (the formatter is idempotent); a case
 * without `expected` must give no edit at all.
 */
import assert from 'node:assert/strict';
import { loadBundle } from '../src/bundle/resolve';
import { applyTextEdits, formatDocument, formatRange, type FormatOptions, type IdeBundle } from '../src/ide';
import { lineIndex } from '../src/text';

interface FormatCase {
  readonly text: string;
  /** The text once formatted; omitted when no edit is expected. */
  readonly expected?: string;
  /** Format only these lines (1-based, inclusive). */
  readonly lines?: readonly [number, number];
  readonly options?: FormatOptions;
}

function bundleOf(text: string): IdeBundle {
  const files = [{ path: 'topology.dot', text }];
  return { files: new Map(files.map((f) => [f.path, f] as const)), result: loadBundle(files, { folderName: 'fixture' }) };
}

function checkFormat(c: FormatCase): void {
  const bundle = bundleOf(c.text);
  let edits;
  if (c.lines !== undefined) {
    const index = lineIndex(c.text);
    const start = index.offsetAt({ line: c.lines[0] - 1, character: 0 });
    // (whole lines, as an editor selects them: up to the start of the next line)
    const end = index.offsetAt({ line: c.lines[1], character: 0 });
    edits = formatRange(bundle, 'topology.dot', { start, end }, c.options);
  } else {
    edits = formatDocument(bundle, 'topology.dot', c.options);
  }
  if (c.expected === undefined) {
    assert.deepEqual(edits, [], 'no edit');
    return;
  }
  const formatted = applyTextEdits(c.text, edits);
  assert.equal(formatted, c.expected);
  for (const e of edits) assert.ok(/^[\s\ufeff]*$/.test(e.newText) && /^[\s\ufeff]*$/.test(c.text.slice(e.span.start, e.span.end)), `an edit changes only blanks: ${JSON.stringify(e)}`);
  if (c.lines === undefined) assert.deepEqual(formatDocument(bundleOf(formatted), 'topology.dot', c.options), [], 'formatting the result again changes nothing');
}

const cases: Record<string, FormatCase> = {
  'the example bundle is written in the formatter style already': {
    text: `digraph release_line {
  rankdir=LR;
  node [shape=box, style=rounded];

  request_intake    [card="request-intake@1.0.0"];
  release_publisher [card="release-publisher@1.0.0"];

  request_intake -> release_publisher [label="go", condition="outcome=success"];
}
`,
  },
  'indentation, one statement per line, lists and edges spaced one way, a run of node statements aligned': {
    text: `digraph   g{rankdir = LR;node[shape=box,style=rounded]
a[card="a@1.0.0"] bbb [card="b@1.0.0" , label="x"];
      a->bbb->c[label = "l"]
}`,
    expected: `digraph g {
  rankdir=LR;
  node [shape=box, style=rounded]
  a   [card="a@1.0.0"]
  bbb [card="b@1.0.0", label="x"];
  a -> bbb -> c [label="l"]
}
`,
  },
  'a blank line or a comment line ends a run; an edge or a bare node statement too': {
    text: `digraph g {
  a [x=1];
  longer_id [x=2];

  b [x=3];
  // about c
  cc [x=4];
  b -> cc;
  dddd [x=5];
  e;
  f [x=6];
}
`,
    expected: `digraph g {
  a         [x=1];
  longer_id [x=2];

  b [x=3];
  // about c
  cc [x=4];
  b -> cc;
  dddd [x=5];
  e;
  f [x=6];
}
`,
  },
  'comments stay where they were: after their token on its line, or on a line of their own': {
    text: `// before the graph
digraph g { // after the brace
a [x=1]   // after a statement
      /* a block of its own */
b -> /* inline */ c
  # a hash comment
c -> // in the middle of an edge
 d [label="x"]
    // before the closing brace
}
// after the graph
`,
    expected: `// before the graph
digraph g { // after the brace
  a [x=1] // after a statement
  /* a block of its own */
  b -> /* inline */ c
  # a hash comment
  c -> // in the middle of an edge
    d [label="x"]
  // before the closing brace
}
// after the graph
`,
  },
  'blank lines: one kept where there were several, none after { or before }': {
    text: `digraph g {

  a;



  b;

}
`,
    expected: `digraph g {
  a;

  b;
}
`,
  },
  'separators are kept as written (a ; or a space in a list is for the quick fixes to change)': {
    text: `digraph g {
  a [x=1;y=2 z=3];
  b [p=1,q=2]
}
`,
    expected: `digraph g {
  a [x=1; y=2 z=3];
  b [p=1, q=2]
}
`,
  },
  'a subgraph on one line stays on one line; one over several lines gets a line per statement': {
    text: `digraph g {
  {a b} -> { c };
  subgraph cluster_one { rank=same; x; y }
  subgraph cluster_two {
  p [x=1]; qq [x=2]
  subgraph inner {
  r
  }
  }
  s -> {}
}
`,
    expected: `digraph g {
  {a b} -> {c};
  subgraph cluster_one {rank=same; x; y}
  subgraph cluster_two {
    p  [x=1];
    qq [x=2]
    subgraph inner {
      r
    }
  }
  s -> {}
}
`,
  },
  'strings across lines, + concatenation, ports and HTML-like values are written as they were': {
    text: `digraph g {
  a:p:n->b [label="two
lines",  tooltip="x"+"y"]
  c [label=<b>]
}
`,
    expected: `digraph g {
  a:p:n -> b [label="two
lines", tooltip="x" + "y"]
  c [label=<b>]
}
`,
  },
  'a glued step-1 stays glued (it reads as two nodes, and a quick fix writes the one meant)': {
    text: `digraph g {
step-1 -> b
}
`,
    expected: `digraph g {
  step-1 -> b
}
`,
  },
  'text after the graph, which nothing reads, is left as it is': {
    text: `digraph g {
a
}  digraph   h { b }
`,
    expected: `digraph g {
  a
}  digraph   h { b }
`,
  },
  'a parse error gives no edit': {
    text: `digraph g {
   code-builder [card="a@1.0.0"]
}
`,
  },
  'an unclosed graph gives no edit': {
    text: `digraph g {
   a -> b
`,
  },
  'a strict graph with a quoted name; CRLF line breaks stay CRLF': {
    text: 'strict   digraph "my graph"{\r\n a;\r\n\r\n\r\n b\r\n}',
    expected: 'strict digraph "my graph" {\r\n  a;\r\n\r\n  b\r\n}\r\n',
  },
  'the indentation unit the editor asks for': {
    text: `digraph g {
a [x=1]; bb [x=2]
subgraph s {
c
}
}
`,
    options: { indent: '\t' },
    expected: `digraph g {
\ta  [x=1];
\tbb [x=2]
\tsubgraph s {
\t\tc
\t}
}
`,
  },
  'a range formats the lines it touches, and a run it reaches is aligned as a whole': {
    text: `digraph g {
     a [x=1];
     bbbb [x=2];
  c   ->   d;
     e   ->   f;
}
`,
    lines: [3, 4],
    expected: `digraph g {
     a [x=1];
  bbbb [x=2];
  c -> d;
     e   ->   f;
}
`,
  },
};

describe('ide: formatting', () => {
  for (const [name, c] of Object.entries(cases)) it(name, () => checkFormat(c));
});
