/**
 * The DarkPrint language server: a thin adapter between an LSP client and the engine.
 *
 *   server.ts    `startServer`: makes the parts below for a connection and wires them together
 *   node.ts      the Node entry (stdio or IPC); browser.ts the web entry (a Worker's messages)
 *   state.ts     what the parts share: the state (settings, client support, folders, phase, texts), who writes it
 *   lifecycle.ts initialize (capabilities), initialized, settings, workspace folders, watched files, shutdown
 *   documents.ts the open documents: didOpen, didChange, didClose
 *   bundles.ts   the workspace of bundles: the scan, finding an open document's bundle, reads after file events
 *   disk-queue.ts  disk work one task at a time, urgent tasks between a scan's steps
 *   scan-progress.ts  a scan's work-done progress
 *   request-context.ts  what a request handler is given: its file in a snapshot, once its bundle is known
 *   log.ts       the server's log, at `darkprint.logLevel`
 *   files.ts     THE seam to the file system: what is read from disk, and how files are named
 *   bundle-files.ts  bundle roots (docs/compatibility.md#bundle-roots) and reading bundle files, through that seam
 *   workspace.ts the seam from Node (the only `fs` user); client-files.ts from the client
 *   database.ts  the query database: per-file card reads and per-bundle snapshots, by revision
 *   publish.ts   pushing diagnostics for every file of a bundle, debounced, never stale
 *   publish-queue.ts, publish-groups.ts, publish-reuse.ts, publish-send.ts, publish-json.ts  its parts:
 *                the debounce queue, findings by file, reuse of each finding's LSP form, sending, the bytes
 *   view-refresh.ts  asking the client to show lenses, tokens and hints again when another file changed
 *   handlers.ts  one small guarded handler per LSP request, calling shared/src/ide
 *   requests.ts  the custom requests `darkprint/compiled`, `darkprint/report`, `darkprint/graph` and `darkprint/import`
 *   custom-requests.ts  those requests and `workspace/executeCommand`, guarded, on the connection
 *   convert.ts   THE conversion between engine/IDE values and LSP values
 *   client-support.ts  what a client can take, read from its capabilities
 *   settings.ts  `darkprint.*` settings
 *   memory.ts    how far the heap may grow between collections on a large workspace
 *
 * Architecture invariant: the server holds no language knowledge. Every rule, message, hover
 * text, completion and fix comes from the engine (shared/src); the server only finds files,
 * keeps them current, converts positions and types, and decides when to recompute. Nothing a
 * client or a file contains may stop the server: every handler is guarded, logs the exception
 * and answers empty.
 *
 * Knows no transport and no platform: an entry gives it a connection and a `ServerHost` (its
 * file access, where its docs page is, how it defers work), so the same server runs in Node
 * (./node.ts) and in a Web Worker (./browser.ts; docs/web.md).
 */
import type { Connection } from 'vscode-languageserver';
import { createBundles } from './bundles';
import { docsLinker, type DocsLink } from './convert';
import { registerCustomRequests } from './custom-requests';
import { createDatabase } from './database';
import { createDiskQueue } from './disk-queue';
import { registerDocuments } from './documents';
import type { FileAccess } from './files';
import { registerHandlers } from './handlers';
import { registerLifecycle } from './lifecycle';
import { createLogger } from './log';
import { createPublisher } from './publish';
import { createRequestContext } from './request-context';
import { createReadiness, createServerState, type ServerCore, type ServerState } from './state';
import { viewRefresher } from './view-refresh';
import type { PreparedTexts } from './wire';

/** What the platform gives the server (./node.ts, ./browser.ts). */
export interface ServerHost {
  /** THE way to the file system (./files.ts). */
  readonly files: FileAccess;
  /** The diagnostics page shipped with the server, when it has one: where codes link by default. */
  readonly docsUrl: string | undefined;
  /** The text of a diagnostics page at `url` when it can be read here (a `file:` URL), for its line anchors. */
  readonly readDocsPage: (url: string) => string | undefined;
  /** Runs `task` on a later turn of the event loop, after the messages already received. */
  readonly nextTurn: (task: () => void) => void;
}

/**
 * Serves `connection`. `prepared`, when the connection's writer reads it (./wire.ts), receives
 * the JSON of each diagnostics publication so that it is written without serialising the list.
 */
export function startServer(connection: Connection, host: ServerHost, prepared?: PreparedTexts): { readonly debug: (message: string) => void } {
  const files = host.files;
  const state = createServerState(host.docsUrl);
  const logger = createLogger(connection, () => state.settings.logLevel);
  const { log } = logger;
  const db = createDatabase((file) => files.uriOf(file), files.paths);
  const publisher = createPublisher({
    db,
    send: (params, json) => {
      prepared?.prepare(params, json);
      void connection.sendDiagnostics(params);
    },
    settings: () => state.settings,
    support: () => state.support,
    docsLink: docsLinkOf(host, state),
    log,
    nextTurn: host.nextTurn,
    // (code lenses, semantic tokens and inlay hints read other files: shown again when those change)
    published: viewRefresher(connection, () => state.capabilities, log),
  });
  const core: ServerCore = { connection, files, db, publisher, state, logger };

  // Disk work runs one task at a time, in order (./disk-queue.ts); the bundles of the workspace
  // are found and read through it (./bundles.ts).
  const disk = createDiskQueue(log);
  const bundles = createBundles(core, disk);
  // Requests wait until the settings are known, and the bundle they ask about (./request-context.ts).
  const readiness = createReadiness();
  const { context, settle } = createRequestContext(core, bundles, readiness);

  registerLifecycle(core, disk, bundles, readiness);
  registerDocuments(core, bundles);
  registerHandlers(context);
  registerCustomRequests(context, files, settle);
  return { debug: logger.debug };
}

/**
 * How codes link to their docs: the page `darkprint.docsUrl` names, else the default one (state.ts
 * `defaultDocsUrl`). The links of the page in use are made again when the page changes (see
 * `docsLinker`), so the function given is the same while the page is.
 */
function docsLinkOf(host: ServerHost, state: ServerState): () => DocsLink | undefined {
  let docsLinks: { readonly url: string; readonly link: DocsLink } | undefined;
  return () => {
    const url = state.settings.docsUrl ?? state.defaultDocsUrl;
    if (url === undefined) return undefined;
    if (docsLinks?.url !== url) docsLinks = { url, link: docsLinker(url, host.readDocsPage(url)) };
    return docsLinks.link;
  };
}
