/**
 * Completion, on half-typed text: the cursor's place is read from tokens (topology) or from the
 * line structure (cards, the extensions file), never from a tree that has to parse.
 *
 * Topology: `card="` → every `id@version` the bundle holds (after `@`: that id's versions);
 * `version="` → the versions of the card named like the node; `out="`/`in="` → the ports of
 * the source's or target's card, those that fit the other end first; `condition="` → keys,
 * operators, values and `&&` (a bare `condition=` gets its key with an opening quote); attribute
 * names inside `[ … ]` (a name whose `=` is written is replaced alone); node ids after `->`,
 * where a statement starts and inside a subgraph, quoted when the id needs it. The word the
 * cursor is in, or right before, is what an item replaces.
 * Cards (block or flow YAML, JSON): field names, terms of the field's kind (closing a quote left
 * open on the line), port fields, and for `dependencies` the card ids of the nodes that feed a
 * node pinning the card. Extensions file: term kinds, `broader` targets, entry keys.
 */
import type { Port } from '../card/card-model';
import { portCompatible } from '../bundle/resolve';
import { cardFields, portFields } from '../card/card-fields';
import { cardKnownKeys } from '../check/card';
import { conditionKeys, conditionOperators, conditionConjunction, outcomeValues, parseCondition, tokenizeCondition } from '../check/condition';
import { attractorAttributes, type AttractorScope } from '../syntax/attractor-table';
import { quoteTopology, topologyId } from '../compile/strings';
import { deref, formatOf } from '../syntax/yaml';
import type { DotGraph, DotToken } from '../syntax/dot-model';
import { commentAt } from '../syntax/dot-lexer';
import { mentionCount, mentionStartingAt } from '../syntax/dot-mentions';
import { kindInfo } from '../vocabulary/core';
import { termKinds, type Term, type TermKind, type Vocabulary } from '../vocabulary/types';
import { hasLineBreak, type Span } from '../text';
import {
  cardAt,
  cardIndex,
  cardOfNode,
  compareText,
  graphIndex,
  isCardPath,
  isExtensionsPath,
  isTopologyPath,
  pinOf,
  textOf,
  topologyGraph,
  topologyView,
  vocabularyOf,
  type TopologyView,
} from './context';
import { dataSlot, flowListValues, item, jsonObjectKeysAt, topLevelKeys, wordEndOf, type DataSlot } from './data-context';
import { dataDocument, isListField, termKindOfField, wireField } from './data-tree';
import { cardFieldDetail, describeAttribute, topologyAttributes } from './describe';
import { afterArrow, attributeSlot, enclosingList, indexBefore, isIdLike, statementStart, tokensNear, type AttributeSlot, type ListOwner } from './dot-context';
import type { CompletionItem, CompletionResult, IdeBundle } from './types';

export function complete(bundle: IdeBundle, file: string, offset: number): CompletionResult | undefined {
  const text = textOf(bundle, file);
  if (text === undefined || !(offset >= 0 && offset <= text.length)) return undefined;
  let result: CompletionResult | undefined;
  if (isTopologyPath(file)) result = topologyCompletion(bundle, file, offset);
  else if (isCardPath(file)) result = cardCompletion(bundle, file, text, offset);
  else if (isExtensionsPath(file)) result = extensionsCompletion(bundle, file, text, offset);
  return result !== undefined && result.items.length > 0 ? result : undefined;
}

// ---------------------------------------------------------------------- topology

function topologyCompletion(bundle: IdeBundle, file: string, offset: number): CompletionResult | undefined {
  const view = topologyView(bundle, file);
  if (view === undefined) return undefined;
  // nothing inside a comment
  if (commentAt(view.parse.table, offset) !== undefined) return undefined;
  // (the tokens around the cursor only: see `tokensNear`)
  const tokens = tokensNear(view, offset);
  const slot = attributeSlot(view, offset, tokens);
  if (slot?.kind === 'value') return valueCompletion(bundle, view, slot, offset);
  if (slot?.kind === 'key') return attributeNameCompletion(view, slot.owner, slot.span, tokens);
  const target = afterArrow(view, offset, tokens);
  if (target !== undefined) return nodeIdCompletion(view, target, offset);
  const start = statementStart(view, offset, tokens);
  if (start !== undefined) return statementCompletion(view, start, offset, tokens);
  return undefined;
}

/**
 * Where a statement starts: the node ids (not the one the statement before, on the same line,
 * names: `a |` would give `a a`), then, for a bare word, the graph's attribute names
 * (`goal=`, `label=`…), written as statements.
 */
function statementCompletion(view: TopologyView, span: Span, offset: number, tokens: readonly DotToken[]): CompletionResult | undefined {
  const before = tokens[indexBefore(tokens, span.start)];
  const previous = before !== undefined && isIdLike(before.kind) && !hasLineBreak(view.text, before.span.end, span.start) ? before.value : undefined;
  const ids = nodeIdCompletion(view, span, offset, previous);
  const items = (ids?.items ?? []).map((item): CompletionItem => ({ ...item, sortText: `0${item.label}` }));
  if (view.text.charCodeAt(span.start) !== 34) {
    const equals = equalsWritten(view.text, span);
    for (const a of attractorAttributes) if (a.scope === 'graph') items.push(attributeItem('graph', a.name, `graph attribute · ${a.valueType}`, `9${a.name}`, equals));
  }
  return { items, span: ids?.span ?? span };
}

function valueCompletion(bundle: IdeBundle, view: TopologyView, slot: Extract<AttributeSlot, { kind: 'value' }>, offset: number): CompletionResult | undefined {
  const text = view.text;
  const owner = slot.owner;
  // A quote left open on the cursor's line that the lexer closed with a quote further down (the
  // string runs across lines): completed as a value whose closing quote is not typed yet.
  const unterminated = slot.quoted && (!slot.closed || openOnLine(text, slot.content, offset));
  // a cursor on a later line than the quote it is inside (the quote was left open above): nothing
  if (slot.quoted && hasLineBreak(text, slot.content.start, offset)) return undefined;
  // What the item replaces: the value's content (in quotes), or the bare token / nothing (then quotes are added).
  // (a bare value is read to the end of its word: `a@1.0.0` lexes as more than one token)
  const replace: Span = unterminated
    ? { start: slot.content.start, end: wordEndOf(text, offset) }
    : slot.quoted
      ? slot.content
      : { start: slot.content.start, end: Math.max(slot.content.end, wordEndOf(text, slot.content.start)) };
  const wrap = (value: string): string => (slot.quoted ? (unterminated ? `${value}"` : value) : `"${value}"`);
  switch (slot.key) {
    case 'card': {
      if (owner.kind !== 'node' && owner.kind !== 'defaults') return undefined;
      const typed = text.slice(slot.content.start, offset);
      const index = cardIndex(bundle);
      const vocabulary = vocabularyOf(bundle);
      const atSign = typed.lastIndexOf('@');
      if (slot.quoted && atSign >= 0) {
        const id = typed.slice(0, atSign);
        const versions = index.byId.get(id) ?? [];
        const span = { start: slot.content.start + atSign + 1, end: replace.end };
        const items = [...versions].reverse().map((held, i): CompletionItem => ({
          label: held.version ?? '',
          kind: 'version',
          detail: cardDetail(held.card ?? held.draft, vocabulary),
          sortText: String(i).padStart(4, '0'),
          ...(unterminated ? { insertText: `${held.version ?? ''}"` } : {}),
        }));
        return { items, span };
      }
      // the same items for every request against the same cards (the pin is completed on every keystroke)
      const quoting: PinQuoting = slot.quoted ? (unterminated ? 'open' : 'closed') : 'bare';
      const kept = pinItems.get(index)?.get(quoting);
      if (kept !== undefined && kept.vocabulary === vocabulary) return { items: kept.items, span: replace };
      const items = [...index.byRef.values()].map((held): CompletionItem => ({
        label: held.ref ?? '',
        kind: 'card',
        detail: cardDetail(held.card ?? held.draft, vocabulary),
        ...(wrap(held.ref ?? '') !== held.ref ? { insertText: wrap(held.ref ?? '') } : {}),
      }));
      let byQuoting = pinItems.get(index);
      if (byQuoting === undefined) pinItems.set(index, (byQuoting = new Map()));
      byQuoting.set(quoting, { vocabulary, items });
      return { items, span: replace };
    }
    case 'version': {
      if (owner.kind !== 'node') return undefined;
      const vocabulary = vocabularyOf(bundle);
      const versions = cardIndex(bundle).byId.get(owner.id) ?? [];
      const items = [...versions].reverse().map((held, i): CompletionItem => ({
        label: held.version ?? '',
        kind: 'version',
        detail: cardDetail(held.card ?? held.draft, vocabulary),
        sortText: String(i).padStart(4, '0'),
        ...(wrap(held.version ?? '') !== held.version ? { insertText: wrap(held.version ?? '') } : {}),
      }));
      return { items, span: replace };
    }
    case 'out':
    case 'in': {
      if (owner.kind !== 'edge' || owner.edges.length === 0) return undefined;
      const items = portItems(bundle, view.graph, slot.key === 'out' ? 'output' : 'input', owner, wrap);
      return { items, span: replace };
    }
    case 'condition': {
      if (owner.kind !== 'edge' && owner.kind !== 'defaults') return undefined;
      return conditionCompletion(view.graph, text, slot.content.start, offset, slot.quoted);
    }
    default:
      return undefined;
  }
}

/** True when the value's content has a line break after the cursor and none before it. */
function openOnLine(text: string, content: Span, offset: number): boolean {
  return !hasLineBreak(text, content.start, offset) && hasLineBreak(text, offset, content.end);
}


/** The items of `card="`, per card index, quoting of the pin (see `valueCompletion`) and vocabulary. */
const pinItems = new WeakMap<object, Map<PinQuoting, { readonly vocabulary: Vocabulary; readonly items: readonly CompletionItem[] }>>();

/** A pin's value: quoted and closed, quoted with the closing quote not typed yet, or bare. */
type PinQuoting = 'closed' | 'open' | 'bare';

/** A card's item detail, kept per card object and vocabulary: `card="` lists every card of the bundle, on every keystroke in the pin. */
const cardDetails = new WeakMap<object, { readonly vocabulary: Vocabulary; readonly detail: string }>();

function cardDetail(card: { name?: string; type?: string }, vocabulary: Vocabulary): string {
  const kept = cardDetails.get(card);
  if (kept !== undefined && kept.vocabulary === vocabulary) return kept.detail;
  const type = card.type !== undefined ? vocabulary.get(card.type)?.label ?? card.type : undefined;
  const detail = [card.name, type].filter((s): s is string => s !== undefined && s !== '').join(' · ');
  cardDetails.set(card, { vocabulary, detail });
  return detail;
}

/**
 * The ports for `out="` (outputs of the source) or `in="` (inputs of the target), those that fit
 * the other end first. A list that applies to more than one edge (a chain, a subgraph end) offers
 * the ports of every end on its side: first those every end has and that fit at every edge, then
 * those every end has, then those some end lacks, each saying which.
 */
function portItems(
  bundle: IdeBundle,
  graph: DotGraph | undefined,
  side: 'input' | 'output',
  owner: Extract<ListOwner, { kind: 'edge' }>,
  wrap: (value: string) => string,
): CompletionItem[] {
  const find = (id: string) => {
    const node = graph !== undefined ? graphIndex(graph).byId.get(id) : undefined;
    const held = node ? cardOfNode(bundle, node) : undefined;
    return held?.card ?? held?.draft;
  };
  const vocabulary = vocabularyOf(bundle);
  const otherSide = side === 'output' ? 'input' : 'output';
  // Per edge: the ports of its end on this side, and those of the other end it may pair with (its
  // pinned port when the edge names one, else all its ports).
  const ends = owner.edges.map((e) => {
    const source = find(e.source);
    const target = find(e.target);
    const otherName = e.edge?.attrs.get(side === 'output' ? 'in' : 'out')?.value.trim();
    const otherAll = (side === 'output' ? target?.inputs : source?.outputs) ?? [];
    const other = otherName !== undefined && otherAll.some((p) => p.name === otherName) ? otherAll.filter((p) => p.name === otherName) : otherAll;
    return { node: side === 'output' ? e.source : e.target, own: side === 'output' ? source?.outputs : target?.inputs, other };
  });
  const fits = (port: Port, other: readonly Port[]): Port | undefined =>
    other.find((o) => (side === 'output' ? portCompatible(vocabulary, port.type, o.type) : portCompatible(vocabulary, o.type, port.type)));
  const ports = new Map<string, Port>();
  for (const end of ends) for (const port of end.own ?? []) if (!ports.has(port.name)) ports.set(port.name, port);
  return [...ports.values()].map((port, i): CompletionItem => {
    let rank: number;
    let detail: string;
    if (ends.length === 1) {
      const match = fits(port, ends[0].other);
      rank = match !== undefined ? 0 : 1;
      detail = match !== undefined
        ? `${port.type} · fits ${otherSide} ${match.name} (${match.type})`
        : ends[0].other.length > 0
          ? `${port.type} · fits no ${otherSide} at the other end`
          : port.type;
    } else {
      // (an end whose card is not known lacks nothing)
      const lacking = [...new Set(ends.filter((e) => e.own !== undefined && !e.own.some((p) => p.name === port.name)).map((e) => e.node))];
      const fitting = ends.filter((e) => {
        const own = e.own?.find((p) => p.name === port.name);
        return own !== undefined && fits(own, e.other) !== undefined;
      }).length;
      rank = lacking.length > 0 ? 2 : fitting === ends.length ? 0 : 1;
      detail = lacking.length > 0
        ? `${port.type} · ${lacking.join(', ')} ${lacking.length === 1 ? 'has' : 'have'} no ${side} ${port.name}`
        : fitting === ends.length
          ? `${port.type} · fits every edge of the statement`
          : `${port.type} · fits ${fitting} of the statement's ${ends.length} edges`;
    }
    return {
      label: port.name,
      kind: 'port',
      detail,
      ...(port.description !== undefined ? { documentation: port.description } : {}),
      sortText: `${rank}${String(i).padStart(4, '0')}`,
      ...(wrap(port.name) !== port.name ? { insertText: wrap(port.name) } : {}),
    };
  });
}

/**
 * `condition=` values. What the graph's conditions already compare is offered too, but not what
 * only the clause being typed holds (its half-typed word would come back as an item). A bare
 * value (`condition=|`) gets its keys with an opening quote (`"outcome`): a DOT identifier cannot
 * hold the `=` that follows, so the condition is written as a string, closed by the user.
 */
function conditionCompletion(graph: DotGraph | undefined, text: string, contentStart: number, offset: number, quoted: boolean): CompletionResult | undefined {
  // In a DOT string the condition's own quotes are written `\"`: read as a blank and a quote,
  // which keeps every offset where it is (a string value inserted here is written so).
  const raw = text.slice(contentStart, offset);
  const typed = quoted ? raw.replaceAll('\\"', ' "') : raw;
  const tokens = tokenizeCondition(typed);
  const last = tokens[tokens.length - 1];
  const touching = last !== undefined && last.end === typed.length;
  const previous = tokens[tokens.length - 2];
  const used = usedConditions(graph);
  // written somewhere else than the clause at the cursor
  const elsewhere = (spans: readonly Span[]): boolean => spans.some((span) => !(span.start <= offset && offset <= span.end));
  // (a word the cursor stands right before is replaced: `outcome=|fail`)
  const here: Span = { start: offset, end: wordEndOf(text, offset) };
  const keyItems = (): CompletionItem[] => {
    const keys = [...conditionKeys, ...[...used.contextKeys].filter(([, spans]) => elsewhere(spans)).map(([key]) => key)];
    return keys.map((key, i) => ({
      label: key,
      kind: 'keyword',
      sortText: String(i).padStart(4, '0'),
      detail: key === 'context.' ? 'a value in the run context' : 'condition key',
      ...(quoted ? {} : { insertText: `"${key}` }),
    }));
  };
  // A value that is no single word (an edge label with a space) is written as the condition's
  // string, its quotes escaped for the DOT string around it (`\"approved build\"`). One with a
  // quote or backslash of its own cannot be written so (DOT keeps `\\` as two characters), nor
  // anything but a word in a bare DOT value: those are not offered.
  const valueItem = (key: string, value: string): CompletionItem | undefined => {
    const words = tokenizeCondition(value);
    const single = words.length === 1 && words[0].kind === 'word' && words[0].text === value;
    if (single) return { label: value, kind: 'value', detail: `${key} value` };
    if (!quoted || value.length === 0 || /["\\\r\n]/.test(value)) return undefined;
    return { label: value, kind: 'value', detail: `${key} value`, insertText: `\\"${value}\\"`, filterText: value };
  };
  const valueItems = (key: string): CompletionItem[] => {
    const harvested = [...(used.values.get(key) ?? new Map<string, Span[]>())].filter(([, spans]) => elsewhere(spans)).map(([value]) => value);
    const values = key === 'outcome' ? [...outcomeValues, ...harvested] : key === 'preferred_label' ? [...used.labels, ...harvested] : harvested;
    return [...new Set(values)].map((value) => valueItem(key, value)).filter((item): item is CompletionItem => item !== undefined);
  };
  const operatorItems = (): CompletionItem[] => conditionOperators.map((op) => ({ label: op, kind: 'operator', detail: op === '=' ? 'equals' : 'differs from' }));
  // (no second blank after one typed already)
  const andItem = (): CompletionItem[] => {
    const blank = /[ \t]/.test(text.charAt(offset - 1)) ? '' : ' ';
    return [{ label: conditionConjunction, kind: 'operator', detail: 'and another clause', insertText: `${blank}${conditionConjunction} ` }];
  };

  if (last === undefined || last.kind === 'and') return { items: keyItems(), span: here };
  const absolute = (t: { start: number; end: number }): Span => ({ start: contentStart + t.start, end: Math.max(contentStart + t.end, wordEndOf(text, offset)) });
  if (last.kind === 'word') {
    const keyPosition = previous === undefined || previous.kind === 'and';
    if (touching) {
      if (keyPosition) return { items: keyItems(), span: absolute(last) };
      if (previous?.kind === 'operator') {
        const key = tokens[tokens.length - 3];
        return key?.kind === 'word' ? { items: valueItems(key.text), span: absolute(last) } : undefined;
      }
      return undefined;
    }
    if (keyPosition) return { items: operatorItems(), span: here };
    if (previous?.kind === 'operator') return { items: andItem(), span: here };
    return undefined;
  }
  if (last.kind === 'operator') {
    const key = previous;
    // an operator half typed (`outcome!`): the operators it starts, in its place
    if (!(conditionOperators as readonly string[]).includes(last.text)) {
      const started = operatorItems().filter((item) => item.label.startsWith(last.text));
      return touching && started.length > 0 ? { items: started, span: absolute(last) } : undefined;
    }
    return key?.kind === 'word' ? { items: valueItems(key.text), span: here } : undefined;
  }
  if (last.kind === 'string' && last.terminated && !touching) return { items: andItem(), span: here };
  return undefined;
}

/** What the topology's conditions hold, each with the spans of up to two different clauses that write it. */
interface UsedConditions {
  /** Context keys, sorted. */
  readonly contextKeys: ReadonlyMap<string, readonly Span[]>;
  /** Values compared, by key, in the order first written. */
  readonly values: ReadonlyMap<string, ReadonlyMap<string, readonly Span[]>>;
  readonly labels: string[];
}

const usedCache = new WeakMap<DotGraph, UsedConditions>();

/** Context keys, values compared and edge labels already written in the topology's conditions. */
function usedConditions(graph: DotGraph | undefined): UsedConditions {
  const cached = graph !== undefined ? usedCache.get(graph) : undefined;
  if (cached !== undefined) return cached;
  const used = collectConditions(graph);
  if (graph !== undefined) usedCache.set(graph, used);
  return used;
}

function collectConditions(graph: DotGraph | undefined): UsedConditions {
  const contextKeys = new Map<string, Span[]>();
  const values = new Map<string, Map<string, Span[]>>();
  const labels = new Set<string>();
  // (two different clauses are enough to know that one lies outside the cursor's clause: at most
  // two are kept, so a value written on thousands of edges costs no more than one written twice)
  const add = <K>(map: Map<K, Span[]>, key: K, span: Span): void => {
    const spans = map.get(key);
    if (spans === undefined) map.set(key, [span]);
    else if (spans.length < 2 && !(spans[0].start === span.start && spans[0].end === span.end)) spans.push(span);
  };
  for (const edge of graph?.edges ?? []) {
    const label = edge.attrs.get('label')?.value.trim();
    if (label !== undefined && label !== '') labels.add(label);
    const condition = edge.attrs.get('condition');
    if (condition === undefined) continue;
    // (clause offsets are in the value as read: mapped onto the source past the opening quote)
    const contentStart = condition.valueSpan.start + (condition.quoted ? 1 : 0);
    for (const clause of parseCondition(condition.value).clauses) {
      const span = { start: contentStart + clause.start, end: Math.min(contentStart + clause.end, condition.valueSpan.end) };
      if (clause.keyKind === 'context') add(contextKeys, clause.key, span);
      let byValue = values.get(clause.key);
      if (byValue === undefined) values.set(clause.key, (byValue = new Map()));
      add(byValue, clause.value, span);
    }
  }
  const sortedKeys = new Map([...contextKeys].sort(([a], [b]) => compareText(a, b)));
  return { contextKeys: sortedKeys, values, labels: [...labels] };
}

function attributeNameCompletion(view: TopologyView, owner: ListOwner, span: Span, tokens: readonly DotToken[]): CompletionResult | undefined {
  const scope: AttractorScope = owner.kind === 'defaults' ? owner.scope : owner.kind;
  const present = presentKeys(tokens, span, view.text);
  const equals = equalsWritten(view.text, span);
  const items: CompletionItem[] = [];
  const seen = new Set<string>();
  const add = (name: string, detail: string, rank: number): void => {
    if (seen.has(name) || present.has(name)) return;
    seen.add(name);
    items.push(attributeItem(scope, name, detail, `${rank}${name}`, equals));
  };
  if (owner.kind !== 'defaults' || scope !== 'graph') {
    for (const a of topologyAttributes) if (a.scope === scope && !(owner.kind === 'defaults' && a.name === 'card')) add(a.name, 'DarkPrint', 0);
  }
  for (const a of attractorAttributes) {
    if (a.scope !== scope) continue;
    // A node's type is its card's business (attractor/reserved-attribute): never offered.
    if (scope === 'node' && a.name === 'type') continue;
    add(a.name, `Attractor · ${a.valueType}`, scope === 'edge' && (a.name === 'label' || a.name === 'condition' || a.name === 'weight') ? 0 : 1);
  }
  return { items, span };
}

/** True when the word at `span` has its `=` written after it already (`[sh|ape=box]`): the name then goes in alone. */
function equalsWritten(text: string, span: Span): boolean {
  return /^[ \t]*=/.test(text.slice(span.end, span.end + 64));
}

/** An attribute name's item: inserted with its `=` (unless written already), with what it does as documentation. */
function attributeItem(scope: AttractorScope, name: string, detail: string, sortText: string, equals: boolean): CompletionItem {
  const documentation = describeAttribute(scope, name);
  return { label: name, kind: 'attribute', detail, ...(equals ? {} : { insertText: `${name}=` }), sortText, ...(documentation !== undefined ? { documentation } : {}) };
}

/** Attribute names already written in the list around `span` (the one being typed excluded). */
function presentKeys(tokens: readonly DotToken[], span: Span, text: string): Set<string> {
  const open = enclosingList(tokens, span.start, text);
  const present = new Set<string>();
  if (open < 0) return present;
  for (let i = open + 1; i < tokens.length && tokens[i].kind !== 'rbracket' && tokens[i].kind !== 'lbracket' && tokens[i].kind !== 'rbrace'; i++) {
    if (tokens[i + 1]?.kind === 'equals' && tokens[i].span.start !== span.start) present.add(tokens[i].value);
  }
  return present;
}

/** The ids of the graph's nodes for the word at `span` (that word's own node excluded), quoted where the id needs it. */
function nodeIdCompletion(view: TopologyView, span: Span, offset: number, exclude?: string): CompletionResult | undefined {
  const graph = view.graph;
  if (graph === undefined) return undefined;
  // a word typed with its opening quote is replaced whole, so the id goes in quoted; when that
  // quote is not closed on its line, up to the end of the word typed
  const text = view.text;
  const typedQuoted = text.charCodeAt(span.start) === 34 && span.end > span.start;
  const closed = span.end - span.start >= 2 && text.charCodeAt(span.end - 1) === 34 && !hasLineBreak(text, span.start, span.end);
  // (to the end of the word at the cursor: a quoted id may hold blanks before it)
  const replace: Span = typedQuoted && !closed ? { start: span.start, end: wordEndOf(text, Math.max(offset, span.start + 1)) } : span;
  // the node the id being typed names, when that is its only mention (the typing made it)
  const typed = mentionStartingAt(graph, span.start)?.node;
  const typedOnly = typed !== undefined && mentionCount(graph, typed) === 1 ? typed : undefined;
  const items = graph.nodes
    .filter((n) => n.id !== exclude && n !== typedOnly)
    .map((node): CompletionItem => {
      const card = node.attrs.get('card')?.value ?? node.attrs.get('version')?.value;
      const written = typedQuoted ? quoteTopology(node.id) : topologyId(node.id);
      // (an id typed with its opening quote is matched with its quotes; an empty id is shown as written)
      const label = node.id === '' ? written : node.id;
      return {
        label,
        kind: 'node',
        detail: card !== undefined ? card.trim() : 'no card',
        ...(written !== label ? { insertText: written } : {}),
        ...(typedQuoted && written !== label ? { filterText: written } : {}),
      };
    });
  return { items, span: replace };
}

// ---------------------------------------------------------------------- cards

function cardCompletion(bundle: IdeBundle, file: string, text: string, offset: number): CompletionResult | undefined {
  const slot = dataSlot(file, text, offset);
  if (slot === undefined) return undefined;
  const path = slot.path;
  const portList = path.length === 2 && (path[0] === 'inputs' || path[0] === 'outputs') && path[1] === item;
  if (slot.role === 'key' || (slot.role === 'item-or-key' && portList)) {
    if (path.length === 0) return fieldCompletion(file, text, slot, offset);
    if (portList) return portFieldCompletion(slot, path[0] === 'inputs', text, portKeysAt(file, text, path[0], offset));
    return undefined;
  }
  // (a word before a key's colon is a key: a value there would make a mapping of a list entry)
  if (slot.beforeColon === true) return undefined;
  const vocabulary = vocabularyOf(bundle);
  const kind = termKindOfField(path);
  if (kind !== undefined) {
    const existing = listedValues(file, text, path, offset, slot.beforeEntry === true);
    const wrapList = isListField(path) && wholeValue(slot);
    return { items: termItems(vocabulary, kind, existing, slot, wrapList, text), span: slot.span };
  }
  if (wireField(path[0] ?? '') === 'dependencies' && path.length <= 2) {
    const existing = listedValues(file, text, ['dependencies', item], offset, slot.beforeEntry === true);
    const suppliers = predecessorCards(bundle, file).filter((s) => !existing.has(s.id));
    const wrapList = path.length === 1 && wholeValue(slot);
    // The cards of the nodes that feed a node pinning this card first, in the order of their
    // edges; a predecessor's pin that finds no card after them, saying so (the dependency names it
    // rightly, and the missing card is what to fix); then every other card of the bundle, which
    // no edge supplies yet (listed, it needs an edge from a node pinning it).
    const held = cardIndex(bundle).byId;
    const vocabulary = vocabularyOf(bundle);
    const own = cardAt(bundle, file)?.id;
    const items = suppliers.map((s, i): CompletionItem => ({
      label: s.id,
      kind: 'card',
      detail: held.has(s.id) ? `feeds node ${s.target} from node ${s.source}` : `feeds node ${s.target} from node ${s.source}; the bundle holds no card ${s.id}`,
      sortText: `${held.has(s.id) ? 0 : 1}${String(i).padStart(4, '0')}`,
      ...insertion(s.id, slot, wrapList, text),
    }));
    const offered = new Set(suppliers.map((s) => s.id));
    for (const [id, versions] of held) {
      if (offered.has(id) || existing.has(id) || id === own) continue;
      const latest = versions[versions.length - 1];
      items.push({
        label: id,
        kind: 'card',
        detail: `${cardDetail(latest.card ?? latest.draft, vocabulary)} · no edge from it feeds a node pinning this card`,
        sortText: `2${id}`,
        ...insertion(id, slot, wrapList, text),
      });
    }
    return { items, span: slot.span };
  }
  // `required:` of an input port
  if (path.length === 3 && path[0] === 'inputs' && path[1] === item && path[2] === 'required') {
    const items = ['true', 'false'].map((value): CompletionItem => ({ label: value, kind: 'value', detail: value === 'false' ? 'the input is optional' : 'the input is required (as without the key)', ...insertion(value, slot, false, text) }));
    return { items, span: slot.span };
  }
  // `id:` and `version:`: what the file name says
  if (path.length === 1 && (path[0] === 'id' || path[0] === 'version')) {
    const named = /^cards\/(?:.*\/)?([^/]+)@([^/@]+)\.(ya?ml|json)$/i.exec(file);
    if (named === null) return undefined;
    const value = path[0] === 'id' ? named[1] : named[2];
    return { items: [{ label: value, kind: 'value', detail: `the ${path[0]} the file name ${file} says`, ...insertion(value, slot, false, text) }], span: slot.span };
  }
  return undefined;
}

/**
 * True when the slot is a field's whole value, not an entry of a list nor inside quotes: a
 * YAML value typed after `key:`, or a JSON value outside quotes right after `"key":`. A term
 * there, for a field that holds a list, goes in as a list of one (`tools: [git]`).
 */
function wholeValue(slot: DataSlot): boolean {
  if (slot.format === 'yaml') return slot.inline;
  return !slot.quoted && slot.path[slot.path.length - 1] !== item;
}

/** YAML reads `key:value` and `-value` as one scalar: a value or key typed right after the `:` or the `-` gets a space first. */
function spaceAfterMark(slot: DataSlot, text: string): string {
  if (slot.format !== 'yaml' || slot.quoted) return '';
  const before = text.charCodeAt(slot.span.start - 1);
  return before === 58 || before === 45 ? ' ' : '';
}

function insertion(value: string, slot: DataSlot, wrapList: boolean, text: string): { insertText?: string } {
  if (slot.format === 'json' && !slot.quoted) {
    // (before another entry of a list: an entry of its own; in place of a written value after a
    // blank: the blank kept, see `fittedJsonValue`)
    if (slot.beforeEntry === true) return { insertText: `${JSON.stringify(value)}, ` };
    const blank = slot.span.end > slot.span.start && /[ \t]/.test(text.charAt(slot.span.start)) ? ' ' : '';
    return { insertText: wrapList ? `${blank}[${JSON.stringify(value)}]` : `${blank}${JSON.stringify(value)}` };
  }
  // a quote opened and not closed on its line: the item closes it
  if (slot.unclosedQuote !== undefined) return { insertText: `${value}${slot.unclosedQuote}` };
  // (a list is not written inside quotes)
  if (slot.quoted) return {};
  // (in a flow list, before another entry: an entry of its own)
  if (slot.beforeEntry === true) return { insertText: `${value}, ` };
  const space = spaceAfterMark(slot, text);
  if (wrapList) return { insertText: `${space}[${value}]` };
  return space !== '' ? { insertText: `${space}${value}` } : {};
}

function termItems(vocabulary: Vocabulary, kind: TermKind, existing: ReadonlySet<string>, slot: DataSlot, wrapList: boolean, text: string): CompletionItem[] {
  return vocabulary
    .terms(kind)
    .filter((t) => !t.abstract && !t.deprecated && !(t.root === true && kind === 'tool') && !existing.has(t.id))
    .map((term: Term): CompletionItem => ({
      label: term.id,
      kind: 'term',
      detail: `${term.label} · ${term.kind}${vocabulary.isLocal(term.id) ? ' · local' : ''}`,
      documentation: term.meaning,
      ...insertion(term.id, slot, wrapList, text),
    }));
}

/** The string entries of the list at a card path (the one under the cursor excluded), from the tree or, when it does not parse, the text. */
function listedValues(file: string, text: string, path: readonly string[], offset: number, beforeEntry: boolean): Set<string> {
  // (before an entry, the cursor is in none: the entry right after it is written, and counts)
  const out = flowListValues(text, offset, formatOf(file), beforeEntry) ?? new Set<string>();
  if (path.length !== 2 || path[1] !== item) return out;
  const root = deref(dataDocument(file, text).root);
  if (root?.kind !== 'mapping') return out;
  const list = deref(root.entries.get(path[0])?.value);
  if (list?.kind !== 'sequence') return out;
  for (const node of list.items) {
    const value = deref(node);
    const typed = node.span.start <= offset && offset <= node.span.end && !(beforeEntry && offset <= node.span.start);
    if (value?.kind === 'scalar' && typeof value.value === 'string' && !typed) out.add(value.value);
  }
  return out;
}

function fieldCompletion(file: string, text: string, slot: DataSlot, offset: number): CompletionResult {
  const root = deref(dataDocument(file, text).root);
  // (read from the text too: a document being typed often does not parse)
  const present = topLevelKeys(text, offset, slot.format);
  if (root?.kind === 'mapping') {
    for (const entry of root.entries.values()) if (!(entry.keySpan.start <= offset && offset <= entry.keySpan.end)) present.add(entry.key);
  }
  const items: CompletionItem[] = [];
  for (const key of cardKnownKeys) {
    if (present.has(key) || present.has(wireField(key)) || [...present].some((p) => wireField(p) === key)) continue;
    const field = cardFields.find((f) => f.key === key || f.alias === key);
    const detail = cardFieldDetail(key);
    items.push({
      label: key,
      kind: 'field',
      ...(detail !== undefined ? { detail } : {}),
      ...(field !== undefined ? { documentation: field.description } : {}),
      // The required fields first, then the others, each in the table's order; aliases after.
      sortText: `${wireField(key) === key ? (field?.required === true ? 0 : 1) : 2}${String(cardFields.indexOf(field!)).padStart(2, '0')}`,
      ...keyInsertion(key, slot, text),
    });
  }
  return { items, span: slot.span };
}

function portFieldCompletion(slot: DataSlot, input: boolean, text: string, present: ReadonlySet<string>): CompletionResult {
  const items = portFields
    .filter((f) => (input || !f.inputsOnly) && !present.has(f.key))
    .map((f, i): CompletionItem => ({
      label: f.key,
      kind: 'field',
      detail: `${input ? 'input' : 'output'} port field · ${f.required ? 'required' : 'optional'}`,
      documentation: f.description,
      sortText: String(i),
      ...keyInsertion(f.key, slot, text),
    }));
  return { items, span: slot.span };
}

/**
 * The keys the port under the cursor has written (the one being typed excluded): in YAML from
 * the file's tree (the last port of the list that starts before the cursor; empty when the file
 * does not parse that far), in JSON from the text of the object around the cursor.
 */
function portKeysAt(file: string, text: string, list: string, offset: number): Set<string> {
  // (JSON from the text: a port being typed leaves the file unparsed)
  if (formatOf(file) === 'json') return jsonObjectKeysAt(text, offset);
  const present = new Set<string>();
  const root = deref(dataDocument(file, text).root);
  const ports = root?.kind === 'mapping' ? deref(root.entries.get(list)?.value) : undefined;
  if (ports?.kind !== 'sequence') return present;
  let port: ReturnType<typeof deref> | undefined;
  for (const node of ports.items) {
    if (node.span.start > offset) break;
    port = deref(node);
  }
  if (port?.kind !== 'mapping') return present;
  for (const entry of port.entries.values()) if (!(entry.keySpan.start <= offset && offset <= entry.keySpan.end)) present.add(entry.key);
  return present;
}

/**
 * A key as inserted: with its `: ` (quoted in JSON), unless the colon is written already after the
 * word replaced; in quotes not closed on the line, with the closing quote.
 */
function keyInsertion(key: string, slot: DataSlot, text: string): { insertText: string; snippet?: string } {
  const colon = /^[ \t]*"?[ \t]*:/.test(text.slice(slot.span.end, slot.span.end + 64));
  if (slot.unclosedQuote !== undefined) return { insertText: colon ? `${key}${slot.unclosedQuote}` : `${key}${slot.unclosedQuote}: ` };
  if (slot.format === 'json') {
    if (slot.quoted || colon) return { insertText: slot.quoted ? key : JSON.stringify(key) };
    // Before another member (`"type": …` on a later line), the new one needs its comma: a client
    // that takes snippets gets it after the place for the value, where the cursor goes.
    const memberAfter = /^\s*"/.test(text.slice(slot.span.end, slot.span.end + 256));
    return { insertText: `"${key}": `, ...(memberAfter ? { snippet: `"${key}": $0,` } : {}) };
  }
  // (a quoted YAML key, as in a flow mapping written like JSON, is completed inside its quotes)
  if (slot.quoted) return { insertText: key };
  return { insertText: `${spaceAfterMark(slot, text)}${key}${colon ? '' : ': '}` };
}

/** The card ids of the nodes that feed a node pinning this card, for its `dependencies`. */
function predecessorCards(bundle: IdeBundle, file: string): { id: string; source: string; target: string }[] {
  const held = cardAt(bundle, file);
  const graph = topologyGraph(bundle);
  if (held === undefined || graph === undefined) return [];
  const lookups = graphIndex(graph);
  const id = held.id ?? (typeof held.draft.id === 'string' ? held.draft.id : undefined);
  const pinning =
    held.ref !== undefined
      ? lookups.byRef.get(held.ref) ?? []
      : graph.nodes.filter((n) => {
          const pin = pinOf(n);
          return pin.id !== undefined && pin.id === id;
        });
  const out: { id: string; source: string; target: string }[] = [];
  const seen = new Set<string>();
  for (const edge of pinning.flatMap((n) => lookups.incoming.get(n.id) ?? [])) {
    const source = lookups.byId.get(edge.source);
    const supplier = source ? pinOf(source).id : undefined;
    if (supplier === undefined || seen.has(supplier)) continue;
    seen.add(supplier);
    out.push({ id: supplier, source: edge.source, target: edge.target });
  }
  return out;
}

// ---------------------------------------------------------------------- the extensions file

/** The keys of a `terms:` entry (docs/compatibility.md#local-terms). */
const termEntryKeys: readonly string[] = ['id', 'kind', 'label', 'description', 'since', 'broader', 'defaultWeight', 'impliesHuman'];

function extensionsCompletion(bundle: IdeBundle, file: string, text: string, offset: number): CompletionResult | undefined {
  const slot = dataSlot(file, text, offset);
  if (slot === undefined) return undefined;
  const path = slot.path;
  // the file's one top-level key, while it is not written
  if (path.length === 0 && slot.role === 'key') {
    const root = deref(dataDocument(file, text).root);
    const written = root?.kind === 'mapping' && [...root.entries.values()].some((e) => e.key === 'terms' && !(e.keySpan.start <= offset && offset <= e.keySpan.end));
    return written ? undefined : { items: [{ label: 'terms', kind: 'field', detail: 'the local terms, a list', ...keyInsertion('terms', slot, text) }], span: slot.span };
  }
  const inEntry = path.length >= 2 && path[0] === 'terms' && path[1] === item;
  if (!inEntry) return undefined;
  const entry = entryAt(file, text, offset);
  if (path.length === 2 && (slot.role === 'key' || slot.role === 'item-or-key')) {
    // (the keys the entry has, but the one being typed)
    const present = new Set<string>();
    for (const e of entry?.entries.values() ?? []) if (!(e.keySpan.start <= offset && offset <= e.keySpan.end)) present.add(e.key);
    const keys = termEntryKeys.filter((key) => !present.has(key));
    return { items: keys.map((key): CompletionItem => ({ label: key, kind: 'field', sortText: String(termEntryKeys.indexOf(key)).padStart(2, '0'), ...keyInsertion(key, slot, text) })), span: slot.span };
  }
  if (path.length !== 3 || slot.role !== 'value') return undefined;
  const vocabulary = vocabularyOf(bundle);
  if (path[2] === 'kind') {
    const items = termKinds
      .filter((k) => kindInfo[k].extensible)
      .map((k): CompletionItem => ({ label: k, kind: 'value', detail: kindInfo[k].title, ...insertion(k, slot, false, text) }));
    return { items, span: slot.span };
  }
  if (path[2] === 'broader') {
    const kind = scalarOf(entry, 'kind');
    const own = scalarOf(entry, 'id');
    const items = vocabulary
      .terms(termKinds.find((k) => k === kind))
      // (never the entry itself, nor a term under it: a term cannot be broader than itself)
      .filter((t) => !t.deprecated && t.kind !== 'phase' && (own === undefined || !vocabulary.isA(t.id, own)))
      .map((t): CompletionItem => ({ label: t.id, kind: 'term', detail: `${t.label} · ${t.kind}`, documentation: t.meaning, ...insertion(t.id, slot, false, text) }));
    return { items, span: slot.span };
  }
  return undefined;
}

/**
 * The `terms:` entry under the cursor, as read from the file's tree: the last that starts before
 * it (the caller knows the cursor is in an entry; a line being typed after an entry's last key is
 * past the entry's span).
 */
function entryAt(file: string, text: string, offset: number): Extract<ReturnType<typeof deref>, { kind: 'mapping' }> | undefined {
  const root = deref(dataDocument(file, text).root);
  if (root?.kind !== 'mapping') return undefined;
  const list = deref(root.entries.get('terms')?.value);
  if (list?.kind !== 'sequence') return undefined;
  let found: Extract<ReturnType<typeof deref>, { kind: 'mapping' }> | undefined;
  for (const node of list.items) {
    if (node.span.start > offset) break;
    const entry = deref(node);
    found = entry?.kind === 'mapping' ? entry : undefined;
  }
  return found;
}

/** The text of a scalar entry of `entry`, if it has one. */
function scalarOf(entry: ReturnType<typeof entryAt>, key: string): string | undefined {
  const value = deref(entry?.entries.get(key)?.value);
  return value?.kind === 'scalar' && value.value !== null && value.value !== undefined ? String(value.value) : undefined;
}
