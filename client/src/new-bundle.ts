/**
 * `DarkPrint: New Bundle…`: asks for a folder and a title, writes a minimal bundle there (its
 * topology, `blueprint.yaml`, and two cards joined by a typed edge: the engine's
 * `newBundleFiles`, which validates with no error and no warning) and opens its topology. Like
 * the import, it writes only into an empty folder, and never over a file.
 */
import * as vscode from 'vscode';
import { newBundleFiles } from '../../shared/src';
import { basename, readDirectory } from './bundles';

export interface NewBundleOptions {
  /** The empty folder to write the bundle into; default: asked with a folder dialog. */
  readonly folder?: vscode.Uri;
  /** The bundle's title; default: asked with an input box (the folder's name offered). */
  readonly title?: string;
}

/** Writes a new bundle; resolves to the files written, or undefined when the user cancelled or it was refused. */
export async function newBundle(options: NewBundleOptions = {}): Promise<readonly vscode.Uri[] | undefined> {
  const folder =
    options.folder ??
    (
      await vscode.window.showOpenDialog({
        canSelectFiles: false,
        canSelectFolders: true,
        canSelectMany: false,
        openLabel: 'Create Here',
        title: 'New Bundle: an empty folder for it',
      })
    )?.[0];
  if (folder === undefined) return undefined;
  const entries = await readDirectory(folder);
  if (entries.length > 0) {
    void vscode.window.showErrorMessage(
      `${vscode.workspace.asRelativePath(folder)} is not empty (it holds ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}). A new bundle is written into an empty folder only: pick or create one.`,
    );
    return undefined;
  }
  const title =
    options.title ??
    (await vscode.window.showInputBox({
      title: 'New Bundle: title',
      prompt: 'The title of the blueprint, written in its blueprint.yaml (its slug is made from it)',
      value: titleOf(basename(folder)),
      ignoreFocusOut: true,
      validateInput: (value) => (value.trim() === '' ? 'Give the blueprint a title.' : undefined),
    }));
  if (title === undefined) return undefined;
  const written: vscode.Uri[] = [];
  for (const file of newBundleFiles(title)) {
    const target = vscode.Uri.joinPath(folder, ...file.path.split('/'));
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(file.text));
    written.push(target);
  }
  const topology = written.find((uri) => basename(uri) === 'topology.dot');
  if (topology !== undefined) await vscode.window.showTextDocument(topology, { preview: false });
  return written;
}

/** A folder's name as a title: `release-notes_line` → `Release notes line`. */
function titleOf(name: string): string {
  const words = name.replace(/[-_.]+/g, ' ').trim();
  return words === '' ? '' : words.charAt(0).toUpperCase() + words.slice(1);
}
