/**
 * Workspace symbols: the nodes, cards and local vocabulary terms of every bundle, found by a
 * query as editors expect of "Go to Symbol in Workspace": the query's characters appear in the
 * name in order, whatever their case (`rqi` finds `request_intake`). Matches are ranked, best
 * first: the name itself, then names that start with the query, then names that hold it, then
 * the other matches by how early and how close together the characters are; then shorter names,
 * then by name. At most `limit` are returned: an editor asks again as the query grows.
 *
 * Each bundle's list is made once per parse and card set (kept by the graph, the card index and
 * the vocabulary, which a new check replaces), so a query only matches names.
 */
import type { DotGraph } from '../syntax/dot-model';
import type { Vocabulary } from '../vocabulary/types';
import { cardIndex, cardOfNode, declarationSpan, mainTopology, pinOf, vocabularyOf, type CardIndex } from './context';
import type { FileSpan, IdeBundle } from './types';

export type WorkspaceSymbolKind = 'node' | 'card' | 'term';

export interface WorkspaceSymbol {
  readonly name: string;
  readonly kind: WorkspaceSymbolKind;
  /** What holds or qualifies it: a node's card, a card's name, a term's kind. */
  readonly detail?: string;
  readonly location: FileSpan;
}

/** One match: the symbol and the index of its bundle in the list asked about. */
export interface SymbolMatch {
  readonly bundle: number;
  readonly symbol: WorkspaceSymbol;
}

/** How many matches a query returns when the caller does not say. */
export const workspaceSymbolLimit = 256;

export function workspaceSymbols(bundles: readonly IdeBundle[], query: string, limit = workspaceSymbolLimit): SymbolMatch[] {
  const wanted = query.trim().toLowerCase();
  const scored: { readonly score: number; readonly match: SymbolMatch }[] = [];
  bundles.forEach((bundle, index) => {
    for (const list of symbolLists(bundle)) {
      for (let i = 0; i < list.symbols.length; i++) {
        const score = matchScore(list.lower[i], wanted);
        if (score >= 0) scored.push({ score, match: { bundle: index, symbol: list.symbols[i] } });
      }
    }
  });
  scored.sort((a, b) => a.score - b.score || a.match.symbol.name.length - b.match.symbol.name.length || compare(a.match.symbol.name, b.match.symbol.name) || a.match.bundle - b.match.bundle);
  return scored.slice(0, Math.max(0, limit)).map((s) => s.match);
}

/** The symbols of one bundle (nodes, cards, local terms), unranked. */
export function bundleSymbols(bundle: IdeBundle): WorkspaceSymbol[] {
  return symbolLists(bundle).flatMap((list) => list.symbols);
}

/**
 * How well `name` (lower case) matches `query` (lower case): lower is better, -1 for no match.
 * 0 the same, 1 a prefix, 2 a substring (3 + where it starts, at most 100 more), else a
 * subsequence: 1000 + where it starts + the characters skipped between the query's characters.
 */
export function matchScore(name: string, query: string): number {
  if (query === '') return 0;
  if (name === query) return 0;
  if (name.startsWith(query)) return 1;
  const at = name.indexOf(query);
  if (at >= 0) return 3 + Math.min(at, 100);
  let position = name.indexOf(query[0]);
  if (position < 0) return -1;
  const first = position;
  let gaps = 0;
  for (let i = 1; i < query.length; i++) {
    const next = name.indexOf(query[i], position + 1);
    if (next < 0) return -1;
    gaps += next - position - 1;
    position = next;
  }
  return 1000 + first + gaps;
}

interface SymbolList {
  readonly symbols: readonly WorkspaceSymbol[];
  /** Each symbol's name in lower case, in the same order. */
  readonly lower: readonly string[];
}

const nodeLists = new WeakMap<DotGraph, { readonly cards: CardIndex; readonly file: string; readonly list: SymbolList }>();
const cardLists = new WeakMap<CardIndex, SymbolList>();
const termLists = new WeakMap<Vocabulary, SymbolList>();

function symbolLists(bundle: IdeBundle): SymbolList[] {
  const out: SymbolList[] = [];
  const cards = cardIndex(bundle);
  const view = mainTopology(bundle);
  const graph = view?.graph;
  if (view !== undefined && graph !== undefined) {
    let kept = nodeLists.get(graph);
    if (kept === undefined || kept.cards !== cards || kept.file !== view.file) {
      const symbols = graph.nodes.map((node): WorkspaceSymbol => {
        // (a node's card as it pins it: the ref, marked when the bundle does not hold it)
        const ref = pinOf(node).ref;
        const detail = ref === undefined ? undefined : cardOfNode(bundle, node) !== undefined ? ref : `${ref} (not in the bundle)`;
        return { name: node.id, kind: 'node', ...(detail !== undefined ? { detail } : {}), location: { file: view.file, span: declarationSpan(graph, node) } };
      });
      kept = { cards, file: view.file, list: listOf(symbols) };
      nodeLists.set(graph, kept);
    }
    out.push(kept.list);
  }
  let cardList = cardLists.get(cards);
  if (cardList === undefined) {
    const symbols: WorkspaceSymbol[] = [];
    for (const held of cards.files) {
      if (held.ref === undefined) continue;
      const name = (held.card ?? held.draft).name;
      // (the card opens at its top, where its id is written: locating the id would read every card's tree again)
      symbols.push({ name: held.ref, kind: 'card', ...(typeof name === 'string' ? { detail: name } : {}), location: { file: held.file, span: { start: 0, end: 0 } } });
    }
    cardLists.set(cards, (cardList = listOf(symbols)));
  }
  out.push(cardList);
  const vocabulary = vocabularyOf(bundle);
  let termList = termLists.get(vocabulary);
  if (termList === undefined) {
    const symbols: WorkspaceSymbol[] = [];
    for (const term of vocabulary.terms()) {
      if (term.local !== undefined) symbols.push({ name: term.id, kind: 'term', detail: term.kind, location: { file: term.local.file, span: term.local.span } });
    }
    termLists.set(vocabulary, (termList = listOf(symbols)));
  }
  out.push(termList);
  return out;
}

function listOf(symbols: readonly WorkspaceSymbol[]): SymbolList {
  return { symbols, lower: symbols.map((s) => s.name.toLowerCase()) };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
