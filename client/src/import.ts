/**
 * `DarkPrint: Import Attractor Pipeline…`: reads a pipeline into a new draft bundle, as
 * `darkprint import <pipeline.dot> --as <handle> --out <dir>` does. The language server makes the
 * bundle's files (`darkprint/import`, ./protocol.ts); this module asks for the pipeline, the
 * folder and the author, writes the files through `vscode.workspace.fs`, opens the new
 * `topology.dot` and shows the importer's findings on the pipeline file.
 *
 * The folder is typed into an input box that offers a new folder beside the pipeline (beside its
 * bundle when it lies in one), named after it (./import-target.ts), and says as you type whether
 * the bundle can go there: a missing folder is created, an empty one is used, anything else is
 * refused. The files are written into a hidden folder first and then moved into place, so that
 * no file is ever seen half written and a new folder appears with the whole bundle in it. Nothing
 * is written over.
 */
import * as vscode from 'vscode';
import { basename, bundleOf, readText } from './bundles';
import { bundlePathParts, defaultParent, entriesInMoveOrder, folderNameFor, folderVerdict, freeFolderName, joinPath, lastPart, parentPath, resolveTyped, type FolderState, type FolderVerdict } from './import-target';
import { importRequest, readImportAnswer, type ImportAnswer, type ImportFinding, type ImportParams } from './protocol';

/** What the command needs of the language client. */
export interface ImportDependencies {
  /** Sends a request to the language server once it runs, and resolves to its answer. */
  readonly request: (method: string, params: unknown) => Promise<unknown>;
}

export interface ImportOptions {
  /** The pipeline to read; default: asked with an open dialog. */
  readonly pipeline?: vscode.Uri;
  /** The folder to write the bundle into, new or empty; default: asked with an input box. */
  readonly folder?: vscode.Uri;
  /** The author handle written into every card; default: asked with an input box. */
  readonly author?: string;
}

export interface ImportOutcome {
  /** The new bundle's folder. */
  readonly folder: vscode.Uri;
  readonly written: readonly vscode.Uri[];
  readonly diagnostics: readonly vscode.Diagnostic[];
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
export async function importAttractor(dependencies: ImportDependencies, options: ImportOptions = {}): Promise<ImportOutcome | undefined> {
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

  let folder = options.folder;
  if (folder === undefined) {
    folder = await askFolder(pipeline);
    if (folder === undefined) return undefined;
  } else {
    const verdict = await verdictOn(folder);
    if (!verdict.ok) {
      void vscode.window.showErrorMessage(verdict.problem);
      return undefined;
    }
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
  const params: ImportParams = { uri: pipeline.toString(), text, author: author.trim() };
  const answer: ImportAnswer | undefined = readImportAnswer(await dependencies.request(importRequest, params));
  if (answer === undefined) throw new Error(`the answer to ${importRequest} has neither files nor reasons`);
  const diagnostics = showFindings(pipeline, answer.findings);
  if (answer.kind === 'refused') {
    void vscode.window.showErrorMessage(`Nothing was written: ${answer.reasons.join(' ')} The Problems panel shows the findings on ${origin}; fix them and import again.`);
    return undefined;
  }

  const written = await writeBundle(folder, answer.files);
  if ('problem' in written) {
    void vscode.window.showErrorMessage(written.problem);
    return undefined;
  }
  const topology = written.files.find((uri) => uri.path === vscode.Uri.joinPath(folder, 'topology.dot').path) ?? written.files[0];
  if (topology !== undefined) await vscode.window.showTextDocument(topology, { preview: false });
  const findings = diagnostics.length === 0 ? '' : ` The importer reported ${diagnostics.length} finding(s) on ${origin}: see the Problems panel.`;
  void vscode.window.showInformationMessage(
    `Imported ${origin} into ${shown(folder)}: ${written.files.length} files. The cards are a draft (no ports, dependencies or prohibitions yet): review them before you publish.${findings}`,
  );
  return { folder, written: written.files, diagnostics };
}

// ---- the folder ------------------------------------------------------------------------------

/**
 * Asks for the bundle's folder in an input box holding the proposed one, its name selected, and
 * saying from the start and as the value changes whether the bundle can go there (the folder is
 * new, or empty, or why it cannot be used). Enter checks again (the folder may have changed
 * meanwhile) and goes on only when it can. A relative path is read from the proposed folder's parent.
 */
async function askFolder(pipeline: vscode.Uri): Promise<vscode.Uri | undefined> {
  const proposed = await defaultFolder(pipeline);
  const base = proposed.with({ path: parentPath(proposed.path) });
  const value = pathText(proposed);
  const box = vscode.window.createInputBox();
  box.title = 'Import Attractor Pipeline: the folder for the new bundle';
  // (the box shows the check's message in place of the prompt, from the start: the messages say it all)
  box.prompt = 'A new folder is created; an existing one must be empty.';
  box.placeholder = `The folder for the new bundle; a relative path starts at ${pathText(base)}`;
  box.value = value;
  box.valueSelection = [value.length - lastPart(proposed.path).length, value.length];
  box.ignoreFocusOut = true;
  /** The latest check's number: an earlier check that ends later says nothing. */
  let latest = 0;
  const check = async (typed: string): Promise<vscode.Uri | undefined> => {
    const ticket = ++latest;
    const folder = typedFolder(typed, base);
    const verdict: FolderVerdict = folder === undefined ? { ok: false, problem: `Type the path of a folder for the new bundle (a relative path starts at ${pathText(base)}).` } : await verdictOn(folder);
    if (ticket === latest) {
      box.validationMessage = verdict.ok
        ? { message: verdict.note, severity: vscode.InputBoxValidationSeverity.Info }
        : { message: verdict.problem, severity: vscode.InputBoxValidationSeverity.Error };
    }
    return verdict.ok ? folder : undefined;
  };
  return new Promise<vscode.Uri | undefined>((resolve) => {
    let settled = false;
    const subscriptions: vscode.Disposable[] = [];
    const finish = (folder: vscode.Uri | undefined): void => {
      if (settled) return;
      settled = true;
      for (const subscription of subscriptions) subscription.dispose();
      box.dispose();
      resolve(folder);
    };
    subscriptions.push(
      box.onDidChangeValue((typed) => void check(typed)),
      box.onDidAccept(async () => {
        const accepted = box.value;
        box.busy = true;
        const folder = await check(accepted);
        box.busy = false;
        if (folder !== undefined && box.value === accepted) finish(folder);
      }),
      box.onDidHide(() => finish(undefined)),
    );
    box.show();
    void check(value);
  });
}

/** A new folder named after the pipeline (`-2`, `-3`… when that one is taken), beside it or beside the bundle it lies in. */
async function defaultFolder(pipeline: vscode.Uri): Promise<vscode.Uri> {
  const workspaceFolder = vscode.workspace.getWorkspaceFolder(pipeline)?.uri;
  const bundle = await bundleOf(pipeline);
  const parent = pipeline.with({ path: defaultParent(pipeline.path, bundle?.root.path, workspaceFolder?.path), query: '', fragment: '' });
  const name = await freeFolderName(parent.path, folderNameFor(basename(pipeline)), (path) => folderState(parent.with({ path })).catch((): FolderState => ({ kind: 'file' })));
  return parent.with({ path: joinPath(parent.path, name) });
}

/** What `folder` holds, or that there is nothing there; throws when it cannot be looked at. */
async function folderState(folder: vscode.Uri): Promise<FolderState> {
  let stat: vscode.FileStat;
  try {
    stat = await vscode.workspace.fs.stat(folder);
  } catch (error) {
    if (error instanceof vscode.FileSystemError && error.code === 'FileNotFound') return { kind: 'missing' };
    throw error;
  }
  if ((stat.type & vscode.FileType.Directory) === 0) return { kind: 'file' };
  const entries = await vscode.workspace.fs.readDirectory(folder);
  return { kind: 'folder', entries: entries.map(([name, type]) => ((type & vscode.FileType.Directory) !== 0 ? `${name}/` : name)) };
}

async function verdictOn(folder: vscode.Uri): Promise<FolderVerdict> {
  try {
    return folderVerdict(shown(folder), await folderState(folder));
  } catch (error) {
    return { ok: false, problem: `${shown(folder)} cannot be looked at (${error instanceof Error ? error.message : String(error)}). Type the path of another folder.` };
  }
}

/** The folder a typed path names (a Windows path as Windows writes it, for a `file:` folder); undefined when blank. */
function typedFolder(typed: string, base: vscode.Uri): vscode.Uri | undefined {
  let value = typed.trim();
  if (value === '') return undefined;
  if (base.scheme === 'file' && /^([A-Za-z]:[\\/]|\\\\)/.test(value)) value = vscode.Uri.file(value).path;
  else if (base.scheme === 'file' && base.fsPath.includes('\\')) value = value.replace(/\\/g, '/');
  const path = resolveTyped(value, base.path);
  return path === undefined ? undefined : base.with({ path });
}

/** A folder's path as the user reads and types it. */
function pathText(folder: vscode.Uri): string {
  return folder.scheme === 'file' ? folder.fsPath : folder.path;
}

/** A folder as messages name it: inside the workspace, from its folder; elsewhere, its whole path. */
function shown(folder: vscode.Uri): string {
  return vscode.workspace.asRelativePath(folder, false);
}

// ---- writing ---------------------------------------------------------------------------------

/**
 * Writes the files into a hidden folder, then moves them into place, never over anything: a
 * missing folder is made by renaming the hidden one (with its parents made first), an empty one
 * gets the hidden one's entries, folders first and `topology.dot` last. Resolves to the files, or
 * to why nothing (or, when the folder filled up meanwhile, not everything) was written.
 */
async function writeBundle(folder: vscode.Uri, files: readonly { readonly path: string; readonly text: string }[]): Promise<{ readonly files: vscode.Uri[] } | { readonly problem: string }> {
  const located: { readonly parts: string[]; readonly text: string }[] = [];
  for (const file of files) {
    const parts = bundlePathParts(file.path);
    if (parts === undefined) throw new Error(`the importer produced the path ${JSON.stringify(file.path)}, which leaves the chosen folder`);
    located.push({ parts, text: file.text });
  }
  const verdict = await verdictOn(folder);
  if (!verdict.ok) return { problem: `Nothing was written: ${verdict.problem}` };
  const missing = (await folderState(folder)).kind === 'missing';
  const suffix = Math.random().toString(36).slice(2, 8).padEnd(6, '0');
  const parent = folder.with({ path: parentPath(folder.path) });
  if (missing) await vscode.workspace.fs.createDirectory(parent);
  const staging = missing ? parent.with({ path: joinPath(parent.path, `.${lastPart(folder.path).slice(0, 64)}.import-${suffix}`) }) : vscode.Uri.joinPath(folder, `.darkprint-import-${suffix}`);
  try {
    for (const { parts, text } of located) {
      if (parts.length > 1) await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(staging, ...parts.slice(0, -1)));
      await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(staging, ...parts), new TextEncoder().encode(text));
    }
    if (missing) {
      try {
        await vscode.workspace.fs.rename(staging, folder, { overwrite: false });
      } catch (error) {
        if (error instanceof vscode.FileSystemError && error.code === 'FileExists') {
          return { problem: `Nothing was written: ${shown(folder)} appeared while the import ran, and import never writes into a folder it has not checked. Run the import again.` };
        }
        throw error;
      }
    } else {
      const moved: string[] = [];
      for (const entry of entriesInMoveOrder(files.map((file) => file.path))) {
        try {
          await vscode.workspace.fs.rename(vscode.Uri.joinPath(staging, entry.name), vscode.Uri.joinPath(folder, entry.name), { overwrite: false });
        } catch (error) {
          if (!(error instanceof vscode.FileSystemError && error.code === 'FileExists')) throw error;
          const done = moved.length === 0 ? 'nothing was written' : `only ${moved.join(', ')} ${moved.length === 1 ? 'was' : 'were'} written`;
          return { problem: `${shown(folder)} got ${entry.name} from elsewhere while the import ran, and import never writes over anything, so ${done}. Remove what the import wrote there and run it again into a new folder.` };
        }
        moved.push(entry.name);
      }
    }
  } finally {
    await vscode.workspace.fs.delete(staging, { recursive: true, useTrash: false }).then(undefined, () => undefined);
  }
  return { files: located.map(({ parts }) => vscode.Uri.joinPath(folder, ...parts)) };
}

function showFindings(pipeline: vscode.Uri, findings: readonly ImportFinding[]): vscode.Diagnostic[] {
  const diagnostics = findings.map((finding) => {
    const { start, end } = finding.range;
    const converted = new vscode.Diagnostic(new vscode.Range(start.line, start.character, end.line, end.character), finding.message, severityOf(finding.severity));
    if (finding.code !== undefined) converted.code = finding.code;
    converted.source = 'darkprint import';
    return converted;
  });
  importDiagnostics.set(pipeline, diagnostics);
  return diagnostics;
}

function severityOf(severity: ImportFinding['severity']): vscode.DiagnosticSeverity {
  // (LSP reads a diagnostic without a severity as an error)
  switch (severity) {
    case undefined:
    case 1:
      return vscode.DiagnosticSeverity.Error;
    case 2:
      return vscode.DiagnosticSeverity.Warning;
    case 3:
      return vscode.DiagnosticSeverity.Information;
    case 4:
      return vscode.DiagnosticSeverity.Hint;
  }
}
