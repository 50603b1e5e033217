/**
 * The pure parts of `DarkPrint: Import Attractor Pipeline…` (./import.ts): the folder the prompt
 * offers for the new bundle, what the prompt says about the folder typed, where a typed path
 * leads, and where each imported file goes. Paths here are URI paths (`/`-separated, absolute);
 * what stands at a path is asked by the command and passed in. No `vscode`, no `fs`.
 */
import { isRootMarker, isSearchedFolderName } from '../../shared/src';

/** What stands at a path, as the prompt needs to know it. */
export type FolderState =
  | { readonly kind: 'missing' }
  | { readonly kind: 'file' }
  /** A folder, with its entries (a folder entry marked by a trailing `/`). */
  | { readonly kind: 'folder'; readonly entries: readonly string[] };

/** The name of a pipeline without a name of its own (the engine's slug for it). */
export const unnamedFolder = 'imported-pipeline';

/**
 * The folder name a pipeline file suggests: its name without `.dot` or `.gv` (and without the
 * `.attractor` that export puts before it), leading dots dropped, characters no file name holds
 * on every system replaced by `-`; a name the bundle search skips (`out`, `dist`…) gets
 * `-bundle` after it, so that the language server sees the new bundle.
 */
export function folderNameFor(pipelineName: string): string {
  let name = pipelineName.replace(/\.(dot|gv)$/i, '').replace(/\.attractor$/i, '');
  name = name.replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, '-').replace(/^[.\s]+/, '').replace(/[.\s]+$/, '');
  if (name === '') return unnamedFolder;
  return isSearchedFolderName(name) ? name : `${name}-bundle`;
}

/** How many names `freeFolderName` tries before it gives the first one back (the prompt then says why it cannot be used). */
export const freeNameAttempts = 1000;

/**
 * The first of `name`, `name-2`, `name-3`… in `parent` where the bundle can go: nothing there
 * yet, or an empty folder. `stateOf` tells what stands at a path.
 */
export async function freeFolderName(parent: string, name: string, stateOf: (path: string) => Promise<FolderState>): Promise<string> {
  for (let n = 1; n <= freeNameAttempts; n++) {
    const candidate = n === 1 ? name : `${name}-${n}`;
    if (folderVerdict(candidate, await stateOf(joinPath(parent, candidate))).ok) return candidate;
  }
  return name;
}

/**
 * The folder the new bundle's default goes in: beside the pipeline; or, when the pipeline lies in
 * a bundle (`bundleRoot`), beside that bundle, so that the default is never the bundle itself nor
 * a folder inside it, unless that bundle is the workspace folder itself (then beside the pipeline,
 * the only place in the workspace: the new folder is a bundle of its own there).
 */
export function defaultParent(pipeline: string, bundleRoot: string | undefined, workspaceFolder: string | undefined): string {
  const beside = parentPath(pipeline);
  if (bundleRoot === undefined) return beside;
  const aboveBundle = parentPath(bundleRoot);
  if (aboveBundle === bundleRoot) return beside;
  if (workspaceFolder !== undefined && !isAtOrInside(aboveBundle, workspaceFolder)) return beside;
  return aboveBundle;
}

/** Whether the bundle can go at a path, and what the prompt says about it (`shown` names the path). */
export type FolderVerdict = { readonly ok: true; readonly note: string } | { readonly ok: false; readonly problem: string };

export function folderVerdict(shown: string, state: FolderState): FolderVerdict {
  switch (state.kind) {
    case 'missing':
      return { ok: true, note: `${shown} is a new folder: it is created (with any folder above it that is missing) and the bundle is written into it.` };
    case 'file':
      return { ok: false, problem: `${shown} is a file, not a folder. Type the path of a new folder (or of an empty one) for the bundle.` };
    case 'folder': {
      const count = state.entries.length;
      if (count === 0) return { ok: true, note: `${shown} is an empty folder: the bundle is written into it.` };
      const holds = `it holds ${count} entr${count === 1 ? 'y' : 'ies'}`;
      const what = state.entries.some((entry) => isRootMarker(entry.replace(/\/$/, ''), entry.endsWith('/'))) ? `${shown} is a bundle's folder (${holds})` : `${shown} is not empty (${holds})`;
      return {
        ok: false,
        problem: `${what}. Import writes a whole new bundle and never writes over or beside existing files: type the path of a new folder (or of an empty one).`,
      };
    }
  }
}

/**
 * The path a typed value names: an absolute one as typed, a relative one from `base`; `.` and
 * `..` resolved, repeated and trailing `/` dropped. Undefined for a blank value.
 */
export function resolveTyped(typed: string, base: string): string | undefined {
  const value = typed.trim();
  if (value === '') return undefined;
  const parts: string[] = [];
  for (const part of `${value.startsWith('/') ? '' : base}/${value}`.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `/${parts.join('/')}`;
}

/** The parts of a file's path inside the new bundle; undefined when it is absolute or would leave the folder. */
export function bundlePathParts(relative: string): string[] | undefined {
  const parts = relative.split('/');
  if (parts.some((part) => part === '' || part === '.' || part === '..' || part.includes('\\'))) return undefined;
  return parts;
}

/**
 * The entries at the top of a bundle with these files, in the order they are moved into an
 * existing folder: the folders first (each moved whole), then the files, `topology.dot` last, so
 * that the bundle's topology appears when everything it names is there.
 */
export function entriesInMoveOrder(paths: readonly string[]): { readonly name: string; readonly folder: boolean }[] {
  const folders = new Set<string>();
  const files = new Set<string>();
  for (const path of paths) {
    const slash = path.indexOf('/');
    if (slash < 0) files.add(path);
    else folders.add(path.slice(0, slash));
  }
  const fileNames = [...files].sort((a, b) => Number(a === 'topology.dot') - Number(b === 'topology.dot'));
  return [...[...folders].map((name) => ({ name, folder: true })), ...fileNames.map((name) => ({ name, folder: false }))];
}

export function joinPath(folder: string, name: string): string {
  return folder.endsWith('/') ? `${folder}${name}` : `${folder}/${name}`;
}

/** The folder above a path (`/` for `/`). */
export function parentPath(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  const slash = trimmed.lastIndexOf('/');
  return slash <= 0 ? '/' : trimmed.slice(0, slash);
}

/** The last part of a path. */
export function lastPart(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed.slice(trimmed.lastIndexOf('/') + 1);
}

function isAtOrInside(path: string, folder: string): boolean {
  const base = folder.replace(/\/+$/, '');
  return path === base || path.startsWith(`${base}/`) || base === '';
}
