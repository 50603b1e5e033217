/**
 * Hover: what the thing under the cursor is, from the engine's tables and the bundle's cards.
 * - a vocabulary term wherever a card or the extensions file names one (read from the text
 *   around the cursor where the file does not parse);
 * - a diagnostic code written anywhere (a comment, a string);
 * - in the topology: a node id shows its card in a few lines (and the edges at that occurrence),
 *   a pin the versions of its card the bundle holds and who pins each, with the digest, an edge
 *   (arrow or endpoint) the ports it pairs and the type it carries, an attribute name what
 *   DarkPrint and the Attractor runner do with it, an `out=`/`in=` value the port (an empty one
 *   has no hover);
 * - in a card: every field key (what it is, whether it is required, what the engine does with
 *   it), a port's keys, and a dependency's card.
 */
import type { Port } from '../card/card-model';
import { portCompatible } from '../bundle/resolve';
import { isDiagnosticCode } from '../diagnostics';
import type { DotEdge, DotGraph, DotNode, DotToken } from '../syntax/dot-model';
import { termKinds } from '../vocabulary/types';
import type { Span } from '../text';
import {
  assertNever,
  cardAt,
  cardIndex,
  cardOfNode,
  graphIndex,
  isCardPath,
  isExtensionsPath,
  isTopologyPath,
  nodeAtOffset,
  pinOf,
  textOf,
  topologyGraph,
  topologyView,
  vocabularyOf,
  wordAt,
  type HeldCard,
  type TopologyView,
} from './context';
import { dataDocument, hitAt, termKindOfField } from './data-tree';
import { dataSlot, item } from './data-context';
import { code, describeAttribute, describeCard, describeCardField, describeCode, describeKind, describePort, describePortField, describeTerm, fileLink } from './describe';
import { cardDigest } from '../hash/digest';
import { enclosingList, indexAt, isIdLike, listOwner, tokensAndCommentsNear, tokensNear, type AttributeScope } from './dot-context';
import type { HoverResult, IdeBundle } from './types';

export function hover(bundle: IdeBundle, file: string, offset: number): HoverResult | undefined {
  const text = textOf(bundle, file);
  if (text === undefined || !(offset >= 0 && offset <= text.length)) return undefined;
  let result: HoverResult | undefined;
  if (isTopologyPath(file)) result = topologyHover(bundle, file, offset);
  else if (isCardPath(file)) result = cardHover(bundle, file, text, offset);
  else if (isExtensionsPath(file)) result = extensionsHover(bundle, file, text, offset);
  return result ?? codeHover(text, offset);
}

/** A diagnostic code such as `bundle/port-mismatch` under the cursor, wherever it is written. */
function codeHover(text: string, offset: number): HoverResult | undefined {
  const word = wordAt(text, offset, (c) => (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 47 || c === 45);
  const candidate = text.slice(word.start, word.end);
  if (!isDiagnosticCode(candidate)) return undefined;
  return { contents: describeCode(candidate), span: word };
}

// ---------------------------------------------------------------------- topology

function topologyHover(bundle: IdeBundle, file: string, offset: number): HoverResult | undefined {
  const view = topologyView(bundle, file);
  if (view === undefined) return undefined;
  // (the tokens around the cursor only, not lists of every token: see `tokensNear`)
  const all = tokensAndCommentsNear(view, offset);
  const at = indexAt(all, offset);
  if (at < 0) return undefined;
  const token = all[at];
  if (token.kind === 'line-comment' || token.kind === 'hash-comment' || token.kind === 'block-comment') return undefined;
  const graph = view.graph;
  if (graph === undefined) return undefined;

  if (token.kind === 'arrow' || token.kind === 'line') {
    const edges = edgesAcross(graph.edges, token.span);
    if (edges.length === 0) return undefined;
    return { contents: edges.map((e) => describeEdge(bundle, view, e)).join('\n\n---\n\n'), span: token.span };
  }

  const found = nodeAtOffset(graph, offset);
  if (found !== undefined) {
    const parts = [describeNode(bundle, found.node)];
    // the edges at this occurrence, by where they start (read off the edge list: one pass, where
    // the lookups by end would be made for every node of a graph that an edit just made)
    const id = found.node.id;
    const touching = graph.edges
      .filter((edge) => (edge.source === id || edge.target === id) && (sameSpan(edge.sourceSpan, found.occurrence) || sameSpan(edge.targetSpan, found.occurrence)))
      .sort((a, b) => a.span.start - b.span.start);
    for (const edge of touching) parts.push(describeEdge(bundle, view, edge));
    return { contents: parts.join('\n\n---\n\n'), span: found.occurrence };
  }

  // An attribute name or value.
  const tokens = tokensNear(view, offset);
  const index = indexAt(tokens, offset);
  if (index < 0) return undefined;
  const t = tokens[index];
  if (!isIdLike(t.kind)) return undefined;
  if (tokens[index + 1]?.kind === 'equals') {
    const scope = scopeOf(view, tokens, t.span.start);
    if (scope === undefined) return undefined;
    const contents = describeAttribute(scope, t.value);
    return contents === undefined ? undefined : { contents, span: t.span };
  }
  if (tokens[index - 1]?.kind === 'equals' && index >= 2) {
    const key = tokens[index - 2].value;
    const open = enclosingList(tokens, t.span.start, view.text);
    const owner = open >= 0 ? listOwner(view, open, tokens) : undefined;
    if (owner === undefined) return undefined;
    if (owner.kind === 'node' && (key === 'card' || key === 'version' || key === 'digest')) {
      const node = graphIndex(graph).byId.get(owner.id);
      return node === undefined ? undefined : { contents: describePin(bundle, graph, node), span: t.span };
    }
    if (owner.kind === 'edge' && (key === 'out' || key === 'in')) {
      // an empty value names no port (the diagnostics say what belongs there)
      const name = t.value.trim();
      if (name === '') return undefined;
      const contents = owner.edges
        .map((e) => describeNamedPort(bundle, graph, key === 'out' ? e.source : e.target, key === 'out' ? 'output' : 'input', name))
        .filter((s): s is string => s !== undefined);
      return contents.length === 0 ? undefined : { contents: [...new Set(contents)].join('\n\n---\n\n'), span: t.span };
    }
  }
  return undefined;
}

function scopeOf(view: TopologyView, tokens: readonly DotToken[], offset: number): AttributeScope | undefined {
  const open = enclosingList(tokens, offset, view.text);
  if (open < 0) return 'graph';
  const owner = listOwner(view, open, tokens);
  if (owner === undefined) return undefined;
  switch (owner.kind) {
    case 'node':
      return 'node';
    case 'edge':
      return 'edge';
    case 'defaults':
      return owner.scope;
    default:
      return assertNever(owner);
  }
}

function sameSpan(a: Span, b: Span): boolean {
  return a.start === b.start && a.end === b.end;
}

/** The edges an arrow token joins: those whose endpoints sit nearest on either side of it. */
export function edgesAcross(edges: readonly DotEdge[], arrow: Span): DotEdge[] {
  let best: DotEdge[] = [];
  let bestGap = Number.POSITIVE_INFINITY;
  for (const edge of edges) {
    if (edge.sourceSpan.end > arrow.start || edge.targetSpan.start < arrow.end) continue;
    const gap = arrow.start - edge.sourceSpan.end + (edge.targetSpan.start - arrow.end);
    if (gap < bestGap) {
      bestGap = gap;
      best = [edge];
    } else if (gap === bestGap) best.push(edge);
  }
  return best;
}

function describeNode(bundle: IdeBundle, node: DotNode): string {
  const held = cardOfNode(bundle, node);
  const heading = `Node ${code(node.id)}`;
  if (held !== undefined) return describeCard(held, vocabularyOf(bundle), node.id);
  const pin = pinOf(node);
  if (pin.ref !== undefined) return `${heading} pins ${code(pin.ref)}, which the bundle does not hold.`;
  if (pin.attr !== undefined) return `${heading} has ${code(`${pin.via}="${pin.attr.value}"`)}, which is not an exact \`id@version\`.`;
  return `${heading} pins no card.`;
}

/** Most nodes a pin's hover names for one version before it says how many more. */
const pinnersShown = 5;

/**
 * A node's pin (`card=`, `version=`, `digest=`): the card it names, the versions of that card the
 * bundle holds with the nodes pinning each (or none: orphaned), the card's digest (and whether a
 * `digest=` prefix matches it), and a link to the card's file.
 */
function describePin(bundle: IdeBundle, graph: DotGraph, node: DotNode): string {
  const pin = pinOf(node);
  const held = cardOfNode(bundle, node);
  const lookups = graphIndex(graph);
  const written = pin.ref ?? pin.attr?.value.trim() ?? '';
  const lines = [`**Pin** ${code(written)} of node ${code(node.id)}`];
  if (pin.ref === undefined) lines.push('', `${code(written)} is not an exact \`id@version\`; write the card's id, an \`@\` and one exact version.`);
  else if (held === undefined) lines.push('', `The bundle holds no card ${code(pin.ref)}.`);
  else {
    const card = held.card ?? held.draft;
    const type = card.type !== undefined ? ` · ${code(card.type)}` : '';
    lines.push('', `${card.name !== undefined ? `**${card.name}**` : code(pin.ref)}${type}${held.card === undefined ? ` · the card has errors, so the pin does not resolve` : ''}`);
  }
  const versions = pin.id !== undefined ? cardIndex(bundle).byId.get(pin.id) ?? [] : [];
  if (versions.length > 0) {
    const each = [...versions].reverse().map((v) => {
      const nodes = v.ref !== undefined ? lookups.byRef.get(v.ref) ?? [] : [];
      const named = nodes.slice(0, pinnersShown).map((n) => code(n.id)).join(', ') + (nodes.length > pinnersShown ? ` and ${nodes.length - pinnersShown} more` : '');
      const by = nodes.length === 0 ? 'orphaned: no node pins it' : `pinned by ${named}`;
      return `${code(v.version ?? '?')}${v.ref === pin.ref ? ' (this pin)' : ''}: ${by}${v.card === undefined ? ', has errors' : ''}`;
    });
    lines.push('', `Versions in the bundle: ${each.join('; ')}`);
  }
  if (held?.card !== undefined) {
    const digest = cardDigestOf(bundle, held);
    const prefix = node.attrs.get('digest')?.value.trim().toLowerCase();
    const check = prefix === undefined || prefix === '' ? '' : digest.startsWith(prefix) || digest.slice('sha256:'.length).startsWith(prefix) ? ' (the node\'s `digest=` matches it)' : ' (the node\'s `digest=` does not match it)';
    lines.push('', `Digest: ${code(digest)}${check}`);
  }
  if (held !== undefined) lines.push('', `Defined in ${fileLink(held.file, held.read.locate('id', 'key').start)}`);
  return lines.join('\n');
}

/** A card's digest: the one the bundle's load computed, else computed here. */
function cardDigestOf(bundle: IdeBundle, held: HeldCard): string {
  const entry = bundle.result.blueprint?.cardFiles.find((e) => e.read === held.read);
  return entry?.digest ?? (held.card !== undefined ? cardDigest(held.card) : '');
}

interface Pair {
  readonly output: Port;
  readonly input: Port;
}

/** The wired port pair of an edge: the blueprint's when the parse is current, else worked out the same way. */
function pairOf(bundle: IdeBundle, view: TopologyView, edge: DotEdge, source: HeldCard | undefined, target: HeldCard | undefined): Pair | undefined {
  const blueprint = bundle.result.blueprint;
  if (view.current && blueprint !== undefined) return blueprint.edges.find((e) => e.dot === edge)?.pair;
  if (source?.card === undefined || target?.card === undefined) return undefined;
  const vocabulary = vocabularyOf(bundle);
  const outName = edge.attrs.get('out')?.value.trim();
  const inName = edge.attrs.get('in')?.value.trim();
  const outputs = outName === undefined ? source.card.outputs : source.card.outputs.filter((p) => p.name === outName);
  const inputs = inName === undefined ? target.card.inputs : target.card.inputs.filter((p) => p.name === inName);
  if ((outName !== undefined && outputs.length === 0) || (inName !== undefined && inputs.length === 0)) return undefined;
  for (const output of outputs) for (const input of inputs) if (portCompatible(vocabulary, output.type, input.type)) return { output, input };
  return undefined;
}

function describeEdge(bundle: IdeBundle, view: TopologyView, edge: DotEdge): string {
  const graph = view.graph;
  const lookups = graph !== undefined ? graphIndex(graph) : undefined;
  const sourceNode = lookups?.byId.get(edge.source);
  const targetNode = lookups?.byId.get(edge.target);
  const source = sourceNode ? cardOfNode(bundle, sourceNode) : undefined;
  const target = targetNode ? cardOfNode(bundle, targetNode) : undefined;
  // (two paragraphs at most: a node's hover shows the edges at its occurrence too)
  const heading = `**Edge** ${code(`${edge.source} -> ${edge.target}`)}`;
  const pair = pairOf(bundle, view, edge, source, target);
  let what: string;
  if (pair !== undefined) {
    what = `${heading} carries ${code(pair.output.type)}: output ${code(pair.output.name)} (${code(pair.output.type)}) of ${code(source?.ref ?? edge.source)} → input ${code(pair.input.name)} (${code(pair.input.type)}) of ${code(target?.ref ?? edge.target)}`;
  } else if (source?.card === undefined || target?.card === undefined) {
    const missing = [source?.card === undefined ? edge.source : undefined, target?.card === undefined ? edge.target : undefined].filter((s): s is string => s !== undefined);
    what = `${heading}: no port pair, as ${missing.map(code).join(' and ')} ${missing.length > 1 ? 'have' : 'has'} no valid card.`;
  } else {
    what = `${heading}: no port pair fits; see the diagnostics on this edge.`;
  }
  const attributes: string[] = [];
  for (const key of ['label', 'condition', 'weight']) {
    const attr = edge.attrs.get(key);
    if (attr !== undefined) attributes.push(`${key}: ${code(attr.value)}`);
  }
  return attributes.length > 0 ? `${what}\n\n${attributes.join(' · ')}` : what;
}

function describeNamedPort(bundle: IdeBundle, graph: DotGraph, nodeId: string, side: 'input' | 'output', name: string): string | undefined {
  const node = graphIndex(graph).byId.get(nodeId);
  const held = node ? cardOfNode(bundle, node) : undefined;
  if (held === undefined) return undefined;
  const card = held.card ?? held.draft;
  const list = side === 'output' ? card.outputs : card.inputs;
  const port = list?.find((p) => p.name === name);
  const ref = held.ref ?? nodeId;
  if (port === undefined) return `${code(ref)} has no ${side} named ${code(name)}.`;
  return describePort(port, side, ref, vocabularyOf(bundle));
}

// ---------------------------------------------------------------------- cards

/** A key or a string value under the cursor, from the file's tree or, where that has none, its text. */
interface DataHit {
  /** Keys from the root, `-` for list items. */
  readonly path: readonly string[];
  readonly role: 'key' | 'value';
  readonly span: Span;
  /** The value's text (undefined for a value that is not a string). */
  readonly value?: string;
}

/**
 * The readings of what is under the cursor, best first. A file being typed often does not parse
 * (a JSON card with a trailing `"x": ` has no tree at all), or parses into a tree that misplaces
 * the cursor's line: then the text around the cursor, read as completion reads it
 * (./data-context.ts), comes first, and the tree's reading, if any, after it.
 */
function dataHits(file: string, text: string, offset: number): DataHit[] {
  const document = dataDocument(file, text);
  const hits: DataHit[] = [];
  if (document.root === undefined || document.problems.some((p) => p.severity === 'error')) {
    const slot = dataSlot(file, text, offset);
    if (slot !== undefined && slot.span.end > slot.span.start) {
      const value = text.slice(slot.span.start, slot.span.end);
      // a closed quoted string is covered with its quotes, as the tree covers it
      const closed = slot.quoted && slot.unclosedQuote === undefined && /["']/.test(text.charAt(slot.span.end));
      const span = closed ? { start: slot.span.start - 1, end: slot.span.end + 1 } : slot.span;
      hits.push({ path: slot.role === 'key' ? [...slot.path, value] : slot.path, role: slot.role === 'key' ? 'key' : 'value', span, value });
    }
  }
  const hit = hitAt(document.root, offset);
  if (hit !== undefined) {
    const value = hit.scalar?.value;
    hits.push({ path: hit.path, role: hit.role, span: hit.span, ...(typeof value === 'string' ? { value } : {}) });
  }
  return hits;
}

function cardHover(bundle: IdeBundle, file: string, text: string, offset: number): HoverResult | undefined {
  for (const hit of dataHits(file, text, offset)) {
    const result = cardHoverAt(bundle, file, hit);
    if (result !== undefined) return result;
  }
  return undefined;
}

function cardHoverAt(bundle: IdeBundle, file: string, hit: DataHit): HoverResult | undefined {
  const vocabulary = vocabularyOf(bundle);
  const kind = termKindOfField(hit.path);
  if (hit.role === 'key') {
    // a top-level key: the field (and, for a field of terms, what kind of term it holds); a port's key
    if (hit.path.length === 1) {
      const field = describeCardField(hit.path[0]);
      const parts = [field, kind !== undefined ? describeKind(kind) : undefined].filter((p): p is string => p !== undefined);
      return parts.length > 0 ? { contents: parts.join('\n\n---\n\n'), span: hit.span } : undefined;
    }
    if (hit.path.length === 3 && (hit.path[0] === 'inputs' || hit.path[0] === 'outputs') && hit.path[1] === item) {
      const contents = describePortField(hit.path[2], hit.path[0] === 'inputs' ? 'input' : 'output');
      return contents === undefined ? undefined : { contents, span: hit.span };
    }
    return undefined;
  }
  const value = hit.value;
  if (value === undefined) return undefined;
  if (kind !== undefined) {
    const term = vocabulary.get(value) ?? vocabulary.resolve(value);
    return term === undefined ? undefined : { contents: describeTerm(term, vocabulary), span: hit.span };
  }
  if (hit.path.length === 2 && hit.path[0] === 'dependencies' && hit.path[1] === item) {
    const versions = cardIndex(bundle).byId.get(value);
    const latest = versions?.[versions.length - 1];
    if (latest !== undefined) return { contents: `Depends on\n\n${describeCard(latest, vocabulary)}`, span: hit.span };
    const graph = topologyGraph(bundle);
    const node = graph !== undefined ? graphIndex(graph).byId.get(value) : undefined;
    if (node !== undefined) return { contents: `Depends on the node\n\n${describeNode(bundle, node)}`, span: hit.span };
    return undefined;
  }
  if (hit.path.length === 1 && hit.path[0] === 'id') {
    const held = cardAt(bundle, file);
    if (held?.ref === undefined) return undefined;
    const graph = topologyGraph(bundle);
    const pinning = (graph !== undefined ? graphIndex(graph).byRef.get(held.ref) ?? [] : []).map((n) => code(n.id));
    return {
      contents: `${code(held.ref)} ${pinning.length > 0 ? `is pinned by ${pinning.join(', ')}` : 'is pinned by no node'}.`,
      span: hit.span,
    };
  }
  return undefined;
}

// ---------------------------------------------------------------------- the extensions file

function extensionsHover(bundle: IdeBundle, file: string, text: string, offset: number): HoverResult | undefined {
  for (const hit of dataHits(file, text, offset)) {
    const result = extensionsHoverAt(bundle, hit);
    if (result !== undefined) return result;
  }
  return undefined;
}

function extensionsHoverAt(bundle: IdeBundle, hit: DataHit): HoverResult | undefined {
  if (hit.role !== 'value' || hit.path.length !== 3 || hit.path[0] !== 'terms' || hit.path[1] !== item) return undefined;
  const value = hit.value;
  if (value === undefined) return undefined;
  const field = hit.path[2];
  if (field === 'kind') {
    const kind = termKinds.find((k) => k === value);
    return kind === undefined ? undefined : { contents: describeKind(kind), span: hit.span };
  }
  if (field !== 'id' && field !== 'broader') return undefined;
  const vocabulary = vocabularyOf(bundle);
  const term = vocabulary.get(value);
  return term === undefined ? undefined : { contents: describeTerm(term, vocabulary), span: hit.span };
}
