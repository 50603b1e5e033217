/**
 * `DarkPrint: Import Attractor Pipeline…`: reads a pipeline into a new draft bundle, as
 * `darkprint import <pipeline.dot> --as <handle> --out <dir>` does. The engine's importer is a
 * pure function bundled into the extension (no server request: the target folder belongs to no
 * bundle yet); this module only picks the files, checks the folder is empty, writes what the
 * importer returns and shows its diagnostics on the pipeline file.
 */
import * as vscode from 'vscode';
import { importAttractor as importPipeline, importedBundleFiles } from '../../shared/src/compile/import';
import type { Diagnostic } from '../../shared/src/diagnostics';
import { lineIndex } from '../../shared/src/text';
import { basename, readDirectory, readText } from './bundles';

export interface ImportOptions {
  /** The pipeline to read; default: asked with an open dialog. */
  readonly pipeline?: vscode.Uri;
  /** The empty folder to write the bundle into; default: asked with a folder dialog. */
  readonly folder?: vscode.Uri;
  /** The author handle written into every card; default: asked with an input box. */
  readonly author?: string;
}

export interface ImportOutcome {
  readonly written: readonly vscode.Uri[];
  readonly diagnostics: readonly Diagnostic[];
}

const importDiagnostics = vscode.languages.createDiagnosticCollection('darkprint-import');

/**
 * The import's findings stand on the pipeline file until it is edited or closed: they describe
 * the text that was imported, and nothing reads a pipeline again (it is no bundle), so an edit
 * would leave them stale.
 */
export function importFindingsLifetime(): vscode.Disposable {
  return vscode.Disposable.from(
    importDiagnostics,
    vscode.workspace.onDidChangeTextDocument((event) => {
      if (event.contentChanges.length > 0) importDiagnostics.delete(event.document.uri);
    }),
    vscode.workspace.onDidCloseTextDocument((document) => importDiagnostics.delete(document.uri)),
  );
}

/** Runs the import; resolves to what was written, or undefined when the user cancelled or it was refused. */
export async function importAttractor(options: ImportOptions = {}): Promise<ImportOutcome | undefined> {
  const pipeline =
    options.pipeline ??
    (
      await vscode.window.showOpenDialog({
        canSelectFiles: true,
        canSelectFolders: false,
        canSelectMany: false,
        filters: { 'Attractor pipeline': ['dot', 'gv'] },
        openLabel: 'Import',
        title: 'Import Attractor Pipeline: the pipeline to read',
      })
    )?.[0];
  if (pipeline === undefined) return undefined;
  const text = await readText(pipeline);
  if (text === undefined) {
    void vscode.window.showErrorMessage(`${vscode.workspace.asRelativePath(pipeline)} cannot be read. Pick a readable .dot file.`);
    return undefined;
  }

  const folder =
    options.folder ??
    (
      await vscode.window.showOpenDialog({
        canSelectFiles: false,
        canSelectFolders: true,
        canSelectMany: false,
        openLabel: 'Import Here',
        title: 'Import Attractor Pipeline: an empty folder for the new bundle',
      })
    )?.[0];
  if (folder === undefined) return undefined;
  const entries = await readDirectory(folder);
  if (entries.length > 0) {
    void vscode.window.showErrorMessage(
      `${vscode.workspace.asRelativePath(folder)} is not empty (it holds ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}). Import writes a whole bundle and never overwrites one: pick or create an empty folder.`,
    );
    return undefined;
  }

  const author =
    options.author ??
    (await vscode.window.showInputBox({
      title: 'Import Attractor Pipeline: author',
      prompt: 'Your author handle, written as `author` in every imported card',
      placeHolder: 'e.g. ada',
      ignoreFocusOut: true,
      validateInput: (value) => (value.trim() === '' ? 'Give a handle: every imported card records who imported it.' : undefined),
    }));
  if (author === undefined) return undefined;
  if (author.trim() === '') {
    void vscode.window.showErrorMessage('The author handle is blank. Run the import again and give a handle.');
    return undefined;
  }

  const origin = basename(pipeline);
  const result = importPipeline(text, { author: author.trim(), origin, file: origin });
  showDiagnostics(pipeline, text, result.diagnostics);
  if (!result.readable) {
    void vscode.window.showErrorMessage(
      `${origin} is not a pipeline DarkPrint can read, so nothing was written. The Problems panel shows where it stops; fix it and import again.`,
    );
    return undefined;
  }

  const written: vscode.Uri[] = [];
  for (const file of importedBundleFiles(result)) {
    const target = safeJoin(folder, file.path);
    if (target === undefined) throw new Error(`the importer produced the path ${JSON.stringify(file.path)}, which leaves the chosen folder`);
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(file.text));
    written.push(target);
  }
  const topology = written[0];
  if (topology !== undefined) await vscode.window.showTextDocument(topology, { preview: false });
  const findings = result.diagnostics.length === 0 ? '' : ` The importer reported ${result.diagnostics.length} finding(s) on ${origin}: see the Problems panel.`;
  void vscode.window.showInformationMessage(
    `Imported ${origin} into ${vscode.workspace.asRelativePath(folder)}: ${written.length} files. The cards are a draft (no ports, dependencies or prohibitions yet): review them before you publish.${findings}`,
  );
  return { written, diagnostics: result.diagnostics };
}

/** `folder/relative`, or undefined when `relative` is absolute or climbs out of `folder`. */
function safeJoin(folder: vscode.Uri, relative: string): vscode.Uri | undefined {
  const parts = relative.split('/');
  if (relative.startsWith('/') || parts.some((part) => part === '' || part === '.' || part === '..' || part.includes('\\'))) return undefined;
  return vscode.Uri.joinPath(folder, ...parts);
}

function showDiagnostics(pipeline: vscode.Uri, text: string, diagnostics: readonly Diagnostic[]): void {
  const index = lineIndex(text);
  const position = (offset: number): vscode.Position => {
    const { line, character } = index.positionAt(offset);
    return new vscode.Position(line, character);
  };
  importDiagnostics.set(
    pipeline,
    diagnostics.map((diagnostic) => {
      const span = diagnostic.location.span;
      const range = span === undefined ? new vscode.Range(0, 0, 0, 0) : new vscode.Range(position(span.start), position(span.end));
      const converted = new vscode.Diagnostic(range, diagnostic.hint ? `${diagnostic.message} ${diagnostic.hint}` : diagnostic.message, severityOf(diagnostic.severity));
      converted.code = diagnostic.code;
      converted.source = 'darkprint import';
      return converted;
    }),
  );
}

function severityOf(severity: Diagnostic['severity']): vscode.DiagnosticSeverity {
  switch (severity) {
    case 'error':
      return vscode.DiagnosticSeverity.Error;
    case 'warning':
      return vscode.DiagnosticSeverity.Warning;
    case 'info':
      return vscode.DiagnosticSeverity.Information;
  }
}
