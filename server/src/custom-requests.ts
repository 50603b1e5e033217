/**
 * The requests ./handlers.ts does not hold, each guarded as those are: `workspace/executeCommand`
 * (the commands code actions send) and the custom requests of ./requests.ts (`darkprint/compiled`,
 * `darkprint/report`, `darkprint/graph`, `darkprint/import`).
 */
import { ErrorCodes, ResponseError, type Command, type Connection, type ExecuteCommandParams, type Range, type WorkspaceEdit } from 'vscode-languageserver';
import { showLocationCommand } from './convert';
import { ownerOf, snapshotOf } from './database';
import type { FileAccess } from './files';
import { guarded, type ServerContext } from './handlers';
import { commandProblem } from './params';
import { compiled, compiledRequest, graph, graphRequest, imported, importRequest, report, reportRequest, type BundleParams, type ImportParams } from './requests';

/** `settle`: waits until the bundle that holds a file is known (see request-context.ts). */
export function registerCustomRequests(context: ServerContext, files: FileAccess, settle: (file: string) => Promise<void>): void {
  const { connection, db } = context;

  // A code action's place to look at once its edit is applied (see convert.ts `toCodeAction`), and
  // the edit of a code action sent as a command (see convert.ts `toCodeActionOrCommand`): its
  // edit, then its own command. Another command, or arguments of another shape, get InvalidParams.
  connection.onExecuteCommand(guarded(context, 'workspace/executeCommand', null, (params: ExecuteCommandParams) => executeCommand(connection, params), ['command']));

  const fileOrRoot = (params: BundleParams): Promise<ReturnType<typeof snapshotOf> | undefined> => snapshotFor(context, files, settle, params);
  const noBundle = { reasons: ['No DarkPrint bundle holds this file; open a file of a bundle (its topology.dot, a card or blueprint.yaml).'] };
  connection.onRequest(
    compiledRequest,
    guarded(context, compiledRequest, { reasons: ['The server failed while compiling the bundle; its log says why.'] }, async (params: BundleParams) => {
      const at = await fileOrRoot(params);
      return at ? compiled(at) : noBundle;
    }, ['uri']),
  );
  connection.onRequest(
    reportRequest,
    guarded(context, reportRequest, { reasons: ['The server failed while analysing the bundle; its log says why.'] }, async (params: BundleParams) => {
      const at = await fileOrRoot(params);
      return at ? report(at, db.uriOf(at.bundle.root)) : noBundle;
    }, ['uri']),
  );
  connection.onRequest(
    graphRequest,
    guarded(context, graphRequest, { reasons: ['The server failed while drawing the bundle; its log says why.'] }, async (params: BundleParams) => {
      const at = await fileOrRoot(params);
      return at ? graph(at, db.uriOf(at.bundle.root)) : noBundle;
    }, ['uri']),
  );

  // (no bundle: the pipeline's text arrives with the request, and the answer is files to write)
  connection.onRequest(
    importRequest,
    guarded(context, importRequest, { reasons: ['The server failed while importing the pipeline; its log says why.'], diagnostics: [] }, async (params: ImportParams) => {
      return imported(params, context.support());
    }, ['uri', 'text', 'author']),
  );
}

async function executeCommand(connection: Connection, params: ExecuteCommandParams): Promise<null | ResponseError<void>> {
  const args: readonly unknown[] = params.arguments ?? [];
  const problem = commandProblem(params.command, args);
  if (problem !== undefined) return new ResponseError(ErrorCodes.InvalidParams, `workspace/executeCommand: ${problem}.`);
  const showLocation = async ([uri, range]: readonly unknown[]): Promise<void> => {
    await connection.window.showDocument({ uri: uri as string, selection: range as Range, takeFocus: true });
  };
  if (params.command === showLocationCommand) {
    await showLocation(args);
    return null;
  }
  const [edit, then] = args as [WorkspaceEdit, Command | undefined];
  const applied = await connection.workspace.applyEdit(edit);
  if (applied.applied && then) await showLocation(then.arguments ?? []);
  return null;
}

/** The snapshot of the bundle that holds a file (any file, not only bundle files) or that is a root folder. */
async function snapshotFor(context: ServerContext, files: FileAccess, settle: (file: string) => Promise<void>, params: BundleParams): Promise<ReturnType<typeof snapshotOf> | undefined> {
  const file = typeof params?.uri === 'string' ? files.pathOf(params.uri) : undefined;
  if (file === undefined) return undefined;
  await settle(file);
  const bundle = context.db.bundles.get(file) ?? ownerOf(context.db, file)?.bundle;
  return bundle ? snapshotOf(context.db, bundle) : undefined;
}
