/**
 * The IDE layer: hover, completion, definition, references, rename, document symbols, folding,
 * quick fixes and formatting, document highlight, semantic tokens, inlay hints, code lenses and
 * document links (and workspace symbols, over several bundles), as pure functions of one bundle
 * (`IdeBundle`: its files, open documents already overriding the disk, and the engine's
 * `LoadResult`). Positions are UTF-16 offsets into a bundle-relative file; answers are plain
 * data in the same terms (`FileSpan`, `TextEdit`, `WorkspaceEdit`, Markdown strings). Every function is total: on any input it returns an
 * answer, or `undefined`/`[]` when nothing applies.
 *
 * Must NOT know: LSP or VS Code types, line/column positions, URIs, the file system, document
 * versions or debouncing; the server converts and schedules. It reads facts from the engine's
 * tables (vocabulary, diagnostics registry, Attractor attributes, card fields) and never restates
 * them.
 */
export * from './types';
export { hover } from './hover';
export { complete } from './completion';
export { definition, references } from './navigation';
export { prepareRename, rename } from './rename';
export { documentSymbols, foldingRanges } from './symbols';
export { codeActions, fixAllNodeIds } from './fixes';
export { applyTextEdits, applyWorkspaceEdit } from './edits';
export { formatDocument, formatRange, formatDot, type FormatOptions } from './format';
export { topologyAttributes, bundleFileScheme, type TopologyAttribute } from './describe';
export { assertNever, isCardPath, isTopologyPath } from './context';
export { documentHighlights, type Highlight, type HighlightKind } from './highlight';
export { semanticTokens, semanticTokenTypes, semanticTokenModifiers, type SemanticToken, type SemanticTokenType, type SemanticTokenModifier } from './semantic-tokens';
export { inlayHints, allInlayHints, type InlayHint, type InlayHintOptions } from './inlay-hints';
export { codeLenses, type CodeLens, type LensAction } from './code-lens';
export { documentLinks, type DocumentLink } from './document-links';
export { workspaceSymbols, bundleSymbols, matchScore, workspaceSymbolLimit, type WorkspaceSymbol, type WorkspaceSymbolKind, type SymbolMatch } from './workspace-symbols';
