/**
 * End-to-end: the packaged extension in a real VS Code (code-server 4.100.3 = VS Code 1.100.3),
 * driven through its UI in Chromium with playwright-core. `npm run test:e2e` runs it; the first run
 * installs the Debian packages and code-server it needs (minutes), later runs take under a minute.
 *
 * Expectations come from the fixtures and the engine (the vocabulary table, the analysis), never
 * from copies of their text. Every wait is on UI state; a failing test leaves a screenshot in the
 * folder printed at the end. Set DARKPRINT_E2E_ARTIFACTS to choose that folder, and
 * DARKPRINT_E2E_EVIDENCE=1 to keep a screenshot of every passing test as well.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { readBundleFiles } from '../shared/src/cli';
import { loadBundle, readManifest } from '../shared/src/bundle';
import { coreTerms } from '../shared/src/vocabulary';
import {
  copyIntoWorkspace,
  createScratch,
  installExtension,
  installPrerequisites,
  packageExtension,
  startCodeServer,
  writeUserSettings,
  type RunningCodeServer,
  type Scratch,
} from './support/code-server';
import {
  applyCodeAction,
  findInEditor,
  goTo,
  hoverAtCursor,
  notification,
  openFile,
  openWorkbench,
  problems,
  revertAndCloseAll,
  runCommand,
  suggestions,
  waitForLines,
  waitForSquiggle,
  waitForStatus,
  type Workbench,
} from './support/workbench';

const stepTimeoutMs = Number(process.env.DARKPRINT_E2E_STEP_TIMEOUT_MS ?? 30_000);
const chromiumPath = process.env.DARKPRINT_E2E_CHROMIUM ?? '/usr/bin/chromium';

const commandTitles = {
  preview: 'DarkPrint: Preview Compiled Attractor File',
  export: 'DarkPrint: Export Attractor File…',
  import: 'DarkPrint: Import Attractor Pipeline…',
  report: 'DarkPrint: Show Bundle Report',
} as const;

describe('the DarkPrint extension in VS Code 1.100 (code-server)', function () {
  this.timeout(180_000);
  this.slow(20_000);

  let scratch: Scratch;
  let server: RunningCodeServer | undefined;
  let context: BrowserContext | undefined;
  let page: Page;
  let workbench: Workbench;
  let example: string;
  let broken: string;
  /** Whether every test so far passed and the setup finished: then the scratch folder is removed at the end. */
  let clean = false;

  before(async function () {
    this.timeout(60 * 60_000); // the first run compiles code-server's native modules
    const entry = installPrerequisites((line) => console.log(`      ${line}`));
    const vsix = packageExtension();
    scratch = createScratch();
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
      console.log('\n  e2e: every UI test passed; the scratch folder is removed (set DARKPRINT_E2E_ARTIFACTS to keep it).');
      return;
    }
    const shots = fs.readdirSync(scratch.screenshots);
    console.log(`\n  e2e artifacts: ${scratch.root} (code-server log: ${path.join(scratch.root, 'code-server.log')})`);
    console.log(`  screenshots of failures: ${shots.length === 0 ? 'none' : scratch.screenshots}`);
  });

  beforeEach(async function () {
    if (workbench !== undefined) await revertAndCloseAll(workbench);
  });

  afterEach(async function () {
    const test = this.currentTest;
    if (test?.state === 'failed') clean = false;
    if (test === undefined || page === undefined) return;
    const name = test.title.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '').toLowerCase();
    // Failures always leave a screenshot; DARKPRINT_E2E_EVIDENCE=1 keeps one of every passing test too.
    const folder = test.state === 'failed' ? scratch.screenshots : process.env.DARKPRINT_E2E_EVIDENCE === '1' ? path.join(scratch.root, 'evidence') : undefined;
    if (folder === undefined) return;
    fs.mkdirSync(folder, { recursive: true });
    await page.screenshot({ path: path.join(folder, `${name}.png`) }).catch(() => undefined);
  });

  it('marks a broken pin with an error squiggle in topology.dot', async function () {
    await openFile(workbench, 'broken/topology.dot', 'DarkPrint Topology');
    const count = await waitForSquiggle(workbench, 'error', 'card="reviewr@1.0.0"');
    assert.ok(count >= 1);
  });

  it('lists the diagnostics of the topology and of a card in the Problems panel', async function () {
    await openFile(workbench, 'broken/topology.dot', 'DarkPrint Topology');
    // The card is never opened: the server reports on every file of the bundle.
    const rows = await problems(workbench, ['topology.dot', 'writer@1.0.0.yaml', 'reviewr@1.0.0', 'spec']);
    assert.ok(rows.some((row) => row.includes('writer@1.0.0.yaml')));
    await page.keyboard.press('Control+Shift+M'); // hide the panel again
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
    assert.ok(occurrences >= 3, 'the fixture should use `start` on several lines');
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

  it('previews the compiled Attractor file with __start and follows edits', async function () {
    const topology = fs.readFileSync(path.join(example, 'topology.dot'), 'utf8');
    const { line } = positionOf(topology, 'release_publisher [card=', 'release_publisher');
    const slug = readSlug(example);
    await openFile(workbench, 'example/topology.dot', 'DarkPrint Topology');
    await runCommand(workbench, commandTitles.preview);
    const previewTab = page.locator('.tabs-container .tab').filter({ has: page.locator('.label-name', { hasText: `${slug}.attractor.dot` }) });
    await previewTab.first().waitFor({ state: 'visible', timeout: stepTimeoutMs });

    await previewTab.first().click();
    await findInEditor(workbench, '__start', true);
    await findInEditor(workbench, 'probe_step', false);

    await page.locator('.tabs-container .tab').filter({ has: page.locator('.label-name', { hasText: /^topology\.dot$/ }) }).first().click();
    await goTo(workbench, line, 1);
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.insertText('probe_step [card="test-runner@1.0.0"];');
    await waitForLines(workbench, { includes: ['probe_step [card="test-runner@1.0.0"];'] });

    await previewTab.first().click();
    await findInEditor(workbench, 'probe_step', true);
    await findInEditor(workbench, '__start', true);
  });

  it('exports the Attractor file beside the bundle, asking before it overwrites', async function () {
    const { slug, target } = await startExport();

    await runCommand(workbench, commandTitles.export);
    await acceptSaveDialog(target);
    await notification(workbench, `Exported the Attractor pipeline to example/${slug}.attractor.dot`);
    const written = fs.readFileSync(target, 'utf8');
    assert.match(written, /__start/);
    assert.match(written, /__exit/);

    fs.writeFileSync(target, 'stale\n');
    await runCommand(workbench, 'Notifications: Clear All Notifications');
    await runCommand(workbench, commandTitles.export);
    await acceptSaveDialog(target);
    const question = page.locator('.quick-input-widget .quick-input-title', { hasText: 'already exists' });
    await question.waitFor({ state: 'visible', timeout: stepTimeoutMs });
    assert.equal(fs.readFileSync(target, 'utf8'), 'stale\n', 'the file changed before the user answered');
    await page.keyboard.press('Enter');
    await notification(workbench, `Exported the Attractor pipeline to example/${slug}.attractor.dot`);
    assert.equal(fs.readFileSync(target, 'utf8'), written);
  });

  it('exports, run from the preview, the bundle the preview shows (no question which bundle)', async function () {
    // (the workspace holds two bundles: asked from elsewhere, the command would ask which one)
    const { slug, target } = await startExport();
    await runCommand(workbench, commandTitles.preview);
    const previewTab = page.locator('.tabs-container .tab').filter({ has: page.locator('.label-name', { hasText: `${slug}.attractor.dot` }) });
    await previewTab.first().waitFor({ state: 'visible', timeout: stepTimeoutMs });
    await previewTab.first().click();
    await findInEditor(workbench, '__start', true);
    await runCommand(workbench, 'Notifications: Clear All Notifications');
    await runCommand(workbench, commandTitles.export);
    await acceptSaveDialog(target);
    await notification(workbench, `Exported the Attractor pipeline to example/${slug}.attractor.dot`);
    assert.match(fs.readFileSync(target, 'utf8'), /__start/);
  });

  it('imports an Attractor pipeline into an empty folder', async function () {
    const pipeline = path.join(scratch.workspace, 'pipeline.dot');
    fs.writeFileSync(
      pipeline,
      ['digraph review_loop {', '  start [shape=Mdiamond];', '  draft [prompt="Write the draft."];', '  done [shape=Msquare];', '  start -> draft -> done;', '}', ''].join('\n'),
    );
    const folder = path.join(scratch.workspace, 'imported');
    fs.mkdirSync(folder, { recursive: true });
    await runCommand(workbench, commandTitles.import);
    await fillFileDialog(pipeline);
    await fillFileDialog(`${folder}/`);
    const author = page.locator('.quick-input-widget', { hasText: 'author' });
    await author.waitFor({ state: 'visible', timeout: stepTimeoutMs });
    await page.keyboard.type('e2e-tester');
    await page.keyboard.press('Enter');
    await page
      .locator('.tabs-container .tab.active')
      .filter({ has: page.locator('.label-name', { hasText: /^topology\.dot$/ }) })
      .waitFor({ state: 'visible', timeout: stepTimeoutMs });
    await notification(workbench, 'Imported pipeline.dot');
    assert.ok(fs.existsSync(path.join(folder, 'topology.dot')));
    assert.ok(fs.existsSync(path.join(folder, 'blueprint.yaml')));
    const cards = fs.readdirSync(path.join(folder, 'cards'));
    assert.equal(cards.length, 1, cards.join(', '));
    assert.match(fs.readFileSync(path.join(folder, 'cards', cards[0]!), 'utf8'), /author: "e2e-tester"/);
  });

  it('shows the security level and autonomy band in the status bar and opens the report', async function () {
    const result = loadBundle(await readBundleFiles(example));
    const analysis = result.analysis;
    assert.ok(analysis !== undefined);
    await openFile(workbench, 'example/topology.dot', 'DarkPrint Topology');
    const item = page.locator('.statusbar-item', { hasText: `Security ${analysis.security.level}/4` }).filter({ hasText: analysis.autonomy.label });
    await item.first().waitFor({ state: 'visible', timeout: stepTimeoutMs });
    await item.first().locator('a, .statusbar-item-label').first().click();
    await page
      .locator('.tabs-container .tab')
      .filter({ hasText: 'DarkPrint Report: example' })
      .first()
      .waitFor({ state: 'visible', timeout: stepTimeoutMs });
    const text = await webviewWithText(analysis.security.rationale);
    assert.ok(text.includes(`Level ${analysis.security.level} of 4`), text);
    assert.ok(text.includes('Staffing reading'), text);
    assert.ok(text.includes('Control-point reading'), text);
    assert.ok(text.includes('Phase coverage'), text);

    // A marker's node link reveals the node in the topology.
    const marked = analysis.security.penalties[0]?.nodeIds[0];
    assert.ok(marked !== undefined, 'the example bundle should carry a risk marker');
    const { line } = positionOf(fs.readFileSync(path.join(example, 'topology.dot'), 'utf8'), `${marked} `, marked);
    await page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame').locator('a.node', { hasText: marked }).first().click();
    await page
      .locator('.editor-group-container.active .tabs-container .tab.active')
      .filter({ has: page.locator('.label-name', { hasText: /^topology\.dot$/ }) })
      .waitFor({ state: 'visible', timeout: stepTimeoutMs });
    await waitForStatus(workbench, 'status.editor.selection', `Ln ${line},`);
  });

  // ---- helpers --------------------------------------------------------------------------

  /** The simple save dialog (a quick input holding the path): checks the default path, then accepts it. */
  /** The example's slug and default export file, that file removed, and its topology open. */
  async function startExport(): Promise<{ slug: string; target: string }> {
    const slug = readSlug(example);
    const target = path.join(example, `${slug}.attractor.dot`);
    fs.rmSync(target, { force: true });
    await openFile(workbench, 'example/topology.dot', 'DarkPrint Topology');
    return { slug, target };
  }

  async function acceptSaveDialog(expectedPath: string): Promise<void> {
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.waitFor({ state: 'visible', timeout: stepTimeoutMs });
    await page.waitForFunction(
      (expected) => (document.querySelector<HTMLInputElement>('.quick-input-widget .quick-input-box input')?.value ?? '').endsWith(expected),
      expectedPath,
      { timeout: stepTimeoutMs, polling: 100 },
    );
    await page.keyboard.press('Enter');
  }

  /**
   * The simple open dialog (a quick input holding a path): types `target`, waits until the list
   * shows it (the file among its folder's entries, or the folder's own contents: only `..` for an empty folder),
   * accepts, and waits for the dialog to move on to its next question or close.
   */
  async function fillFileDialog(target: string): Promise<void> {
    // The dialog first fills in the folder it starts from and lists it; typing before that is lost.
    await page.waitForFunction(
      () =>
        (document.querySelector<HTMLInputElement>('.quick-input-widget .quick-input-box input')?.value ?? '').endsWith('/') &&
        document.querySelectorAll('.quick-input-widget .quick-input-list .monaco-list-row').length > 0,
      undefined,
      { timeout: stepTimeoutMs, polling: 100 },
    );
    const title = page.locator('.quick-input-widget .quick-input-title');
    const before = (await title.innerText()).trim();
    const input = page.locator('.quick-input-widget .quick-input-box input');
    await input.fill(target);
    const fileName = target.endsWith('/') ? undefined : path.basename(target);
    await page.waitForFunction(
      ({ target, fileName }) => {
        if (document.querySelector<HTMLInputElement>('.quick-input-widget .quick-input-box input')?.value !== target) return false;
        const rows = Array.from(document.querySelectorAll('.quick-input-widget .quick-input-list .monaco-list-row'));
        const labels = rows.map((row) => row.querySelector('.label-name')?.textContent ?? row.getAttribute('aria-label') ?? '');
        if (fileName !== undefined) return labels.some((label) => label.trim() === fileName);
        return labels.length === 1 && labels[0]!.trim() === '..';
      },
      { target, fileName },
      { timeout: stepTimeoutMs, polling: 100 },
    );
    await page.keyboard.press('Enter');
    await page.waitForFunction(
      (before) => {
        const widget = document.querySelector<HTMLElement>('.quick-input-widget');
        const shown = widget !== null && widget.style.display !== 'none';
        return !shown || (widget.querySelector('.quick-input-title')?.textContent ?? '').trim() !== before;
      },
      before,
      { timeout: stepTimeoutMs, polling: 100 },
    );
  }

  /** The body of the webview showing `text` (a webview is an iframe holding the page's own iframe). */
  async function webviewWithText(text: string): Promise<string> {
    const body = page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame').locator('body', { hasText: text });
    await body.first().waitFor({ state: 'visible', timeout: stepTimeoutMs });
    return body.first().innerText();
  }
});

/** The 1-based line and column of `token` inside the first line containing `lineText`. */
function positionOf(text: string, lineText: string, token: string): { line: number; column: number } {
  const lines = text.split('\n');
  const index = lines.findIndex((line) => line.includes(lineText));
  if (index < 0) throw new Error(`the fixture has no line containing ${JSON.stringify(lineText)}`);
  const column = lines[index]!.indexOf(token, lines[index]!.indexOf(lineText));
  return { line: index + 1, column: column + 1 };
}

function readSlug(bundle: string): string {
  const text = fs.readFileSync(path.join(bundle, 'blueprint.yaml'), 'utf8');
  return readManifest({ path: 'blueprint.yaml', text }, path.basename(bundle)).manifest.slug;
}
