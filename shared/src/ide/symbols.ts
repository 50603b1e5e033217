/**
 * Document symbols and folding ranges.
 * Topology: the graph, its subgraphs (nested), the nodes (with their pins) and the edges, each
 * placed in the innermost subgraph whose range holds its whole range (so an edge from a subgraph,
 * `{a b} -> c`, sits beside that subgraph, in the scope whose body holds the statement: every
 * symbol's range lies within its parent's, as LSP requires). Only the first graph is listed: the
 * parser ignores everything after the `}` that closes it (a second graph, reported as
 * `dot/unsupported`), so no node or edge of it is read and an outline entry for it would show
 * a graph the engine does not have. Folds cover every `{ … }` and `[ … ]` that spans
 * lines, multi-line block comments and runs of line comments (the comment folds marked so).
 * Cards and other YAML/JSON files: the top-level fields, ports under `inputs`/`outputs`, list
 * entries, and the terms of the extensions file; folds for every entry that spans lines.
 *
 * Both answers take time in proportion to the document (up to the sorting of the results) and
 * walk every tree with an explicit stack, never by recursion, so no nesting a user writes can
 * exhaust the call stack or stall the server. The symbol tree is at most `symbolDepthLimit`
 * levels deep (every topology the parser reads in full fits): symbols nested deeper are
 * flattened into the last level, in document order, under their ancestor on the level above it.
 * (No one reads an outline that deep, and a client's JSON writer and reader recurse on the depth
 * of what they are sent: `JSON.stringify` of a tree a few thousand levels deep overflows.)
 */
import type { DotToken } from '../syntax/dot-model';
import { maxSubgraphDepth } from '../syntax/dot-parser';
import { deref, formatOf, type YamlEntry, type YamlNode } from '../syntax/yaml';
import { isTopologyPath, textOf, topologyView, pinOf, declarationSpan, type TopologyView, isExtensionsPath } from './context';
import { dataDocument, termKindOfField } from './data-tree';
import { item } from './data-context';
import type { Span } from '../text';
import type { DocumentSymbol, Fold, IdeBundle } from './types';

export function documentSymbols(bundle: IdeBundle, file: string): DocumentSymbol[] {
  const text = textOf(bundle, file);
  if (text === undefined) return [];
  if (isTopologyPath(file)) {
    const view = topologyView(bundle, file);
    return view === undefined ? [] : topologySymbols(view);
  }
  if (/\.(ya?ml|json)$/i.test(file)) return isExtensionsPath(file) ? extensionsSymbols(file, text) : dataSymbols(file, text);
  return [];
}

export function foldingRanges(bundle: IdeBundle, file: string): Fold[] {
  const text = textOf(bundle, file);
  if (text === undefined) return [];
  if (isTopologyPath(file)) {
    const view = topologyView(bundle, file);
    return view === undefined ? [] : topologyFolds(view);
  }
  if (/\.(ya?ml|json)$/i.test(file)) return dataFolds(file, text);
  return [];
}

/**
 * How many levels deep the symbol tree goes at most (the graph, or a data file's top-level
 * fields, being the first): enough for every topology the parser reads in full (the graph,
 * subgraphs nested `maxSubgraphDepth` deep, their nodes). Only subgraphs nested past that, a parse
 * error whose contents are not read, are flattened.
 */
export const symbolDepthLimit = maxSubgraphDepth + 2;

// ---------------------------------------------------------------------- topology symbols

type Mutable = { -readonly [K in keyof DocumentSymbol]: K extends 'children' ? Mutable[] : DocumentSymbol[K] };

function topologySymbols(view: TopologyView): DocumentSymbol[] {
  const graph = view.graph;
  if (graph === undefined) return [];
  // What follows the first graph is not read (see the header): its braces are no subgraphs of it.
  const readEnd = view.parse.trailing?.start ?? view.text.length;
  const blocks = braceBlocks(view.significant, readEnd);
  const body = blocks[0];
  const graphStart = graph.strictSpan?.start ?? graph.keywordSpan.start;
  const root: Mutable = {
    name: graph.name ?? '(unnamed graph)',
    detail: graph.directed ? 'digraph' : 'graph',
    kind: 'graph',
    span: { start: Math.min(graphStart, body?.open.start ?? graphStart), end: Math.max(body?.end ?? readEnd, graph.keywordSpan.end) },
    selectionSpan: graph.nameSpan ?? graph.keywordSpan,
    children: [],
  };
  const subgraphs: Mutable[] = [];
  for (let i = 1; i < blocks.length; i++) {
    const block = blocks[i];
    subgraphs.push({
      name: block.name ?? '(anonymous subgraph)',
      kind: 'subgraph',
      span: { start: block.start, end: block.end },
      selectionSpan: block.nameSpan ?? block.open,
      children: [],
    });
  }
  const members: Mutable[] = [];
  for (const node of graph.nodes) {
    const selection = declarationSpan(graph, node);
    const statement = node.statements[0];
    const pin = pinOf(node);
    members.push({
      name: node.id,
      ...(pin.attr !== undefined ? { detail: pin.ref ?? pin.attr.value } : {}),
      kind: 'node',
      span: statement ?? selection,
      selectionSpan: selection,
      children: [],
    });
  }
  for (const edge of graph.edges) {
    members.push({ name: `${edge.source} -> ${edge.target}`, kind: 'edge', span: edge.span, selectionSpan: edge.sourceSpan, children: [] });
  }
  nest(root, subgraphs, members);
  // The graph's range holds every symbol the parser read; should broken text ever put one outside it, the range grows to hold it.
  for (const child of root.children) root.span = { start: Math.min(root.span.start, child.span.start), end: Math.max(root.span.end, child.span.end) };
  // Siblings in document order; ties keep the order above (subgraphs, then nodes, then edges).
  const order = new Map<Mutable, number>();
  for (const symbol of subgraphs) order.set(symbol, order.size);
  for (const symbol of members) order.set(symbol, order.size);
  const bySpan = (a: Mutable, b: Mutable): number => a.span.start - b.span.start || a.span.end - b.span.end || (order.get(a) ?? 0) - (order.get(b) ?? 0);
  root.children.sort(bySpan);
  for (const subgraph of subgraphs) subgraph.children.sort(bySpan);
  limitDepth(root);
  return [root];
}

/**
 * Puts each subgraph, and each member (node or edge), into the smallest subgraph whose span holds
 * its whole span; the graph takes the rest. An edge whose source is a subgraph (`{a b} -> c`,
 * `subgraph s {a} -> c`) starts where that subgraph starts but runs past it, so it goes to the
 * scope around it: the one whose body holds the edge statement. One sweep in document order:
 * brace blocks nest, so the subgraphs open at a point form a stack. (Unlike a search for the
 * smallest holder, the sweep cannot make a cycle of two subgraphs with the same span, as an
 * unclosed `subgraph { {` has.)
 */
function nest(root: Mutable, subgraphs: readonly Mutable[], members: readonly Mutable[]): void {
  const opening = subgraphs.map((symbol, index) => ({ symbol, index }));
  opening.sort((a, b) => a.symbol.span.start - b.symbol.span.start || b.symbol.span.end - a.symbol.span.end || a.index - b.index);
  const placing = members.map((symbol, index) => ({ symbol, index }));
  placing.sort((a, b) => a.symbol.span.start - b.symbol.span.start || a.index - b.index);
  // The open subgraphs, outermost first, above the graph (which is never taken off).
  const open: Mutable[] = [root];
  const top = (): Mutable => open[open.length - 1];
  let next = 0;
  for (const { symbol } of placing) {
    const at = symbol.span;
    // Subgraphs starting at or before the member open first (a block starting where it starts may hold it).
    for (; next < opening.length && opening[next].symbol.span.start <= at.start; next++) {
      const subgraph = opening[next].symbol;
      while (open.length > 1 && top().span.end < subgraph.span.end) open.pop();
      top().children.push(subgraph);
      open.push(subgraph);
    }
    while (open.length > 1 && top().span.end < at.start) open.pop();
    // The top holds the member unless the member runs out of it: an edge from a subgraph, or broken text.
    let holder = open.length - 1;
    while (holder > 0 && open[holder].span.end < at.end) holder--;
    open[holder].children.push(symbol);
  }
  for (; next < opening.length; next++) {
    const subgraph = opening[next].symbol;
    while (open.length > 1 && top().span.end < subgraph.span.end) open.pop();
    top().children.push(subgraph);
    open.push(subgraph);
  }
}

/** Cuts the tree at `symbolDepthLimit` levels: a symbol on the level above the last takes all its descendants as children, in document order. */
function limitDepth(root: Mutable): void {
  const pending: { readonly symbol: Mutable; readonly level: number }[] = [{ symbol: root, level: 1 }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { symbol, level } = next;
    if (level + 1 < symbolDepthLimit) {
      for (const child of symbol.children) pending.push({ symbol: child, level: level + 1 });
      continue;
    }
    if (symbol.children.every((child) => child.children.length === 0)) continue;
    const flat: Mutable[] = [];
    const walk = [...symbol.children].reverse();
    for (let descendant = walk.pop(); descendant !== undefined; descendant = walk.pop()) {
      flat.push(descendant);
      for (let i = descendant.children.length - 1; i >= 0; i--) walk.push(descendant.children[i]);
      descendant.children = [];
    }
    symbol.children = flat;
  }
}

interface Block {
  readonly start: number;
  readonly open: Span;
  readonly end: number;
  readonly name?: string;
  readonly nameSpan?: Span;
}

/**
 * Every `{ … }` that starts before `readEnd` in source order (the first is the graph body), with
 * the `subgraph [name]` before it; one never closed before `readEnd` ends there.
 */
function braceBlocks(tokens: readonly DotToken[], readEnd: number): Block[] {
  const blocks: Block[] = [];
  const stack: { index: number; block: Omit<Block, 'end'> }[] = [];
  const slots: (Block | undefined)[] = [];
  for (let i = 0; i < tokens.length && tokens[i].span.start < readEnd; i++) {
    const t = tokens[i];
    if (t.kind === 'lbrace') {
      let start = t.span.start;
      let name: string | undefined;
      let nameSpan: Span | undefined;
      const previous = tokens[i - 1];
      const beforePrevious = tokens[i - 2];
      if (previous?.kind === 'keyword' && previous.text.toLowerCase() === 'subgraph') start = previous.span.start;
      else if (previous !== undefined && isName(previous) && beforePrevious?.kind === 'keyword' && beforePrevious.text.toLowerCase() === 'subgraph') {
        start = beforePrevious.span.start;
        name = previous.value;
        nameSpan = previous.span;
      }
      stack.push({ index: slots.length, block: { start, open: t.span, ...(name !== undefined ? { name, nameSpan } : {}) } });
      slots.push(undefined);
    } else if (t.kind === 'rbrace') {
      const top = stack.pop();
      if (top !== undefined) slots[top.index] = { ...top.block, end: t.span.end };
    }
  }
  for (const open of stack) slots[open.index] = { ...open.block, end: readEnd };
  for (const slot of slots) if (slot !== undefined) blocks.push(slot);
  return blocks;
}

/** A token that can name a subgraph (an id, a number, a quoted or an HTML string; never a bracket of broken text). */
function isName(token: DotToken): boolean {
  return token.kind === 'id' || token.kind === 'number' || token.kind === 'string' || token.kind === 'html';
}

// ---------------------------------------------------------------------- topology folds

function topologyFolds(view: TopologyView): Fold[] {
  const text = view.text;
  const out: Fold[] = [];
  const multiline = lineBreakTest(text);
  // The open brackets, and for each kind the indexes in `opens` of its own.
  const opens: DotToken[] = [];
  const openBraces: number[] = [];
  const openBrackets: number[] = [];
  for (const t of view.significant) {
    if (t.kind === 'lbrace' || t.kind === 'lbracket') {
      (t.kind === 'lbrace' ? openBraces : openBrackets).push(opens.length);
      opens.push(t);
    } else if (t.kind === 'rbrace' || t.kind === 'rbracket') {
      // The nearest open bracket of the same kind closes, with every bracket opened after it.
      const at = (t.kind === 'rbrace' ? openBraces : openBrackets).at(-1);
      if (at === undefined) continue;
      const start = opens[at].span.start;
      while (opens.length > at) opens.pop();
      while ((openBraces.at(-1) ?? -1) >= at) openBraces.pop();
      while ((openBrackets.at(-1) ?? -1) >= at) openBrackets.pop();
      if (multiline(start, t.span.end)) out.push({ start, end: t.span.end, kind: 'block' });
    }
  }
  const lineComments: Span[] = [];
  for (const t of view.parse.tokens) {
    if (t.kind === 'block-comment' && multiline(t.span.start, t.span.end)) out.push({ start: t.span.start, end: t.span.end, kind: 'comment' });
    if (t.kind === 'line-comment' || t.kind === 'hash-comment') lineComments.push(t.span);
  }
  out.push(...commentRuns(text, lineComments));
  return out.sort((a, b) => a.start - b.start || b.end - a.end);
}

/**
 * Whether `[start, end)` of `text` holds a CR or an LF, answered by halving the sorted offsets
 * of every CR and LF (found once, on the first question), never by slicing the text.
 */
function lineBreakTest(text: string): (start: number, end: number) => boolean {
  let breaks: number[] | undefined;
  const find = (): number[] => {
    const found: number[] = [];
    // Without a CR, the native search finds every LF (far faster than reading each code unit).
    if (text.indexOf('\r') < 0) {
      for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) found.push(at);
      return found;
    }
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code === 10 || code === 13) found.push(i);
    }
    return found;
  };
  return (start, end) => {
    if (end <= start) return false;
    const all = (breaks ??= find());
    // the first break at or after `start`, then whether it comes before `end`
    let low = 0;
    let high = all.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (all[middle] < start) low = middle + 1;
      else high = middle;
    }
    return low < all.length && all[low] < end;
  };
}

// ---------------------------------------------------------------------- data files

function dataSymbols(file: string, text: string): DocumentSymbol[] {
  const root = deref(dataDocument(file, text).root);
  if (root?.kind !== 'mapping') return [];
  const out: DocumentSymbol[] = [];
  for (const entry of root.entries.values()) {
    const value = deref(entry.value);
    const span = { start: entry.keySpan.start, end: Math.max(entry.keySpan.end, entry.value.span.end) };
    const path = [entry.key];
    if (value?.kind === 'sequence') {
      const ports = entry.key === 'inputs' || entry.key === 'outputs';
      const termList = termKindOfField([...path, item]) !== undefined;
      const children: DocumentSymbol[] = [];
      for (const child of value.items) {
        const v = deref(child);
        if (ports && v?.kind === 'mapping') {
          const name = scalarOf(v.entries.get('name')?.value);
          const type = scalarOf(v.entries.get('type')?.value);
          const selectionSpan = entrySelection(child.span, v.entries.get('name'));
          children.push({ name: name ?? '(unnamed port)', ...(type !== undefined ? { detail: type } : {}), kind: 'port', span: child.span, selectionSpan, children: [] });
        } else if (v?.kind === 'scalar' && v.value !== null) {
          children.push({ name: String(v.value), kind: termList ? 'term' : 'field', span: child.span, selectionSpan: child.span, children: [] });
        }
      }
      out.push({ name: entry.key, detail: `${value.items.length} ${value.items.length === 1 ? 'entry' : 'entries'}`, kind: 'list', span, selectionSpan: entry.keySpan, children });
      continue;
    }
    const scalar = value?.kind === 'scalar' && value.value !== null ? String(value.value) : undefined;
    const detail = scalar !== undefined ? shorten(scalar) : value?.kind === 'mapping' ? `${value.entries.size} ${value.entries.size === 1 ? 'key' : 'keys'}` : undefined;
    out.push({ name: entry.key, ...(detail !== undefined ? { detail } : {}), kind: 'field', span, selectionSpan: entry.keySpan, children: [] });
  }
  return out;
}

function extensionsSymbols(file: string, text: string): DocumentSymbol[] {
  const root = deref(dataDocument(file, text).root);
  const terms = root?.kind === 'mapping' ? root.entries.get('terms') : undefined;
  const list = deref(terms?.value);
  if (terms === undefined || list?.kind !== 'sequence') return dataSymbols(file, text);
  const children: DocumentSymbol[] = [];
  for (const child of list.items) {
    const v = deref(child);
    if (v?.kind !== 'mapping') continue;
    const id = scalarOf(v.entries.get('id')?.value);
    const kind = scalarOf(v.entries.get('kind')?.value);
    const label = scalarOf(v.entries.get('label')?.value);
    const detail = [kind, label].filter((s): s is string => s !== undefined).join(': ');
    children.push({ name: id ?? '(no id)', ...(detail !== '' ? { detail } : {}), kind: 'term', span: child.span, selectionSpan: entrySelection(child.span, v.entries.get('id')), children: [] });
  }
  return [{ name: 'terms', detail: `${children.length} local ${children.length === 1 ? 'term' : 'terms'}`, kind: 'list', span: { start: terms.keySpan.start, end: list.span.end }, selectionSpan: terms.keySpan, children }];
}

/**
 * What a list item's symbol selects (LSP requires it to lie within `span`, the item): the value
 * of the entry naming it (`name`, `id`) when written, else the entry's key, else the whole item.
 * The entry can lie outside the item: an alias item (`- *p`) names a mapping written elsewhere,
 * and a flow mapping the parser closes early (`{name: ]x}`) ends before its value.
 */
function entrySelection(span: Span, entry: YamlEntry | undefined): Span {
  const value = entry?.value.span;
  if (value !== undefined && value.end > value.start && within(span, value)) return value;
  if (entry !== undefined && within(span, entry.keySpan)) return entry.keySpan;
  return span;
}

function within(outer: Span, inner: Span): boolean {
  return outer.start <= inner.start && inner.end <= outer.end;
}

function scalarOf(node: YamlNode | undefined): string | undefined {
  const v = deref(node);
  return v?.kind === 'scalar' && v.value !== null ? String(v.value) : undefined;
}

function shorten(value: string): string {
  const line = value.replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 60)}…` : line;
}

function dataFolds(file: string, text: string): Fold[] {
  const out: Fold[] = [];
  const multiline = lineBreakTest(text);
  const root = dataDocument(file, text).root;
  const pending: YamlNode[] = root !== undefined ? [root] : [];
  /** Scalars that span lines: a `#` line inside one is no comment. */
  const scalars: Span[] = [];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    if (node.kind === 'scalar' && multiline(node.span.start, node.span.end)) scalars.push(node.span);
    if (node.kind === 'alias' || node.kind === 'scalar') continue;
    if (node.kind === 'mapping') {
      for (const entry of node.entries.values()) {
        const start = entry.keySpan.start;
        const end = Math.max(entry.keySpan.end, entry.value.span.end);
        if (multiline(start, end)) out.push({ start, end, kind: 'block' });
        pending.push(entry.value);
      }
      continue;
    }
    for (const child of node.items) {
      if (child.kind === 'mapping' && multiline(child.span.start, child.span.end)) out.push({ start: child.span.start, end: child.span.end, kind: 'block' });
      pending.push(child);
    }
  }
  if (formatOf(file) === 'yaml') out.push(...commentRuns(text, yamlLineComments(text, scalars)));
  return out.sort((a, b) => a.start - b.start || b.end - a.end);
}

/**
 * The `#` comments of a YAML text that stand alone on their lines. A `#` line inside a scalar
 * that spans lines (a block scalar's `# heading`) is no comment.
 */
function yamlLineComments(text: string, scalars: readonly Span[]): Span[] {
  const out: Span[] = [];
  for (const line of text.matchAll(/^[ \t]*(#[^\r\n]*)/gm)) {
    const start = line.index + line[0].length - line[1].length;
    if (!scalars.some((span) => span.start <= start && start < span.end)) out.push({ start, end: line.index + line[0].length });
  }
  return out;
}

/**
 * Runs of two or more comments on consecutive lines, nothing but blanks between them (a
 * topology's `//` and `#` lines, a YAML file's `#` lines), each run one fold.
 */
function commentRuns(text: string, comments: readonly Span[]): Fold[] {
  const out: Fold[] = [];
  let run: Span | undefined;
  let lines = 0;
  const close = (): void => {
    if (run !== undefined && lines > 1) out.push({ start: run.start, end: run.end, kind: 'comment' });
  };
  for (const comment of comments) {
    if (run !== undefined && /^[ \t]*(\r\n|\r|\n)[ \t]*$/.test(text.slice(run.end, comment.start))) {
      run = { start: run.start, end: comment.end };
      lines++;
    } else {
      close();
      run = comment;
      lines = 1;
    }
  }
  close();
  return out;
}
