/// <reference types="mocha" />
/**
 * The graph view's parts that need no VS Code: the page (../src/graph-html.ts) and its content
 * security policy, what a hover shows, which nodes and edges the cursor is about, the messages the
 * page may post, the `darkprint/graph` answer's reader (../src/protocol.ts), the pan and zoom
 * arithmetic (../src/graph-zoom.ts), the atomic write of an export (../src/atomic-write.ts), and
 * the report's link to the graph.
 */
import assert from 'node:assert/strict';
import { chmodSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadBundle } from '../../shared/src/bundle/resolve';
import { loadBundleFolder } from '../../shared/src/cli';
import { pictureFamilies, type Picture } from '../../shared/src/picture/model';
import { pictureOf } from '../../shared/src/picture/picture';
import { parseFixture } from '../../shared/test/support/fixture';
import { writeFileAtomically } from '../src/atomic-write';
import { edgeTip, graphView, isBundleFile, keysAt, legendEntries, listedTipFindings, nodeTip, readFromPage, renderGraphHtml, showGraphCommand, toggles } from '../src/graph-html';
import { fitTransform, legibleScale, maxScale, minScale, overflows, readTransform, wheelFactor, zoomAbout } from '../src/graph-zoom';
import { readGraphAnswer, readReportAnswer } from '../src/protocol';
import { renderReportHtml } from '../src/report-html';

const example = path.resolve(__dirname, '../../test-fixtures/example');

async function examplePicture(): Promise<Picture> {
  const { result, files } = await loadBundleFolder(example);
  return pictureOf(result, { hideByteOrderMark: true, files });
}

function pictureOfFixture(fixture: string): Picture {
  const files = parseFixture(fixture).files.map((f) => ({ path: f.path, text: f.text }));
  return pictureOf(loadBundle(files, { folderName: 'bundle' }), { files });
}

const card = (id: string, inputs: string, outputs: string): string => `//- cards/${id}@1.0.0.yaml
id: ${id}
name: ${id[0].toUpperCase()}${id.slice(1)}
type: agent
action: work
spec: Does its one part of the work and hands the result on to the next step.
inputs: ${inputs}
outputs: ${outputs}
version: 1.0.0
`;

/** A writer feeding a reviewer, a chain on one line, and a node only an edge names. */
const small = `//- topology.dot
digraph g {
  writer [card="writer@1.0.0"];
  reviewer [card="reviewer@1.0.0"];
  writer -> reviewer [label="draft"];
  reviewer -> ghost;
}
${card('writer', '[]', '[{ name: draft, type: markdown }]')}${card('reviewer', '[{ name: draft, type: markdown }]', '[]')}`;

describe('graph view: the page', () => {
  const page = { cspSource: 'vscode-webview://abc', nonce: 'NoNcE123', scriptUri: 'vscode-webview://abc/client/out/graph-view.js', title: 'DarkPrint graph: <b>"x"</b>' };
  const html = renderGraphHtml(page);

  it('has a strict content security policy: nothing by default, scripts and styles only by nonce', () => {
    const policy = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1].replace(/&#39;/g, "'");
    assert.ok(policy !== undefined, 'the page has a policy');
    const directives = new Map(policy.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values] as const));
    assert.deepEqual(directives.get('default-src'), ["'none'"]);
    assert.deepEqual(directives.get('script-src'), ["'nonce-NoNcE123'"]);
    assert.deepEqual(directives.get('style-src'), ["'nonce-NoNcE123'"]);
    assert.ok(!policy.includes('unsafe'), policy);
  });

  it('runs one script, the extension’s own, by nonce; every style by nonce; nothing inline on an element', () => {
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    assert.equal(scripts.length, 1);
    assert.match(scripts[0][1], /nonce="NoNcE123"/);
    assert.match(scripts[0][1], /src="vscode-webview:\/\/abc\/client\/out\/graph-view\.js"/);
    assert.equal(scripts[0][2], '');
    for (const style of html.matchAll(/<style([^>]*)>/g)) assert.match(style[1], /nonce="NoNcE123"/);
    assert.ok(!/\sstyle="/.test(html), 'no style attribute (the policy would refuse it)');
    assert.ok(!/\son[a-z]+="/.test(html), 'no inline event handler');
  });

  it('refers to nothing remote', () => {
    assert.deepEqual([...html.matchAll(/\bhttps?:\/\/[^\s"')]*/g)].map((m) => m[0]), []);
    assert.ok(!html.includes('url('), 'no CSS url()');
  });

  it('escapes its title, and offers every toggle and a legend entry for every family', () => {
    assert.match(html, /<title>DarkPrint graph: &#60;b&#62;&#34;x&#34;&#60;\/b&#62;<\/title>/);
    for (const toggle of toggles) assert.match(html, new RegExp(`data-toggle="${toggle.id}" checked`));
    const families = legendEntries.families.map(([family]) => family);
    for (const family of Object.keys(pictureFamilies)) assert.ok(families.includes(family as never), family);
    for (const family of families) assert.match(html, new RegExp(`class="node dp-node dp-family-${family}`));
  });

  it('styles every class the renderer gives with theme variables, not fixed colours', () => {
    for (const name of ['dp-sev-error', 'dp-sev-warning', 'dp-leak', 'dp-relay', 'dp-loop', 'dp-fork-arm', 'dp-pending', 'dp-risks', 'dp-data', 'dp-selected', 'hide-risk', 'hide-data', 'hide-findings', 'hide-analysis']) {
      assert.ok(html.includes(`.${name}`), name);
    }
    const style = /<style[^>]*>([\s\S]*?)<\/style>/.exec(html)![1];
    assert.deepEqual(style.match(/#[0-9a-fA-F]{3,6}\b/g) ?? [], [], 'the stylesheet names no colour of its own');
    assert.match(style, /body\.vscode-high-contrast/);
  });
});

describe('graph view: what a hover shows', () => {
  it('a node: its name, id and type, its card, phases and risks, its findings worst first', async () => {
    const picture = await examplePicture();
    const publisher = picture.nodes.find((n) => n.id === 'release_publisher')!;
    const tip = nodeTip(publisher);
    assert.equal(tip.key, 'dp-n-release_publisher');
    assert.equal(tip.title, publisher.name);
    assert.ok(tip.lines[0].startsWith('release_publisher: '), tip.lines[0]);
    assert.ok(tip.lines.includes(`card ${publisher.card.ref}`), tip.lines.join(' | '));
    assert.ok(tip.lines.some((l) => l.startsWith('risks: irreversible-action (−1.50, ')), tip.lines.join(' | '));
    const unresolved = nodeTip(pictureOfFixture(small).nodes.find((n) => n.id === 'ghost')!);
    assert.ok(unresolved.lines.includes('pins no card'), unresolved.lines.join(' | '));
    assert.ok(unresolved.findings.length > 0);
    const order = ['error', 'warning', 'info'];
    const severities = unresolved.findings.map((f) => order.indexOf(f.severity));
    assert.deepEqual(severities, [...severities].sort((a, b) => a - b));
  });

  it('an edge: its ends, label, ports and data, or why it carries nothing', () => {
    const picture = pictureOfFixture(small);
    const wired = edgeTip(picture.edges[0], picture);
    assert.equal(wired.title, 'writer → reviewer');
    assert.deepEqual(wired.lines, ['label: draft', 'draft → draft: markdown']);
    const pending = edgeTip(picture.edges[1], picture);
    assert.ok(pending.lines.some((l) => l.startsWith('carries nothing')), pending.lines.join(' | '));
  });

  it('lists at most a few findings and says how many more', () => {
    const picture = pictureOfFixture(small);
    const node = picture.nodes[0];
    const many = { ...node, findings: Array.from({ length: listedTipFindings + 3 }, (_, i) => ({ code: `x/${i}`, severity: 'info' as const, message: 'm' })) };
    const tip = nodeTip(many);
    assert.equal(tip.findings.length, listedTipFindings);
    assert.equal(tip.more, 3);
  });

  it('the view: a summary line, a hover per node and edge in model order, what is still to settle', async () => {
    const picture = await examplePicture();
    const view = graphView(picture);
    assert.deepEqual(view.nodes.map((t) => t.key), picture.nodes.map((n) => n.key));
    assert.deepEqual(view.edges.map((t) => t.key), picture.edges.map((e) => e.key));
    assert.match(view.summary, new RegExp(`^${picture.header.title} · security ${picture.header.security!.level}/4 · autonomy `));
    assert.deepEqual(view.unsettled, picture.unsettled.map((u) => u.message));
    assert.deepEqual(JSON.parse(JSON.stringify(view)), view, 'the view survives postMessage');
  });
});

describe('graph view: what the cursor is about', () => {
  const picture = pictureOfFixture(small);
  // (lines and characters from 0, as an editor counts them)
  it('a node statement: its node; the cursor just after it too', () => {
    assert.deepEqual(keysAt(picture, 'topology.dot', 1, 4), ['dp-n-writer']);
    assert.deepEqual(keysAt(picture, 'topology.dot', 2, '  reviewer [card="reviewer@1.0.0"]'.length), ['dp-n-reviewer']);
  });
  it('an edge: the edge and its two ends', () => {
    assert.deepEqual(keysAt(picture, 'topology.dot', 3, 12), ['dp-e-0', 'dp-n-writer', 'dp-n-reviewer']);
    // (a node only edges name is placed at its first mention: the cursor is on its place too)
    assert.deepEqual(keysAt(picture, 'topology.dot', 4, 15), ['dp-n-ghost', 'dp-e-1', 'dp-n-reviewer']);
  });
  it('elsewhere: the node the word under the cursor names, else nothing', () => {
    assert.deepEqual(keysAt(picture, 'topology.dot', 0, 0), []);
    assert.deepEqual(keysAt(picture, 'topology.dot', 0, 0, 'reviewer'), ['dp-n-reviewer']);
    assert.deepEqual(keysAt(picture, 'topology.dot', 0, 0, 'digraph'), []);
  });
  it('a card: every node that pins it, wherever the cursor is', () => {
    assert.deepEqual(keysAt(picture, 'cards/writer@1.0.0.yaml', 3, 0), ['dp-n-writer']);
    assert.deepEqual(keysAt(picture, 'blueprint.yaml', 0, 0), []);
  });
});

describe('graph view: messages, answers and files', () => {
  it('reads the messages the page may post, and nothing else', () => {
    assert.deepEqual(readFromPage({ type: 'ready' }), { type: 'ready' });
    assert.deepEqual(readFromPage({ type: 'reveal', key: 'dp-n-a', extra: 1 }), { type: 'reveal', key: 'dp-n-a' });
    assert.deepEqual(readFromPage({ type: 'openCard', key: 'dp-n-a' }), { type: 'openCard', key: 'dp-n-a' });
    for (const junk of [null, 'ready', { type: 'reveal' }, { type: 'reveal', key: 3 }, { type: 'run', key: 'x' }, { type: 'openCard', key: 'x'.repeat(5000) }]) {
      assert.equal(readFromPage(junk), undefined, JSON.stringify(junk)?.slice(0, 40));
    }
  });

  it('reads a darkprint/graph answer as the server writes it, reasons as a refusal, and junk as nothing', async () => {
    const picture = JSON.parse(JSON.stringify(await examplePicture())) as Picture;
    const answer = { root: 'file:///w/example', picture, versions: [{ file: 'topology.dot', uri: 'file:///w/example/topology.dot', version: 4 }, { file: 3 }], unreadable: [] };
    assert.deepEqual(readGraphAnswer(answer), { kind: 'graph', root: 'file:///w/example', picture, versions: [answer.versions[0]], unreadable: [] });
    assert.deepEqual(readGraphAnswer({ reasons: ['No bundle.'] }), { kind: 'refused', reasons: ['No bundle.'] });
    assert.equal(readGraphAnswer({ root: 'x', picture: { ...picture, nodes: [{ id: 'a' }] } }), undefined);
    assert.equal(readGraphAnswer({ root: 'x', picture: { ...picture, edges: 'none' } }), undefined);
    assert.equal(readGraphAnswer(null), undefined);
  });

  it('names the files of a bundle, which an export never writes over', () => {
    const picture = pictureOfFixture(small);
    for (const own of ['topology.dot', 'blueprint.yaml', 'ontology/extensions.yaml', 'cards/writer@1.0.0.yaml', 'cards/deep/x.json', 'other.gv']) assert.ok(isBundleFile(own, picture), own);
    for (const other of ['graph.svg', 'release.graph.svg', 'docs/topology.dot', 'cards/readme.md']) assert.ok(!isBundleFile(other, picture), other);
  });

  it('the report links to the graph of its bundle', () => {
    const answer = readReportAnswer({
      security: { level: 4, rationale: 'r', penalties: [], findings: [], cycles: [] },
      autonomy: { level: 1, label: 'Assisted', fraction: 0, staffingFraction: 0, control: {} },
      phaseCoverage: { covered: [], missing: [], byPhase: {}, unphased: [] },
    })!;
    const html = renderReportHtml(answer, { bundle: 'file:///w/example', bundleName: 'example', cspSource: 'x' });
    const href = `command:${showGraphCommand}?${encodeURIComponent(JSON.stringify(['file:///w/example']))}`;
    assert.ok(html.includes(`href="${href.replace(/&/g, '&#38;').replace(/"/g, '&#34;').replace(/'/g, '&#39;')}"`), html);
  });
});

describe('graph view: pan and zoom', () => {
  it('fits a drawing centred with a margin, never enlarged beyond the largest scale', () => {
    const wide = fitTransform({ width: 2000, height: 200 }, { width: 1032, height: 600 });
    assert.equal(wide.scale, 0.5);
    assert.equal(wide.x, 16);
    assert.equal(wide.y, (600 - 100) / 2);
    const tiny = fitTransform({ width: 100, height: 50 }, { width: 1000, height: 800 });
    assert.equal(tiny.scale, 1.25);
    assert.equal(tiny.x, (1000 - 125) / 2);
    assert.deepEqual(fitTransform({ width: 0, height: 0 }, { width: 10, height: 10 }), { x: 0, y: 0, scale: 1 });
    assert.ok(!overflows({ width: 2000, height: 200 }, { width: 1032, height: 600 }, wide));
  });

  it('a first view keeps the texts legible: a drawing too wide is shown from its start, to be panned', () => {
    const view = fitTransform({ width: 2000, height: 200 }, { width: 1032, height: 600 }, { smallest: legibleScale });
    assert.deepEqual(view, { x: 16, y: (600 - 200 * legibleScale) / 2, scale: legibleScale });
    assert.ok(overflows({ width: 2000, height: 200 }, { width: 1032, height: 600 }, view));
    // (one that fits at a legible scale is fitted whole, as without the floor)
    assert.deepEqual(fitTransform({ width: 500, height: 200 }, { width: 1032, height: 600 }, { smallest: legibleScale }), fitTransform({ width: 500, height: 200 }, { width: 1032, height: 600 }));
  });

  it('zooms about a point that stays put on screen, within the scale limits', () => {
    const view = { x: 40, y: -20, scale: 0.8 };
    const point = { x: 300, y: 200 };
    const zoomed = zoomAbout(view, point, 1.5);
    const before = { x: (point.x - view.x) / view.scale, y: (point.y - view.y) / view.scale };
    assert.ok(Math.abs(before.x * zoomed.scale + zoomed.x - point.x) < 1e-9);
    assert.ok(Math.abs(before.y * zoomed.scale + zoomed.y - point.y) < 1e-9);
    assert.equal(zoomAbout(view, point, 1e6).scale, maxScale);
    assert.equal(zoomAbout(view, point, 1e-6).scale, minScale);
    assert.ok(wheelFactor(100) < 1 && wheelFactor(-100) > 1);
    assert.equal(wheelFactor(1e9), wheelFactor(300));
  });

  it('reads a saved view back, and nothing that is not one', () => {
    assert.deepEqual(readTransform({ x: 1, y: 2, scale: 0.5 }), { x: 1, y: 2, scale: 0.5 });
    for (const junk of [undefined, null, { x: 1, y: 2 }, { x: 1, y: 2, scale: 0 }, { x: Number.NaN, y: 0, scale: 1 }, { x: '1', y: 2, scale: 1 }]) assert.equal(readTransform(junk), undefined);
  });
});

describe('graph view: the export writes atomically', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'darkprint-graph-export-'));
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  it('writes a new file, and replaces one keeping its mode, leaving no temporary file', async () => {
    const file = path.join(tmp, 'g.svg');
    await writeFileAtomically(file, new TextEncoder().encode('<svg/>'));
    assert.equal(readFileSync(file, 'utf8'), '<svg/>');
    chmodSync(file, 0o600);
    await writeFileAtomically(file, new TextEncoder().encode('<svg>2</svg>'));
    assert.equal(readFileSync(file, 'utf8'), '<svg>2</svg>');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(readdirSync(tmp), ['g.svg']);
  });

  it('writes through a symbolic link, and refuses a folder', async () => {
    const real = path.join(tmp, 'real.svg');
    writeFileSync(real, 'old');
    const link = path.join(tmp, 'link.svg');
    symlinkSync(real, link);
    assert.equal(await writeFileAtomically(link, new TextEncoder().encode('new')), real);
    assert.ok(lstatSync(link).isSymbolicLink());
    assert.equal(readFileSync(real, 'utf8'), 'new');
    mkdirSync(path.join(tmp, 'folder'));
    await assert.rejects(writeFileAtomically(path.join(tmp, 'folder'), new Uint8Array()), /not a regular file/);
  });
});
