/**
 * The disk: finding bundle roots (SPEC §1) and reading the files a bundle is made of. This is
 * the only module of the server that touches `fs`; the engine never does. Every function
 * tolerates a vanished or unreadable file or folder (it is simply absent), and never throws.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { isRootMarker, isSearchedFolderName } from '../../shared/src/bundle/classify';

export { isRootMarker, isSearchedFolderName };

/** How deep below a workspace folder bundles are looked for, and how many folders at most. */
const maximumDepth = 24;
const maximumFolders = 50_000;
/** Larger files are not read (a card or topology is never this big). */
export const maximumFileSize = 16 * 1024 * 1024;

const rootLevelFile = /\.(dot|gv)$|^(blueprint|extensions)\.(ya?ml|json)$/i;
const dataFile = /\.(ya?ml|json)$/i;



/**
 * True when a path relative to a bundle root names a file the engine reads: a root-level
 * topology, manifest or vocabulary candidate, `ontology/extensions.yaml`, or a data file
 * anywhere under `cards/`.
 */
export function isBundleFile(relative: string): boolean {
  if (!relative.includes('/')) return rootLevelFile.test(relative);
  if (relative === 'ontology/extensions.yaml') return true;
  return relative.startsWith('cards/') && dataFile.test(relative);
}

/** `relative` with `/` separators, or undefined when `file` is not inside `root`. */
export function relativeTo(root: string, file: string): string | undefined {
  const relative = path.relative(root, file);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  return relative.split(path.sep).join('/');
}

/**
 * Every bundle root at or below `folder`, sorted. Hidden folders and build outputs are skipped.
 * Nothing at or below a bundle's `cards/` folder is a root of its own: that folder holds the
 * bundle's cards, and a `blueprint.yaml` misfiled there is reported by the bundle
 * (`bundle/misfiled-card`, SPEC §1) rather than splitting the cards off into a bundle of their own.
 */
export async function findRoots(folder: string): Promise<string[]> {
  const roots: string[] = [];
  let visited = 0;
  const linked = new Set<string>();
  const walk = async (dir: string, depth: number, inCards: boolean): Promise<void> => {
    if (depth > maximumDepth || visited >= maximumFolders) return;
    visited++;
    const entries = await listFolder(dir);
    const root = !inCards && entries.some((e) => isRootMarker(e.name, e.directory));
    if (root) roots.push(dir);
    for (const e of entries) {
      if (!e.directory || !isSearchedFolderName(e.name)) continue;
      const child = path.join(dir, e.name);
      if (e.linked && !(await entered(linked, child, dir))) continue;
      await walk(child, depth + 1, inCards || (root && e.name === 'cards'));
    }
  };
  await walk(path.resolve(folder), 0, false);
  return roots.sort();
}

/**
 * The nearest folder at or above `dir` (not above `limit` when given) that is a bundle root on
 * disk. A folder at or inside a `cards/` folder is not one (see `findRoots`): the answer is the
 * folder that holds the nearest `cards/`, a root for holding it.
 */
export async function rootAbove(dir: string, limit?: string): Promise<string | undefined> {
  let current = path.resolve(dir);
  const cards = cardsFolderAbove(current, limit);
  if (cards !== undefined) return path.dirname(cards);
  for (let i = 0; i < 64; i++) {
    const entries = await listFolder(current);
    if (entries.some((e) => isRootMarker(e.name, e.directory))) return current;
    if (limit !== undefined && current === path.resolve(limit)) return undefined;
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
  return undefined;
}

/** The nearest folder named `cards` at or above `dir`, below `limit` (when given), if any. */
function cardsFolderAbove(dir: string, limit: string | undefined): string | undefined {
  const stop = limit !== undefined ? path.resolve(limit) : undefined;
  let current = dir;
  for (let i = 0; i < 256 && current !== stop; i++) {
    if (path.basename(current) === 'cards') return current;
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
  return undefined;
}

/**
 * Reads the bundle files under `root` (relative path → text). Folders in `exclude` (other,
 * nearer roots) are left to their own bundle. Files are read a few dozen at a time.
 */
export async function readBundleFiles(root: string, exclude: ReadonlySet<string> = new Set()): Promise<Map<string, string>> {
  const wanted: string[] = [];
  const linked = new Set<string>();
  const walk = async (relative: string, depth: number): Promise<void> => {
    if (depth > maximumDepth) return;
    const dir = path.join(root, ...relative.split('/'));
    if (exclude.has(dir)) return;
    for (const e of await listFolder(dir)) {
      const child = `${relative}/${e.name}`;
      if (e.directory) {
        if (!e.linked || (await entered(linked, path.join(dir, e.name), dir))) await walk(child, depth + 1);
      } else if (e.file && dataFile.test(e.name)) wanted.push(child);
    }
  };
  for (const e of await listFolder(root)) {
    if (e.file && rootLevelFile.test(e.name)) wanted.push(e.name);
    else if (e.directory && e.name === 'cards') await walk('cards', 0);
    else if (e.directory && e.name === 'ontology') wanted.push('ontology/extensions.yaml');
  }
  const texts = await mapLimited(wanted, 32, (relative) => readText(path.join(root, ...relative.split('/'))));
  const out = new Map<string, string>();
  wanted.forEach((relative, i) => {
    const text = texts[i];
    if (text !== undefined) out.set(relative, text);
  });
  return out;
}

async function mapLimited<T, R>(items: readonly T[], limit: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await run(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** The file's text, or undefined when it is missing, not a file, too large or unreadable. */
export async function readText(file: string): Promise<string | undefined> {
  try {
    const stat = await fs.stat(file);
    if (!stat.isFile() || stat.size > maximumFileSize) return undefined;
    return await fs.readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** True when `file` is an existing folder. */
export async function isFolder(file: string): Promise<boolean> {
  try {
    return (await fs.stat(file)).isDirectory();
  } catch {
    return false;
  }
}

/** A folder entry, a symbolic link taken as what it points at. */
interface Entry {
  readonly name: string;
  readonly directory: boolean;
  readonly file: boolean;
  /** True for an entry reached through a symbolic link (a folder's walk guards against loops: see `entered`). */
  readonly linked: boolean;
}

/**
 * The entries of a folder, each symbolic link followed (a `cards` folder linked from elsewhere is
 * a bundle's cards all the same); a link to nothing is left out.
 */
async function listFolder(dir: string): Promise<Entry[]> {
  let dirents: import('node:fs').Dirent[];
  try {
    dirents = await fs.readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  const out: Entry[] = [];
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
}

/**
 * Guards a walk against link loops: true the first time the walk enters the real folder behind
 * `dir` through a link, when that folder is not one the walk is inside already.
 */
async function entered(seen: Set<string>, dir: string, inside: string): Promise<boolean> {
  try {
    const real = await fs.realpath(dir);
    const within = await fs.realpath(inside);
    if (seen.has(real) || within === real || within.startsWith(`${real}${path.sep}`)) return false;
    seen.add(real);
    return true;
  } catch {
    return false;
  }
}
