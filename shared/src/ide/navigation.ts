/**
 * Navigation: go to definition and find references.
 * Definition: a pin (`card=`, `version=`, `digest=`) → the card's `id`; `out=`/`in=` → the port's
 * `name` in its card; a node id in an edge → the node's first statement (and from that statement,
 * its card); a `dependencies` entry → the card(s) with that id, else the node; a term used in a
 * card or as a `broader` → its entry in the extensions file when it is a local term. In a
 * `node [...]` default, `card=` → the card it names and `version=`/`digest=` → the card of each
 * node it reaches; in an `edge [...]` default, `out=`/`in=` → the port in the card of each edge
 * it reaches (each location once).
 * References: a card (its `id`, or a pin, also a `node [card=…]` default) → the nodes pinning it
 * and the `dependencies` naming it;
 * a node → every occurrence of its id; a term → every card field and `broader` naming it.
 */
import { formatRef, parseCardRef } from '../card/card-ref';
import type { DotAttribute, DotNode } from '../syntax/dot-model';
import { nodeOccurrences } from '../syntax/dot-mentions';
import { deref, type YamlNode } from '../syntax/yaml';
import type { Span } from '../text';
import {
  assertNever,
  cardAt,
  cardIndex,
  cardOfNode,
  declarationSpan,
  graphIndex,
  isCardPath,
  isExtensionsPath,
  isTopologyPath,
  mainTopology,
  nodeAtOffset,
  pinIdSpan,
  pinOf,
  pinnedViews,
  textOf,
  topologyView,
  vocabularyOf,
  type HeldCard,
  type TopologyView,
} from './context';
import { item } from './data-context';
import { dataDocument, hitAt, termKindOfField } from './data-tree';
import { enclosingList, indexAt, isIdLike, listOwner } from './dot-context';
import type { FileSpan, IdeBundle } from './types';

export function definition(bundle: IdeBundle, file: string, offset: number): FileSpan[] {
  const text = textOf(bundle, file);
  if (text === undefined || !(offset >= 0 && offset <= text.length)) return [];
  if (isTopologyPath(file)) return topologyDefinition(bundle, file, offset);
  if (isCardPath(file) || isExtensionsPath(file)) return dataDefinition(bundle, file, text, offset);
  return [];
}

export function references(bundle: IdeBundle, file: string, offset: number, includeDeclaration: boolean): FileSpan[] {
  const text = textOf(bundle, file);
  if (text === undefined || !(offset >= 0 && offset <= text.length)) return [];
  if (isTopologyPath(file)) {
    const view = topologyView(bundle, file);
    const graph = view?.graph;
    if (view === undefined || graph === undefined) return [];
    const found = nodeAtOffset(graph, offset);
    if (found !== undefined) {
      const declaration = declarationSpan(graph, found.node);
      return nodeOccurrences(graph, found.node.id)
        .filter((o) => includeDeclaration || o.start !== declaration.start)
        .map((span) => ({ file, span }));
    }
    const pinned = pinAt(view, offset);
    const held = pinned !== undefined ? cardOfNode(bundle, pinned) : defaultPin(bundle, view, offset);
    return held === undefined ? [] : cardReferences(bundle, held, includeDeclaration, file);
  }
  if (isCardPath(file) || isExtensionsPath(file)) {
    const hit = hitAt(dataDocument(file, text).root, offset);
    const value = hit?.scalar?.value;
    if (hit === undefined || typeof value !== 'string') return [];
    if (isCardPath(file) && hit.path.length === 1 && hit.path[0] === 'id') {
      const held = cardAt(bundle, file);
      return held === undefined ? [] : cardReferences(bundle, held, includeDeclaration);
    }
    // a dependency entry stands for the card it names (every version), or else the node
    if (isCardPath(file) && hit.path.length === 2 && hit.path[0] === 'dependencies' && hit.path[1] === item) return dependencyReferences(bundle, value, includeDeclaration);
    const isTerm = isCardPath(file) ? termKindOfField(hit.path) !== undefined : isTermField(hit.path);
    if (isTerm) return termReferences(bundle, value, includeDeclaration);
  }
  return [];
}

/** What a `dependencies` entry names: the cards of that id, their pins and entries; or else the node of that id, its occurrences and the entries naming it. */
function dependencyReferences(bundle: IdeBundle, value: string, includeDeclaration: boolean): FileSpan[] {
  const cards = cardIndex(bundle).byId.get(value) ?? [];
  const out: FileSpan[] = [];
  const add = (location: FileSpan): void => pushUnique(out, location);
  if (cards.length > 0) {
    for (const held of cards) for (const location of cardReferences(bundle, held, includeDeclaration)) add(location);
    return out;
  }
  const view = mainTopology(bundle);
  const node = view?.graph !== undefined ? graphIndex(view.graph).byId.get(value) : undefined;
  if (view === undefined || node === undefined) return [];
  const declaration = declarationSpan(view.graph!, node);
  for (const span of nodeOccurrences(view.graph!, node.id)) if (includeDeclaration || span.start !== declaration.start) add({ file: view.file, span });
  for (const location of dependencyEntries(bundle, value)) add(location);
  return out;
}

// ---------------------------------------------------------------------- topology

function topologyDefinition(bundle: IdeBundle, file: string, offset: number): FileSpan[] {
  const view = topologyView(bundle, file);
  const graph = view?.graph;
  if (view === undefined || graph === undefined) return [];
  const found = nodeAtOffset(graph, offset);
  if (found !== undefined) {
    const declaration = declarationSpan(graph, found.node);
    if (declaration.start !== found.occurrence.start) return [{ file, span: declaration }];
    const held = cardOfNode(bundle, found.node);
    return held === undefined ? [] : [cardIdLocation(held)];
  }
  const tokens = view.significant;
  const index = indexAt(tokens, offset);
  if (index < 2 || !isIdLike(tokens[index].kind) || tokens[index - 1].kind !== 'equals') return [];
  const key = tokens[index - 2].value;
  const open = enclosingList(tokens, tokens[index].span.start, view.text);
  const owner = open >= 0 ? listOwner(view, open) : undefined;
  const value = tokens[index].span;
  const isPinKey = key === 'card' || key === 'version' || key === 'digest';
  if (owner?.kind === 'node' && isPinKey) {
    const node = graphIndex(graph).byId.get(owner.id);
    const held = node ? cardOfNode(bundle, node) : undefined;
    return held === undefined ? [] : [cardIdLocation(held)];
  }
  if (owner?.kind === 'defaults' && owner.scope === 'node' && isPinKey) {
    // `card=` names one card; `version=` and `digest=` mean the card of each node they reach.
    if (key === 'card') {
      const held = defaultPin(bundle, view, offset);
      return held === undefined ? [] : [cardIdLocation(held)];
    }
    const out: FileSpan[] = [];
    for (const node of graph.nodes) {
      const attr = key === 'version' ? pinOf(node).attr : node.attrs.get(key);
      const held = attr !== undefined && attr.key === key && fromThisDefault(attr, value) ? cardOfNode(bundle, node) : undefined;
      if (held !== undefined) pushUnique(out, cardIdLocation(held));
    }
    return out;
  }
  const edgeEnds =
    owner?.kind === 'edge'
      ? owner.edges
      : owner?.kind === 'defaults' && owner.scope === 'edge'
        ? graph.edges.filter((e) => {
            const attr = e.attrs.get(key);
            return attr !== undefined && fromThisDefault(attr, value);
          })
        : undefined;
  if (edgeEnds !== undefined && (key === 'out' || key === 'in')) {
    const name = tokens[index].value.trim();
    const out: FileSpan[] = [];
    for (const ends of edgeEnds) {
      const node = graphIndex(graph).byId.get(key === 'out' ? ends.source : ends.target);
      const held = node ? cardOfNode(bundle, node) : undefined;
      if (held === undefined) continue;
      const side = key === 'out' ? 'outputs' : 'inputs';
      const ports = (held.card ?? held.draft)[side] ?? [];
      const at = ports.findIndex((p) => p.name === name);
      if (at < 0) continue;
      pushUnique(out, { file: held.file, span: held.read.locate(`${side}[${at}].name`, 'value') });
    }
    return out;
  }
  return [];
}

/** True when `attr` came from the default whose value token is at `value`. */
function fromThisDefault(attr: DotAttribute, value: Span): boolean {
  return attr.fromDefault && attr.valueSpan.start <= value.start && value.end <= attr.valueSpan.end;
}

function pushUnique(out: FileSpan[], location: FileSpan): void {
  if (!out.some((l) => l.file === location.file && l.span.start === location.span.start)) out.push(location);
}

/** The card a `node [card="id@version"]` default names, with the cursor on its value (whether or not it reaches a node). */
function defaultPin(bundle: IdeBundle, view: TopologyView, offset: number): HeldCard | undefined {
  const tokens = view.significant;
  const index = indexAt(tokens, offset);
  if (index < 2 || !isIdLike(tokens[index].kind) || tokens[index - 1].kind !== 'equals' || tokens[index - 2].value !== 'card') return undefined;
  const open = enclosingList(tokens, tokens[index].span.start, view.text);
  const owner = open >= 0 ? listOwner(view, open) : undefined;
  if (owner?.kind !== 'defaults' || owner.scope !== 'node') return undefined;
  // The value as the parser read it (a `+` concatenation whole), from a node it reaches when there is one.
  const reached = view.graph?.nodes.find((n) => {
    const attr = n.attrs.get('card');
    return attr !== undefined && fromThisDefault(attr, tokens[index].span);
  });
  const parsed = parseCardRef(reached?.attrs.get('card')?.value ?? tokens[index].value);
  return parsed === undefined ? undefined : cardIndex(bundle).byRef.get(formatRef(parsed));
}

/** The node whose own `card=`/`version=` value covers `offset`. */
function pinAt(view: TopologyView, offset: number): DotNode | undefined {
  for (const node of view.graph?.nodes ?? []) {
    const attr = pinOf(node).attr;
    if (attr !== undefined && !attr.fromDefault && attr.valueSpan.start <= offset && offset <= attr.valueSpan.end) return node;
  }
  return undefined;
}

function cardIdLocation(held: HeldCard): FileSpan {
  return { file: held.file, span: held.read.locate('id', 'value') };
}

/**
 * A card's references: its `id`, every pin of it (the id part of `card="id@version"`, the value of
 * `version=`) in the bundle's topology and in `also`, another topology file a request came from,
 * and the `dependencies` entries naming its id.
 */
function cardReferences(bundle: IdeBundle, held: HeldCard, includeDeclaration: boolean, also?: string): FileSpan[] {
  const out: FileSpan[] = [];
  if (includeDeclaration) out.push(cardIdLocation(held));
  for (const view of pinnedViews(bundle, also)) {
    const seen = new Set<number>();
    for (const node of view.graph?.nodes ?? []) {
      const pin = pinOf(node);
      if (pin.attr === undefined || pin.ref === undefined || pin.ref !== held.ref) continue;
      // A `node [card=…]` default reaches many nodes from one place: list that place once.
      if (seen.has(pin.attr.valueSpan.start)) continue;
      seen.add(pin.attr.valueSpan.start);
      // (the id in `card="id@version"`, or the whole value of `version=`)
      out.push({ file: view.file, span: pinIdSpan(view.text, pin) ?? pin.attr.valueSpan });
    }
  }
  if (held.id !== undefined) out.push(...dependencyEntries(bundle, held.id));
  return out;
}



/** Every `dependencies` entry equal to `value` in every card. */
function dependencyEntries(bundle: IdeBundle, value: string): FileSpan[] {
  const out: FileSpan[] = [];
  for (const held of cardIndex(bundle).files) {
    // The draft says which cards can hold it; only those are read for positions.
    if (!(held.draft.dependencies ?? []).includes(value)) continue;
    const text = textOf(bundle, held.file);
    if (text === undefined) continue;
    const root = deref(dataDocument(held.file, text).root);
    const list = root?.kind === 'mapping' ? deref(root.entries.get('dependencies')?.value) : undefined;
    if (list?.kind !== 'sequence') continue;
    for (const node of list.items) if (node.kind === 'scalar' && node.value === value) out.push({ file: held.file, span: node.span });
  }
  return out;
}

// ---------------------------------------------------------------------- cards and the extensions file

function isTermField(path: readonly string[]): boolean {
  return path.length === 3 && path[0] === 'terms' && path[1] === item && (path[2] === 'id' || path[2] === 'broader');
}

function dataDefinition(bundle: IdeBundle, file: string, text: string, offset: number): FileSpan[] {
  const hit = hitAt(dataDocument(file, text).root, offset);
  const value = hit?.scalar?.value;
  if (hit === undefined || hit.role !== 'value' || typeof value !== 'string') return [];
  if (isCardPath(file) && hit.path.length === 2 && hit.path[0] === 'dependencies' && hit.path[1] === item) {
    const cards = cardIndex(bundle).byId.get(value);
    if (cards !== undefined && cards.length > 0) return [...cards].reverse().map(cardIdLocation);
    const view = mainTopology(bundle);
    const node = view?.graph !== undefined ? graphIndex(view.graph).byId.get(value) : undefined;
    return view !== undefined && node !== undefined ? [{ file: view.file, span: declarationSpan(view.graph!, node) }] : [];
  }
  const isTerm = isCardPath(file) ? termKindOfField(hit.path) !== undefined : isTermField(hit.path) && hit.path[2] === 'broader';
  if (!isTerm) return [];
  const term = vocabularyOf(bundle).get(value);
  return term?.local !== undefined ? [{ file: term.local.file, span: term.local.span }] : [];
}

/** Every card field and `broader` pointer naming the term (and its declaration, for a local term). */
function termReferences(bundle: IdeBundle, id: string, includeDeclaration: boolean): FileSpan[] {
  const out: FileSpan[] = [];
  const term = vocabularyOf(bundle).get(id);
  if (includeDeclaration && term?.local !== undefined) out.push({ file: term.local.file, span: term.local.span });
  for (const held of cardIndex(bundle).files) {
    const text = textOf(bundle, held.file);
    if (text === undefined || !mayName(held, id)) continue;
    walkScalars(dataDocument(held.file, text).root, [], (path, value, span) => {
      if (value === id && termKindOfField(path) !== undefined) out.push({ file: held.file, span });
    });
  }
  for (const t of vocabularyOf(bundle).terms()) {
    if (t.broader === id && t.local?.broaderSpan !== undefined) out.push({ file: t.local.file, span: t.local.broaderSpan });
  }
  return out;
}

/** Whether a card's draft names the term in a term field (a card that did not parse at all is read anyway). */
function mayName(held: HeldCard, id: string): boolean {
  const d = held.draft;
  if (Object.keys(d).length === 0) return true;
  const ports = [...(d.inputs ?? []), ...(d.outputs ?? [])];
  return d.type === id || (d.phases ?? []).includes(id) || (d.tools ?? []).includes(id) || (d.cannot ?? []).includes(id) || (d.riskMarkers ?? []).includes(id) || ports.some((p) => p.type === id);
}

function walkScalars(root: YamlNode | undefined, path: string[], visit: (path: readonly string[], value: string, span: Span) => void, depth = 0): void {
  if (root === undefined || depth > 8 || root.kind === 'alias') return;
  switch (root.kind) {
    case 'scalar':
      if (typeof root.value === 'string') visit(path, root.value, root.span);
      return;
    case 'mapping':
      for (const entry of root.entries.values()) walkScalars(entry.value, [...path, entry.key], visit, depth + 1);
      return;
    case 'sequence':
      for (const child of root.items) walkScalars(child, [...path, item], visit, depth + 1);
      return;
    default:
      assertNever(root);
  }
}
