/**
 * One small handler per LSP request. Each one finds the request's file in the up-to-date
 * snapshot of its bundle, converts the position to an offset, calls the IDE feature (pure,
 * in shared/src/ide) and converts the answer. Each is guarded: malformed parameters get
 * InvalidParams naming the field before the handler reads them (./params.ts), and an exception is
 * logged and the request answered empty, so no request can stop the server.
 */
import { CompletionTriggerKind, ErrorCodes, LSPErrorCodes, MessageType, ResponseError, ShowMessageNotification, type CompletionContext } from 'vscode-languageserver';
import type {
  CancellationToken,
  CodeAction as LspCodeAction,
  Command,
  CompletionList,
  Connection,
  DocumentSymbol as LspDocumentSymbol,
  FoldingRange,
  Hover,
  Location,
  Range,
  SymbolInformation,
  TextEdit as LspTextEdit,
  WorkspaceEdit as LspWorkspaceEdit,
} from 'vscode-languageserver';
import type { Diagnostic } from '../../shared/src';
import type { LineIndex, Span } from '../../shared/src';
import type { Database, Snapshot } from './database';
import type { Publisher } from './publish';
import type { Settings } from './settings';
import {
  toCodeAction,
  toCodeActionOrCommand,
  toCompletionList,
  toDocumentSymbols,
  toFoldingRanges,
  toHover,
  toLocation,
  toOffset,
  toPrepareRename,
  toSpan,
  toSymbolInformation,
  toFormatOptions,
  toTextEdits,
  toWorkspaceEdit,
  type ClientSupport,
} from './convert';
import { describe } from './publish';
import { features } from './features';
import { paramProblem, type ParamPart } from './params';
import { assertNever } from '../../shared/src';
import { SemanticTokensDeltaRequest, SemanticTokensRangeRequest, SemanticTokensRequest } from 'vscode-languageserver';
import type { CodeLens as IdeCodeLens } from '../../shared/src';
import type { CodeLens, DocumentHighlight, DocumentLink, InlayHint, SemanticTokens, SemanticTokensDelta } from 'vscode-languageserver';
import { toCodeLensCommand, toUnresolvedCodeLenses, toDocumentHighlights, toDocumentLinks, toInlayHints, toSemanticTokens, toSemanticTokensEdits, toWorkspaceSymbols } from './convert';

/**
 * True for a completion asked by a `:` or `,` just typed at the end of a line (`tools:|`,
 * `"id": "c",|`): the next key is most often Enter, which would take the list's first item
 * instead of starting the line. Asked for explicitly, or once something follows on the line, the
 * list is given.
 */
function endsLineAfterTrigger(text: string, offset: number, context: CompletionContext | undefined): boolean {
  if (context?.triggerKind !== CompletionTriggerKind.TriggerCharacter) return false;
  if (context.triggerCharacter !== ':' && context.triggerCharacter !== ',') return false;
  for (let k = offset; k < text.length; k++) {
    const c = text.charCodeAt(k);
    if (c === 10 || c === 13) return true;
    if (c !== 32 && c !== 9) return false;
  }
  return true;
}

/** Characters after which the client should ask for completions. */
export const completionTriggers: readonly string[] = ['"', '@', '=', '>', ':', ' ', '[', ',', '-'];

/** A request's file, in the current snapshot of its bundle. */
export interface FileAt {
  readonly snapshot: Snapshot;
  /** Bundle-relative path. */
  readonly file: string;
  readonly index: LineIndex;
  readonly text: string;
}

export interface ServerContext {
  readonly connection: Connection;
  readonly db: Database;
  readonly publisher: Publisher;
  support(): ClientSupport;
  settings(): Settings;
  /**
   * Waits for the file's bundle to be read (only that, for a file a bundle reads: a workspace
   * scan still running does not hold it up; see request-context.ts `settle`), then returns the file in an
   * up-to-date snapshot. With `texts`, the current texts over the last check's result when only
   * topologies and cards changed since (see database.ts `textSnapshotOf`): completion, the
   * outline and the folds, asked on every keystroke, then answer without waiting for the whole
   * bundle to be checked again.
   */
  fileOf(uri: string, texts?: 'texts'): Promise<FileAt | undefined>;
  /**
   * Waits for the workspace scan, then returns a snapshot of every bundle known, over the current
   * texts as `fileOf(uri, 'texts')` gives them (for workspace symbols).
   */
  workspaceSnapshots(): Promise<readonly Snapshot[]>;
  log(message: string): void;
  /** Where the server is in the protocol's lifecycle: the error a request gets there, if any (see `lifecycleError`). */
  lifecycle(): Lifecycle;
}

/** Before `initialize`, between it and `shutdown`, after `shutdown`. */
export type Lifecycle = 'waiting' | 'running' | 'shut down';

/**
 * The error a request gets outside the running phase, as the protocol asks: before `initialize`
 * ServerNotInitialized (-32002), after `shutdown` InvalidRequest; undefined while running.
 */
export function lifecycleError(phase: Lifecycle): ResponseError<void> | undefined {
  switch (phase) {
    case 'waiting':
      return new ResponseError(ErrorCodes.ServerNotInitialized, 'The server is not initialized yet: send initialize first.');
    case 'shut down':
      return new ResponseError(ErrorCodes.InvalidRequest, 'The server is shut down: only exit is accepted now.');
    case 'running':
      return undefined;
    default:
      return assertNever(phase);
  }
}

/**
 * A request handler, guarded: any exception is logged and the request answered with `empty`.
 * Outside the running phase the request gets the protocol's error instead (see `lifecycleError`),
 * and parameters that lack a part of `shape` or hold it in the wrong shape get InvalidParams
 * naming the field (see params.ts), before the handler reads them.
 */
export function guarded<P, R>(
  context: Pick<ServerContext, 'lifecycle' | 'log'>,
  name: string,
  empty: R,
  handler: (params: P, token: CancellationToken) => Promise<R>,
  shape: readonly ParamPart[] = [],
): (params: P, token: CancellationToken) => Promise<R | ResponseError<void>> {
  return async (params, token) => {
    const refused = lifecycleError(context.lifecycle());
    if (refused !== undefined) return refused;
    const problem = paramProblem(params, shape);
    if (problem !== undefined) return new ResponseError(ErrorCodes.InvalidParams, `${name}: ${problem}.`);
    try {
      if (token.isCancellationRequested) return empty;
      const answer = await handler(params, token);
      return token.isCancellationRequested ? empty : answer;
    } catch (error) {
      context.log(`darkprint: ${name} failed: ${describe(error)}`);
      return empty;
    }
  };
}

export function registerHandlers(context: ServerContext): void {
  const { connection } = context;

  const guard = <P, R>(name: string, empty: R, shape: readonly ParamPart[], handler: (params: P, token: CancellationToken) => Promise<R>) =>
    guarded(context, name, empty, handler, shape);
  const atPosition: readonly ParamPart[] = ['document', 'position'];

  connection.onHover(
    guard('hover', null, atPosition, async (params): Promise<Hover | null> => {
      const at = await context.fileOf(params.textDocument.uri);
      if (!at) return null;
      const result = features.hover(at.snapshot.ide, at.file, toOffset(at.index, params.position));
      return result ? toHover(at.snapshot, at.file, result, context.support()) : null;
    }),
  );

  connection.onCompletion(
    guard('completion', null, [...atPosition, 'completionContext'], async (params): Promise<CompletionList | null> => {
      const at = await context.fileOf(params.textDocument.uri, 'texts');
      if (!at) return null;
      const offset = toOffset(at.index, params.position);
      if (endsLineAfterTrigger(at.text, offset, params.context)) return null;
      const result = features.complete(at.snapshot.ide, at.file, offset);
      return result ? toCompletionList(at.snapshot, at.file, params.position, result, context.support()) : null;
    }),
  );

  connection.onDefinition(
    guard('definition', null, atPosition, async (params): Promise<Location[] | null> => {
      const at = await context.fileOf(params.textDocument.uri);
      if (!at) return null;
      const targets = features.definition(at.snapshot.ide, at.file, toOffset(at.index, params.position));
      return targets.length > 0 ? targets.map((t) => toLocation(at.snapshot, t)) : null;
    }),
  );

  connection.onReferences(
    guard('references', null, [...atPosition, 'referenceContext'], async (params): Promise<Location[] | null> => {
      const at = await context.fileOf(params.textDocument.uri);
      if (!at) return null;
      const targets = features.references(at.snapshot.ide, at.file, toOffset(at.index, params.position), params.context.includeDeclaration);
      return targets.map((t) => toLocation(at.snapshot, t));
    }),
  );

  connection.onPrepareRename(
    guard('prepareRename', null, atPosition, async (params): Promise<{ range: Range; placeholder: string } | ResponseError | null> => {
      const at = await context.fileOf(params.textDocument.uri);
      if (!at) return null;
      const target = features.prepareRename(at.snapshot.ide, at.file, toOffset(at.index, params.position));
      // A rename that would be refused whatever the name says so before the user types one.
      if (target !== undefined && 'error' in target) return new ResponseError(LSPErrorCodes.RequestFailed, target.error);
      return target ? toPrepareRename(at.index, target) : null;
    }),
  );

  connection.onRenameRequest(
    guard('rename', null, [...atPosition, 'newName'], async (params): Promise<LspWorkspaceEdit | ResponseError | null> => {
      const at = await context.fileOf(params.textDocument.uri);
      if (!at) return null;
      const edit = features.rename(at.snapshot.ide, at.file, toOffset(at.index, params.position), params.newName);
      // A rename the engine refuses (nothing renamable, an unusable name) tells the user why.
      if ('error' in edit) return new ResponseError(LSPErrorCodes.RequestFailed, edit.error);
      const support = context.support();
      // A client that cannot rename files gets the rest of the edit, and is told which file to rename.
      const renames = edit.renames ?? [];
      if (renames.length > 0 && !(support.documentChanges && support.renameFiles)) {
        const list = renames.map((r) => `${r.from} to ${r.to}`).join(', ');
        // (a notification: nothing to answer, nothing to wait for)
        void context.connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message: `The new id is written everywhere, but this editor does not let the server rename files: rename ${list} yourself, or the card's file name will not match its id.` });
      }
      return toWorkspaceEdit(at.snapshot, edit, support) ?? { changes: {} };
    }),
  );

  // The outline and the folds read the file's own text alone, so, like completion, they answer
  // from the current texts without checking the whole bundle again: an editor asks for both
  // after every keystroke, which would otherwise load the bundle on each one, whatever the
  // debounce.
  connection.onDocumentSymbol(
    guard('documentSymbol', null, ['document'], async (params): Promise<LspDocumentSymbol[] | SymbolInformation[] | null> => {
      const at = await context.fileOf(params.textDocument.uri, 'texts');
      if (!at) return null;
      const symbols = toDocumentSymbols(at.index, features.documentSymbols(at.snapshot.ide, at.file), context.support());
      return context.support().hierarchicalSymbols ? symbols : toSymbolInformation(params.textDocument.uri, symbols);
    }),
  );

  connection.onFoldingRanges(
    guard('foldingRange', null, ['document'], async (params): Promise<FoldingRange[] | null> => {
      const at = await context.fileOf(params.textDocument.uri, 'texts');
      if (!at) return null;
      return toFoldingRanges(at.index, features.foldingRanges(at.snapshot.ide, at.file), context.support().foldingRangeLimit);
    }),
  );

  // Formatting reads the topology's own text, so it answers from the current texts too.
  connection.onDocumentFormatting(
    guard('formatting', null, ['document', 'formattingOptions'], async (params): Promise<LspTextEdit[] | null> => {
      const at = await context.fileOf(params.textDocument.uri, 'texts');
      if (!at) return null;
      return toTextEdits(at.index, features.formatDocument(at.snapshot.ide, at.file, toFormatOptions(params.options)));
    }),
  );

  connection.onDocumentRangeFormatting(
    guard('rangeFormatting', null, ['document', 'range', 'formattingOptions'], async (params): Promise<LspTextEdit[] | null> => {
      const at = await context.fileOf(params.textDocument.uri, 'texts');
      if (!at) return null;
      return toTextEdits(at.index, features.formatRange(at.snapshot.ide, at.file, toSpan(at.index, params.range), toFormatOptions(params.options)));
    }),
  );

  connection.onCodeAction(
    guard('codeAction', null, ['document', 'range', 'codeActionContext'], async (params): Promise<(LspCodeAction | Command)[] | null> => {
      const at = await context.fileOf(params.textDocument.uri);
      if (!at) return null;
      const span = toSpan(at.index, params.range);
      const only = params.context.only;
      const fileDiagnostics = context.publisher.diagnosticsByFile(at.snapshot).get(at.file) ?? [];
      const wantsAll = only?.some((kind) => kind === 'source' || kind.startsWith('source.fixAll')) ?? false;
      const relevant = wantsAll ? fileDiagnostics : fileDiagnostics.filter((d) => touches(d, span));
      const actions = features.codeActions(at.snapshot.ide, at.file, span, relevant);
      const support = context.support();
      const out: (LspCodeAction | Command)[] = [];
      for (const action of actions) {
        if (only && !only.some((kind) => action.kind === kind || action.kind.startsWith(`${kind}.`))) continue;
        const converted = toCodeAction(at.snapshot, action, support, (d) =>
          (d.location.file ?? at.file) === at.file ? context.publisher.convert(at.snapshot, at.file, d) : undefined,
        );
        const sent = converted && toCodeActionOrCommand(converted, support);
        if (sent) out.push(sent);
      }
      return out;
    }),
  );

  registerViewHandlers(context);
}

/** True when the diagnostic's range meets the span (an empty span at its edge counts). */
function touches(d: Diagnostic, span: Span): boolean {
  const at = d.location.span;
  if (!at) return true;
  return at.start <= span.end && span.start <= at.end;
}

/**
 * The requests that colour, annotate and link what a file shows: document highlight, semantic
 * tokens (whole, by range, and as an edit of the last answer), inlay hints, code lenses (listed
 * whole, each resolved when shown), document links, and workspace symbols. Highlights, tokens and links read the current texts (asked as the
 * cursor moves and after every keystroke, like completion); inlay hints and lenses read the
 * bundle's checked snapshot (the wired ports, the analysis).
 */
function registerViewHandlers(context: ServerContext): void {
  const { connection } = context;
  const guard = <P, R>(name: string, empty: R, shape: readonly ParamPart[], handler: (params: P, token: CancellationToken) => Promise<R>) =>
    guarded(context, name, empty, handler, shape);

  connection.onDocumentHighlight(
    guard('documentHighlight', null, ['document', 'position'], async (params): Promise<DocumentHighlight[] | null> => {
      const at = await context.fileOf(params.textDocument.uri, 'texts');
      if (!at) return null;
      return toDocumentHighlights(at.index, features.documentHighlights(at.snapshot.ide, at.file, toOffset(at.index, params.position)));
    }),
  );

  // The last tokens sent per document, for an answer as an edit of them (`semanticTokens/full/delta`).
  const sentTokens = new Map<string, { readonly resultId: string; readonly data: readonly number[] }>();
  let nextResultId = 1;
  const remember = (uri: string, data: number[]): SemanticTokens => {
    const resultId = String(nextResultId++);
    sentTokens.delete(uri);
    sentTokens.set(uri, { resultId, data });
    // (the documents asked about most recently: a long session opens many)
    if (sentTokens.size > keptTokenLists) sentTokens.delete(sentTokens.keys().next().value as string);
    return { resultId, data };
  };
  const tokensOf = async (uri: string, range?: Range): Promise<{ data: number[] } | undefined> => {
    const at = await context.fileOf(uri, 'texts');
    if (!at) return undefined;
    const span = range === undefined ? undefined : toSpan(at.index, range);
    return { data: toSemanticTokens(at.index, features.semanticTokens(at.snapshot.ide, at.file, span)) };
  };
  connection.onRequest(
    SemanticTokensRequest.type,
    guard('semanticTokens/full', null, ['document'], async (params): Promise<SemanticTokens | null> => {
      const tokens = await tokensOf(params.textDocument.uri);
      return tokens === undefined ? null : remember(params.textDocument.uri, tokens.data);
    }),
  );
  connection.onRequest(
    SemanticTokensDeltaRequest.type,
    guard('semanticTokens/full/delta', null, ['document', 'previousResultId'], async (params): Promise<SemanticTokens | SemanticTokensDelta | null> => {
      const uri = params.textDocument.uri;
      const tokens = await tokensOf(uri);
      if (tokens === undefined) return null;
      const previous = sentTokens.get(uri);
      const answer = remember(uri, tokens.data);
      if (previous === undefined || previous.resultId !== params.previousResultId) return answer;
      return { resultId: answer.resultId, edits: toSemanticTokensEdits(previous.data, tokens.data) };
    }),
  );
  connection.onRequest(
    SemanticTokensRangeRequest.type,
    guard('semanticTokens/range', null, ['document', 'range'], async (params): Promise<SemanticTokens | null> => {
      const tokens = await tokensOf(params.textDocument.uri, params.range);
      return tokens === undefined ? null : { data: tokens.data };
    }),
  );

  connection.languages.inlayHint.on(
    guard('inlayHint', null, ['document', 'range'], async (params): Promise<InlayHint[] | null> => {
      const at = await context.fileOf(params.textDocument.uri);
      if (!at) return null;
      const hints = features.inlayHints(at.snapshot.ide, at.file, toSpan(at.index, params.range), context.settings().inlayHints);
      return toInlayHints(at.index, hints, context.support());
    }),
  );

  // The lenses last listed per document, each list numbered, with the text they were made from: a
  // lens carries `[list, lens]` as its data and gets its command when the editor resolves it (see
  // convert.ts `toUnresolvedCodeLenses`), converted in the current snapshot while the document
  // reads the same (no snapshot is kept here: a document's last list may be old).
  const listedLenses = new Map<string, { readonly list: number; readonly text: string; readonly lenses: readonly IdeCodeLens[] }>();
  const listUris = new Map<number, string>();
  let nextList = 1;
  connection.onCodeLens(
    guard('codeLens', null, ['document'], async (params): Promise<CodeLens[] | null> => {
      const uri = params.textDocument.uri;
      const at = await context.fileOf(uri);
      if (!at) return null;
      const lenses = features.codeLenses(at.snapshot.ide, at.file);
      const list = nextList++;
      const before = listedLenses.get(uri);
      if (before !== undefined) listUris.delete(before.list);
      listedLenses.delete(uri);
      listedLenses.set(uri, { list, text: at.text, lenses });
      listUris.set(list, uri);
      // (the documents asked about most recently: a long session opens many)
      if (listedLenses.size > keptLensLists) {
        const [oldest, entry] = listedLenses.entries().next().value as [string, { readonly list: number }];
        listedLenses.delete(oldest);
        listUris.delete(entry.list);
      }
      return toUnresolvedCodeLenses(at.index, lenses, (lens) => [list, lens]);
    }),
  );

  const unresolved: CodeLens = { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } };
  connection.onCodeLensResolve(
    guard('codeLens/resolve', unresolved, [], async (lens: CodeLens): Promise<CodeLens> => {
      const data: unknown = lens?.data;
      if (!Array.isArray(data) || typeof data[0] !== 'number' || typeof data[1] !== 'number') return lens;
      const uri = listUris.get(data[0]);
      const listed = uri === undefined ? undefined : listedLenses.get(uri);
      // (a lens of a list the document has replaced since: the editor asks for the new one)
      const ide = listed?.list === data[0] ? listed.lenses[data[1]] : undefined;
      if (uri === undefined || listed === undefined || ide === undefined) return lens;
      const at = await context.fileOf(uri);
      // (the document changed since: the editor lists its lenses again)
      if (at === undefined || at.text !== listed.text) return lens;
      return { range: lens.range, command: toCodeLensCommand(at.snapshot, at.file, ide, context.support()) };
    }),
  );

  connection.onDocumentLinks(
    guard('documentLink', null, ['document'], async (params): Promise<DocumentLink[] | null> => {
      const at = await context.fileOf(params.textDocument.uri, 'texts');
      if (!at) return null;
      return toDocumentLinks(at.snapshot, at.file, features.documentLinks(at.snapshot.ide, at.file));
    }),
  );

  connection.onWorkspaceSymbol(
    guard('workspace/symbol', null, ['query'], async (params): Promise<SymbolInformation[] | null> => {
      const snapshots = await context.workspaceSnapshots();
      const matches = features.workspaceSymbols(snapshots.map((s) => s.ide), params.query);
      return toWorkspaceSymbols(matches, (bundle) => snapshots[bundle], context.support());
    }),
  );
}

/** How many documents' last semantic tokens are kept for answers by edit. */
const keptTokenLists = 64;

/** How many documents' last code lenses are kept for `codeLens/resolve`. */
const keptLensLists = 64;
