/**
 * The disk layer on its own (server/src/workspace.ts): which symbolic links a walk follows, and
 * what one bundle may read (`bundleReadLimits`, given smaller here), with what it leaves out.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bundleReadLimits, noSkippedReads, skippedReadsDiagnostics } from '../../shared/src/bundle/classify';
import { findRoots, fitsReadLimits, readBundleFile, readBundleFiles, type ReadLimits } from '../src/workspace';

/** Writes `files` (relative path → text) under `dir`; a value `{ link }` is a symbolic link to that path. */
function write(dir: string, files: Record<string, string | { link: string }>): void {
  for (const [relative, content] of Object.entries(files)) {
    const target = path.join(dir, relative);
    mkdirSync(path.dirname(target), { recursive: true });
    if (typeof content === 'string') writeFileSync(target, content);
    else symlinkSync(content.link, target);
  }
}

const card = (id: string): string => `id: ${id}\nversion: 1.0.0\n`;

describe('server: what a bundle read follows and leaves out', function () {
  let dir: string;
  beforeEach(() => {
    // (real: the walk compares real paths, and a temporary folder may be reached through a link)
    dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'darkprint-disk-')));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a link whose target leaves the allowed folder is not followed, wherever it stands; one inside it is', async function () {
    write(dir, {
      'outside/cards/a@1.0.0.yaml': card('a'),
      'outside/topology.dot': 'digraph g {}',
      'outside/extensions.yaml': 'terms: []',
      'outside/ontology/extensions.yaml': 'terms: []',
      'ws/store/b@1.0.0.yaml': card('b'),
      'ws/linked/cards': { link: path.join(dir, 'outside/cards') },
      'ws/linked/topology.dot': { link: path.join(dir, 'outside/topology.dot') },
      'ws/linked/ontology': { link: path.join(dir, 'outside/ontology') },
      'ws/nested/cards/own@1.0.0.yaml': card('own'),
      'ws/nested/cards/far': { link: path.join(dir, 'outside/cards') },
      'ws/nested/cards/far@1.0.0.yaml': { link: path.join(dir, 'outside/cards/a@1.0.0.yaml') },
      'ws/nested/cards/near': { link: path.join(dir, 'ws/store') },
      'ws/nested/cards/up': { link: path.join(dir, 'ws') },
      'ws/nested/ontology/extensions.yaml': { link: path.join(dir, 'outside/extensions.yaml') },
      'ws/nested/topology.dot': 'digraph g {}',
    });
    const allowed = path.join(dir, 'ws');
    const linked = await readBundleFiles(path.join(dir, 'ws/linked'), { allowed });
    assert.deepEqual([...linked.files.keys()], []);
    assert.deepEqual(linked.skipped, { outsideLinks: ['topology.dot', 'ontology', 'cards'], tooLarge: [], overLimit: [] });

    const nested = await readBundleFiles(path.join(dir, 'ws/nested'), { allowed });
    assert.deepEqual([...nested.files.keys()].sort(), ['cards/near/b@1.0.0.yaml', 'cards/own@1.0.0.yaml', 'topology.dot']);
    // (`up` leads back up, to a folder the walk is inside: not followed, and inside the workspace folder)
    assert.deepEqual(nested.skipped, { outsideLinks: ['ontology/extensions.yaml', 'cards/far', 'cards/far@1.0.0.yaml'], tooLarge: [], overLimit: [] });

    // the bundle folder itself as the allowed folder (a bundle outside every workspace folder): the store is outside it
    const alone = await readBundleFiles(path.join(dir, 'ws/nested'));
    assert.deepEqual([...alone.files.keys()].sort(), ['cards/own@1.0.0.yaml', 'topology.dot']);
    assert.deepEqual(alone.skipped.outsideLinks, ['ontology/extensions.yaml', 'cards/far', 'cards/far@1.0.0.yaml', 'cards/near', 'cards/up']);

    // one file read again: through a link leading outside it is skipped; a file inside is read
    assert.equal(await readBundleFile(path.join(dir, 'ws/linked'), 'cards/a@1.0.0.yaml', allowed), 'skipped');
    assert.equal(await readBundleFile(path.join(dir, 'ws/nested'), 'cards/far@1.0.0.yaml', allowed), 'skipped');
    assert.equal(await readBundleFile(path.join(dir, 'ws/nested'), 'cards/near/b@1.0.0.yaml', allowed), card('b'));
    assert.equal(await readBundleFile(path.join(dir, 'ws/nested'), 'cards/gone@1.0.0.yaml', allowed), undefined);
  });

  it('a bundle whose cards folder is a link to the root of the machine reads nothing through it, and the scan does not walk it', async function () {
    write(dir, { 'ws/bundle/topology.dot': 'digraph g {}', 'ws/bundle/cards': { link: '/' } });
    const read = await readBundleFiles(path.join(dir, 'ws/bundle'), { allowed: path.join(dir, 'ws') });
    assert.deepEqual([...read.files.keys()], ['topology.dot']);
    assert.deepEqual(read.skipped.outsideLinks, ['cards']);
    const listed: number[] = [];
    const roots = await findRoots(path.join(dir, 'ws'), { onFolder: (visited) => void listed.push(visited) });
    assert.deepEqual(roots, [path.join(dir, 'ws/bundle')]);
    assert.deepEqual(listed, [0, 1], 'the workspace folder and the bundle: nothing below cards');
  });

  it('the scan follows a linked folder inside the workspace folder, and not one leading outside it', async function () {
    write(dir, {
      'elsewhere/b/topology.dot': 'digraph g {}',
      'ws/real/a/topology.dot': 'digraph g {}',
      'ws/in': { link: path.join(dir, 'ws/real') },
      'ws/far': { link: path.join(dir, 'elsewhere') },
      'ws/real/loop': { link: path.join(dir, 'ws') },
    });
    assert.deepEqual(await findRoots(path.join(dir, 'ws')), [path.join(dir, 'ws/in/a'), path.join(dir, 'ws/real/a')]);
  });

  it('past its limits a bundle reads its root files first, then its cards in name order, and lists the rest', async function () {
    write(dir, {
      'b/topology.dot': 'digraph g {}',
      'b/blueprint.yaml': 'name: b\n',
      'b/cards/c@1.0.0.yaml': card('c'),
      'b/cards/a@1.0.0.yaml': card('a'),
      'b/cards/b@1.0.0.yaml': card('b'),
      'b/cards/deep/d@1.0.0.yaml': card('d'),
    });
    const root = path.join(dir, 'b');
    const limits = (given: Partial<ReadLimits>): ReadLimits => ({ ...bundleReadLimits, ...given });
    const byFiles = await readBundleFiles(root, { limits: limits({ files: 4 }) });
    assert.deepEqual([...byFiles.files.keys()], ['blueprint.yaml', 'topology.dot', 'cards/a@1.0.0.yaml', 'cards/b@1.0.0.yaml']);
    assert.deepEqual(byFiles.skipped, { outsideLinks: [], tooLarge: [], overLimit: ['cards/c@1.0.0.yaml', 'cards/deep/'] });

    const byBytes = await readBundleFiles(root, { limits: limits({ totalBytes: 'digraph g {}'.length + 'name: b\n'.length + card('a').length }) });
    assert.deepEqual([...byBytes.files.keys()], ['blueprint.yaml', 'topology.dot', 'cards/a@1.0.0.yaml']);
    assert.deepEqual(byBytes.skipped.overLimit, ['cards/b@1.0.0.yaml', 'cards/c@1.0.0.yaml', 'cards/deep/d@1.0.0.yaml']);

    const byFile = await readBundleFiles(root, { limits: limits({ fileBytes: 'digraph g {}'.length }) });
    assert.deepEqual([...byFile.files.keys()], ['blueprint.yaml', 'topology.dot']);
    assert.deepEqual(byFile.skipped.tooLarge, ['cards/a@1.0.0.yaml', 'cards/b@1.0.0.yaml', 'cards/c@1.0.0.yaml', 'cards/deep/d@1.0.0.yaml']);
  });

  it('the folders walked below cards are bounded by the same limit', async function () {
    const files: Record<string, string> = { 'b/topology.dot': 'digraph g {}' };
    for (let i = 0; i < 6; i++) files[`b/cards/f${i}/g/.keep`] = '';
    write(dir, files);
    const read = await readBundleFiles(path.join(dir, 'b'), { limits: { ...bundleReadLimits, files: 5 } });
    assert.deepEqual([...read.files.keys()], ['topology.dot']);
    // cards, f0, f0/g, f1, f1/g: five folders; the rest are not entered
    assert.deepEqual(read.skipped.overLimit, ['cards/f2/', 'cards/f3/', 'cards/f4/', 'cards/f5/']);
  });

  it('the finding calls what the limits left out by its kind: files not read, folders not walked', () => {
    const message = (overLimit: string[]): string => skippedReadsDiagnostics({ ...noSkippedReads, overLimit }, 'topology.dot', 'the workspace folder')[0].message;
    assert.match(message(['cards/f2/', 'cards/f3/']), /: 2 folders \(cards\/f2\/, cards\/f3\/\) were not walked because a bundle reads at most 10,000 files and 64 MB, and walks at most 10,000 folders below cards\/\./);
    assert.match(message(['cards/a.yaml']), /: 1 file \(cards\/a\.yaml\) was not read because a bundle reads at most 10,000 files and 64 MB\./);
    assert.match(message(['cards/a.yaml', 'cards/b.yaml', 'cards/deep/']), /: 2 files \(cards\/a\.yaml, cards\/b\.yaml\) and 1 folder \(cards\/deep\/\) were not read or walked because .* and walks at most 10,000 folders below cards\/\./);
  });

  it('the real limits are the shared ones: a file past 16 MB is not read, whole or again', async function () {
    write(dir, { 'b/topology.dot': 'digraph g {}', 'b/cards/big@1.0.0.yaml': '' });
    truncateSync(path.join(dir, 'b/cards/big@1.0.0.yaml'), bundleReadLimits.fileBytes + 1);
    const read = await readBundleFiles(path.join(dir, 'b'));
    assert.deepEqual([...read.files.keys()], ['topology.dot']);
    assert.deepEqual(read.skipped.tooLarge, ['cards/big@1.0.0.yaml']);
    assert.equal(await readBundleFile(path.join(dir, 'b'), 'cards/big@1.0.0.yaml', path.join(dir, 'b')), 'skipped');
  });

  it('a file added or grown is checked against the limits before it joins a bundle read whole', function () {
    const disk = new Map([
      ['topology.dot', { text: 'digraph g {}' }],
      ['cards/a@1.0.0.yaml', { text: card('a') }],
    ]);
    const limits: ReadLimits = { files: 2, totalBytes: 40, fileBytes: 30 };
    assert.equal(fitsReadLimits(disk, 'cards/a@1.0.0.yaml', card('a'), limits), true, 'a changed file, the same count');
    assert.equal(fitsReadLimits(disk, 'cards/b@1.0.0.yaml', card('b'), limits), false, 'a third file');
    assert.equal(fitsReadLimits(disk, 'cards/a@1.0.0.yaml', 'x'.repeat(29), limits), false, 'past the bytes in all');
    assert.equal(fitsReadLimits(disk, 'topology.dot', 'x'.repeat(31), { ...limits, totalBytes: 100 }), false, 'past the bytes of one file');
  });
});
