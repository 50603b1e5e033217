/**
 * The DarkPrint VS Code extension: starts the language server (`server/out/server.js`, over IPC)
 * for topologies, cards, manifests and local vocabularies, and adds the palette commands (preview,
 * export and import of Attractor pipelines, the bundle report, a new bundle) and the bundle's
 * status bar item.
 *
 * Architecture invariant: every check, hover, completion and fix comes from the server; the
 * extension only asks it (`darkprint/compiled`, `darkprint/report`, `darkprint/graph`) and shows the
 * answers. Three pieces of the engine are bundled here: the Attractor importer (a pure function from
 * a pipeline's text to the files of a bundle) and a new bundle's files, because both write a new
 * folder no server owns yet, and the picture renderer (Graphviz compiled to WebAssembly), which lays out the
 * picture model the server answers for the graph view (./graph.ts) on a thread of its own
 * (./graph-worker.ts).
 * Must NOT know: diagnostics codes, the vocabulary, the Attractor mapping.
 */
import * as path from 'path';
import * as vscode from 'vscode';
import {
  LanguageClient,
  TransportKind,
  type DocumentSelector,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node';
import { exportAttractor, type ExportOptions } from './export';
import { importAttractor, importFindingsLifetime, type ImportOptions } from './import';
import { newBundle, type NewBundleOptions } from './new-bundle';
import { bundleOf, previewAnchor, rootMarkersGlob, workspaceBundles } from './bundles';
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
import { createLayout } from './graph-layout';
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

/** The files the server serves: topologies by language, the rest by where they sit in a bundle. */
export const documentSelector: DocumentSelector = [
  { scheme: 'file', language: 'darkprint-topology' },
  { scheme: 'file', language: 'yaml', pattern: '**/cards/**/*.{yaml,yml}' },
  { scheme: 'file', language: 'json', pattern: '**/cards/**/*.json' },
  { scheme: 'file', language: 'yaml', pattern: '**/blueprint.yaml' },
  { scheme: 'file', language: 'yaml', pattern: '**/ontology/extensions.yaml' },
];

/** What the extension offers other extensions and the `@vscode/test-electron` suite. */
export interface DarkPrintApi {
  readonly client: LanguageClient;
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

let client: LanguageClient | undefined;

export function activate(context: vscode.ExtensionContext): DarkPrintApi {
  const serverModule = context.asAbsolutePath(path.join('server', 'out', 'server.js'));
  // stdio, as for any other client: on it the server writes diagnostics lists from their kept
  // JSON (server/src/wire.ts), where over ipc Node would serialise every list again.
  const serverOptions: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.stdio },
    debug: { module: serverModule, transport: TransportKind.stdio, options: { execArgv: ['--nolazy', '--inspect=6009'] } },
  };
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
    documentSelector,
    synchronize: { configurationSection: 'darkprint', fileEvents: watchers },
    initializationOptions: { darkprint: settingsSnapshot() },
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
  const languageClient = new LanguageClient('darkprint', 'DarkPrint Language Server', serverOptions, clientOptions);
  client = languageClient;
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
    vscode.commands.registerCommand(commands.import, (options?: unknown) => guarded(() => importAttractor(importOptions(options)))),
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
  const layout = createLayout(context.asAbsolutePath(path.join('client', 'out', 'graph-worker.js')));
  const graphView = createGraph({ graph, render: (picture) => layout.render(picture), coalesceMs, extensionUri: context.extensionUri });
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
  return document.uri.scheme === 'file' && (await bundleOf(document.uri)) !== undefined;
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
  return {
    severity: configuration.get<unknown>('severity'),
    ignore: configuration.get<unknown>('ignore'),
    debounceMs: configuration.get<unknown>('debounceMs'),
    docsUrl: configuration.get<unknown>('docsUrl'),
    logLevel: configuration.get<unknown>('logLevel'),
    inlayHints: configuration.get<unknown>('inlayHints'),
  };
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
