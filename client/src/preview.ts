/**
 * `DarkPrint: Preview Compiled Attractor File`: a read-only virtual document beside the editor
 * holding what `darkprint/compiled` answers for the bundle, or why it cannot compile. It refreshes
 * when the server publishes diagnostics for a file of that bundle (the server has just rechecked
 * it) and when a document of the bundle changes.
 *
 * Preview URIs look like `darkprint-compiled:/<bundle folder>/<slug>.attractor.dot?<anchor uri>`:
 * the path names the tab, the query keeps the file the request is made for.
 */
import * as vscode from 'vscode';
import { activeOrPickedBundle, basename, isInside, isServed, parentOf, previewAnchor, previewScheme, slugOf, type BundleLocation } from './bundles';
import type { CompiledAnswer } from './protocol';

export { previewScheme };

export interface PreviewDependencies {
  readonly compile: (anchor: vscode.Uri) => Promise<CompiledAnswer>;
  /** How long to gather bursts of edits and diagnostics before asking the server again. */
  readonly coalesceMs: number;
}

export interface PreviewController extends vscode.Disposable {
  /** Opens (or reveals) the preview of the bundle holding `target` (default: the active editor's). */
  readonly open: (target?: vscode.Uri) => Promise<vscode.TextEditor | undefined>;
}

export function createPreview(dependencies: PreviewDependencies): PreviewController {
  const changed = new vscode.EventEmitter<vscode.Uri>();
  /** Open previews by URI string, with the bundle each shows. */
  const previews = new Map<string, BundleLocation>();
  const pending = new Map<string, ReturnType<typeof setTimeout>>();

  const provider: vscode.TextDocumentContentProvider = {
    onDidChange: changed.event,
    async provideTextDocumentContent(uri) {
      const anchor = previewAnchor(uri);
      if (anchor === undefined) return '// This preview lost track of its bundle: close it and run the command again.\n';
      try {
        return render(await dependencies.compile(anchor), basename(parentOf(uri)));
      } catch (error) {
        return `// The language server did not answer: ${messageOf(error)}\n// Check the "DarkPrint Language Server" output, then edit the bundle to refresh this preview.\n`;
      }
    },
  };

  const schedule = (key: string, uri: vscode.Uri): void => {
    const previous = pending.get(key);
    if (previous !== undefined) clearTimeout(previous);
    pending.set(
      key,
      setTimeout(() => {
        pending.delete(key);
        changed.fire(uri);
      }, dependencies.coalesceMs),
    );
  };

  const refreshFor = (uris: readonly vscode.Uri[]): void => {
    const open = new Set(vscode.workspace.textDocuments.map((document) => document.uri.toString()));
    for (const [key, location] of previews) {
      if (!open.has(key)) {
        previews.delete(key);
        continue;
      }
      if (uris.some((uri) => isServed(uri) && isInside(location.root, uri))) schedule(key, vscode.Uri.parse(key));
    }
  };

  const subscriptions: vscode.Disposable[] = [
    vscode.workspace.registerTextDocumentContentProvider(previewScheme, provider),
    changed,
    vscode.languages.onDidChangeDiagnostics((event) => refreshFor(event.uris)),
    vscode.workspace.onDidChangeTextDocument((event) => {
      if (event.contentChanges.length > 0) refreshFor([event.document.uri]);
    }),
    vscode.workspace.onDidSaveTextDocument((document) => refreshFor([document.uri])),
  ];

  const open = async (target?: vscode.Uri): Promise<vscode.TextEditor | undefined> => {
    // (run from a preview, the command shows that preview's bundle: see `activeOrPickedBundle`)
    const location = await activeOrPickedBundle(target);
    if (location === undefined) return undefined;
    const slug = await slugOf(location.root);
    const uri = vscode.Uri.joinPath(location.root, `${slug}.attractor.dot`).with({
      scheme: previewScheme,
      query: location.anchor.toString(),
    });
    // a preview of the same bundle under another name (its slug has changed since) gives way
    for (const [key, shown] of [...previews]) {
      if (key !== uri.toString() && shown.root.toString() === location.root.toString()) {
        previews.delete(key);
        await closeTabsOf(vscode.Uri.parse(key));
      }
    }
    let document = await vscode.workspace.openTextDocument(uri);
    if (document.languageId !== 'darkprint-topology') {
      document = await vscode.languages.setTextDocumentLanguage(document, 'darkprint-topology');
    }
    previews.set(uri.toString(), location);
    changed.fire(uri);
    return vscode.window.showTextDocument(document, { viewColumn: vscode.ViewColumn.Beside, preview: false, preserveFocus: true });
  };

  return {
    open,
    dispose() {
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
      for (const subscription of subscriptions) subscription.dispose();
    },
  };
}

/** Closes every tab that shows `uri`. */
async function closeTabsOf(uri: vscode.Uri): Promise<void> {
  const tabs = vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === uri.toString());
  if (tabs.length > 0) await vscode.window.tabGroups.close(tabs);
}

function render(answer: CompiledAnswer, bundleName: string): string {
  switch (answer.kind) {
    case 'compiled':
      return answer.text;
    case 'refused': {
      const lines = [
        `// The bundle in ${bundleName} does not compile to an Attractor pipeline yet, because:`,
        ...answer.reasons.map((reason) => `//   - ${reason.replace(/\r?\n/g, ' ')}`),
        '// Fix these in the bundle (the Problems panel lists them); this preview updates by itself.',
      ];
      if (answer.reasons.length === 0) lines.splice(1, 0, '//   - the language server gave no reason.');
      return `${lines.join('\n')}\n`;
    }
  }
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
