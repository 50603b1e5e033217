/**
 * Finding bundle roots (docs/compatibility.md#bundle-roots) and reading the files a bundle is made
 * of, through a `FileAccess` (./files.ts): the same walk, limits and link rules whether Node's `fs`
 * answers (./workspace.ts) or the client does (./client-files.ts). Every function tolerates a
 * vanished or unreadable file or folder (it is simply absent), and never throws.
 *
 * What the disk may make the server read is bounded: a symbolic link is followed only while its
 * real target stays inside the folder the walk may not leave (the workspace folder; for a bundle
 * outside every workspace folder, the bundle folder itself), and one bundle reads at most
 * `bundleReadLimits` (files, bytes in all, bytes per file, and as many folders below `cards/` as
 * files). What a read leaves out is returned, for the bundle to report (`bundle/files-skipped`).
 * A file system that cannot tell where a link leads (`realPath` undefined) has none of its links
 * followed.
 */
import { bundleReadLimits, bundleSearchLimits, bundleSearchStep, isRootMarker, isSearchedFolderName, type SkippedReads } from '../../shared/src';
import { utf8Length, type FileAccess, type FolderEntry, type Paths } from './files';

export { isRootMarker, isSearchedFolderName };

/** How much one bundle may read (the real limits are `bundleReadLimits`; tests pass smaller ones). */
export interface ReadLimits {
  /** Files at most, and folders below `cards/` at most. */
  readonly files: number;
  readonly totalBytes: number;
  readonly fileBytes: number;
}

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
export function relativeTo(paths: Paths, root: string, file: string): string | undefined {
  const relative = paths.relative(root, file);
  if (relative === '' || relative.startsWith('..') || paths.isAbsolute(relative)) return undefined;
  return relative.split(paths.sep).join('/');
}

/** What a workspace scan is told as it goes (see `findRoots`). */
export interface ScanOptions {
  /**
   * Called before each folder is listed, with the number of folders listed so far; the walk
   * waits for a promise it returns (a scan runs other disk work there: see disk-queue.ts and bundles.ts).
   */
  readonly onFolder?: (visited: number) => Promise<void> | undefined;
}

/**
 * Every bundle root at or below `folder`, sorted. Hidden folders and build outputs are skipped,
 * and so is a symbolic link whose real target lies outside `folder` (or that leads back up).
 * Nothing at or below a bundle's `cards/` folder is a root of its own: that folder holds the
 * bundle's cards, and a `blueprint.yaml` misfiled there is reported by the bundle
 * (`bundle/misfiled-card`, docs/compatibility.md#file-classification) rather than splitting the
 * cards off into a bundle of their own; so the walk does not go into it.
 */
export async function findRoots(files: FileAccess, folder: string, options: ScanOptions = {}): Promise<string[]> {
  const path = files.paths;
  const roots: string[] = [];
  let visited = 0;
  const top = path.resolve(folder);
  const links = linkGuard(files, top);
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (visited >= bundleSearchLimits.folders) return;
    const pause = options.onFolder?.(visited);
    if (pause) await pause;
    visited++;
    const entries = await listFolder(files, dir);
    const step = bundleSearchStep(entries, depth);
    if (step.isBundle) roots.push(dir);
    const linked = new Set(entries.filter((e) => e.linked).map((e) => e.name));
    for (const name of step.descend) {
      const child = path.join(dir, name);
      if (linked.has(name) && !(await links.follows(child, dir, true))) continue;
      await walk(child, depth + 1);
    }
  };
  await walk(top, 0);
  return roots.sort();
}

/**
 * The nearest folder at or above `dir` (not above `limit` when given) that is a bundle root on
 * disk. A folder at or inside a `cards/` folder is not one (see `findRoots`): the answer is the
 * folder that holds the nearest `cards/`, a root for holding it.
 */
export async function rootAbove(files: FileAccess, dir: string, limit?: string): Promise<string | undefined> {
  const path = files.paths;
  let current = path.resolve(dir);
  const cards = cardsFolderAbove(path, current, limit);
  if (cards !== undefined) return path.dirname(cards);
  for (let i = 0; i < 64; i++) {
    const entries = await listFolder(files, current);
    if (entries.some((e) => isRootMarker(e.name, e.directory))) return current;
    if (limit !== undefined && current === path.resolve(limit)) return undefined;
    const parent = path.dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
  return undefined;
}

/** The nearest folder named `cards` at or above `dir`, below `limit` (when given), if any. */
function cardsFolderAbove(path: Paths, dir: string, limit: string | undefined): string | undefined {
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
 * `files` with each folder listed at most once: for one task that would list a folder twice in a
 * row (finding an open document's bundle root, then reading that bundle: bundles.ts `discover`),
 * each listing a round trip to the client in the web build (docs/web.md).
 */
export function listingOnce(files: FileAccess): FileAccess {
  const listed = new Map<string, Promise<FolderEntry[]>>();
  return {
    paths: files.paths,
    pathOf: (uri) => files.pathOf(uri),
    uriOf: (file) => files.uriOf(file),
    readFolder: async (dir) => {
      let listing = listed.get(dir);
      if (listing === undefined) listed.set(dir, (listing = files.readFolder(dir)));
      // (a copy: a walk sorts the entries it is given)
      return [...(await listing)];
    },
    stat: (file) => files.stat(file),
    isLink: (file) => files.isLink(file),
    realPath: (file) => files.realPath(file),
    readText: (file, maxBytes) => files.readText(file, maxBytes),
  };
}

/** How a bundle is read (see `readBundleFiles`). */
export interface ReadOptions {
  /** Folders left to their own bundle (other, nearer roots). */
  readonly exclude?: ReadonlySet<string>;
  /** The folder symbolic links may not lead out of: the workspace folder (default: `root` itself). */
  readonly allowed?: string;
  /** Default `bundleReadLimits`. */
  readonly limits?: ReadLimits;
}

/** A bundle's files (relative path → text) and what the read left out. */
export interface BundleRead {
  readonly files: Map<string, string>;
  readonly skipped: SkippedReads;
}

/**
 * Reads the bundle files under `root`: the root-level topology, manifest and vocabulary
 * candidates first, then `ontology/extensions.yaml`, then the data files below `cards/` in name
 * order, so that a bundle at its limits still reads its topology. A symbolic link (a file or a
 * folder, `cards` itself too) whose real target lies outside `options.allowed` is not followed;
 * one back up, to a folder the walk is inside, neither. Past the limits, files and folders are
 * skipped; everything skipped is listed in `skipped`. Files are read a few dozen at a time.
 */
export async function readBundleFiles(files: FileAccess, root: string, options: ReadOptions = {}): Promise<BundleRead> {
  const path = files.paths;
  const limits = options.limits ?? bundleReadLimits;
  const exclude = options.exclude ?? new Set<string>();
  const links = linkGuard(files, options.allowed ?? root);
  const outsideLinks: string[] = [];
  const tooLarge: string[] = [];
  const overLimit: string[] = [];
  const wanted: string[] = [];
  let folders = 0;
  /** True when the entry is no link, or a link the read may follow; a link leading outside is listed. */
  const follows = async (e: FolderEntry, dir: string, relative: string): Promise<boolean> => {
    if (!e.linked) return true;
    const verdict = await links.verdict(path.join(dir, e.name), dir, e.directory);
    if (verdict === 'outside') outsideLinks.push(relative);
    return verdict === 'follow';
  };
  const want = (relative: string): void => {
    if (wanted.length < limits.files) wanted.push(relative);
    else overLimit.push(relative);
  };
  const walk = async (relative: string, depth: number): Promise<void> => {
    if (depth > bundleSearchLimits.depth) return;
    const dir = path.join(root, ...relative.split('/'));
    if (exclude.has(dir)) return;
    for (const e of await listFolder(files, dir, 'sorted')) {
      const child = `${relative}/${e.name}`;
      if (e.directory) {
        if (!(await follows(e, dir, child))) continue;
        // (the folders walked are bounded too: a tree of empty folders costs a listing each)
        if (folders >= limits.files || wanted.length >= limits.files) {
          overLimit.push(`${child}/`);
          continue;
        }
        folders++;
        await walk(child, depth + 1);
      } else if (e.file && dataFile.test(e.name) && (await follows(e, dir, child))) want(child);
    }
  };
  const top = await listFolder(files, root, 'sorted');
  for (const e of top) if (e.file && rootLevelFile.test(e.name) && (await follows(e, root, e.name))) want(e.name);
  const ontology = top.find((e) => e.directory && e.name === 'ontology');
  if (ontology && (await follows(ontology, root, 'ontology'))) {
    const folder = path.join(root, 'ontology');
    const vocabulary = (await listFolder(files, folder)).find((e) => e.file && e.name === 'extensions.yaml');
    if (vocabulary && (await follows(vocabulary, folder, 'ontology/extensions.yaml'))) want('ontology/extensions.yaml');
  }
  const cards = top.find((e) => e.directory && e.name === 'cards');
  if (cards && (await follows(cards, root, 'cards'))) {
    folders++;
    await walk('cards', 0);
  }
  // Each file's size, then its text at once while the texts read so far stay within the total
  // (each file one step rather than two: in the web build a step is a round trip to the client).
  // Which files a limit leaves out is decided after, in order, from the sizes alone, so it does
  // not depend on which read finished first: a text read for a file left out is dropped, and a
  // file kept whose text was not read yet is read then.
  const full = (relative: string): string => path.join(root, ...relative.split('/'));
  let readAhead = 0;
  const early = await mapLimited(wanted, 32, async (relative): Promise<{ size: number | undefined; text?: string | undefined }> => {
    const size = await fileSize(files, full(relative));
    if (size === undefined || size > limits.fileBytes || readAhead + size > limits.totalBytes) return { size };
    readAhead += size;
    return { size, text: await files.readText(full(relative), limits.fileBytes) };
  });
  const reading: number[] = [];
  let total = 0;
  wanted.forEach((relative, i) => {
    const size = early[i].size;
    if (size === undefined) return;
    if (size > limits.fileBytes) tooLarge.push(relative);
    else if (total + size > limits.totalBytes) overLimit.push(relative);
    else {
      total += size;
      reading.push(i);
    }
  });
  const late = await mapLimited(
    reading.filter((i) => !('text' in early[i])),
    32,
    async (i) => [i, await files.readText(full(wanted[i]), limits.fileBytes)] as const,
  );
  const lateTexts = new Map(late);
  const read = new Map<string, string>();
  for (const i of reading) {
    const text = 'text' in early[i] ? early[i].text : lateTexts.get(i);
    if (text !== undefined) read.set(wanted[i], text);
  }
  return { files: read, skipped: { outsideLinks, tooLarge, overLimit } };
}

/**
 * One file of a bundle read again (after a watched-file event, or when its document closes):
 * its text; undefined when it is missing or not a file; `skipped` when the bundle's read would
 * leave it out: larger than `limits.fileBytes`, or reached through a symbolic link (on the way
 * from `root`, or itself) whose real target lies outside `allowed`.
 */
export async function readBundleFile(files: FileAccess, root: string, relative: string, allowed: string, limits: ReadLimits = bundleReadLimits): Promise<string | undefined | 'skipped'> {
  const links = linkGuard(files, allowed);
  let current = root;
  for (const part of relative.split('/')) {
    current = files.paths.join(current, part);
    const linked = await files.isLink(current);
    if (linked === undefined) return undefined;
    if (linked && !(await links.inside(current))) return 'skipped';
  }
  const size = await fileSize(files, current);
  if (size === undefined) return undefined;
  if (size > limits.fileBytes) return 'skipped';
  return files.readText(current, limits.fileBytes);
}

/**
 * True when a bundle whose files are `disk` stays within `limits` with `text` at `relative` (a
 * file added or changed): a read of the whole bundle would not leave a file out.
 */
export function fitsReadLimits(disk: ReadonlyMap<string, { readonly text: string }>, relative: string, text: string, limits: ReadLimits = bundleReadLimits): boolean {
  if (!disk.has(relative) && disk.size + 1 > limits.files) return false;
  const bytes = utf8Length(text);
  if (bytes > limits.fileBytes) return false;
  // (a bound first, which most bundles stay far below: a UTF-16 code unit takes at most 3 bytes in UTF-8)
  let bound = bytes;
  for (const [known, file] of disk) if (known !== relative) bound += file.text.length * 3;
  if (bound <= limits.totalBytes) return true;
  let total = bytes;
  for (const [known, file] of disk) if (known !== relative) total += utf8Length(file.text);
  return total <= limits.totalBytes;
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

/** The size of a file in bytes, or undefined when it is missing, not a file or unreadable. */
async function fileSize(files: FileAccess, file: string): Promise<number | undefined> {
  const stat = await files.stat(file);
  return stat?.file ? stat.size : undefined;
}

/** True when `file` is an existing folder. */
export async function isFolder(files: FileAccess, file: string): Promise<boolean> {
  return (await files.stat(file))?.directory === true;
}

/**
 * The entries of a folder (in name order with `sorted`), each symbolic link taken as what it
 * points at (a `cards` folder linked from elsewhere in the workspace is a bundle's cards all the
 * same); a link to nothing is left out.
 */
async function listFolder(files: FileAccess, dir: string, order?: 'sorted'): Promise<FolderEntry[]> {
  const out = await files.readFolder(dir);
  if (order === 'sorted') out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return out;
}

/** What a walk does with a symbolic link: follows it, or not, because it leads outside the allowed folder or back up. */
type LinkVerdict = 'follow' | 'outside' | 'loop';

interface LinkGuard {
  /** True when the real target of `link` lies inside the allowed folder. */
  inside(link: string): Promise<boolean>;
  /**
   * Whether a walk follows `link`, found in `dir`: not when its target leaves the allowed folder;
   * for a folder, only the first time the walk enters that real folder, and not when the walk is
   * inside it already (a link back up).
   */
  verdict(link: string, dir: string, folder: boolean): Promise<LinkVerdict>;
  /** `verdict` is `follow`. */
  follows(link: string, dir: string, folder: boolean): Promise<boolean>;
}

/** The symbolic links one walk may follow: those whose real target stays inside `allowed`, each folder once. */
function linkGuard(files: FileAccess, allowed: string): LinkGuard {
  let realAllowed: Promise<string | undefined> | undefined;
  const entered = new Set<string>();
  /** The real target of `link` when it lies inside the allowed folder. */
  const insideTarget = async (link: string): Promise<string | undefined> => {
    realAllowed ??= files.realPath(allowed);
    const [top, real] = await Promise.all([realAllowed, files.realPath(link)]);
    return top !== undefined && real !== undefined && isWithin(files.paths, top, real) ? real : undefined;
  };
  const verdict = async (link: string, dir: string, folder: boolean): Promise<LinkVerdict> => {
    const real = await insideTarget(link);
    if (real === undefined) return 'outside';
    if (!folder) return 'follow';
    const within = await files.realPath(dir);
    if (within === undefined || entered.has(real) || isWithin(files.paths, real, within)) return 'loop';
    entered.add(real);
    return 'follow';
  };
  return {
    inside: async (link) => (await insideTarget(link)) !== undefined,
    verdict,
    follows: async (link, dir, folder) => (await verdict(link, dir, folder)) === 'follow',
  };
}

/** True when `file` is `folder` or lies below it (both real, absolute paths). */
function isWithin(path: Paths, folder: string, file: string): boolean {
  return file === folder || file.startsWith(folder.endsWith(path.sep) ? folder : `${folder}${path.sep}`);
}
