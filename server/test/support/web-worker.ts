/**
 * The web build of the server (server/src/browser.ts) under test as a browser runs it: bundled
 * exactly as scripts/build.mjs bundles it (scripts/web-bundles.mjs), then run in a Node worker
 * thread inside a fresh `vm` context whose global scope holds only what a Web Worker's has
 * (`postMessage`, `onmessage`, `close`, `addEventListener`, `MessageChannel`, timers,
 * `TextEncoder`/`TextDecoder`, `URL`, `performance`, `WebAssembly`, `crypto`, `console`, `location`):
 * no `process`, `require`, `Buffer` or `setImmediate`, so a bundle that leans on Node fails here
 * as it would in a browser. Messages cross as a Worker's do (structured clone), and each one
 * reaches the server as a message event made inside its own context.
 *
 * The test client answers the server's file requests (shared/src/protocol/files.ts) from the disk,
 * with the answers VS Code's `workspace.fs` gives (a link's type is the target's type with the
 * `SymbolicLink` bit; a text decoded keeping its byte order mark), for the URIs `toPath` maps.
 */
import { mkdtempSync, promises as fs, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { build } from 'esbuild';
import { AbstractMessageReader, AbstractMessageWriter, createProtocolConnection, type DataCallback, type Disposable, type Message, type ProtocolConnection } from 'vscode-languageserver-protocol/node';
import { webBuilds } from '../../../scripts/web-bundles.mjs';
import { fileTypeBits, readDirectoryRequest, readFileRequest, statRequest, type DirectoryAnswer, type ReadFileAnswer, type StatAnswer } from '../../../shared/src/protocol/files';

export const repoRoot = path.resolve(__dirname, '../../..');

let freshBuild: Promise<string> | undefined;

/** Bundles server/src/browser.ts with the web build's own options, into a temporary folder, once per test run. */
export function builtWebServer(): Promise<string> {
  freshBuild ??= (async () => {
    const options = webBuilds.find((b) => b.entryPoints[0] === 'server/src/browser.ts');
    if (options === undefined) throw new Error('scripts/web-bundles.mjs builds no server/src/browser.ts');
    const folder = mkdtempSync(path.join(tmpdir(), 'darkprint-web-server-'));
    process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
    const outfile = path.join(folder, 'browser.js');
    await build({ ...options, entryPoints: [path.join(repoRoot, 'server/src/browser.ts')], outfile, absWorkingDir: repoRoot });
    return outfile;
  })();
  return freshBuild;
}

/**
 * Runs in the worker thread: builds the Worker-like global scope, loads the bundle into it, and
 * carries messages both ways. `close()` ends the thread (exit code 0), as `self.close()` ends a Worker.
 */
const workerShim = `
const { parentPort, workerData } = require('node:worker_threads');
const vm = require('node:vm');
const { readFileSync } = require('node:fs');
const listeners = new Map();
const fire = (type, event) => { for (const listener of listeners.get(type) ?? []) listener(event); };
const scope = {
  postMessage: (message) => parentPort.postMessage(message),
  close: () => process.exit(0),
  addEventListener: (type, listener) => listeners.set(type, [...(listeners.get(type) ?? []), listener]),
  removeEventListener: (type, listener) => listeners.set(type, (listeners.get(type) ?? []).filter((l) => l !== listener)),
  onmessage: null,
  location: { href: workerData.location },
  MessageChannel, setTimeout, clearTimeout, setInterval, clearInterval, queueMicrotask,
  TextEncoder, TextDecoder, URL, performance, WebAssembly, crypto: globalThis.crypto, console, atob, btoa,
};
const context = vm.createContext(scope);
vm.runInContext('self = globalThis;', context);
const deliver = vm.runInContext('(json) => { if (typeof self.onmessage === "function") self.onmessage({ data: JSON.parse(json) }); }', context);
parentPort.on('message', (data) => deliver(JSON.stringify(data)));
process.on('uncaughtException', (error) => fire('error', { error }));
process.on('unhandledRejection', (reason) => fire('unhandledrejection', { reason }));
vm.runInContext(readFileSync(workerData.bundle, 'utf8'), context, { filename: workerData.bundle });
`;

export interface WebServer {
  readonly connection: ProtocolConnection;
  /** The thread's exit code: 0 once the server closed itself after `exit`. */
  readonly exited: Promise<number | null>;
  /** What the thread wrote to its console. */
  readonly output: () => string;
  terminate(): Promise<void>;
}

/** Starts the web server bundle in a Worker-like thread; `toPath` maps the URIs its file requests name to disk paths. */
export async function startWebServer(toPath: (uri: string) => string | undefined, location = 'https://extension.invalid/server/out/browser.js'): Promise<WebServer> {
  const bundle = await builtWebServer();
  const worker = new Worker(workerShim, { eval: true, workerData: { bundle, location }, stdout: true, stderr: true });
  // (the thread ends with the server's own `close()` after `exit`; one a failed test leaves running does not hold the run open)
  worker.unref();
  let output = '';
  worker.stdout.setEncoding('utf8');
  worker.stderr.setEncoding('utf8');
  worker.stdout.on('data', (chunk: string) => (output += chunk));
  worker.stderr.on('data', (chunk: string) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => {
    worker.once('exit', (code) => resolve(code));
    worker.once('error', (error) => {
      output += `\n${error.stack ?? String(error)}`;
    });
  });
  const connection = createProtocolConnection(new WorkerReader(worker), new WorkerWriter(worker));
  answerFileRequests(connection, toPath);
  return {
    connection,
    exited,
    output: () => output,
    terminate: async () => {
      await worker.terminate();
    },
  };
}

class WorkerReader extends AbstractMessageReader {
  constructor(private readonly worker: Worker) {
    super();
    worker.on('error', (error) => this.fireError(error));
    worker.on('exit', () => this.fireClose());
  }

  listen(callback: DataCallback): Disposable {
    const listener = (message: Message): void => callback(message);
    this.worker.on('message', listener);
    return { dispose: () => void this.worker.off('message', listener) };
  }
}

class WorkerWriter extends AbstractMessageWriter {
  constructor(private readonly worker: Worker) {
    super();
  }

  write(message: Message): Promise<void> {
    this.worker.postMessage(message);
    return Promise.resolve();
  }

  end(): void {}
}

/** Answers the server's file requests from the disk, as VS Code's `workspace.fs` would (see the header). */
function answerFileRequests(connection: ProtocolConnection, toPath: (uri: string) => string | undefined): void {
  const pathOf = (params: unknown): string | undefined => {
    const uri: unknown = typeof params === 'object' && params !== null ? (params as { uri?: unknown }).uri : undefined;
    return typeof uri === 'string' ? toPath(uri) : undefined;
  };
  const typeOf = async (file: string): Promise<number> => {
    const linked = (await fs.lstat(file)).isSymbolicLink() ? fileTypeBits.symbolicLink : 0;
    try {
      const stat = await fs.stat(file);
      return linked | (stat.isDirectory() ? fileTypeBits.directory : stat.isFile() ? fileTypeBits.file : 0);
    } catch {
      return linked;
    }
  };
  connection.onRequest(readDirectoryRequest, async (params: unknown): Promise<DirectoryAnswer> => {
    const dir = pathOf(params);
    if (dir === undefined) return null;
    try {
      const names = await fs.readdir(dir);
      return await Promise.all(names.map(async (name) => [name, await typeOf(path.join(dir, name))] as const));
    } catch {
      return null;
    }
  });
  connection.onRequest(statRequest, async (params: unknown): Promise<StatAnswer> => {
    const file = pathOf(params);
    if (file === undefined) return null;
    try {
      const stat = await fs.stat(file);
      return { type: await typeOf(file), size: stat.size };
    } catch {
      return null;
    }
  });
  connection.onRequest(readFileRequest, async (params: unknown): Promise<ReadFileAnswer> => {
    const file = pathOf(params);
    const maxBytes: unknown = typeof params === 'object' && params !== null ? (params as { maxBytes?: unknown }).maxBytes : undefined;
    if (file === undefined || typeof maxBytes !== 'number') return null;
    try {
      if ((await fs.stat(file)).size > maxBytes) return { tooLarge: true };
      const bytes = await fs.readFile(file);
      return bytes.length > maxBytes ? { tooLarge: true } : { text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes) };
    } catch {
      return null;
    }
  });
}
