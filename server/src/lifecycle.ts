/**
 * The protocol's lifecycle and the workspace's notifications: `initialize` (what the server
 * offers, what the client declared, its settings and folders), `initialized` (the registrations,
 * the settings asked for, the first scan), the settings pushed or asked for again
 * (`workspace/didChangeConfiguration`), watched files, workspace folders, and `shutdown`. This
 * module owns the shared state's lifecycle fields (./state.ts): `phase`, `capabilities`,
 * `support`, `settings` and `folders`.
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
  type FileEvent,
  type InitializeError,
  type InitializeParams,
  type InitializeResult,
  type ServerCapabilities,
} from 'vscode-languageserver';
import type { WorkspaceBundles } from './bundles';
import { clientSupport } from './client-support';
import { applyEditCommand, semanticTokensLegend, showLocationCommand } from './convert';
import type { DiskQueue } from './disk-queue';
import type { FileAccess } from './files';
import { completionTriggers } from './handlers';
import { describe } from './publish';
import { mergeSettings, readSettings } from './settings';
import type { Readiness, ServerCore } from './state';

const serverName = 'darkprint-language-server';
const serverVersion = '0.1.0';

/**
 * Glob patterns of the files (and folders) whose changes on disk matter. The server reads file
 * names whatever their case (`CARD@1.0.0.YAML`), but a client may match globs with case
 * (VS Code does on Linux): the extensions are listed in both cases.
 */
const watchedPatterns: readonly string[] = ['**/*.{dot,gv,yaml,yml,json,DOT,GV,YAML,YML,JSON}', '**/cards', '**/ontology'];

/**
 * Creations and deletions of anything, for folders: a bundle folder moved into the workspace, or
 * deleted or renamed whole, is one event for the folder (VS Code folds the files below into it),
 * whatever the folder's name.
 */
const folderPattern = '**/*';

/** What the lifecycle works with. */
interface LifecycleWork {
  readonly core: ServerCore;
  readonly disk: DiskQueue;
  readonly bundles: WorkspaceBundles;
  readonly readiness: Readiness;
  /** The settings the client gave in `initialize` (`initializationOptions`), under those it pushes or is asked for. */
  initializationSettings: unknown;
  initializedSeen: boolean;
}

export function registerLifecycle(core: ServerCore, disk: DiskQueue, bundles: WorkspaceBundles, readiness: Readiness): void {
  const work: LifecycleWork = { core, disk, bundles, readiness, initializationSettings: undefined, initializedSeen: false };
  const { connection, state } = core;
  connection.onInitialize((params: InitializeParams) => initialize(work, params));
  connection.onInitialized(() => initialized(work));
  connection.onDidChangeConfiguration((change) => configurationChanged(work, change));
  connection.onDidChangeWatchedFiles((params) => watchedFilesChanged(work, params));
  connection.onShutdown(() => {
    state.phase = 'shut down';
  });
}

function initialize(work: LifecycleWork, params: InitializeParams): InitializeResult | ResponseError<InitializeError> {
  const { state } = work.core;
  // (initialize comes once: a second one, or one after shutdown, is refused)
  if (state.phase !== 'waiting') return new ResponseError(ErrorCodes.InvalidRequest, 'The server is initialized already.', { retry: false });
  state.phase = 'running';
  state.capabilities = params.capabilities;
  state.support = clientSupport(params.capabilities);
  work.initializationSettings = params.initializationOptions;
  state.defaultDocsUrl ??= docsPageOf(params.initializationOptions);
  applySettings(work, mergeSettings(work.initializationSettings));
  state.folders = workspaceFolders(work.core.files, params);
  return { capabilities: serverCapabilities(state.capabilities), serverInfo: { name: serverName, version: serverVersion } };
}

/** What the server offers a client that declared `capabilities` (the `initialize` answer's). */
function serverCapabilities(capabilities: ClientCapabilities): ServerCapabilities {
  return {
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
  };
}

function initialized(work: LifecycleWork): void {
  const { connection, state, logger } = work.core;
  // (once, and only after initialize: a second or early `initialized` changes nothing)
  if (state.phase !== 'running' || work.initializedSeen) return;
  work.initializedSeen = true;
  // Subscribed before anything is awaited, so that no folder change is missed; the rescan
  // it asks for runs after the initial scan (disk work runs in order).
  if (state.capabilities.workspace?.workspaceFolders) {
    try {
      connection.workspace.onDidChangeWorkspaceFolders((event: unknown) => foldersChanged(work, event));
    } catch (error) {
      logger.log(`darkprint: subscribing to workspace folder changes failed: ${describe(error)}`);
    }
  }
  void startUp(work);
}

/**
 * After `initialized`: registers for the watched files and the settings (with a client that
 * registers them dynamically), asks for the settings, then scans the workspace.
 */
async function startUp(work: LifecycleWork): Promise<void> {
  const { connection, state, logger } = work.core;
  const { disk, bundles, readiness } = work;
  try {
    if (state.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration) {
      await connection.client.register(DidChangeWatchedFilesNotification.type, {
        watchers: [...watchedPatterns.map((globPattern) => ({ globPattern })), { globPattern: folderPattern, kind: WatchKind.Create | WatchKind.Delete }],
      });
    }
    if (state.capabilities.workspace?.didChangeConfiguration?.dynamicRegistration) {
      await connection.client.register(DidChangeConfigurationNotification.type, { section: 'darkprint' });
    }
  } catch (error) {
    logger.log(`darkprint: registering for workspace notifications failed: ${describe(error)}`);
  }
  try {
    await refreshSettings(work);
    readiness.markSettingsKnown();
    // (the scan also looks for the bundles of documents opened meanwhile)
    await disk.onDisk('scanning the workspace', bundles.rescan);
  } finally {
    // Requests wait for these; whatever went wrong above was logged, and they answer from what is known.
    readiness.markSettingsKnown();
    readiness.markScanned();
  }
}

function foldersChanged(work: LifecycleWork, event: unknown): void {
  const { state, files, logger } = work.core;
  if (state.phase !== 'running') return;
  const change = typeof event === 'object' && event !== null ? (event as { added?: unknown; removed?: unknown }) : {};
  const added = folderPaths(files, change.added);
  const removed = folderPaths(files, change.removed);
  if (added === undefined || removed === undefined) {
    logger.warn('darkprint: a workspace/didChangeWorkspaceFolders is ignored: its `event` must hold `added` and `removed` lists of folders, each with a string `uri`.');
    return;
  }
  const gone = new Set(removed);
  state.folders = [...state.folders.filter((f) => !gone.has(f)), ...added];
  void work.disk.onDisk('rescanning the workspace folders', work.bundles.rescan);
}

// ---- settings --------------------------------------------------------------------------------

function applySettings(work: LifecycleWork, raw: unknown): void {
  const read = readSettings(raw);
  for (const problem of read.problems) work.core.logger.warn(`darkprint: ${problem}`);
  work.core.state.settings = read.settings;
}

async function refreshSettings(work: LifecycleWork, pushed?: unknown): Promise<void> {
  const { connection, state, logger } = work.core;
  let fetched: unknown;
  if (state.capabilities.workspace?.configuration) {
    try {
      fetched = await connection.workspace.getConfiguration('darkprint');
    } catch (error) {
      logger.warn(`darkprint: the client did not answer workspace/configuration, so its settings are not known: ${describe(error)}`);
    }
  }
  applySettings(work, mergeSettings(work.initializationSettings, pushed, fetched));
}

function configurationChanged(work: LifecycleWork, change: unknown): void {
  const { connection, state, publisher, logger } = work.core;
  if (state.phase !== 'running') return;
  // (a client may send no parameters at all: the settings are then asked for)
  const pushed: unknown = typeof change === 'object' && change !== null ? (change as { settings?: unknown }).settings : undefined;
  void refreshSettings(work, pushed)
    .then(() => {
      // (inlay hints read the settings: a client that can be asked shows them again)
      if (state.capabilities.workspace?.inlayHint?.refreshSupport === true) void connection.languages.inlayHint.refresh().catch(() => undefined);
      return publisher.republishAll();
    })
    .catch((error: unknown) => logger.log(`darkprint: applying the settings failed: ${describe(error)}`));
}

function watchedFilesChanged(work: LifecycleWork, params: unknown): void {
  const { state, logger } = work.core;
  if (state.phase !== 'running') return;
  const changes: unknown = typeof params === 'object' && params !== null ? (params as { changes?: unknown }).changes : undefined;
  if (!Array.isArray(changes)) {
    logger.log('darkprint: a watched-file notification without a list of changes is ignored.');
    return;
  }
  void work.disk.onDisk('reading changed files', () => work.bundles.onFileEvents(changes.filter(isFileEvent)));
}

// ---- what the client sends ---------------------------------------------------------------------

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
