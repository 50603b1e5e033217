/// <reference types="mocha" />
/**
 * The arguments of `darkprint.showReferences` as the server's "pinned by N nodes" lens sends them
 * (server/src/convert.ts `toCodeLenses`), read by ../src/protocol.ts before they become VS Code's
 * types: whatever the shape, a reading or nothing, never a throw.
 */
import assert from 'node:assert/strict';
import { readReferencesArguments } from '../src/protocol';

const place = (line: number) => ({ uri: 'file:///b/topology.dot', range: { start: { line, character: 2 }, end: { line, character: 8 } } });

const cases: { readonly why: string; readonly args: readonly unknown[]; readonly expected: ReturnType<typeof readReferencesArguments> }[] = [
  {
    why: 'as the server writes them',
    args: ['file:///b/cards/w@1.0.0.yaml', { line: 0, character: 4 }, [place(2), place(5)]],
    expected: { uri: 'file:///b/cards/w@1.0.0.yaml', position: { line: 0, character: 4 }, locations: [place(2), place(5)] },
  },
  { why: 'a place that does not read is left out', args: ['file:///c', { line: 0, character: 0 }, [place(1), { uri: 3 }, null]], expected: { uri: 'file:///c', position: { line: 0, character: 0 }, locations: [place(1)] } },
  { why: 'no URI', args: [undefined, { line: 0, character: 0 }, []], expected: undefined },
  { why: 'no position', args: ['file:///c', 'here', []], expected: undefined },
  { why: 'no list', args: ['file:///c', { line: 0, character: 0 }, {}], expected: undefined },
  { why: 'nothing', args: [], expected: undefined },
];

describe('client: the references lens command', function () {
  for (const c of cases) it(c.why, () => assert.deepEqual(readReferencesArguments(c.args), c.expected));
});
