/**
 * Asking the client to show a bundle's views again. The code lenses, semantic tokens and inlay
 * hints of a file read other files of its bundle: a topology's read the cards its nodes pin (the
 * card's type, its ports, whether the pin resolves), a card's lens counts the topology's pins. An
 * editor asks for them again when their own document changes, not when another file does. So
 * after a publication that follows a change to a file other than an open document of the bundle
 * (a card edited beside the topology, a card rewritten on disk), the server sends
 * `workspace/codeLens/refresh`, `workspace/semanticTokens/refresh` and `workspace/inlayHint/refresh`,
 * each only to a client whose capabilities declare `refreshSupport` for it, and each at most once
 * per publication. An edit of the only open document asks for nothing: the editor asks again itself.
 */
import {
  CodeLensRefreshRequest,
  InlayHintRefreshRequest,
  SemanticTokensRefreshRequest,
  type ClientCapabilities,
  type Connection,
} from 'vscode-languageserver';
import type { SourceFile } from '../../shared/src';
import type { BundleState, Snapshot } from './database';

/** The refresh requests a client declares it takes, in the order they are sent. */
export function refreshMethods(capabilities: ClientCapabilities): string[] {
  const workspace = capabilities.workspace;
  const methods: string[] = [];
  if (workspace?.codeLens?.refreshSupport === true) methods.push(CodeLensRefreshRequest.method);
  if (workspace?.semanticTokens?.refreshSupport === true) methods.push(SemanticTokensRefreshRequest.method);
  if (workspace?.inlayHint?.refreshSupport === true) methods.push(InlayHintRefreshRequest.method);
  return methods;
}

/**
 * What the publisher calls after each publication (./publish.ts `published`): compares the files
 * published with the bundle's last publication and sends the refresh requests the client takes
 * when an open document may show views of files that changed since.
 */
export function viewRefresher(connection: Pick<Connection, 'sendRequest'>, capabilities: () => ClientCapabilities, log: (message: string) => void): (snapshot: Snapshot) => void {
  /** The files of each bundle's last publication (weakly: a bundle that is gone takes them along). */
  const published = new WeakMap<BundleState, ReadonlyMap<string, SourceFile>>();
  /** Read at the first publication, which follows `initialize`: the capabilities do not change after it. */
  let methods: readonly string[] | undefined;
  return (snapshot) => {
    methods ??= refreshMethods(capabilities());
    if (methods.length === 0) return;
    const before = published.get(snapshot.bundle);
    published.set(snapshot.bundle, snapshot.files);
    // (a bundle's first publication follows its first read: every view asked for was made from it)
    if (before === undefined || !othersChanged(before, snapshot.files, snapshot.versions.keys())) return;
    for (const method of methods) {
      connection.sendRequest(method).catch((error: unknown) => log(`darkprint: the client refused ${method}: ${error instanceof Error ? error.message : String(error)}`));
    }
  };
}

/** True when a file changed, appeared or went between `before` and `after` that is not the open document it is compared with, for some open document. */
export function othersChanged(before: ReadonlyMap<string, SourceFile>, after: ReadonlyMap<string, SourceFile>, open: Iterable<string>): boolean {
  const changed: string[] = [];
  for (const [file, source] of after) {
    const earlier = before.get(file);
    if (earlier !== source && earlier?.text !== source.text) changed.push(file);
  }
  for (const file of before.keys()) if (!after.has(file)) changed.push(file);
  if (changed.length === 0) return false;
  for (const shown of open) if (changed.some((file) => file !== shown)) return true;
  return false;
}
