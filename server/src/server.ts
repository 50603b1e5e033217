/**
 * The DarkPrint language server: a thin adapter between an LSP client and the engine.
 *
 *   server.ts    lifecycle: capabilities, settings, workspace folders, documents, watched files
 *   node.ts      the Node entry (stdio or IPC); browser.ts the web entry (a Worker's messages)
 *   files.ts     THE seam to the file system: what is read from disk, and how files are named
 *   bundle-files.ts  bundle roots (docs/compatibility.md#bundle-roots) and reading bundle files, through that seam
 *   workspace.ts the seam from Node (the only `fs` user); client-files.ts from the client
 *   database.ts  the query database: per-file card reads and per-bundle snapshots, by revision
 *   publish.ts   pushing diagnostics for every file of a bundle, debounced, never stale
 *   view-refresh.ts  asking the client to show lenses, tokens and hints again when another file changed
 *   handlers.ts  one small guarded handler per LSP request, calling shared/src/ide
 *   requests.ts  the custom requests `darkprint/compiled`, `darkprint/report`, `darkprint/graph` and `darkprint/import`
 *   convert.ts   THE conversion between engine/IDE values and LSP values
 *   settings.ts  `darkprint.*` settings
 *   memory.ts    how far the heap may grow between collections on a large workspace
 *
 * Architecture invariant: the server holds no language knowledge. Every rule, message, hover
 * text, completion and fix comes from the engine (shared/src); the server only finds files,
 * keeps them current, converts positions and types, and decides when to recompute. Nothing a
 * client or a file contains may stop the server: every handler is guarded, logs the exception
 * and answers empty.
 *
 * Knows no transport and no platform: an entry gives it a connection and a `ServerHost` (its
 * file access, where its docs page is, how it defers work), so the same server runs in Node
 * (./node.ts) and in a Web Worker (./browser.ts; docs/web.md).
 */
import {
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  ErrorCodes,
  FileChangeType,
  ResponseError,
  TextDocumentSyncKind,
  WatchKind,
  type ClientCapabilities,
  type Connection,
  type FileEvent,
  type InitializeError,
  type InitializeParams,
  type InitializeResult,
  type WorkDoneProgressServerReporter,
  Command,
  Range,
  WorkspaceEdit,
  type ExecuteCommandParams,
} from 'vscode-languageserver';
import { addBundle, createDatabase, ownerOf, removeBundle, replaceDisk, setDiskFile, setOpenDocument, snapshotOf, textSnapshotOf, type BundleState } from './database';
import { createPublisher, describe, type Publisher } from './publish';
import { defaultSettings, logsAt, mergeSettings, readSettings, type Settings } from './settings';
import { findRoots, fitsReadLimits, isBundleFile, isFolder, isRootMarker, isSearchedFolderName, listingOnce, readBundleFile, readBundleFiles, relativeTo, rootAbove } from './bundle-files';
import type { FileAccess } from './files';
import { skippedReadsDiagnostics } from '../../shared/src';
import { semanticTokensLegend } from './convert';
import { applyChanges, applyEditCommand, baseCompletionKinds, baseSymbolKinds, docsLinker, showLocationCommand, type ClientSupport, type DocsLink } from './convert';
import { guarded, registerHandlers, completionTriggers, type FileAt, type Lifecycle, type ServerContext } from './handlers';
import { compiled, compiledRequest, graph, graphRequest, imported, importRequest, report, reportRequest, type BundleParams, type ImportParams } from './requests';
import { closedDocument, commandProblem, documentChange, documentUriOf, openedDocument } from './params';
import type { PreparedTexts } from './wire';
import { viewRefresher } from './view-refresh';

export const serverName = 'darkprint-language-server';
export const serverVersion = '0.1.0';

/**
 * Glob patterns of the files (and folders) whose changes on disk matter. The server reads file
 * names whatever their case (`CARD@1.0.0.YAML`), but a client may match globs with case
 * (VS Code does on Linux): the extensions are listed in both cases.
 */
export const watchedPatterns: readonly string[] = ['**/*.{dot,gv,yaml,yml,json,DOT,GV,YAML,YML,JSON}', '**/cards', '**/ontology'];

/**
 * Creations and deletions of anything, for folders: a bundle folder moved into the workspace, or
 * deleted or renamed whole, is one event for the folder (VS Code folds the files below into it),
 * whatever the folder's name.
 */
export const folderPattern = '**/*';

/** What the platform gives the server (./node.ts, ./browser.ts). */
export interface ServerHost {
  /** THE way to the file system (./files.ts). */
  readonly files: FileAccess;
  /** The diagnostics page shipped with the server, when it has one: where codes link by default. */
  readonly docsUrl: string | undefined;
  /** The text of a diagnostics page at `url` when it can be read here (a `file:` URL), for its line anchors. */
  readonly readDocsPage: (url: string) => string | undefined;
  /** Runs `task` on a later turn of the event loop, after the messages already received. */
  readonly nextTurn: (task: () => void) => void;
}

/**
 * Serves `connection`. `prepared`, when the connection's writer reads it (./wire.ts), receives
 * the JSON of each diagnostics publication so that it is written without serialising the list.
 */
export function startServer(connection: Connection, host: ServerHost, prepared?: PreparedTexts): { readonly debug: (message: string) => void } {
  const fileAccess = host.files;
  const paths = fileAccess.paths;
  const pathOf = (uri: string): string | undefined => fileAccess.pathOf(uri);
  const log = (message: string): void => {
    try {
      connection.console.error(message);
    } catch {
      // the connection is gone: nothing left to tell
    }
  };
  const warn = (message: string): void => {
    if (!logsAt(settings.logLevel, 'warning')) return;
    try {
      connection.console.warn(message);
    } catch {
      // the connection is gone: nothing left to tell
    }
  };
  /** What only `darkprint.logLevel: debug` shows (how the server tunes its memory). */
  const debug = (message: string): void => {
    if (!logsAt(settings.logLevel, 'debug')) return;
    try {
      connection.console.log(message);
    } catch {
      // the connection is gone: nothing left to tell
    }
  };
  const db = createDatabase((file) => fileAccess.uriOf(file), paths);
  let settings: Settings = defaultSettings;
  let initializationSettings: unknown;
  // (what a client that declared nothing can take, until `initialize` says more)
  let support: ClientSupport = clientSupport({});
  let capabilities: ClientCapabilities = {};
  let folders: string[] = [];
  /** Open documents by the client's URI (any scheme), as the client last sent them. */
  const texts = new Map<string, { version: number; text: string }>();
  /** The docs page codes link to by default: the one beside the server, else the one the client names (see `docsPageOf`). */
  let defaultDocsUrl = host.docsUrl;
  /** The links of the docs page in use (made again when the page changes: see `docsLinker`). */
  let docsLinks: { readonly url: string; readonly link: DocsLink } | undefined;
  const publisher: Publisher = createPublisher({
    db,
    send: (params, json) => {
      prepared?.prepare(params, json);
      void connection.sendDiagnostics(params);
    },
    settings: () => settings,
    support: () => support,
    docsLink: () => {
      const url = settings.docsUrl ?? defaultDocsUrl;
      if (url === undefined) return undefined;
      if (docsLinks?.url !== url) docsLinks = { url, link: docsLinker(url, host.readDocsPage(url)) };
      return docsLinks.link;
    },
    log,
    nextTurn: host.nextTurn,
    // (code lenses, semantic tokens and inlay hints read other files: shown again when those change)
    published: viewRefresher(connection, () => capabilities, log),
  });

  // Disk work (scans, reads after watched-file events) runs one task at a time, in order. A scan
  // lets urgent tasks (finding and reading the bundle of a document just opened) run between its
  // folders and its bundles, so that requests about open documents never wait for a whole
  // workspace to be walked.
  let diskQueue: Promise<void> = Promise.resolve();
  const onDisk = (name: string, task: () => Promise<void>): Promise<void> => {
    const run = diskQueue.then(task).catch((error: unknown) => log(`darkprint: ${name} failed: ${describe(error)}`));
    diskQueue = run;
    return run;
  };
  const urgent: (() => Promise<void>)[] = [];
  /** Runs the urgent tasks waiting (a scan calls this between its steps: see `rescan`). */
  const runUrgent = async (): Promise<void> => {
    for (let task = urgent.shift(); task !== undefined; task = urgent.shift()) await task();
  };
  /** Runs `task` at the next step of the scan that is running, or in turn when none is (whichever comes first). */
  const onDiskUrgently = (name: string, task: () => Promise<void>): Promise<void> =>
    new Promise<void>((resolve) => {
      urgent.push(() => task().catch((error: unknown) => log(`darkprint: ${name} failed: ${describe(error)}`)).finally(resolve));
      void onDisk(name, runUrgent);
    });
  /** The protocol's lifecycle (see handlers.ts `lifecycleError`): notifications are taken only while running. */
  let phase: Lifecycle = 'waiting';
  let markSettingsKnown: () => void = () => undefined;
  /** The client's settings are known (requests wait for this: see `settle`). */
  const settingsKnown = new Promise<void>((resolve) => (markSettingsKnown = resolve));
  let markScanned: () => void = () => undefined;
  /** The initial scan of the workspace is done. */
  const scanned = new Promise<void>((resolve) => (markScanned = resolve));
  /** Open documents waiting for their bundle root to be found on disk. */
  const discovering = new Map<string, Promise<void>>();

  /**
   * Bundles a closed document of which is being read again from disk, with how many such reads
   * are pending: until they end, the bundle's disk text for that document may be older than a
   * save whose watched-file event has not arrived, so nothing (an edit elsewhere in the bundle, a
   * scan that reads it meanwhile) publishes it; the read's end does.
   */
  const rereading = new Map<string, number>();
  const schedule = (bundle: BundleState | undefined, delayMs = settings.debounceMs): void => {
    if (bundle && !rereading.has(bundle.root)) publisher.schedule(bundle, delayMs);
  };

  // ---- bundles ---------------------------------------------------------------------------

  /** Roots, known or about to be (`roots`), that lie strictly inside `root` (their files are theirs, not `root`'s). */
  const nestedRoots = (root: string, roots: Iterable<string>): Set<string> => {
    const out = new Set<string>();
    for (const other of [...db.bundles.keys(), ...roots]) if (other !== root && relativeTo(paths, root, other) !== undefined) out.add(other);
    return out;
  };

  /**
   * The folder symbolic links in a bundle may not lead out of: the (outermost) workspace folder
   * that holds it, or for a bundle outside every workspace folder, its own folder.
   */
  const allowedFor = (root: string): { folder: string; scope: string } => {
    let folder: string | undefined;
    for (const f of folders) if ((f === root || relativeTo(paths, f, root) !== undefined) && (folder === undefined || f.length < folder.length)) folder = f;
    return folder !== undefined ? { folder, scope: 'the workspace folder' } : { folder: root, scope: 'the bundle folder' };
  };

  /**
   * Reads a bundle from disk (`roots`: roots about to be loaded, whose files are not this one's;
   * `files`: the file access to read with, by default the server's own).
   */
  const loadRoot = async (root: string, roots: Iterable<string> = [], files: FileAccess = fileAccess): Promise<BundleState> => {
    const allowed = allowedFor(root);
    const { files: read, skipped } = await readBundleFiles(files, root, { exclude: nestedRoots(root, roots), allowed: allowed.folder });
    // (no place given: the publisher shows them on the topology, at its `digraph`)
    const findings = skippedReadsDiagnostics(skipped, undefined, allowed.scope);
    const existing = db.bundles.get(root);
    if (existing) {
      replaceDisk(existing, read, findings);
      return existing;
    }
    return addBundle(db, root, read, findings);
  };

  /** Reads a known bundle again, whole; true when what the engine reads changed. */
  const readWhole = async (bundle: BundleState): Promise<boolean> => {
    if (db.bundles.get(bundle.root) !== bundle) return false;
    const before = bundle.revision;
    await loadRoot(bundle.root);
    return bundle.revision !== before;
  };

  /**
   * Reads one file of a bundle again; true when what the engine reads changed. `'whole'` when
   * the whole bundle must be read instead (the caller does it, once for all the events of a
   * notification): its last read left files out (what it reports may have changed), or this file
   * is one a read leaves out or would take the bundle past its limits.
   */
  const readAgain = async (bundle: BundleState, relative: string): Promise<boolean | 'whole'> => {
    if (db.bundles.get(bundle.root) !== bundle) return false;
    if (bundle.diskFindings.length > 0) return 'whole';
    const text = await readBundleFile(fileAccess, bundle.root, relative, allowedFor(bundle.root).folder);
    if (text === 'skipped' || (text !== undefined && !fitsReadLimits(bundle.disk, relative, text))) return 'whole';
    return setDiskFile(db, bundle, relative, text);
  };

  /**
   * Work-done progress of a scan (`window/workDoneProgress`), for a client that declares it. The
   * scan does not wait for the client to take the token: what it reports before then is left
   * out (the latest message goes with `begin`), and a token taken after the scan ended is begun
   * and ended at once. A client that refuses the token sees no progress, and nothing fails.
   */
  const scanProgress = (title: string): { report(message: string, percentage: number): void; done(): void } => {
    let reporter: WorkDoneProgressServerReporter | undefined;
    let latest = { message: '', percentage: 0 };
    let ended = false;
    const quietly = (send: () => void): void => {
      try {
        send();
      } catch {
        // the connection is gone: nothing left to tell
      }
    };
    if (capabilities.window?.workDoneProgress === true) {
      quietly(() =>
        connection.window.createWorkDoneProgress().then(
          (created) => {
            reporter = created;
            quietly(() => created.begin(title, latest.percentage, latest.message || undefined));
            if (ended) quietly(() => created.done());
          },
          () => {
            // the client refused the token (as it may): the scan goes on without progress
          },
        ),
      );
    }
    return {
      report(message, percentage) {
        latest = { message, percentage };
        const to = reporter;
        if (to && !ended) quietly(() => to.report(percentage, message));
      },
      done() {
        if (ended) return;
        ended = true;
        const to = reporter;
        if (to) quietly(() => to.done());
      },
    };
  };

  /**
   * Finds every bundle root again and brings the set of bundles in line with the disk, reporting
   * its progress. Between folders and between bundles it runs the urgent tasks waiting (see
   * `onDiskUrgently`): a bundle read there, for a document just opened, is one the scan finds
   * too, or one it keeps for its open document.
   */
  const rescan = async (): Promise<void> => {
    const progress = scanProgress('DarkPrint: looking for bundles');
    try {
      await scanFolders(progress);
    } finally {
      progress.done();
    }
  };

  /** How many folders a scan walks between two progress reports. */
  const foldersPerReport = 1000;

  const scanFolders = async (progress: ReturnType<typeof scanProgress>): Promise<void> => {
    const found = new Set<string>();
    /** Folders looked at in the workspace folders walked before this one. */
    let walked = 0;
    for (const folder of folders) {
      let visited = 0;
      const onFolder = (before: number): Promise<void> | undefined => {
        visited = before + 1;
        if (before > 0 && before % foldersPerReport === 0) progress.report(`${(walked + before).toLocaleString('en')} folders looked at`, 0);
        return urgent.length > 0 ? runUrgent() : undefined;
      };
      for (const root of await findRoots(fileAccess, folder, { onFolder })) found.add(root);
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
      if ((await rootAbove(fileAccess, root, root)) === root || hasOpenTopology(root)) found.add(root);
    }
    for (const root of [...db.bundles.keys()]) {
      if (found.has(root)) continue;
      publisher.forget(root);
      removeBundle(db, root);
    }
    // A bundle joins the database once read, never empty (the bundle of a document opened
    // meanwhile is read at once, at the next step: see `discover`).
    const sorted = [...found].sort();
    let percentage = 0;
    for (const [i, root] of sorted.entries()) {
      if (urgent.length > 0) await runUrgent();
      const bundle = await loadRoot(root, found);
      schedule(bundle, 0);
      const now = Math.floor(((i + 1) * 100) / sorted.length);
      if (now !== percentage) progress.report(`${(i + 1).toLocaleString('en')} of ${sorted.length.toLocaleString('en')} bundles read`, (percentage = now));
    }
    // An open document whose bundle is gone may belong to another now (or be a bundle of its own).
    for (const file of db.open.keys()) if (!ownerOf(db, file)) void discover(file);
  };

  /** True when `file` lies in a workspace folder and no folder on the way down is one the scan skips. */
  const searchedByScan = (file: string): boolean =>
    folders.some((folder) => {
      const relative = relativeTo(paths, folder, file);
      return relative !== undefined && relative.split('/').every(isSearchedFolderName);
    });

  /**
   * After a document closes: whether its bundle stays known. While a document of it is open,
   * yes (`rescan` decides then); else only if the workspace scan finds it (in a searched folder,
   * and a bundle root on disk). A bundle known only from the document that closed (outside the
   * workspace folders, in a folder the scan skips, a topology open in a folder that is no root)
   * is let go, with its diagnostics, as a fresh start would not show them.
   */
  const keptAfterClose = async (root: string): Promise<boolean> => {
    for (const file of db.open.keys()) if (ownerOf(db, file)?.bundle.root === root) return true;
    const scanned = folders.some((folder) => paths.resolve(folder) === root) || searchedByScan(root);
    return scanned && (await rootAbove(fileAccess, root, root)) === root;
  };

  /** Publishes a bundle after one of its documents closed, or lets it go (see `keptAfterClose`). */
  const settleAfterClose = async (bundle: BundleState): Promise<void> => {
    if (!db.bundles.has(bundle.root)) return;
    if (await keptAfterClose(bundle.root)) {
      schedule(bundle, 0);
    } else {
      publisher.forget(bundle.root);
      removeBundle(db, bundle.root);
    }
  };

  const hasOpenTopology = (root: string): boolean => {
    for (const file of db.open.keys()) if (paths.dirname(file) === root && /\.(dot|gv)$/i.test(file)) return true;
    return false;
  };

  /** Finds (on disk) the bundle of an open document that belongs to no known bundle yet. */
  const discover = (file: string): Promise<void> => {
    const pending = discovering.get(file);
    if (pending) return pending;
    const task = onDiskUrgently(`finding the bundle of ${file}`, async () => {
      if (ownerOf(db, file)) return;
      // (the root found is listed once: its listing serves the read of its bundle too)
      const files = listingOnce(fileAccess);
      let root = await rootAbove(files, paths.dirname(file));
      // A topology opened on its own, in a folder that is no bundle root (or where the root found
      // would not read it: a topology saved inside a `cards/` folder), is a bundle of one file.
      const read = root !== undefined && isBundleFile(relativeTo(paths, root, file) ?? '');
      if (!read && /\.(dot|gv)$/i.test(file)) root = paths.dirname(file);
      if (root === undefined) return;
      const bundle = await loadRoot(root, [], files);
      // (published now, before the requests that wait for this bundle are answered: the document's
      // diagnostics come first, and those requests find the snapshot made for them)
      if (!rereading.has(bundle.root)) publisher.publish(bundle);
    }).finally(() => discovering.delete(file));
    discovering.set(file, task);
    return task;
  };

  const onFileEvents = async (changes: readonly FileEvent[]): Promise<void> => {
    let rootsMayChange = false;
    const touched = new Set<BundleState>();
    // Bundles read whole again, once each after every event is seen (a notification may carry
    // thousands of events for one bundle: a checkout, a folder copied in).
    const wholeReads = new Set<BundleState>();
    for (const change of changes) {
      const file = pathOf(change.uri);
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
      if (change.type === FileChangeType.Created && !rootsMayChange && !owner && searchedByScan(file) && (await isFolder(fileAccess, file))) rootsMayChange = true;
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
        const read = wholeReads.has(bundle) ? 'whole' : await readAgain(bundle, relative);
        if (read === 'whole') wholeReads.add(bundle);
        else if (read) touched.add(bundle);
      } else if (await isFolder(fileAccess, file)) {
        // A folder appeared (created, or renamed into place): read the bundle again, and look for
        // bundles inside it (one moved into a folder of this bundle), where the scan would.
        wholeReads.add(bundle);
        const inCards = relative === 'cards' || relative.startsWith('cards/');
        if (change.type === FileChangeType.Created && !rootsMayChange && !inCards && searchedByScan(file) && (await findRoots(fileAccess, file)).length > 0) rootsMayChange = true;
      }
    }
    for (const bundle of wholeReads) if (await readWhole(bundle)) touched.add(bundle);
    if (rootsMayChange) await rescan();
    for (const bundle of touched) if (db.bundles.get(bundle.root) === bundle) schedule(bundle);
  };

  // ---- settings --------------------------------------------------------------------------

  const applySettings = (raw: unknown): void => {
    const read = readSettings(raw);
    for (const problem of read.problems) warn(`darkprint: ${problem}`);
    settings = read.settings;
  };

  const refreshSettings = async (pushed?: unknown): Promise<void> => {
    let fetched: unknown;
    if (capabilities.workspace?.configuration) {
      try {
        fetched = await connection.workspace.getConfiguration('darkprint');
      } catch (error) {
        warn(`darkprint: the client did not answer workspace/configuration, so its settings are not known: ${describe(error)}`);
      }
    }
    applySettings(mergeSettings(initializationSettings, pushed, fetched));
  };

  // ---- context for the handlers -------------------------------------------------------------

  /**
   * Waits until the bundle that holds `file` is known: for a file a bundle reads, only until that
   * bundle is (an open document's bundle is found and read at once, a scan running meanwhile
   * letting that go first); for any other, until the initial scan is done.
   */
  const settle = async (file: string): Promise<void> => {
    await settingsKnown;
    await discovering.get(file);
    const owner = ownerOf(db, file);
    if (owner && isBundleFile(owner.relative)) return;
    await scanned;
    await discovering.get(file);
  };

  const fileOf = async (uri: string, texts?: 'texts'): Promise<FileAt | undefined> => {
    const file = pathOf(uri);
    if (file === undefined) return undefined;
    await settle(file);
    const owner = ownerOf(db, file);
    if (!owner || !isBundleFile(owner.relative)) return undefined;
    const snapshot = texts === 'texts' ? textSnapshotOf(db, owner.bundle) : snapshotOf(db, owner.bundle);
    const text = snapshot.files.get(owner.relative)?.text;
    if (text === undefined) return undefined;
    return { snapshot, file: owner.relative, index: snapshot.lineIndex(owner.relative), text };
  };

  const context: ServerContext = {
    connection,
    db,
    publisher,
    support: () => support,
    settings: () => settings,
    fileOf,
    workspaceSnapshots: async () => {
      await settingsKnown;
      await scanned;
      return [...db.bundles.values()].map((bundle) => textSnapshotOf(db, bundle));
    },
    log,
    lifecycle: () => phase,
  };

  // ---- lifecycle ---------------------------------------------------------------------------

  connection.onInitialize((params: InitializeParams): InitializeResult | ResponseError<InitializeError> => {
    // (initialize comes once: a second one, or one after shutdown, is refused)
    if (phase !== 'waiting') return new ResponseError(ErrorCodes.InvalidRequest, 'The server is initialized already.', { retry: false });
    phase = 'running';
    capabilities = params.capabilities;
    support = clientSupport(params.capabilities);
    initializationSettings = params.initializationOptions;
    defaultDocsUrl ??= docsPageOf(params.initializationOptions);
    applySettings(mergeSettings(initializationSettings));
    folders = workspaceFolders(fileAccess, params);
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        hoverProvider: true,
        completionProvider: { triggerCharacters: [...completionTriggers], resolveProvider: false },
        definitionProvider: true,
        referencesProvider: true,
        renameProvider: capabilities.textDocument?.rename?.prepareSupport ? { prepareProvider: true } : true,
        documentSymbolProvider: true,
        foldingRangeProvider: true,
        documentFormattingProvider: true,
        documentRangeFormattingProvider: true,
        // (the kinds only for a client that takes code action literals: the protocol allows the options no other)
        codeActionProvider: capabilities.textDocument?.codeAction?.codeActionLiteralSupport !== undefined ? { codeActionKinds: ['quickfix', 'source.fixAll'] } : true,
        documentHighlightProvider: true,
        workspaceSymbolProvider: true,
        semanticTokensProvider: { legend: semanticTokensLegend, full: { delta: true }, range: true },
        inlayHintProvider: true,
        codeLensProvider: { resolveProvider: true },
        documentLinkProvider: { resolveProvider: false },
        executeCommandProvider: { commands: [showLocationCommand, applyEditCommand] },
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      },
      serverInfo: { name: serverName, version: serverVersion },
    };
  });

  let initializedSeen = false;
  connection.onInitialized(() => {
    // (once, and only after initialize: a second or early `initialized` changes nothing)
    if (phase !== 'running' || initializedSeen) return;
    initializedSeen = true;
    // Subscribed before anything is awaited, so that no folder change is missed; the rescan
    // it asks for runs after the initial scan (disk work runs in order).
    if (capabilities.workspace?.workspaceFolders) {
      try {
        connection.workspace.onDidChangeWorkspaceFolders((event: unknown) => {
          if (phase !== 'running') return;
          const change = typeof event === 'object' && event !== null ? (event as { added?: unknown; removed?: unknown }) : {};
          const added = folderPaths(fileAccess, change.added);
          const removed = folderPaths(fileAccess, change.removed);
          if (added === undefined || removed === undefined) {
            warn('darkprint: a workspace/didChangeWorkspaceFolders is ignored: its `event` must hold `added` and `removed` lists of folders, each with a string `uri`.');
            return;
          }
          const gone = new Set(removed);
          folders = [...folders.filter((f) => !gone.has(f)), ...added];
          void onDisk('rescanning the workspace folders', rescan);
        });
      } catch (error) {
        log(`darkprint: subscribing to workspace folder changes failed: ${describe(error)}`);
      }
    }
    void (async () => {
      try {
        if (capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration) {
          await connection.client.register(DidChangeWatchedFilesNotification.type, {
            watchers: [...watchedPatterns.map((globPattern) => ({ globPattern })), { globPattern: folderPattern, kind: WatchKind.Create | WatchKind.Delete }],
          });
        }
        if (capabilities.workspace?.didChangeConfiguration?.dynamicRegistration) {
          await connection.client.register(DidChangeConfigurationNotification.type, { section: 'darkprint' });
        }
      } catch (error) {
        log(`darkprint: registering for workspace notifications failed: ${describe(error)}`);
      }
      try {
        await refreshSettings();
        markSettingsKnown();
        // (the scan also looks for the bundles of documents opened meanwhile)
        await onDisk('scanning the workspace', rescan);
      } finally {
        // Requests wait for these; whatever went wrong above was logged, and they answer from what is known.
        markSettingsKnown();
        markScanned();
      }
    })();
  });

  connection.onDidChangeConfiguration((change) => {
    if (phase !== 'running') return;
    // (a client may send no parameters at all: the settings are then asked for)
    const pushed: unknown = typeof change === 'object' && change !== null ? (change as { settings?: unknown }).settings : undefined;
    void refreshSettings(pushed)
      .then(() => {
        // (inlay hints read the settings: a client that can be asked shows them again)
        if (capabilities.workspace?.inlayHint?.refreshSupport === true) void connection.languages.inlayHint.refresh().catch(() => undefined);
        return publisher.republishAll();
      })
      .catch((error: unknown) => log(`darkprint: applying the settings failed: ${describe(error)}`));
  });

  connection.onDidChangeWatchedFiles((params) => {
    if (phase !== 'running') return;
    const changes: unknown = typeof params === 'object' && params !== null ? (params as { changes?: unknown }).changes : undefined;
    if (!Array.isArray(changes)) {
      log('darkprint: a watched-file notification without a list of changes is ignored.');
      return;
    }
    void onDisk('reading changed files', () => onFileEvents(changes.filter(isFileEvent)));
  });

  // ---- documents ---------------------------------------------------------------------------
  // The server keeps the open documents itself: incremental changes are applied with the
  // engine's own line index (the one diagnostics are converted with), so a position means the
  // same offset on the way in and on the way out.

  const documentChanged = (uri: string, version: number, text: string, opened: boolean): void => {
    const file = pathOf(uri);
    if (file === undefined) return;
    const bundle = setOpenDocument(db, file, { uri, version, text });
    if (bundle) schedule(bundle, opened ? 0 : settings.debounceMs);
    else if (!ownerOf(db, file)) void discover(file);
  };

  // A notification with malformed parameters (./params.ts) is dropped whole and logged: the
  // document keeps its last good text and version, so the next well-formed change applies to them.
  connection.onDidOpenTextDocument((params: unknown) => {
    if (phase !== 'running') return;
    try {
      const opened = openedDocument(params);
      if ('problem' in opened) {
        warn(`darkprint: a textDocument/didOpen is ignored: ${opened.problem}.`);
        return;
      }
      const { uri, version, text } = opened.value;
      texts.set(uri, { version, text });
      documentChanged(uri, version, text, true);
    } catch (error) {
      log(`darkprint: opening a document failed: ${describe(error)}`);
    }
  });

  connection.onDidChangeTextDocument((params: unknown) => {
    if (phase !== 'running') return;
    try {
      const change = documentChange(params);
      if ('problem' in change) {
        const uri = documentUriOf(params);
        const kept = uri === undefined ? undefined : texts.get(uri);
        const keeps = kept && uri !== undefined ? ` ${uri} keeps version ${kept.version}.` : '';
        warn(`darkprint: a textDocument/didChange is ignored: ${change.problem}.${keeps}`);
        return;
      }
      const { uri, version, changes } = change.value;
      const before = texts.get(uri);
      if (!before) {
        warn(`darkprint: a change arrived for ${uri}, which is not open; it is ignored.`);
        return;
      }
      const text = applyChanges(before.text, changes);
      texts.set(uri, { version, text });
      documentChanged(uri, version, text, false);
    } catch (error) {
      log(`darkprint: taking a document change failed: ${describe(error)}`);
    }
  });

  connection.onDidCloseTextDocument((params: unknown) => {
    if (phase !== 'running') return;
    try {
      const closed = closedDocument(params);
      if ('problem' in closed) {
        warn(`darkprint: a textDocument/didClose is ignored: ${closed.problem}.`);
        return;
      }
      const uri = closed.value;
      texts.delete(uri);
      const file = pathOf(uri);
      if (file === undefined) return;
      const bundle = setOpenDocument(db, file, undefined);
      if (!bundle) return;
      // The editor may have saved or dropped changes: the disk is the truth again, and it is read
      // before the bundle is published (the disk text kept from before may be older than a save
      // whose watched-file event has not arrived yet).
      const owner = ownerOf(db, file);
      if (!owner) {
        void onDisk(`settling ${file}`, () => settleAfterClose(bundle));
        return;
      }
      // (a publication still waiting from an edit made before the close would read the old disk text)
      const root = owner.bundle.root;
      publisher.cancel(root);
      rereading.set(root, (rereading.get(root) ?? 0) + 1);
      void onDisk(`reading ${file}`, async () => {
        try {
          if ((await readAgain(owner.bundle, owner.relative)) === 'whole') await readWhole(owner.bundle);
        } finally {
          const left = (rereading.get(root) ?? 1) - 1;
          if (left > 0) rereading.set(root, left);
          else rereading.delete(root);
          await settleAfterClose(owner.bundle);
        }
      });
    } catch (error) {
      log(`darkprint: closing a document failed: ${describe(error)}`);
    }
  });

  // ---- requests ----------------------------------------------------------------------------

  registerHandlers(context);

  // A code action's place to look at once its edit is applied (see convert.ts `toCodeAction`), and
  // the edit of a code action sent as a command (see convert.ts `toCodeActionOrCommand`): its
  // edit, then its own command. Another command, or arguments of another shape, get InvalidParams.
  connection.onExecuteCommand(
    guarded(
      context,
      'workspace/executeCommand',
      null,
      async (params: ExecuteCommandParams): Promise<null | ResponseError<void>> => {
        const args: readonly unknown[] = params.arguments ?? [];
        const problem = commandProblem(params.command, args);
        if (problem !== undefined) return new ResponseError(ErrorCodes.InvalidParams, `workspace/executeCommand: ${problem}.`);
        const showLocation = async ([uri, range]: readonly unknown[]): Promise<void> => {
          await connection.window.showDocument({ uri: uri as string, selection: range as Range, takeFocus: true });
        };
        if (params.command === showLocationCommand) {
          await showLocation(args);
          return null;
        }
        const [edit, then] = args as [WorkspaceEdit, Command | undefined];
        const applied = await connection.workspace.applyEdit(edit);
        if (applied.applied && then) await showLocation(then.arguments ?? []);
        return null;
      },
      ['command'],
    ),
  );

  const noBundle = { reasons: ['No DarkPrint bundle holds this file; open a file of a bundle (its topology.dot, a card or blueprint.yaml).'] };
  connection.onRequest(
    compiledRequest,
    guarded(context, compiledRequest, { reasons: ['The server failed while compiling the bundle; its log says why.'] }, async (params: BundleParams) => {
      const at = await fileOrRoot(params);
      return at ? compiled(at) : noBundle;
    }, ['uri']),
  );
  connection.onRequest(
    reportRequest,
    guarded(context, reportRequest, { reasons: ['The server failed while analysing the bundle; its log says why.'] }, async (params: BundleParams) => {
      const at = await fileOrRoot(params);
      return at ? report(at, db.uriOf(at.bundle.root)) : noBundle;
    }, ['uri']),
  );
  connection.onRequest(
    graphRequest,
    guarded(context, graphRequest, { reasons: ['The server failed while drawing the bundle; its log says why.'] }, async (params: BundleParams) => {
      const at = await fileOrRoot(params);
      return at ? graph(at, db.uriOf(at.bundle.root)) : noBundle;
    }, ['uri']),
  );

  // (no bundle: the pipeline's text arrives with the request, and the answer is files to write)
  connection.onRequest(
    importRequest,
    guarded(context, importRequest, { reasons: ['The server failed while importing the pipeline; its log says why.'], diagnostics: [] }, async (params: ImportParams) => {
      return imported(params, support);
    }, ['uri', 'text', 'author']),
  );

  /** The snapshot of the bundle that holds a file (any file, not only bundle files) or that is a root folder. */
  const fileOrRoot = async (params: BundleParams): Promise<ReturnType<typeof snapshotOf> | undefined> => {
    const file = typeof params?.uri === 'string' ? pathOf(params.uri) : undefined;
    if (file === undefined) return undefined;
    await settle(file);
    const bundle = db.bundles.get(file) ?? ownerOf(db, file)?.bundle;
    return bundle ? snapshotOf(db, bundle) : undefined;
  };

  connection.onShutdown(() => {
    phase = 'shut down';
  });
  return { debug };
}

function clientSupport(capabilities: ClientCapabilities): ClientSupport {
  const text = capabilities.textDocument;
  const edit = capabilities.workspace?.workspaceEdit;
  return {
    relatedInformation: text?.publishDiagnostics?.relatedInformation === true,
    codeDescription: text?.publishDiagnostics?.codeDescriptionSupport === true,
    documentChanges: edit?.documentChanges === true,
    renameFiles: edit?.resourceOperations?.includes('rename') === true,
    createFiles: edit?.resourceOperations?.includes('create') === true,
    markdown: text?.hover?.contentFormat?.includes('markdown') === true,
    documentationMarkdown: text?.completion?.completionItem?.documentationFormat?.includes('markdown') === true,
    showDocument: capabilities.window?.showDocument?.support === true,
    hierarchicalSymbols: text?.documentSymbol?.hierarchicalDocumentSymbolSupport === true,
    completionEditRange: text?.completion?.completionList?.itemDefaults?.includes('editRange') === true,
    snippets: text?.completion?.completionItem?.snippetSupport === true,
    codeActionLiterals: text?.codeAction?.codeActionLiteralSupport !== undefined,
    preferredActions: text?.codeAction?.isPreferredSupport === true,
    applyEdit: capabilities.workspace?.applyEdit === true,
    diagnosticTags: new Set(text?.publishDiagnostics?.tagSupport?.valueSet ?? []),
    completionKinds: kindSet(text?.completion?.completionItemKind?.valueSet, baseCompletionKinds),
    symbolKinds: kindSet(text?.documentSymbol?.symbolKind?.valueSet, baseSymbolKinds),
    foldingRangeLimit: typeof text?.foldingRange?.rangeLimit === 'number' ? text.foldingRange.rangeLimit : undefined,
    workspaceSymbolKinds: kindSet(capabilities.workspace?.symbol?.symbolKind?.valueSet, baseSymbolKinds),
  };
}

/** The kinds a client lists, with the protocol's first set, which every client shows. */
function kindSet(listed: readonly number[] | undefined, base: ReadonlySet<number>): ReadonlySet<number> {
  return listed === undefined ? base : new Set([...base, ...listed]);
}

/**
 * The paths of a list of workspace folders as a client sends them (`{ uri, name }`), leaving out
 * URIs that name no local folder; undefined when it is no list of such objects.
 */
function folderPaths(files: FileAccess, list: unknown): string[] | undefined {
  if (!Array.isArray(list)) return undefined;
  const out: string[] = [];
  for (const folder of list) {
    const uri: unknown = typeof folder === 'object' && folder !== null ? (folder as { uri?: unknown }).uri : undefined;
    if (typeof uri !== 'string') return undefined;
    const file = files.pathOf(uri);
    if (file !== undefined) out.push(file);
  }
  return out;
}

/**
 * The diagnostics page a client ships with the server, `initializationOptions.docsPage` (a URI), for
 * a server that has none beside it: the web build's Worker is started from a `blob:` URL (docs/web.md).
 */
function docsPageOf(options: unknown): string | undefined {
  const page: unknown = typeof options === 'object' && options !== null ? (options as { docsPage?: unknown }).docsPage : undefined;
  return typeof page === 'string' && page.trim() !== '' ? page.trim() : undefined;
}

/** A watched-file event as the protocol has it: a string URI and a known change type. */
function isFileEvent(value: unknown): value is FileEvent {
  if (typeof value !== 'object' || value === null) return false;
  const { uri, type } = value as { uri?: unknown; type?: unknown };
  return typeof uri === 'string' && (type === FileChangeType.Created || type === FileChangeType.Changed || type === FileChangeType.Deleted);
}

function workspaceFolders(files: FileAccess, params: InitializeParams): string[] {
  const out: string[] = [];
  for (const folder of params.workspaceFolders ?? []) {
    const file = files.pathOf(folder.uri);
    if (file !== undefined) out.push(file);
  }
  if (out.length === 0 && params.rootUri) {
    const file = files.pathOf(params.rootUri);
    if (file !== undefined) out.push(file);
  }
  if (out.length === 0 && params.rootPath) out.push(files.paths.resolve(params.rootPath));
  return out;
}
