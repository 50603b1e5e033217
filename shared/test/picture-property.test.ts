/**
 * Property tests of the picture (docs/architecture.md#tests): on any bundle the readers accept
 * (the example bundle with mutated files, random file sets: ./support/mutations.ts), `pictureOf`
 * returns a model that is plain data, whose places lie inside the files they name, whose edges
 * and overlays name only the picture's own nodes and edges, and whose keys are distinct; and the
 * renderer draws every such model with one element per node and per edge. Outcomes are
 * asserted, never times.
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { loadBundle } from '../src/bundle/resolve';
import type { SourceFile } from '../src/bundle/model';
import { lineStarts } from '../src/text';
import { pictureOf, renderPicture, type Picture, type PicturePlace } from '../src/picture';
import { mutatedExampleBundles, randomFileSets } from './support/mutations';

function checkPicture(files: readonly SourceFile[], hideByteOrderMark: boolean): Picture {
  const picture = pictureOf(loadBundle(files, { folderName: 'mutated' }), { files, hideByteOrderMark });
  assert.deepEqual(JSON.parse(JSON.stringify(picture)), picture, 'plain data');
  const texts = new Map(files.map((f) => [f.path, f.text] as const));
  const inside = (place: PicturePlace | undefined, where: string): void => {
    if (place === undefined) return;
    const text = texts.get(place.file);
    assert.ok(text !== undefined, `${where}: ${place.file} is no input`);
    const starts = lineStarts(text);
    const width = (line: number): number => (line < starts.length ? starts[line] : text.length + 1) - starts[line - 1];
    assert.ok(place.line >= 1 && place.line <= starts.length && place.column >= 1 && place.column <= width(place.line) + 1, `${where}: starts at ${place.line}:${place.column}`);
    assert.ok(place.endLine >= place.line && place.endLine <= starts.length && place.endColumn >= 1 && place.endColumn <= width(place.endLine) + 1, `${where}: ends at ${place.endLine}:${place.endColumn}`);
    assert.ok(place.endLine > place.line || place.endColumn >= place.column, `${where}: ends before it starts`);
  };
  const ids = new Set(picture.nodes.map((n) => n.id));
  assert.equal(ids.size, picture.nodes.length, 'one node per id');
  assert.equal(new Set(picture.nodes.map((n) => n.key)).size, picture.nodes.length, 'distinct node keys');
  for (const node of picture.nodes) {
    inside(node.place, `node ${node.id}`);
    inside(node.card.place, `card of ${node.id}`);
    for (const f of node.findings) inside(f.place, `${f.code} on ${node.id}`);
  }
  picture.edges.forEach((edge, e) => {
    assert.equal(edge.index, e);
    assert.ok(ids.has(edge.source) && ids.has(edge.target), `edge ${e} between the picture's nodes`);
    inside(edge.place, `edge ${e}`);
    for (const f of edge.findings) inside(f.place, `${f.code} on edge ${e}`);
  });
  const { overlays } = picture;
  const edgeOk = (e: number): boolean => Number.isInteger(e) && e >= 0 && e < picture.edges.length;
  for (const route of [...overlays.leaks, ...overlays.relays]) {
    assert.ok(ids.has(route.node) && route.nodes.every((id) => ids.has(id)) && route.edges.every(edgeOk), `route to ${route.node}`);
  }
  for (const loop of overlays.loops) assert.ok(loop.nodes.every((id) => ids.has(id)) && loop.edges.every(edgeOk));
  for (const fork of overlays.forks) assert.ok(ids.has(fork.node) && fork.arms.every(edgeOk));
  for (const id of [...overlays.entries, ...overlays.exits, ...overlays.unreachable]) assert.ok(ids.has(id));
  for (const item of picture.unsettled) {
    assert.ok(item.message.length > 0);
    inside(item.place, `settle ${item.kind}`);
  }
  for (const f of picture.findings) inside(f.place, f.code);
  return picture;
}

describe('property: the picture of any bundle the readers accept', () => {
  it('pictureOf on the example bundle with mutated files', () => {
    fc.assert(fc.property(mutatedExampleBundles(), fc.boolean(), (files, hide) => void checkPicture(files, hide)), { numRuns: 100 });
  });

  it('pictureOf on random file sets', () => {
    fc.assert(fc.property(randomFileSets(), fc.boolean(), (files, hide) => void checkPicture(files, hide)), { numRuns: 150 });
  });

  it('renderPicture draws each of them, one element per node and per edge', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(mutatedExampleBundles(), randomFileSets()), async (files) => {
        const picture = checkPicture(files, false);
        const svg = await renderPicture(picture);
        for (const key of [...picture.nodes.map((n) => n.key), ...picture.edges.map((e) => e.key)]) {
          assert.equal(svg.split(`<g id="${key}" `).length, 2, `one element ${key}`);
        }
      }),
      { numRuns: 40 },
    );
  });
});
