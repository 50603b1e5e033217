/**
 * What the parts of the server share: the state several of them read (`ServerState`), the two
 * moments requests wait for (`Readiness`), and what every part is given (`ServerCore`).
 * ./server.ts makes one of each per connection and hands them to the parts; each field of the
 * state says which part writes it, and no other part does.
 */
import type { ClientCapabilities, Connection } from 'vscode-languageserver';
import { clientSupport } from './client-support';
import type { ClientSupport } from './convert';
import type { Database } from './database';
import type { FileAccess } from './files';
import type { Lifecycle } from './handlers';
import type { Logger } from './log';
import type { Publisher } from './publish';
import { defaultSettings, type Settings } from './settings';

export interface ServerState {
  /** The protocol's lifecycle (see handlers.ts `lifecycleError`): notifications are taken only while running. Written by ./lifecycle.ts. */
  phase: Lifecycle;
  /** What the client declared in `initialize` (./lifecycle.ts). */
  capabilities: ClientCapabilities;
  /** What the client can take, read from `capabilities` (./lifecycle.ts). */
  support: ClientSupport;
  /** The `darkprint.*` settings in force (./lifecycle.ts reads them). */
  settings: Settings;
  /** The workspace folders, as paths (./lifecycle.ts: `initialize`, then each change of the folders). */
  folders: string[];
  /** Open documents by the client's URI (any scheme), as the client last sent them (./documents.ts). */
  readonly texts: Map<string, { version: number; text: string }>;
  /** The docs page codes link to by default: the one beside the server, else the one the client names (see lifecycle.ts `docsPageOf`). */
  defaultDocsUrl: string | undefined;
}

/** The state before `initialize`; `docsUrl` is the docs page beside the server, if any. */
export function createServerState(docsUrl: string | undefined): ServerState {
  return {
    phase: 'waiting',
    capabilities: {},
    // (what a client that declared nothing can take, until `initialize` says more)
    support: clientSupport({}),
    settings: defaultSettings,
    folders: [],
    texts: new Map(),
    defaultDocsUrl: docsUrl,
  };
}

/** The moments requests wait for; ./lifecycle.ts marks them, once each. */
export interface Readiness {
  /** The client's settings are known (requests wait for this: see request-context.ts `settle`). */
  readonly settingsKnown: Promise<void>;
  /** The initial scan of the workspace is done. */
  readonly scanned: Promise<void>;
  markSettingsKnown(): void;
  markScanned(): void;
}

export function createReadiness(): Readiness {
  let markSettingsKnown: () => void = () => undefined;
  const settingsKnown = new Promise<void>((resolve) => (markSettingsKnown = resolve));
  let markScanned: () => void = () => undefined;
  const scanned = new Promise<void>((resolve) => (markScanned = resolve));
  return { settingsKnown, scanned, markSettingsKnown: () => markSettingsKnown(), markScanned: () => markScanned() };
}

/** What every part of the server is given. */
export interface ServerCore {
  readonly connection: Connection;
  /** THE way to the file system (./files.ts). */
  readonly files: FileAccess;
  readonly db: Database;
  readonly publisher: Publisher;
  readonly state: ServerState;
  readonly logger: Logger;
}
