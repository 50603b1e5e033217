import assert from 'node:assert/strict';
import { parseFixture } from './fixture';

describe('fixture format', () => {
  it('reads files, carets, file-level and bundle-level expectations and the cursor', () => {
    const f = parseFixture(`
//- topology.dot
digraph g { a-b [card="x@1.0.0"]; }
//          ^^^ warning attractor/bad-node-id: a-b
//! info dot/self-loop
//- cards/x.yaml
id: x$0
#   ^ error card/bad-id
//- @bundle
warning analysis/criteria-leak-unanchored
`);
    assert.deepEqual(f.files.map((x) => x.path), ['topology.dot', 'cards/x.yaml']);
    assert.equal(f.files[0].text, 'digraph g { a-b [card="x@1.0.0"]; }');
    assert.equal(f.files[1].text, 'id: x');
    assert.deepEqual(f.cursor, { path: 'cards/x.yaml', offset: 5 });
    assert.equal(f.expected.length, 4);
    assert.deepEqual(f.expected[0], { file: 'topology.dot', start: 12, end: 15, severity: 'warning', code: 'attractor/bad-node-id', messageIncludes: 'a-b' });
    assert.deepEqual(f.expected[1], { file: 'topology.dot', severity: 'info', code: 'dot/self-loop', messageIncludes: undefined });
    assert.equal(f.expected[2].start, 4);
    assert.equal(f.expected[3].file, undefined);
  });
});
