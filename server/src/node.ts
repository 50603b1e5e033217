/**
 * The language server's Node entry: `node server/out/server.js --stdio`, as the VS Code client
 * starts it (`--node-ipc` also works; `createConnection` reads the transport from argv, except
 * that on `--stdio` the server brings its own writer, which writes diagnostics from their kept
 * JSON: ./wire.ts). It reads the disk with `node:fs` (./workspace.ts) and tunes the heap on a
 * large workspace (./memory.ts); the server itself is ./server.ts.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createConnection, ProposedFeatures, StreamMessageWriter } from 'vscode-languageserver/node';
import { describe } from './publish';
import { startServer } from './server';
import { createPreparedTexts, preparedEncoder, routeConsole } from './wire';
import { heapPolicyApplies, startHeapPolicy } from './memory';
import { nodeFiles } from './workspace';

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
  const server = startServer(connection, { files: nodeFiles, docsUrl: findDocs(), readDocsPage, nextTurn: (task) => void setImmediate(task) }, prepared);
  // (its changes are debug lines: at the default log level the client's log does not show them)
  if (heapPolicyApplies(process.versions, [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)])) {
    startHeapPolicy({ log: server.debug });
  }
  connection.listen();
}

main();
