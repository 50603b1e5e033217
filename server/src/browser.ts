/**
 * The language server's web entry, `server/out/browser.js`: the same server (./server.ts) in a
 * Web Worker, speaking LSP through the Worker's messages, as vscode.dev, github.dev and
 * code-server's web worker extension host run it (the client starts it: client/src/browser.ts).
 * It has no file system: it reads the workspace through its client (./client-files.ts), and
 * learns of changes from the client's file watcher. See docs/web.md.
 *
 * Needs of its global scope only what a Worker has: `postMessage` and `onmessage`, `close`,
 * `MessageChannel`, timers, `location`, `TextEncoder`/`TextDecoder`, `performance`. No Node
 * module may reach this bundle (scripts/build.mjs checks).
 */
import { BrowserMessageReader, BrowserMessageWriter, createConnection, ProposedFeatures } from 'vscode-languageserver/browser';
import { clientFiles } from './client-files';
import { describe } from './publish';
import { startServer } from './server';

/** What this entry uses of the Worker's global scope (typed here: the server is compiled without the DOM's types). */
interface WorkerScope {
  readonly location?: { readonly href: string };
  close(): void;
  addEventListener(type: 'error' | 'unhandledrejection', listener: (event: { readonly error?: unknown; readonly reason?: unknown; readonly message?: unknown }) => void): void;
}

type Port = ConstructorParameters<typeof BrowserMessageReader>[0];

const scope = globalThis as unknown as WorkerScope;

/**
 * The diagnostics page shipped beside the server, when the Worker was loaded from a location the
 * page can be found from (`server/out/browser.js` in the extension: `docs/diagnostics.md` two
 * folders up); undefined for a Worker made from a `blob:` or `data:` URL.
 */
export function docsBeside(location: string | undefined): string | undefined {
  if (location === undefined || !/^(https?|file|vscode-[a-z-]+):/i.test(location)) return undefined;
  try {
    return new URL('../../docs/diagnostics.md', location).href;
  } catch {
    return undefined;
  }
}

/** Runs tasks on later turns of the event loop, after the messages already received (a Worker has no `setImmediate`). */
function createNextTurn(): (task: () => void) => void {
  const channel = new MessageChannel();
  const tasks: (() => void)[] = [];
  // (`onmessage`, which starts the port, as a Worker's `MessagePort` has it; Node's typings name only its events)
  (channel.port1 as unknown as { onmessage: (() => void) | null }).onmessage = () => tasks.shift()?.();
  return (task) => {
    tasks.push(task);
    channel.port2.postMessage(undefined);
  };
}

function main(): void {
  const port = scope as unknown as Port;
  const connection = createConnection(ProposedFeatures.all, new BrowserMessageReader(port), new BrowserMessageWriter(port));
  const report = (kind: string) => (event: { readonly error?: unknown; readonly reason?: unknown; readonly message?: unknown }): void => {
    try {
      connection.console.error(`darkprint: ${kind}: ${describe(event.error ?? event.reason ?? event.message)}`);
    } catch {
      // the connection is gone: nothing left to tell
    }
  };
  scope.addEventListener('error', report('uncaught exception'));
  scope.addEventListener('unhandledrejection', report('unhandled rejection'));
  startServer(connection, {
    files: clientFiles(connection),
    docsUrl: docsBeside(scope.location?.href),
    // (line anchors are for a page on this machine; a page on the web is linked by heading)
    readDocsPage: () => undefined,
    nextTurn: createNextTurn(),
  });
  // (the client ends the Worker after `exit` too; ending it here frees it as soon as it may go)
  connection.onExit(() => scope.close());
  connection.listen();
}

main();
