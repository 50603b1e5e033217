/**
 * The IDE features the handlers call: the pure functions of shared/src/ide, in editor terms
 * (bundle-relative path, UTF-16 offset). Kept behind one record so a handler reads as "convert,
 * call, convert back", and so the server's tests can see which features it serves.
 */
import { codeActions, complete, definition, documentSymbols, foldingRanges, formatDocument, formatRange, hover, prepareRename, references, rename } from '../../shared/src';
import { codeLenses, documentHighlights, documentLinks, inlayHints, semanticTokens, workspaceSymbols } from '../../shared/src';

export const features = {
  hover,
  complete,
  definition,
  references,
  prepareRename,
  rename,
  documentSymbols,
  foldingRanges,
  codeActions,
  formatDocument,
  formatRange,
  documentHighlights,
  semanticTokens,
  inlayHints,
  codeLenses,
  documentLinks,
  workspaceSymbols,
} as const;
