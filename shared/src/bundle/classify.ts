/**
 * File classification by base name (docs/compatibility.md#file-classification). A bundle folder's
 * files arrive as `{ path, text }` with paths relative to the folder; this decides which is the
 * topology, the manifest, the local vocabulary and which are cards.
 */
import type { Diagnostic } from '../diagnostics';
import type { SourceFile } from './model';

export interface ClassifiedFiles {
  readonly topology?: SourceFile;
  readonly manifest?: SourceFile;
  readonly vocabulary?: SourceFile;
  /** Card files in file-name code-unit order. */
  readonly cards: readonly SourceFile[];
  /** Files under `cards/` whose reserved name keeps them out of the card set. */
  readonly reservedUnderCards: readonly SourceFile[];
  readonly diagnostics: readonly Diagnostic[];
}

const topologyName = /\.(dot|gv)$/i;
const manifestName = /^blueprint\.(ya?ml|json)$/i;
const vocabularyName = /^extensions\.(ya?ml|json)$/i;
const cardName = /\.(ya?ml|json)$/i;

/**
 * The files that make their folder a bundle root (docs/compatibility.md#bundle-roots), matched in
 * any case; a `cards` folder does too. The language server's workspace scan and the VS Code
 * client's bundle search both read these (and `skippedFolderNames`), so that they find the same
 * bundles.
 */
export const rootMarkerFiles: readonly string[] = ['topology.dot', 'blueprint.yaml', 'blueprint.yml', 'blueprint.json'];

/** Folders no bundle is looked for in (build outputs, dependencies); hidden folders neither. */
export const skippedFolderNames: readonly string[] = ['node_modules', 'out', 'dist', 'coverage'];

/** True when a folder entry of that name makes its folder a bundle root (see `rootMarkerFiles`). */
export function isRootMarker(name: string, isDirectory: boolean): boolean {
  return isDirectory ? name === 'cards' : rootMarkerFiles.includes(name.toLowerCase());
}

/** True when bundles are looked for in a folder of that name (not hidden, not a skipped one). */
export function isSearchedFolderName(name: string): boolean {
  return !name.startsWith('.') && !skippedFolderNames.includes(name);
}

/**
 * How far a search for bundles goes below the folder it starts in: folders at most `depth`
 * levels down (the folder itself is level 0), and `folders` listed in all. A walk through a
 * bundle's `cards/` goes at most `depth` levels below it too. The language server's workspace
 * scan and the command line read these, so that they find the same bundles.
 */
export const bundleSearchLimits = { depth: 24, folders: 50_000 } as const;

/** A folder entry as a bundle search sees it: its name, and whether it is a folder (a link taken as what it points at). */
export interface SearchEntry {
  readonly name: string;
  readonly directory: boolean;
}

/** What a bundle search does in one folder (see `bundleSearchStep`). */
export interface SearchStep {
  /** The folder is a bundle root: an entry is a root marker (`rootMarkerFiles`, or a `cards` folder). */
  readonly isBundle: boolean;
  /** The child folders to search next, one level deeper, in code-unit order of their names. */
  readonly descend: readonly string[];
}

/**
 * THE rule of a bundle search, for one folder at `depth` below where the search started, given
 * its entries: whether it is a bundle root, and which of its folders are searched next. Hidden
 * and skipped folders (`isSearchedFolderName`) are not, nor a folder named `cards` (it makes its
 * parent a root, and nothing at or below it is a root of its own: a `blueprint.yaml` misfiled
 * among the cards is the bundle's finding, `bundle/misfiled-card`), nor anything below
 * `bundleSearchLimits.depth`. A bundle root's other folders are searched too: bundles may nest.
 * Following symbolic links (only inside the folder searched, each real folder once) and the
 * `folders` limit are the walker's.
 */
export function bundleSearchStep(entries: readonly SearchEntry[], depth: number): SearchStep {
  let isBundle = false;
  const descend: string[] = [];
  for (const e of entries) {
    if (isRootMarker(e.name, e.directory)) isBundle = true;
    if (e.directory && e.name !== 'cards' && isSearchedFolderName(e.name)) descend.push(e.name);
  }
  return { isBundle, descend: depth < bundleSearchLimits.depth ? descend.sort(compareNames) : [] };
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function baseName(path: string): string {
  const i = path.lastIndexOf('/');
  return i >= 0 ? path.slice(i + 1) : path;
}

function byPath(a: SourceFile, b: SourceFile): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/**
 * The file `classifyFiles` takes for the topology, without classifying the others: of the
 * root-level `.dot`/`.gv` files, `topology.dot` (any case; the first by name of its spellings),
 * else the first by name.
 */
export function findTopology(files: readonly SourceFile[]): SourceFile | undefined {
  let preferred: SourceFile | undefined;
  let first: SourceFile | undefined;
  for (const f of files) {
    if (f.path.includes('/') || !topologyName.test(f.path)) continue;
    if (first === undefined || byPath(f, first) < 0) first = f;
    if (f.path.toLowerCase() === 'topology.dot' && (preferred === undefined || byPath(f, preferred) < 0)) preferred = f;
  }
  return preferred ?? first;
}

/**
 * - topology: root-level `.dot`/`.gv`; `topology.dot` (any case) wins, else the first by name.
 *   `bundle/legacy-topology-file` only when `topology.dot` is kept and `blueprint.dot` is beside it.
 * - manifest: the first root-level `blueprint.(yaml|yml|json)`.
 * - vocabulary: `ontology/extensions.yaml`, or a root-level `extensions.*`; both present and
 *   different is a `card/parse-error` and neither is used.
 * - cards: every `*.yaml|yml|json` under `cards/` (nested folders hold namespaced ids), except
 *   files named like a manifest or a vocabulary, which are never cards
 *   (docs/compatibility.md#file-classification).
 */
export function classifyFiles(files: readonly SourceFile[]): ClassifiedFiles {
  const sorted = [...files].sort(byPath);
  const diagnostics: Diagnostic[] = [];
  const rootFiles = sorted.filter((f) => !f.path.includes('/'));
  const candidates = rootFiles.filter((f) => topologyName.test(f.path));
  const topology = findTopology(rootFiles);
  const preferred = topology !== undefined && topology.path.toLowerCase() === 'topology.dot' ? topology : undefined;
  if (preferred) {
    const legacy = candidates.find((f) => f.path.toLowerCase() === 'blueprint.dot');
    if (legacy) {
      diagnostics.push({
        code: 'bundle/legacy-topology-file',
        severity: 'warning',
        message: `${legacy.path} is an older name for the topology and is ignored because ${preferred.path} is present; delete ${legacy.path} or merge what it still holds into ${preferred.path}.`,
        location: { file: legacy.path },
      });
    }
  }
  const manifest = rootFiles.find((f) => manifestName.test(f.path));

  const nested = sorted.find((f) => f.path === 'ontology/extensions.yaml');
  const flat = rootFiles.find((f) => vocabularyName.test(f.path));
  let vocabulary = nested ?? flat;
  if (nested && flat && nested.text !== flat.text) {
    vocabulary = undefined;
    diagnostics.push({
      code: 'card/parse-error',
      severity: 'error',
      message: `Two local vocabularies disagree: ontology/extensions.yaml and ${flat.path} differ, so neither is used; keep one of them.`,
      location: { file: 'ontology/extensions.yaml', span: { start: 0, end: 0 } },
    });
  }

  const cards: SourceFile[] = [];
  const reservedUnderCards: SourceFile[] = [];
  for (const f of sorted) {
    if (!f.path.startsWith('cards/') || !cardName.test(f.path)) continue;
    const base = baseName(f.path);
    if (manifestName.test(base) || vocabularyName.test(base)) reservedUnderCards.push(f);
    else cards.push(f);
  }
  return { topology, manifest, vocabulary, cards, reservedUnderCards, diagnostics };
}

/**
 * How much one bundle may read from disk, in the language server and the command line alike:
 * files at most, bytes in all, and bytes per file. Past these, files are skipped and reported
 * (`bundle/files-skipped`), so a repository cannot make the tools read without end.
 */
export const bundleReadLimits = { files: 10_000, totalBytes: 64 * 1024 * 1024, fileBytes: 16 * 1024 * 1024 } as const;

/** What a bundle's read left out, paths relative to the bundle folder (`/` separators). */
export interface SkippedReads {
  /** Symbolic links not followed because their target lies outside the allowed folder. */
  readonly outsideLinks: readonly string[];
  /** Files larger than `bundleReadLimits.fileBytes`. */
  readonly tooLarge: readonly string[];
  /** Files not read because the bundle reached `bundleReadLimits.files` or `.totalBytes`. */
  readonly overLimit: readonly string[];
}

export const noSkippedReads: SkippedReads = { outsideLinks: [], tooLarge: [], overLimit: [] };

/** How many paths of each kind a message names before it says how many more. */
const namedPaths = 5;

function named(paths: readonly string[]): string {
  const shown = paths.slice(0, namedPaths).join(', ');
  return paths.length > namedPaths ? `${shown} and ${paths.length - namedPaths} more` : shown;
}

/**
 * What the limits left out: the files not read and, listed with a trailing `/`, the folders
 * below `cards/` not walked (the editor's read also bounds the folders it walks).
 */
function overLimitPart(overLimit: readonly string[]): string {
  const folders = overLimit.filter((p) => p.endsWith('/'));
  const files = overLimit.filter((p) => !p.endsWith('/'));
  const counted = (list: readonly string[], noun: string): string => `${list.length} ${noun}${list.length > 1 ? 's' : ''} (${named(list)})`;
  const what = [...(files.length > 0 ? [counted(files, 'file')] : []), ...(folders.length > 0 ? [counted(folders, 'folder')] : [])].join(' and ');
  const verb = files.length > 0 && folders.length > 0 ? 'were not read or walked' : files.length > 0 ? `${files.length > 1 ? 'were' : 'was'} not read` : `${folders.length > 1 ? 'were' : 'was'} not walked`;
  const limit = `${bundleReadLimits.files.toLocaleString('en')}`;
  const reason = folders.length > 0 ? `a bundle reads at most ${limit} files and ${bundleReadLimits.totalBytes / (1024 * 1024)} MB, and walks at most ${limit} folders below cards/` : `a bundle reads at most ${limit} files and ${bundleReadLimits.totalBytes / (1024 * 1024)} MB`;
  return `${what} ${verb} because ${reason}`;
}

/**
 * The `bundle/files-skipped` finding for what a read left out (none when nothing was), reported on
 * `home` (the topology's path, when the bundle has one). `scope` names the folder links may not
 * leave: `the workspace folder` in the editor, `the bundle folder` on the command line.
 */
export function skippedReadsDiagnostics(skipped: SkippedReads, home: string | undefined, scope: string): Diagnostic[] {
  const parts: string[] = [];
  if (skipped.outsideLinks.length > 0) parts.push(`the symbolic link${skipped.outsideLinks.length > 1 ? 's' : ''} ${named(skipped.outsideLinks)} ${skipped.outsideLinks.length > 1 ? 'lead' : 'leads'} outside ${scope} and ${skipped.outsideLinks.length > 1 ? 'are' : 'is'} not followed`);
  if (skipped.tooLarge.length > 0) parts.push(`${named(skipped.tooLarge)} ${skipped.tooLarge.length > 1 ? 'are' : 'is'} larger than ${bundleReadLimits.fileBytes / (1024 * 1024)} MB and not read`);
  if (skipped.overLimit.length > 0) parts.push(overLimitPart(skipped.overLimit));
  if (parts.length === 0) return [];
  return [
    {
      code: 'bundle/files-skipped',
      severity: 'warning',
      message: `Some files of this bundle were not read: ${parts.join('; ')}. Copy linked cards into the bundle, or remove what does not belong in it.`,
      location: home !== undefined ? { file: home, span: { start: 0, end: 0 } } : {},
    },
  ];
}
