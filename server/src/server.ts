/**
 * The DarkPrint language server: a thin adapter between an LSP client and the engine.
 *
 *   server.ts    lifecycle: capabilities, settings, workspace folders, documents, watched files
 *   workspace.ts the disk: bundle roots (SPEC §1) and reading bundle files (the only `fs` user)
 *   database.ts  the query database: per-file card reads and per-bundle snapshots, by revision
 *   publish.ts   pushing diagnostics for every file of a bundle, debounced, never stale
 *   handlers.ts  one small guarded handler per LSP request, calling shared/src/ide
 *   requests.ts  the custom requests `darkprint/compiled` and `darkprint/report`
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
 * Started as `node server/out/server.js --stdio`, by the VS Code client too (`--node-ipc` also works;
 * `createConnection` reads the transport from argv, except that on `--stdio` the server
 * brings its own writer, which writes diagnostics from their kept JSON: ./wire.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  createConnection,
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  ErrorCodes,
  FileChangeType,
  ProposedFeatures,
  ResponseError,
  StreamMessageWriter,
  TextDocumentSyncKind,
  WatchKind,
  type ClientCapabilities,
  type Connection,
  type FileEvent,
  type InitializeError,
  type InitializeParams,
  type InitializeResult,
  Command,
  Range,
  WorkspaceEdit,
  type ExecuteCommandParams,
} from 'vscode-languageserver/node';
import { addBundle, createDatabase, ownerOf, removeBundle, replaceDisk, setDiskFile, setOpenDocument, snapshotOf, textSnapshotOf, type BundleState } from './database';
import { createPublisher, describe, type Publisher } from './publish';
import { defaultSettings, mergeSettings, readSettings, type Settings } from './settings';
import { findRoots, isBundleFile, isFolder, isRootMarker, isSearchedFolderName, readBundleFiles, readText, relativeTo, rootAbove } from './workspace';
import { applyChanges, applyEditCommand, baseCompletionKinds, baseSymbolKinds, docsLinker, showLocationCommand, type ClientSupport, type DocsLink } from './convert';
import { guarded, registerHandlers, completionTriggers, type FileAt, type Lifecycle, type ServerContext } from './handlers';
import { compiled, compiledRequest, report, reportRequest, type BundleParams } from './requests';
import { createPreparedTexts, preparedEncoder, routeConsole, type PreparedTexts } from './wire';
import { heapPolicyApplies, startHeapPolicy } from './memory';

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

/**
 * Serves `connection`. `prepared`, when the connection's writer reads it (./wire.ts), receives
 * the JSON of each diagnostics publication so that it is written without serialising the list.
 */
export function startServer(connection: Connection, prepared?: PreparedTexts): void {
  const log = (message: string): void => {
    try {
      connection.console.error(message);
    } catch {
      // the connection is gone: nothing left to tell
    }
  };
  const warn = (message: string): void => {
    try {
      connection.console.warn(message);
    } catch {
      // the connection is gone: nothing left to tell
    }
  };
  const db = createDatabase((file) => pathToFileURL(file).href);
  let settings: Settings = defaultSettings;
  let initializationSettings: unknown;
  // (what a client that declared nothing can take, until `initialize` says more)
  let support: ClientSupport = clientSupport({});
  let capabilities: ClientCapabilities = {};
  let folders: string[] = [];
  /** Open documents by the client's URI (any scheme), as the client last sent them. */
  const texts = new Map<string, { version: number; text: string }>();
  const defaultDocsUrl = findDocs();
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
      if (docsLinks?.url !== url) docsLinks = { url, link: docsLinker(url, readDocsPage(url)) };
      return docsLinks.link;
    },
    log,
  });

  // Disk work (scans, reads after watched-file events) runs one task at a time, in order.
  let diskQueue: Promise<void> = Promise.resolve();
  const onDisk = (name: string, task: () => Promise<void>): Promise<void> => {
    const run = diskQueue.then(task).catch((error: unknown) => log(`darkprint: ${name} failed: ${describe(error)}`));
    diskQueue = run;
    return run;
  };
  /** The protocol's lifecycle (see handlers.ts `lifecycleError`): notifications are taken only while running. */
  let phase: Lifecycle = 'waiting';
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  /** Open documents waiting for their bundle root to be found on disk. */
  const discovering = new Map<string, Promise<void>>();

  const schedule = (bundle: BundleState | undefined, delayMs = settings.debounceMs): void => {
    if (bundle) publisher.schedule(bundle, delayMs);
  };

  // ---- bundles ---------------------------------------------------------------------------

  /** Roots that lie strictly inside `root` (their files are theirs, not `root`'s). */
  const nestedRoots = (root: string): Set<string> => {
    const out = new Set<string>();
    for (const other of db.bundles.keys()) if (other !== root && relativeTo(root, other) !== undefined) out.add(other);
    return out;
  };

  const loadRoot = async (root: string): Promise<BundleState> => {
    const disk = await readBundleFiles(root, nestedRoots(root));
    const existing = db.bundles.get(root);
    if (existing) {
      replaceDisk(existing, disk);
      return existing;
    }
    return addBundle(db, root, disk);
  };

  /** Finds every bundle root again and brings the set of bundles in line with the disk. */
  const rescan = async (): Promise<void> => {
    const found = new Set<string>();
    for (const folder of folders) for (const root of await findRoots(folder)) found.add(root);
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
      if ((await rootAbove(root, root)) === root || hasOpenTopology(root)) found.add(root);
    }
    for (const root of [...db.bundles.keys()]) {
      if (found.has(root)) continue;
      publisher.forget(root);
      removeBundle(db, root);
    }
    for (const root of found) {
      if (!db.bundles.has(root)) addBundle(db, root, new Map());
    }
    for (const root of [...found].sort()) {
      const bundle = await loadRoot(root);
      schedule(bundle, 0);
    }
    // An open document whose bundle is gone may belong to another now (or be a bundle of its own).
    for (const file of db.open.keys()) if (!ownerOf(db, file)) void discover(file);
  };

  /** True when `file` lies in a workspace folder and no folder on the way down is one the scan skips. */
  const searchedByScan = (file: string): boolean =>
    folders.some((folder) => {
      const relative = relativeTo(folder, file);
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
    const scanned = folders.some((folder) => path.resolve(folder) === root) || searchedByScan(root);
    return scanned && (await rootAbove(root, root)) === root;
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
    for (const file of db.open.keys()) if (path.dirname(file) === root && /\.(dot|gv)$/i.test(file)) return true;
    return false;
  };

  /** Finds (on disk) the bundle of an open document that belongs to no known bundle yet. */
  const discover = (file: string): Promise<void> => {
    const pending = discovering.get(file);
    if (pending) return pending;
    const task = onDisk(`finding the bundle of ${file}`, async () => {
      if (ownerOf(db, file)) return;
      let root = await rootAbove(path.dirname(file));
      // A topology opened on its own, in a folder that is no bundle root (or where the root found
      // would not read it: a topology saved inside a `cards/` folder), is a bundle of one file.
      const read = root !== undefined && isBundleFile(relativeTo(root, file) ?? '');
      if (!read && /\.(dot|gv)$/i.test(file)) root = path.dirname(file);
      if (root === undefined) return;
      const bundle = await loadRoot(root);
      schedule(bundle, 0);
    }).finally(() => discovering.delete(file));
    discovering.set(file, task);
    return task;
  };

  const onFileEvents = async (changes: readonly FileEvent[]): Promise<void> => {
    let rootsMayChange = false;
    const touched = new Set<BundleState>();
    for (const change of changes) {
      const file = pathOf(change.uri);
      if (file === undefined) continue;
      const name = path.basename(file);
      // Only a creation or a deletion can change which folders are bundle roots.
      if (change.type !== FileChangeType.Changed && isRootMarker(name, name === 'cards')) rootsMayChange = true;
      if (change.type === FileChangeType.Deleted && [...db.bundles.keys()].some((root) => root === file || relativeTo(file, root) !== undefined)) {
        rootsMayChange = true;
      }
      const owner = ownerOf(db, file);
      // A folder created outside every bundle, where the workspace scan looks (a bundle moved or
      // copied in whole), may hold roots; folders created inside a bundle, or hidden ones and build
      // outputs, do not start a scan of the workspace.
      if (change.type === FileChangeType.Created && !rootsMayChange && !owner && searchedByScan(file) && (await isFolder(file))) rootsMayChange = true;
      if (!owner) continue;
      const { bundle, relative } = owner;
      if (change.type === FileChangeType.Deleted) {
        if (bundle.disk.has(relative)) {
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
        const text = await readText(file);
        if (setDiskFile(db, bundle, relative, text)) touched.add(bundle);
      } else if (await isFolder(file)) {
        // A folder appeared (created, or renamed into place): read the bundle again, and look for
        // bundles inside it (one moved into a folder of this bundle), where the scan would.
        const before = bundle.revision;
        await loadRoot(bundle.root);
        if (bundle.revision !== before) touched.add(bundle);
        const inCards = relative === 'cards' || relative.startsWith('cards/');
        if (change.type === FileChangeType.Created && !rootsMayChange && !inCards && searchedByScan(file) && (await findRoots(file)).length > 0) rootsMayChange = true;
      }
    }
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

  const fileOf = async (uri: string, texts?: 'texts'): Promise<FileAt | undefined> => {
    await ready;
    const file = pathOf(uri);
    if (file === undefined) return undefined;
    const pending = discovering.get(file);
    if (pending) await pending;
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
    applySettings(mergeSettings(initializationSettings));
    folders = workspaceFolders(params);
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
        // (the kinds only for a client that takes code action literals: the protocol allows the options no other)
        codeActionProvider: capabilities.textDocument?.codeAction?.codeActionLiteralSupport !== undefined ? { codeActionKinds: ['quickfix', 'source.fixAll'] } : true,
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
        connection.workspace.onDidChangeWorkspaceFolders((event) => {
          if (phase !== 'running') return;
          const removed = new Set(event.removed.map((f) => pathOf(f.uri)));
          folders = [...folders.filter((f) => !removed.has(f)), ...event.added.map((f) => pathOf(f.uri)).filter((f): f is string => f !== undefined)];
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
        // (the scan also looks for the bundles of documents opened meanwhile)
        await onDisk('scanning the workspace', rescan);
      } finally {
        // Requests wait for this; whatever went wrong above was logged, and they answer from what is known.
        markReady();
      }
    })();
  });

  connection.onDidChangeConfiguration((change) => {
    if (phase !== 'running') return;
    // (a client may send no parameters at all: the settings are then asked for)
    const pushed: unknown = typeof change === 'object' && change !== null ? (change as { settings?: unknown }).settings : undefined;
    void refreshSettings(pushed)
      .then(() => publisher.republishAll())
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

  connection.onDidOpenTextDocument((params) => {
    if (phase !== 'running') return;
    try {
      const { uri, version, text } = params.textDocument;
      texts.set(uri, { version, text });
      documentChanged(uri, version, text, true);
    } catch (error) {
      log(`darkprint: opening a document failed: ${describe(error)}`);
    }
  });

  connection.onDidChangeTextDocument((params) => {
    if (phase !== 'running') return;
    try {
      const { uri, version } = params.textDocument;
      const before = texts.get(uri);
      if (!before) {
        log(`darkprint: a change arrived for ${uri}, which is not open; it is ignored.`);
        return;
      }
      const text = applyChanges(before.text, params.contentChanges);
      texts.set(uri, { version, text });
      documentChanged(uri, version, text, false);
    } catch (error) {
      log(`darkprint: taking a document change failed: ${describe(error)}`);
    }
  });

  connection.onDidCloseTextDocument((params) => {
    if (phase !== 'running') return;
    try {
      const uri = params.textDocument.uri;
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
      publisher.cancel(owner.bundle.root);
      void onDisk(`reading ${file}`, async () => {
        try {
          setDiskFile(db, owner.bundle, owner.relative, await readText(file));
        } finally {
          await settleAfterClose(owner.bundle);
        }
      });
    } catch (error) {
      log(`darkprint: closing a document failed: ${describe(error)}`);
    }
  });

  // ---- requests ----------------------------------------------------------------------------

  registerHandlers(context);

  // A code action's place to look at once its edit is applied (see convert.ts `toCodeAction`).
  connection.onExecuteCommand(
    guarded(context, 'workspace/executeCommand', null, async (params: ExecuteCommandParams): Promise<null> => {
      const showLocation = async (args: readonly unknown[]): Promise<boolean> => {
        const [uri, range] = args;
        if (typeof uri !== 'string' || !Range.is(range)) return false;
        await connection.window.showDocument({ uri, selection: range, takeFocus: true });
        return true;
      };
      const args = params.arguments ?? [];
      if (params.command === showLocationCommand && (await showLocation(args))) return null;
      const [edit, then] = args;
      if (params.command === applyEditCommand && WorkspaceEdit.is(edit)) {
        // a code action sent as a command (see convert.ts `toCodeActionOrCommand`): its edit, then its own command
        const applied = await connection.workspace.applyEdit(edit);
        if (applied.applied && Command.is(then) && then.command === showLocationCommand) await showLocation(then.arguments ?? []);
        return null;
      }
      log(`darkprint: the command ${params.command} with these arguments is not one the server offers; it is ignored.`);
      return null;
    }),
  );

  const noBundle = { reasons: ['No DarkPrint bundle holds this file; open a file of a bundle (its topology.dot, a card or blueprint.yaml).'] };
  connection.onRequest(
    compiledRequest,
    guarded(context, compiledRequest, { reasons: ['The server failed while compiling the bundle; its log says why.'] }, async (params: BundleParams) => {
      const at = await fileOrRoot(params);
      return at ? compiled(at) : noBundle;
    }),
  );
  connection.onRequest(
    reportRequest,
    guarded(context, reportRequest, { reasons: ['The server failed while analysing the bundle; its log says why.'] }, async (params: BundleParams) => {
      const at = await fileOrRoot(params);
      return at ? report(at, db.uriOf(at.bundle.root)) : noBundle;
    }),
  );

  /** The snapshot of the bundle that holds a file (any file, not only bundle files) or that is a root folder. */
  const fileOrRoot = async (params: BundleParams): Promise<ReturnType<typeof snapshotOf> | undefined> => {
    await ready;
    const file = typeof params?.uri === 'string' ? pathOf(params.uri) : undefined;
    if (file === undefined) return undefined;
    const pending = discovering.get(file);
    if (pending) await pending;
    const bundle = db.bundles.get(file) ?? ownerOf(db, file)?.bundle;
    return bundle ? snapshotOf(db, bundle) : undefined;
  };

  connection.onShutdown(() => {
    phase = 'shut down';
  });
}

function clientSupport(capabilities: ClientCapabilities): ClientSupport {
  const text = capabilities.textDocument;
  const edit = capabilities.workspace?.workspaceEdit;
  return {
    relatedInformation: text?.publishDiagnostics?.relatedInformation === true,
    codeDescription: text?.publishDiagnostics?.codeDescriptionSupport === true,
    documentChanges: edit?.documentChanges === true,
    renameFiles: edit?.resourceOperations?.includes('rename') === true,
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
  };
}

/** The kinds a client lists, with the protocol's first set, which every client shows. */
function kindSet(listed: readonly number[] | undefined, base: ReadonlySet<number>): ReadonlySet<number> {
  return listed === undefined ? base : new Set([...base, ...listed]);
}

/** A watched-file event as the protocol has it: a string URI and a known change type. */
function isFileEvent(value: unknown): value is FileEvent {
  if (typeof value !== 'object' || value === null) return false;
  const { uri, type } = value as { uri?: unknown; type?: unknown };
  return typeof uri === 'string' && (type === FileChangeType.Created || type === FileChangeType.Changed || type === FileChangeType.Deleted);
}

function workspaceFolders(params: InitializeParams): string[] {
  const out: string[] = [];
  for (const folder of params.workspaceFolders ?? []) {
    const file = pathOf(folder.uri);
    if (file !== undefined) out.push(file);
  }
  if (out.length === 0 && params.rootUri) {
    const file = pathOf(params.rootUri);
    if (file !== undefined) out.push(file);
  }
  if (out.length === 0 && params.rootPath) out.push(path.resolve(params.rootPath));
  return out;
}

/** The absolute path of a `file:` URI, or undefined for any other scheme or a malformed URI. */
export function pathOf(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  try {
    return path.resolve(fileURLToPath(uri));
  } catch {
    return undefined;
  }
}

/** The text of a diagnostics page on this machine (a `file:` URL), or undefined. */
function readDocsPage(url: string): string | undefined {
  if (!url.startsWith('file:')) return undefined;
  try {
    return readFileSync(fileURLToPath(url), 'utf8');
  } catch {
    return undefined;
  }
}

/** The generated diagnostics page, when it sits beside the server (repository or packaged extension). */
function findDocs(): string | undefined {
  for (const candidate of [path.resolve(__dirname, '../../docs/diagnostics.md'), path.resolve(__dirname, '../docs/diagnostics.md'), path.resolve(__dirname, 'docs/diagnostics.md')]) {
    if (existsSync(candidate)) return pathToFileURL(candidate).href;
  }
  return undefined;
}

function main(): void {
  // On --stdio the writer is ours (same framing, prepared publications written from their JSON);
  // every other transport is the one `createConnection` picks from argv.
  const stdio = process.argv.slice(2).includes('--stdio');
  const prepared = stdio ? createPreparedTexts() : undefined;
  // Input stays the stream: given a stream, `createConnection` also ends the process when the
  // client closes it. The output is a message writer, which the library takes in a stream's
  // place at run time (vscode-jsonrpc's createMessageConnection checks each side on its own);
  // only the typings lack the mixed overload.
  const writer = prepared ? new StreamMessageWriter(process.stdout, { charset: 'utf-8', contentTypeEncoder: preparedEncoder(prepared) }) : undefined;
  const connection = writer ? createConnection(ProposedFeatures.all, process.stdin, writer as unknown as NodeJS.WritableStream) : createConnection(ProposedFeatures.all);
  if (stdio) routeConsole(connection.console);
  const report = (kind: string) => (error: unknown): void => {
    try {
      connection.console.error(`darkprint: ${kind}: ${describe(error)}`);
    } catch {
      process.stderr.write(`darkprint: ${kind}: ${describe(error)}\n`);
    }
  };
  process.on('uncaughtException', report('uncaught exception'));
  process.on('unhandledRejection', report('unhandled rejection'));
  if (heapPolicyApplies(process.versions, [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)])) {
    startHeapPolicy({ log: (message) => connection.console.log(message) });
  }
  startServer(connection, prepared);
  connection.listen();
}

main();
