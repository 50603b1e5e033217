/**
 * Document highlight: every place in the file that names what the cursor is on, read from the
 * parse and the located tree, never from the text, so that a word in a comment, a label, another
 * id (`writer` in `co_writer`) or a card's spec is never lit.
 * - topology: a node id (each statement that declares the node is a `write`, each edge endpoint
 *   a `read`); a pin (`card=`, `version=`, also in a `node [...]` default) and every pin of the
 *   same card (the id in `card="id@version"`, the whole value of `version=`); an `out=`/`in=`
 *   value and every edge list naming the same port (same side, same card, or the same node where
 *   the node has no card);
 * - card: a vocabulary term and the other term fields naming it; a `dependencies` entry and its
 *   twins; the card's `id` and a port name (on their own: a card names neither elsewhere);
 * - extensions file: a term's `id` (a `write`) and every `broader` naming it.
 * Nothing when the cursor is on anything else.
 */
import type { DotGraph, DotNode } from '../syntax/dot-model';
import { nodeOccurrences } from '../syntax/dot-mentions';
import type { Span } from '../text';
import { cardOfNode, graphIndex, isCardPath, isExtensionsPath, isTopologyPath, nodeAtOffset, pinIdSpan, pinOf, textOf, topologyView, type TopologyView } from './context';
import { item } from './data-context';
import { stringScalars } from './data-scalars';
import { dataDocument, hitAt, termKindOfField } from './data-tree';
import type { IdeBundle } from './types';

/** A declaration (`write`) or a use (`read`) of what the cursor names. */
export type HighlightKind = 'write' | 'read';

export interface Highlight {
  readonly span: Span;
  readonly kind: HighlightKind;
}

export function documentHighlights(bundle: IdeBundle, file: string, offset: number): Highlight[] {
  const text = textOf(bundle, file);
  if (text === undefined || !(offset >= 0 && offset <= text.length)) return [];
  if (isTopologyPath(file)) {
    const view = topologyView(bundle, file);
    return view?.graph === undefined ? [] : topologyHighlights(bundle, view, view.graph, offset);
  }
  if (isCardPath(file)) return cardHighlights(file, text, offset);
  if (isExtensionsPath(file)) return extensionsHighlights(file, text, offset);
  return [];
}

// ---------------------------------------------------------------------- topology

function topologyHighlights(bundle: IdeBundle, view: TopologyView, graph: DotGraph, offset: number): Highlight[] {
  const found = nodeAtOffset(graph, offset);
  if (found !== undefined) {
    const declarations = new Set(found.node.statements.map((s) => s.start));
    return nodeOccurrences(graph, found.node.id).map((span) => ({ span, kind: declarations.has(span.start) ? 'write' : 'read' }));
  }
  return pinHighlights(view, graph, offset) ?? portHighlights(bundle, view, graph, offset) ?? [];
}

/** The pins of the card whose pin value covers `offset`, each written place once; undefined when no pin does. */
function pinHighlights(view: TopologyView, graph: DotGraph, offset: number): Highlight[] | undefined {
  const at = graph.nodes.find((node) => {
    const attr = pinOf(node).attr;
    return attr !== undefined && attr.valueSpan.start <= offset && offset <= attr.valueSpan.end;
  });
  const ref = at !== undefined ? pinOf(at).ref : undefined;
  if (ref === undefined) return undefined;
  const out: Highlight[] = [];
  const seen = new Set<number>();
  for (const node of graph.nodes) {
    const pin = pinOf(node);
    if (pin.ref !== ref || pin.attr === undefined || seen.has(pin.attr.valueSpan.start)) continue;
    seen.add(pin.attr.valueSpan.start);
    out.push({ span: pinIdSpan(view.text, pin) ?? unquoted(view.text, pin.attr.valueSpan), kind: 'read' });
  }
  return out.sort((a, b) => a.span.start - b.span.start);
}

/** The `out=`/`in=` values naming the same port as the one under the cursor; undefined when the cursor is on none. */
function portHighlights(bundle: IdeBundle, view: TopologyView, graph: DotGraph, offset: number): Highlight[] | undefined {
  let target: { readonly key: 'out' | 'in'; readonly name: string; readonly owner: string } | undefined;
  for (const edge of graph.edges) {
    for (const key of ['out', 'in'] as const) {
      const attr = edge.attrs.get(key);
      if (attr === undefined || attr.fromDefault || offset < attr.valueSpan.start || offset > attr.valueSpan.end) continue;
      const name = attr.value.trim();
      if (name !== '') target = { key, name, owner: ownerOf(bundle, graph, key === 'out' ? edge.source : edge.target) };
    }
    if (target !== undefined) break;
  }
  if (target === undefined) return undefined;
  const out: Highlight[] = [];
  const seen = new Set<number>();
  for (const edge of graph.edges) {
    const attr = edge.attrs.get(target.key);
    if (attr === undefined || attr.fromDefault || seen.has(attr.valueSpan.start) || attr.value.trim() !== target.name) continue;
    if (ownerOf(bundle, graph, target.key === 'out' ? edge.source : edge.target) !== target.owner) continue;
    seen.add(attr.valueSpan.start);
    out.push({ span: unquoted(view.text, attr.valueSpan), kind: 'read' });
  }
  return out.sort((a, b) => a.span.start - b.span.start);
}

/** What a port belongs to: the card a node pins (`card:` + its ref), else the node itself. */
function ownerOf(bundle: IdeBundle, graph: DotGraph, id: string): string {
  const node: DotNode | undefined = graphIndex(graph).byId.get(id);
  const held = node !== undefined ? cardOfNode(bundle, node) : undefined;
  return held?.ref !== undefined ? `card:${held.ref}` : `node:${id}`;
}

/** A value's span without the quotes around it. */
function unquoted(text: string, span: Span): Span {
  const quoted = span.end - span.start >= 2 && text.charCodeAt(span.start) === 34 && text.charCodeAt(span.end - 1) === 34;
  return quoted ? { start: span.start + 1, end: span.end - 1 } : span;
}

// ---------------------------------------------------------------------- cards and the extensions file

function cardHighlights(file: string, text: string, offset: number): Highlight[] {
  const root = dataDocument(file, text).root;
  const hit = hitAt(root, offset);
  const value = hit?.scalar?.value;
  if (hit === undefined || hit.role !== 'value' || typeof value !== 'string') return [];
  const path = hit.path;
  const isId = path.length === 1 && path[0] === 'id';
  const isPortName = path.length === 3 && (path[0] === 'inputs' || path[0] === 'outputs') && path[1] === item && path[2] === 'name';
  if (isId || isPortName) return [{ span: hit.span, kind: 'write' }];
  const isDependency = path.length === 2 && path[0] === 'dependencies' && path[1] === item;
  if (isDependency) return same(root, value, (p) => p.length === 2 && p[0] === 'dependencies' && p[1] === item, 'read');
  if (termKindOfField(path) !== undefined) return same(root, value, (p) => termKindOfField(p) !== undefined, 'read');
  return [];
}

function extensionsHighlights(file: string, text: string, offset: number): Highlight[] {
  const root = dataDocument(file, text).root;
  const hit = hitAt(root, offset);
  const value = hit?.scalar?.value;
  if (hit === undefined || hit.role !== 'value' || typeof value !== 'string' || !isTermField(hit.path)) return [];
  return stringScalars(root)
    .filter((s) => s.value === value && isTermField(s.path))
    .map((s) => ({ span: s.span, kind: s.path[2] === 'id' ? 'write' : 'read' }));
}

function isTermField(path: readonly string[]): boolean {
  return path.length === 3 && path[0] === 'terms' && path[1] === item && (path[2] === 'id' || path[2] === 'broader');
}

function same(root: Parameters<typeof stringScalars>[0], value: string, where: (path: readonly string[]) => boolean, kind: HighlightKind): Highlight[] {
  return stringScalars(root)
    .filter((s) => s.value === value && where(s.path))
    .map((s) => ({ span: s.span, kind }));
}
