/**
 * Where bundles are, as the commands need it: the bundle a file belongs to (its nearest folder
 * holding `topology.dot`, `blueprint.yaml` or a `cards/` folder:
 * docs/compatibility.md#bundle-roots), the bundle's topology file and slug. Reads through
 * `vscode.workspace.fs`, so it works on any file system VS Code mounts. The slug comes from the
 * engine's own manifest reader.
 */
import * as vscode from 'vscode';
import { readManifest } from '../../shared/src';
import { isRootMarker, rootMarkerFiles, skippedFolderNames } from '../../shared/src';

/**
 * The scheme of the compiled-file previews (./preview.ts): `darkprint-compiled:/<bundle
 * folder>/<slug>.attractor.dot?<anchor uri>`, the query keeping the file the preview asks for.
 */
export const previewScheme = 'darkprint-compiled';

/** The file a preview asks for (its query), or undefined for another URI or a broken one. */
export function previewAnchor(uri: vscode.Uri): vscode.Uri | undefined {
  if (uri.scheme !== previewScheme || uri.query === '') return undefined;
  try {
    return vscode.Uri.parse(uri.query, true);
  } catch {
    return undefined;
  }
}

/**
 * The URI schemes of the files the language server reads: `file` on the desktop, where the server
 * reads the disk itself; in the browser also the workspace folders' schemes (`vscode-vfs`,
 * `vscode-remote`...), which it reads through the extension (./files.ts, docs/web.md).
 */
const servedSchemes = new Set<string>(['file']);

/** Adds schemes to those the server reads (the web entry does, from the workspace folders: ./browser.ts). */
export function serveSchemes(schemes: Iterable<string>): void {
  for (const scheme of schemes) servedSchemes.add(scheme);
}

/** True when `uri` names a file the language server can read (see `servedSchemes`). */
export function isServed(uri: vscode.Uri): boolean {
  return servedSchemes.has(uri.scheme);
}

export interface BundleLocation {
  /** The bundle folder. */
  readonly root: vscode.Uri;
  /** The file the command was run from, or the bundle's topology when it was picked by folder. */
  readonly anchor: vscode.Uri;
}

/** The bundle holding `uri`, or undefined when no folder between it and its workspace folder is a bundle root. */
export async function bundleOf(uri: vscode.Uri): Promise<BundleLocation | undefined> {
  const limit = vscode.workspace.getWorkspaceFolder(uri)?.uri;
  let folder = (await isDirectory(uri)) ? uri : parentOf(uri);
  for (;;) {
    if (await isBundleRoot(folder)) return { root: folder, anchor: uri };
    if (limit !== undefined && folder.path === limit.path) return undefined;
    const parent = parentOf(folder);
    if (parent.path === folder.path) return undefined;
    folder = parent;
  }
}

/**
 * The bundle of the active editor (of the file a preview shows, when the preview is active);
 * otherwise the only bundle of the workspace; otherwise the one the user picks. Undefined when
 * there is none or the user cancels.
 */
export async function activeOrPickedBundle(preferred?: vscode.Uri): Promise<BundleLocation | undefined> {
  // (a preview's URI, from its title-bar button or as the active editor, stands for its bundle)
  const given = preferred ?? vscode.window.activeTextEditor?.document.uri;
  const candidate = given !== undefined ? (previewAnchor(given) ?? given) : undefined;
  if (candidate !== undefined && isServed(candidate)) {
    const found = await bundleOf(candidate);
    if (found !== undefined) return found;
  }
  const roots = await workspaceBundles();
  if (roots.length === 0) {
    void vscode.window.showWarningMessage(
      'No DarkPrint bundle is open: no folder of the workspace holds a topology.dot, a blueprint.yaml or a cards/ folder. Open a bundle folder, or a file inside one, and run the command again.',
    );
    return undefined;
  }
  const located = async (root: vscode.Uri): Promise<BundleLocation> => ({ root, anchor: (await topologyOf(root)) ?? root });
  if (roots.length === 1) return located(roots[0]!);
  const items = roots.map((root) => ({ label: labelOf(root), root })).sort((left, right) => left.label.localeCompare(right.label));
  const picked = await vscode.window.showQuickPick(items, { placeHolder: 'Which bundle?' });
  return picked === undefined ? undefined : located(picked.root);
}

/** The folders the language server's scan skips (hidden ones too): bundles there are not the workspace's. */
const skippedFolders = `{${[...skippedFolderNames.map((name) => `**/${name}/**`), '**/.*/**'].join(',')}}`;

/** The files whose creation or deletion can add or remove a bundle root (for a file watcher). */
export const rootMarkersGlob = `**/{${rootMarkerFiles.join(',')},cards/*}`;

/**
 * Every bundle root of the workspace (docs/compatibility.md#bundle-roots: a folder holding
 * `topology.dot`, a `blueprint.yaml` or a `cards/` folder with a card in it, at any depth), never
 * one inside another bundle's `cards/`, and none in a folder the server's scan skips.
 */
export async function workspaceBundles(): Promise<vscode.Uri[]> {
  const roots = new Map<string, vscode.Uri>();
  const add = (root: vscode.Uri): void => void roots.set(root.toString(), root);
  for (const file of await vscode.workspace.findFiles(`**/{${rootMarkerFiles.join(',')}}`, skippedFolders)) add(parentOf(file));
  for (const card of await vscode.workspace.findFiles('**/cards/**/*.{yaml,yml,json}', skippedFolders)) {
    // (the folder above the nearest `cards/` on the way up)
    const at = card.path.lastIndexOf('/cards/');
    if (at >= 0) add(card.with({ path: card.path.slice(0, at) || '/' }));
  }
  const all = [...roots.values()];
  return all.filter((root) => !all.some((other) => other !== root && isInside(vscode.Uri.joinPath(other, 'cards'), root)));
}

/** How the picker names a bundle: its path in the workspace, or the workspace folder's name when the bundle is one. */
function labelOf(root: vscode.Uri): string {
  const folder = vscode.workspace.getWorkspaceFolder(root);
  if (folder !== undefined && folder.uri.path === root.path) return folder.name;
  return vscode.workspace.asRelativePath(root, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
}

/** The bundle's topology file: `topology.dot`, else its first `.dot`/`.gv` file by name. */
export async function topologyOf(root: vscode.Uri): Promise<vscode.Uri | undefined> {
  const preferred = vscode.Uri.joinPath(root, 'topology.dot');
  if (await isFile(preferred)) return preferred;
  const entries = await readDirectory(root);
  const dots = entries
    .filter(([name, type]) => type === vscode.FileType.File && /\.(dot|gv)$/i.test(name))
    .map(([name]) => name)
    .sort();
  return dots.length === 0 ? undefined : vscode.Uri.joinPath(root, dots[0]!);
}

/** The bundle's slug: `blueprint.yaml`'s `slug`, or the stub slug of the folder name. */
export async function slugOf(root: vscode.Uri): Promise<string> {
  const manifestUri = vscode.Uri.joinPath(root, 'blueprint.yaml');
  const text = await readText(manifestUri);
  const folderName = basename(root);
  const file = text === undefined ? undefined : { path: 'blueprint.yaml', text };
  return readManifest(file, folderName).manifest.slug;
}

/** The text of a file: the open document's when it is open (unsaved edits count), else the disk's. */
export async function readText(uri: vscode.Uri): Promise<string | undefined> {
  const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString());
  if (open !== undefined) return open.getText();
  try {
    return new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}

export function isInside(root: vscode.Uri, uri: vscode.Uri): boolean {
  if (root.scheme !== uri.scheme || root.authority !== uri.authority) return false;
  const prefix = root.path.endsWith('/') ? root.path : `${root.path}/`;
  return uri.path === root.path || uri.path.startsWith(prefix);
}

export function basename(uri: vscode.Uri): string {
  const parts = uri.path.split('/').filter((part) => part !== '');
  return parts[parts.length - 1] ?? '';
}

export function parentOf(uri: vscode.Uri): vscode.Uri {
  return vscode.Uri.joinPath(uri, '..');
}

export async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

export async function readDirectory(uri: vscode.Uri): Promise<[string, vscode.FileType][]> {
  try {
    return await vscode.workspace.fs.readDirectory(uri);
  } catch {
    return [];
  }
}

async function isBundleRoot(folder: vscode.Uri): Promise<boolean> {
  const entries = await readDirectory(folder);
  return entries.some(([name, type]) => (type === vscode.FileType.File || type === vscode.FileType.Directory) && isRootMarker(name, type === vscode.FileType.Directory));
}

async function isDirectory(uri: vscode.Uri): Promise<boolean> {
  try {
    return ((await vscode.workspace.fs.stat(uri)).type & vscode.FileType.Directory) !== 0;
  } catch {
    return false;
  }
}

async function isFile(uri: vscode.Uri): Promise<boolean> {
  try {
    return ((await vscode.workspace.fs.stat(uri)).type & vscode.FileType.File) !== 0;
  } catch {
    return false;
  }
}
