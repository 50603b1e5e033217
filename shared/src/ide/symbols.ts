/**
 * Document symbols and folding ranges.
 * Topology: the graph, its subgraphs (nested), the nodes (with their pins) and the edges, each
 * placed in the innermost subgraph that holds it; folds for every `{ … }` and `[ … ]` that spans
 * lines, multi-line block comments and runs of line comments.
 * Cards and other YAML/JSON files: the top-level fields, ports under `inputs`/`outputs`, list
 * entries, and the terms of the extensions file; folds for every entry that spans lines.
 */
import type { DotToken } from '../syntax/dot-model';
import { deref, type YamlNode } from '../syntax/yaml';
import type { Span } from '../text';
import { isTopologyPath, textOf, topologyView, pinOf, declarationSpan, type TopologyView, isExtensionsPath } from './context';
import { dataDocument, termKindOfField } from './data-tree';
import { item } from './data-context';
import type { DocumentSymbol, IdeBundle } from './types';

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

export function foldingRanges(bundle: IdeBundle, file: string): Span[] {
  const text = textOf(bundle, file);
  if (text === undefined) return [];
  if (isTopologyPath(file)) {
    const view = topologyView(bundle, file);
    return view === undefined ? [] : topologyFolds(view);
  }
  if (/\.(ya?ml|json)$/i.test(file)) return dataFolds(file, text);
  return [];
}

// ---------------------------------------------------------------------- topology symbols

type Mutable = { -readonly [K in keyof DocumentSymbol]: K extends 'children' ? Mutable[] : DocumentSymbol[K] };

function topologySymbols(view: TopologyView): DocumentSymbol[] {
  const graph = view.graph;
  if (graph === undefined) return [];
  const tokens = view.significant;
  const blocks = braceBlocks(tokens, view.text.length);
  const body = blocks[0];
  const graphStart = graph.strictSpan?.start ?? graph.keywordSpan.start;
  const root: Mutable = {
    name: graph.name ?? '(unnamed graph)',
    detail: graph.directed ? 'digraph' : 'graph',
    kind: 'graph',
    span: { start: Math.min(graphStart, body?.open.start ?? graphStart), end: Math.max(body?.end ?? view.text.length, graph.keywordSpan.end) },
    selectionSpan: graph.nameSpan ?? graph.keywordSpan,
    children: [],
  };
  const containers: Mutable[] = [root];
  for (const block of blocks.slice(1)) {
    containers.push({
      name: block.name ?? '(anonymous subgraph)',
      kind: 'subgraph',
      span: { start: block.start, end: block.end },
      selectionSpan: block.nameSpan ?? block.open,
      children: [],
    });
  }
  const place = (symbol: Mutable): void => {
    let best = root;
    for (const c of containers) {
      if (c === root || c === symbol) continue;
      if (c.span.start <= symbol.selectionSpan.start && symbol.selectionSpan.end <= c.span.end && c.span.end - c.span.start < best.span.end - best.span.start) best = c;
    }
    best.children.push(symbol);
  };
  // Subgraphs nest by containment (smallest first so a parent is placed after its children are known).
  for (const c of containers.slice(1)) place(c);
  for (const node of graph.nodes) {
    const selection = declarationSpan(node);
    const statement = node.statements[0];
    const pin = pinOf(node);
    place({
      name: node.id,
      ...(pin.attr !== undefined ? { detail: pin.ref ?? pin.attr.value } : {}),
      kind: 'node',
      span: statement ?? selection,
      selectionSpan: selection,
      children: [],
    });
  }
  for (const edge of graph.edges) {
    place({ name: `${edge.source} -> ${edge.target}`, kind: 'edge', span: edge.span, selectionSpan: edge.sourceSpan, children: [] });
  }
  const sort = (symbol: Mutable): void => {
    symbol.children.sort((a, b) => a.span.start - b.span.start || a.span.end - b.span.end);
    for (const child of symbol.children) sort(child);
  };
  sort(root);
  return [root];
}

interface Block {
  readonly start: number;
  readonly open: Span;
  readonly end: number;
  readonly name?: string;
  readonly nameSpan?: Span;
}

/** Every `{ … }` in source order (the first is the graph body), with the `subgraph [name]` before it. */
function braceBlocks(tokens: readonly DotToken[], textEnd: number): Block[] {
  const blocks: Block[] = [];
  const stack: { index: number; block: Omit<Block, 'end'> }[] = [];
  const slots: (Block | undefined)[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.kind === 'lbrace') {
      let start = t.span.start;
      let name: string | undefined;
      let nameSpan: Span | undefined;
      const previous = tokens[i - 1];
      const beforePrevious = tokens[i - 2];
      if (previous?.kind === 'keyword' && previous.text.toLowerCase() === 'subgraph') start = previous.span.start;
      else if (previous !== undefined && previous.kind !== 'keyword' && beforePrevious?.kind === 'keyword' && beforePrevious.text.toLowerCase() === 'subgraph') {
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
  for (const open of stack) slots[open.index] = { ...open.block, end: textEnd };
  for (const slot of slots) if (slot !== undefined) blocks.push(slot);
  return blocks;
}

// ---------------------------------------------------------------------- topology folds

function topologyFolds(view: TopologyView): Span[] {
  const text = view.text;
  const out: Span[] = [];
  const multiline = (span: Span): boolean => /[\r\n]/.test(text.slice(span.start, span.end));
  const opens: DotToken[] = [];
  for (const t of view.significant) {
    if (t.kind === 'lbrace' || t.kind === 'lbracket') opens.push(t);
    else if (t.kind === 'rbrace' || t.kind === 'rbracket') {
      const want = t.kind === 'rbrace' ? 'lbrace' : 'lbracket';
      let k = opens.length - 1;
      while (k >= 0 && opens[k].kind !== want) k--;
      if (k < 0) continue;
      const open = opens[k];
      opens.length = k;
      const span = { start: open.span.start, end: t.span.end };
      if (multiline(span)) out.push(span);
    }
  }
  let run: Span | undefined;
  let runLines = 0;
  for (const t of view.parse.tokens) {
    if (t.kind === 'block-comment') {
      if (multiline(t.span)) out.push(t.span);
      continue;
    }
    if (t.kind !== 'line-comment' && t.kind !== 'hash-comment') {
      if (run !== undefined && runLines > 1) out.push(run);
      run = undefined;
      runLines = 0;
      continue;
    }
    const between = run !== undefined ? text.slice(run.end, t.span.start) : '';
    if (run !== undefined && /^[ \t]*(\r\n|\r|\n)[ \t]*$/.test(between)) {
      run = { start: run.start, end: t.span.end };
      runLines++;
    } else {
      if (run !== undefined && runLines > 1) out.push(run);
      run = t.span;
      runLines = 1;
    }
  }
  if (run !== undefined && runLines > 1) out.push(run);
  return out.sort((a, b) => a.start - b.start || b.end - a.end);
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
          const nameSpan = v.entries.get('name')?.value.span ?? child.span;
          children.push({ name: name ?? '(unnamed port)', ...(type !== undefined ? { detail: type } : {}), kind: 'port', span: child.span, selectionSpan: nameSpan, children: [] });
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
    children.push({ name: id ?? '(no id)', ...(detail !== '' ? { detail } : {}), kind: 'term', span: child.span, selectionSpan: v.entries.get('id')?.value.span ?? child.span, children: [] });
  }
  return [{ name: 'terms', detail: `${children.length} local ${children.length === 1 ? 'term' : 'terms'}`, kind: 'list', span: { start: terms.keySpan.start, end: list.span.end }, selectionSpan: terms.keySpan, children }];
}

function scalarOf(node: YamlNode | undefined): string | undefined {
  const v = deref(node);
  return v?.kind === 'scalar' && v.value !== null ? String(v.value) : undefined;
}

function shorten(value: string): string {
  const line = value.replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 60)}…` : line;
}

function dataFolds(file: string, text: string): Span[] {
  const out: Span[] = [];
  const multiline = (span: Span): boolean => span.end > span.start && /[\r\n]/.test(text.slice(span.start, span.end));
  const visit = (node: YamlNode | undefined, depth: number): void => {
    if (node === undefined || node.kind === 'alias' || node.kind === 'scalar' || depth > 50) return;
    if (node.kind === 'mapping') {
      for (const entry of node.entries.values()) {
        const span = { start: entry.keySpan.start, end: Math.max(entry.keySpan.end, entry.value.span.end) };
        if (multiline(span)) out.push(span);
        visit(entry.value, depth + 1);
      }
      return;
    }
    for (const child of node.items) {
      if (child.kind === 'mapping' && multiline(child.span)) out.push(child.span);
      visit(child, depth + 1);
    }
  };
  visit(dataDocument(file, text).root, 0);
  return out.sort((a, b) => a.start - b.start || b.end - a.end);
}
