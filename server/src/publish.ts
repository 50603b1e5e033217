/**
 * Pushing diagnostics. An edit schedules its bundle; after the quiet time (`debounceMs`) the
 * bundle's snapshot is brought up to date and the diagnostics of EVERY file of the bundle are
 * sent, open or not, each open document's with the version it was computed from. A file is
 * sent again only when its diagnostics or its version changed; a file that left the bundle
 * (deleted, renamed, or its bundle gone) is cleared.
 *
 * Superseded work is dropped rather than done: a new edit restarts the bundle's quiet time
 * and takes it out of the run queue; the queue runs one bundle per event-loop turn, so edits
 * that arrive meanwhile are read before the next bundle is computed; and a computation always
 * reads the latest inputs, so it is never older than the last edit it follows.
 *
 * Conversion is reused too: the LSP form of a finding whose inputs did not change, or that an
 * edit only moved, is taken over from the last publication, and a list of the same LSP objects
 * is seen unchanged at once (./publish-reuse.ts says what is reused and when). Each kept LSP
 * form also keeps its JSON (UTF-8 bytes), made when first sent: `send` receives, beside the
 * parameters, a function that gives them as JSON in pieces, those bytes between a head and a
 * tail (./publish-json.ts; ./wire.ts writes them on stream transports instead of serialising
 * the whole list again).
 *
 * Each part has its module, and this one wires them (`createPublisher`):
 * - ./publish-queue.ts: when a bundle is published (its quiet time, the run queue);
 * - ./publish-groups.ts: which file shows each finding (the user's policy applied);
 * - ./publish-reuse.ts: each finding's LSP form, reused from the last publication when it can be
 *   (`convertKept`, `movedConversion`);
 * - ./publish-send.ts: what is sent, and what the client shows after it; ./publish-json.ts: the bytes.
 * All of it is on the edit path (docs/architecture.md#the-edit-paths-speed-rules).
 */
import type { Diagnostic as LspDiagnostic } from 'vscode-languageserver';
import type { Diagnostic } from '../../shared/src';
import { snapshotOf, type BundleState, type Database, type Snapshot } from './database';
import type { ClientSupport, DocsLink } from './convert';
import type { Settings } from './settings';
import { createPublishQueue, type PublishQueue } from './publish-queue';
import { diagnosticsByFile } from './publish-groups';
import { convertBundle, convertOne, keptOf, type KeptConversions } from './publish-reuse';
import { createShown, forgetBundle, sendBundle, type Send, type Shown } from './publish-send';

export interface PublisherOptions {
  readonly db: Database;
  /**
   * Sends one publication. `json()` gives `JSON.stringify(params)` as UTF-8 bytes, in pieces to
   * be written one after the other, made from the kept JSON of each diagnostic (see ./wire.ts);
   * a caller may ignore it.
   */
  readonly send: Send;
  readonly settings: () => Settings;
  readonly support: () => ClientSupport;
  /** How codes link to their docs (`codeDescription`), if they do; the same function while the docs are the same. */
  readonly docsLink: () => DocsLink | undefined;
  readonly log: (message: string) => void;
  /** Runs a task on a later turn of the event loop (default `setImmediate`; a Web Worker has none). */
  readonly nextTurn?: (task: () => void) => void;
  /** Called after each publication of a bundle, with the snapshot published (see ./view-refresh.ts). */
  readonly published?: (snapshot: Snapshot) => void;
}

export interface Publisher {
  /** Recomputes and publishes the bundle after `delayMs` of quiet (0: on the next turn). */
  schedule(bundle: BundleState, delayMs: number): void;
  /** Publishes the bundle now (synchronously). */
  publish(bundle: BundleState): void;
  /** Drops the bundle's pending publication, if any (its caller schedules one when its inputs are ready). */
  cancel(root: string): void;
  /** Clears everything published for a bundle that no longer exists. */
  forget(root: string): void;
  /** Publishes every bundle again (after a settings change), one per event-loop turn. */
  republishAll(): void;
  /** The diagnostics of a snapshot (the engine's, and those about the disk read) after the user's policy, grouped by file. */
  diagnosticsByFile(snapshot: Snapshot): Map<string, Diagnostic[]>;
  /** Converts one engine diagnostic of a snapshot as it would be published. */
  convert(snapshot: Snapshot, file: string, d: Diagnostic): LspDiagnostic;
}

/** The parts of one publisher, passed to what publishes a bundle. */
interface PublisherParts {
  readonly options: PublisherOptions;
  readonly queue: PublishQueue;
  readonly shown: Shown;
  readonly kept: KeptConversions;
}

export function createPublisher(options: PublisherOptions): Publisher {
  const kept: KeptConversions = new Map();
  const shown = createShown();
  const queue = createPublishQueue((root) => {
    const bundle = options.db.bundles.get(root);
    if (bundle) publishGuarded(parts, bundle);
  }, options.nextTurn);
  const parts: PublisherParts = { options, queue, shown, kept };
  return {
    schedule: (bundle, delayMs) => queue.schedule(bundle.root, delayMs),
    publish: (bundle) => publishGuarded(parts, bundle),
    cancel: (root) => queue.cancel(root),
    forget(root) {
      queue.cancel(root);
      kept.delete(root);
      forgetBundle(shown, options.send, root);
    },
    republishAll() {
      for (const root of options.db.bundles.keys()) queue.enqueue(root);
    },
    diagnosticsByFile: (snapshot) => diagnosticsByFile(snapshot, options.settings()),
    convert: (snapshot, file, d) => convertOne(options, kept, snapshot, file, d),
  };
}

/** Publishes the bundle now; a failure is logged, not thrown. */
function publishGuarded(parts: PublisherParts, bundle: BundleState): void {
  try {
    publishBundle(parts, bundle);
  } catch (error) {
    parts.options.log(`darkprint: computing the diagnostics of ${bundle.root} failed: ${describe(error)}`);
  }
}

/** Drops the bundle's pending publication, brings its snapshot up to date, converts its findings and sends what changed. */
function publishBundle({ options, queue, shown, kept }: PublisherParts, bundle: BundleState): void {
  queue.cancel(bundle.root);
  const snapshot = snapshotOf(options.db, bundle);
  const groups = diagnosticsByFile(snapshot, options.settings());
  const current = convertBundle(snapshot, groups, keptOf(kept, bundle.root), shown.published, options);
  sendBundle(shown, options.send, bundle.root, current);
  options.published?.(snapshot);
}

export function describe(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}
