/**
 * What a client can take (./convert.ts `ClientSupport`), read from the capabilities it declares
 * in `initialize`: the conversions give each client only what it declared.
 */
import type { ClientCapabilities } from 'vscode-languageserver';
import { baseCompletionKinds, baseSymbolKinds, type ClientSupport } from './convert';

export function clientSupport(capabilities: ClientCapabilities): ClientSupport {
  const text = capabilities.textDocument;
  const edit = capabilities.workspace?.workspaceEdit;
  return {
    relatedInformation: text?.publishDiagnostics?.relatedInformation === true,
    codeDescription: text?.publishDiagnostics?.codeDescriptionSupport === true,
    documentChanges: edit?.documentChanges === true,
    renameFiles: edit?.resourceOperations?.includes('rename') === true,
    createFiles: edit?.resourceOperations?.includes('create') === true,
    markdown: text?.hover?.contentFormat?.includes('markdown') === true,
    documentationMarkdown: text?.completion?.completionItem?.documentationFormat?.includes('markdown') === true,
    showDocument: capabilities.window?.showDocument?.support === true,
    hierarchicalSymbols: text?.documentSymbol?.hierarchicalDocumentSymbolSupport === true,
    completionEditRange: text?.completion?.completionList?.itemDefaults?.includes('editRange') === true,
    snippets: text?.completion?.completionItem?.snippetSupport === true,
    codeActionLiterals: text?.codeAction?.codeActionLiteralSupport !== undefined,
    preferredActions: text?.codeAction?.isPreferredSupport === true,
    applyEdit: capabilities.workspace?.applyEdit === true,
    diagnosticTags: new Set(text?.publishDiagnostics?.tagSupport?.valueSet ?? []),
    completionKinds: kindSet(text?.completion?.completionItemKind?.valueSet, baseCompletionKinds),
    symbolKinds: kindSet(text?.documentSymbol?.symbolKind?.valueSet, baseSymbolKinds),
    foldingRangeLimit: typeof text?.foldingRange?.rangeLimit === 'number' ? text.foldingRange.rangeLimit : undefined,
    workspaceSymbolKinds: kindSet(capabilities.workspace?.symbol?.symbolKind?.valueSet, baseSymbolKinds),
  };
}

/** The kinds a client lists, with the protocol's first set, which every client shows. */
function kindSet(listed: readonly number[] | undefined, base: ReadonlySet<number>): ReadonlySet<number> {
  return listed === undefined ? base : new Set([...base, ...listed]);
}
