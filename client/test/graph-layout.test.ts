/// <reference types="mocha" />
/**
 * The graph view's layout thread (../src/graph-layout.ts, ../src/graph-worker.ts), bundled as
 * scripts/build.mjs bundles it: it draws a picture exactly as the engine's `renderPicture` does,
 * draws several in turn, and a picture Graphviz refuses fails that picture alone.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { build } from 'esbuild';
import { loadBundleFolder } from '../../shared/src/cli';
import type { Picture } from '../../shared/src/picture/model';
import { pictureOf } from '../../shared/src/picture/picture';
import { renderPicture } from '../../shared/src/picture/render';
import { createLayout, type Layout } from '../src/graph-layout';

const repoRoot = path.resolve(__dirname, '../..');

describe('graph view: the layout thread', function () {
  let folder: string;
  let layout: Layout;
  let picture: Picture;

  before(async function () {
    folder = mkdtempSync(path.join(os.tmpdir(), 'darkprint-layout-'));
    const outfile = path.join(folder, 'graph-worker.js');
    await build({ entryPoints: [path.join(repoRoot, 'client/src/graph-worker.ts')], outfile, bundle: true, platform: 'node', target: 'node20', format: 'cjs', logLevel: 'warning' });
    layout = createLayout(outfile);
    const { result, files } = await loadBundleFolder(path.join(repoRoot, 'test-fixtures/example'));
    picture = pictureOf(result, { hideByteOrderMark: true, files });
  });

  after(function () {
    layout?.dispose();
    rmSync(folder, { recursive: true, force: true });
  });

  it('draws a picture as renderPicture does, and the next ones too', async function () {
    const expected = await renderPicture(picture);
    assert.equal(await layout.render(picture), expected);
    const smaller = { ...picture, nodes: picture.nodes.slice(0, 2), edges: picture.edges.filter((e) => e.index === 0) };
    const [again, small] = await Promise.all([layout.render(picture), layout.render(smaller)]);
    assert.equal(again, expected);
    assert.equal(small, await renderPicture(smaller));
  });

  it('a picture that cannot be drawn fails alone; the thread draws the next one', async function () {
    const broken = { ...picture, nodes: null as never };
    await assert.rejects(layout.render(broken));
    assert.equal(await layout.render(picture), await renderPicture(picture));
  });

  it('closed, it fails what it still held', async function () {
    const closing = createLayout(path.join(folder, 'graph-worker.js'));
    const held = closing.render(picture);
    closing.dispose();
    await assert.rejects(held, /closed/);
  });
});
