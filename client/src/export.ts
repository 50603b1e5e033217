/**
 * `DarkPrint: Export Attractor File…`: compiles the bundle through `darkprint/compiled` and writes
 * the text where the user says, `<slug>.attractor.dot` in the bundle folder by default (beside
 * it, for a bundle whose topology is not named `topology.dot`).
 *
 * Overwriting: the save dialog itself asks before it replaces a file (VS Code's native and simple
 * dialogs both do), so the command does not ask twice. A caller that passes the target directly
 * (tests, other extensions) skips the dialog, so then the command asks.
 */
import * as vscode from 'vscode';
import { activeOrPickedBundle, basename, exists, parentOf, slugOf, topologyOf } from './bundles';
import type { CompiledAnswer } from './protocol';

export interface ExportDependencies {
  readonly compile: (anchor: vscode.Uri) => Promise<CompiledAnswer>;
  /** Opens the preview, offered when the bundle cannot compile. */
  readonly showPreview: (anchor: vscode.Uri) => Promise<unknown>;
}

export interface ExportOptions {
  /** A file of the bundle to export; default: the active editor's bundle. */
  readonly bundle?: vscode.Uri;
  /** Where to write, skipping the save dialog (then an existing file is replaced only after a yes). */
  readonly target?: vscode.Uri;
}

/** Runs the export; resolves to the written file, or undefined when nothing was written. */
export async function exportAttractor(dependencies: ExportDependencies, options: ExportOptions = {}): Promise<vscode.Uri | undefined> {
  const location = await activeOrPickedBundle(options.bundle);
  if (location === undefined) return undefined;
  const answer = await dependencies.compile(location.anchor);
  if (answer.kind === 'refused') {
    // (a reason ends with its own full stop: the sentence goes on after it without one)
    const first = (answer.reasons[0] ?? 'the language server gave no reason').replace(/\.\s*$/, '');
    const more = answer.reasons.length > 1 ? ` (and ${answer.reasons.length - 1} more)` : '';
    const choice = await vscode.window.showErrorMessage(
      `The bundle cannot be exported yet: ${first}${more}. Fix it and export again.`,
      'Show Preview',
    );
    if (choice === 'Show Preview') await dependencies.showPreview(location.anchor);
    return undefined;
  }
  const slug = answer.slug ?? (await slugOf(location.root));
  let target = options.target;
  if (target === undefined) {
    // Beside the topology by default, when it is `topology.dot`: a bundle whose topology has
    // another name takes the first `.dot` by name as its topology, which an export could become.
    const topology = await topologyOf(location.root);
    const folder = topology !== undefined && basename(topology).toLowerCase() !== 'topology.dot' ? parentOf(location.root) : location.root;
    target = await vscode.window.showSaveDialog({
      defaultUri: vscode.Uri.joinPath(folder, `${slug}.attractor.dot`),
      filters: { 'Attractor pipeline': ['dot', 'gv'] },
      saveLabel: 'Export',
      title: 'Export Attractor File',
    });
    if (target === undefined) return undefined;
  } else if (await exists(target)) {
    const replace = await vscode.window.showWarningMessage(
      `${vscode.workspace.asRelativePath(target)} already exists. Replace it with the compiled pipeline?`,
      { modal: true },
      'Replace',
    );
    if (replace !== 'Replace') return undefined;
  }
  await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(answer.text));
  void vscode.window.showInformationMessage(`Exported the Attractor pipeline to ${vscode.workspace.asRelativePath(target)}.`);
  return target;
}
