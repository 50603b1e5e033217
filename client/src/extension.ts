/**
 * The DarkPrint VS Code extension: starts the language server for topologies, cards, manifests and
 * local vocabularies, and adds the palette commands (preview, export and import of Attractor
 * pipelines, the bundle report, a new bundle) and the bundle's status bar item. The same on every
 * platform: the entries say how the server runs (./desktop.ts: `server/out/server.js` in a Node
 * process over stdio; ./browser.ts: `server/out/browser.js` in a Web Worker; docs/web.md).
 *
 * Architecture invariant: every check, hover, completion and fix comes from the server; the
 * extension only asks it (`darkprint/compiled`, `darkprint/report`, `darkprint/graph`,
 * `darkprint/import`) and shows the answers, or writes the files an import answers. Two pieces of
 * the engine are bundled here: a new bundle's files, because it writes a new folder no server owns
 * yet, and the picture renderer (Graphviz compiled to WebAssembly), which lays out the
 * picture model the server answers for the graph view (./graph.ts) on a thread of its own
 * (./graph-worker.ts).
 * Must NOT know: diagnostics codes, the vocabulary, the Attractor mapping.
 */
import * as vscode from 'vscode';
import type { BaseLanguageClient, DocumentSelector, LanguageClientOptions } from 'vscode-languageclient';
import { exportAttractor, type ExportOptions } from './export';
import { importAttractor, importFindingsLifetime, type ImportOptions } from './import';
import { newBundle, type NewBundleOptions } from './new-bundle';
import { bundleOf, isServed, previewAnchor, rootMarkersGlob, serveSchemes, workspaceBundles } from './bundles';
import { createPreview, type PreviewController } from './preview';
import {
  compiledRequest,
  readCompiledAnswer,
  readReportAnswer,
  reportRequest,
  type BundleParams,
  type CompiledAnswer,
  type ReportAnswer,
} from './protocol';
import { createReport, revealNode, revealNodeCommand, type ReportController } from './report';
import { createStatus } from './status';
import type { Layout } from './graph-layout';
import { createGraph, exportGraphCommand, graphOpenCardCommand, graphRevealCommand, showGraphCommand, type GraphController, type GraphExportOptions } from './graph';
import { graphRequest, readGraphAnswer, type GraphAnswer } from './protocol';
import { showReferences, showReferencesCommand } from './references';

export const commands = {
  preview: 'darkprint.previewCompiled',
  export: 'darkprint.exportAttractor',
  import: 'darkprint.importAttractor',
  newBundle: 'darkprint.newBundle',
  report: 'darkprint.showReport',
  showGraph: showGraphCommand,
  exportGraph: exportGraphCommand,
  graphOpenCard: graphOpenCardCommand,
  graphReveal: graphRevealCommand,
  revealNode: revealNodeCommand,
  showReferences: showReferencesCommand,
} as const;

/** The files the server serves, in documents of the given URI schemes: topologies by language, the rest by where they sit in a bundle. */
export function selectorFor(schemes: readonly string[]): DocumentSelector {
  return schemes.flatMap((scheme) => [
    { scheme, language: 'darkprint-topology' },
    { scheme, language: 'yaml', pattern: '**/cards/**/*.{yaml,yml}' },
    { scheme, language: 'json', pattern: '**/cards/**/*.json' },
    { scheme, language: 'yaml', pattern: '**/blueprint.yaml' },
    { scheme, language: 'yaml', pattern: '**/ontology/extensions.yaml' },
  ]);
}

/** The desktop's selector: the server reads the disk, `file:` documents. */
export const documentSelector: DocumentSelector = selectorFor(['file']);

/**
 * What differs between the desktop extension (./desktop.ts: the server in a Node process, Node's
 * `fs` for atomic writes, a worker thread for the graph's layout) and the web one (./browser.ts:
 * the server in a Web Worker reading through the extension, `vscode.workspace.fs`, a Web Worker).
 */
export interface Platform {
  /** The URI schemes of the documents the server reads (`file` on the desktop). */
  readonly schemes: readonly string[];
  /** Makes the language client; the caller starts it. */
  readonly createClient: (options: LanguageClientOptions) => BaseLanguageClient;
  /** Called with the client before it starts (the web entry answers the server's file requests there). */
  readonly beforeStart?: (client: BaseLanguageClient) => vscode.Disposable;
  /** Lays out the graph view's pictures off the extension host's thread. */
  readonly layout: Layout;
  /** Writes a file a command exports. */
  readonly write: (target: vscode.Uri, bytes: Uint8Array) => Promise<void>;
  /** The diagnostics page the extension ships, for a server that finds none beside itself (the web's). */
  readonly docsPage?: string;
}

/** What the extension offers other extensions and the `@vscode/test-electron` suite. */
export interface DarkPrintApi {
  readonly client: BaseLanguageClient;
  /** Resolves once the language server has started. */
  readonly ready: Promise<void>;
  readonly compile: (anchor: vscode.Uri) => Promise<CompiledAnswer>;
  readonly report: (anchor: vscode.Uri) => Promise<ReportAnswer>;
  readonly preview: PreviewController;
  readonly reportView: ReportController;
  readonly graph: (anchor: vscode.Uri) => Promise<GraphAnswer>;
  readonly graphView: GraphController;
}

/** The server's command that opens a place after a quick fix (server/src/convert.ts `showLocationCommand`). */
const showLocationCommand = 'darkprint.showLocation';

let client: BaseLanguageClient | undefined;

/** Activates the extension on a platform (the entries: ./desktop.ts, ./browser.ts). */
export function activateWith(context: vscode.ExtensionContext, platform: Platform): DarkPrintApi {
  serveSchemes(platform.schemes);
  // The server reads file names whatever their case, but VS Code matches globs with case on
  // Linux: extensions are listed in both cases.
  const watchers = ['**/*.{dot,gv,DOT,GV}', '**/cards/**/*.{yaml,yml,json,YAML,YML,JSON}', '**/{blueprint,extensions}.{yaml,yml,json}', '**/ontology/extensions.yaml'].map((glob) =>
    vscode.workspace.createFileSystemWatcher(glob),
  );
  // Creations and deletions of anything, for folders: VS Code reports a folder moved in, deleted
  // or renamed as one event for the folder, which none of the file globs above matches.
  watchers.push(vscode.workspace.createFileSystemWatcher('**/*', false, true, false));
  context.subscriptions.push(...watchers);
  const clientOptions: LanguageClientOptions = {
    documentSelector: selectorFor(platform.schemes),
    synchronize: { configurationSection: 'darkprint', fileEvents: watchers },
    initializationOptions: { darkprint: settingsSnapshot(), ...(platform.docsPage !== undefined ? { docsPage: platform.docsPage } : {}) },
    diagnosticCollectionName: 'darkprint',
    middleware: {
      // A quick fix that opens a place to complete (a pin to pick among the bundle's cards): the
      // server shows the place (`darkprint.showLocation` with `suggest`), then completion is asked there.
      executeCommand: async (command, args, next) => {
        const result: unknown = await next(command, args);
        if (command === showLocationCommand && args[2] === 'suggest') await vscode.commands.executeCommand('editor.action.triggerSuggest');
        return result;
      },
    },
  };
  const languageClient = platform.createClient(clientOptions);
  client = languageClient;
  if (platform.beforeStart) context.subscriptions.push(platform.beforeStart(languageClient));
  const ready = languageClient.start();
  ready.catch((error: unknown) => {
    void vscode.window.showErrorMessage(`The DarkPrint language server did not start: ${error instanceof Error ? error.message : String(error)}`);
  });

  const compile = async (anchor: vscode.Uri): Promise<CompiledAnswer> => {
    await ready;
    const params: BundleParams = { uri: anchor.toString() };
    const answer = readCompiledAnswer(await languageClient.sendRequest(compiledRequest, params));
    if (answer === undefined) throw new Error(`the answer to ${compiledRequest} has neither text nor reasons`);
    return answer;
  };
  const report = async (anchor: vscode.Uri): Promise<ReportAnswer> => {
    await ready;
    const params: BundleParams = { uri: anchor.toString() };
    const answer = readReportAnswer(await languageClient.sendRequest(reportRequest, params));
    if (answer === undefined) throw new Error(`the answer to ${reportRequest} is not an analysis`);
    return answer;
  };

  const coalesceMs = 50;
  const preview = createPreview({ compile, coalesceMs });
  const reportView = createReport({ report, coalesceMs });
  context.subscriptions.push(
    importFindingsLifetime(),
    bundlePresence(),
    preview,
    reportView,
    createStatus({ report, coalesceMs, reportCommand: commands.report }),
    vscode.commands.registerCommand(commands.preview, (target?: unknown) => guarded(() => preview.open(asUri(target)))),
    vscode.commands.registerCommand(commands.export, (options?: unknown) =>
      guarded(() => exportAttractor({ compile, showPreview: (anchor) => preview.open(anchor) }, exportOptions(options))),
    ),
    vscode.commands.registerCommand(commands.import, (options?: unknown) =>
      guarded(() => importAttractor({ request: (method, params) => ready.then(() => languageClient.sendRequest(method, params)) }, importOptions(options))),
    ),
    vscode.commands.registerCommand(commands.newBundle, (options?: unknown) => guarded(() => newBundle(newBundleOptions(options)))),
    vscode.commands.registerCommand(commands.report, (target?: unknown) => guarded(() => reportView.open(asUri(target)))),
    vscode.commands.registerCommand(commands.revealNode, (argument?: unknown) => guarded(() => revealNode(argument))),
    vscode.commands.registerCommand(commands.showReferences, (...args: unknown[]) => guarded(() => showReferences(args))),
  );
  const graph = async (anchor: vscode.Uri): Promise<GraphAnswer> => {
    await ready;
    const params: BundleParams = { uri: anchor.toString() };
    const answer = readGraphAnswer(await languageClient.sendRequest(graphRequest, params));
    if (answer === undefined) throw new Error(`the answer to ${graphRequest} is not a picture`);
    return answer;
  };
  const layout = platform.layout;
  const graphView = createGraph({ graph, render: (picture) => layout.render(picture), coalesceMs, extensionUri: context.extensionUri, write: platform.write });
  context.subscriptions.push(
    graphView,
    { dispose: () => layout.dispose() },
    vscode.commands.registerCommand(commands.showGraph, (target?: unknown) => guarded(() => graphView.open(asUri(target)))),
    vscode.commands.registerCommand(commands.exportGraph, (options?: unknown) => guarded(() => graphView.exportPicture(graphExportOptions(options)))),
    vscode.commands.registerCommand(commands.graphOpenCard, (argument?: unknown) => guarded(() => graphView.openCardFromMenu(argument))),
    vscode.commands.registerCommand(commands.graphReveal, (argument?: unknown) => guarded(() => graphView.revealFromMenu(argument))),
  );
  return { client: languageClient, ready, compile, report, preview, reportView, graph, graphView };
}

/** The export's options: a Uri (from a menu) names the bundle; an object may name `bundle` and `target`. */
function graphExportOptions(value: unknown): GraphExportOptions {
  const { bundle, target } = exportOptions(value);
  return { ...(bundle !== undefined ? { bundle } : {}), ...(target !== undefined ? { target } : {}) };
}

export function deactivate(): Promise<void> | undefined {
  return client?.stop();
}

/**
 * Keeps the context key `darkprint.hasBundle`, which shows the commands that need a bundle in
 * the palette: true while the workspace holds a bundle, or the active editor's file lies in one
 * (a bundle outside the workspace, or no folder open), or is a DarkPrint topology or preview.
 * Read on activation, and again when a file that marks a bundle root is created or deleted,
 * files are created, deleted or renamed in the editor (a folder moved in whole), the workspace
 * folders change, or the active editor does.
 */
function bundlePresence(): vscode.Disposable {
  /** Whether the workspace holds a bundle: searched again only on file and folder events. */
  let inWorkspace = false;
  let reading: Promise<void> | undefined;
  let again = false;
  let searchAgain = true;
  const refresh = (search: boolean): void => {
    searchAgain ||= search;
    if (reading !== undefined) {
      again = true;
      return;
    }
    reading = (async () => {
      do {
        again = false;
        if (searchAgain) {
          searchAgain = false;
          inWorkspace = (await workspaceBundles()).length > 0;
        }
        await vscode.commands.executeCommand('setContext', 'darkprint.hasBundle', inWorkspace || (await activeInBundle()));
      } while (again);
    })()
      .catch((error: unknown) => client?.error('Looking for DarkPrint bundles failed', error, false))
      .finally(() => (reading = undefined));
  };
  const search = (): void => refresh(true);
  const watcher = vscode.workspace.createFileSystemWatcher(rootMarkersGlob, false, true, false);
  search();
  return vscode.Disposable.from(
    watcher,
    watcher.onDidCreate(search),
    watcher.onDidDelete(search),
    vscode.workspace.onDidCreateFiles(search),
    vscode.workspace.onDidDeleteFiles(search),
    vscode.workspace.onDidRenameFiles(search),
    vscode.workspace.onDidChangeWorkspaceFolders(search),
    vscode.window.onDidChangeActiveTextEditor(() => refresh(false)),
  );
}

/** True when the active editor shows a DarkPrint topology or preview, or a file inside a bundle. */
async function activeInBundle(): Promise<boolean> {
  const document = vscode.window.activeTextEditor?.document;
  if (document === undefined) return false;
  if (document.languageId === 'darkprint-topology' || previewAnchor(document.uri) !== undefined) return true;
  return isServed(document.uri) && (await bundleOf(document.uri)) !== undefined;
}

/** Runs a command; a failure becomes an error message instead of a silent rejected promise. */
async function guarded<T>(run: () => Promise<T>): Promise<T | undefined> {
  try {
    return await run();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    void vscode.window.showErrorMessage(`DarkPrint: ${message}`);
    client?.error('A DarkPrint command failed', error, false);
    return undefined;
  }
}

function settingsSnapshot(): Record<string, unknown> {
  const configuration = vscode.workspace.getConfiguration('darkprint');
  // (as plain data: the values are the configuration's own read-only proxies, which a Web Worker's
  // messages cannot carry, where a stream's JSON did)
  return JSON.parse(
    JSON.stringify({
      severity: configuration.get<unknown>('severity'),
      ignore: configuration.get<unknown>('ignore'),
      debounceMs: configuration.get<unknown>('debounceMs'),
      docsUrl: configuration.get<unknown>('docsUrl'),
      logLevel: configuration.get<unknown>('logLevel'),
      inlayHints: configuration.get<unknown>('inlayHints'),
    }),
  ) as Record<string, unknown>;
}

/** A command's argument when it names a resource: a Uri (from menus) or a URI string. */
function asUri(value: unknown): vscode.Uri | undefined {
  if (value instanceof vscode.Uri) return value;
  if (typeof value === 'string' && value !== '') return vscode.Uri.parse(value, true);
  return undefined;
}

function exportOptions(value: unknown): ExportOptions {
  const direct = asUri(value);
  if (direct !== undefined) return { bundle: direct };
  if (typeof value !== 'object' || value === null) return {};
  const record = new Map(Object.entries(value as Record<string, unknown>));
  const bundle = asUri(record.get('bundle'));
  const target = asUri(record.get('target'));
  return { ...(bundle !== undefined ? { bundle } : {}), ...(target !== undefined ? { target } : {}) };
}

function newBundleOptions(value: unknown): NewBundleOptions {
  if (typeof value !== 'object' || value === null || value instanceof vscode.Uri) return {};
  const record = new Map(Object.entries(value as Record<string, unknown>));
  const folder = asUri(record.get('folder'));
  const title = record.get('title');
  return { ...(folder !== undefined ? { folder } : {}), ...(typeof title === 'string' ? { title } : {}) };
}

function importOptions(value: unknown): ImportOptions {
  if (typeof value !== 'object' || value === null || value instanceof vscode.Uri) return {};
  const record = new Map(Object.entries(value as Record<string, unknown>));
  const pipeline = asUri(record.get('pipeline'));
  const folder = asUri(record.get('folder'));
  const author = record.get('author');
  return {
    ...(pipeline !== undefined ? { pipeline } : {}),
    ...(folder !== undefined ? { folder } : {}),
    ...(typeof author === 'string' ? { author } : {}),
  };
}
