/**
 * The workspace of bundles: which bundles are known and what of each was read from disk. It
 * finds them (the workspace scan, and at once the bundle of a document just opened), reads them
 * whole or one file again after a watched-file event, and lets go of those no longer there;
 * each bundle read is published through the publisher (./publish.ts). All of it is disk work,
 * run through the queue of ./disk-queue.ts. `createBundles` gives the parts of the server what
 * they call; the functions below take their dependencies as one `BundleWork`.
 */
import { FileChangeType, type Connection, type FileEvent } from 'vscode-languageserver';
import { skippedReadsDiagnostics } from '../../shared/src';
import { findRoots, fitsReadLimits, isBundleFile, isFolder, isRootMarker, isSearchedFolderName, listingOnce, readBundleFile, readBundleFiles, relativeTo, rootAbove } from './bundle-files';
import { addBundle, ownerOf, removeBundle, replaceDisk, setDiskFile, type BundleState, type Database } from './database';
import type { DiskQueue } from './disk-queue';
import type { FileAccess, Paths } from './files';
import type { Publisher } from './publish';
import { scanProgress, type ScanProgress } from './scan-progress';
import type { ServerCore, ServerState } from './state';

/** What the other parts of the server call of the workspace of bundles. */
export interface WorkspaceBundles {
  /** Publishes `bundle` after `delayMs` of quiet (by default the debounce), unless a read of it after a close is pending (see `rereading`). */
  schedule(bundle: BundleState | undefined, delayMs?: number): void;
  /** Finds every bundle root again and brings the set of bundles in line with the disk (see `rescan`). */
  rescan(): Promise<void>;
  /** Finds (on disk) the bundle of an open document that belongs to no known bundle yet. */
  discover(file: string): Promise<void>;
  /** The search for the bundle of an open document, while it runs (see `discover`). */
  discovering(file: string): Promise<void> | undefined;
  /** Takes the events of a watched-file notification. */
  onFileEvents(changes: readonly FileEvent[]): Promise<void>;
  /** After the document `file` of `bundle` closed: reads it again from disk, then publishes the bundle or lets it go. */
  closed(file: string, bundle: BundleState): void;
}

/** What the functions of this module work with. */
interface BundleWork {
  readonly connection: Connection;
  readonly fileAccess: FileAccess;
  readonly paths: Paths;
  readonly db: Database;
  readonly publisher: Publisher;
  readonly state: ServerState;
  readonly disk: DiskQueue;
  /**
   * Bundles a closed document of which is being read again from disk, with how many such reads
   * are pending: until they end, the bundle's disk text for that document may be older than a
   * save whose watched-file event has not arrived, so nothing (an edit elsewhere in the bundle, a
   * scan that reads it meanwhile) publishes it; the read's end does.
   */
  readonly rereading: Map<string, number>;
  /** Open documents waiting for their bundle root to be found on disk. */
  readonly discovering: Map<string, Promise<void>>;
}

export function createBundles(core: ServerCore, disk: DiskQueue): WorkspaceBundles {
  const { connection, files, db, publisher, state } = core;
  const w: BundleWork = { connection, fileAccess: files, paths: files.paths, db, publisher, state, disk, rereading: new Map(), discovering: new Map() };
  return {
    schedule: (bundle, delayMs = state.settings.debounceMs) => schedule(w, bundle, delayMs),
    rescan: () => rescan(w),
    discover: (file) => discover(w, file),
    discovering: (file) => w.discovering.get(file),
    onFileEvents: (changes) => onFileEvents(w, changes),
    closed: (file, bundle) => closed(w, file, bundle),
  };
}

function schedule(w: BundleWork, bundle: BundleState | undefined, delayMs: number): void {
  if (bundle && !w.rereading.has(bundle.root)) w.publisher.schedule(bundle, delayMs);
}

// ---- reading bundles -----------------------------------------------------------------------

/** Roots, known or about to be (`roots`), that lie strictly inside `root` (their files are theirs, not `root`'s). */
function nestedRoots(w: BundleWork, root: string, roots: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const other of [...w.db.bundles.keys(), ...roots]) if (other !== root && relativeTo(w.paths, root, other) !== undefined) out.add(other);
  return out;
}

/**
 * The folder symbolic links in a bundle may not lead out of: the (outermost) workspace folder
 * that holds it, or for a bundle outside every workspace folder, its own folder.
 */
function allowedFor(w: BundleWork, root: string): { folder: string; scope: string } {
  let folder: string | undefined;
  for (const f of w.state.folders) if ((f === root || relativeTo(w.paths, f, root) !== undefined) && (folder === undefined || f.length < folder.length)) folder = f;
  return folder !== undefined ? { folder, scope: 'the workspace folder' } : { folder: root, scope: 'the bundle folder' };
}

/**
 * Reads a bundle from disk (`roots`: roots about to be loaded, whose files are not this one's;
 * `files`: the file access to read with, by default the server's own).
 */
async function loadRoot(w: BundleWork, root: string, roots: Iterable<string> = [], files: FileAccess = w.fileAccess): Promise<BundleState> {
  const allowed = allowedFor(w, root);
  const { files: read, skipped } = await readBundleFiles(files, root, { exclude: nestedRoots(w, root, roots), allowed: allowed.folder });
  // (no place given: the publisher shows them on the topology, at its `digraph`)
  const findings = skippedReadsDiagnostics(skipped, undefined, allowed.scope);
  const existing = w.db.bundles.get(root);
  if (existing) {
    replaceDisk(existing, read, findings);
    return existing;
  }
  return addBundle(w.db, root, read, findings);
}

/** Reads a known bundle again, whole; true when what the engine reads changed. */
async function readWhole(w: BundleWork, bundle: BundleState): Promise<boolean> {
  if (w.db.bundles.get(bundle.root) !== bundle) return false;
  const before = bundle.revision;
  await loadRoot(w, bundle.root);
  return bundle.revision !== before;
}

/**
 * Reads one file of a bundle again; true when what the engine reads changed. `'whole'` when
 * the whole bundle must be read instead (the caller does it, once for all the events of a
 * notification): its last read left files out (what it reports may have changed), or this file
 * is one a read leaves out or would take the bundle past its limits.
 */
async function readAgain(w: BundleWork, bundle: BundleState, relative: string): Promise<boolean | 'whole'> {
  if (w.db.bundles.get(bundle.root) !== bundle) return false;
  if (bundle.diskFindings.length > 0) return 'whole';
  const text = await readBundleFile(w.fileAccess, bundle.root, relative, allowedFor(w, bundle.root).folder);
  if (text === 'skipped' || (text !== undefined && !fitsReadLimits(bundle.disk, relative, text))) return 'whole';
  return setDiskFile(w.db, bundle, relative, text);
}

// ---- the workspace scan ----------------------------------------------------------------------

/**
 * Finds every bundle root again and brings the set of bundles in line with the disk, reporting
 * its progress. Between folders and between bundles it runs the urgent tasks waiting (see
 * disk-queue.ts `onDiskUrgently`): a bundle read there, for a document just opened, is one the
 * scan finds too, or one it keeps for its open document.
 */
async function rescan(w: BundleWork): Promise<void> {
  const progress = scanProgress(w.connection, w.state.capabilities, 'DarkPrint: looking for bundles');
  try {
    await scanFolders(w, progress);
  } finally {
    progress.done();
  }
}

/** How many folders a scan walks between two progress reports. */
const foldersPerReport = 1000;

async function scanFolders(w: BundleWork, progress: ScanProgress): Promise<void> {
  const { db, disk } = w;
  const found = new Set<string>();
  /** Folders looked at in the workspace folders walked before this one. */
  let walked = 0;
  for (const folder of w.state.folders) {
    let visited = 0;
    const onFolder = (before: number): Promise<void> | undefined => {
      visited = before + 1;
      if (before > 0 && before % foldersPerReport === 0) progress.report(`${(walked + before).toLocaleString('en')} folders looked at`, 0);
      return disk.urgentWaiting() ? disk.runUrgent() : undefined;
    };
    for (const root of await findRoots(w.fileAccess, folder, { onFolder })) found.add(root);
    walked += visited;
  }
  // Roots the scan does not find but an open document does (outside the workspace folders, in a
  // folder the scan skips, a topology open in a folder that is no root on disk, or whose files
  // are gone from disk while open) stay while a document of theirs is open and they still
  // qualify: on disk, or by the open topology.
  const openRoots = new Set<string>();
  for (const file of db.open.keys()) {
    const owner = ownerOf(db, file);
    if (owner) openRoots.add(owner.bundle.root);
  }
  for (const root of openRoots) {
    if (found.has(root)) continue;
    if ((await rootAbove(w.fileAccess, root, root)) === root || hasOpenTopology(w, root)) found.add(root);
  }
  for (const root of [...db.bundles.keys()]) {
    if (found.has(root)) continue;
    w.publisher.forget(root);
    removeBundle(db, root);
  }
  // A bundle joins the database once read, never empty (the bundle of a document opened
  // meanwhile is read at once, at the next step: see `discover`).
  const sorted = [...found].sort();
  let percentage = 0;
  for (const [i, root] of sorted.entries()) {
    if (disk.urgentWaiting()) await disk.runUrgent();
    const bundle = await loadRoot(w, root, found);
    schedule(w, bundle, 0);
    const now = Math.floor(((i + 1) * 100) / sorted.length);
    if (now !== percentage) progress.report(`${(i + 1).toLocaleString('en')} of ${sorted.length.toLocaleString('en')} bundles read`, (percentage = now));
  }
  // An open document whose bundle is gone may belong to another now (or be a bundle of its own).
  for (const file of db.open.keys()) if (!ownerOf(db, file)) void discover(w, file);
}

/** True when `file` lies in a workspace folder and no folder on the way down is one the scan skips. */
function searchedByScan(w: BundleWork, file: string): boolean {
  return w.state.folders.some((folder) => {
    const relative = relativeTo(w.paths, folder, file);
    return relative !== undefined && relative.split('/').every(isSearchedFolderName);
  });
}

function hasOpenTopology(w: BundleWork, root: string): boolean {
  for (const file of w.db.open.keys()) if (w.paths.dirname(file) === root && /\.(dot|gv)$/i.test(file)) return true;
  return false;
}

// ---- open and closed documents -------------------------------------------------------------

/** Finds (on disk) the bundle of an open document that belongs to no known bundle yet. */
function discover(w: BundleWork, file: string): Promise<void> {
  const { db, paths, discovering } = w;
  const pending = discovering.get(file);
  if (pending) return pending;
  const task = w.disk
    .onDiskUrgently(`finding the bundle of ${file}`, async () => {
      if (ownerOf(db, file)) return;
      // (the root found is listed once: its listing serves the read of its bundle too)
      const files = listingOnce(w.fileAccess);
      let root = await rootAbove(files, paths.dirname(file));
      // A topology opened on its own, in a folder that is no bundle root (or where the root found
      // would not read it: a topology saved inside a `cards/` folder), is a bundle of one file.
      const read = root !== undefined && isBundleFile(relativeTo(paths, root, file) ?? '');
      if (!read && /\.(dot|gv)$/i.test(file)) root = paths.dirname(file);
      if (root === undefined) return;
      const bundle = await loadRoot(w, root, [], files);
      // (published now, before the requests that wait for this bundle are answered: the document's
      // diagnostics come first, and those requests find the snapshot made for them)
      if (!w.rereading.has(bundle.root)) w.publisher.publish(bundle);
    })
    .finally(() => discovering.delete(file));
  discovering.set(file, task);
  return task;
}

/**
 * After the document `file` of `bundle` closed (the database already reads the disk's text for
 * it). The editor may have saved or dropped changes: the disk is the truth again, and it is read
 * before the bundle is published (the disk text kept from before may be older than a save whose
 * watched-file event has not arrived yet).
 */
function closed(w: BundleWork, file: string, bundle: BundleState): void {
  const { rereading } = w;
  const owner = ownerOf(w.db, file);
  if (!owner) {
    void w.disk.onDisk(`settling ${file}`, () => settleAfterClose(w, bundle));
    return;
  }
  // (a publication still waiting from an edit made before the close would read the old disk text)
  const root = owner.bundle.root;
  w.publisher.cancel(root);
  rereading.set(root, (rereading.get(root) ?? 0) + 1);
  void w.disk.onDisk(`reading ${file}`, async () => {
    try {
      if ((await readAgain(w, owner.bundle, owner.relative)) === 'whole') await readWhole(w, owner.bundle);
    } finally {
      const left = (rereading.get(root) ?? 1) - 1;
      if (left > 0) rereading.set(root, left);
      else rereading.delete(root);
      await settleAfterClose(w, owner.bundle);
    }
  });
}

/**
 * After a document closes: whether its bundle stays known. While a document of it is open,
 * yes (`rescan` decides then); else only if the workspace scan finds it (in a searched folder,
 * and a bundle root on disk). A bundle known only from the document that closed (outside the
 * workspace folders, in a folder the scan skips, a topology open in a folder that is no root)
 * is let go, with its diagnostics, as a fresh start would not show them.
 */
async function keptAfterClose(w: BundleWork, root: string): Promise<boolean> {
  for (const file of w.db.open.keys()) if (ownerOf(w.db, file)?.bundle.root === root) return true;
  const scanned = w.state.folders.some((folder) => w.paths.resolve(folder) === root) || searchedByScan(w, root);
  return scanned && (await rootAbove(w.fileAccess, root, root)) === root;
}

/** Publishes a bundle after one of its documents closed, or lets it go (see `keptAfterClose`). */
async function settleAfterClose(w: BundleWork, bundle: BundleState): Promise<void> {
  if (!w.db.bundles.has(bundle.root)) return;
  if (await keptAfterClose(w, bundle.root)) {
    schedule(w, bundle, 0);
  } else {
    w.publisher.forget(bundle.root);
    removeBundle(w.db, bundle.root);
  }
}

// ---- watched files ---------------------------------------------------------------------------

async function onFileEvents(w: BundleWork, changes: readonly FileEvent[]): Promise<void> {
  const { db, paths, fileAccess } = w;
  let rootsMayChange = false;
  const touched = new Set<BundleState>();
  // Bundles read whole again, once each after every event is seen (a notification may carry
  // thousands of events for one bundle: a checkout, a folder copied in).
  const wholeReads = new Set<BundleState>();
  for (const change of changes) {
    const file = fileAccess.pathOf(change.uri);
    if (file === undefined) continue;
    const name = paths.basename(file);
    // Only a creation or a deletion can change which folders are bundle roots.
    if (change.type !== FileChangeType.Changed && isRootMarker(name, name === 'cards')) rootsMayChange = true;
    if (change.type === FileChangeType.Deleted && [...db.bundles.keys()].some((root) => root === file || relativeTo(paths, file, root) !== undefined)) {
      rootsMayChange = true;
    }
    const owner = ownerOf(db, file);
    // A folder created outside every bundle, where the workspace scan looks (a bundle moved or
    // copied in whole), may hold roots; folders created inside a bundle, or hidden ones and build
    // outputs, do not start a scan of the workspace.
    if (change.type === FileChangeType.Created && !rootsMayChange && !owner && searchedByScan(w, file) && (await isFolder(fileAccess, file))) rootsMayChange = true;
    if (!owner) continue;
    const { bundle, relative } = owner;
    if (change.type === FileChangeType.Deleted) {
      // (a bundle whose read left files out is read whole again: what went may be among them)
      if (wholeReads.has(bundle) || bundle.diskFindings.length > 0) {
        wholeReads.add(bundle);
      } else if (bundle.disk.has(relative)) {
        if (setDiskFile(db, bundle, relative, undefined)) touched.add(bundle);
      } else {
        // Possibly a folder: everything the bundle read below it is gone.
        for (const known of [...bundle.disk.keys()]) {
          if (known.startsWith(`${relative}/`) && setDiskFile(db, bundle, known, undefined)) touched.add(bundle);
        }
      }
      continue;
    }
    if (isBundleFile(relative)) {
      const read = wholeReads.has(bundle) ? 'whole' : await readAgain(w, bundle, relative);
      if (read === 'whole') wholeReads.add(bundle);
      else if (read) touched.add(bundle);
    } else if (await isFolder(fileAccess, file)) {
      // A folder appeared (created, or renamed into place): read the bundle again, and look for
      // bundles inside it (one moved into a folder of this bundle), where the scan would.
      wholeReads.add(bundle);
      const inCards = relative === 'cards' || relative.startsWith('cards/');
      if (change.type === FileChangeType.Created && !rootsMayChange && !inCards && searchedByScan(w, file) && (await findRoots(fileAccess, file)).length > 0) rootsMayChange = true;
    }
  }
  for (const bundle of wholeReads) if (await readWhole(w, bundle)) touched.add(bundle);
  if (rootsMayChange) await rescan(w);
  for (const bundle of touched) if (db.bundles.get(bundle.root) === bundle) schedule(w, bundle, w.state.settings.debounceMs);
}
