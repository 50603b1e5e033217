/**
 * The open documents: `textDocument/didOpen`, `didChange` and `didClose`. The server keeps the
 * open documents itself: incremental changes are applied with the engine's own line index (the
 * one diagnostics are converted with), so a position means the same offset on the way in and on
 * the way out.
 *
 * A notification with malformed parameters (./params.ts) is dropped whole and logged: the
 * document keeps its last good text and version, so the next well-formed change applies to them.
 */
import type { WorkspaceBundles } from './bundles';
import { applyChanges } from './convert';
import { ownerOf, setOpenDocument } from './database';
import { closedDocument, documentChange, documentUriOf, openedDocument } from './params';
import { describe } from './publish';
import type { ServerCore } from './state';

/** What the document handlers work with. */
interface Documents {
  readonly core: ServerCore;
  readonly bundles: WorkspaceBundles;
}

export function registerDocuments(core: ServerCore, bundles: WorkspaceBundles): void {
  const documents: Documents = { core, bundles };
  const { connection } = core;
  connection.onDidOpenTextDocument((params: unknown) => didOpen(documents, params));
  connection.onDidChangeTextDocument((params: unknown) => didChange(documents, params));
  connection.onDidCloseTextDocument((params: unknown) => didClose(documents, params));
}

function documentChanged({ core, bundles }: Documents, uri: string, version: number, text: string, opened: boolean): void {
  const { db, state } = core;
  const file = core.files.pathOf(uri);
  if (file === undefined) return;
  const bundle = setOpenDocument(db, file, { uri, version, text });
  if (bundle) bundles.schedule(bundle, opened ? 0 : state.settings.debounceMs);
  else if (!ownerOf(db, file)) void bundles.discover(file);
}

function didOpen(documents: Documents, params: unknown): void {
  const { state, logger } = documents.core;
  if (state.phase !== 'running') return;
  try {
    const opened = openedDocument(params);
    if ('problem' in opened) {
      logger.warn(`darkprint: a textDocument/didOpen is ignored: ${opened.problem}.`);
      return;
    }
    const { uri, version, text } = opened.value;
    state.texts.set(uri, { version, text });
    documentChanged(documents, uri, version, text, true);
  } catch (error) {
    logger.log(`darkprint: opening a document failed: ${describe(error)}`);
  }
}

function didChange(documents: Documents, params: unknown): void {
  const { state, logger } = documents.core;
  if (state.phase !== 'running') return;
  try {
    const change = documentChange(params);
    if ('problem' in change) {
      const uri = documentUriOf(params);
      const kept = uri === undefined ? undefined : state.texts.get(uri);
      const keeps = kept && uri !== undefined ? ` ${uri} keeps version ${kept.version}.` : '';
      logger.warn(`darkprint: a textDocument/didChange is ignored: ${change.problem}.${keeps}`);
      return;
    }
    const { uri, version, changes } = change.value;
    const before = state.texts.get(uri);
    if (!before) {
      logger.warn(`darkprint: a change arrived for ${uri}, which is not open; it is ignored.`);
      return;
    }
    const text = applyChanges(before.text, changes);
    state.texts.set(uri, { version, text });
    documentChanged(documents, uri, version, text, false);
  } catch (error) {
    logger.log(`darkprint: taking a document change failed: ${describe(error)}`);
  }
}

function didClose({ core, bundles }: Documents, params: unknown): void {
  const { state, logger } = core;
  if (state.phase !== 'running') return;
  try {
    const closed = closedDocument(params);
    if ('problem' in closed) {
      logger.warn(`darkprint: a textDocument/didClose is ignored: ${closed.problem}.`);
      return;
    }
    const uri = closed.value;
    state.texts.delete(uri);
    const file = core.files.pathOf(uri);
    if (file === undefined) return;
    const bundle = setOpenDocument(core.db, file, undefined);
    if (!bundle) return;
    // (the disk's text is read again before the bundle is published: see bundles.ts `closed`)
    bundles.closed(file, bundle);
  } catch (error) {
    logger.log(`darkprint: closing a document failed: ${describe(error)}`);
  }
}
