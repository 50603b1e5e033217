/**
 * The server's "database of queries" in small (docs/architecture.md#the-data-flow-of-one-edit).
 *
 * Inputs: the disk text of every bundle file and what reading them left out (set by the
 * workspace layer), and the open documents (set by the LSP layer), which override the disk.
 * Queries: a bundle's snapshot (its files, the engine's `LoadResult`, the IDE view, the findings
 * about the disk read) for its current revision. A snapshot is
 * never served for an older revision: any input change bumps the revision and the next query
 * recomputes, reusing what the change did not touch:
 *
 * - per bundle, so an edit recomputes only the bundle it belongs to;
 * - each card read, by (path, text, local vocabulary): an unchanged card is the same
 *   `CardReadResult` object from one load to the next, which is what lets the engine reuse
 *   the work keyed on it. A kept read holds no syntax tree: `locate` reads the text again
 *   when its tree is not among the 256 most recently used (`compactRead`);
 * - the engine's own `LoadMemo`, one per bundle (shared/src/bundle/resolve.ts): the file
 *   classification while the paths are the same; the topology's parse by text, and a new text's
 *   parse resumed after the top-level statements it shares with the last one (their nodes and
 *   edges the same objects); the lint's per-node facts and edge findings while those read the
 *   same; each node's pin, each edge's ports and each node's dependencies while the parsed node
 *   or edge reads the same, moved with the edit, and the card entries it reads are the same
 *   objects; the graph, kept or grown from the last one; the analysis whole when nothing it
 *   reads changed, else per weakly connected component, with its per-type and per-card facts,
 *   the unchanged findings (as the same objects) and the criteria-leak similarity scores by spec
 *   text; the sorted order of the findings that stayed;
 * - each file's line index, while its text is the same;
 * - the LSP form of each diagnostic and its JSON, in the publisher (./publish.ts), also for a
 *   finding the edit only moved along its line or by whole lines.
 *
 * So a card edit re-reads one card and re-checks only the nodes, edges and dependency lists
 * that involve it; a topology edit re-parses the topology from the statement before the edit
 * and re-checks what the edit changed (and, for now, what follows it in the file is parsed again).
 *
 * Knows no LSP type and no `fs`: paths are absolute paths of the server's `FileAccess` (./files.ts),
 * texts are strings.
 */
import { createLoadMemo, loadBundle, type LoadMemo, type LoadResult } from '../../shared/src';
import type { SourceFile } from '../../shared/src';
import type { CardLocator, CardReadResult } from '../../shared/src';
import { readCard } from '../../shared/src';
import type { Vocabulary } from '../../shared/src';
import type { Diagnostic } from '../../shared/src';
import { lineIndex, type LineIndex } from '../../shared/src';
import type { IdeBundle } from '../../shared/src';
import { isCardPath, isTopologyPath } from '../../shared/src';
import { isBundleFile, relativeTo } from './bundle-files';
import type { Paths } from './files';
import { posixPaths } from './posix-paths';

export interface OpenDocument {
  /** The client's spelling of the document's URI (answers and diagnostics reuse it). */
  readonly uri: string;
  readonly version: number;
  readonly text: string;
}

export interface BundleState {
  /** Absolute folder path. */
  readonly root: string;
  /** Disk texts by bundle-relative path. */
  readonly disk: Map<string, SourceFile>;
  /** Bumped by every change to an input of this bundle. */
  revision: number;
  snapshot: Snapshot | undefined;
  /** Card reads by relative path (per-file results, reused while the text is the same). */
  readonly cardReads: Map<string, { readonly text: string; readonly vocabulary: string; readonly result: CardReadResult }>;
  /** The syntax trees of recently located cards (see `compactRead`). */
  readonly locators: LocatorCache;
  /** Open documents' source files by relative path, reused while their version is the same. */
  readonly openFiles: Map<string, { readonly version: number; readonly file: SourceFile }>;
  /** The engine's own reuse between loads (parse and lint, vocabulary, manifest, resolution, analysis). */
  readonly memo: LoadMemo;
  /** URIs of the bundle's files by relative path (disk spelling). */
  readonly uris: Map<string, string>;
  /** The line index of each file's text by relative path, kept while the text is the same (a large topology's takes a scan to build). */
  readonly lineIndexes: Map<string, LineIndex>;
  /**
   * Findings about the last read of the bundle from disk (the files it left out:
   * `bundle/files-skipped`), published with the engine's; the same objects while they read the same.
   */
  diskFindings: readonly Diagnostic[];
}

export interface Snapshot {
  readonly bundle: BundleState;
  readonly revision: number;
  /** Every file of the bundle as the engine read it (open documents over disk). */
  readonly files: ReadonlyMap<string, SourceFile>;
  /** The version of each file that was an open document when this snapshot was computed. */
  readonly versions: ReadonlyMap<string, number>;
  readonly result: LoadResult;
  readonly ide: IdeBundle;
  /** The line index of a file of this snapshot (memoised), or of the empty text for an unknown file. */
  lineIndex(relative: string): LineIndex;
  /** The URI a file of this bundle is known by (the client's spelling for open documents). */
  uri(relative: string): string;
  /** Time taken by `loadBundle`, in milliseconds. */
  readonly loadMs: number;
  /** The bundle's `diskFindings` at this revision. */
  readonly diskFindings: readonly Diagnostic[];
}

export interface Database {
  /** Bundles by absolute root folder. */
  readonly bundles: Map<string, BundleState>;
  /** Open documents by absolute path (only documents whose URI names a path: see ./files.ts `pathOf`). */
  readonly open: Map<string, OpenDocument>;
  /** Turns an absolute path into a URI (the server passes its `FileAccess`'s `uriOf`). */
  readonly uriOf: (file: string) => string;
  /** The path operations of those paths (POSIX unless given: the server passes its `FileAccess`'s). */
  readonly paths: Paths;
}

export function createDatabase(uriOf: (file: string) => string, paths: Paths = posixPaths): Database {
  return { bundles: new Map(), open: new Map(), uriOf, paths };
}

export function addBundle(db: Database, root: string, disk: ReadonlyMap<string, string>, diskFindings: readonly Diagnostic[] = []): BundleState {
  const existing = db.bundles.get(root);
  if (existing) {
    replaceDisk(existing, disk, diskFindings);
    return existing;
  }
  const bundle: BundleState = {
    root,
    disk: new Map([...disk].map(([relative, text]) => [relative, { path: relative, text }] as const)),
    revision: 0,
    snapshot: undefined,
    cardReads: new Map(),
    locators: new Map(),
    openFiles: new Map(),
    memo: createLoadMemo(),
    uris: new Map(),
    lineIndexes: new Map(),
    diskFindings,
  };
  db.bundles.set(root, bundle);
  return bundle;
}

export function removeBundle(db: Database, root: string): BundleState | undefined {
  const bundle = db.bundles.get(root);
  db.bundles.delete(root);
  return bundle;
}

/**
 * Replaces a bundle's disk contents, and the findings about reading them when given; true when
 * anything changed.
 */
export function replaceDisk(bundle: BundleState, disk: ReadonlyMap<string, string>, diskFindings?: readonly Diagnostic[]): boolean {
  let changed = false;
  if (diskFindings !== undefined && !sameFindings(bundle.diskFindings, diskFindings)) {
    bundle.diskFindings = diskFindings;
    changed = true;
  }
  for (const relative of [...bundle.disk.keys()]) {
    if (!disk.has(relative)) {
      bundle.disk.delete(relative);
      changed = true;
    }
  }
  for (const [relative, text] of disk) {
    if (bundle.disk.get(relative)?.text !== text) {
      bundle.disk.set(relative, { path: relative, text });
      changed = true;
    }
  }
  if (changed) bundle.revision++;
  return changed;
}

/** True when two lists of findings read the same (code, severity, message, place). */
function sameFindings(a: readonly Diagnostic[], b: readonly Diagnostic[]): boolean {
  return a.length === b.length && a.every((d, i) => JSON.stringify(d) === JSON.stringify(b[i]));
}

/** The bundle a file belongs to: its nearest root (docs/compatibility.md#bundle-roots), and its path relative to it. */
export function ownerOf(db: Database, file: string): { bundle: BundleState; relative: string } | undefined {
  const path = db.paths;
  let dir = path.dirname(file);
  for (;;) {
    const bundle = db.bundles.get(dir);
    if (bundle) {
      const relative = relativeTo(path, dir, file);
      return relative === undefined ? undefined : { bundle, relative };
    }
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * Sets (text) or removes (undefined) a file's disk text; true when what the engine reads
 * changed (a file that is open keeps its editor text, so its disk copy changes nothing yet).
 */
export function setDiskFile(db: Database, bundle: BundleState, relative: string, text: string | undefined): boolean {
  if (!isBundleFile(relative)) return false;
  const current = bundle.disk.get(relative);
  if (text === undefined) {
    if (!current) return false;
    bundle.disk.delete(relative);
  } else {
    if (current?.text === text) return false;
    bundle.disk.set(relative, { path: relative, text });
  }
  if (db.open.has(db.paths.join(bundle.root, ...relative.split('/')))) return false;
  bundle.revision++;
  return true;
}

/**
 * Sets (document) or removes (undefined) an open document. Returns the bundle whose inputs
 * changed, if any.
 */
export function setOpenDocument(db: Database, file: string, document: OpenDocument | undefined): BundleState | undefined {
  const before = db.open.get(file);
  if (document) db.open.set(file, document);
  else db.open.delete(file);
  const owner = ownerOf(db, file);
  if (!owner || !isBundleFile(owner.relative)) return undefined;
  const { bundle, relative } = owner;
  if (document && before && before.text === document.text && before.version === document.version) return undefined;
  if (!document) bundle.openFiles.delete(relative);
  bundle.revision++;
  return bundle;
}

/** The bundle's snapshot for its current revision, computed when the last one is out of date. */
export function snapshotOf(db: Database, bundle: BundleState): Snapshot {
  const cached = bundle.snapshot;
  if (cached && cached.revision === bundle.revision) return cached;
  const { files, versions, uris } = currentFiles(db, bundle);
  const ordered = [...files.values()];
  const started = performance.now();
  const result = loadBundle(ordered, { folderName: db.paths.basename(bundle.root), readCard: memoisedReader(bundle), memo: bundle.memo });
  const loadMs = performance.now() - started;
  // (deleting the current key while iterating a Map is safe)
  bundle.cardReads.forEach((_, relative) => {
    if (!files.has(relative)) bundle.cardReads.delete(relative);
  });
  for (const read of [...bundle.locators.keys()]) if (bundle.cardReads.get(read.file)?.result !== read) bundle.locators.delete(read);
  for (const relative of [...bundle.openFiles.keys()]) if (!versions.has(relative)) bundle.openFiles.delete(relative);
  bundle.lineIndexes.forEach((index, relative) => {
    if (files.get(relative)?.text !== index.text) bundle.lineIndexes.delete(relative);
  });
  // (a file renamed or deleted leaves no URI behind: a long session renames many)
  bundle.uris.forEach((_, relative) => {
    if (!files.has(relative)) bundle.uris.delete(relative);
  });
  const snapshot = snapshotObject(db, bundle, bundle.revision, { files, versions, uris }, result, loadMs, bundle.diskFindings);
  bundle.snapshot = snapshot;
  return snapshot;
}

/**
 * For a request that reads the texts as they are now and can take the rest from the bundle's
 * last check (completion): when the last snapshot is out of date only because topologies or
 * cards were edited since, the current texts over that snapshot's result, without loading the
 * bundle again (the load runs when the diagnostics are published, after the debounce). The IDE
 * reads a topology and the cards from the texts it is given, and only the vocabulary from the
 * result (see shared/src/ide/context.ts), so the answer is the one the new snapshot would give;
 * a changed vocabulary file, or any other file changed, added or removed, takes the snapshot of
 * the current revision. Never kept: the next request and the publisher see the real snapshot.
 */
export function textSnapshotOf(db: Database, bundle: BundleState): Snapshot {
  const cached = bundle.snapshot;
  if (cached === undefined || cached.revision === bundle.revision) return snapshotOf(db, bundle);
  const now = currentFiles(db, bundle);
  const before = cached.files;
  for (const [relative, file] of now.files) {
    if (before.get(relative)?.text === file.text) continue;
    if (!(isTopologyPath(relative) || isCardPath(relative)) || !before.has(relative)) return snapshotOf(db, bundle);
  }
  for (const relative of before.keys()) if (!now.files.has(relative)) return snapshotOf(db, bundle);
  return snapshotObject(db, bundle, cached.revision, now, cached.result, 0, cached.diskFindings);
}

/** Every file of the bundle as the engine reads it now (open documents over disk), with the versions and URIs of the open ones. */
/** The sources made from open documents' texts (see `fromEditor`). */
const editorSources = new WeakSet<SourceFile>();

function editorSource(path: string, text: string): SourceFile {
  const source: SourceFile = { path, text };
  editorSources.add(source);
  return source;
}

/**
 * True when a source is an open document's text as the editor sent it (positions count a byte
 * order mark it starts with as a character), false for a file read from disk (the mark takes
 * no column: see `Snapshot.lineIndex`). A disk source an open document has the same text as
 * stands for it, unless the text starts with a mark.
 */
export function fromEditor(source: SourceFile): boolean {
  return editorSources.has(source);
}

function currentFiles(db: Database, bundle: BundleState): { files: Map<string, SourceFile>; versions: Map<string, number>; uris: Map<string, string> } {
  const files = new Map<string, SourceFile>();
  const versions = new Map<string, number>();
  const uris = new Map<string, string>();
  bundle.disk.forEach((file, relative) => files.set(relative, file));
  for (const [file, document] of db.open) {
    const owner = ownerOf(db, file);
    if (!owner || owner.bundle !== bundle || !isBundleFile(owner.relative)) continue;
    const relative = owner.relative;
    let entry = bundle.openFiles.get(relative);
    if (!entry || entry.version !== document.version || entry.file.text !== document.text) {
      const disk = bundle.disk.get(relative);
      // (a text with a byte order mark reads differently open and closed: never the disk's object)
      const marked = document.text.charCodeAt(0) === 0xfeff;
      entry = { version: document.version, file: disk && disk.text === document.text && !marked ? disk : editorSource(relative, document.text) };
      bundle.openFiles.set(relative, entry);
    }
    files.set(relative, entry.file);
    versions.set(relative, document.version);
    uris.set(relative, document.uri);
  }
  return { files, versions, uris };
}

function snapshotObject(
  db: Database,
  bundle: BundleState,
  revision: number,
  current: { readonly files: Map<string, SourceFile>; readonly versions: Map<string, number>; readonly uris: Map<string, string> },
  result: LoadResult,
  loadMs: number,
  diskFindings: readonly Diagnostic[],
): Snapshot {
  const { files, versions, uris } = current;
  return {
    bundle,
    revision,
    files,
    versions,
    result,
    ide: { files, result },
    loadMs,
    diskFindings,
    lineIndex(relative: string): LineIndex {
      const text = files.get(relative)?.text;
      if (text === undefined) return lineIndex('');
      // a file read from disk hides its byte order mark, as the editor that opens it will; an
      // open document is as the editor sent it
      const fromDisk = !uris.has(relative);
      let index = bundle.lineIndexes.get(relative);
      if (index === undefined || index.text !== text || index.hidesMark !== fromDisk) {
        index = lineIndex(text, fromDisk);
        bundle.lineIndexes.set(relative, index);
      }
      return index;
    },
    uri(relative: string): string {
      const open = uris.get(relative);
      if (open !== undefined) return open;
      let uri = bundle.uris.get(relative);
      if (uri === undefined) {
        uri = db.uriOf(db.paths.join(bundle.root, ...relative.split('/')));
        bundle.uris.set(relative, uri);
      }
      return uri;
    },
  };
}

/** A fingerprint of a vocabulary's local terms: card reads depend on them and on nothing else of the bundle. */
const vocabularyKeys = new WeakMap<Vocabulary, string>();
function vocabularyKey(vocabulary: Vocabulary): string {
  let key = vocabularyKeys.get(vocabulary);
  if (key === undefined) {
    key = JSON.stringify(vocabulary.terms().filter((t) => vocabulary.isLocal(t.id)));
    vocabularyKeys.set(vocabulary, key);
  }
  return key;
}

function memoisedReader(bundle: BundleState): (file: SourceFile, vocabulary: Vocabulary) => CardReadResult {
  return (file, vocabulary) => {
    const key = vocabularyKey(vocabulary);
    const memo = bundle.cardReads.get(file.path);
    if (memo && memo.text === file.text && memo.vocabulary === key) return memo.result;
    const result = compactRead(readCard(file, vocabulary), file, vocabulary, bundle.locators);
    bundle.cardReads.set(file.path, { text: file.text, vocabulary: key, result });
    return result;
  };
}

/**
 * A card read that keeps its card, draft and diagnostics but not its syntax tree: `locate`
 * (asked only when a finding about the card is made, or by navigation) reads the text again
 * when its tree is not among the recently used ones. Locations depend on the text alone, so
 * they are the same; a bundle of thousands of cards keeps a few hundred trees instead of all.
 */
function compactRead(result: CardReadResult, file: SourceFile, vocabulary: Vocabulary, locators: LocatorCache): CardReadResult {
  const compact: CardReadResult = {
    ...result,
    locate: (target, part) => {
      let locate = locators.get(compact);
      if (locate) {
        locators.delete(compact);
      } else {
        locate = readCard(file, vocabulary).locate;
        if (locators.size >= locatorLimit) locators.delete(locators.keys().next().value!);
      }
      locators.set(compact, locate);
      return locate(target, part);
    },
  };
  return compact;
}

/** Recently used card locators, least recent first (a Map keeps insertion order). */
export type LocatorCache = Map<CardReadResult, CardLocator>;

/** How many card syntax trees a bundle keeps for `locate`. */
const locatorLimit = 256;
