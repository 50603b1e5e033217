/**
 * `DarkPrint: Show Blueprint Graph`: a webview beside the editor that draws the bundle from the
 * picture model `darkprint/graph` answers (docs/graph.md). The extension lays it out with the
 * engine's renderer (Graphviz compiled to WebAssembly) on a thread of its own (./graph-layout.ts;
 * the page holds no WebAssembly) and posts the SVG; the page (./graph-html.ts, client/webview/graph-view.ts) pans, zooms, hovers and
 * styles it with the theme's colours.
 *
 * Live: a panel draws again when a document of its bundle changes or the server republishes its
 * diagnostics (edits are gathered for `coalesceMs`; one request at a time, and one more after it
 * when something changed meanwhile, so the last picture drawn is of the latest text). While the
 * topology does not read as written, the last picture stays with a banner saying why. Clicking a
 * block or wire shows its statement in the topology, Ctrl/⌘/Alt+click or the context menu opens a
 * block's card, and the cursor in the topology or a card highlights what it is about.
 *
 * `DarkPrint: Export Graph Picture…` writes the same SVG as `darkprint graph` (the engine's
 * colours, on a transparent ground), through `write` (on the desktop atomically for a file on disk:
 * ./atomic-write.ts; in the browser through `vscode.workspace.fs`: docs/web.md).
 */
import * as vscode from 'vscode';
import type { Picture } from '../../shared/src';
import { activeOrPickedBundle, basename, exists, isInside, isServed, type BundleLocation } from './bundles';
import { messageOf } from './preview';
import type { GraphAnswer } from './protocol';
import { graphView, graphViewType, isBundleFile, keysAt, readFromPage, renderGraphHtml, type ToPage } from './graph-html';

export { exportGraphCommand, graphOpenCardCommand, graphRevealCommand, showGraphCommand } from './graph-html';

export interface GraphDependencies {
  readonly graph: (anchor: vscode.Uri) => Promise<GraphAnswer>;
  /** The picture as SVG (the engine's `renderPicture`, on the layout thread). */
  readonly render: (picture: Picture) => Promise<string>;
  /** How long to gather bursts of edits and diagnostics before asking the server again. */
  readonly coalesceMs: number;
  /** The extension's folder (the page's script is `client/out/graph-view.js` inside it). */
  readonly extensionUri: vscode.Uri;
  /** Writes an exported picture. */
  readonly write: (target: vscode.Uri, bytes: Uint8Array) => Promise<void>;
}

export interface GraphExportOptions {
  /** A file of the bundle to draw; default: the graph panel in front, else the active editor's bundle. */
  readonly bundle?: vscode.Uri;
  /** Where to write, skipping the save dialog (then an existing file is replaced only after a yes). */
  readonly target?: vscode.Uri;
}

export interface GraphController extends vscode.Disposable {
  readonly open: (target?: vscode.Uri) => Promise<vscode.WebviewPanel | undefined>;
  readonly exportPicture: (options?: GraphExportOptions) => Promise<vscode.Uri | undefined>;
  /** The context menu's commands: `{ bundle, key }` as the page marks its blocks and wires. */
  readonly revealFromMenu: (argument: unknown) => Promise<void>;
  readonly openCardFromMenu: (argument: unknown) => Promise<void>;
}

interface Panel {
  readonly panel: vscode.WebviewPanel;
  readonly location: BundleLocation;
  /** The picture on the page, and the JSON it was drawn from (an identical answer is not drawn again). */
  shown?: { readonly picture: Picture; readonly json: string };
  /** The last message that put a picture (or a sentence) on the page, for a page that loads again. */
  lastMessage?: ToPage;
  banner?: string;
  running: boolean;
  again: boolean;
  timer?: ReturnType<typeof setTimeout>;
}

export function createGraph(dependencies: GraphDependencies): GraphController {
  const panels = new Map<string, Panel>();
  const scriptFolder = vscode.Uri.joinPath(dependencies.extensionUri, 'client', 'out');

  const post = (entry: Panel, message: ToPage): void => {
    if (message.type === 'picture' || message.type === 'message') entry.lastMessage = message;
    void entry.panel.webview.postMessage(message);
  };

  const setBanner = (entry: Panel, text: string | undefined): void => {
    if (entry.banner === text) return;
    entry.banner = text;
    if (entry.lastMessage?.type === 'picture') entry.lastMessage = { ...entry.lastMessage, banner: text };
    post(entry, { type: 'banner', ...(text !== undefined ? { text } : {}) });
  };

  /** Asks for the picture and draws it, once; see `refresh`. */
  const draw = async (key: string, entry: Panel): Promise<void> => {
    let answer: GraphAnswer;
    try {
      answer = await dependencies.graph(entry.location.anchor);
    } catch (error) {
      if (panels.get(key) !== entry) return;
      const text = `The language server did not answer: ${messageOf(error)}. Edit the bundle to try again.`;
      if (entry.shown === undefined) post(entry, { type: 'message', text });
      else setBanner(entry, text);
      return;
    }
    if (panels.get(key) !== entry) return;
    if (answer.kind === 'refused') {
      const text = `The bundle cannot be drawn: ${answer.reasons.join(' ') || 'the language server gave no reason.'}`;
      if (entry.shown === undefined) post(entry, { type: 'message', text });
      else setBanner(entry, text);
      return;
    }
    const unreadable = answer.unreadable.length === 0 ? undefined : unreadableBanner(answer.unreadable, entry.shown !== undefined);
    // a topology that does not read as written keeps the last picture, with the reason
    if (unreadable !== undefined && entry.shown !== undefined) {
      setBanner(entry, unreadable);
      return;
    }
    const json = JSON.stringify(answer.picture);
    if (entry.shown?.json === json) {
      setBanner(entry, unreadable);
      return;
    }
    let svg: string;
    try {
      svg = await dependencies.render(answer.picture);
    } catch (error) {
      if (panels.get(key) !== entry) return;
      setBanner(entry, `The picture could not be laid out: ${messageOf(error)}`);
      return;
    }
    if (panels.get(key) !== entry) return;
    entry.shown = { picture: answer.picture, json };
    entry.banner = unreadable;
    post(entry, { type: 'picture', svg, view: graphView(answer.picture), bundle: entry.location.root.toString(), ...(unreadable !== undefined ? { banner: unreadable } : {}) });
    highlightFor(vscode.window.activeTextEditor, entry);
  };

  /** Draws now, or once more after the drawing under way when one is (the latest text wins). */
  const refresh = async (key: string): Promise<void> => {
    const entry = panels.get(key);
    if (entry === undefined) return;
    if (entry.running) {
      entry.again = true;
      return;
    }
    entry.running = true;
    try {
      do {
        entry.again = false;
        await draw(key, entry);
      } while (entry.again && panels.get(key) === entry);
    } finally {
      entry.running = false;
    }
  };

  const schedule = (key: string, entry: Panel): void => {
    if (entry.timer !== undefined) clearTimeout(entry.timer);
    entry.timer = setTimeout(() => {
      entry.timer = undefined;
      void refresh(key);
    }, dependencies.coalesceMs);
  };

  const changed = (uris: readonly vscode.Uri[]): void => {
    for (const [key, entry] of panels) if (uris.some((uri) => isServed(uri) && isInside(entry.location.root, uri))) schedule(key, entry);
  };

  /** Highlights in a panel what the cursor of `editor` is about, when the editor shows a file of its bundle. */
  const highlightFor = (editor: vscode.TextEditor | undefined, entry: Panel): void => {
    const picture = entry.shown?.picture;
    if (picture === undefined || editor === undefined) return;
    const uri = editor.document.uri;
    if (!isServed(uri) || !isInside(entry.location.root, uri)) return;
    const file = relativePath(entry.location.root, uri);
    const position = editor.selection.active;
    const wordRange = editor.document.getWordRangeAtPosition(position, /[A-Za-z0-9_.\-\u0080-\uffff]+/);
    const word = wordRange === undefined ? undefined : editor.document.getText(wordRange);
    post(entry, { type: 'highlight', keys: keysAt(picture, file, position.line, position.character, word) });
  };

  const subscriptions: vscode.Disposable[] = [
    vscode.languages.onDidChangeDiagnostics((event) => changed(event.uris)),
    vscode.workspace.onDidChangeTextDocument((event) => {
      if (event.contentChanges.length > 0) changed([event.document.uri]);
    }),
    vscode.workspace.onDidSaveTextDocument((document) => changed([document.uri])),
    vscode.window.onDidChangeTextEditorSelection((event) => {
      for (const entry of panels.values()) highlightFor(event.textEditor, entry);
    }),
    vscode.window.onDidChangeActiveTextEditor((editor) => {
      for (const entry of panels.values()) highlightFor(editor, entry);
    }),
  ];

  const open = async (target?: vscode.Uri): Promise<vscode.WebviewPanel | undefined> => {
    const location = await activeOrPickedBundle(target);
    if (location === undefined) return undefined;
    const key = location.root.toString();
    const existing = panels.get(key);
    if (existing !== undefined) {
      existing.panel.reveal(undefined, true);
      await refresh(key);
      return existing.panel;
    }
    const panel = vscode.window.createWebviewPanel(
      graphViewType,
      `DarkPrint Graph: ${basename(location.root)}`,
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      { enableScripts: true, enableCommandUris: false, localResourceRoots: [scriptFolder] },
    );
    const entry: Panel = { panel, location, running: false, again: false };
    panels.set(key, entry);
    panel.webview.html = renderGraphHtml({
      cspSource: panel.webview.cspSource,
      nonce: nonce(),
      scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(scriptFolder, 'graph-view.js')).toString(),
      title: `DarkPrint graph: ${basename(location.root)}`,
    });
    panel.webview.onDidReceiveMessage((raw: unknown) => {
      const message = readFromPage(raw);
      if (message === undefined) return;
      switch (message.type) {
        case 'ready':
          // (a page shown again after it was hidden loads anew: it gets the last picture at once)
          if (entry.lastMessage !== undefined) post(entry, entry.lastMessage);
          highlightFor(vscode.window.activeTextEditor, entry);
          return;
        case 'reveal':
          void guardedRun(() => reveal(entry, message.key));
          return;
        case 'openCard':
          void guardedRun(() => openCard(entry, message.key));
          return;
        case 'export':
          void guardedRun(() => exportPicture({ bundle: entry.location.anchor }));
          return;
      }
    });
    panel.onDidDispose(() => {
      if (entry.timer !== undefined) clearTimeout(entry.timer);
      panels.delete(key);
    });
    await refresh(key);
    return panel;
  };

  /** The panel whose page a context menu was opened on (the page marks each element with its bundle). */
  const fromMenu = (argument: unknown): { entry: Panel; key: string } | undefined => {
    if (typeof argument !== 'object' || argument === null) return undefined;
    const { bundle, key } = argument as { bundle?: unknown; key?: unknown };
    if (typeof bundle !== 'string' || typeof key !== 'string') return undefined;
    const entry = panels.get(bundle);
    return entry === undefined ? undefined : { entry, key };
  };

  const exportPicture = async (options: GraphExportOptions = {}): Promise<vscode.Uri | undefined> => {
    const front = [...panels.values()].find((entry) => entry.panel.active);
    const location = options.bundle === undefined && front !== undefined ? front.location : await activeOrPickedBundle(options.bundle);
    if (location === undefined) return undefined;
    const answer = await dependencies.graph(location.anchor);
    if (answer.kind === 'refused') {
      void vscode.window.showErrorMessage(`The bundle cannot be drawn: ${answer.reasons.join(' ') || 'the language server gave no reason.'}`);
      return undefined;
    }
    if (!answer.picture.graph.drawn) {
      void vscode.window.showErrorMessage(`The bundle cannot be drawn yet: ${answer.unreadable[0] ?? 'its topology is no directed graph.'} Fix it and export again.`);
      return undefined;
    }
    const svg = await dependencies.render(answer.picture);
    const name = `${answer.picture.header.slug || basename(location.root) || 'blueprint'}.graph.svg`;
    let target = options.target;
    if (target === undefined) {
      target = await vscode.window.showSaveDialog({
        defaultUri: vscode.Uri.joinPath(location.root, name),
        filters: { 'SVG picture': ['svg'] },
        saveLabel: 'Export',
        title: 'Export Graph Picture',
      });
      if (target === undefined) return undefined;
    } else if (await exists(target)) {
      const replace = await vscode.window.showWarningMessage(`${vscode.workspace.asRelativePath(target)} already exists. Replace it with the graph picture?`, { modal: true }, 'Replace');
      if (replace !== 'Replace') return undefined;
    }
    if (isInside(location.root, target) && isBundleFile(relativePath(location.root, target), answer.picture)) {
      void vscode.window.showErrorMessage(`${vscode.workspace.asRelativePath(target)} is a file of the bundle, and the export never writes over the bundle it draws; choose another file.`);
      return undefined;
    }
    const bytes = new TextEncoder().encode(svg);
    await dependencies.write(target, bytes);
    void vscode.window.showInformationMessage(`Exported the blueprint graph to ${vscode.workspace.asRelativePath(target)}.`);
    return target;
  };

  return {
    open,
    exportPicture,
    async revealFromMenu(argument) {
      const found = fromMenu(argument);
      if (found !== undefined) await reveal(found.entry, found.key);
    },
    async openCardFromMenu(argument) {
      const found = fromMenu(argument);
      if (found !== undefined) await openCard(found.entry, found.key);
    },
    dispose() {
      for (const subscription of subscriptions) subscription.dispose();
      for (const entry of [...panels.values()]) entry.panel.dispose();
    },
  };
}

/** Shows a node's or edge's statement in the topology: selected, the cursor at its start. */
async function reveal(entry: Panel, key: string): Promise<void> {
  const picture = entry.shown?.picture;
  if (picture === undefined) return;
  const element = picture.nodes.find((n) => n.key === key) ?? picture.edges.find((e) => e.key === key);
  if (element === undefined) return;
  await showPlace(entry, element.place);
}

async function openCard(entry: Panel, key: string): Promise<void> {
  const node = entry.shown?.picture.nodes.find((n) => n.key === key);
  if (node === undefined) return;
  if (node.card.place === undefined) {
    void vscode.window.showInformationMessage(
      node.card.ref === undefined ? `Node ${node.id} pins no card yet; its statement is shown instead.` : `The bundle holds no card ${node.card.ref} for node ${node.id}; its statement is shown instead.`,
    );
    await showPlace(entry, node.place);
    return;
  }
  await showPlace(entry, node.card.place);
}

async function showPlace(entry: Panel, place: { readonly file: string; readonly line: number; readonly column: number; readonly endLine: number; readonly endColumn: number }): Promise<void> {
  const uri = vscode.Uri.joinPath(entry.location.root, ...place.file.split('/'));
  const start = new vscode.Position(place.line - 1, place.column - 1);
  const end = new vscode.Position(place.endLine - 1, place.endColumn - 1);
  const shown = vscode.window.visibleTextEditors.find((editor) => editor.document.uri.toString() === uri.toString());
  const column = shown?.viewColumn ?? (entry.panel.viewColumn === vscode.ViewColumn.One ? vscode.ViewColumn.Beside : vscode.ViewColumn.One);
  const editor = await vscode.window.showTextDocument(uri, { viewColumn: column, preview: false });
  // (the cursor at the start, so that the line it is on is the statement's first)
  editor.selection = new vscode.Selection(end, start);
  editor.revealRange(new vscode.Range(start, end), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}

function unreadableBanner(unreadable: readonly string[], kept: boolean): string {
  // (a reason ends with its own full stop: the sentence goes on after it without one)
  const first = unreadable[0]!.replace(/\.\s*$/, '');
  const more = unreadable.length > 1 ? ` (and ${unreadable.length - 1} more)` : '';
  return kept ? `The topology does not read as written: ${first}${more}. The picture shows the bundle as it last read.` : `The topology does not read as written: ${first}${more}. The picture shows what could be read.`;
}

/** A fresh nonce for the page's script: 18 random bytes in base64 (Web Crypto, in Node's extension host as in a browser's). */
function nonce(): string {
  return btoa(String.fromCharCode(...globalThis.crypto.getRandomValues(new Uint8Array(18))));
}

/** `uri`'s path below `root`, `/`-separated. */
function relativePath(root: vscode.Uri, uri: vscode.Uri): string {
  const prefix = root.path.endsWith('/') ? root.path : `${root.path}/`;
  return uri.path.startsWith(prefix) ? uri.path.slice(prefix.length) : uri.path;
}

async function guardedRun(run: () => Promise<unknown>): Promise<void> {
  try {
    await run();
  } catch (error) {
    void vscode.window.showErrorMessage(`DarkPrint: ${messageOf(error)}`);
  }
}
