/**
 * A small LSP client for protocol tests: starts the server as a child process over stdio (or
 * its web build in a Worker-like thread, reading the workspace through this client: ./web-worker.ts),
 * speaks LSP with vscode-languageserver-protocol, answers the server's requests
 * (configuration, registrations), keeps the latest diagnostics per URI and every log message,
 * and lets a test wait for a state by protocol events (never by sleeping).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import {
  createProtocolConnection,
  ErrorCodes,
  ResponseError,
  StreamMessageReader,
  StreamMessageWriter,
  type ClientCapabilities,
  type Diagnostic,
  type FileChangeType,
  type InitializeResult,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
  type TextDocumentContentChangeEvent,
} from 'vscode-languageserver-protocol/node';
import { startWebServer } from './web-worker';

export const repoRoot = path.resolve(__dirname, '../../..');
/** The real bundled entry, as `npm run build` writes it. */
export const bundledEntry = path.join(repoRoot, 'server/out/server.js');

let freshBuild: Promise<string> | undefined;

/**
 * Bundles the server's Node entry (server/src/node.ts) exactly as scripts/build.mjs does, into a temporary folder, once
 * per test run: the tests exercise the current sources through the same bundling as the
 * shipped entry (one test also starts the shipped entry itself).
 */
export function builtServer(): Promise<string> {
  freshBuild ??= (async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'darkprint-server-'));
    process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
    const outfile = path.join(folder, 'server.js');
    await build({
      entryPoints: [path.join(repoRoot, 'server/src/node.ts')],
      outfile,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      sourcemap: true,
      logLevel: 'warning',
    });
    return outfile;
  })();
  return freshBuild;
}

export const testCapabilities: ClientCapabilities = {
  workspace: {
    configuration: true,
    workspaceFolders: true,
    didChangeWatchedFiles: { dynamicRegistration: true },
    didChangeConfiguration: { dynamicRegistration: true },
    workspaceEdit: { documentChanges: true, resourceOperations: ['create', 'rename', 'delete'] },
    applyEdit: true,
  },
  textDocument: {
    synchronization: { dynamicRegistration: false },
    publishDiagnostics: { relatedInformation: true, versionSupport: true, codeDescriptionSupport: true, tagSupport: { valueSet: [1, 2] } },
    codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'source.fixAll'] } }, isPreferredSupport: true },
    hover: { contentFormat: ['markdown', 'plaintext'] },
    completion: { completionItem: { documentationFormat: ['markdown', 'plaintext'] } },
    documentSymbol: { hierarchicalDocumentSymbolSupport: true },
    rename: { prepareSupport: true },
  },
};

export interface SessionOptions {
  /** The workspace folders (absolute paths). */
  readonly folders: readonly string[];
  /** The `darkprint` section the client reports (changeable later with `setSettings`). */
  readonly settings?: Record<string, unknown>;
  /** Sent as `initializationOptions`. */
  readonly initializationOptions?: unknown;
  readonly capabilities?: ClientCapabilities;
  /** The server entry (default: the fresh test build). */
  readonly entry?: string;
  /** Relative file names given to the session are relative to this folder (default: the first workspace folder). */
  readonly base?: string;
  /** How the client answers `window/workDoneProgress/create` (default: it takes the token). */
  readonly progressTokens?: 'take' | 'refuse';
  /**
   * Which build of the server answers: `node` (the Node entry over stdio) or `web` (server/src/browser.ts
   * in a Worker-like thread, reading the disk through this client's answers to its file requests).
   * Default: `web` when DARKPRINT_TEST_SERVER=web (`npm run test:web` runs the Node server's
   * data-driven protocol tests so), else `node`.
   */
  readonly server?: 'node' | 'web';
  /** How files are named by URI (default `file:` URIs); a web session may use another scheme. */
  readonly naming?: Naming;
}

/** How a session names a disk path by URI, and back. */
export interface Naming {
  uri(file: string): string;
  /** The disk path a URI names, or undefined for one it does not name. */
  path(uri: string): string | undefined;
}

export const fileNaming: Naming = {
  uri: (file) => pathToFileURL(file).href,
  path: (uri) => {
    if (!uri.startsWith('file:')) return undefined;
    try {
      return fileURLToPath(uri);
    } catch {
      return undefined;
    }
  },
};

/** A `$/progress` notification as received. */
export interface ProgressEvent {
  readonly token: string | number;
  readonly value: { readonly kind: 'begin' | 'report' | 'end'; readonly title?: string; readonly message?: string; readonly percentage?: number };
}

export interface LogMessage {
  readonly type: number;
  readonly message: string;
}

export interface Session {
  readonly connection: ProtocolConnection;
  /** The server's process (none for the web build, which runs in a thread of this one). */
  readonly process: ChildProcess | undefined;
  readonly initializeResult: InitializeResult;
  /** Latest diagnostics per URI (what an editor would show). */
  readonly diagnostics: Map<string, PublishDiagnosticsParams>;
  /** Every publication, in arrival order. */
  readonly publications: PublishDiagnosticsParams[];
  readonly logs: LogMessage[];
  readonly registrations: { method: string; registerOptions?: unknown }[];
  /** The tokens the server asked to create with `window/workDoneProgress/create`, in order. */
  readonly progressTokens: (string | number)[];
  /** Every `$/progress` notification, in arrival order. */
  readonly progress: ProgressEvent[];
  /** Versions of the documents this client has open, by URI. */
  readonly versions: Map<string, number>;
  readonly texts: Map<string, string>;
  uri(file: string): string;
  open(file: string, text: string, languageId?: string): void;
  /** Replaces the whole text (one full-content change). */
  change(file: string, text: string): number;
  /** Applies incremental changes and records the new text computed by `apply`. */
  changeIncremental(file: string, changes: TextDocumentContentChangeEvent[], newText: string): number;
  close(file: string): void;
  fileEvents(events: { file: string; type: FileChangeType }[]): void;
  setSettings(settings: Record<string, unknown>): void;
  request<R>(method: string, params: unknown): Promise<R>;
  /** Resolves once `predicate` holds, checked now and after every publication or progress event; rejects with `describe()` after `limitMs` or if the server exits. */
  until(predicate: () => boolean, describe: () => string, limitMs?: number): Promise<void>;
  /** Resolves with the publication for `file` that carries `version`. */
  versionPublished(file: string, version: number, limitMs?: number): Promise<PublishDiagnosticsParams>;
  shutdown(): Promise<number | null>;
  readonly exited: Promise<number | null>;
}

/** The server started and connected: over stdio, or in a Worker-like thread. */
interface Started {
  readonly connection: ProtocolConnection;
  readonly exited: Promise<number | null>;
  readonly child: ChildProcess | undefined;
  /** What the server wrote to stderr (its thread's console, for the web build). */
  readonly stderr: () => string;
}

async function startNodeServer(options: SessionOptions): Promise<Started> {
  const entry = options.entry ?? (await builtServer());
  // DARKPRINT_SERVER_NODE_ARGS passes flags to the server's node (e.g. `--cpu-prof` to profile it).
  const nodeArgs = (process.env.DARKPRINT_SERVER_NODE_ARGS ?? '').split(' ').filter((a) => a !== '');
  const child = spawn(process.execPath, [...nodeArgs, entry, '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    stderr += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  return { connection, exited, child, stderr: () => stderr };
}

async function startWebServerSession(naming: Naming): Promise<Started> {
  const web = await startWebServer((uri) => naming.path(uri));
  return { connection: web.connection, exited: web.exited, child: undefined, stderr: web.output };
}

export async function startSession(options: SessionOptions): Promise<Session> {
  const naming = options.naming ?? fileNaming;
  // (a session given an entry starts that Node entry)
  const server = options.server ?? (options.entry === undefined && process.env.DARKPRINT_TEST_SERVER === 'web' ? 'web' : 'node');
  const { connection, exited, child, stderr } = server === 'web' ? await startWebServerSession(naming) : await startNodeServer(options);
  let alive = true;
  void exited.then(() => {
    alive = false;
    wake();
  });
  const diagnostics = new Map<string, PublishDiagnosticsParams>();
  const publications: PublishDiagnosticsParams[] = [];
  const logs: LogMessage[] = [];
  const registrations: { method: string; registerOptions?: unknown }[] = [];
  const progressTokens: (string | number)[] = [];
  const progress: ProgressEvent[] = [];
  const versions = new Map<string, number>();
  const texts = new Map<string, string>();
  let settings: Record<string, unknown> = options.settings ?? {};
  const waiters = new Set<() => void>();
  const wake = (): void => {
    for (const w of [...waiters]) w();
  };

  connection.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) => {
    diagnostics.set(params.uri, params);
    publications.push(params);
    wake();
  });
  connection.onNotification('window/logMessage', (params: LogMessage) => {
    logs.push(params);
  });
  connection.onRequest('workspace/configuration', (params: { items: { section?: string }[] }) =>
    params.items.map((item) => (item.section === 'darkprint' || item.section === undefined ? settings : null)),
  );
  connection.onRequest('client/registerCapability', (params: { registrations: { method: string; registerOptions?: unknown }[] }) => {
    registrations.push(...params.registrations);
    return null;
  });
  connection.onRequest('window/workDoneProgress/create', (params: { token: string | number }) => {
    progressTokens.push(params.token);
    wake();
    return options.progressTokens === 'refuse' ? new ResponseError(ErrorCodes.InternalError, 'This client shows no progress.') : null;
  });
  connection.onNotification('$/progress', (params: ProgressEvent) => {
    progress.push(params);
    wake();
  });
  connection.listen();

  const rootUri = options.folders.length > 0 ? naming.uri(options.folders[0]) : null;
  const initializeResult = (await connection.sendRequest('initialize', {
    processId: process.pid,
    rootUri,
    capabilities: options.capabilities ?? testCapabilities,
    workspaceFolders: options.folders.map((f) => ({ uri: naming.uri(f), name: path.basename(f) })),
    ...(options.initializationOptions !== undefined ? { initializationOptions: options.initializationOptions } : {}),
  })) as InitializeResult;
  await connection.sendNotification('initialized', {});

  const base = options.base ?? options.folders[0] ?? repoRoot;
  const uri = (file: string): string => naming.uri(path.isAbsolute(file) ? file : path.join(base, file));

  const session: Session = {
    connection,
    process: child,
    initializeResult,
    diagnostics,
    publications,
    logs,
    registrations,
    progressTokens,
    progress,
    versions,
    texts,
    uri,
    open(file, text, languageId) {
      const u = uri(file);
      versions.set(u, 1);
      texts.set(u, text);
      void connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri: u, languageId: languageId ?? (/\.(dot|gv)$/i.test(file) ? 'dot' : 'yaml'), version: 1, text },
      });
    },
    change(file, text) {
      const u = uri(file);
      const version = (versions.get(u) ?? 0) + 1;
      versions.set(u, version);
      texts.set(u, text);
      void connection.sendNotification('textDocument/didChange', { textDocument: { uri: u, version }, contentChanges: [{ text }] });
      return version;
    },
    changeIncremental(file, changes, newText) {
      const u = uri(file);
      const version = (versions.get(u) ?? 0) + 1;
      versions.set(u, version);
      texts.set(u, newText);
      void connection.sendNotification('textDocument/didChange', { textDocument: { uri: u, version }, contentChanges: changes });
      return version;
    },
    close(file) {
      const u = uri(file);
      versions.delete(u);
      texts.delete(u);
      void connection.sendNotification('textDocument/didClose', { textDocument: { uri: u } });
    },
    fileEvents(events) {
      void connection.sendNotification('workspace/didChangeWatchedFiles', { changes: events.map((e) => ({ uri: uri(e.file), type: e.type })) });
    },
    setSettings(next) {
      settings = next;
      void connection.sendNotification('workspace/didChangeConfiguration', { settings: { darkprint: next } });
    },
    request<R>(method: string, params: unknown): Promise<R> {
      return connection.sendRequest(method, params) as Promise<R>;
    },
    until(predicate, describe, limitMs = 20_000) {
      return new Promise<void>((resolve, reject) => {
        const check = (): void => {
          let ok = false;
          try {
            ok = predicate();
          } catch (error) {
            done();
            reject(error instanceof Error ? error : new Error(String(error)));
            return;
          }
          if (ok) {
            done();
            resolve();
          } else if (!alive) {
            done();
            reject(new Error(`the server exited before the expected state was reached.\n${describe()}\nstderr:\n${stderr()}`));
          }
        };
        // A failure detector, not a timing assertion: a server that never reaches the state fails here with the state it did reach.
        const timer = setTimeout(() => {
          done();
          reject(new Error(`the expected state was not reached.\n${describe()}`));
        }, limitMs);
        const done = (): void => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    async versionPublished(file, version, limitMs) {
      const u = uri(file);
      let found: PublishDiagnosticsParams | undefined;
      await session.until(
        () => {
          const latest = diagnostics.get(u);
          if (latest && latest.version !== undefined && latest.version >= version) found = latest;
          return found !== undefined;
        },
        () => `waiting for diagnostics of ${file} at version ${version}; latest: ${JSON.stringify(diagnostics.get(u))}`,
        limitMs,
      );
      return found!;
    },
    async shutdown() {
      if (alive) {
        try {
          await connection.sendRequest('shutdown');
          await connection.sendNotification('exit');
        } catch {
          // the server is already gone; its exit code tells
        }
      }
      const code = await exited;
      connection.dispose();
      return code;
    },
    exited,
  };
  return session;
}

/** The diagnostics an editor shows for a URI (empty when none were published). */
export function shown(session: Session, uri: string): Diagnostic[] {
  return session.diagnostics.get(uri)?.diagnostics ?? [];
}

/** Log messages of type Error (1): what the server's guards caught. */
export function errorLogs(session: Session): string[] {
  return session.logs.filter((l) => l.type === 1).map((l) => l.message);
}
