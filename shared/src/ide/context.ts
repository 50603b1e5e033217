/**
 * What every IDE feature asks of a bundle: the topology's parse (the engine's own when it is
 * current, else a fresh one, so a topology the resolver refused is still served), a card file's
 * read (valid card and draft), the vocabulary in force, the cards the bundle holds, and which
 * card a node pins. Plain lookups over `IdeBundle`; nothing here knows a feature.
 */
import type { Card, CardReadResult } from '../card/card-model';
import { parseCardRef, isExactVersion, cardIdPattern } from '../card/card-ref';
import { classifyFiles } from '../bundle/classify';
import type { CardEntry } from '../bundle/model';
import { readCard } from '../check/card';
import { compareVersionStrings } from '../check/semver';
import { parseDot } from '../syntax/dot-parser';
import { mentionAt, mentionStartingAt } from '../syntax/dot-mentions';
import type { DotAttribute, DotEdge, DotGraph, DotNode, DotParseResult, DotToken } from '../syntax/dot-model';
import { createVocabulary, readExtensions } from '../vocabulary';
import type { Vocabulary } from '../vocabulary/types';
import type { Span } from '../text';
import type { IdeBundle } from './types';

// ---------------------------------------------------------------------- files

export function isTopologyPath(file: string): boolean {
  return /\.(dot|gv)$/i.test(file);
}

export function isCardPath(file: string): boolean {
  return file.startsWith('cards/') && /\.(ya?ml|json)$/i.test(file);
}

export function isExtensionsPath(file: string): boolean {
  return /(^|\/)extensions\.(ya?ml|json)$/i.test(file) && !file.startsWith('cards/');
}

export function textOf(bundle: IdeBundle, file: string): string | undefined {
  return bundle.files.get(file)?.text;
}

// ---------------------------------------------------------------------- the topology

export interface TopologyView {
  readonly file: string;
  readonly text: string;
  readonly parse: DotParseResult;
  readonly graph?: DotGraph;
  /** Tokens without comments. */
  readonly significant: readonly DotToken[];
  /** True when `parse` is the one the bundle's blueprint was resolved from (so its edges line up with `blueprint.edges`). */
  readonly current: boolean;
}

/*
 * Memoisation. An `IdeBundle` is treated as immutable; the caches hang off its `LoadResult`
 * (one per bundle revision, shared by every request against it) and check the texts they were
 * built from, so a caller may wrap the same result in a new `IdeBundle` for each request.
 */
const topologyCache = new WeakMap<IdeBundle['result'], Map<string, TopologyView>>();

/** A topology file read (the blueprint's parse when it is of this text). */
export function topologyView(bundle: IdeBundle, file: string): TopologyView | undefined {
  if (!isTopologyPath(file)) return undefined;
  const source = bundle.files.get(file);
  if (source === undefined) return undefined;
  let views = topologyCache.get(bundle.result);
  if (views === undefined) topologyCache.set(bundle.result, (views = new Map()));
  const cached = views.get(file);
  if (cached !== undefined && cached.text === source.text) return cached;
  const view = readTopology(bundle, file, source.text);
  views.set(file, view);
  return view;
}

function readTopology(bundle: IdeBundle, file: string, text: string): TopologyView {
  const blueprint = bundle.result.blueprint;
  const current = blueprint !== undefined && blueprint.topology.file.path === file && blueprint.topology.file.text === text;
  // Another text than the blueprint's (a request answered before the bundle is loaded again, see
  // server/src/database.ts `textSnapshotOf`): parsed from where it differs from the blueprint's,
  // under the name the loader parses every topology with (the default), so that the resume
  // applies whatever the file is called and the next load takes this parse (the name only goes
  // into the parse's own findings, which the IDE does not read).
  const earlier = blueprint !== undefined && blueprint.topology.file.path === file ? blueprint.topology.parse : undefined;
  const parse = current ? blueprint.topology.parse : earlier !== undefined ? parseDot(text, undefined, earlier) : parseDot(text, file);
  // The token list is made when first read (completion reads the tokens around the cursor
  // only, see ./dot-context.ts `tokensNear`); a parse that resumed after an edit takes the
  // earlier parse's token objects before it (see ../syntax/dot-lexer.ts).
  return {
    file,
    text,
    parse,
    ...(parse.graph ? { graph: parse.graph } : {}),
    get significant(): readonly DotToken[] {
      return parse.significant;
    },
    current,
  };
}

/** The bundle's topology file: the blueprint's, else the one classification picks. */
export function topologyFile(bundle: IdeBundle): string | undefined {
  const blueprint = bundle.result.blueprint;
  if (blueprint !== undefined) return blueprint.topology.file.path;
  return classifyFiles([...bundle.files.values()]).topology?.path;
}

/** The bundle's topology, read. */
export function mainTopology(bundle: IdeBundle): TopologyView | undefined {
  const file = topologyFile(bundle);
  return file === undefined ? undefined : topologyView(bundle, file);
}

/**
 * The topologies whose pins name the bundle's cards: the bundle's own, and `also` (the file a
 * request came from) when that is another topology file of the bundle (a second `.dot`, read by
 * nothing else, whose pins a rename started there must follow too).
 */
export function pinnedViews(bundle: IdeBundle, also?: string): TopologyView[] {
  const main = mainTopology(bundle);
  const views = main !== undefined ? [main] : [];
  if (also !== undefined && also !== main?.file && isTopologyPath(also)) {
    const view = topologyView(bundle, also);
    if (view !== undefined) views.push(view);
  }
  return views;
}

export function topologyGraph(bundle: IdeBundle): DotGraph | undefined {
  return mainTopology(bundle)?.graph;
}

export interface GraphIndex {
  readonly byId: ReadonlyMap<string, DotNode>;
  /** Nodes by the `id@version` they pin. */
  readonly byRef: ReadonlyMap<string, readonly DotNode[]>;
  readonly incoming: ReadonlyMap<string, readonly DotEdge[]>;
  readonly outgoing: ReadonlyMap<string, readonly DotEdge[]>;
}

const graphIndexCache = new WeakMap<DotGraph, GraphIndex>();

/**
 * Lookups over a parsed graph, each built once per graph when first read: after an edit the
 * graph is new, and a request that reads nodes by id (a hover) need not read every pin.
 */
export function graphIndex(graph: DotGraph): GraphIndex {
  const cached = graphIndexCache.get(graph);
  if (cached !== undefined) return cached;
  let byId: Map<string, DotNode> | undefined;
  let byRef: Map<string, DotNode[]> | undefined;
  let ends: { readonly incoming: Map<string, DotEdge[]>; readonly outgoing: Map<string, DotEdge[]> } | undefined;
  const push = <K, V>(map: Map<K, V[]>, key: K, value: V): void => {
    const list = map.get(key);
    if (list === undefined) map.set(key, [value]);
    else list.push(value);
  };
  const edgeEnds = (): NonNullable<typeof ends> => {
    if (ends === undefined) {
      ends = { incoming: new Map(), outgoing: new Map() };
      for (const edge of graph.edges) {
        push(ends.incoming, edge.target, edge);
        push(ends.outgoing, edge.source, edge);
      }
    }
    return ends;
  };
  const index: GraphIndex = {
    get byId() {
      if (byId === undefined) {
        byId = new Map();
        for (const node of graph.nodes) byId.set(node.id, node);
      }
      return byId;
    },
    get byRef() {
      if (byRef === undefined) {
        byRef = new Map();
        for (const node of graph.nodes) {
          const ref = pinOf(node).ref;
          if (ref !== undefined) push(byRef, ref, node);
        }
      }
      return byRef;
    },
    get incoming() {
      return edgeEnds().incoming;
    },
    get outgoing() {
      return edgeEnds().outgoing;
    },
  };
  graphIndexCache.set(graph, index);
  return index;
}

/** The node whose occurrence (an id token in node position) covers `offset`. */
export function nodeAtOffset(graph: DotGraph, offset: number): { node: DotNode; occurrence: Span } | undefined {
  const mention = mentionAt(graph, offset);
  return mention === undefined ? undefined : { node: mention.node, occurrence: mention.span };
}

/** The id token of a node's first statement, else its first appearance. */
export function declarationSpan(graph: DotGraph, node: DotNode): Span {
  const statement = node.statements[0];
  if (statement !== undefined) {
    const at = mentionStartingAt(graph, statement.start);
    if (at !== undefined && at.node.id === node.id) return at.span;
  }
  return node.span;
}

/** A node's own (not default) attribute. */
export function ownAttribute(node: DotNode, key: string): DotAttribute | undefined {
  const attr = node.attrs.get(key);
  return attr !== undefined && !attr.fromDefault ? attr : undefined;
}

// ---------------------------------------------------------------------- pins

export interface Pin {
  /** How the node points at a card. */
  readonly via: 'card' | 'version' | 'none';
  readonly attr?: DotAttribute;
  /** Set when the pointer reads as `id@version`. */
  readonly id?: string;
  readonly version?: string;
  readonly ref?: string;
}

const pinCache = new WeakMap<DotNode, Pin>();

export function pinOf(node: DotNode): Pin {
  let pin = pinCache.get(node);
  if (pin === undefined) pinCache.set(node, (pin = readPin(node)));
  return pin;
}

/** Where a `card="id@version"` pin writes its card's id in `text`, or undefined (another pin, or an id not written as read). */
export function pinIdSpan(text: string, pin: Pin): Span | undefined {
  const attr = pin.attr;
  if (pin.via !== 'card' || attr === undefined || pin.id === undefined) return undefined;
  const at = text.slice(attr.valueSpan.start, attr.valueSpan.end).indexOf(`${pin.id}@`);
  return at < 0 ? undefined : { start: attr.valueSpan.start + at, end: attr.valueSpan.start + at + pin.id.length };
}

function readPin(node: DotNode): Pin {
  const card = node.attrs.get('card');
  if (card !== undefined) {
    const parsed = parseCardRef(card.value);
    return parsed ? { via: 'card', attr: card, id: parsed.id, version: parsed.version, ref: `${parsed.id}@${parsed.version}` } : { via: 'card', attr: card };
  }
  const version = node.attrs.get('version');
  if (version !== undefined) {
    const parsed = parseCardRef(`${node.id}@${version.value.trim()}`);
    return parsed ? { via: 'version', attr: version, id: parsed.id, version: parsed.version, ref: `${parsed.id}@${parsed.version}` } : { via: 'version', attr: version };
  }
  return { via: 'none' };
}

// ---------------------------------------------------------------------- cards

/** A card file as the IDE sees it: what was read, and the card when it validated. */
export interface HeldCard {
  readonly file: string;
  readonly read: CardReadResult;
  /** The validated card, when the file has no error. */
  readonly card?: Card;
  /** What could be read, valid or not. */
  readonly draft: Partial<Card>;
  readonly id?: string;
  readonly version?: string;
  /** `id@version` when both read as a legal id and an exact version. */
  readonly ref?: string;
}

export interface CardIndex {
  /** Every card file, in file-name order. */
  readonly files: readonly HeldCard[];
  readonly byFile: ReadonlyMap<string, HeldCard>;
  /** By `id@version`; a valid card wins over a draft, then the first file. */
  readonly byRef: ReadonlyMap<string, HeldCard>;
  /** By card id, versions ascending. */
  readonly byId: ReadonlyMap<string, readonly HeldCard[]>;
}

const cardIndexCache = new WeakMap<IdeBundle['result'], CardIndex>();
/**
 * The index made from a load's card entries, by their list: the next load of the bundle keeps
 * the list when it read no card anew, and the index holds while the card texts read the same.
 */
const indexByCardFiles = new WeakMap<readonly CardEntry[], CardIndex>();
/** The file maps an index was checked against (a map is checked once). */
const checkedFiles = new WeakMap<CardIndex, WeakSet<IdeBundle['files']>>();

/** Every card file of the bundle, read (from the blueprint when it has them). */
export function cardIndex(bundle: IdeBundle): CardIndex {
  const cached = cardIndexCache.get(bundle.result);
  if (cached !== undefined) {
    const checked = checkedFiles.get(cached);
    if (checked?.has(bundle.files)) return cached;
    if (sameCardTexts(bundle, cached)) {
      checked?.add(bundle.files);
      return cached;
    }
  }
  const blueprint = bundle.result.blueprint;
  // a load that read no card anew (an edit of the topology) hands back the same card entries
  const earlier = blueprint === undefined ? undefined : indexByCardFiles.get(blueprint.cardFiles);
  if (earlier !== undefined && sameCardTexts(bundle, earlier)) {
    cardIndexCache.set(bundle.result, earlier);
    checkedFiles.get(earlier)?.add(bundle.files);
    return earlier;
  }
  const fromBlueprint = new Map<string, CardEntry>();
  if (blueprint !== undefined) for (const entry of blueprint.cardFiles) fromBlueprint.set(entry.read.file, entry);
  const vocabulary = vocabularyOf(bundle);
  const files: HeldCard[] = [];
  const sources = [...bundle.files.values()].filter((f) => isCardPath(f.path)).sort((a, b) => compareText(a.path, b.path));
  for (const source of sources) {
    const path = source.path;
    const entry = fromBlueprint.get(path);
    const read = entry !== undefined && entry.read.text === source.text ? entry.read : readCard(source, vocabulary);
    files.push(held(path, read));
  }
  const byFile = new Map(files.map((f) => [f.file, f] as const));
  const byRef = new Map<string, HeldCard>();
  const byId = new Map<string, HeldCard[]>();
  for (const f of files) {
    if (f.ref === undefined) continue;
    const first = byRef.get(f.ref);
    if (first === undefined || (first.card === undefined && f.card !== undefined)) byRef.set(f.ref, f);
  }
  for (const f of byRef.values()) {
    if (f.id === undefined) continue;
    const list = byId.get(f.id);
    if (list === undefined) byId.set(f.id, [f]);
    else list.push(f);
  }
  for (const list of byId.values()) list.sort((a, b) => compareVersionStrings(a.version ?? '', b.version ?? ''));
  const index: CardIndex = { files, byFile, byRef, byId };
  cardIndexCache.set(bundle.result, index);
  if (blueprint !== undefined) indexByCardFiles.set(blueprint.cardFiles, index);
  checkedFiles.set(index, new WeakSet([bundle.files]));
  return index;
}

function sameCardTexts(bundle: IdeBundle, index: CardIndex): boolean {
  let count = 0;
  for (const [path, source] of bundle.files) {
    if (!isCardPath(path)) continue;
    count++;
    if (index.byFile.get(path)?.read.text !== source.text) return false;
  }
  return count === index.files.length;
}

/** One per card read: the server reuses reads of unchanged cards across revisions, and so does this. */
const heldCache = new WeakMap<CardReadResult, HeldCard>();

function held(file: string, read: CardReadResult): HeldCard {
  let found = heldCache.get(read);
  if (found === undefined || found.file !== file) heldCache.set(read, (found = readHeld(file, read)));
  return found;
}

function readHeld(file: string, read: CardReadResult): HeldCard {
  const draft = read.draft;
  const id = typeof draft.id === 'string' && cardIdPattern.test(draft.id) ? draft.id : undefined;
  const version = typeof draft.version === 'string' && isExactVersion(draft.version) ? draft.version : undefined;
  return {
    file,
    read,
    ...(read.card ? { card: read.card } : {}),
    draft,
    ...(id !== undefined ? { id } : {}),
    ...(version !== undefined ? { version } : {}),
    ...(id !== undefined && version !== undefined ? { ref: `${id}@${version}` } : {}),
  };
}

/** A card file's read, for any file under `cards/` (also one whose name keeps it out of the card set). */
export function cardAt(bundle: IdeBundle, file: string): HeldCard | undefined {
  if (!isCardPath(file)) return undefined;
  return cardIndex(bundle).byFile.get(file);
}

/** The card a node pins, valid or draft; undefined when the pin names nothing the bundle holds. */
export function cardOfNode(bundle: IdeBundle, node: DotNode): HeldCard | undefined {
  const ref = pinOf(node).ref;
  return ref === undefined ? undefined : cardIndex(bundle).byRef.get(ref);
}

// ---------------------------------------------------------------------- vocabulary

const vocabularyCache = new WeakMap<IdeBundle['result'], Vocabulary>();

/** The vocabulary in force: the blueprint's, else the core table with the bundle's local terms. */
export function vocabularyOf(bundle: IdeBundle): Vocabulary {
  const blueprint = bundle.result.blueprint;
  if (blueprint !== undefined) return blueprint.vocabulary;
  const cached = vocabularyCache.get(bundle.result);
  if (cached !== undefined) return cached;
  const file = classifyFiles([...bundle.files.values()]).vocabulary;
  const vocabulary = createVocabulary(file ? readExtensions(file).terms : []).vocabulary;
  vocabularyCache.set(bundle.result, vocabulary);
  return vocabulary;
}

// ---------------------------------------------------------------------- words

/** The run of characters satisfying `test` around `offset` in `text`. */
export function wordAt(text: string, offset: number, test: (c: number) => boolean): { start: number; end: number } {
  let start = Math.max(0, Math.min(offset, text.length));
  let end = start;
  while (start > 0 && test(text.charCodeAt(start - 1))) start--;
  while (end < text.length && test(text.charCodeAt(end))) end++;
  return { start, end };
}

export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** An exhaustive switch's unreachable arm: reaching it is a bug, never a user mistake. */
export function assertNever(value: never): never {
  throw new Error(`unexpected value ${JSON.stringify(value)}`);
}
