/**
 * What a request handler is given (handlers.ts `ServerContext`): above all, the request's file in
 * an up-to-date snapshot of its bundle, once that bundle is known (`settle`).
 */
import { isBundleFile } from './bundle-files';
import type { WorkspaceBundles } from './bundles';
import { ownerOf, snapshotOf, textSnapshotOf } from './database';
import type { FileAt, ServerContext } from './handlers';
import type { Readiness, ServerCore } from './state';

export interface RequestContext {
  readonly context: ServerContext;
  /** Waits until the bundle that holds `file` is known (see `settleFor`). */
  readonly settle: (file: string) => Promise<void>;
}

export function createRequestContext(core: ServerCore, bundles: WorkspaceBundles, readiness: Readiness): RequestContext {
  const { connection, db, publisher, state, logger, files } = core;
  const settle = (file: string): Promise<void> => settleFor(core, bundles, readiness, file);
  const fileOf = async (uri: string, texts?: 'texts'): Promise<FileAt | undefined> => {
    const file = files.pathOf(uri);
    if (file === undefined) return undefined;
    await settle(file);
    const owner = ownerOf(db, file);
    if (!owner || !isBundleFile(owner.relative)) return undefined;
    const snapshot = texts === 'texts' ? textSnapshotOf(db, owner.bundle) : snapshotOf(db, owner.bundle);
    const text = snapshot.files.get(owner.relative)?.text;
    if (text === undefined) return undefined;
    return { snapshot, file: owner.relative, index: snapshot.lineIndex(owner.relative), text };
  };
  const context: ServerContext = {
    connection,
    db,
    publisher,
    support: () => state.support,
    settings: () => state.settings,
    fileOf,
    workspaceSnapshots: async () => {
      await readiness.settingsKnown;
      await readiness.scanned;
      return [...db.bundles.values()].map((bundle) => textSnapshotOf(db, bundle));
    },
    log: logger.log,
    lifecycle: () => state.phase,
  };
  return { context, settle };
}

/**
 * Waits until the bundle that holds `file` is known: for a file a bundle reads, only until that
 * bundle is (an open document's bundle is found and read at once, a scan running meanwhile
 * letting that go first); for any other, until the initial scan is done.
 */
async function settleFor(core: ServerCore, bundles: WorkspaceBundles, readiness: Readiness, file: string): Promise<void> {
  await readiness.settingsKnown;
  await bundles.discovering(file);
  const owner = ownerOf(core.db, file);
  if (owner && isBundleFile(owner.relative)) return;
  await readiness.scanned;
  await bundles.discovering(file);
}
