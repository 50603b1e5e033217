/**
 * Completion in a topology reads the tokens around the cursor only (`tokensNear` in
 * src/ide/dot-context.ts), not the list of every token of the file, which right after an edit is
 * not made yet and costs an object per token to make. On any text, at every offset, what it reads
 * there must be what it reads in the whole list: the attribute slot, the place after an arrow,
 * the keys already written in the list (as completion lists them), and whether the cursor is in a
 * comment (`commentAt`, against the check on the list with comments it replaces). Hover reads
 * the same window, with the comments among it (`tokensAndCommentsNear`).
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { loadBundle } from '../src/bundle/resolve';
import { complete, hover, type IdeBundle } from '../src/ide';
import { topologyView, type TopologyView } from '../src/ide/context';
import { afterArrow, attributeSlot, enclosingList, indexAt, listOwner, statementStart, tokensAndCommentsNear, tokensNear } from '../src/ide/dot-context';
import type { DotToken } from '../src/syntax/dot-model';
import { commentAt } from '../src/syntax/dot-lexer';
import { card } from './support/ide';

function viewOf(text: string): TopologyView {
  const file = { path: 'topology.dot', text };
  const bundle: IdeBundle = { files: new Map([[file.path, file]]), result: loadBundle([file], { folderName: 'fixture' }) };
  const view = topologyView(bundle, file.path);
  assert.ok(view !== undefined);
  return view;
}

/** The keys completion finds already written in the list around `at` (the loop of completion.ts `presentKeys`). */
function keysAround(tokens: readonly DotToken[], at: number, text: string): string[] {
  const open = enclosingList(tokens, at, text);
  const keys: string[] = [];
  if (open < 0) return keys;
  for (let i = open + 1; i < tokens.length && tokens[i].kind !== 'rbracket' && tokens[i].kind !== 'lbracket' && tokens[i].kind !== 'rbrace'; i++) {
    if (tokens[i + 1]?.kind === 'equals') keys.push(`${tokens[i].value}@${tokens[i].span.start}`);
  }
  return keys;
}

/** What hover reads of the tokens at `offset` (see hover.ts `topologyHover`): the token there, its neighbours, the list it is in and that list's owner. */
function hoverReading(view: TopologyView, tokens: readonly DotToken[], offset: number): unknown {
  const index = indexAt(tokens, offset);
  if (index < 0) return undefined;
  const t = tokens[index];
  const open = enclosingList(tokens, t.span.start, view.text);
  return { t, next: tokens[index + 1]?.kind, previous: tokens[index - 1]?.kind, key: index >= 2 ? tokens[index - 2].value : undefined, owner: open >= 0 ? listOwner(view, open, tokens) : 'none' };
}

/** The comment check completion made on the list with comments, before `commentAt`. */
function inCommentByList(view: TopologyView, offset: number): boolean {
  const at = indexAt(view.parse.tokens, offset);
  const token = at >= 0 ? view.parse.tokens[at] : undefined;
  return token !== undefined && token.span.start < offset && (token.kind === 'line-comment' || token.kind === 'hash-comment' || (token.kind === 'block-comment' && (token.unterminated === true || offset < token.span.end)));
}

function checkEveryOffset(text: string): void {
  const view = viewOf(text);
  const all = view.significant;
  for (let offset = 0; offset <= text.length; offset++) {
    const near = tokensNear(view, offset);
    const where = `at ${offset} of ${JSON.stringify(text)}`;
    assert.deepEqual(attributeSlot(view, offset, near), attributeSlot(view, offset, all), `attribute slot ${where}`);
    assert.deepEqual(afterArrow(view, offset, near), afterArrow(view, offset, all), `after an arrow ${where}`);
    assert.deepEqual(statementStart(view, offset, near), statementStart(view, offset, all), `where a statement starts ${where}`);
    assert.deepEqual(keysAround(near, offset, text), keysAround(all, offset, text), `keys of the list ${where}`);
    assert.equal(commentAt(view.parse.table, offset) !== undefined, inCommentByList(view, offset), `in a comment ${where}`);
    const withComments = tokensAndCommentsNear(view, offset);
    assert.deepEqual(withComments[indexAt(withComments, offset)], view.parse.tokens[indexAt(view.parse.tokens, offset)], `the token or comment at the cursor ${where}`);
    assert.deepEqual(hoverReading(view, near, offset), hoverReading(view, all, offset), `what hover reads ${where}`);
  }
}

const pieces = [
  'a', 'b1', '"my node"', 'node', 'edge', 'graph', 'subgraph', 'digraph g', 'strict', 'card', 'label', 'condition', 'out', 'in',
  '[', ']', '{', '}', ';', ',', '=', '->', '--', ':', '+', '"x@1.0.0"', '"open', '<b>html</b>', '<open',
  '// line comment\n', '# hash comment\n', '/* block */', '/* unclosed', ' ', ' ', '\n', '\n', '  ',
];

/** Texts where the window meets its limits: far from any `;`, `{` or `}`, or inside a very long list. */
const long: readonly { readonly name: string; readonly text: string }[] = [
  { name: 'a chain of 5,000 nodes with no separator before a list', text: `digraph g {\n  ${Array.from({ length: 5000 }, (_, i) => `n${i}`).join(' -> ')} [label="x", ` },
  { name: 'a list of 3,000 attributes', text: `digraph g {\n  a [${Array.from({ length: 3000 }, (_, i) => `k${i}="v"`).join(', ')}, ` },
  { name: 'a list of 3,000 attributes after the cursor', text: `digraph g {\n  a [card="x", ${Array.from({ length: 3000 }, (_, i) => `k${i}=v`).join(' ')}]; b -> c;\n}` },
];

describe('completion reads the tokens around the cursor as it reads the whole list', () => {
  it('random half-typed topologies, at every offset', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 40 }), fc.boolean(), (words, header) => {
        checkEveryOffset(`${header ? 'digraph g {\n' : ''}${words.join(' ')}`);
      }),
      { numRuns: 300 },
    );
  });

  it('random statements whose attribute lists separate attributes with `;` as well as `,`, at every offset', () => {
    const value = fc.constantFrom('x', '"x@1.0.0"', '"open', '1', '<b>h</b>');
    const attribute = fc.tuple(fc.constantFrom('card', 'label', 'out', 'in', 'condition'), fc.boolean(), value).map(([key, typed, v]) => (typed ? `${key}=${v}` : key));
    const list = fc.tuple(fc.array(attribute, { maxLength: 5 }), fc.constantFrom(';', ',', ' ', '; '), fc.boolean()).map(([attributes, separator, closed]) => `[${attributes.join(separator)}${closed ? ']' : ''}`);
    const statement = fc.tuple(fc.constantFrom('a', 'b -> c', 'a -> b -> c', 'node', 'edge', 'x = 1', 'subgraph s {', 'a:p', 'b:o:ne -> c:w', 'a -> b:i -> c', 'node:p', 'a:p ->\n  b'), fc.array(list, { maxLength: 2 }), fc.constantFrom(';', '', '\n', ' }')).map(([head, lists, end]) => `${head} ${lists.join('')}${end}`);
    fc.assert(
      fc.property(fc.array(statement, { maxLength: 6 }), (statements) => {
        checkEveryOffset(`digraph g {\n${statements.join(' ')}`);
      }),
      { numRuns: 300 },
    );
    // one statement a line, without `;` (the window starts at a line's statement), lists across lines
    fc.assert(
      fc.property(fc.array(fc.tuple(statement, fc.constantFrom('', '  ', '\t')), { maxLength: 7 }), fc.boolean(), (lines, closed) => {
        checkEveryOffset(`digraph g {\n${lines.map(([line, indent]) => `${indent}${line.replace(/;$/, '')}`).join('\n')}${closed ? '\n}' : ''}`);
      }),
      { numRuns: 300 },
    );
  });

  for (const row of long) {
    it(row.name, () => {
      const view = viewOf(row.text);
      const all = view.significant;
      // (every offset of a text this long would take minutes: the end, where completion asks, and a sample)
      for (const offset of [row.text.length, row.text.length - 1, row.text.length - 3, Math.floor(row.text.length / 2), 20]) {
        const near = tokensNear(view, offset);
        assert.deepEqual(attributeSlot(view, offset, near), attributeSlot(view, offset, all), `attribute slot at ${offset}`);
        assert.deepEqual(afterArrow(view, offset, near), afterArrow(view, offset, all), `after an arrow at ${offset}`);
        assert.deepEqual(keysAround(near, offset, row.text), keysAround(all, offset, row.text), `keys at ${offset}`);
      }
    });
  }

  it('a completion and a hover in a topology make no list of every token', () => {
    const text = 'digraph g {\n  a [card="x@1.0.0"];\n  b [card="';
    const file = { path: 'topology.dot', text };
    const cardFile = { path: 'cards/x@1.0.0.yaml', text: card({ id: 'x' }) };
    const result = loadBundle([file, cardFile], { folderName: 'fixture' });
    const topology = result.blueprint?.topology;
    assert.ok(topology !== undefined);
    const read: string[] = [];
    const parse = new Proxy(topology.parse, {
      get(target, key, receiver) {
        if (key === 'tokens' || key === 'significant') read.push(key);
        return Reflect.get(target, key, receiver);
      },
    });
    const bundle: IdeBundle = { files: new Map([file, cardFile].map((f) => [f.path, f] as const)), result: { ...result, blueprint: { ...result.blueprint!, topology: { ...topology, parse } } } };
    assert.deepEqual(complete(bundle, file.path, text.length)?.items.map((i) => i.label), ['x@1.0.0']);
    assert.ok(hover(bundle, file.path, text.indexOf('card=')) !== undefined, 'a hover on an attribute name');
    assert.ok(hover(bundle, file.path, text.indexOf('x@1')) !== undefined, 'a hover on a pin');
    assert.ok(hover(bundle, file.path, text.indexOf('a [')) !== undefined, 'a hover on a node');
    assert.deepEqual(read, [], 'the token lists read');
  });

  it('in the middle of a long topology written without ;, the tokens of one statement and its neighbours', () => {
    const lines = Array.from({ length: 2000 }, (_, i) => (i % 2 === 0 ? `  n${i} [card="c-${i}@1.0.0", label="node ${i}"]` : `  n${i - 1} -> n${i}`));
    const text = `digraph g {\n${lines.join('\n')}\n}\n`;
    const view = viewOf(text);
    for (const offset of [text.indexOf('card="c-1000@') + 'card="c-1'.length, text.indexOf('n1000 -> n1001') + 'n1000 -> n'.length]) {
      const near = tokensNear(view, offset);
      assert.ok(near.length < 40, `${near.length} tokens read`);
      assert.deepEqual(attributeSlot(view, offset, near), attributeSlot(view, offset, view.significant));
      assert.deepEqual(afterArrow(view, offset, near), afterArrow(view, offset, view.significant));
    }
  });

  it('in the middle of a long topology, the tokens of one statement and its neighbours', () => {
    const statements = Array.from({ length: 2000 }, (_, i) => `  n${i} [card="c-${i}@1.0.0", label="node ${i}"];`);
    const text = `digraph g {\n${statements.join('\n')}\n}\n`;
    const offset = text.indexOf('card="c-1000@') + 'card="c-1'.length;
    const view = viewOf(text);
    const near = tokensNear(view, offset);
    assert.ok(near.length < 40, `${near.length} tokens read`);
    assert.deepEqual(attributeSlot(view, offset, near), attributeSlot(view, offset, view.significant));
  });
});
