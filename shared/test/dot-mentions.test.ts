/**
 * Reading a parse's node mentions (../src/syntax/dot-mentions.ts), as data: for each text and
 * cursor, the mention `mentionAt` finds (written as the text it covers, and the node it names),
 * and the occurrences and mention counts of nodes.
 */
import assert from 'node:assert/strict';
import { parseDot } from '../src/syntax/dot-parser';
import { mentionAt, mentionCount, mentionStartingAt, nodeOccurrences } from '../src/syntax/dot-mentions';

/** `|` marks the cursor; `found` is the text of the mention found and the id of its node (undefined: none). */
const cases: readonly { readonly name: string; readonly text: string; readonly found?: readonly [string, string] }[] = [
  { name: 'inside an id', text: 'digraph g { wri|ter -> b; }', found: ['writer', 'writer'] },
  { name: 'at its start', text: 'digraph g { |writer -> b; }', found: ['writer', 'writer'] },
  { name: 'at its end', text: 'digraph g { writer| -> b; }', found: ['writer', 'writer'] },
  { name: 'between two mentions', text: 'digraph g { a ->| b; }' },
  { name: 'in an attribute value', text: 'digraph g { a [label="b|"]; b; }' },
  { name: 'a quoted id, quotes included', text: 'digraph g { "q |r" -> b; }', found: ['"q r"', 'q r'] },
  // two mentions touching: the one on the left, the token the cursor has just passed
  { name: 'between the parts of a glued step-1', text: 'digraph g { step|-1 -> b; }', found: ['step', 'step'] },
  { name: 'between the parts of a glued step-1, the number named first', text: 'digraph g {\n  "-1";\n  step|-1;\n}\n', found: ['step', 'step'] },
  { name: 'inside the number of a glued step-1', text: 'digraph g { step-|1 -> b; }', found: ['-1', '-1'] },
  { name: 'an id glued to a quoted one', text: 'digraph g { a|"b" -> c; }', found: ['a', 'a'] },
  { name: 'a subgraph member', text: 'digraph g { {x y|} -> z; }', found: ['y', 'y'] },
  { name: 'a concatenated id, the whole run', text: 'digraph g { "a" + "|b" -> c; }', found: ['"a" + "b"', 'ab'] },
];

describe('DOT mentions', () => {
  for (const c of cases) {
    it(`mentionAt: ${c.name}`, () => {
      const offset = c.text.indexOf('|');
      const text = c.text.slice(0, offset) + c.text.slice(offset + 1);
      const graph = parseDot(text).graph!;
      const found = mentionAt(graph, offset);
      assert.deepEqual(found === undefined ? undefined : [text.slice(found.span.start, found.span.end), found.node.id], c.found);
    });
  }

  it('mentionStartingAt, nodeOccurrences and mentionCount agree on every node of a topology', () => {
    const text = 'digraph g {\n  a [card="a@1.0.0"];\n  a -> b -> c;\n  {b c} -> a;\n  "d" + "e";\n}\n';
    const graph = parseDot(text).graph!;
    const written = (n: string) => nodeOccurrences(graph, n).map((s) => text.slice(s.start, s.end));
    assert.deepEqual(written('a'), ['a', 'a', 'a']);
    assert.deepEqual(written('b'), ['b', 'b']);
    assert.deepEqual(written('de'), ['"d" + "e"']);
    assert.deepEqual(written('missing'), []);
    for (const node of graph.nodes) {
      const occurrences = nodeOccurrences(graph, node.id);
      assert.equal(mentionCount(graph, node), occurrences.length, node.id);
      for (const o of occurrences) assert.deepEqual(mentionStartingAt(graph, o.start), { node, span: o }, `${node.id} at ${o.start}`);
    }
    assert.equal(mentionStartingAt(graph, text.indexOf('card')), undefined, 'no mention starts inside a list');
  });
});
