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
import { chromium, type BrowserContext, type Frame, type Page } from 'playwright-core';
import { readBundleFiles } from '../shared/src/cli';
import { loadBundle, readManifest } from '../shared/src/bundle';
import { pictureClasses, pictureOf, type Picture } from '../shared/src/picture';
import { newBundleFiles } from '../shared/src/bundle/scaffold';
import { importAttractor, importedBundleFiles } from '../shared/src/compile';
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

  it('writes the card a pin names with the "Create card" quick fix, and opens it at its spec', async function () {
    const topology = fs.readFileSync(path.join(broken, 'topology.dot'), 'utf8');
    const { line, column } = positionOf(topology, 'reviewer [card=', 'reviewr');
    const created = path.join(broken, 'cards', 'reviewr@1.0.0.yaml');
    fs.rmSync(created, { force: true });
    try {
      await openFile(workbench, 'broken/topology.dot', 'DarkPrint Topology');
      await waitForSquiggle(workbench, 'error', 'reviewr@1.0.0');
      await goTo(workbench, line, column + 1);
      await applyCodeAction(workbench, 'Create card');
      // the new card is open, every required field written, the cursor on the spec to write
      await waitForLines(workbench, { includes: ['id: reviewr', 'name: Reviewer', 'type: agent', 'spec: "TODO: say what the step does."', 'version: 1.0.0'] });
      assert.ok(fs.existsSync(created), `${created} is created`);
    } finally {
      await revertAndCloseAll(workbench);
      fs.rmSync(created, { force: true });
    }
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

  describe('import from the palette', function () {
    /** The corpus's Attractor pipelines, read at test time (the corpus stays outside the repository). */
    const corpusPipelines = path.join(process.env.DARKPRINT_CORPUS ?? path.resolve(__dirname, '../../shared/corpus'), 'attractor-pipelines');
    /** Where the prompt's screenshots go (DARKPRINT_E2E_IMPORT_SHOTS, else the scratch folder), to be looked at. */
    const importShots = (): string => process.env.DARKPRINT_E2E_IMPORT_SHOTS ?? path.join(scratch.root, 'import-shots');
    const folderTitle = 'Import Attractor Pipeline: the folder for the new bundle';
    const promptInput = () => page.locator('.quick-input-widget .quick-input-box input');

    /** Copies a pipeline of the corpus into the workspace's `foreign/` folder; resolves to the copy. */
    function foreignPipeline(name: string): string {
      const source = path.join(corpusPipelines, name);
      assert.ok(fs.existsSync(source), `${source} is absent: the pipelines are read from ../shared/corpus beside the repository (or set DARKPRINT_CORPUS)`);
      const target = path.join(scratch.workspace, 'foreign', name);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.copyFileSync(source, target);
      return target;
    }

    /** Every file and folder under `folder`, relative to it (hidden ones too), sorted. */
    function tree(folder: string): string[] {
      return (fs.readdirSync(folder, { recursive: true }) as string[]).map((entry) => entry.split(path.sep).join('/')).sort();
    }

    /** The files the engine's importer makes of a pipeline, as `darkprint import --as <author>` writes them. */
    function expectedFiles(pipeline: string, author: string): { path: string; text: string }[] {
      const origin = path.basename(pipeline);
      return importedBundleFiles(importAttractor(fs.readFileSync(pipeline, 'utf8'), { author, origin, file: origin }));
    }

    /** Runs the command from the palette, picks the pipeline in the open dialog, and waits for the folder prompt. */
    async function startImport(pipeline: string): Promise<void> {
      await runListedCommand(commandTitles.import);
      await fillFileDialog(pipeline);
      await page.locator('.quick-input-widget .quick-input-title', { hasText: folderTitle }).waitFor({ state: 'visible', timeout: stepTimeoutMs });
    }

    /** Waits until the folder prompt holds `value` and says `message` as an info or an error; resolves to what it says. */
    async function promptSays(value: string, message: string, severity: 'info' | 'error'): Promise<string> {
      try {
        await page.waitForFunction(
          ({ value, message, severity, title }) => {
            const widget = document.querySelector('.quick-input-widget');
            if (widget === null || !(widget.querySelector('.quick-input-title')?.textContent ?? '').includes(title)) return false;
            const input = widget.querySelector<HTMLInputElement>('.quick-input-box input');
            const said = widget.querySelector('.quick-input-message')?.textContent ?? '';
            return input?.value === value && said.includes(message) && widget.querySelector(`.quick-input-box .monaco-inputbox.${severity}`) !== null;
          },
          { value, message, severity, title: folderTitle },
          { timeout: stepTimeoutMs, polling: 100 },
        );
      } catch {
        const said = await page.locator('.quick-input-widget .quick-input-message').innerText().catch(() => '(no message)');
        throw new Error(`The folder prompt never said "${message}" (${severity}) for ${value}. It holds ${JSON.stringify(await promptInput().inputValue().catch(() => ''))} and says: ${said}`);
      }
      return (await page.locator('.quick-input-widget .quick-input-message').innerText()).trim();
    }

    async function answerAuthor(handle: string): Promise<void> {
      await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Import Attractor Pipeline: author' }).waitFor({ state: 'visible', timeout: stepTimeoutMs });
      await page.keyboard.type(handle);
      await page.keyboard.press('Enter');
    }

    /** A screenshot of the whole window, and one of the prompt alone while it is shown. */
    async function shootImport(name: string, prompt = true): Promise<void> {
      fs.mkdirSync(importShots(), { recursive: true });
      // (the pointer, left on the palette's row, would show the box's tooltip over its title)
      await page.mouse.move(800, 900);
      await page.screenshot({ path: path.join(importShots(), `${name}-window.png`) });
      if (prompt) await page.locator('.quick-input-widget').screenshot({ path: path.join(importShots(), `${name}-prompt.png`) });
    }

    it('imports a foreign pipeline into the new folder it offers, named after it, and opens its topology', async function () {
      const pipeline = foreignPipeline('human-gates.dot');
      const folder = path.join(scratch.workspace, 'foreign', 'human-gates');
      assert.ok(!fs.existsSync(folder));
      await startImport(pipeline);
      // the offer: a new folder beside the pipeline, said to be created
      await promptSays(folder, 'foreign/human-gates is a new folder: it is created', 'info');
      await shootImport('offered-new-folder');
      await page.keyboard.press('Enter');
      await answerAuthor('e2e-tester');
      await activeTab('topology.dot');
      await notification(workbench, 'Imported human-gates.dot into foreign/human-gates');
      const expected = expectedFiles(pipeline, 'e2e-tester');
      const topology = expected.find((file) => file.path === 'topology.dot')!.text;
      // the new topology is the one open
      await waitForLines(workbench, { includes: topology.split('\n').slice(0, 3) });
      await shootImport('imported-topology-open', false);
      // the folder holds the bundle the engine makes, nothing else, and no temporary folder is left beside it
      assert.deepEqual(tree(folder), [...new Set(expected.flatMap((file) => (file.path.includes('/') ? [file.path.split('/')[0]!, file.path] : [file.path])))].sort());
      for (const file of expected) assert.equal(fs.readFileSync(path.join(folder, file.path), 'utf8'), file.text, file.path);
      assert.deepEqual(fs.readdirSync(path.join(scratch.workspace, 'foreign')).sort(), ['human-gates', 'human-gates.dot']);
    });

    it('refuses, as it is typed and on Enter, a folder that holds anything, saying why and what to do', async function () {
      const pipeline = foreignPipeline('minimal.dot');
      const exampleBefore = tree(example);
      const foreignBefore = tree(path.join(scratch.workspace, 'foreign'));
      await startImport(pipeline);
      await promptSays(path.join(scratch.workspace, 'foreign', 'minimal'), 'foreign/minimal is a new folder', 'info');

      // a bundle's folder
      await promptInput().fill(example);
      const bundleProblem = await promptSays(example, "example is a bundle's folder (it holds", 'error');
      assert.match(bundleProblem, /never writes over or beside existing files: type the path of a new folder \(or of an empty one\)/);
      await shootImport('bundle-folder-refused');
      await page.keyboard.press('Enter');
      // Enter changed nothing: the same prompt still says why (the author is never asked)
      await promptSays(example, "example is a bundle's folder", 'error');

      // any folder that holds something
      const foreign = path.join(scratch.workspace, 'foreign');
      await promptInput().fill(foreign);
      const held = fs.readdirSync(foreign).length;
      const problem = await promptSays(foreign, `foreign is not empty (it holds ${held} entr${held === 1 ? 'y' : 'ies'})`, 'error');
      assert.match(problem, /Import writes a whole new bundle/);
      await shootImport('non-empty-folder-refused');
      await page.keyboard.press('Enter');
      await promptSays(foreign, 'foreign is not empty', 'error');

      await page.keyboard.press('Escape');
      await page.locator('.quick-input-widget .quick-input-title', { hasText: folderTitle }).waitFor({ state: 'hidden', timeout: stepTimeoutMs });
      assert.deepEqual(tree(example), exampleBefore, 'nothing was written into the bundle');
      assert.deepEqual(tree(foreign), foreignBefore, 'nothing was written beside the pipeline');
    });

    it('imports into an existing empty folder typed into the prompt', async function () {
      const pipeline = foreignPipeline('supervisor-loop.dot');
      const folder = path.join(scratch.workspace, 'imported');
      fs.mkdirSync(folder, { recursive: true });
      assert.deepEqual(fs.readdirSync(folder), []);
      await startImport(pipeline);
      await promptInput().fill(folder);
      await promptSays(folder, 'imported is an empty folder: the bundle is written into it', 'info');
      await page.keyboard.press('Enter');
      await answerAuthor('e2e-tester');
      await activeTab('topology.dot');
      await notification(workbench, 'Imported supervisor-loop.dot into imported');
      const expected = expectedFiles(pipeline, 'e2e-tester');
      for (const file of expected) assert.equal(fs.readFileSync(path.join(folder, file.path), 'utf8'), file.text, file.path);
      assert.ok(!fs.readdirSync(folder).some((name) => name.startsWith('.')), 'no temporary folder is left');
      assert.match(fs.readFileSync(path.join(folder, expected.find((file) => file.path.startsWith('cards/'))!.path), 'utf8'), /author: "e2e-tester"/);
    });
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

  describe('new bundle from the palette', function () {
    const newBundleTitle = 'DarkPrint: New Bundle…';
    /** Where the case's screenshots go (DARKPRINT_E2E_NEW_BUNDLE_SHOTS, else the scratch folder), to be looked at. */
    const newBundleShots = (): string => process.env.DARKPRINT_E2E_NEW_BUNDLE_SHOTS ?? path.join(scratch.root, 'new-bundle-shots');
    /** The squiggles of any severity in the active editor. */
    const squiggles = (): Promise<number> => page.locator('.editor-group-container.active .view-overlays').locator('.squiggly-error, .squiggly-warning, .squiggly-info').count();
    /** The Problems panel's filter box (the panel lists only the rows it has room for: a filter keeps the ones looked for among them). */
    const problemsFilter = () => page.locator('.panel input[placeholder^="Filter (e.g. text"]').first();
    /** The rows the Problems panel shows (files and their problems). */
    const problemRows = (): Promise<string[]> =>
      page.locator('.markers-panel .monaco-list-row').evaluateAll((rows) => rows.map((row) => row.getAttribute('aria-label') ?? row.textContent ?? ''));

    it('writes a bundle into the empty folder picked, titled as typed, and opens its topology with no problem', async function () {
      const folder = path.join(scratch.workspace, 'release-notes');
      fs.mkdirSync(folder);
      const title = 'Release Notes Line';
      // (the palette lists the extension's commands once code-server has read its manifest)
      await runListedCommand(newBundleTitle);
      await fillFileDialog(`${folder}/`);
      // the title prompt offers one made from the folder's name
      const input = page.locator('.quick-input-widget .quick-input-box input');
      await page.locator('.quick-input-widget .quick-input-title', { hasText: 'New Bundle: title' }).waitFor({ state: 'visible', timeout: stepTimeoutMs });
      await page.waitForFunction(() => document.querySelector<HTMLInputElement>('.quick-input-widget .quick-input-box input')?.value === 'Release notes', undefined, { timeout: stepTimeoutMs, polling: 100 });
      await input.fill(title);
      await page.keyboard.press('Enter');

      // the new topology is the one open, as the engine's scaffold writes it
      const expected = newBundleFiles(title);
      const topology = expected.find((file) => file.path === 'topology.dot')!.text;
      await activeTab('topology.dot');
      await waitForLines(workbench, { includes: topology.split('\n').slice(0, 3) });
      const written = (fs.readdirSync(folder, { recursive: true }) as string[]).map((entry) => entry.split(path.sep).join('/')).sort();
      assert.deepEqual(written, ['blueprint.yaml', 'cards', 'cards/drafter@1.0.0.yaml', 'cards/reviewer@1.0.0.yaml', 'topology.dot']);
      for (const file of expected) assert.equal(fs.readFileSync(path.join(folder, file.path), 'utf8'), file.text, file.path);

      // the server reads it as a bundle: its readings in the lens on `digraph`, a card's type as a hint
      const analysis = loadBundle(expected).analysis;
      assert.ok(analysis !== undefined);
      const lens = page.locator('.editor-group-container.active .codelens-decoration a', { hasText: `security ${analysis.security.level}/4 · autonomy ${analysis.autonomy.level}` });
      await lens.first().waitFor({ state: 'visible', timeout: stepTimeoutMs });
      await waitForLines(workbench, { includes: ['agent · implementation'] });

      // No problem: with the Problems panel showing the new folder's files only, a pin broken in
      // the editor shows one there and in the editor, and undoing it takes it away again. Once the
      // undone text's diagnostics have cleared the squiggle, every file of the bundle has had its
      // diagnostics published (the server sends them all per check), so what the panel lists then
      // is the whole answer.
      await problems(workbench, []);
      await problemsFilter().fill('release-notes');
      const drafter = positionOf(topology, 'drafter  [card="drafter@1.0.0"]', 'drafter@');
      await goTo(workbench, drafter.line, drafter.column);
      await page.keyboard.type('x');
      await waitForSquiggle(workbench, 'error', 'card="xdrafter@1.0.0"');
      const shown = await problems(workbench, ['xdrafter@1.0.0', 'release-notes']);
      assert.ok(shown.every((row) => !row.includes('of folder broken') && !row.includes('of folder example')), `the filter keeps the new folder's files only: ${shown.join('\n')}`);
      // (Go to Line puts the focus back in the editor, where Undo takes the typed character back)
      await goTo(workbench, drafter.line, drafter.column + 1);
      await page.keyboard.press('Control+Z');
      await waitForLines(workbench, { includes: ['  drafter  [card="drafter@1.0.0"];'], excludes: ['xdrafter'] });
      await page.waitForFunction(
        () =>
          document.querySelectorAll('.editor-group-container.active .view-overlays .squiggly-error, .editor-group-container.active .view-overlays .squiggly-warning, .editor-group-container.active .view-overlays .squiggly-info').length === 0 &&
          document.querySelectorAll('.markers-panel .monaco-list-row').length === 0,
        undefined,
        { timeout: stepTimeoutMs, polling: 100 },
      );
      assert.equal(await squiggles(), 0);
      assert.deepEqual(await problemRows(), [], 'no problem in any file of the new bundle');
      // (the hint of the line edited comes back with the text)
      await waitForLines(workbench, { includes: ['agent · implementation', 'agent · testing'] });
      fs.mkdirSync(newBundleShots(), { recursive: true });
      // (the pointer away from the editor's text and the breadcrumbs, whose tooltips would cover it)
      await page.mouse.move(1100, 450);
      await page.screenshot({ path: path.join(newBundleShots(), 'new-bundle-open.png') });
      await problemsFilter().fill('');
    });
  });

  // ---- colours, hints, lenses, symbols ---------------------------------------------------------

  it('colours a node id with the server’s semantic colour, not the TextMate one', async function () {
    const topology = fs.readFileSync(path.join(example, 'topology.dot'), 'utf8');
    const { line, column } = positionOf(topology, 'request_intake -> criteria_author', 'request_intake');
    await openFile(workbench, 'example/topology.dot', 'DarkPrint Topology');
    await goTo(workbench, line, column + 2);
    await runCommand(workbench, 'Developer: Inspect Editor Tokens and Scopes');
    // (the widget says the token's type once the server's tokens have arrived; asked again until then)
    const widget = page.locator('.token-inspect-widget');
    await widget.filter({ hasText: 'semantic token type' }).first().waitFor({ state: 'visible', timeout: stepTimeoutMs });
    const rows = await widget.locator('tr').evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => (td.textContent ?? '').trim())));
    const value = (key: string, from = 0): string | undefined => rows.slice(from).find((cells) => cells[0] === key)?.[1];
    assert.equal(value('semantic token type'), 'node', JSON.stringify(rows));
    const textmate = rows.findIndex((cells) => cells[0] === 'textmate scopes');
    assert.ok(textmate >= 0, JSON.stringify(rows));
    const shown = value('foreground');
    const fromTextMate = value('foreground', textmate);
    assert.ok(shown !== undefined && fromTextMate !== undefined, JSON.stringify(rows));
    assert.notEqual(shown.split(/\s/)[0], fromTextMate.split(/\s/)[0], `the semantic colour differs from the TextMate one: ${JSON.stringify(rows)}`);
    await page.keyboard.press('Escape');
  });

  it('shows a node’s card type and phases as an inlay hint', async function () {
    const card = loadBundle(await readBundleFiles(example)).blueprint?.nodeById.get('spec_planner')?.entry?.card;
    assert.ok(card !== undefined, 'the example has spec_planner with a card');
    await openFile(workbench, 'example/topology.dot', 'DarkPrint Topology');
    await waitForLines(workbench, { includes: [`${card.type} · ${card.phases.join(', ')}`] });
  });

  it('shows the bundle’s readings in a code lens on the graph keyword, which opens the report', async function () {
    const analysis = loadBundle(await readBundleFiles(example)).analysis;
    assert.ok(analysis !== undefined);
    await openFile(workbench, 'example/topology.dot', 'DarkPrint Topology');
    const lens = page.locator('.editor-group-container.active .codelens-decoration a', { hasText: `security ${analysis.security.level}/4 · autonomy ${analysis.autonomy.level}` });
    await lens.first().waitFor({ state: 'visible', timeout: stepTimeoutMs });
    await lens.first().click();
    await page
      .locator('.tabs-container .tab')
      .filter({ hasText: 'DarkPrint Report: example' })
      .first()
      .waitFor({ state: 'visible', timeout: stepTimeoutMs });
  });

  it('finds a node of the workspace with Ctrl+T by the letters of its id, and opens it there', async function () {
    const topology = fs.readFileSync(path.join(example, 'topology.dot'), 'utf8');
    const { line } = positionOf(topology, 'code_builder      [card=', 'code_builder');
    await openFile(workbench, 'example/cards/code-builder@1.1.0.yaml', 'YAML');
    await page.keyboard.press('Control+T');
    await page.locator('.quick-input-widget').waitFor({ state: 'visible', timeout: stepTimeoutMs });
    await page.keyboard.insertText('cdbldr');
    const row = page.locator('.quick-input-widget .quick-input-list .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: /^code_builder$/ }) });
    await row.first().waitFor({ state: 'visible', timeout: stepTimeoutMs });
    await row.first().click();
    await page
      .locator('.editor-group-container.active .tabs-container .tab.active')
      .filter({ has: page.locator('.label-name', { hasText: /^topology\.dot$/ }) })
      .waitFor({ state: 'visible', timeout: stepTimeoutMs });
    await waitForStatus(workbench, 'status.editor.selection', `Ln ${line},`);
  });

  // ---- the blueprint graph -----------------------------------------------------------------

  const graphTitles = { show: 'DarkPrint: Show Blueprint Graph', export: 'DarkPrint: Export Graph Picture…' } as const;
  /** Where the graph's screenshots go (DARKPRINT_E2E_GRAPH_SHOTS, else the scratch folder), to be looked at. */
  const graphShots = (): string => process.env.DARKPRINT_E2E_GRAPH_SHOTS ?? path.join(scratch.root, 'graph-shots');

  /** The graph page (a webview is an iframe holding the page's own iframe). */
  const graphPage = () => page.frameLocator('iframe.webview.ready').frameLocator('iframe#active-frame');

  /** The picture the engine draws of the example bundle, with `edit` applied to its files first. */
  async function examplePicture(edit: (file: { path: string; text: string }) => string = (file) => file.text): Promise<Picture> {
    const files = (await readBundleFiles(example)).map((file) => ({ path: file.path, text: edit(file) }));
    return pictureOf(loadBundle(files, { folderName: 'example' }), { hideByteOrderMark: true, files });
  }

  /** Opens the example's topology, then the graph from the palette; waits until it draws `nodes` blocks. */
  async function openGraph(nodes: number): Promise<void> {
    await openFile(workbench, 'example/topology.dot', 'DarkPrint Topology');
    await runListedCommand(graphTitles.show);
    await page.locator('.tabs-container .tab').filter({ hasText: 'DarkPrint Graph: example' }).first().waitFor({ state: 'visible', timeout: stepTimeoutMs });
    await graphPage().locator(`#stage g.dp-node >> nth=${nodes - 1}`).waitFor({ state: 'attached', timeout: stepTimeoutMs });
    await graphPage().locator('#message').waitFor({ state: 'hidden', timeout: stepTimeoutMs });
  }

  /**
   * Runs a command the palette lists only once the extension has found the workspace's bundles
   * (`darkprint.hasBundle`): a palette opened before that lists it not, so it is opened again until it does.
   */
  async function runListedCommand(title: string): Promise<void> {
    const deadline = Date.now() + stepTimeoutMs;
    for (;;) {
      try {
        await runCommand({ ...workbench, stepTimeoutMs: 3000 }, title);
        return;
      } catch (error) {
        await page.keyboard.press('Escape');
        if (Date.now() > deadline) throw error;
      }
    }
  }

  /** Puts the example's topology in front again (the graph beside it keeps its place). */
  async function backToTopology(): Promise<void> {
    await page.locator('.tabs-container .tab').filter({ has: page.locator('.label-name', { hasText: /^topology\.dot$/ }) }).first().click();
    await activeTab('topology.dot');
  }

  async function activeTab(name: string): Promise<void> {
    await page
      .locator('.editor-group-container.active .tabs-container .tab.active')
      .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }) })
      .waitFor({ state: 'visible', timeout: stepTimeoutMs });
  }

  /** Takes a screenshot of the whole window and one of the graph's webview alone. */
  async function shootGraph(name: string): Promise<void> {
    fs.mkdirSync(graphShots(), { recursive: true });
    // (the hover, if any, and the legend settle before the picture is taken)
    await graphPage().locator('#stage svg.dp-picture').waitFor({ state: 'visible', timeout: stepTimeoutMs });
    await page.screenshot({ path: path.join(graphShots(), `${name}-window.png`) });
    await page.locator('iframe.webview.ready').first().screenshot({ path: path.join(graphShots(), `${name}-webview.png`) });
  }

  /** Picks a colour theme (Preferences: Color Theme), and waits until the graph page wears it. */
  async function useTheme(theme: string, bodyClass: string): Promise<void> {
    await runCommand(workbench, 'Preferences: Color Theme');
    await page.keyboard.insertText(theme);
    const row = page.locator('.quick-input-widget .quick-input-list .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${theme}$`) }) });
    await row.first().waitFor({ state: 'visible', timeout: stepTimeoutMs });
    await row.first().click();
    await graphPage().locator(`body.${bodyClass}`).waitFor({ state: 'attached', timeout: stepTimeoutMs });
  }

  /** The graph page's frame, for conditions evaluated inside it. */
  async function graphFrame(): Promise<Frame> {
    await graphPage().locator('#viewport').waitFor({ state: 'attached', timeout: stepTimeoutMs });
    for (const frame of page.frames()) if ((await frame.$('#viewport').catch(() => null)) !== null) return frame;
    throw new Error('no frame holds the graph page');
  }

  /** Fits the whole picture into the view (the first view keeps texts legible, and may leave some of a wide one out). */
  async function fitWhole(): Promise<void> {
    await graphPage().locator('#fit').click();
    await graphPage().locator('#hint').waitFor({ state: 'hidden', timeout: stepTimeoutMs });
    // (the view is set in the frame after next: wait until the page has painted it)
    await (await graphFrame()).evaluate(() => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))));
  }

  it('opens the blueprint graph from the palette: one block per node and one wire per edge, with their ids', async function () {
    const picture = await examplePicture();
    await openGraph(picture.nodes.length);
    const ids = (selector: string): Promise<string[]> => graphPage().locator(selector).evaluateAll((elements) => elements.map((element) => element.id));
    assert.deepEqual((await ids('#stage g.dp-node')).sort(), picture.nodes.map((n) => n.key).sort());
    assert.deepEqual((await ids('#stage g.dp-edge')).sort(), picture.edges.map((e) => e.key).sort());
    // the classes the engine gives, overlays included
    const classes = pictureClasses(picture);
    const leakOrRelay = picture.edges.findIndex((_, e) => classes.edges[e].includes('dp-relay'));
    assert.ok(leakOrRelay >= 0, 'the example has a route through the judge');
    assert.match((await graphPage().locator(`#${picture.edges[leakOrRelay].key}`).getAttribute('class')) ?? '', /\bdp-relay\b/);
    const summary = await graphPage().locator('#summary').innerText();
    assert.ok(summary.includes(`security ${picture.header.security!.level}/4`), summary);

    await shootGraph('dark-first-view');
    // a hover shows the block's facts
    await fitWhole();
    const publisher = picture.nodes.find((n) => n.id === 'release_publisher')!;
    await graphPage().locator(`#${publisher.key}`).hover();
    const tip = graphPage().locator('#tip');
    await tip.filter({ hasText: publisher.card.ref! }).waitFor({ state: 'visible', timeout: stepTimeoutMs });
    assert.match(await tip.innerText(), /irreversible-action/);
    // and a block's findings
    const flagged = picture.nodes.find((n) => n.findings.length > 0)!;
    await graphPage().locator(`#${flagged.key}`).hover();
    await tip.filter({ hasText: flagged.findings[0]!.code }).waitFor({ state: 'visible', timeout: stepTimeoutMs });
    await shootGraph('dark-hover');
    await graphPage().locator('#summary').hover();
    await tip.waitFor({ state: 'hidden', timeout: stepTimeoutMs });

    // the legend beside the editor
    await graphPage().locator('#legend-button').click();
    await graphPage().locator('#legend').waitFor({ state: 'visible', timeout: stepTimeoutMs });
    await shootGraph('dark-legend');
    await graphPage().locator('#legend-button').click();
    await graphPage().locator('#legend').waitFor({ state: 'hidden', timeout: stepTimeoutMs });

    // the whole window for the graph, in the dark theme, then the light one and high contrast
    await page.locator('.tabs-container .tab').filter({ hasText: 'DarkPrint Graph: example' }).first().click();
    await runCommand(workbench, 'View: Toggle Maximize Editor Group');
    const frame = await graphFrame();
    await frame.waitForFunction(() => (document.getElementById('viewport')?.clientWidth ?? 0) > 1000, undefined, { timeout: stepTimeoutMs, polling: 100 });
    await fitWhole();
    try {
      await shootGraph('dark');
      await useTheme('Light Modern', 'vscode-light');
      await shootGraph('light');
      await useTheme('Dark High Contrast', 'vscode-high-contrast');
      await shootGraph('high-contrast');
    } finally {
      await useTheme('Dark Modern', 'vscode-dark');
      await page.locator('.tabs-container .tab').filter({ hasText: 'DarkPrint Graph: example' }).first().click();
      await runCommand(workbench, 'View: Toggle Maximize Editor Group');
    }
  });

  it('clicking a block shows its statement in topology.dot; the cursor in topology.dot highlights its block', async function () {
    const picture = await examplePicture();
    const builder = picture.nodes.find((n) => n.id === 'code_builder')!;
    await openGraph(picture.nodes.length);
    await fitWhole();
    await graphPage().locator(`#${builder.key}`).click();
    await activeTab('topology.dot');
    await waitForStatus(workbench, 'status.editor.selection', `Ln ${builder.place.line}, Col ${builder.place.column}`);

    const runner = picture.nodes.find((n) => n.id === 'test_runner')!;
    await goTo(workbench, runner.place.line, runner.place.column + 2);
    await graphPage().locator(`#${runner.key}.dp-selected`).waitFor({ state: 'attached', timeout: stepTimeoutMs });
    assert.equal(await graphPage().locator('#stage .dp-selected').count(), 1);
    await shootGraph('dark-highlight');

    // a wire shows its edge statement
    const fixLoop = picture.edges.find((e) => e.source === 'targeted_fixer')!;
    await graphPage().locator(`#${fixLoop.key} text`).first().click();
    await waitForStatus(workbench, 'status.editor.selection', `Ln ${fixLoop.place.line}, Col ${fixLoop.place.column}`);

    // Ctrl+click on a block opens its card at its id
    await graphPage().locator(`#${builder.key}`).click({ modifiers: ['Control'] });
    await activeTab(`${builder.card.ref}.yaml`);
    await waitForStatus(workbench, 'status.editor.selection', `Ln ${builder.card.place!.line}, Col ${builder.card.place!.column}`);
  });

  it('draws a node and an edge typed into topology.dot without saving, and keeps the last picture while the text does not parse', async function () {
    const picture = await examplePicture();
    const topologyFile = path.join(example, 'topology.dot');
    const onDisk = fs.readFileSync(topologyFile, 'utf8');
    const { line } = positionOf(onDisk, 'release_publisher [card=', 'release_publisher');
    await openGraph(picture.nodes.length);
    await backToTopology();
    // zoomed and moved by the user: a redraw keeps the view
    await graphPage().locator('#zoom-in').click();
    const transform = await graphPage().locator('#stage').evaluate((stage) => (stage as HTMLElement).style.transform);
    await backToTopology();
    await goTo(workbench, line, 1);
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.keyboard.insertText('probe_step [card="test-runner@1.0.0"];');
    await page.keyboard.press('Enter');
    await page.keyboard.insertText('release_publisher -> probe_step;');
    await waitForLines(workbench, { includes: ['release_publisher -> probe_step;'] });
    await graphPage().locator('#dp-n-probe_step').waitFor({ state: 'attached', timeout: stepTimeoutMs });
    await graphPage().locator(`#stage g.dp-edge >> nth=${picture.edges.length}`).waitFor({ state: 'attached', timeout: stepTimeoutMs });
    assert.equal(await graphPage().locator('#stage g.dp-node').count(), picture.nodes.length + 1);
    assert.equal(await graphPage().locator('#stage').evaluate((stage) => (stage as HTMLElement).style.transform), transform, 'the view is kept');
    assert.equal(fs.readFileSync(topologyFile, 'utf8'), onDisk, 'nothing was saved');

    // text that does not parse: the picture stays, a banner says why
    await page.keyboard.press('Enter');
    await page.keyboard.insertText('probe_step -> [[;');
    const banner = graphPage().locator('#banner', { hasText: 'does not read as written' });
    await banner.waitFor({ state: 'visible', timeout: stepTimeoutMs });
    assert.match(await banner.innerText(), /topology\.dot:\d+:\d+/);
    assert.equal(await graphPage().locator('#stage g.dp-node').count(), picture.nodes.length + 1);
    await shootGraph('dark-unreadable');
    for (let i = 0; i < 'probe_step -> [[;'.length; i += 1) await page.keyboard.press('Backspace');
    await banner.waitFor({ state: 'hidden', timeout: stepTimeoutMs });
  });

  it("marks an edge when a card's port it names is broken", async function () {
    const card = 'cards/criteria-author@1.0.0.yaml';
    const broken = await examplePicture((file) => (file.path === card ? file.text.replace('  - name: criteria\n', '  - name: criteria_list\n') : file.text));
    const edge = broken.edges.find((e) => e.source === 'criteria_author' && e.target === 'acceptance_judge')!;
    assert.ok(edge.findings.some((f) => f.severity === 'error'), 'the engine finds the broken port');
    await openGraph(broken.nodes.length);
    assert.doesNotMatch((await graphPage().locator(`#${edge.key}`).getAttribute('class')) ?? '', /dp-sev-error/);
    const text = fs.readFileSync(path.join(example, card), 'utf8');
    const { line } = positionOf(text.slice(text.indexOf('outputs:')), '- name: criteria', 'criteria');
    const outputsLine = text.slice(0, text.indexOf('outputs:')).split('\n').length - 1;
    await openFile(workbench, `example/${card}`, 'YAML');
    await goTo(workbench, outputsLine + line, text.split('\n')[outputsLine + line - 1]!.length + 1);
    await page.keyboard.insertText('_list');
    await graphPage().locator(`#${edge.key}.dp-sev-error`).waitFor({ state: 'attached', timeout: stepTimeoutMs });
    // the cursor in the card highlights the block that pins it
    await graphPage().locator('#dp-n-criteria_author.dp-selected').waitFor({ state: 'attached', timeout: stepTimeoutMs });
    await fitWhole();
    await shootGraph('dark-broken-port');
  });

  it('exports the graph picture as an SVG file', async function () {
    const picture = await examplePicture();
    const target = path.join(example, `${picture.header.slug}.graph.svg`);
    fs.rmSync(target, { force: true });
    await openGraph(picture.nodes.length);
    await runCommand(workbench, 'Notifications: Clear All Notifications');
    await runListedCommand(graphTitles.export);
    await acceptSaveDialog(target);
    await notification(workbench, `Exported the blueprint graph to example/${picture.header.slug}.graph.svg`);
    const svg = fs.readFileSync(target, 'utf8');
    assert.ok(svg.startsWith('<svg class="dp-picture" '), svg.slice(0, 80));
    for (const node of picture.nodes) assert.ok(svg.includes(`<g id="${node.key}" `), node.key);
    fs.rmSync(target, { force: true });
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
