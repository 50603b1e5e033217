/// <reference types="mocha" />
/**
 * The behaviours the end-to-end suite proves in the UI (e2e/editor.e2e.ts), proven here through
 * the VS Code API: diagnostics on a broken pin and on a card, a hover on a term, completion of
 * pins, the `start` rename fix, the preview following edits, export, import, a new bundle, and
 * the report.
 * Waits are on VS Code events (diagnostics changed, document changed), never on time.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import type { DarkPrintApi } from '../../src/extension';
import { coreTerms } from '../../../shared/src/vocabulary';

const extensionId = 'darkprint-tools.darkprint-language-tools';

export function registerExtensionSuite(): void {
  describe('the DarkPrint extension through the VS Code API', function () {
    this.timeout(60_000);
    const workspace = process.env.DARKPRINT_TEST_WORKSPACE ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? '';
    const brokenTopology = vscode.Uri.file(path.join(workspace, 'broken', 'topology.dot'));
    const brokenCard = vscode.Uri.file(path.join(workspace, 'broken', 'cards', 'writer@1.0.0.yaml'));
    const exampleTopology = vscode.Uri.file(path.join(workspace, 'example', 'topology.dot'));
    let api: DarkPrintApi;

    before(async function () {
      const extension = vscode.extensions.getExtension<DarkPrintApi>(extensionId);
      assert.ok(extension !== undefined, `${extensionId} is not installed in this VS Code`);
      api = await extension.activate();
      await api.ready;
    });

    afterEach(async function () {
      // Revert every edited document first: closing an edited editor would ask, and block the run.
      for (const document of vscode.workspace.textDocuments.filter((candidate) => candidate.isDirty)) {
        await vscode.window.showTextDocument(document);
        await vscode.commands.executeCommand('workbench.action.files.revert');
      }
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });

    it('reports the broken pin in topology.dot and a problem in a card that is not open', async function () {
      const document = await vscode.workspace.openTextDocument(brokenTopology);
      await vscode.window.showTextDocument(document);
      const pin = document.getText().indexOf('"reviewr@1.0.0"');
      const onPin = await diagnosticsWhere(brokenTopology, (diagnostic) => codeOf(diagnostic) === 'bundle/missing-card');
      assert.ok(onPin.some((diagnostic) => diagnostic.range.contains(document.positionAt(pin + 1))));
      const onCard = await diagnosticsWhere(brokenCard, (diagnostic) => codeOf(diagnostic) === 'card/spec-too-thin');
      assert.equal(onCard.length, 1);
    });

    it('shows the meaning of a vocabulary term on hover', async function () {
      const card = vscode.Uri.file(path.join(workspace, 'example', 'cards', 'code-builder@1.1.0.yaml'));
      const document = await vscode.workspace.openTextDocument(card);
      await vscode.window.showTextDocument(document);
      const position = document.positionAt(document.getText().indexOf('type: agent') + 'type: '.length + 1);
      const meaning = coreTerms.find((term) => term.id === 'agent')?.meaning ?? '';
      const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', card, position);
      const text = hovers.flatMap((hover) => hover.contents.map((content) => (typeof content === 'string' ? content : content.value))).join('\n');
      assert.ok(text.includes(meaning), text);
    });

    it('completes every pin of the bundle inside card="', async function () {
      const document = await vscode.workspace.openTextDocument(exampleTopology);
      const editor = await vscode.window.showTextDocument(document);
      const anchor = document.positionAt(document.getText().indexOf('release_publisher [card='));
      const line = document.lineAt(anchor.line);
      await editor.edit((builder) => builder.insert(line.range.end, '\n  probe [card=""];'));
      const inside = new vscode.Position(anchor.line + 1, '  probe [card="'.length);
      const pins = fs.readdirSync(path.join(workspace, 'example', 'cards')).map((file) => file.replace(/\.(ya?ml|json)$/, ''));
      const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', exampleTopology, inside);
      const labels = list.items.map((item) => (typeof item.label === 'string' ? item.label : item.label.label));
      for (const pin of pins) assert.ok(labels.includes(pin), `${pin} is missing from ${labels.join(', ')}`);
    });

    it('renames a `start` node on every line with the quick fix', async function () {
      const document = await vscode.workspace.openTextDocument(brokenTopology);
      await vscode.window.showTextDocument(document);
      await diagnosticsWhere(brokenTopology, (diagnostic) => codeOf(diagnostic) === 'attractor/boundary-node-id');
      const start = document.positionAt(document.getText().indexOf('start    [card='));
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
        'vscode.executeCodeActionProvider',
        brokenTopology,
        new vscode.Range(start, start.translate(0, 'start'.length)),
      );
      const rename = actions.find((action) => action.title.includes('start_step'));
      assert.ok(rename?.edit !== undefined, `no rename to start_step among: ${actions.map((action) => action.title).join(' | ')}`);
      assert.ok(await vscode.workspace.applyEdit(rename.edit));
      const lines = document.getText().split('\n');
      assert.equal(lines.filter((text) => /^\s*start\b|->\s*start\b|\bstart\s*->/.test(text)).length, 0);
      assert.equal(lines.filter((text) => text.includes('start_step')).length, 3);
    });

    it('previews the compiled file with __start and follows an edit', async function () {
      const document = await vscode.workspace.openTextDocument(exampleTopology);
      const editor = await vscode.window.showTextDocument(document);
      const preview = await vscode.commands.executeCommand<vscode.TextEditor | undefined>('darkprint.previewCompiled');
      assert.ok(preview !== undefined);
      const previewUri = preview.document.uri;
      await documentWhere(previewUri, (text) => text.includes('__start'));
      const anchor = document.positionAt(document.getText().indexOf('release_publisher [card='));
      await editor.edit((builder) => builder.insert(document.lineAt(anchor.line).range.end, '\n  probe_step [card="test-runner@1.0.0"];'));
      const text = await documentWhere(previewUri, (current) => current.includes('probe_step'));
      assert.ok(text.includes('__start'));
    });

    it('exports the compiled file and asks nothing when the target is new', async function () {
      const target = vscode.Uri.file(path.join(workspace, 'example', 'exported.attractor.dot'));
      fs.rmSync(target.fsPath, { force: true });
      const written = await vscode.commands.executeCommand<vscode.Uri | undefined>('darkprint.exportAttractor', { bundle: exampleTopology.toString(), target: target.toString() });
      assert.equal(written?.fsPath, target.fsPath);
      assert.match(fs.readFileSync(target.fsPath, 'utf8'), /__start/);
    });

    it('imports a pipeline into an empty folder', async function () {
      const pipeline = path.join(workspace, 'pipeline.dot');
      fs.writeFileSync(pipeline, 'digraph review_loop {\n  start [shape=Mdiamond];\n  draft [prompt="Write the draft."];\n  done [shape=Msquare];\n  start -> draft -> done;\n}\n');
      const folder = path.join(workspace, 'imported');
      fs.mkdirSync(folder, { recursive: true });
      await vscode.commands.executeCommand('darkprint.importAttractor', {
        pipeline: vscode.Uri.file(pipeline).toString(),
        folder: vscode.Uri.file(folder).toString(),
        author: 'api-tester',
      });
      assert.ok(fs.existsSync(path.join(folder, 'topology.dot')));
      assert.ok(fs.existsSync(path.join(folder, 'blueprint.yaml')));
      assert.equal(fs.readdirSync(path.join(folder, 'cards')).length, 1);
    });

    it('writes a new bundle that the server reads, and opens its topology', async function () {
      const folder = path.join(workspace, 'new-bundle');
      fs.mkdirSync(folder, { recursive: true });
      await vscode.commands.executeCommand('darkprint.newBundle', { folder: vscode.Uri.file(folder).toString(), title: 'Review line' });
      assert.deepEqual(fs.readdirSync(path.join(folder, 'cards')).sort(), ['drafter@1.0.0.yaml', 'reviewer@1.0.0.yaml']);
      const topology = vscode.Uri.file(path.join(folder, 'topology.dot'));
      assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, topology.fsPath);
      const answer = await api.report(topology);
      assert.equal(answer.kind, 'report');
    });

    it('answers the report with security, both autonomy readings and phase coverage', async function () {
      const answer = await api.report(exampleTopology);
      assert.equal(answer.kind, 'report');
      if (answer.kind !== 'report') return;
      assert.ok(answer.report.security.level >= 1 && answer.report.security.level <= 4);
      assert.ok(answer.report.security.rationale.includes('→'));
      assert.ok(answer.report.autonomy.staffingFraction >= 0);
      assert.ok(answer.report.phaseCoverage.byPhase.size >= 5);
    });
  });
}

function codeOf(diagnostic: vscode.Diagnostic): string {
  const code = diagnostic.code;
  if (typeof code === 'object' && code !== null) return String(code.value);
  return code === undefined ? '' : String(code);
}

/** Resolves to the diagnostics of `uri` matching `predicate`, waiting for the server to publish them. */
function diagnosticsWhere(uri: vscode.Uri, predicate: (diagnostic: vscode.Diagnostic) => boolean): Promise<vscode.Diagnostic[]> {
  const matching = (): vscode.Diagnostic[] => vscode.languages.getDiagnostics(uri).filter(predicate);
  const now = matching();
  if (now.length > 0) return Promise.resolve(now);
  return new Promise((resolve) => {
    const subscription = vscode.languages.onDidChangeDiagnostics((event) => {
      if (!event.uris.some((changed) => changed.toString() === uri.toString())) return;
      const found = matching();
      if (found.length === 0) return;
      subscription.dispose();
      resolve(found);
    });
  });
}

/** Resolves to the text of the open document `uri` once it satisfies `predicate`, waiting for its changes. */
function documentWhere(uri: vscode.Uri, predicate: (text: string) => boolean): Promise<string> {
  const current = vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString());
  if (current !== undefined && predicate(current.getText())) return Promise.resolve(current.getText());
  return new Promise((resolve) => {
    const subscription = vscode.workspace.onDidChangeTextDocument((event) => {
      if (event.document.uri.toString() !== uri.toString() || !predicate(event.document.getText())) return;
      subscription.dispose();
      resolve(event.document.getText());
    });
  });
}
