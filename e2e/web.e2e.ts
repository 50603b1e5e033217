/**
 * End-to-end: the extension as a web extension, in code-server's web worker extension host (as
 * vscode.dev and github.dev run it). `npm run test:e2e:web` packages the regular .vsix, then a
 * variant whose manifest has only `browser` (code-server runs such an extension in the browser's
 * Worker, with no Node: e2e/support/code-server.ts `packageWebOnlyExtension`), installs that, and
 * drives the UI: the language server runs in a Web Worker and reads the workspace through the
 * extension (docs/web.md).
 *
 * Prints, without asserting, how long the first diagnostics take after the workbench and the
 * editor open, and how long a card edit takes to show on the topology. Every wait is on UI state.
 */
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'fs';
import * as path from 'path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { readBundleFiles } from '../shared/src/cli';
import { loadBundle, readManifest } from '../shared/src/bundle';
import { pictureOf } from '../shared/src/picture';
import { coreTerms } from '../shared/src/vocabulary';
import {
  copyIntoWorkspace,
  createScratch,
  installExtension,
  installPrerequisites,
  packageExtension,
  packageWebOnlyExtension,
  startCodeServer,
  writeUserSettings,
  type RunningCodeServer,
  type Scratch,
} from './support/code-server';
import { applyCodeAction, findInEditor, goTo, hoverAtCursor, openFile, openWorkbench, revertAndCloseAll, runCommand, suggestions, waitForLines, waitForSquiggle, type Workbench } from './support/workbench';

const stepTimeoutMs = Number(process.env.DARKPRINT_E2E_STEP_TIMEOUT_MS ?? 30_000);
const chromiumPath = process.env.DARKPRINT_E2E_CHROMIUM ?? '/usr/bin/chromium';

describe('the DarkPrint web extension in code-server’s web worker extension host', function () {
  this.timeout(180_000);
  this.slow(20_000);

  let scratch: Scratch;
  let server: RunningCodeServer | undefined;
  let context: BrowserContext | undefined;
  let page: Page;
  let workbench: Workbench;
  let example: string;
  let broken: string;
  /** When the workbench page started to load. */
  let pageOpened = 0;
  let clean = false;

  before(async function () {
    this.timeout(60 * 60_000); // the first run compiles code-server's native modules
    const entry = installPrerequisites((line) => console.log(`      ${line}`));
    packageExtension();
    scratch = createScratch();
    const vsix = packageWebOnlyExtension(scratch.root);
    installExtension(entry, vsix, scratch);
    writeUserSettings(scratch);
    example = copyIntoWorkspace(scratch, 'test-fixtures/example', 'example');
    broken = copyIntoWorkspace(scratch, 'test-fixtures/e2e/broken', 'broken');
    server = await startCodeServer(entry, scratch, 120_000);
    context = await chromium.launchPersistentContext(scratch.browserProfile, {
      executablePath: chromiumPath,
      headless: true,
      viewport: { width: 1600, height: 1000 },
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    page = context.pages()[0] ?? (await context.newPage());
    pageOpened = Date.now();
    workbench = await openWorkbench(page, `${server.url}/?folder=${encodeURIComponent(scratch.workspace)}`, stepTimeoutMs);
    clean = true;
  });

  after(async function () {
    this.timeout(60_000);
    await context?.close();
    await server?.stop();
    if (scratch === undefined) return;
    const keep = !clean || process.env.DARKPRINT_E2E_ARTIFACTS !== undefined || process.env.DARKPRINT_E2E_EVIDENCE === '1';
    if (!keep) {
      fs.rmSync(scratch.root, { recursive: true, force: true });
      return;
    }
    console.log(`\n  e2e artifacts: ${scratch.root} (code-server log: ${path.join(scratch.root, 'code-server.log')})`);
  });

  beforeEach(async function () {
    if (workbench !== undefined) await revertAndCloseAll(workbench);
  });

  afterEach(async function () {
    const test = this.currentTest;
    if (test?.state === 'failed') clean = false;
    if (test === undefined || page === undefined) return;
    const name = test.title.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '').toLowerCase();
    const folder = test.state === 'failed' ? scratch.screenshots : process.env.DARKPRINT_E2E_EVIDENCE === '1' ? path.join(scratch.root, 'evidence') : undefined;
    if (folder === undefined) return;
    fs.mkdirSync(folder, { recursive: true });
    await page.screenshot({ path: path.join(folder, `${name}.png`) }).catch(() => undefined);
  });

  it('shows the example bundle’s findings in topology.dot, from a server that runs in no Node process', async function () {
    const topology = fs.readFileSync(path.join(example, 'topology.dot'), 'utf8');
    const expected = loadBundle(await readBundleFiles(example), { folderName: 'example' }).diagnostics.find((d) => d.location.file === 'topology.dot' && d.severity === 'warning' && d.location.span !== undefined);
    assert.ok(expected?.location.span !== undefined, 'the example bundle has a warning placed in its topology');
    const lineText = topology.slice(topology.lastIndexOf('\n', expected.location.span.start) + 1, topology.indexOf('\n', expected.location.span.start));
    const opening = Date.now();
    await openFile(workbench, 'example/topology.dot', 'DarkPrint Topology');
    const opened = Date.now();
    await waitForSquiggle(workbench, 'warning', lineText.trim());
    const shown = Date.now();
    console.log(`      first diagnostics of the example bundle: ${shown - opened} ms after its topology's editor opened (${shown - opening} ms after Quick Open was asked, ${shown - pageOpened} ms after the workbench page started to load)`);
    // (the desktop server is `server/out/server.js` in a Node process: none runs for these extensions)
    const processes = spawnSync('ps', ['-eo', 'args'], { encoding: 'utf8' }).stdout;
    assert.equal(processes.split('\n').some((line) => line.includes(scratch.extensions) && line.includes('server.js')), false, 'no Node language server process');
  });

  it('marks a broken pin in topology.dot and a thin spec in a card never opened before', async function () {
    await openFile(workbench, 'broken/topology.dot', 'DarkPrint Topology');
    await waitForSquiggle(workbench, 'error', 'card="reviewr@1.0.0"');
    await openFile(workbench, 'broken/cards/writer@1.0.0.yaml', 'YAML');
    await waitForSquiggle(workbench, 'warning', 'spec:');
  });

  it('shows the meaning of a vocabulary term on hover in a card', async function () {
    const card = 'example/cards/code-builder@1.1.0.yaml';
    const { line, column } = positionOf(fs.readFileSync(path.join(scratch.workspace, card), 'utf8'), 'type: agent', 'agent');
    await openFile(workbench, card, 'YAML');
    await goTo(workbench, line, column + 1);
    const meaning = coreTerms.find((term) => term.id === 'agent')?.meaning;
    assert.ok(meaning !== undefined, 'the vocabulary has no `agent` term');
    const hover = await hoverAtCursor(workbench, meaning);
    assert.ok(hover.includes(meaning), hover);
  });

  it('completes every pin of the bundle inside card="', async function () {
    const topology = fs.readFileSync(path.join(example, 'topology.dot'), 'utf8');
    const { line } = positionOf(topology, 'release_publisher [card=', 'release_publisher');
    const pins = fs
      .readdirSync(path.join(example, 'cards'))
      .map((file) => file.replace(/\.(ya?ml|json)$/, ''))
      .sort();
    await openFile(workbench, 'example/topology.dot', 'DarkPrint Topology');
    await goTo(workbench, line, 1);
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.insertText('probe [card=""];');
    await waitForLines(workbench, { includes: ['probe [card=""];'] });
    for (let step = 0; step < '"];'.length; step += 1) await page.keyboard.press('ArrowLeft');
    const labels = await suggestions(workbench, pins);
    for (const pin of pins) assert.ok(labels.includes(pin), `${pin} is missing from ${labels.join(', ')}`);
    await page.keyboard.press('Escape');
  });

  it('renames a `start` node on every line with the quick fix', async function () {
    const topology = fs.readFileSync(path.join(broken, 'topology.dot'), 'utf8');
    const { line, column } = positionOf(topology, 'start    [card=', 'start');
    const occurrences = topology.split('\n').filter((text) => /^\s*start\b|->\s*start\b|\bstart\s*->/.test(text)).length;
    await openFile(workbench, 'broken/topology.dot', 'DarkPrint Topology');
    await waitForSquiggle(workbench, 'warning', 'start    [card=');
    await goTo(workbench, line, column);
    await applyCodeAction(workbench, 'start_step');
    const lines = await waitForLines(workbench, {
      includes: ['start_step    [card="intake@1.0.0"]', 'start_step -> writer', 'start_step -> reviewer'],
      excludes: ['^\\s*start\\s', '->\\s*start\\b', '\\bstart\\s*->'],
    });
    assert.equal(lines.filter((text) => text.includes('start_step')).length, occurrences);
  });

  it('previews the compiled Attractor file with __start', async function () {
    const slug = readManifest({ path: 'blueprint.yaml', text: fs.readFileSync(path.join(example, 'blueprint.yaml'), 'utf8') }, 'example').manifest.slug;
    await openFile(workbench, 'example/topology.dot', 'DarkPrint Topology');
    await runCommand(workbench, 'DarkPrint: Preview Compiled Attractor File');
    const previewTab = page.locator('.tabs-container .tab').filter({ has: page.locator('.label-name', { hasText: `${slug}.attractor.dot` }) });
    await previewTab.first().waitFor({ state: 'visible', timeout: stepTimeoutMs });
    await previewTab.first().click();
    await findInEditor(workbench, '__start', true);
    await findInEditor(workbench, '__exit', true);
  });

  it('shows on topology.dot what a card edit breaks, without saving the card', async function () {
    const cardPath = 'cards/criteria-author@1.0.0.yaml';
    const cardText = fs.readFileSync(path.join(example, cardPath), 'utf8');
    const { line } = positionOf(cardText, '  - name: criteria', 'criteria');
    const lines = cardText.split('\n');
    const edited = [...lines.slice(0, line - 1), `${lines[line - 1]}_v2`, ...lines.slice(line)].join('\n');
    // what the engine finds on the topology once the output port is renamed, and not before
    const files = await readBundleFiles(example);
    const before = new Set(loadBundle(files, { folderName: 'example' }).diagnostics.map((d) => d.message));
    const after = loadBundle(files.map((file) => (file.path === cardPath ? { ...file, text: edited } : file)), { folderName: 'example' }).diagnostics;
    const broken = after.find((d) => d.location.file === 'topology.dot' && d.severity === 'error' && !before.has(d.message));
    assert.ok(broken?.location.span !== undefined, 'renaming the port breaks an edge of the topology');
    const topology = fs.readFileSync(path.join(example, 'topology.dot'), 'utf8');
    const edgeLine = topology.slice(topology.lastIndexOf('\n', broken.location.span.start) + 1, topology.indexOf('\n', broken.location.span.start)).trim();

    // the topology on the left, the card on the right, both in view
    await openFile(workbench, 'example/topology.dot', 'DarkPrint Topology');
    await runCommand(workbench, 'View: Split Editor Right');
    await openFile(workbench, `example/${cardPath}`, 'YAML');
    await goTo(workbench, line, lines[line - 1]!.length + 1);
    const squiggleOnEdge = (): Promise<unknown> =>
      page.waitForFunction(
        (needle) =>
          Array.from(document.querySelectorAll('.editor-group-container .monaco-editor')).some((editor) => {
            const row = Array.from(editor.querySelectorAll<HTMLElement>('.view-lines .view-line')).find((candidate) => (candidate.textContent ?? '').replace(/\u00a0/g, ' ').includes(needle));
            return row !== undefined && Array.from(editor.querySelectorAll<HTMLElement>('.view-overlays .squiggly-error')).some((squiggle) => squiggle.parentElement?.style.top === row.style.top);
          }),
        edgeLine,
        { timeout: stepTimeoutMs, polling: 'raf' },
      );
    await page.keyboard.insertText('_v2');
    const typed = Date.now();
    await squiggleOnEdge();
    const shown = Date.now();
    console.log(`      card edit → topology diagnostics: ${shown - typed} ms (an error squiggle on \`${edgeLine}\`)`);
    await waitForLines(workbench, { includes: ['- name: criteria_v2'] });
    assert.equal(fs.readFileSync(path.join(example, cardPath), 'utf8'), cardText, 'the card on disk is unchanged: the edit is not saved');
    const dirty = page.locator('.editor-group-container.active .tabs-container .tab.active.dirty');
    await dirty.waitFor({ state: 'visible', timeout: stepTimeoutMs });
  });

  it('draws the blueprint graph, laid out in a Web Worker: one block per node and one wire per edge', async function () {
    const files = await readBundleFiles(example);
    const picture = pictureOf(loadBundle(files, { folderName: 'example' }), { hideByteOrderMark: true, files });
    const graphPage = () => page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');
    await openFile(workbench, 'example/topology.dot', 'DarkPrint Topology');
    await runCommand(workbench, 'DarkPrint: Show Blueprint Graph');
    await page.locator('.tabs-container .tab').filter({ hasText: 'DarkPrint Graph: example' }).first().waitFor({ state: 'visible', timeout: stepTimeoutMs });
    await graphPage().locator(`#stage g.dp-node >> nth=${picture.nodes.length - 1}`).waitFor({ state: 'attached', timeout: stepTimeoutMs });
    const ids = (selector: string): Promise<string[]> => graphPage().locator(selector).evaluateAll((elements) => elements.map((element) => element.id));
    assert.deepEqual((await ids('#stage g.dp-node')).sort(), picture.nodes.map((n) => n.key).sort());
    assert.deepEqual((await ids('#stage g.dp-edge')).sort(), picture.edges.map((e) => e.key).sort());
  });
});

function positionOf(text: string, lineText: string, token: string): { line: number; column: number } {
  const lines = text.split('\n');
  const index = lines.findIndex((line) => line.includes(lineText));
  if (index < 0) throw new Error(`the fixture has no line containing ${JSON.stringify(lineText)}`);
  const column = lines[index]!.indexOf(token, lines[index]!.indexOf(lineText));
  return { line: index + 1, column: column + 1 };
}
