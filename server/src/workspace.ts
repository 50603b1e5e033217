/**
 * The disk, from Node: the `FileAccess` (./files.ts) that reads with `node:fs` and names files by
 * `node:path` paths and `file:` URIs, and the bundle reads of ./bundle-files.ts bound to it. This
 * is the only module of the server that touches `fs`; the engine never does. The web build
 * leaves it out and reads through the client instead (./client-files.ts).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { bundleReadLimits } from '../../shared/src';
import * as reads from './bundle-files';
import type { BundleRead, ReadLimits, ReadOptions, ScanOptions } from './bundle-files';
import type { FileAccess, FolderEntry } from './files';

export { fitsReadLimits, isBundleFile, isRootMarker, isSearchedFolderName } from './bundle-files';
export type { BundleRead, ReadLimits, ReadOptions, ScanOptions } from './bundle-files';

/** The file system as Node sees it: absolute paths of this machine, `file:` URIs. */
export const nodeFiles: FileAccess = {
  paths: path,
  pathOf: (uri) => {
    if (!uri.startsWith('file:')) return undefined;
    try {
      return path.resolve(fileURLToPath(uri));
    } catch {
      return undefined;
    }
  },
  uriOf: (file) => pathToFileURL(file).href,
  readFolder: async (dir) => {
    let dirents: import('node:fs').Dirent[];
    try {
      dirents = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      return [];
    }
    const out: FolderEntry[] = [];
    for (const e of dirents) {
      if (!e.isSymbolicLink()) {
        out.push({ name: e.name, directory: e.isDirectory(), file: e.isFile(), linked: false });
        continue;
      }
      try {
        const target = await fs.stat(path.join(dir, e.name));
        out.push({ name: e.name, directory: target.isDirectory(), file: target.isFile(), linked: true });
      } catch {
        // a link to nothing
      }
    }
    return out;
  },
  stat: async (file) => {
    try {
      const stat = await fs.stat(file);
      return { directory: stat.isDirectory(), file: stat.isFile(), size: stat.size };
    } catch {
      return undefined;
    }
  },
  isLink: async (file) => {
    try {
      return (await fs.lstat(file)).isSymbolicLink();
    } catch {
      return undefined;
    }
  },
  realPath: async (file) => {
    try {
      return await fs.realpath(file);
    } catch {
      return undefined;
    }
  },
  // (the walk measured the file just before: the text is read whole, as it stands)
  readText: async (file) => {
    try {
      return await fs.readFile(file, 'utf8');
    } catch {
      return undefined;
    }
  },
};

/** `relative` with `/` separators, or undefined when `file` is not inside `root`. */
export function relativeTo(root: string, file: string): string | undefined {
  return reads.relativeTo(path, root, file);
}

/** Every bundle root at or below `folder`, sorted (see ./bundle-files.ts `findRoots`). */
export function findRoots(folder: string, options: ScanOptions = {}): Promise<string[]> {
  return reads.findRoots(nodeFiles, folder, options);
}

/** The nearest bundle root at or above `dir` (see ./bundle-files.ts `rootAbove`). */
export function rootAbove(dir: string, limit?: string): Promise<string | undefined> {
  return reads.rootAbove(nodeFiles, dir, limit);
}

/** The files of the bundle at `root` and what the read left out (see ./bundle-files.ts `readBundleFiles`). */
export function readBundleFiles(root: string, options: ReadOptions = {}): Promise<BundleRead> {
  return reads.readBundleFiles(nodeFiles, root, options);
}

/** One file of a bundle read again (see ./bundle-files.ts `readBundleFile`). */
export function readBundleFile(root: string, relative: string, allowed: string, limits: ReadLimits = bundleReadLimits): Promise<string | undefined | 'skipped'> {
  return reads.readBundleFile(nodeFiles, root, relative, allowed, limits);
}

/** True when `file` is an existing folder. */
export function isFolder(file: string): Promise<boolean> {
  return reads.isFolder(nodeFiles, file);
}
