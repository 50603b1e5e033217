/**
 * Document links: the places in a file that name a card file of the bundle, linked to it.
 * - topology: every pin (`card="id@version"`, `version=`, also a `node [...]` default that reaches
 *   a node) that names a card the bundle holds, over the value without its quotes, each written
 *   place once;
 * - card: each `dependencies` entry naming a card id the bundle holds, to the version a node of
 *   the topology pins (the newest version when none or several do).
 * A pin naming no card of the bundle is no link (the diagnostics say what is wrong with it).
 */
import type { Span } from '../text';
import { cardIndex, cardOfNode, graphIndex, isCardPath, isTopologyPath, mainTopology, pinOf, textOf, topologyView, type HeldCard } from './context';
import { item } from './data-context';
import { stringScalars } from './data-scalars';
import { dataDocument } from './data-tree';
import type { IdeBundle } from './types';

export interface DocumentLink {
  readonly span: Span;
  /** The card file it opens (bundle-relative). */
  readonly target: string;
  readonly tooltip: string;
}

export function documentLinks(bundle: IdeBundle, file: string): DocumentLink[] {
  const text = textOf(bundle, file);
  if (text === undefined) return [];
  if (isTopologyPath(file)) return topologyLinks(bundle, file, text);
  if (isCardPath(file)) return cardLinks(bundle, file, text);
  return [];
}

function topologyLinks(bundle: IdeBundle, file: string, text: string): DocumentLink[] {
  const graph = topologyView(bundle, file)?.graph;
  if (graph === undefined) return [];
  const out: DocumentLink[] = [];
  const seen = new Set<number>();
  for (const node of graph.nodes) {
    const attr = pinOf(node).attr;
    if (attr === undefined || seen.has(attr.valueSpan.start)) continue;
    const held = cardOfNode(bundle, node);
    if (held === undefined) continue;
    seen.add(attr.valueSpan.start);
    out.push({ span: unquoted(text, attr.valueSpan), target: held.file, tooltip: `Open ${held.ref ?? held.file}` });
  }
  return out.sort((a, b) => a.span.start - b.span.start);
}

function cardLinks(bundle: IdeBundle, file: string, text: string): DocumentLink[] {
  const out: DocumentLink[] = [];
  for (const scalar of stringScalars(dataDocument(file, text).root)) {
    if (scalar.path.length !== 2 || scalar.path[0] !== 'dependencies' || scalar.path[1] !== item) continue;
    const held = dependencyCard(bundle, scalar.value);
    if (held !== undefined) out.push({ span: unquoted(text, scalar.span), target: held.file, tooltip: `Open ${held.ref ?? held.file}` });
  }
  return out;
}

/** The card a dependency names: the version the topology pins when it pins one, else the newest. */
function dependencyCard(bundle: IdeBundle, id: string): HeldCard | undefined {
  const versions = cardIndex(bundle).byId.get(id);
  if (versions === undefined || versions.length === 0) return undefined;
  const graph = mainTopology(bundle)?.graph;
  if (graph !== undefined) {
    const pinned = versions.filter((held) => held.ref !== undefined && graphIndex(graph).byRef.has(held.ref));
    if (pinned.length === 1) return pinned[0];
  }
  return versions[versions.length - 1];
}

/** A value's span without the quotes around it. */
function unquoted(text: string, span: Span): Span {
  const first = text.charCodeAt(span.start);
  const quoted = span.end - span.start >= 2 && (first === 34 || first === 39) && text.charCodeAt(span.end - 1) === first;
  return quoted ? { start: span.start + 1, end: span.end - 1 } : span;
}
