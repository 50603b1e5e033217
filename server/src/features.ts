/**
 * The IDE features the handlers call: pure functions of shared/src/ide, in editor terms
 * (bundle-relative path, UTF-16 offset). A feature that is `undefined` answers empty.
 */
import type { Span } from '../../shared/src/text';
import type { Diagnostic } from '../../shared/src/diagnostics';
import type {
  CodeAction,
  CompletionResult,
  DocumentSymbol,
  FileSpan,
  HoverResult,
  IdeBundle,
  RenameTarget,
  WorkspaceEdit,
} from '../../shared/src/ide/types';
import { hover } from '../../shared/src/ide/hover';
import { complete } from '../../shared/src/ide/completion';
import type { FoldingSpan } from './convert';

export interface Features {
  readonly hover?: (bundle: IdeBundle, file: string, offset: number) => HoverResult | undefined;
  readonly complete?: (bundle: IdeBundle, file: string, offset: number) => CompletionResult | undefined;
  readonly definition?: (bundle: IdeBundle, file: string, offset: number) => readonly FileSpan[];
  readonly references?: (bundle: IdeBundle, file: string, offset: number, includeDeclaration: boolean) => readonly FileSpan[];
  readonly prepareRename?: (bundle: IdeBundle, file: string, offset: number) => RenameTarget | undefined;
  readonly rename?: (bundle: IdeBundle, file: string, offset: number, newName: string) => WorkspaceEdit | undefined;
  readonly documentSymbols?: (bundle: IdeBundle, file: string) => readonly DocumentSymbol[];
  readonly foldingRanges?: (bundle: IdeBundle, file: string) => readonly (FoldingSpan | Span)[];
  readonly codeActions?: (bundle: IdeBundle, file: string, span: Span, diagnostics: readonly Diagnostic[], only?: readonly string[]) => readonly CodeAction[];
}

export const features: Features = {
  hover,
  complete,
};
