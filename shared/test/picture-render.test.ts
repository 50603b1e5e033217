/**
 * The renderer: every fixture of the picture model (./support/picture-fixtures.ts), broken ones
 * included, is drawn with one SVG group per node and per edge, carrying the element's key as
 * its id and its classes; the texts inside carry theirs; the topology's direction reaches
 * Graphviz; and nothing in the SVG refers to anything outside it, whatever the bundle's texts say.
 */
import assert from 'node:assert/strict';
import { loadBundle } from '../src/bundle/resolve';
import { pictureClasses, pictureDot, pictureOf, renderPicture, type Picture } from '../src/picture';
import { cardFile, pictureOfRow, readPictureRow } from './support/picture';
import { pictureRows } from './support/picture-fixtures';
import { parseFixture } from './support/fixture';
import { example } from './support/mutations';

/** The groups of an SVG by id: their classes. */
function groups(svg: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const match of svg.matchAll(/<g id="([^"]*)" class="([^"]*)">/g)) {
    assert.ok(!out.has(match[1]), `id ${match[1]} appears twice`);
    out.set(match[1], match[2].split(' '));
  }
  return out;
}

/** Asserts that each node and edge of the picture has its group with exactly its classes (after Graphviz's own `node`/`edge`). */
function assertElements(picture: Picture, svg: string): void {
  const found = groups(svg);
  const classes = pictureClasses(picture);
  picture.nodes.forEach((node, n) => assert.deepEqual(found.get(node.key), ['node', ...classes.nodes[n]], `node ${node.id}`));
  picture.edges.forEach((edge, e) => assert.deepEqual(found.get(edge.key), ['edge', ...classes.edges[e]], `edge ${e}`));
  assert.equal(found.size, picture.nodes.length + picture.edges.length, 'no other element group than the nodes and edges');
  assert.equal(svg.split('class="dp-name"').length - 1, picture.nodes.length, 'one name per block');
}

/**
 * Asserts that nothing in the SVG can load anything: no DOCTYPE, link, image, script, foreign
 * object or CSS `url(`, and no address outside the texts drawn but the SVG namespace's name.
 */
function assertSelfContained(svg: string): void {
  assert.ok(svg.startsWith('<svg class="dp-picture" '), 'starts with the svg element');
  const markup = svg.replace(/(<text[^>]*>)[^<]*(<\/text>)/g, '$1$2');
  for (const banned of ['<!DOCTYPE', '<?xml', 'href', '<image', '<script', '<foreignObject', '<a ', 'url(', '@import', '<style', 'xlink:']) {
    assert.ok(!markup.includes(banned), `the markup holds ${banned}`);
  }
  const addresses = [...markup.matchAll(/[a-z][a-z0-9+.-]*:\/\/[^"'\s<>]*/gi)].map((m) => m[0]);
  assert.deepEqual([...new Set(addresses)], ['http://www.w3.org/2000/svg']);
}

describe('renderer: every fixture drawn', () => {
  for (const row of pictureRows) {
    it(row.name, async () => {
      const picture = pictureOfRow(row);
      const svg = await renderPicture(picture);
      assertElements(picture, svg);
      assertSelfContained(svg);
      if (!picture.graph.drawn || picture.nodes.length === 0) assert.match(svg, /class="dp-caption"[^>]*>(No directed graph to draw|The topology declares no node)/);
    });
  }
});

describe('renderer: what the drawing says', () => {
  const row = (prefix: string): Picture => pictureOfRow(pictureRows.find((r) => r.name.startsWith(prefix))!);

  it('overlays and severities become classes of the nodes and edges they touch', () => {
    const picture = row('criteria leak');
    const classes = pictureClasses(picture);
    assert.deepEqual(classes.nodes, [
      ['dp-node', 'dp-family-agent', 'dp-sev-warning', 'dp-leak', 'dp-fork', 'dp-entry'],
      ['dp-node', 'dp-family-agent', 'dp-sev-warning', 'dp-risk', 'dp-leak'],
      ['dp-node', 'dp-family-evaluative', 'dp-exit'],
    ]);
    assert.deepEqual(classes.edges, [['dp-edge', 'dp-leak', 'dp-fork-arm'], ['dp-edge'], ['dp-edge', 'dp-fork-arm']]);
    const broken = pictureClasses(row('edges that carry nothing'));
    assert.deepEqual(broken.edges[0], ['dp-edge', 'dp-sev-error', 'dp-empty', 'dp-fork-arm']);
    const cardless = pictureClasses(row('nodes without a card'));
    assert.deepEqual(cardless.nodes[1], ['dp-node', 'dp-family-none', 'dp-unresolved', 'dp-sev-error']);
    assert.deepEqual(cardless.edges[1], ['dp-edge', 'dp-pending']);
    const loops = pictureClasses(row('unbounded loops'));
    assert.deepEqual(loops.edges[2], ['dp-edge', 'dp-guarded', 'dp-back', 'dp-loop']);
  });

  it('keeps the topology direction, and runs an edge that closes a cycle backwards, pointing the right way', () => {
    const picture = row('relayed through a judge');
    const dot = pictureDot(picture);
    assert.match(dot, /rankdir=LR/);
    assert.match(dot, /"dp-n-worker" -> "dp-n-fixer" \[id="dp-e-3", [^\n]*, dir=back\];/);
    assert.match(pictureDot(row('criteria leak')), /rankdir=TB/);
  });

  it('labels blocks with type and name, and edges with their label, guard and what they carry', async () => {
    const picture = pictureOf(loadBundle(example, { folderName: 'example' }));
    const svg = await renderPicture(picture);
    /** The texts of one class inside the group of `key`. */
    const texts = (key: string, className: string): string[] => {
      const group = svg.slice(svg.indexOf(`<g id="${key}" `), svg.indexOf('</g>', svg.indexOf(`<g id="${key}" `)));
      return [...group.matchAll(new RegExp(`class="${className}"[^>]*>([^<]*)<`, 'g'))].map((m) => m[1]);
    };
    assert.deepEqual(texts('dp-n-test_runner', 'dp-kind'), ['shell-tool (tool)']);
    assert.deepEqual(texts('dp-n-acceptance_judge', 'dp-kind'), ['validation (evaluative)']);
    assert.deepEqual(texts('dp-n-release_gate', 'dp-kind'), ['human-gate (human)']);
    assert.deepEqual(texts('dp-n-release_gate', 'dp-name'), ['Release sign-off']);
    assert.deepEqual(texts('dp-n-release_publisher', 'dp-risks'), ['⚠ irreversible-action']);
    assert.deepEqual(texts('dp-e-4', 'dp-label'), ['acceptance criteria']);
    assert.deepEqual(texts('dp-e-4', 'dp-data'), ['criteria: acceptance-criteria']);
    assert.deepEqual(texts('dp-e-6', 'dp-guard'), ['[outcome=fail]']);
    assert.deepEqual(texts('dp-e-7', 'dp-data'), ['patch → code: code']);
  });

  it('draws what a bundle says as text, never as markup or an address', async () => {
    const hostile = '<image href="http://e.x/i"/>url(//e.x) &"\u0007\uD800';
    const files = parseFixture(`
//- topology.dot
digraph g { a [card="a@1.0.0", label="x", URL="http://evil.example", image="http://evil.example/i.png"]; "b<script>" [label="javascript:alert(1)"]; a -> "b<script>" [label="see http://evil.example/", href="http://evil.example"]; }
${cardFile({ id: 'a', name: hostile, outputs: [['out', 'text']] })}
`).files;
    const picture = pictureOf(loadBundle(files, { folderName: 'hostile' }));
    const svg = await renderPicture(picture);
    assertSelfContained(svg);
    assertElements(picture, svg);
    assert.ok(svg.includes('>&lt;image href=&quot;http://e.x/i&quot;/&gt;url(//e.x) &amp;&quot;\\u0007\\ud800<'), 'the name is drawn as text, escaped');
    assert.ok(svg.includes('>javascript:alert(1)<'));
  });

  it('draws a bundle with no topology, and one that is not a digraph', async () => {
    for (const name of ['no topology', 'an undirected topology']) {
      const { files } = readPictureRow(pictureRows.find((r) => r.name.startsWith(name))!);
      const svg = await renderPicture(pictureOf(loadBundle(files)));
      assert.equal(groups(svg).size, 0);
      assertSelfContained(svg);
    }
  });
});
