/**
 * The IDE layer's vocabulary: editor terms (bundle-relative paths, UTF-16 offsets, strings),
 * never LSP types. The server converts these in one file.
 */
import type { Span } from '../text';
import type { Diagnostic } from '../diagnostics';
import type { LoadResult } from '../bundle/resolve';
import type { SourceFile } from '../bundle/model';

/** One bundle as the IDE features see it: its files (open documents already overriding disk) and the engine's result. */
export interface IdeBundle {
  readonly files: ReadonlyMap<string, SourceFile>;
  readonly result: LoadResult;
}

export interface FileSpan {
  readonly file: string;
  readonly span: Span;
}

export interface TextEdit {
  readonly span: Span;
  readonly newText: string;
}

export interface WorkspaceEdit {
  /** New files with their text (paths relative to the bundle), created before the text changes; never one that exists. */
  readonly creates?: readonly { readonly file: string; readonly text: string }[];
  readonly changes: readonly { readonly file: string; readonly edits: readonly TextEdit[] }[];
  /** File renames, applied after the text changes (paths relative to the bundle). */
  readonly renames?: readonly { readonly from: string; readonly to: string }[];
}

export interface HoverResult {
  /** Markdown. */
  readonly contents: string;
  readonly span: Span;
}

export type CompletionKind =
  | 'card' | 'version' | 'port' | 'node' | 'attribute' | 'keyword' | 'term' | 'field' | 'operator' | 'value';

export interface CompletionItem {
  readonly label: string;
  readonly kind: CompletionKind;
  readonly detail?: string;
  /** Markdown. */
  readonly documentation?: string;
  readonly insertText?: string;
  /**
   * The same text as an LSP snippet (`$0` where the cursor goes), for a client that takes
   * snippets; `insertText` (or the label) is what the others get.
   */
  readonly snippet?: string;
  readonly sortText?: string;
  readonly filterText?: string;
}

export interface CompletionResult {
  readonly items: readonly CompletionItem[];
  /** The range the chosen item replaces. */
  readonly span: Span;
}

export type SymbolKind = 'graph' | 'node' | 'edge' | 'subgraph' | 'field' | 'port' | 'term' | 'list';

export interface DocumentSymbol {
  readonly name: string;
  readonly detail?: string;
  readonly kind: SymbolKind;
  readonly span: Span;
  readonly selectionSpan: Span;
  readonly children: readonly DocumentSymbol[];
}

/** What a fold holds: a block of the document (braces, brackets, a YAML/JSON entry) or comments. */
export type FoldKind = 'block' | 'comment';

/** A region the editor can fold (from the line of `start` to the line of `end`). */
export interface Fold extends Span {
  readonly kind: FoldKind;
}

export interface CodeAction {
  readonly title: string;
  readonly kind: 'quickfix' | 'source.fixAll' | 'refactor';
  readonly diagnostics?: readonly Diagnostic[];
  readonly edit: WorkspaceEdit;
  readonly isPreferred?: boolean;
  /** Where to take the user once the edit is applied (e.g. the card's `type` after removing `type=` from a node). */
  readonly show?: FileSpan & {
    /** Ask for completion there (a pin to pick). */
    readonly suggest?: true;
    /** The action stands without the place: a client that cannot be asked to open one gets the edit alone. */
    readonly optional?: true;
  };
}

export interface RenameTarget {
  readonly span: Span;
  readonly placeholder: string;
}
