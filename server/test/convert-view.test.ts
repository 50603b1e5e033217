/**
 * The conversions of semantic tokens (server/src/convert.ts): the protocol's relative encoding,
 * whatever ends the lines (LF, CRLF, CR) and with a byte order mark the positions hide, checked
 * against the line index every other conversion uses; and the edit between two answers, which
 * applied to the first gives the second.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { SemanticToken } from '../../shared/src/ide';
import { lineIndex } from '../../shared/src/text';
import { semanticTokensLegend, toSemanticTokens, toSemanticTokensEdits } from '../src/convert';

/** Tokens over every word of `text`, typed `node`, `declaration` every other one. */
function wordTokens(text: string): SemanticToken[] {
  return [...text.matchAll(/[a-z]+/g)].map((m, i) => ({ start: m.index, end: m.index + m[0].length, type: 'node', modifiers: i % 2 === 0 ? ['declaration'] : [] }));
}

/** The same tokens encoded from each one's position in the line index (absolute positions, then made relative). */
function expectedData(text: string, hideMark: boolean): number[] {
  const index = lineIndex(text, hideMark);
  const data: number[] = [];
  let line = 0;
  let character = 0;
  for (const t of wordTokens(text)) {
    const at = index.positionAt(t.start);
    data.push(at.line - line, at.line === line ? at.character - character : at.character, t.end - t.start, 0, t.modifiers.length > 0 ? 1 : 0);
    line = at.line;
    character = at.character;
  }
  return data;
}

const texts: Record<string, { readonly text: string; readonly hideMark?: boolean }> = {
  'LF line ends': { text: 'digraph g {\n  a -> b;\n  c;\n}\n' },
  'CRLF line ends': { text: 'digraph g {\r\n  a -> b;\r\n\r\n  c;\r\n}' },
  'CR line ends': { text: 'digraph g {\r  a -> b;\r\r  c;\r}' },
  'mixed line ends': { text: 'x\ry\r\nz\n\rw' },
  'a byte order mark the positions hide': { text: '\ufeffdigraph g { a; }\nb', hideMark: true },
  'a byte order mark kept as a character': { text: '\ufeffdigraph g { a; }\nb' },
  'characters outside the basic plane count twice': { text: '\u{1F600}a \u{1F600}b\nc' },
};

describe('server: semantic token conversions', function () {
  it('the legend numbers the types and modifiers in order', function () {
    assert.equal(semanticTokensLegend.tokenTypes[0], 'node');
    assert.deepEqual(semanticTokensLegend.tokenModifiers, ['declaration', 'unresolved']);
  });

  it('the extension colours only types and modifiers of the legend, and declares every type and non-standard modifier', function () {
    const manifest = JSON.parse(readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as {
      contributes: { semanticTokenTypes: { id: string }[]; semanticTokenModifiers: { id: string }[]; semanticTokenScopes: { scopes: Record<string, string[]> }[] };
    };
    const { semanticTokenTypes, semanticTokenModifiers, semanticTokenScopes } = manifest.contributes;
    assert.deepEqual(semanticTokenTypes.map((t) => t.id), semanticTokensLegend.tokenTypes);
    // (`declaration` is one of the protocol's own modifiers: every client knows it)
    assert.deepEqual(semanticTokenModifiers.map((m) => m.id), semanticTokensLegend.tokenModifiers.filter((m) => m !== 'declaration'));
    for (const selector of semanticTokenScopes.flatMap((s) => Object.keys(s.scopes))) {
      const [type, ...modifiers] = selector.split('.');
      assert.ok(semanticTokensLegend.tokenTypes.includes(type), `${selector}: a type of the legend`);
      for (const modifier of modifiers) assert.ok(semanticTokensLegend.tokenModifiers.includes(modifier), `${selector}: ${modifier} is a modifier of the legend`);
    }
  });

  for (const [name, c] of Object.entries(texts)) {
    it(`encodes tokens as the line index places them: ${name}`, function () {
      assert.deepEqual(toSemanticTokens(lineIndex(c.text, c.hideMark ?? false), wordTokens(c.text)), expectedData(c.text, c.hideMark ?? false));
    });
  }

  const edits: Record<string, readonly [readonly number[], readonly number[]]> = {
    'the same list': [[1, 2, 3, 4, 5], [1, 2, 3, 4, 5]],
    'a token added in the middle': [[0, 1, 2, 0, 0, 1, 0, 3, 0, 0], [0, 1, 2, 0, 0, 1, 0, 4, 0, 1, 1, 0, 3, 0, 0]],
    'a token removed at the end': [[0, 1, 2, 0, 0, 1, 0, 3, 0, 0], [0, 1, 2, 0, 0]],
    'everything new': [[1, 1, 1, 1, 1], [2, 2, 2, 2, 2, 3, 3, 3, 3, 3]],
    'from nothing': [[], [0, 0, 1, 0, 0]],
    'to nothing': [[0, 0, 1, 0, 0], []],
    'a repeated number at the seam': [[5, 5, 5, 5, 5], [5, 5, 5, 5, 5, 5, 5, 5, 5, 5]],
  };
  for (const [name, [before, after]] of Object.entries(edits)) {
    it(`an edit of the last answer gives the new one: ${name}`, function () {
      const out = [...before];
      for (const e of [...toSemanticTokensEdits(before, after)].sort((a, b) => b.start - a.start)) out.splice(e.start, e.deleteCount, ...(e.data ?? []));
      assert.deepEqual(out, after);
    });
  }
});
