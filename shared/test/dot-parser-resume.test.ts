/**
 * `parseDot(text, file, previous)` starts after the top-level statements `text` shares with
 * `previous` (see `resumeAt` in ../src/syntax/dot-resume.ts). Its result must be the one a parse
 * from the beginning gives, and `previous` must not change. A property test holds the two
 * together over random topologies and random edits; the table below checks where a parse does
 * reuse the earlier nodes (the same objects) and where it must start over.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { dotParseReuse, dotParseSerial, parseDot, type DotTaken } from '../src/syntax/dot-parser';
import { nodeOccurrences } from '../src/syntax/dot-mentions';
import type { DotAttributes, DotGraph, DotParseResult, DotToken } from '../src/syntax/dot-model';

/** Everything a parse hands out, as plain data (attribute maps as entry lists, in order). */
function plain(result: DotParseResult): unknown {
  const attrs = (map: DotAttributes): unknown => [...map.entries()];
  const graph = (g: DotGraph | undefined): unknown =>
    g === undefined
      ? undefined
      : {
          ...g,
          graphAttrs: attrs(g.graphAttrs),
          nodes: g.nodes.map((n) => ({ ...n, attrs: attrs(n.attrs) })),
          edges: g.edges.map((e) => ({ ...e, attrs: attrs(e.attrs) })),
        };
  const table = result.table;
  return {
    graph: graph(result.graph),
    diagnostics: result.diagnostics,
    trailing: result.trailing,
    table: { count: table.count, kinds: [...table.kinds], starts: [...table.starts], ends: [...table.ends], values: [...table.values], flags: [...table.flags], comments: table.comments },
    tokens: result.tokens,
  };
}

/**
 * Checks what a parse says it took from `previous` (`DotTaken`): the earlier nodes and edges from
 * the indexes it names on are its own from its indexes on, in order, read the same `delta` further
 * on (the memos of the engine rely on this and read none of them again).
 */
function checkTaken(previous: DotParseResult, resumed: DotParseResult, taken: DotTaken): void {
  assert.equal(taken.from, dotParseSerial(previous));
  const moved = (span: { start: number; end: number }): unknown => ({ start: span.start + taken.delta, end: span.end + taken.delta });
  // (a default set before the text read anew stays where it is; the statement's own attributes move)
  const movedAttrs = (map: DotAttributes, now: DotAttributes): unknown =>
    [...map.entries()].map(([k, a]) => [k, a.fromDefault && now.get(k)?.keySpan.start === a.keySpan.start ? a : { ...a, keySpan: moved(a.keySpan), valueSpan: moved(a.valueSpan) }]);
  const before = previous.graph!;
  const after = resumed.graph!;
  assert.equal(after.nodes.length - taken.nodes, before.nodes.length - taken.earlierNodes);
  assert.equal(after.edges.length - taken.edges, before.edges.length - taken.earlierEdges);
  for (let k = 0; taken.nodes + k < after.nodes.length; k++) {
    const now = after.nodes[taken.nodes + k];
    const then = before.nodes[taken.earlierNodes + k];
    assert.equal(now.id, then.id);
    assert.deepStrictEqual(now.span, moved(then.span));
    assert.deepStrictEqual([...now.attrs.entries()], movedAttrs(then.attrs, now.attrs));
  }
  for (let k = 0; taken.edges + k < after.edges.length; k++) {
    const now = after.edges[taken.edges + k];
    const then = before.edges[taken.earlierEdges + k];
    assert.deepStrictEqual([now.source, now.target, now.span], [then.source, then.target, moved(then.span)]);
    assert.deepStrictEqual([...now.attrs.entries()], movedAttrs(then.attrs, now.attrs));
  }
}

/** Parses `after` from `before`'s parse and from the beginning, and checks they agree and that `before`'s parse is untouched. */
function checkResume(before: string, after: string): { resumed: DotParseResult; previous: DotParseResult } {
  const previous = parseDot(before);
  const snapshot = plain(previous);
  const resumed = parseDot(after, 'topology.dot', previous);
  assert.deepStrictEqual(plain(resumed), plain(parseDot(after)), `resumed parse differs for:\n--- before\n${before}\n--- after\n${after}`);
  assert.deepStrictEqual(plain(previous), snapshot, 'the earlier parse changed');
  return { resumed, previous };
}

// ---- random topologies ----------------------------------------------------------------------

const ids = ['a', 'b', 'c', 'd', 'e', '"q r"', 'n1'];
const statement = fc.oneof(
  fc.tuple(fc.constantFrom(...ids), fc.constantFrom('', ' [card="x@1.0.0"]', ' [label="L", shape=box]', ' [card="y@2.0.0", label="a\\"b"]')).map(([id, list]) => `${id}${list};`),
  fc.tuple(fc.constantFrom(...ids), fc.constantFrom(...ids), fc.constantFrom('', ' [label="go"]', ' [condition="outcome=success", weight=2]')).map(([s, t, list]) => `${s} -> ${t}${list}`),
  fc.tuple(fc.constantFrom(...ids), fc.constantFrom(...ids), fc.constantFrom(...ids)).map(([s, t, u]) => `${s} -> ${t} -> ${u};`),
  fc.constantFrom('node [shape=box];', 'edge [style=dashed]', 'rankdir=LR;', 'graph [label="g"];', '// a comment', '# another', '/* block */'),
  fc.tuple(fc.constantFrom('cluster_1', 'cluster_2'), fc.constantFrom(...ids), fc.constantFrom(...ids)).map(([name, s, t]) => `subgraph ${name} { label="u"; ${s} [card="z@1.0.0"]; ${t}; }`),
  fc.tuple(fc.constantFrom(...ids), fc.constantFrom(...ids)).map(([s, t]) => `{ ${s} ${t} } -> ${s};`),
);
const topology = fc.array(statement, { minLength: 1, maxLength: 14 }).map((lines) => `digraph g {\n${lines.map((l) => `  ${l}\n`).join('')}}\n`);

/** An edit: at a fraction of the text, delete some characters and insert a piece. */
const pieces = ['', ' ', '\n', ';', '}', '{', '[', ']', '"', '->', '=', 'x', 'a', 'b -> c', 'node [color=red]', 'strict', 'a [card="k@1.0.0"]', '/*', '#', 'subgraph s {', 'bench_extra [card="missing-card@1.0.0"];\n'];
const edit = fc.record({ at: fc.double({ min: 0, max: 1, noNaN: true }), remove: fc.nat({ max: 6 }), insert: fc.constantFrom(...pieces) });
function applyEdit(text: string, e: { at: number; remove: number; insert: string }): string {
  const at = Math.floor(e.at * text.length);
  return text.slice(0, at) + e.insert + text.slice(at + e.remove);
}

// ---- clean topologies, edited line by line (the parse can take the end of the earlier one) ----

const cleanIds = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'm', 'n', '"q r"'];
const declaration = fc.oneof(
  fc.tuple(fc.constantFrom(...cleanIds), fc.constantFrom('', ' [card="x@1.0.0"]', ' [label="L"]', ' [label="M", shape=box]')).map(([id, list]) => `${id}${list};`),
  fc.constantFrom('node [shape=box];', 'edge [style=dashed];', '// a comment', '/* a block */'),
  fc.tuple(fc.constantFrom('cluster_1', 'cluster_2'), fc.constantFrom(...cleanIds), fc.constantFrom(...cleanIds)).map(
    ([name, s, t]) => `subgraph ${name} { label="unit"; node [color=red]; ${s} [card="z@1.0.0"]; ${t}; }`,
  ),
);
const connection = fc.oneof(
  fc.tuple(fc.constantFrom(...cleanIds), fc.constantFrom(...cleanIds), fc.constantFrom('', ' [label="go"]')).map(([s, t, list]) => `${s} -> ${t}${list};`),
  fc.tuple(fc.constantFrom(...cleanIds), fc.constantFrom(...cleanIds), fc.constantFrom(...cleanIds)).map(([s, t, u]) => `${s} -> ${t} -> ${u}`),
  fc.tuple(fc.constantFrom(...cleanIds), fc.constantFrom(...cleanIds)).map(([s, t]) => `{ ${s} ${t} } -> ${s};`),
);
const cleanStatement = fc.oneof(declaration, connection);
/** Declarations first, then edges, as generated and hand-written topologies are laid out. */
const cleanTopology = fc.tuple(fc.array(declaration, { minLength: 3, maxLength: 10 }), fc.array(connection, { minLength: 2, maxLength: 8 })).map(([d, c]) => [...d, ...c]);
function wrap(lines: readonly string[]): string {
  return `digraph g {\n${lines.map((l) => `  ${l}\n`).join('')}}\n`;
}
/** An edit of one line: replaced, added or dropped, or text typed inside its first quoted value. */
const lineEdit = fc.record({
  kind: fc.constantFrom('replace', 'insert', 'delete', 'type'),
  at: fc.nat({ max: 1000 }),
  line: cleanStatement,
  typed: fc.constantFrom('x', ' (edited)'),
});
function applyLineEdit(lines: readonly string[], e: { kind: string; at: number; line: string; typed: string }): string[] {
  const out = lines.slice();
  const at = e.at % out.length;
  switch (e.kind) {
    case 'replace':
      out[at] = e.line;
      break;
    case 'insert':
      out.splice(at, 0, e.line);
      break;
    case 'delete':
      if (out.length > 1) out.splice(at, 1);
      break;
    default: {
      // into the first line from `at` on that has a quoted value
      const line = out.findIndex((l, k) => k >= at && l.includes('"'));
      if (line >= 0) out[line] = out[line].replace('"', `"${e.typed}`);
    }
  }
  return out;
}

describe('DOT parser: resuming from an earlier parse', () => {
  it('gives the result of a parse from the beginning, for any edit of any topology', () => {
    fc.assert(
      fc.property(topology, edit, (text, e) => {
        checkResume(text, applyEdit(text, e));
      }),
      { numRuns: 1500 },
    );
  });

  it('gives the result of a parse from the beginning when it takes the end of the earlier parse, for edits of clean topologies', () => {
    let rejoined = 0;
    let runs = 0;
    fc.assert(
      fc.property(cleanTopology, fc.array(lineEdit, { minLength: 1, maxLength: 4 }), (lines, edits) => {
        let current = lines;
        let previous = parseDot(wrap(current));
        for (const e of edits) {
          current = applyLineEdit(current, e);
          const text = wrap(current);
          const resumed = parseDot(text, 'topology.dot', previous);
          assert.deepStrictEqual(plain(resumed), plain(parseDot(text)), `resumed parse differs for:\n${text}`);
          runs++;
          const reuse = dotParseReuse(resumed);
          if (reuse?.rejoinedAt !== undefined) rejoined++;
          // (a parse that took the end says what it took; its attribute lists are the earlier
          // ones shown moved, and over a run of edits moved again: compared above with a fresh parse)
          assert.equal(reuse?.taken !== undefined, reuse?.rejoinedAt !== undefined);
          if (reuse?.taken !== undefined) checkTaken(previous, resumed, reuse.taken);
          previous = resumed;
        }
      }),
      { numRuns: 600 },
    );
    // the property must have met the rejoining path often, or it proves nothing about it
    assert.ok(rejoined > runs / 20, `only ${rejoined} of ${runs} parses took the end of the earlier one`);
  });

  it('stays exact over a run of edits, each parse resuming from the one before', () => {
    fc.assert(
      // (a parse whose tokens are not read passes the earlier token objects on: `looks` says
      // which parses of the run are read, the last one always)
      fc.property(topology, fc.array(edit, { minLength: 1, maxLength: 8 }), fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }), (text, edits, looks) => {
        let previous = parseDot(text);
        if (looks[0]) void previous.tokens;
        let current = text;
        edits.forEach((e, k) => {
          current = applyEdit(current, e);
          const resumed = parseDot(current, 'topology.dot', previous);
          if (looks[k] || k === edits.length - 1) assert.deepStrictEqual(plain(resumed), plain(parseDot(current)), `resumed parse differs for:\n${current}`);
          previous = resumed;
        });
      }),
      { numRuns: 400 },
    );
  });

  // Where a parse reuses the earlier nodes, and where it has to start over. `reused` lists the
  // node ids whose objects must be the earlier ones; an empty list means nothing may be reused.
  /** The header, node defaults and four pinned nodes, which the topologies below start with. */
  const declared = ['digraph g {', '  node [shape=box];', '  a [card="a@1.0.0"];', '  b [card="b@1.0.0"];', '  c [card="c@1.0.0"];', '  d [card="d@1.0.0"];'];
  const base = [
    ...declared,
    '  a -> b;',
    '  b -> c [label="next"];',
    '}',
    '',
  ].join('\n');
  const cases: readonly { readonly name: string; readonly after: string; readonly reused: readonly string[] }[] = [
    // (a node only named again by the statements read anew stays the earlier object: its mentions are the graph's)
    { name: 'a node added before the closing brace', after: base.replace('\n}', '\n  e [card="missing-card@1.0.0"];\n}'), reused: ['a', 'b', 'c', 'd'] },
    { name: 'an edge label changed in the last statement', after: base.replace('"next"', '"then"'), reused: ['a', 'b', 'c', 'd'] },
    { name: 'a character typed at the end of the file', after: `${base}x`, reused: ['a', 'b', 'c', 'd'] },
    { name: 'an edit in the first statement', after: base.replace('shape=box', 'shape=oval'), reused: [] },
    { name: 'a node re-declared after the edit point', after: base.replace('\n}', '\n  a [card="other@1.0.0"];\n}'), reused: ['d'] },
    { name: 'a graph attribute set after the edit point', after: base.replace('\n}', '\n  label="late";\n}'), reused: ['a', 'd'] },
  ];
  for (const c of cases) {
    it(`reuses what it may when ${c.name}`, () => {
      const { resumed, previous } = checkResume(base, c.after);
      const before = new Map(previous.graph!.nodes.map((n) => [n.id, n] as const));
      for (const id of c.reused) assert.equal(resumed.graph!.nodes.find((n) => n.id === id), before.get(id), `${id} is not the earlier object`);
      if (c.reused.length === 0) for (const n of resumed.graph!.nodes) assert.notEqual(n, before.get(n.id), `${n.id} was reused`);
    });
  }

  // Where a parse takes the end of the earlier one, moved (see `rejoin` in
  // ../src/syntax/dot-resume.ts), and where what the edited statements left behind differs, so it
  // must read on.
  const long = [
    ...declared,
    '  e;',
    '  subgraph cluster_s { node [color=red]; m; }',
    '  a -> b;',
    '  b -> c [label="say \\"next\\""];',
    '  c -> d; // a comment',
    '  d -> f;',
    '  e -> a;',
    '  m [label="late"];',
    '  d -> d;',
    '}',
    '',
  ].join('\n');
  const rejoinCases: readonly { readonly name: string; readonly before?: string; readonly after: string; readonly rejoins: boolean }[] = [
    { name: 'text typed into a pin in the middle', after: long.replace('d@1.0.0', 'd@1.0.10'), rejoins: true },
    { name: 'an attribute added first in the second statement (nothing before it to take)', after: long.replace('  a [card=', '  a [label="x", card='), rejoins: true },
    { name: 'a node added in the middle', after: long.replace('  e;\n', '  x [card="x@1.0.0"];\n  e;\n'), rejoins: true },
    { name: 'a line break added in the middle', after: long.replace('  e;\n', '\n  e;\n'), rejoins: true },
    { name: 'node defaults added in the middle', after: long.replace('  e;\n', '  node [color=blue];\n  e;\n'), rejoins: false },
    { name: 'the first statement\'s node default changed to a value as long', after: long.replace('shape=box', 'shape=bax'), rejoins: false },
    {
      name: 'the first statement\'s second node default moved by a space',
      before: long.replace('shape=box', 'shape=box, color=gray'),
      after: long.replace('shape=box', 'shape=box, color= gray'),
      rejoins: false,
    },
    { name: 'edge defaults added in the middle', after: long.replace('  e;\n', '  edge [color=blue];\n  e;\n'), rejoins: false },
    { name: 'a graph attribute added in the middle', after: long.replace('  e;\n', '  rankdir=LR;\n  e;\n'), rejoins: false },
    { name: 'a node that a later edge names first, named in the middle', after: long.replace('  e;\n', '  f [label="early"];\n  e;\n'), rejoins: false },
    { name: 'a node named in the middle and again later, removed from the middle', after: long.replace('  e;\n', ''), rejoins: false },
    { name: 'a node named before the edit declared again in the middle', after: long.replace('  e;\n', '  a [shape=oval];\n  e;\n'), rejoins: true },
    { name: 'a node declared again later, first named in the middle under other defaults', after: long.replace('node [color=red]; m;', 'node [color=blue]; m;'), rejoins: false },
    { name: 'a node with a later self-loop given one in the middle', after: long.replace('  e;\n', '  e;\n  d -> d [label="early"];\n'), rejoins: false },
    { name: 'a parse error in the middle', after: long.replace('  e;\n', '  e -> ;\n'), rejoins: false },
  ];
  it('stays exact on a topology of several chunks of mentions, wherever the edit lands', () => {
    // 400 nodes, then 1,200 edges naming them: 2,800 mentions, two full chunks and a part
    const lines = ['digraph big {'];
    for (let i = 0; i < 400; i++) lines.push(`  n${i} [card="c${i}@1.0.0"];`);
    for (let i = 0; i < 1200; i++) lines.push(`  n${i % 400} -> n${(i * 7 + 1) % 400}${i % 3 === 0 ? ' [label="x"]' : ''};`);
    lines.push('}', '');
    const text = lines.join('\n');
    assert.ok(parseDot(text).graph!.mentions.chunks.length >= 3, 'several chunks');
    const edits: readonly (readonly [string, string])[] = [
      ['  n10 [card', '  extra [card="e@1.0.0"];\n  n10 [card'], // a node early on
      ['  n390 [card', '  n390b;\n  n390 [card'], // a node at the end of the declarations
      ['  n5 -> ', '  n5 -> extra -> '], // a mention in the edges
      ['c200@1.0.0', 'c200@1.0.10'], // a pin in the middle
      ['  n399 -> ', '  n399 -> n0;\n  n399 -> '], // near the end
      ['\n}', '\n  last;\n}'], // at the end
    ];
    for (const [from, to] of edits) {
      const after = text.replace(from, to);
      assert.notEqual(after, text, from);
      const { resumed } = checkResume(text, after);
      assert.ok(dotParseReuse(resumed) !== undefined, `resumed after ${from}`);
      // and from that parse again, back to the text
      checkResume(after, text);
    }
  });

  it('keeps the nodes declared before a node added in the middle as the earlier objects, though later edges name them', () => {
    const { resumed, previous } = checkResume(long, long.replace('  e;\n', '  x [card="x@1.0.0"];\n  e;\n'));
    assert.ok(dotParseReuse(resumed)?.rejoinedAt !== undefined, 'the parse rejoined the earlier one');
    // (`d`, declared by the statement the parse resumed at, is read again)
    for (const id of ['a', 'b', 'c']) assert.equal(resumed.graph!.nodes.find((n) => n.id === id), previous.graph!.nodes.find((n) => n.id === id), `${id} is the earlier object`);
  });

  for (const c of rejoinCases) {
    it(`${c.rejoins ? 'takes the end of the earlier parse' : 'reads on'} when ${c.name}`, () => {
      const { resumed } = checkResume(c.before ?? long, c.after);
      const reuse = dotParseReuse(resumed);
      assert.ok(reuse !== undefined, 'the parse resumed');
      assert.equal(reuse.rejoinedAt !== undefined, c.rejoins, `rejoined at ${String(reuse.rejoinedAt)}`);
    });
  }

  it('hands out the earlier edges and nodes after the edit when the edit keeps the length', () => {
    const after = long.replace('d@1.0.0', 'd@1.0.1');
    const { resumed, previous } = checkResume(long, after);
    assert.ok(dotParseReuse(resumed)?.rejoinedAt !== undefined);
    const edges = resumed.graph!.edges;
    assert.equal(edges[edges.length - 1], previous.graph!.edges[previous.graph!.edges.length - 1]);
    assert.equal(resumed.graph!.nodes.find((n) => n.id === 'f'), previous.graph!.nodes.find((n) => n.id === 'f'));
    // and the earlier token objects after it, comments aside (the earlier parse's tokens were read)
    assert.equal(resumed.tokens[resumed.tokens.length - 2], previous.tokens[previous.tokens.length - 2]);
  });

  it('stays exact when an edit lands before the one the earlier parse resumed at', () => {
    // The second parse takes `a` (named first on line 3, last in `a -> b`) unchanged from the
    // first; the third resumes at `x`, between those two mentions, so it must cut the mentions
    // there, from the places the second parse carried over from the first. `a` itself, only
    // mentioned after the edit, stays the object it was (its mentions are the graph's).
    const first = base.replace('  c [card="c@1.0.0"];', '  x;\n  c [card="c@1.0.0"];').replace('\n  b -> c', '\n  x -> a;\n  b -> c');
    const second = first.replace('\n}', '\n  e;\n}');
    const third = second.replace('  x;', '  y;');
    const one = parseDot(first);
    const two = parseDot(second, 'topology.dot', one);
    assert.equal(two.graph!.nodes[0], one.graph!.nodes[0], 'the second parse resumed and kept `a`');
    const three = parseDot(third, 'topology.dot', two);
    assert.deepStrictEqual(plain(three), plain(parseDot(third)));
    assert.equal(three.graph!.nodes[0], two.graph!.nodes[0], '`a` is only mentioned after the edit');
    assert.deepEqual(nodeOccurrences(three.graph!, 'a'), nodeOccurrences(parseDot(third).graph!, 'a'));
  });

  it('takes earlier token objects only where the text still reads the same, across a parse whose tokens were never read', () => {
    const first = parseDot(base);
    void first.tokens;
    // the second parse changes `c`'s pin and is never read; the third adds a node at the end
    const secondText = base.replace('c@1.0.0', 'c@2.0.0');
    const second = parseDot(secondText, 'topology.dot', first);
    const thirdText = secondText.replace('\n}', '\n  e;\n}');
    const third = parseDot(thirdText, 'topology.dot', second);
    assert.deepStrictEqual(third.tokens, parseDot(thirdText).tokens);
    assert.equal(third.tokens[0], first.tokens[0], 'the first token is the earlier object');
  });

  it('the tokens without comments, made from an earlier parse\'s list, are the parse\'s own tokens without comments', () => {
    const isComment = (t: DotToken): boolean => t.kind === 'line-comment' || t.kind === 'hash-comment' || t.kind === 'block-comment';
    // each parse resumes from the one before; `reads` says which lists are read (and in which order) along the way
    const read = fc.constantFrom('none', 'tokens', 'significant', 'both');
    fc.assert(
      fc.property(topology, fc.array(fc.tuple(edit, read), { minLength: 1, maxLength: 6 }), read, (text, steps, first) => {
        const check = (parse: DotParseResult, how: string): void => {
          if (how === 'none') return;
          if (how === 'tokens' || how === 'both') void parse.tokens;
          const own = new Set(parse.tokens);
          const significant = parse.significant;
          assert.deepStrictEqual(significant, parse.tokens.filter((t) => !isComment(t)));
          for (const t of significant) assert.ok(own.has(t), 'an entry is not one of the parse\'s own tokens');
        };
        let previous = parseDot(text);
        check(previous, first);
        let current = text;
        steps.forEach(([e, how], k) => {
          current = applyEdit(current, e);
          previous = parseDot(current, 'topology.dot', previous);
          check(previous, k === steps.length - 1 && how === 'none' ? 'significant' : how);
        });
      }),
      { numRuns: 400 },
    );
  });

  it('starts over after a parse that reported a parse error, and from another file', () => {
    const broken = base.replace('a -> b;', 'a -> ;');
    checkResume(broken, broken.replace('"next"', '"then"'));
    const previous = parseDot(base);
    const elsewhere = parseDot(base.replace('"next"', '"then"'), 'other.dot', previous);
    assert.notEqual(elsewhere.graph!.nodes[0], previous.graph!.nodes[0]);
    assert.deepStrictEqual(plain(elsewhere), plain(parseDot(base.replace('"next"', '"then"'), 'other.dot')));
  });

  it('hands back the parse it made when asked for the same text from the same earlier parse (a completion, then the load)', () => {
    const previous = parseDot(base);
    const edited = base.replace('"next"', '"then"');
    const first = parseDot(edited, 'topology.dot', previous);
    assert.equal(parseDot(edited, 'topology.dot', previous), first);
    assert.deepStrictEqual(plain(first), plain(parseDot(edited)));
    // another text, another file, another earlier parse: parsed again
    const other = base.replace('"next"', '"later"');
    assert.notEqual(parseDot(other, 'topology.dot', previous), first);
    assert.deepStrictEqual(plain(parseDot(other, 'topology.dot', previous)), plain(parseDot(other)));
    assert.notEqual(parseDot(edited, 'other.dot', previous), first);
    assert.notEqual(parseDot(edited, 'topology.dot', parseDot(base)), first);
  });
});
