/**
 * What a bundle's state keeps between loads (../src/database.ts): only what its current files
 * need. A long session renames and deletes many files; nothing kept for one that is gone.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { addBundle, createDatabase, setDiskFile, snapshotOf } from '../src/database';
import { reviewerCard, writerCard } from './support/cards';
import { parseFixture } from '../../shared/test/support/fixture';

const root = path.resolve('/workspace/bundle');
const topology = 'digraph g {\n  writer [card="writer@1.0.0"];\n  reviewer [card="reviewer@1.0.0"];\n  writer -> reviewer;\n}\n';

describe('server: what a bundle keeps between loads', () => {
  it('forgets the URI, line index and card read of a file renamed or deleted', () => {
    const files = new Map(parseFixture(`//- topology.dot\n${topology}${writerCard()}${reviewerCard()}`).files.map((f) => [f.path, f.text] as const));
    const db = createDatabase((file) => pathToFileURL(file).href);
    const bundle = addBundle(db, root, files);
    const card = 'cards/reviewer@1.0.0.yaml';
    const before = snapshotOf(db, bundle);
    before.uri(card);
    before.lineIndex(card);
    assert.ok(bundle.uris.has(card) && bundle.lineIndexes.has(card) && bundle.cardReads.has(card), 'kept while the file exists');
    // renamed on disk: the old path is gone, the new one read
    setDiskFile(db, bundle, card, undefined);
    setDiskFile(db, bundle, 'cards/reviewer@1.0.1.yaml', files.get(card)!.replace('version: 1.0.0', 'version: 1.0.1'));
    const after = snapshotOf(db, bundle);
    after.uri('cards/reviewer@1.0.1.yaml');
    assert.equal(bundle.uris.has(card), false, 'the URI');
    assert.equal(bundle.lineIndexes.has(card), false, 'the line index');
    assert.equal(bundle.cardReads.has(card), false, 'the card read');
    assert.ok(bundle.uris.has('cards/reviewer@1.0.1.yaml'), 'the new path');
  });
});
