/**
 * THE conversion file: engine and IDE-layer values (bundle-relative paths, UTF-16 offsets,
 * plain strings) to LSP values and back. Positions go through the engine's `lineIndex`, so
 * both sides count UTF-16 code units and treat CRLF, CR and LF alike. No other server module
 * builds an LSP range, severity, edit or item by hand.
 */
import {
  CompletionItemKind,
  DiagnosticSeverity,
  DiagnosticTag,
  FoldingRangeKind,
  InsertTextFormat,
  MarkupKind,
  SymbolKind,
  type CodeAction as LspCodeAction,
  type Command,
  type CompletionItem as LspCompletionItem,
  type CompletionList,
  type Diagnostic as LspDiagnostic,
  type DocumentSymbol as LspDocumentSymbol,
  type FoldingRange,
  type FormattingOptions,
  type Hover,
  type Location,
  type Position,
  type Range,
  type SymbolInformation,
  type TextDocumentEdit,
  type TextEdit as LspTextEdit,
  type CreateFile,
  type RenameFile,
  type WorkspaceEdit as LspWorkspaceEdit,
} from 'vscode-languageserver';
import type { Diagnostic, Severity } from '../../shared/src';
import { codeHeading } from '../../shared/src';
import { diagnosticInfo, isDiagnosticCode } from '../../shared/src';
import { lineIndex, type LineIndex, type Span } from '../../shared/src';
import type {
  CodeAction,
  CompletionItem,
  CompletionKind,
  CompletionResult,
  DocumentSymbol,
  FileSpan,
  Fold,
  HoverResult,
  RenameTarget,
  SymbolKind as IdeSymbolKind,
  TextEdit,
  WorkspaceEdit,
} from '../../shared/src';
import type { FormatOptions } from '../../shared/src';
import { bundleFileScheme } from '../../shared/src';
import {
  DocumentHighlightKind,
  InlayHintKind,
  type CodeLens as LspCodeLens,
  type DocumentHighlight,
  type DocumentLink as LspDocumentLink,
  type InlayHint as LspInlayHint,
  type SemanticTokensEdit,
} from 'vscode-languageserver';
import type { CodeLens, DocumentLink, Highlight, InlayHint, SemanticToken, SemanticTokenModifier, SemanticTokenType, SymbolMatch, WorkspaceSymbolKind } from '../../shared/src';

/** What conversion needs to know about the files of one bundle snapshot. */
export interface FileContext {
  uri(relative: string): string;
  lineIndex(relative: string): LineIndex;
  /** Versions of the files that are open documents. */
  readonly versions: ReadonlyMap<string, number>;
}

/** What the client said it can take (from `initialize`). */
export interface ClientSupport {
  readonly relatedInformation: boolean;
  readonly codeDescription: boolean;
  readonly documentChanges: boolean;
  readonly renameFiles: boolean;
  /** The client creates files an edit asks for (`resourceOperations` holds `create`). */
  readonly createFiles: boolean;
  /** Hovers may be Markdown (else they are sent as plain text, the Markdown marks taken out). */
  readonly markdown: boolean;
  /** Completion items' documentation may be Markdown. */
  readonly documentationMarkdown: boolean;
  /** The client opens a document at a range when asked (`window/showDocument`, LSP 3.16). */
  readonly showDocument: boolean;
  readonly hierarchicalSymbols: boolean;
  /** The client takes a completion list's `itemDefaults.editRange` (LSP 3.17). */
  readonly completionEditRange: boolean;
  /** The client takes completion items written as snippets (`completionItem.snippetSupport`). */
  readonly snippets: boolean;
  /**
   * The client takes code actions as `CodeAction` literals (`codeActionLiteralSupport`, LSP 3.8);
   * without it a code action must be a `Command`, which the server runs (see `applyEditCommand`).
   */
  readonly codeActionLiterals: boolean;
  /** The client reads a code action's `isPreferred`. */
  readonly preferredActions: boolean;
  /** The client applies an edit the server sends (`workspace/applyEdit`). */
  readonly applyEdit: boolean;
  /** The diagnostic tags the client reads (`tagSupport.valueSet`). */
  readonly diagnosticTags: ReadonlySet<number>;
  /**
   * The completion item kinds the client shows (`completionItemKind.valueSet`; without one, the
   * protocol's first set, Text to Reference).
   */
  readonly completionKinds: ReadonlySet<number>;
  /** The symbol kinds the client shows (`symbolKind.valueSet`; without one, File to Array). */
  readonly symbolKinds: ReadonlySet<number>;
  /** The most folding ranges the client wants (`foldingRange.rangeLimit`), if it said. */
  readonly foldingRangeLimit: number | undefined;
  /** The symbol kinds the client shows in workspace symbols (`workspace.symbol.symbolKind.valueSet`; without one, File to Array). */
  readonly workspaceSymbolKinds: ReadonlySet<number>;
}

/** The kinds a client that lists none shows (the protocol's first sets: Text to Reference, File to Array). */
export const baseCompletionKinds: ReadonlySet<number> = kindsUpTo(CompletionItemKind.Reference);
export const baseSymbolKinds: ReadonlySet<number> = kindsUpTo(SymbolKind.Array);

function kindsUpTo(last: number): ReadonlySet<number> {
  const out = new Set<number>();
  for (let k = 1; k <= last; k++) out.add(k);
  return out;
}

export const fullSupport: ClientSupport = {
  relatedInformation: true,
  codeDescription: true,
  documentChanges: true,
  renameFiles: true,
  createFiles: true,
  markdown: true,
  documentationMarkdown: true,
  showDocument: true,
  hierarchicalSymbols: true,
  completionEditRange: true,
  snippets: true,
  codeActionLiterals: true,
  preferredActions: true,
  applyEdit: true,
  diagnosticTags: new Set([DiagnosticTag.Unnecessary, DiagnosticTag.Deprecated]),
  completionKinds: kindsUpTo(CompletionItemKind.TypeParameter),
  symbolKinds: kindsUpTo(SymbolKind.TypeParameter),
  foldingRangeLimit: undefined,
  workspaceSymbolKinds: kindsUpTo(SymbolKind.TypeParameter),
};

// ---- positions ----------------------------------------------------------------------------

/**
 * The LSP range of a span. An offset between the CR and the LF of a line break (which no
 * position can name) moves back before the CR.
 */
export function toRange(index: LineIndex, span: Span): Range {
  const text = index.text;
  const outsideCrlf = (offset: number): number => (offset > 0 && text.charCodeAt(offset - 1) === 13 && text.charCodeAt(offset) === 10 ? offset - 1 : offset);
  const start = index.positionAt(outsideCrlf(span.start));
  const end = span.end <= span.start ? start : index.positionAt(outsideCrlf(span.end));
  return { start: { line: start.line, character: start.character }, end: { line: end.line, character: end.character } };
}

/**
 * The offset of an LSP position. A character past the end of its line means the end of the
 * line's content (the LSP rule), never a point inside or after the line break.
 */
export function toOffset(index: LineIndex, position: Position): number {
  const offset = index.offsetAt({ line: position.line, character: position.character });
  const text = index.text;
  const lastLine = index.positionAt(text.length).line;
  if (position.line < 0 || position.line >= lastLine) return offset;
  // Not the last line: the content ends before the line break (LF, CRLF or CR).
  let end = index.offsetAt({ line: position.line + 1, character: 0 });
  if (text.charCodeAt(end - 1) === 10) end--;
  if (text.charCodeAt(end - 1) === 13) end--;
  return Math.min(offset, Math.max(end, index.offsetAt({ line: position.line, character: 0 })));
}

/** Applies LSP content changes (incremental or whole) to a text, in order. */
export function applyChanges(text: string, changes: readonly ({ range: Range; text: string } | { text: string })[]): string {
  let out = text;
  for (const change of changes) {
    if ('range' in change && change.range) {
      const index = lineIndex(out);
      const a = toOffset(index, change.range.start);
      const b = toOffset(index, change.range.end);
      const start = Math.min(a, b);
      const end = Math.max(a, b);
      out = out.slice(0, start) + change.text + out.slice(end);
    } else {
      out = change.text;
    }
  }
  return out;
}

export function toSpan(index: LineIndex, range: Range): Span {
  const start = toOffset(index, range.start);
  return { start, end: Math.max(start, toOffset(index, range.end)) };
}

export function toLocation(files: FileContext, target: FileSpan): Location {
  return { uri: files.uri(target.file), range: toRange(files.lineIndex(target.file), target.span) };
}

// ---- diagnostics --------------------------------------------------------------------------

export function toSeverity(severity: Severity): DiagnosticSeverity {
  switch (severity) {
    case 'error':
      return DiagnosticSeverity.Error;
    case 'warning':
      return DiagnosticSeverity.Warning;
    case 'info':
      return DiagnosticSeverity.Information;
  }
}

/** A code's `codeDescription` link. */
export type DocsLink = (code: string) => string;

/**
 * The links codes get to a diagnostics page at `url`: `<url>#<heading anchor>`, as GitHub and
 * Markdown previews read it. For a page on this machine (a `file:` URL, as the docs beside the
 * server are) whose text is given, `<url>#L<line>` of the code's heading instead: VS Code opens a
 * file link at the line its `#L` fragment names, where it ignores a heading anchor and opens the
 * page at its top. A code the page has no heading for keeps its anchor.
 */
export function docsLinker(url: string, pageText?: string): DocsLink {
  /** The page's lines by their text, the first of each (1-based). */
  const lines = new Map<string, number>();
  if (url.startsWith('file:') && pageText !== undefined) {
    pageText.split(/\r\n|\r|\n/).forEach((text, i) => {
      if (!lines.has(text)) lines.set(text, i + 1);
    });
  }
  const links = new Map<string, string>();
  return (code) => {
    let link = links.get(code);
    if (link === undefined) {
      const line = lines.get(codeHeading(code));
      link = line !== undefined ? `${url}#L${line}` : `${url}#${docsAnchor(code)}`;
      links.set(code, link);
    }
    return link;
  };
}

/**
 * The heading anchor of a code in `docs/diagnostics.md` (`### \`dot/parse-error\`` →
 * `dotparse-error`), as GitHub and VS Code's Markdown preview compute it.
 */
export function docsAnchor(code: string): string {
  let anchor = anchors.get(code);
  if (anchor === undefined) {
    anchor = code.toLowerCase().replace(/[^a-z0-9 _-]/g, '').replace(/ /g, '-');
    anchors.set(code, anchor);
  }
  return anchor;
}

/** Anchors by code (the registry's codes: a few dozen). */
const anchors = new Map<string, string>();

export interface DiagnosticContext {
  readonly files: FileContext;
  /** The diagnostics page, or undefined for no link. */
  /** The `codeDescription` link of a code (see `docsLinker`), if codes link anywhere. */
  readonly docsLink?: DocsLink;
  readonly support: ClientSupport;
}

/** The LSP message of a diagnostic: its message, and its hint on a line of its own. */
export function lspMessage(d: Diagnostic): string {
  return d.hint ? `${d.message}\n${d.hint}` : d.message;
}

/**
 * Converts one diagnostic of `file` (its own location already decided by the caller). What it
 * reads of `d` (code, severity, `lspMessage`, span, related) is what ./publish-reuse.ts
 * `movedConversion` compares before reusing an earlier conversion: keep the two in step.
 */
export function toLspDiagnostic(d: Diagnostic, file: string, context: DiagnosticContext): LspDiagnostic {
  const span = d.location.span ?? { start: 0, end: 0 };
  const out: LspDiagnostic = {
    range: toRange(context.files.lineIndex(file), span),
    severity: toSeverity(d.severity),
    code: d.code,
    source: 'darkprint',
    message: lspMessage(d),
  };
  if (context.docsLink !== undefined && context.support.codeDescription) out.codeDescription = { href: context.docsLink(d.code) };
  if (d.related && d.related.length > 0 && context.support.relatedInformation) {
    out.relatedInformation = d.related.map((r) => ({ location: toLocation(context.files, r), message: r.message }));
  }
  const tag = diagnosticTag(d.code);
  if (tag !== undefined && context.support.diagnosticTags.has(tag)) out.tags = [tag];
  return out;
}

/** The tag a client may show a finding with: the registry's `shownAs` of its code (faded for unused, struck through for retired). */
function diagnosticTag(code: string): DiagnosticTag | undefined {
  const shownAs = isDiagnosticCode(code) ? diagnosticInfo(code).shownAs : undefined;
  return shownAs === 'unused' ? DiagnosticTag.Unnecessary : shownAs === 'retired' ? DiagnosticTag.Deprecated : undefined;
}

/**
 * A copy of `lsp` at `range`, its keys in the converter's order (`toLspDiagnostic`), for a
 * finding without related locations (see `movedConversion` in ./publish-reuse.ts). Written out rather than spread: a
 * thousand findings move on an edit in the middle of a topology, and a spread of objects of
 * several shapes takes V8's slow path each time.
 */
export function withRange(lsp: LspDiagnostic, range: LspDiagnostic['range']): LspDiagnostic {
  const out: LspDiagnostic = { range, severity: lsp.severity, code: lsp.code, source: lsp.source, message: lsp.message };
  if (lsp.codeDescription !== undefined) out.codeDescription = lsp.codeDescription;
  if (lsp.tags !== undefined) out.tags = lsp.tags;
  if (lsp.data !== undefined) out.data = lsp.data;
  // (`relatedInformation` is never copied: `movedConversion` moves no finding that has it)
  return out;
}

// A compile-time check that `withRange` knows every member a diagnostic may have.
const everyLspMember: Exclude<keyof LspDiagnostic, 'range' | 'severity' | 'code' | 'source' | 'message' | 'codeDescription' | 'tags' | 'data' | 'relatedInformation'> extends never ? true : never = true;
void everyLspMember;

/** How `JSON.stringify` writes the start of a diagnostic whose first key is `range` (the converter's order), up to the range's end. */
export function rangeHead(range: LspDiagnostic['range']): string {
  return `{"range":{"start":{"line":${range.start.line},"character":${range.start.character}},"end":{"line":${range.end.line},"character":${range.end.character}}}`;
}

// ---- hover and completion -----------------------------------------------------------------

export function toHover(files: FileContext, file: string, hover: HoverResult, support: ClientSupport): Hover {
  return {
    contents: support.markdown ? { kind: MarkupKind.Markdown, value: withFileLinks(files, hover.contents) } : { kind: MarkupKind.PlainText, value: plainText(hover.contents) },
    range: toRange(files.lineIndex(file), hover.span),
  };
}

/**
 * The IDE's Markdown with each link to a file of the bundle (`bundle-file:<path>#<offset>`, see
 * shared/src/ide/describe.ts `fileLink`) written as the file's URI, with the offset's line as
 * `#L<line>` (VS Code opens a file link at that line).
 */
export function withFileLinks(files: FileContext, markdown: string): string {
  if (!markdown.includes(bundleFileScheme)) return markdown;
  return markdown.replace(bundleFileLink, (_, path: string, offset: string | undefined) => {
    let file: string;
    try {
      file = decodeURIComponent(path);
    } catch {
      return `](${path})`;
    }
    const line = offset !== undefined ? `#L${files.lineIndex(file).positionAt(Number(offset)).line + 1}` : '';
    return `](${files.uri(file)}${line})`;
  });
}

const bundleFileLink = new RegExp(`\\]\\(${bundleFileScheme}([^)#\\s]*)(?:#(\\d+))?\\)`, 'g');

/** A Markdown link: its text, then its target. */
const markdownLink = /\[((?:\\.|[^\]\\\n])*)\]\([^)\s]*\)/g;

/**
 * The IDE's Markdown as plain text, for a client that shows text as it is: a link's text kept
 * without its target, the lines that open and close code blocks, bold and italic marks and the
 * backticks of code spans taken out, a backslash escape left as the character it escapes (an asterisk between blanks or inside a word
 * is no mark, and stays).
 */
export function plainText(markdown: string): string {
  return markdown.replace(markdownLink, '$1').replace(/\\([\\`*_{}\[\]()#+\-.!|<>])|^```[^\n]*(?:\n|$)|\*\*|(?<![\w*\\])\*(?=\S)|(?<=\S)\*(?![\w*])|`/gm, (_, escaped: string | undefined) => escaped ?? '');
}

/**
 * The item kind a completion is shown with: its own, or, for a client that does not list that
 * one, the nearest of the protocol's first set (which every client shows).
 */
export function toCompletionKind(kind: CompletionKind, shown: ReadonlySet<number>): CompletionItemKind {
  const own = ownCompletionKind(kind);
  if (shown.has(own)) return own;
  switch (own) {
    case CompletionItemKind.Constant:
    case CompletionItemKind.EnumMember:
      return CompletionItemKind.Value;
    case CompletionItemKind.Operator:
      return CompletionItemKind.Keyword;
    default:
      return CompletionItemKind.Text;
  }
}

function ownCompletionKind(kind: CompletionKind): CompletionItemKind {
  switch (kind) {
    case 'card':
      return CompletionItemKind.Module;
    case 'version':
      return CompletionItemKind.Constant;
    case 'port':
      return CompletionItemKind.Interface;
    case 'node':
      return CompletionItemKind.Variable;
    case 'attribute':
      return CompletionItemKind.Property;
    case 'keyword':
      return CompletionItemKind.Keyword;
    case 'term':
      return CompletionItemKind.EnumMember;
    case 'field':
      return CompletionItemKind.Field;
    case 'operator':
      return CompletionItemKind.Operator;
    case 'value':
      return CompletionItemKind.Value;
  }
}

/** More items than this are narrowed by the typed prefix, then cut, and the list is marked incomplete. */
export const completionLimit = 1000;

/**
 * The replaced range becomes each item's `textEdit` when it is on one line and holds the
 * cursor (the LSP rule); otherwise items carry `insertText` and the client decides. A client
 * that takes `itemDefaults.editRange` gets the range once for the whole list.
 *
 * A long list (thousands of cards in a large bundle) would cost more to send and parse than to
 * compute: beyond `completionLimit` items, only those whose label holds the typed prefix's
 * characters in order are kept (every item a client's fuzzy filter could show), then the first
 * `completionLimit` in sort order, and the list is marked incomplete so the client asks again
 * as the user types.
 */
export function toCompletionList(files: FileContext, file: string, position: Position, result: CompletionResult, support: ClientSupport): CompletionList {
  const index = files.lineIndex(file);
  const range = toRange(index, result.span);
  const usable =
    range.start.line === range.end.line &&
    range.start.line === position.line &&
    range.start.character <= position.character &&
    position.character <= range.end.character;
  let items = result.items;
  let isIncomplete = false;
  if (items.length > completionLimit) {
    const cursor = toOffset(index, position);
    const typed = usable ? index.text.slice(result.span.start, cursor).toLowerCase() : '';
    const holds = (item: CompletionItem): boolean => holdsInOrder((item.filterText ?? item.label).toLowerCase(), typed);
    items = items.filter(holds);
    if (items.length > completionLimit) {
      // the same kept items are sorted once (a stable sort then a filter keeps the order a filter then a sort gives)
      let sorted = sortedItems.get(result.items);
      if (sorted === undefined) {
        sorted = [...result.items].sort((a, b) => compareSortText(a.sortText ?? a.label, b.sortText ?? b.label));
        sortedItems.set(result.items, sorted);
      }
      items = sorted.filter(holds).slice(0, completionLimit);
    }
    isIncomplete = true;
  }
  const shared = usable && support.completionEditRange;
  const perItemRange = usable && !shared;
  return {
    isIncomplete,
    ...(shared ? { itemDefaults: { editRange: range } } : {}),
    items: items.map((item) => (perItemRange ? toCompletionItem(item, range, false, support) : keptCompletionItem(item, usable ? range : undefined, shared, support))),
  };
}

/** A long item list in sort order, per list (the IDE layer hands back the same list while nothing it reads changed). */
const sortedItems = new WeakMap<readonly CompletionItem[], readonly CompletionItem[]>();

/** LSP items that carry no range of their own, per IDE item, with the support and the form they were made for. */
const convertedItems = new WeakMap<CompletionItem, { readonly support: ClientSupport; readonly shared: boolean; readonly lsp: LspCompletionItem }>();

function keptCompletionItem(item: CompletionItem, range: Range | undefined, shared: boolean, support: ClientSupport): LspCompletionItem {
  // (without a range of its own, an item's LSP form reads only the item, the form and the support)
  const form = range !== undefined && shared;
  const kept = convertedItems.get(item);
  if (kept !== undefined && kept.support === support && kept.shared === form) return kept.lsp;
  const lsp = toCompletionItem(item, range, shared, support);
  convertedItems.set(item, { support, shared: form, lsp });
  return lsp;
}

function holdsInOrder(text: string, characters: string): boolean {
  let at = 0;
  for (let i = 0; i < characters.length; i++) {
    at = text.indexOf(characters[i], at);
    if (at < 0) return false;
    at++;
  }
  return true;
}

function compareSortText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function toCompletionItem(item: CompletionItem, range: Range | undefined, sharedRange: boolean, support: ClientSupport): LspCompletionItem {
  const snippet = item.snippet !== undefined && support.snippets ? item.snippet : undefined;
  const newText = snippet ?? item.insertText ?? item.label;
  const out: LspCompletionItem = { label: item.label, kind: toCompletionKind(item.kind, support.completionKinds) };
  if (snippet !== undefined) out.insertTextFormat = InsertTextFormat.Snippet;
  if (item.detail !== undefined) out.detail = item.detail;
  if (item.documentation !== undefined) {
    out.documentation = support.documentationMarkdown ? { kind: MarkupKind.Markdown, value: item.documentation } : plainText(item.documentation);
  }
  if (item.sortText !== undefined) out.sortText = item.sortText;
  if (item.filterText !== undefined) out.filterText = item.filterText;
  if (range && sharedRange) {
    if (newText !== item.label) out.textEditText = newText;
  } else if (range) {
    out.textEdit = { range, newText };
  } else if (snippet !== undefined || item.insertText !== undefined) {
    out.insertText = newText;
  }
  return out;
}

// ---- symbols and folding ------------------------------------------------------------------

/**
 * The kind a symbol is shown with: its own, or, for a client that does not list that one, the
 * nearest of the protocol's first set (which every client shows).
 */
export function toSymbolKind(kind: IdeSymbolKind, shown: ReadonlySet<number>): SymbolKind {
  const own = ownSymbolKind(kind);
  if (shown.has(own)) return own;
  switch (own) {
    case SymbolKind.Event:
      return SymbolKind.Function;
    case SymbolKind.EnumMember:
      return SymbolKind.Constant;
    default:
      return SymbolKind.Variable;
  }
}

function ownSymbolKind(kind: IdeSymbolKind): SymbolKind {
  switch (kind) {
    case 'graph':
      return SymbolKind.Module;
    case 'node':
      return SymbolKind.Class;
    case 'edge':
      return SymbolKind.Event;
    case 'subgraph':
      return SymbolKind.Namespace;
    case 'field':
      return SymbolKind.Field;
    case 'port':
      return SymbolKind.Interface;
    case 'term':
      return SymbolKind.EnumMember;
    case 'list':
      return SymbolKind.Array;
  }
}

/**
 * The same tree in LSP terms, built level by level with an explicit list of pending symbols
 * (never by recursion, so a tree of any depth converts); the IDE layer already keeps the depth
 * within what a client's JSON reader takes (shared/src/ide/symbols.ts `symbolDepthLimit`).
 */
export function toDocumentSymbols(index: LineIndex, symbols: readonly DocumentSymbol[], support: Pick<ClientSupport, 'symbolKinds'>): LspDocumentSymbol[] {
  const pending: { readonly from: readonly DocumentSymbol[]; readonly into: LspDocumentSymbol[] }[] = [];
  const convert = (s: DocumentSymbol): LspDocumentSymbol => {
    const range = toRange(index, s.span);
    let selectionRange = toRange(index, s.selectionSpan);
    if (!contains(range, selectionRange)) selectionRange = range;
    const children: LspDocumentSymbol[] = [];
    const out: LspDocumentSymbol = { name: s.name.trim() === '' ? '(unnamed)' : s.name, kind: toSymbolKind(s.kind, support.symbolKinds), range, selectionRange, children };
    if (s.detail !== undefined) out.detail = s.detail;
    if (s.children.length > 0) pending.push({ from: s.children, into: children });
    return out;
  };
  const top = symbols.map(convert);
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    for (const child of next.from) next.into.push(convert(child));
  }
  return top;
}

/**
 * Folded regions: each from the line holding `start` to the line holding `end`; one-line folds
 * fold nothing. Comment folds carry the LSP `comment` kind (a client may fold them on opening);
 * blocks carry none (the LSP's `region` is for `#region` markers). At most `limit` of them.
 */
export function toFoldingRanges(index: LineIndex, folds: readonly Fold[], limit = Number.POSITIVE_INFINITY): FoldingRange[] {
  const out: FoldingRange[] = [];
  for (const fold of folds) {
    const startLine = index.positionAt(fold.start).line;
    const endLine = index.positionAt(fold.end).line;
    if (endLine <= startLine) continue;
    switch (fold.kind) {
      case 'comment':
        out.push({ startLine, endLine, kind: FoldingRangeKind.Comment });
        break;
      case 'block':
        out.push({ startLine, endLine });
        break;
    }
  }
  // a client's `rangeLimit`: the folds that start first (the outer ones of a nest), in that order
  if (out.length > limit) return out.sort((a, b) => a.startLine - b.startLine || b.endLine - a.endLine).slice(0, Math.max(0, limit));
  return out;
}

/** For clients without hierarchical symbols: the same symbols, flattened, each with its container's name. */
export function toSymbolInformation(uri: string, symbols: readonly LspDocumentSymbol[], container?: string): SymbolInformation[] {
  const out: SymbolInformation[] = [];
  for (const s of symbols) {
    out.push({ name: s.name, kind: s.kind, location: { uri, range: s.range }, ...(container !== undefined ? { containerName: container } : {}) });
    out.push(...toSymbolInformation(uri, s.children ?? [], s.name));
  }
  return out;
}

// ---- edits --------------------------------------------------------------------------------

/**
 * Converts an edit. With `documentChanges` support the edit is a list of versioned text
 * edits (open documents carry their version, so a stale edit is refused by the client)
 * followed by the file renames; without it, a plain `changes` map and renames are dropped.
 * A new file is created (never over one that exists), then its text inserted, before the other
 * changes; an edit that creates a file is undefined for a client that cannot create one.
 * Undefined when nothing of the edit can be expressed for this client.
 */
export function toWorkspaceEdit(files: FileContext, edit: WorkspaceEdit, support: ClientSupport): LspWorkspaceEdit | undefined {
  const renames = edit.renames ?? [];
  const creates = edit.creates ?? [];
  if (creates.length > 0 && !(support.documentChanges && support.createFiles)) return undefined;
  if (support.documentChanges) {
    const documentChanges: (TextDocumentEdit | CreateFile | RenameFile)[] = [];
    for (const created of creates) {
      const uri = files.uri(created.file);
      documentChanges.push(
        { kind: 'create', uri, options: { overwrite: false, ignoreIfExists: false } },
        { textDocument: { uri, version: null }, edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: created.text }] },
      );
    }
    for (const change of edit.changes) {
      if (change.edits.length === 0) continue;
      const index = files.lineIndex(change.file);
      documentChanges.push({
        textDocument: { uri: files.uri(change.file), version: files.versions.get(change.file) ?? null },
        edits: change.edits.map((e): LspTextEdit => ({ range: toRange(index, e.span), newText: e.newText })),
      });
    }
    if (support.renameFiles) {
      for (const r of renames) documentChanges.push({ kind: 'rename', oldUri: files.uri(r.from), newUri: files.uri(r.to) });
    }
    return documentChanges.length > 0 ? { documentChanges } : undefined;
  }
  const changes: Record<string, LspTextEdit[]> = {};
  let any = false;
  for (const change of edit.changes) {
    if (change.edits.length === 0) continue;
    const index = files.lineIndex(change.file);
    const uri = files.uri(change.file);
    const list = changes[uri] ?? (changes[uri] = []);
    for (const e of change.edits) list.push({ range: toRange(index, e.span), newText: e.newText });
    any = true;
  }
  return any ? { changes } : undefined;
}

export function toCodeAction(
  files: FileContext,
  action: CodeAction,
  support: ClientSupport,
  diagnosticsOf: (d: Diagnostic) => LspDiagnostic | undefined,
): LspCodeAction | undefined {
  const edit = toWorkspaceEdit(files, action.edit, support);
  if (!edit) return undefined;
  const out: LspCodeAction = { title: action.title, kind: action.kind, edit };
  if (action.show !== undefined) {
    // the edit, then the place to look at: a client that cannot be asked to open a document gets
    // no such action (the same edit is offered on its own)
    // (an action whose place is optional is offered without it)
    if (!support.showDocument) {
      if (action.show.optional !== true) return undefined;
    } else {
      // (a file the edit creates is read from the text it is given)
      const created = action.edit.creates?.find((c) => c.file === action.show?.file);
      const index = created !== undefined ? lineIndex(created.text) : files.lineIndex(action.show.file);
      const place = [files.uri(action.show.file), toRange(index, action.show.span)];
      out.command = { title: action.title, command: showLocationCommand, arguments: action.show.suggest === true ? [...place, showSuggest] : place };
    }
  }
  if (action.isPreferred && support.preferredActions) out.isPreferred = true;
  if (action.diagnostics && action.diagnostics.length > 0) {
    const converted: LspDiagnostic[] = [];
    for (const d of action.diagnostics) {
      const c = diagnosticsOf(d);
      if (c) converted.push(c);
    }
    if (converted.length > 0) out.diagnostics = converted;
  }
  return out;
}

/**
 * The command a code action runs after its edit to open a place (`[uri, range]`, then
 * `showSuggest` when completion is wanted there): the server asks the client to show it. The
 * VS Code extension then asks for completion itself (client/src/extension.ts); another client
 * shows the place.
 */
export const showLocationCommand = 'darkprint.showLocation';

/** The third argument of `showLocationCommand` when the place is one to complete (a pin to pick). */
export const showSuggest = 'suggest';

/**
 * The command a code action becomes for a client that takes only commands (no
 * `codeActionLiteralSupport`): its arguments are the action's edit and, when it has one, the
 * action's own command to run after it; the server sends the edit back with `workspace/applyEdit`.
 */
export const applyEditCommand = 'darkprint.applyEdit';

/**
 * A code action as a client takes it: the literal, or for a client that takes only commands
 * the command that applies it (`applyEditCommand`), or nothing when that client cannot be sent
 * an edit either.
 */
export function toCodeActionOrCommand(action: LspCodeAction, support: ClientSupport): LspCodeAction | Command | undefined {
  if (support.codeActionLiterals) return action;
  if (!support.applyEdit || action.edit === undefined) return undefined;
  return { title: action.title, command: applyEditCommand, arguments: action.command !== undefined ? [action.edit, action.command] : [action.edit] };
}

// ---- formatting ---------------------------------------------------------------------------

/** The formatter's options from the client's: one level of indentation is `tabSize` spaces (at most 16), or a tab. */
export function toFormatOptions(options: FormattingOptions): FormatOptions {
  return { indent: options.insertSpaces ? ' '.repeat(Math.max(1, Math.min(16, options.tabSize))) : '\t' };
}

/** Text edits of one file, in LSP terms. */
export function toTextEdits(index: LineIndex, edits: readonly TextEdit[]): LspTextEdit[] {
  return edits.map((e) => ({ range: toRange(index, e.span), newText: e.newText }));
}

export function toPrepareRename(index: LineIndex, target: RenameTarget): { range: Range; placeholder: string } {
  return { range: toRange(index, target.span), placeholder: target.placeholder };
}

function contains(outer: Range, inner: Range): boolean {
  const before = (a: Position, b: Position): boolean => a.line < b.line || (a.line === b.line && a.character <= b.character);
  return before(outer.start, inner.start) && before(inner.end, outer.end);
}

// ---- highlights, semantic tokens, inlay hints, code lenses, links, workspace symbols -------

export function toDocumentHighlights(index: LineIndex, highlights: readonly Highlight[]): DocumentHighlight[] {
  return highlights.map((h) => ({ range: toRange(index, h.span), kind: h.kind === 'write' ? DocumentHighlightKind.Write : DocumentHighlightKind.Read }));
}

/**
 * THE semantic token legend: the number of each of the IDE layer's token types and modifiers.
 * The types are DarkPrint's own; the extension's manifest (`semanticTokenTypes`,
 * `semanticTokenScopes`) gives each a standard super type and TextMate scopes, so that every
 * theme colours them.
 */
const tokenTypeNumbers: Readonly<Record<SemanticTokenType, number>> = {
  node: 0,
  card: 1,
  cardVersion: 2,
  port: 3,
  attractorAttribute: 4,
  darkprintAttribute: 5,
  unknownAttribute: 6,
  nodeType: 7,
  dataType: 8,
  tool: 9,
  phase: 10,
  riskMarker: 11,
};

/** Each modifier's bit (`declaration` is the protocol's own, `unresolved` ours; why there is no `deprecated`: docs/architecture.md#semantic-token-modifiers). */
const tokenModifierBits: Readonly<Record<SemanticTokenModifier, number>> = { declaration: 1, unresolved: 2 };

export const semanticTokensLegend: { readonly tokenTypes: string[]; readonly tokenModifiers: string[] } = {
  tokenTypes: namesInOrder(tokenTypeNumbers),
  tokenModifiers: namesInOrder(tokenModifierBits),
};

function namesInOrder(numbers: Readonly<Record<string, number>>): string[] {
  return Object.entries(numbers)
    .sort((a, b) => a[1] - b[1])
    .map(([name]) => name);
}

/**
 * Tokens (sorted, one line each) in the protocol's relative encoding: per token its line less the
 * last one's, its character (less the last one's on the same line), length, type and modifiers.
 * The first token's position is the line index's; from there the walk counts the line breaks
 * between one token and the next as the line index does (LF, CRLF and CR each end a line), so a
 * whole topology's tokens take one pass over its text.
 */
export function toSemanticTokens(index: LineIndex, tokens: readonly SemanticToken[]): number[] {
  const data: number[] = new Array<number>(tokens.length * 5);
  const text = index.text;
  /** Where the walk is: an offset and its line and character. */
  let offset = 0;
  let line = 0;
  let character = 0;
  let lastLine = 0;
  let lastCharacter = 0;
  for (let t = 0; t < tokens.length; t++) {
    const token = tokens[t];
    if (t === 0) {
      const at = index.positionAt(token.start);
      offset = token.start;
      line = at.line;
      character = at.character;
    } else {
      for (; offset < token.start; offset++) {
        const c = text.charCodeAt(offset);
        if (c === 10 || (c === 13 && text.charCodeAt(offset + 1) !== 10)) {
          line++;
          character = 0;
        } else if (c !== 13) character++;
      }
    }
    let modifiers = 0;
    for (let m = 0; m < token.modifiers.length; m++) modifiers |= tokenModifierBits[token.modifiers[m]];
    const k = t * 5;
    data[k] = line - lastLine;
    data[k + 1] = line === lastLine ? character - lastCharacter : character;
    data[k + 2] = token.end - token.start;
    data[k + 3] = tokenTypeNumbers[token.type];
    data[k + 4] = modifiers;
    lastLine = line;
    lastCharacter = character;
  }
  return data;
}

/**
 * The edit that turns one token list (encoded) into the next: what lies between their common
 * start and their common end. Tokens are encoded relative to the one before, so an edit moves
 * only the numbers of the token after it, and the edit stays about as small as the change.
 */
export function toSemanticTokensEdits(before: readonly number[], after: readonly number[]): SemanticTokensEdit[] {
  const shorter = Math.min(before.length, after.length);
  let start = 0;
  while (start < shorter && before[start] === after[start]) start++;
  let tail = 0;
  while (tail < shorter - start && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail++;
  if (start === before.length && start === after.length) return [];
  return [{ start, deleteCount: before.length - start - tail, data: after.slice(start, after.length - tail) }];
}

export function toInlayHints(index: LineIndex, hints: readonly InlayHint[], support: Pick<ClientSupport, 'markdown'>): LspInlayHint[] {
  return hints.map((h) => ({
    position: toRange(index, { start: h.offset, end: h.offset }).start,
    label: h.label,
    kind: InlayHintKind.Type,
    paddingLeft: true,
    tooltip: support.markdown ? { kind: MarkupKind.Markdown, value: h.tooltip } : plainText(h.tooltip),
  }));
}

/** The client commands a code lens may name: the extension's report, and its references list (`[uri, position, locations]`). */
export const showReportCommand = 'darkprint.showReport';
export const showReferencesCommand = 'darkprint.showReferences';

/**
 * A code lens's command. Opening a place is the server's `showLocationCommand`, for a client it
 * can ask to show a document; the report and a list of places are commands of the DarkPrint
 * extension. A lens whose action this client cannot take is shown as text alone (a command with
 * no id, which clients show without a link).
 */
export function toCodeLensCommand(files: FileContext, file: string, lens: CodeLens, support: Pick<ClientSupport, 'showDocument'>): Command {
  const action = lens.action;
  const title = lens.title;
  if (action === undefined) return { title, command: '' };
  switch (action.kind) {
    case 'report':
      return { title, command: showReportCommand, arguments: [files.uri(file)] };
    case 'show':
      if (!support.showDocument) return { title, command: '' };
      return { title, command: showLocationCommand, arguments: [files.uri(action.target.file), toRange(files.lineIndex(action.target.file), action.target.span)] };
    case 'list':
      return { title, command: showReferencesCommand, arguments: [files.uri(action.at.file), toRange(files.lineIndex(action.at.file), action.at.span).start, action.places.map((p) => toLocation(files, p))] };
  }
}

/**
 * Code lenses without their commands, each carrying `data` for `codeLens/resolve`: an editor
 * resolves the lenses it shows (a screenful), so a topology of thousands of nodes sends a range
 * per lens and builds commands only for those.
 */
export function toUnresolvedCodeLenses(index: LineIndex, lenses: readonly CodeLens[], data: (lens: number) => unknown): LspCodeLens[] {
  return lenses.map((lens, i) => ({ range: toRange(index, lens.span), data: data(i) }));
}

export function toDocumentLinks(files: FileContext, file: string, links: readonly DocumentLink[]): LspDocumentLink[] {
  const index = files.lineIndex(file);
  return links.map((link) => ({ range: toRange(index, link.span), target: files.uri(link.target), tooltip: link.tooltip }));
}

/** Workspace symbols, each located through the files of its own bundle (`filesOf(match.bundle)`). */
export function toWorkspaceSymbols(matches: readonly SymbolMatch[], filesOf: (bundle: number) => FileContext, support: Pick<ClientSupport, 'workspaceSymbolKinds'>): SymbolInformation[] {
  return matches.map(({ bundle, symbol }) => ({
    name: symbol.name,
    kind: toWorkspaceSymbolKind(symbol.kind, support.workspaceSymbolKinds),
    location: toLocation(filesOf(bundle), symbol.location),
    ...(symbol.detail !== undefined ? { containerName: symbol.detail } : {}),
  }));
}

function toWorkspaceSymbolKind(kind: WorkspaceSymbolKind, shown: ReadonlySet<number>): SymbolKind {
  switch (kind) {
    case 'node':
      return toSymbolKind('node', shown);
    case 'card':
      return SymbolKind.Module;
    case 'term':
      return toSymbolKind('term', shown);
  }
}
