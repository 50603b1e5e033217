/**
 * The extension's web entry, `client/out/browser.js` (the manifest's `browser`), for vscode.dev,
 * github.dev and code-server's web worker extension host: the language server in a Web Worker
 * (`server/out/browser.js`), reading the workspace through this extension (./files.ts answers
 * its requests from `vscode.workspace.fs`); exports written with `vscode.workspace.fs`; the
 * graph's layout in a Web Worker (./graph-layout-web.ts). Everything else is ./extension.ts,
 * shared with the desktop entry (./desktop.ts). See docs/web.md.
 */
import * as vscode from 'vscode';
import { LanguageClient } from 'vscode-languageclient/browser';
import { activateWith, deactivate, type DarkPrintApi } from './extension';
import { answerFileRequests } from './files';
import { createWebLayout } from './graph-layout-web';

export { deactivate };

/** What the entry uses of the host's `Worker` (the client is compiled without the DOM's types). */
type WorkerConstructor = new (url: string) => ConstructorParameters<typeof LanguageClient>[3];

export async function activate(context: vscode.ExtensionContext): Promise<DarkPrintApi> {
  const WorkerClass = (globalThis as unknown as { Worker?: WorkerConstructor }).Worker;
  if (WorkerClass === undefined) throw new Error('this editor runs extensions where no Web Worker can be started, so the DarkPrint language server cannot run');
  const script = (...parts: string[]): vscode.Uri => vscode.Uri.joinPath(context.extensionUri, ...parts);
  const serverUrl = await workerUrl(script('server', 'out', 'browser.js'));
  // (the documents the server reads: those of the workspace folders' file systems, and local files)
  const schemes = [...new Set(['file', ...(vscode.workspace.workspaceFolders ?? []).map((folder) => folder.uri.scheme)])];
  return activateWith(context, {
    schemes,
    createClient: (options) => new LanguageClient('darkprint', 'DarkPrint Language Server', options, new WorkerClass(serverUrl)),
    beforeStart: answerFileRequests,
    layout: createWebLayout(() => workerUrl(script('client', 'out', 'graph-worker-web.js'))),
    // (as atomic as the file system's own write: see docs/web.md)
    write: async (target, bytes) => vscode.workspace.fs.writeFile(target, bytes),
    docsPage: script('docs', 'diagnostics.md').toString(),
  });
}

/**
 * A URL a Worker can start from: a script's own `http(s):` URL (vscode.dev serves extensions so),
 * else the `http(s):` URL the editor serves it at, else a `blob:` URL of its text read through the
 * editor's file system. code-server's web worker host refuses to start a Worker from a
 * `vscode-remote:` URL, the scheme of the extensions it installs, but serves the file over HTTP:
 * the browser then loads and compiles the script in the Worker itself, where reading its text
 * through the editor's file system first takes seconds on a busy machine (docs/web.md).
 */
async function workerUrl(uri: vscode.Uri): Promise<string> {
  if (uri.scheme === 'https' || uri.scheme === 'http') return uri.toString(true);
  const served = await servedUrl(uri);
  if (served !== undefined) return served;
  const bytes = await vscode.workspace.fs.readFile(uri);
  return URL.createObjectURL(new Blob([bytes], { type: 'text/javascript' }));
}

/**
 * The `http(s):` URL a web extension host serves a `vscode-remote:` file at, or undefined. VS
 * Code's web worker extension host rewrites a `fetch` of such a URI to the URL the browser reads
 * it from; the file's body is not read (code-server answers no `HEAD` request there). Only a URL
 * the host's scripts may load from is taken: one of its own origin, or `https:`.
 */
async function servedUrl(uri: vscode.Uri): Promise<string | undefined> {
  if (uri.scheme !== 'vscode-remote' || typeof fetch !== 'function') return undefined;
  try {
    const response = await fetch(uri.toString(true));
    void response.body?.cancel().catch(() => undefined);
    if (!response.ok) return undefined;
    const served = new URL(response.url);
    const origin = (globalThis as { origin?: unknown }).origin;
    return served.protocol === 'https:' || (served.protocol === 'http:' && served.origin === origin) ? served.href : undefined;
  } catch {
    return undefined;
  }
}
