/**
 * The extension's desktop entry, `client/out/extension.js` (the manifest's `main`): the language
 * server in a Node process (`server/out/server.js`, over stdio), exports written atomically with
 * Node's `fs` (./atomic-write.ts), the graph's layout on a worker thread (./graph-layout.ts).
 * Everything else is ./extension.ts, shared with the web entry (./browser.ts).
 */
import * as path from 'path';
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type ServerOptions } from 'vscode-languageclient/node';
import { writeFileAtomically } from './atomic-write';
import { activateWith, deactivate, type DarkPrintApi } from './extension';
import { createLayout } from './graph-layout';

export { deactivate };

export function activate(context: vscode.ExtensionContext): DarkPrintApi {
  const serverModule = context.asAbsolutePath(path.join('server', 'out', 'server.js'));
  // stdio, as for any other client: on it the server writes diagnostics lists from their kept
  // JSON (server/src/wire.ts), where over ipc Node would serialise every list again.
  const serverOptions: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.stdio },
    debug: { module: serverModule, transport: TransportKind.stdio, options: { execArgv: ['--nolazy', '--inspect=6009'] } },
  };
  return activateWith(context, {
    schemes: ['file'],
    createClient: (options) => new LanguageClient('darkprint', 'DarkPrint Language Server', serverOptions, options),
    layout: createLayout(context.asAbsolutePath(path.join('client', 'out', 'graph-worker.js'))),
    write: async (target, bytes) => {
      if (target.scheme === 'file') await writeFileAtomically(target.fsPath, bytes);
      else await vscode.workspace.fs.writeFile(target, bytes);
    },
  });
}
