/**
 * `DarkPrint: Show Bundle Report`: a webview with the bundle's analysis from `darkprint/report`:
 * the security level and its rationale, autonomy with both readings (staffing share and control
 * points), phase coverage, and the risk markers with links that reveal their nodes in the topology
 * (the page itself: ./report-html.ts). One panel per bundle, refreshed when the server republishes
 * that bundle's diagnostics.
 *
 * The page runs no script: node links are `command:` URIs limited to `darkprint.revealNode`, and
 * the link to the graph one to `darkprint.showGraph`.
 */
import * as vscode from 'vscode';
import { activeOrPickedBundle, basename, isInside, topologyOf, type BundleLocation } from './bundles';
import { readNodeLocation, type ReportAnswer } from './protocol';
import { messageOf } from './preview';
import { renderMessageHtml, renderReportHtml, revealNodeCommand, type RevealNodeArguments } from './report-html';
import { showGraphCommand } from './graph-html';

export { revealNodeCommand } from './report-html';

export interface ReportDependencies {
  readonly report: (anchor: vscode.Uri) => Promise<ReportAnswer>;
  readonly coalesceMs: number;
}

export interface ReportController extends vscode.Disposable {
  readonly open: (target?: vscode.Uri) => Promise<vscode.WebviewPanel | undefined>;
}

export function createReport(dependencies: ReportDependencies): ReportController {
  const panels = new Map<string, { panel: vscode.WebviewPanel; location: BundleLocation; timer?: ReturnType<typeof setTimeout> }>();

  const refresh = async (key: string): Promise<void> => {
    const entry = panels.get(key);
    if (entry === undefined) return;
    let html: string;
    try {
      html = renderReportHtml(await dependencies.report(entry.location.anchor), {
        bundle: entry.location.root.toString(),
        bundleName: basename(entry.location.root),
        cspSource: entry.panel.webview.cspSource,
      });
    } catch (error) {
      html = renderMessageHtml(`The language server did not answer: ${messageOf(error)}. Edit the bundle to try again.`, entry.panel.webview.cspSource);
    }
    if (panels.get(key) === entry) entry.panel.webview.html = html;
  };

  const diagnostics = vscode.languages.onDidChangeDiagnostics((event) => {
    for (const [key, entry] of panels) {
      if (!event.uris.some((uri) => isInside(entry.location.root, uri))) continue;
      if (entry.timer !== undefined) clearTimeout(entry.timer);
      entry.timer = setTimeout(() => {
        entry.timer = undefined;
        void refresh(key);
      }, dependencies.coalesceMs);
    }
  });

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
      'darkprint.report',
      `DarkPrint Report: ${basename(location.root)}`,
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      { enableScripts: false, enableCommandUris: [revealNodeCommand, showGraphCommand], localResourceRoots: [] },
    );
    const entry: { panel: vscode.WebviewPanel; location: BundleLocation; timer?: ReturnType<typeof setTimeout> } = { panel, location };
    panels.set(key, entry);
    panel.onDidDispose(() => {
      if (entry.timer !== undefined) clearTimeout(entry.timer);
      panels.delete(key);
    });
    panel.webview.html = renderMessageHtml('Asking the language server for the analysis…', panel.webview.cspSource);
    await refresh(key);
    return panel;
  };

  return {
    open,
    dispose() {
      diagnostics.dispose();
      for (const entry of panels.values()) entry.panel.dispose();
    },
  };
}

/** Opens the bundle's topology with the node's first appearance selected. */
export async function revealNode(argument: unknown): Promise<void> {
  const parsed = readRevealArguments(argument);
  if (parsed === undefined) return;
  if (parsed.location !== undefined) {
    const { start, end } = parsed.location.range;
    const range = new vscode.Range(start.line, start.character, end.line, end.character);
    await vscode.window.showTextDocument(vscode.Uri.parse(parsed.location.uri, true), { viewColumn: vscode.ViewColumn.One, preview: false, selection: range });
    return;
  }
  const topology = await topologyOf(vscode.Uri.parse(parsed.bundle, true));
  if (topology === undefined) {
    void vscode.window.showWarningMessage(`The bundle has no topology file, so node ${parsed.nodeId} cannot be shown.`);
    return;
  }
  const document = await vscode.workspace.openTextDocument(topology);
  const range = (await symbolRange(topology, parsed.nodeId)) ?? textRange(document, parsed.nodeId);
  const editor = await vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.One, preview: false });
  if (range === undefined) {
    void vscode.window.showWarningMessage(`Node ${parsed.nodeId} no longer appears in ${basename(topology)}.`);
    return;
  }
  editor.selection = new vscode.Selection(range.start, range.end);
  editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}

// ---- locating a node -----------------------------------------------------------------------

function readRevealArguments(argument: unknown): RevealNodeArguments | undefined {
  if (typeof argument !== 'object' || argument === null) return undefined;
  const record = new Map(Object.entries(argument as Record<string, unknown>));
  const bundle = record.get('bundle');
  const nodeId = record.get('nodeId');
  if (typeof bundle !== 'string' || typeof nodeId !== 'string') return undefined;
  const location = readNodeLocation(record.get('location'));
  return location === undefined ? { bundle, nodeId } : { bundle, nodeId, location };
}

/** The node's range from the server's document symbols (its first appearance). */
async function symbolRange(topology: vscode.Uri, nodeId: string): Promise<vscode.Range | undefined> {
  let symbols: unknown;
  try {
    symbols = await vscode.commands.executeCommand('vscode.executeDocumentSymbolProvider', topology);
  } catch {
    return undefined;
  }
  if (!Array.isArray(symbols)) return undefined;
  const queue: unknown[] = [...(symbols as unknown[])];
  while (queue.length > 0) {
    const symbol = queue.shift();
    if (typeof symbol !== 'object' || symbol === null) continue;
    // The command answers objects that are both SymbolInformation and DocumentSymbol, not instances of either class.
    const { name, selectionRange, children } = symbol as { name?: unknown; selectionRange?: unknown; children?: unknown };
    if (name === nodeId && selectionRange instanceof vscode.Range) return selectionRange;
    if (Array.isArray(children)) queue.push(...(children as unknown[]));
  }
  return undefined;
}

/** Fallback when no symbol answers: the first whole-token or quoted occurrence outside comments. */
function textRange(document: vscode.TextDocument, nodeId: string): vscode.Range | undefined {
  const escaped = nodeId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`(^|[^\\w"])(${escaped})(?![\\w])|"(${escaped})"`, 'm');
  for (let line = 0; line < document.lineCount; line += 1) {
    const text = document.lineAt(line).text;
    if (/^\s*(\/\/|#)/.test(text)) continue;
    const match = pattern.exec(text);
    if (match === null) continue;
    const start = match.index + (match[3] !== undefined ? 1 : (match[1] ?? '').length);
    return new vscode.Range(line, start, line, start + nodeId.length);
  }
  return undefined;
}
