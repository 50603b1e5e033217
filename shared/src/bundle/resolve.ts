/**
 * Resolution (docs/compatibility.md#resolution-order), in DarkPrint's order: parse the topology,
 * read the cards, point nodes at cards (pins, digests, orphans), pair ports on every edge, check
 * prohibitions, check dependencies, then entries, exits and reachability. Then the digest and the
 * analysis.
 *
 * Decisions where DarkPrint's behaviour leaves room (docs/compatibility.md#where-findings-sit,
 * docs/compatibility.md#resolution-after-a-parse-error):
 * - A pin problem (`bundle/missing-card`, `bundle/unpinned-card`, `bundle/digest-mismatch` of a
 *   node) is reported on the attribute value it is about (`card="…"`, `version="…"`,
 *   `digest="…"`) when the node has one; otherwise on the node's first appearance.
 * - A port name that the card lacks is reported on the `out="…"`/`in="…"` value; every other
 *   edge finding covers the edge, from its source endpoint to the end of its attributes.
 * - The parser recovers, so resolution continues after `dot/parse-error` (DarkPrint stops):
 *   one typo does not hide every other finding. The parse error itself stays an error.
 *
 * Incremental loads: given a `LoadMemo`, each stage of `loadBundle` goes through the memo layer
 * (../stage.ts): it declares its inputs, and its kept output comes back while they are the same
 * (compared by identity: the server hands back the same `SourceFile` for an unchanged file and
 * the same `CardReadResult` for an unchanged card, and a card read gives the same `CardEntry`;
 * texts by value). Nodes, edges and dependency lists are kept per item, by what each reads (a
 * node the card entry its pin names, an edge its endpoints' entries), and moved across an edit of
 * the topology to the items of the new parse that read the same (`carryOver`). The rules
 * (`pointNode`, `checkEdge`, `checkDependencies`) and the stages' computations never see the
 * memo. Some computations build on their last run, by algorithms of their own: the parse resumes
 * after the statements two texts share, the cards are patched, the same diagnostic objects come
 * back for findings that read as before (../diagnostics/sort.ts `interner`), and the final order
 * merges the findings that stayed with the new ones rather than sorting all (`sortedDeduped`).
 * The diagnostics, in content and order, and the analysis are the same with or without a memo
 * (shared/test/incremental-load.test.ts checks it on random edit sequences, one edit or several
 * per load).
 */
import { movedDiagnostic, type Diagnostic, type RelatedInformation } from '../diagnostics';
import { interner, sortedDeduped, type SortMemo } from '../diagnostics/sort';
import { commonPrefixLength, commonSuffixLength, type Span } from '../text';
import { dotParseReuse, dotParseSerial, parseDot } from '../syntax/dot-parser';
import type { DotAttribute, DotAttributes, DotEdge, DotNode, DotParseResult } from '../syntax/dot-model';
import { createLintMemo, everyArmType, lintAttractor, type LintMemo } from '../check/attractor-lint';
import { cardRefNamedBy, readCard } from '../check/card';
import { checkVersionChain } from '../check/version-bump';
import { createVocabulary, readExtensions, validateVocabulary } from '../vocabulary';
import type { Vocabulary, Term } from '../vocabulary/types';
import type { Graph } from '../analyze/graph';
import { analyze, createAnalysisMemo, type Analysis, type AnalysisMemo, type AnalysisNode } from '../analyze';
import { defaultAnalysisConfig, type AnalysisConfig } from '../vocabulary/analysis-config';
import { blueprintDigest, cardDigest } from '../hash';
import type { Card, CardReadResult, Port } from '../card/card-model';
import { parseCardRef, isExactVersion, cardIdPattern } from '../card/card-ref';
import { classifyFiles, baseName, type ClassifiedFiles } from './classify';
import { readManifest } from './manifest';
import type { Blueprint, CardEntry, ResolvedEdge, ResolvedNode, SourceFile } from './model';
import { firstEdgesOf, topologyShape, type TopologyShape } from './topology-shape';
import { mapped } from '../arrays';
import { listIds } from '../analyze/autonomy';
import { isAttractorIdentifier } from '../syntax/attractor-table';
import { itself, perItem, perItemOver, slot, stage, type Items, type Kept, type Slot } from '../stage';

export interface LoadOptions {
  /** The bundle folder's name, for the stub manifest. */
  readonly folderName?: string;
  readonly config?: AnalysisConfig;
  /** Reuse card reads (the language server memoises them per document version). */
  readonly readCard?: (file: SourceFile, vocabulary: Vocabulary) => CardReadResult;
  /**
   * Reuse, from one load of a bundle to the next, what the files it depends on did not change:
   * the topology's parse and lint (by text), the local vocabulary (by text), the manifest (by
   * text), the resolution of each node, edge and dependency list (by the parsed node or edge
   * and the card entries it reads) and the analysis (see `analyze`). The language server keeps
   * one per bundle (`createLoadMemo`); results are the same with or without it.
   */
  readonly memo?: LoadMemo;
}

/**
 * What `loadBundle` may reuse between loads of one bundle: a slot per stage (../stage.ts), and
 * the memos the lint, the analysis and the sort keep for themselves. Opaque: create it with
 * `createLoadMemo`. Every key is present from its creation, in one order, and never replaced.
 */
export interface LoadMemo {
  readonly classified: Slot<ClassifyInputs, ClassifiedFiles>;
  readonly vocabulary: Slot<VocabularyInputs, LocalVocabulary>;
  readonly manifest: Slot<ManifestInputs, ManifestRead>;
  /** What the lint may take from its last run (../check/attractor-lint.ts). */
  readonly lint: LintMemo;
  readonly topology: Slot<TopologyInputs, TopologyRead>;
  readonly cards: Slot<CardInputs, CardStage>;
  readonly resolution: Slot<ResolutionInputs, Resolution>;
  /** The card entries the nodes pin, in node order: the same list while they are the same. */
  readonly pinned: Slot<readonly CardEntry[], readonly CardEntry[]>;
  readonly orphans: Slot<OrphanInputs, Orphans>;
  /** The analyzer's node per graph index (see `analysisNodes`). */
  readonly analysisNodes: Items<readonly [ResolvedNode, undefined], AnalysisNode>;
  readonly analysis: AnalysisMemo;
  /** The last load's sorted diagnostics, for merging the next ones (../diagnostics/sort.ts). */
  readonly order: SortMemo;
}

export function createLoadMemo(): LoadMemo {
  return {
    classified: slot(),
    vocabulary: slot(),
    manifest: slot(),
    lint: createLintMemo(),
    topology: slot(),
    cards: slot(),
    resolution: slot(),
    pinned: slot(),
    orphans: slot(),
    analysisNodes: [],
    analysis: createAnalysisMemo(),
    order: {},
  };
}

/** A one-shot load's memo: no slot, so every stage just computes (the keys of `createLoadMemo`, in its order). */
const unkept: { readonly [K in keyof LoadMemo]: LoadMemo[K] | undefined } = {
  classified: undefined,
  vocabulary: undefined,
  manifest: undefined,
  lint: undefined,
  topology: undefined,
  cards: undefined,
  resolution: undefined,
  pinned: undefined,
  orphans: undefined,
  analysisNodes: undefined,
  analysis: undefined,
  order: undefined,
};

type ClassifyInputs = readonly [files: readonly SourceFile[]];
/** The local vocabulary file's path and text (both undefined without one), and the configuration its terms are checked against. */
type VocabularyInputs = readonly [path: string | undefined, text: string | undefined, config: AnalysisConfig];
type ManifestInputs = readonly [path: string | undefined, text: string | undefined, folderName: string];
/** The topology file's path and text, and the lint's own memo (passed through, not compared for what it holds: the lint finds the same with or without it). */
type TopologyInputs = readonly [path: string, text: string, lint: LintMemo | undefined];
type CardInputs = readonly [files: readonly SourceFile[], vocabulary: Vocabulary, read: CardReader];
type ResolutionInputs = readonly [vocabulary: Vocabulary, file: string, parse: DotParseResult];
type OrphanInputs = readonly [file: string, cards: ReadonlyMap<string, CardEntry>, pinned: readonly CardEntry[]];

type CardReader = (file: SourceFile, vocabulary: Vocabulary) => CardReadResult;
type ManifestRead = ReturnType<typeof readManifest>;

/** The local vocabulary over the core one, its terms and its findings. */
interface LocalVocabulary {
  readonly localTerms: Term[];
  readonly vocabulary: Vocabulary;
  readonly diagnostics: readonly Diagnostic[];
}

/** The topology's parse and what it alone finds. */
interface TopologyRead {
  readonly parse: DotParseResult;
  readonly lint: readonly Diagnostic[];
  /** The parse's diagnostics, located in the topology file. */
  readonly located: readonly Diagnostic[];
}

/** The orphan-card findings, by card entry and in order. */
interface Orphans {
  readonly byEntry: ReadonlyMap<CardEntry, Diagnostic>;
  readonly list: readonly Diagnostic[];
}

/** The cards of one load: what `readCards` gives, and what it needs to patch it. */
interface CardStage {
  readonly cardFiles: readonly CardEntry[];
  readonly cards: ReadonlyMap<string, CardEntry>;
  /** Per card file: its read diagnostics, then its `bundle/digest-mismatch` if any. */
  readonly perFile: readonly (readonly Diagnostic[])[];
  /** The version-chain findings. */
  readonly versions: readonly Diagnostic[];
  /** Refs claimed by more than one file. */
  readonly shared: ReadonlySet<string>;
  /** Card ids held in more than one version. */
  readonly versioned: ReadonlySet<string>;
}

/**
 * The cards `readCards` may patch into its last stage: per file read anew, its index and entry
 * (none when every file is the same object or reads as before); undefined when one changed in a
 * way the stage cannot take (a renamed file, a card that now validates or no longer does, another
 * id or version, one shared or versioned). A function of its own, ending in its loop: V8 compiles
 * a long loop while it runs (on-stack replacement), and code after the loop that had not yet run
 * then (a topology edit's "no card changed", after a phase of card edits) made that compiled code
 * give up at the same place on every later call (seen with --trace-deopt: `npm run bench:deopt`).
 */
function changedCards(
  files: readonly SourceFile[],
  vocabulary: Vocabulary,
  read: CardReader,
  lastFiles: readonly SourceFile[],
  last: CardStage,
): { index: number; entry: CardEntry }[] | undefined {
  const changed: { index: number; entry: CardEntry }[] = [];
  for (let i = 0; i < files.length; i++) {
    const file = files[i];
    const before = lastFiles[i];
    if (file === before) continue;
    const result = read(file, vocabulary);
    const previous = last.cardFiles[i];
    if (result === previous.read && file.path === before.path) continue;
    const card = result.card;
    const ref = previous.ref;
    if (file.path !== before.path) return undefined;
    if (card === undefined || ref === undefined) {
      // a card that did not validate, before and after, holds no ref
      if (!(card === undefined && ref === undefined)) return undefined;
      changed.push({ index: i, entry: { read: result } });
    } else {
      if (!(`${card.id}@${card.version}` === ref && last.cards.get(ref) === previous && !last.shared.has(ref) && !last.versioned.has(card.id))) return undefined;
      changed.push({ index: i, entry: entryOf(result, card) });
    }
  }
  return changed;
}

/**
 * Reads the card files into entries, the cards by ref, the digest clashes and the version
 * chain. After a last stage with the same vocabulary and as many files, a file that is the same
 * `SourceFile` object as then keeps its read; when every other file read again kept its ref,
 * and that ref is neither claimed twice nor one of several versions of its id, the last stage is
 * patched rather than rebuilt (nothing else can change: the refs, the clashes and the version
 * chains are the same), or given back as it was when no file reads otherwise.
 */
function readCards([files, vocabulary, read]: CardInputs, last: Kept<CardInputs, CardStage> | undefined): CardStage {
  if (last !== undefined && last.inputs[1] === vocabulary && last.inputs[0].length === files.length) {
    const before = last.output;
    const changed = changedCards(files, vocabulary, read, last.inputs[0], before);
    if (changed !== undefined) return changed.length === 0 ? before : patchedCards(before, changed);
  }
  const cardFiles: CardEntry[] = [];
  const cards = new Map<string, CardEntry>();
  const perFile: (readonly Diagnostic[])[] = [];
  const shared = new Set<string>();
  for (const f of files) {
    const result = read(f, vocabulary);
    const card = result.card;
    if (!card) {
      cardFiles.push({ read: result });
      perFile.push(result.diagnostics);
      continue;
    }
    const entry = entryOf(result, card);
    const ref = entry.ref!;
    cardFiles.push(entry);
    const first = cards.get(ref);
    if (!first) {
      cards.set(ref, entry);
      perFile.push(result.diagnostics);
      continue;
    }
    shared.add(ref);
    if (first.digest === entry.digest) {
      perFile.push(result.diagnostics);
      continue;
    }
    perFile.push([
      ...result.diagnostics,
      {
        code: 'bundle/digest-mismatch',
        severity: 'error',
        message: `${f.path} and ${first.read.file} both claim ${ref} but their contents differ; give one of them a new version, or delete the stale copy.`,
        location: { file: f.path, span: result.locate('version', 'value'), cardRef: ref },
        related: [{ file: first.read.file, span: first.read.locate('version', 'value'), message: `the first file that claims ${ref}` }],
      },
    ]);
  }
  const ids = new Set<string>();
  const versioned = new Set<string>();
  for (const entry of cards.values()) {
    const id = entry.card!.id;
    if (ids.has(id)) versioned.add(id);
    ids.add(id);
  }
  const versions = checkVersionChain([...cards.values()].map((e) => ({ file: e.read.file, card: e.card!, locate: e.read.locate })));
  return { cardFiles, cards, perFile, versions, shared, versioned };
}

/** The last stage with the entries of the files read anew in place (see `changedCards`). */
function patchedCards(last: CardStage, changed: readonly { index: number; entry: CardEntry }[]): CardStage {
  const cardFiles = last.cardFiles.slice();
  const perFile = last.perFile.slice();
  const cards = new Map(last.cards);
  for (const { index, entry } of changed) {
    cardFiles[index] = entry;
    perFile[index] = entry.read.diagnostics;
    if (entry.ref !== undefined) cards.set(entry.ref, entry);
  }
  return { cardFiles, cards, perFile, versions: last.versions, shared: last.shared, versioned: last.versioned };
}

/**
 * Resolution of one parse of the topology with one vocabulary: what the topology alone decides,
 * and the per-item results (../stage.ts `perItem`), by the position of the node or edge they are
 * about. A card edit reuses every result whose card entries are the same objects. A topology edit
 * brings a new parse: a node or edge at the same position that reads the same (same id or
 * endpoints, same spans, same attributes the rules read) keeps its results (`carryOver`), so an
 * edit re-resolves only what it touched and what follows it in the file.
 */
interface Resolution {
  readonly file: string;
  readonly parse: DotParseResult;
  /** What the topology alone decides. */
  readonly shape: TopologyShape;
  /** Per node: the card its pin names exactly (`pinRef`), or undefined. */
  readonly pins: (string | undefined)[];
  /** Per node: its resolved node and pin findings. */
  readonly nodes: Items<NodeInputs, NodeResult>;
  /** Per edge: its resolution and findings. */
  readonly edges: Items<EdgeInputs, EdgeResult>;
  /** Per node with a card: its dependency findings. */
  readonly dependencies: Items<DependencyInputs, readonly Diagnostic[]>;
}

/** The entry of a card that validated. */
type PinnedEntry = CardEntry & { readonly card: Card; readonly ref: string };

/**
 * What a node's pin reads: the card entry its pin names, when the bundle holds it; else (the
 * entry undefined) the cards, their map and their files, which the findings of a pin that names
 * no card of the bundle search.
 */
type NodeInputs = readonly [entry: PinnedEntry | undefined, cards: CardStage | undefined];
/** What an edge reads: its endpoints' card entries. */
type EdgeInputs = readonly [source: PinnedEntry | undefined, target: PinnedEntry | undefined];
/** What a node's dependency findings read: its card entry, then its predecessors' (its suppliers), in order. */
type DependencyInputs = readonly [entry: PinnedEntry, ...suppliers: (PinnedEntry | undefined)[]];

interface NodeResult {
  readonly resolved: ResolvedNode;
  readonly diagnostics: readonly Diagnostic[];
}

interface EdgeResult {
  readonly resolved: ResolvedEdge;
  readonly diagnostics: readonly Diagnostic[];
}

/** Card entries by card read: a read that is reused gives the same entry object. */
const cardEntries = new WeakMap<CardReadResult, CardEntry>();
function entryOf(result: CardReadResult, card: Card): CardEntry {
  let entry = cardEntries.get(result);
  if (entry === undefined || entry.card !== card) {
    entry = new ValidCardEntry(result, card, `${card.id}@${card.version}`);
    cardEntries.set(result, entry);
  }
  return entry;
}

/**
 * The entry of a card that validated. Its digest is hashed when first read (a `digest=` pin, a
 * ref two files claim, the blueprint digest, a hover), not for every card of every load: a check
 * that reads none, as `darkprint validate` of a bundle without digest pins, hashes no card.
 */
class ValidCardEntry implements CardEntry {
  constructor(
    readonly read: CardReadResult,
    readonly card: Card,
    readonly ref: string,
  ) {}

  get digest(): string {
    return digestOf(this.card);
  }
}

/** Card digests by card: a card read that is reused (see `readCard`) is hashed once. */
const digests = new WeakMap<Card, string>();
function digestOf(card: Card): string {
  let digest = digests.get(card);
  if (digest === undefined) {
    digest = cardDigest(card);
    digests.set(card, digest);
  }
  return digest;
}

export interface LoadResult {
  readonly blueprint?: Blueprint;
  readonly analysis?: Analysis;
  readonly diagnostics: readonly Diagnostic[];
}

const topologyFallback = 'topology.dot';

/**
 * Loads a bundle folder's files: classification, vocabulary, manifest, topology, cards,
 * resolution (nodes, orphans, edges, dependencies), analysis. Each stage's reuse is declared at
 * its call, by its inputs (../stage.ts): the stages below never see the memo.
 */
export function loadBundle(files: readonly SourceFile[], options: LoadOptions = {}): LoadResult {
  const memo = options.memo ?? unkept;
  const config = options.config ?? defaultAnalysisConfig;
  const classified = stage(memo.classified, [files], classify);
  const diagnostics: Diagnostic[] = [...classified.diagnostics];

  // The local vocabulary (ours, docs/compatibility.md#vocabulary-checks: its diagnostics are part
  // of the bundle's results), then the manifest.
  const vocabularyFile = classified.vocabulary;
  const local = stage(memo.vocabulary, [vocabularyFile?.path, vocabularyFile?.text, config], localVocabulary);
  const vocabulary = local.vocabulary;
  pushAll(diagnostics, local.diagnostics);
  const manifestFile = classified.manifest;
  const manifest = stage(memo.manifest, [manifestFile?.path, manifestFile?.text, options.folderName ?? 'untitled-blueprint'], manifestOf);
  pushAll(diagnostics, manifest.diagnostics);

  // The topology: its parse, and the Attractor lint.
  const topologyFile = classified.topology;
  if (!topologyFile) {
    diagnostics.push(noTopology());
    return { diagnostics: sortedDeduped(diagnostics, memo.order) };
  }
  const file = topologyFile.path;
  const topology = stage(memo.topology, [file, topologyFile.text, memo.lint], readTopology);
  const parse = topology.parse;
  pushAll(diagnostics, topology.located);
  const graphModel = parse.graph;
  if (!graphModel || !graphModel.directed) return { diagnostics: sortedDeduped(diagnostics, memo.order) };

  // Cards, in file-name order; identity is the card's own id@version.
  const read = options.readCard ?? readCardAnew;
  const cardStage = stage(memo.cards, [classified.cards, vocabulary, read], readCards);
  const { cardFiles, cards } = cardStage;
  for (let i = 0; i < cardStage.perFile.length; i++) pushAll(diagnostics, cardStage.perFile[i]);
  pushAll(diagnostics, cardStage.versions);
  for (const f of classified.reservedUnderCards) pushAll(diagnostics, misfiledCard(f, read(f, vocabulary), cards));

  // Nodes -> cards, then the cards no node pins.
  const resolution = stage(memo.resolution, [vocabulary, file, parse], resolutionOf);
  const pointed = pointNodes(graphModel.nodes, resolution, cardStage, diagnostics);
  const nodes = pointed.nodes;
  const pinned = stage(memo.pinned, pointed.pinned, itself);
  pushAll(diagnostics, stage(memo.orphans, [file, cards, pinned], orphansOf).list);

  // The lint's forks, then edges (ports, types, prohibitions), then dependencies.
  const shape = resolution.shape;
  const graph = shape.graph;
  const lookup = nodeLookup(nodes, shape);
  const nodeAt = lookup.at;
  pushLint(diagnostics, topology.lint, (id) => {
    const index = graph.index.get(id);
    return index === undefined ? undefined : nodeAt(index);
  }, vocabulary);
  const edges = resolveEdges(graphModel.edges, resolution, nodeAt, vocabulary, diagnostics);
  checkAllDependencies(nodes, resolution, nodeAt, diagnostics);
  pushAll(diagnostics, shape.diagnostics);

  // The blueprint digest hashes the whole topology text: computed when first asked for (export,
  // report), not on every load of an edited bundle.
  let digest: string | undefined;
  const digestNow = (): string => {
    if (digest === undefined) {
      const digests: string[] = [];
      for (const n of nodes) if (n.entry) digests.push(n.entry.digest!);
      digest = blueprintDigest(topologyFile.text, digests);
    }
    return digest;
  };

  const blueprint: Blueprint = {
    manifest: manifest.manifest,
    ...(manifestFile ? { manifestFile } : {}),
    topology: { file: topologyFile, parse },
    vocabulary,
    ...(vocabularyFile ? { vocabularyFile } : {}),
    localTerms: local.localTerms,
    cardFiles,
    cards,
    graph,
    nodes,
    get nodeById(): ReadonlyMap<string, ResolvedNode> {
      return lookup.byId();
    },
    edges,
    get digest(): string {
      return digestNow();
    },
  };
  const analysis = analyze({ graph, nodes: analysisNodes(graph.ids, nodeAt, memo.analysisNodes), vocabulary, file }, config, memo.analysis);
  pushAll(diagnostics, analysis.diagnostics);
  return { blueprint, analysis, diagnostics: sortedDeduped(diagnostics, memo.order) };
}

/** A card read without reuse (the default of `LoadOptions.readCard`): one function, so that the cards stage sees the same reader. */
function readCardAnew(file: SourceFile, vocabulary: Vocabulary): CardReadResult {
  return readCard(file, vocabulary);
}

function noTopology(): Diagnostic {
  return {
    code: 'dot/parse-error',
    severity: 'error',
    message: 'The bundle has no topology: add a topology.dot that declares `digraph <name> { … }` with one node per card.',
    location: { file: topologyFallback },
  };
}

/**
 * `classifyFiles`, reusing the last load's classification when the files come in the same order
 * with the same paths: classification reads paths, and texts only to compare two local
 * vocabularies, so the last result with each replaced file object swapped in is the same
 * (unless a replaced file is a vocabulary candidate: then it is classified again).
 */
function classify([files]: ClassifyInputs, last: Kept<ClassifyInputs, ClassifiedFiles> | undefined): ClassifiedFiles {
  const lastFiles = last?.inputs[0];
  if (last === undefined || lastFiles === undefined || lastFiles.length !== files.length) return classifyFiles(files);
  const replaced = new Map<SourceFile, SourceFile>();
  for (let i = 0; i < files.length; i++) {
    const before = lastFiles[i];
    const file = files[i];
    if (file === before) continue;
    if (file.path !== before.path || file.path === 'ontology/extensions.yaml' || (!file.path.includes('/') && vocabularyFile.test(file.path))) return classifyFiles(files);
    replaced.set(before, file);
  }
  const old = last.output;
  if (replaced.size === 0) return old;
  const swap = (f: SourceFile | undefined): SourceFile | undefined => (f === undefined ? undefined : (replaced.get(f) ?? f));
  // the same array when none of its files was replaced (an empty one above all: a mapped empty
  // array is another kind of array to V8, which would drop the optimised `loadBundle` that reads it)
  const swapAll = (list: readonly SourceFile[]): readonly SourceFile[] => (list.some((f) => replaced.has(f)) ? mapped(list, (f) => replaced.get(f) ?? f) : list);
  // (the keys in `classifyFiles`' order: one object shape for both, which V8 keeps optimised)
  return {
    topology: swap(old.topology),
    manifest: swap(old.manifest),
    vocabulary: swap(old.vocabulary),
    cards: swapAll(old.cards),
    reservedUnderCards: swapAll(old.reservedUnderCards),
    diagnostics: old.diagnostics,
  };
}

/** The local vocabulary over the core one, and its findings (read and checked against `config`). */
function localVocabulary([path, text, config]: VocabularyInputs): LocalVocabulary {
  if (path === undefined || text === undefined) return { localTerms: [], vocabulary: createVocabulary([]).vocabulary, diagnostics: [] };
  const read = readExtensions({ path, text });
  const localTerms = read.terms;
  const { vocabulary, shadowed } = createVocabulary(localTerms);
  return { localTerms, vocabulary, diagnostics: [...read.diagnostics, ...validateVocabulary(vocabulary, shadowed, localTerms, config)] };
}

/** The manifest, or the stub made from the folder's name. */
function manifestOf([path, text, folderName]: ManifestInputs): ManifestRead {
  return readManifest(path === undefined || text === undefined ? undefined : { path, text }, folderName);
}

/**
 * The topology's parse, its findings located in the file, and the Attractor lint (of a directed
 * graph). A parse of the same file starts after the statements the last text shares with this
 * one (see `parseDot`), and findings that read as in the last parse come back as the same objects.
 */
function readTopology([path, text, lintMemo]: TopologyInputs, last: Kept<TopologyInputs, TopologyRead> | undefined): TopologyRead {
  const before = last !== undefined && last.inputs[0] === path ? last.output : undefined;
  const parsed = parseDot(text, undefined, before?.parse);
  const directed = parsed.graph !== undefined && parsed.graph.directed;
  const lintOf = interner(last?.output.lint ?? []);
  const locatedOf = interner(last?.output.located ?? []);
  return {
    parse: parsed,
    lint: directed ? lintAttractor(parsed, text, path, lintMemo).map(lintOf) : [],
    located: parsed.diagnostics.map((d) => locatedOf({ ...d, location: { ...d.location, file: path } })),
  };
}

/**
 * The resolution of a parse with a vocabulary: the same while both are (a card edit), after an
 * edit of the topology a new one holding what `carryOver` moves across from the last one.
 */
function resolutionOf([vocabulary, file, parse]: ResolutionInputs, last: Kept<ResolutionInputs, Resolution> | undefined): Resolution {
  const graphModel = parse.graph!;
  const before = last?.output;
  const sameFile = last !== undefined && last.inputs[1] === file;
  const shape = sameFile && before!.parse === parse ? before!.shape : topologyShape(graphModel, file, before?.shape);
  const next: Resolution = { file, parse, shape, pins: [], nodes: [], edges: [], dependencies: [] };
  carryOver(sameFile && last.inputs[0] === vocabulary ? before : undefined, next, graphModel);
  return next;
}

/**
 * Points every node at its card (pins, versions, digests), its findings pushed to
 * `diagnostics`: the resolved nodes, and the card entries they pin, in order. Ends in its loop
 * (docs/architecture.md, the edit path's speed rules).
 */
function pointNodes(dotNodes: readonly DotNode[], resolution: Resolution, cardStage: CardStage, diagnostics: Diagnostic[]): { nodes: ResolvedNode[]; pinned: PinnedEntry[] } {
  const nodes: ResolvedNode[] = [];
  const pinned: PinnedEntry[] = [];
  const pins = resolution.pins;
  const cards = cardStage.cards;
  for (let n = 0; n < dotNodes.length; n++) {
    const ref = pins[n];
    const entry = ref === undefined ? undefined : (cards.get(ref) as PinnedEntry | undefined);
    const result = perItem(resolution.nodes, n, dotNodes[n], entry, entry === undefined ? cardStage : undefined, resolveNode, resolution.file);
    pushAll(diagnostics, result.diagnostics);
    nodes.push(result.resolved);
    if (result.resolved.entry !== undefined) pinned.push(result.resolved.entry);
  }
  return { nodes, pinned };
}

/** A node's rule: its pin's findings, and the node resolved. */
function resolveNode(dot: DotNode, inputs: NodeInputs, file: string): NodeResult {
  const pointed = pointNode(dot, inputs, file);
  return { resolved: resolvedNode(dot, pointed.ref || undefined, pointed.entry), diagnostics: pointed.diagnostics };
}

/**
 * `bundle/orphan-card` for every card no node pins, in the cards' order; a finding the last
 * stage made for the same card entry in the same file comes back as the same object.
 */
function orphansOf([file, cards, pinned]: OrphanInputs, last: Kept<OrphanInputs, Orphans> | undefined): Orphans {
  // the pinned cards, by entry (a card's entry is the one object `cards` holds for its ref)
  const used = new Set<CardEntry>(pinned);
  const kept = last !== undefined && last.inputs[0] === file ? last.output.byEntry : undefined;
  const byEntry = new Map<CardEntry, Diagnostic>();
  const list: Diagnostic[] = [];
  cards.forEach((entry) => {
    if (used.has(entry)) return;
    const orphan: Diagnostic = kept?.get(entry) ?? {
      code: 'bundle/orphan-card',
      severity: 'warning',
      message: `No node pins ${entry.ref}, so it takes no part in the pipeline; pin it from a node in ${file} with card="${entry.ref}", or delete the file.`,
      location: { file: entry.read.file, span: entry.read.locate('id', 'value'), cardRef: entry.ref },
    };
    byEntry.set(entry, orphan);
    list.push(orphan);
  });
  return { byEntry, list };
}

/**
 * The resolved node at a graph index, and the resolved nodes by id (built when first asked for:
 * an aligned graph needs no lookup by id on the edit path).
 */
function nodeLookup(nodes: readonly ResolvedNode[], shape: TopologyShape): { at: (index: number) => ResolvedNode | undefined; byId: () => ReadonlyMap<string, ResolvedNode> } {
  let byId: Map<string, ResolvedNode> | undefined;
  const nodeById = (): ReadonlyMap<string, ResolvedNode> => {
    if (byId === undefined) {
      byId = new Map();
      for (let n = 0; n < nodes.length; n++) byId.set(nodes[n].id, nodes[n]);
    }
    return byId;
  };
  const ids = shape.graph.ids;
  const at = shape.aligned ? (index: number): ResolvedNode | undefined => nodes[index] : (index: number) => nodeById().get(ids[index]);
  return { at, byId: nodeById };
}

/**
 * Pairs the ports of every edge and checks what it carries against the target's prohibitions,
 * its findings pushed to `diagnostics`. Ends in its loop (docs/architecture.md, the edit path's
 * speed rules).
 */
function resolveEdges(
  dotEdges: readonly DotEdge[],
  resolution: Resolution,
  nodeAt: (index: number) => ResolvedNode | undefined,
  vocabulary: Vocabulary,
  diagnostics: Diagnostic[],
): ResolvedEdge[] {
  const edges: ResolvedEdge[] = [];
  const endpoints = resolution.shape.endpoints;
  const context: EdgeContext = { vocabulary, file: resolution.file };
  for (let e = 0; e < dotEdges.length; e++) {
    const source = nodeAt(endpoints[2 * e])?.entry;
    const target = nodeAt(endpoints[2 * e + 1])?.entry;
    const result = perItem(resolution.edges, e, dotEdges[e], source, target, resolveEdge, context);
    pushAll(diagnostics, result.diagnostics);
    edges.push(result.resolved);
  }
  return edges;
}

/** What every edge's rule reads alike. */
interface EdgeContext {
  readonly vocabulary: Vocabulary;
  readonly file: string;
}

/** An edge's rule: its findings, and the edge resolved. */
function resolveEdge(dot: DotEdge, inputs: EdgeInputs, context: EdgeContext): EdgeResult {
  const checked = checkEdge(dot, inputs[0], inputs[1], context.vocabulary, context.file);
  const read: EdgeView = dot;
  const resolved: ResolvedEdge = {
    dot,
    source: dot.source,
    target: dot.target,
    ...(checked.pair ? { pair: checked.pair } : {}),
    ...optionalAttr('label', read.attrs.get('label')),
    ...optionalAttr('condition', read.attrs.get('condition')),
    ...optionalAttr('weight', read.attrs.get('weight')),
  };
  return { resolved, diagnostics: checked.diagnostics };
}

/**
 * Checks every pinned node's declared dependencies against the nodes that feed it, its findings
 * pushed to `diagnostics`. Ends in its loop (docs/architecture.md, the edit path's speed rules).
 */
function checkAllDependencies(
  nodes: readonly ResolvedNode[],
  resolution: Resolution,
  nodeAt: (index: number) => ResolvedNode | undefined,
  diagnostics: Diagnostic[],
): void {
  const shape = resolution.shape;
  const graph = shape.graph;
  const context: DependencyContext = { shape, file: resolution.file };
  /** The card entry of the node at a graph index: a supplier. */
  const supplier = (index: number): PinnedEntry | undefined => nodeAt(index)?.entry;
  for (let n = 0; n < nodes.length; n++) {
    const entry = nodes[n].entry;
    if (entry === undefined) continue;
    const index = shape.aligned ? n : graph.index.get(nodes[n].id);
    if (index === undefined) continue;
    pushAll(diagnostics, perItemOver(resolution.dependencies, n, index, entry, graph.predecessors[index], supplier, dependencyFindings, context));
  }
}

/** What every node's dependency rule reads alike. */
interface DependencyContext {
  readonly shape: TopologyShape;
  readonly file: string;
}

/** A node's dependency rule (the node by its graph index). */
function dependencyFindings(index: number, inputs: DependencyInputs, context: DependencyContext): readonly Diagnostic[] {
  const shape = context.shape;
  return checkDependencies(shape.graph.ids[index], inputs[0], inputs.slice(1), shape.graph, firstEdgesOf(shape, index), context.file);
}

/** A root-level file name `classifyFiles` may take for the local vocabulary. */
const vocabularyFile = /^extensions\.(ya?ml|json)$/i;

/**
 * Moves to a new parse the results of the nodes and edges that read the same at the same
 * position (every input their checks read is compared), and the dependency findings of a node
 * whose predecessors, and the first edges from them, read the same. "The same position" allows
 * for the edit: a span after the changed text may have moved by what the edit added or removed
 * (`TextMove`), and the findings carried over move with it.
 */
function carryOver(previous: Resolution | undefined, next: Resolution, graphModel: NonNullable<DotParseResult['graph']>): void {
  const nodes = graphModel.nodes;
  const before = previous?.parse.graph;
  if (previous === undefined || before === undefined) {
    for (let n = 0; n < nodes.length; n++) next.pins.push(pinRef(nodes[n]));
    return;
  }
  const move = textMove(previous.parse.table.source, next.parse.table.source);
  const samePlace = (old: Span, now: Span): boolean => sameMovedSpan(old, now, move);
  /** True when the attributes `keys` read the same in both maps, their values where the edit moved them. */
  const sameAttributes = (a: DotAttributes, b: DotAttributes, keys: readonly string[]): boolean => {
    for (let k = 0; k < keys.length; k++) if (!sameMovedAttribute(a.get(keys[k]), b.get(keys[k]), move)) return false;
    return true;
  };
  const file = next.file;
  // What the parse took from the previous one, moved by the edit, reads the same by construction:
  // found by index, nothing of it is read again (see `DotTaken`).
  const reuse = dotParseReuse(next.parse)?.taken;
  const taken = reuse !== undefined && reuse.from === dotParseSerial(previous.parse) && reuse.delta === move.delta ? reuse : undefined;
  const takenNode = (n: number, m: number): boolean => taken !== undefined && n >= taken.nodes && m === n - taken.nodes + taken.earlierNodes;
  const takenEdge = (e: number, f: number): boolean => taken !== undefined && e >= taken.edges && f === e - taken.edges + taken.earlierEdges;
  // Nodes are compared at the same index up to the first that differs, and after it at the index
  // moved by the count the edit added or removed (a node declared or dropped in the middle).
  const nodeMap = indexMap(before.nodes, nodes, (a, b) => a.id === b.id);
  const nodeAt = nodeMap.at;
  /** Per new node index: 1 when the id is the same as its old node's, 2 when the node reads the same altogether. */
  const sameNode = new Uint8Array(nodes.length);
  // (a node that reads the same pins the same card: its pin is carried over with its results)
  const pins = next.pins;
  for (let n = 0; n < nodes.length; n++) {
    const m = nodeAt(n);
    const dot = nodes[n];
    if (m < 0) {
      pins.push(pinRef(dot));
      continue;
    }
    const old = before.nodes[m];
    // a parse that resumed after unchanged statements hands their nodes back as the same objects
    if (old === dot) {
      sameNode[n] = 2;
      pins.push(previous.pins[m]);
      next.nodes[n] = previous.nodes[m];
      continue;
    }
    sameNode[n] = 1;
    if (!takenNode(n, m) && (!samePlace(old.span, dot.span) || !sameAttributes(old.attrs, dot.attrs, nodeAttributes))) {
      pins.push(pinRef(dot));
      continue;
    }
    sameNode[n] = 2;
    pins.push(previous.pins[m]);
    const kept = previous.nodes[m];
    const diagnostics = kept && movedDiagnostics(kept.output.diagnostics, file, move);
    if (kept && diagnostics) {
      const { ref, entry } = kept.output.resolved;
      next.nodes[n] = { inputs: kept.inputs, output: { resolved: resolvedNode(dot, ref, entry), diagnostics } };
    }
  }
  const edges = graphModel.edges;
  const edgeMap = indexMap(before.edges, edges, (a, b) => a.source === b.source && a.target === b.target);
  const edgeAt = edgeMap.at;
  /** Per new edge index: 1 when the edge reads the same as its old edge (endpoints, span, attributes). */
  const sameEdge = new Uint8Array(edges.length);
  for (let e = 0; e < edges.length; e++) {
    const f = edgeAt(e);
    if (f < 0) continue;
    const dot = edges[e];
    const old = before.edges[f];
    if (old === dot) {
      sameEdge[e] = 1;
      next.edges[e] = previous.edges[f];
      continue;
    }
    if (!takenEdge(e, f) && (!samePlace(old.span, dot.span) || !sameAttributes(old.attrs, dot.attrs, edgeAttributes))) continue;
    sameEdge[e] = 1;
    const kept = previous.edges[f];
    const diagnostics = kept && movedDiagnostics(kept.output.diagnostics, file, move);
    if (kept && diagnostics) next.edges[e] = { inputs: kept.inputs, output: { resolved: withDot(kept.output.resolved, dot), diagnostics } };
  }
  for (let n = 0; n < nodes.length; n++) {
    if (sameNode[n] !== 2) continue;
    const m = nodeAt(n);
    const dependencies = previous.dependencies[m];
    if (dependencies === undefined) continue;
    // (by index only where no node or edge moved to another index: `sameNode` and `sameEdge` are by new index)
    const same =
      (n < nodeMap.identity && sameSuppliersByIndex(previous.shape, next.shape, n, sameNode, sameEdge, nodeMap.identity, edgeMap.identity)) ||
      sameSupplierEdges(previous.shape, next.shape, m, n, nodes[n].id, move);
    if (same) {
      const diagnostics = movedDiagnostics(dependencies.output, file, move);
      if (diagnostics) next.dependencies[n] = diagnostics === dependencies.output ? dependencies : { inputs: dependencies.inputs, output: diagnostics };
    }
  }
}

/**
 * Pairs the items of a new list with those of an old one: by index up to the first pair that is
 * not `same`, and after it by the index moved by the difference in length (what an edit in the
 * middle added or removed), as long as that pair is `same`. Gives, per new index, the old index
 * or -1 (`at`), and below which index a new index pairs only with itself (`identity`).
 */
function indexMap<T>(old: readonly T[], now: readonly T[], same: (a: T, b: T) => boolean): IndexMap {
  const common = Math.min(old.length, now.length);
  let first = 0;
  while (first < common && (old[first] === now[first] || same(old[first], now[first]))) first++;
  const shift = now.length - old.length;
  return {
    at: (index) => {
      if (index < first) return index;
      const m = index - shift;
      return m >= first && m < old.length && (old[m] === now[index] || same(old[m], now[index])) ? m : -1;
    },
    // with as many items, every pair is at the same index
    identity: shift === 0 ? Infinity : first,
  };
}

/** `at(new index)` → the old index paired with it, or -1; below `identity`, an index pairs only with itself. */
interface IndexMap {
  readonly at: (index: number) => number;
  readonly identity: number;
}

/**
 * Where a text changed: offsets before `before` read the same in the new text, and offsets from
 * `after` (in the old text) read the same `delta` code units further on.
 */
interface TextMove {
  readonly before: number;
  readonly after: number;
  readonly delta: number;
}

function textMove(old: string, now: string): TextMove {
  const before = commonPrefixLength(old, now);
  const suffix = commonSuffixLength(old, now, Math.min(old.length, now.length) - before);
  return { before, after: old.length - suffix, delta: now.length - old.length };
}

/** Where an old span is in the new text; undefined when it reaches into what changed. */
function movedSpan(span: Span, move: TextMove): Span | undefined {
  if (span.end <= move.before) return span;
  if (span.start >= move.after) return move.delta === 0 ? span : { start: span.start + move.delta, end: span.end + move.delta };
  return undefined;
}

/** True when the old span `old`, moved with the edit, is `now`. */
function sameMovedSpan(old: Span, now: Span, move: TextMove): boolean {
  if (old.end <= move.before) return old.start === now.start && old.end === now.end;
  if (old.start >= move.after) return old.start + move.delta === now.start && old.end + move.delta === now.end;
  return false;
}

function sameMovedAttribute(a: DotAttribute | undefined, b: DotAttribute | undefined, move: TextMove): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.value === b.value && a.fromDefault === b.fromDefault && sameMovedSpan(a.valueSpan, b.valueSpan, move);
}

/**
 * Findings kept for something that reads the same, moved with the edit where they point into
 * `file` (the same objects when nothing moves); undefined when one points into what changed.
 */
function movedDiagnostics(list: readonly Diagnostic[], file: string, move: TextMove): readonly Diagnostic[] | undefined {
  let out: Diagnostic[] | undefined;
  for (let i = 0; i < list.length; i++) {
    const d = list[i];
    const moved = movedDiagnostic(d, file, (span) => movedSpan(span, move));
    if (moved === undefined) return undefined;
    if (moved !== d) (out ??= list.slice(0, i)).push(moved);
    else out?.push(d);
  }
  return out ?? list;
}

/**
 * The quick form of `sameSupplierEdges` when both shapes index nodes as their parses do: the
 * same predecessors at the same indexes with the same ids, and the same first edge from each,
 * by index, reading the same (so its span is the same), every index below `nodes` and `edges`
 * (where an index pairs only with itself, see `IndexMap`). False says only "not shown this way".
 */
function sameSuppliersByIndex(before: TopologyShape, after: TopologyShape, n: number, sameNode: Uint8Array, sameEdge: Uint8Array, nodes: number, edges: number): boolean {
  if (!before.aligned || !after.aligned) return false;
  const x = before.graph.predecessors[n];
  const y = after.graph.predecessors[n];
  if (x.length !== y.length) return false;
  const first = before.firstEdgeIndexes[n];
  const second = after.firstEdgeIndexes[n];
  for (let k = 0; k < x.length; k++) {
    const p = x[k];
    if (p !== y[k] || p >= nodes || p >= sameNode.length || sameNode[p] === 0) return false;
    const e = first[k];
    if (e !== second[k] || e >= edges || e >= sameEdge.length || sameEdge[e] === 0) return false;
  }
  return true;
}

/** The resolved edge for a new parse's edge that reads the same. */
function withDot(resolved: ResolvedEdge, dot: DotEdge): ResolvedEdge {
  const copy: { -readonly [K in keyof ResolvedEdge]: ResolvedEdge[K] } = { dot, source: resolved.source, target: resolved.target };
  if (resolved.pair !== undefined) copy.pair = resolved.pair;
  if (resolved.label !== undefined) copy.label = resolved.label;
  if (resolved.condition !== undefined) copy.condition = resolved.condition;
  if (resolved.weight !== undefined) copy.weight = resolved.weight;
  return copy;
}

/**
 * THE attributes resolution reads of a node, and of an edge: one declaration, which is both what
 * the rules may read and what a carry-over compares before it keeps a node's or an edge's results
 * (`carryOver`). The rules see a statement through `NodeView` and `EdgeView`, whose attributes
 * answer only the declared keys: reading one more attribute does not compile until it is declared
 * here, and then it is compared too.
 */
const nodeAttributes = ['card', 'version', 'digest'] as const;
const edgeAttributes = ['out', 'in', 'label', 'condition', 'weight'] as const;

/** A statement whose attributes can be read only by the keys `K`. */
type Declared<S extends { readonly attrs: DotAttributes }, K extends string> = Omit<S, 'attrs'> & {
  readonly attrs: { get(key: K): DotAttribute | undefined };
};
/** A node as resolution's rules read it. */
type NodeView = Declared<DotNode, (typeof nodeAttributes)[number]>;
/** An edge as resolution's rules read it. */
type EdgeView = Declared<DotEdge, (typeof edgeAttributes)[number]>;

/**
 * Appends the lint's findings to `to`, but an unguarded fork out of a `parallel` node: such a
 * node runs every arm, so its fan-out needs no guard (the lint cannot know the card's type,
 * resolution can). A function of its own, as `pushAll` is: V8 optimises `loadBundle` as a whole,
 * and a loop that deoptimises inside it sent every other edit through the interpreter.
 */
function pushLint(to: Diagnostic[], lint: readonly Diagnostic[], nodeById: (id: string) => ResolvedNode | undefined, vocabulary: Vocabulary): void {
  for (let i = 0; i < lint.length; i++) {
    const d = lint[i];
    if (d.code === 'attractor/unguarded-fork' && d.location.nodeId !== undefined) {
      const type = nodeById(d.location.nodeId)?.entry?.card.type;
      if (type !== undefined && vocabulary.isA(type, everyArmType)) continue;
    }
    to.push(d);
  }
}

/**
 * The analyzer's node per graph id. A resolved node that the last load also had at the same
 * index gives the same object as then (the analyzer then takes what it read of it last time
 * without reading it again). Ends in its loop (docs/architecture.md, the edit path's speed rules).
 */
function analysisNodes(ids: readonly string[], nodeAt: (index: number) => ResolvedNode | undefined, kept: Items<readonly [ResolvedNode, undefined], AnalysisNode> | undefined): AnalysisNode[] {
  const out: AnalysisNode[] = [];
  for (let index = 0; index < ids.length; index++) {
    const n = nodeAt(index);
    out.push(n === undefined ? { id: ids[index] } : perItem(kept, index, undefined, n, undefined, analysisNode, undefined));
  }
  return out;
}

/** The analyzer's node for a resolved node. */
function analysisNode(_item: undefined, inputs: readonly [ResolvedNode, undefined]): AnalysisNode {
  const n = inputs[0];
  return n.entry ? { id: n.id, card: n.entry.card, span: n.dot.span } : { id: n.id, span: n.dot.span };
}

/**
 * Appends `found` to `to`. An indexed loop: in `loadBundle` a `for…of` per node and per edge
 * leaves an iterator behind each time, thousands per load.
 */
function pushAll(to: Diagnostic[], found: readonly Diagnostic[]): void {
  for (let i = 0; i < found.length; i++) to.push(found[i]);
}

/** True when the node (the old parse's node `m`, the new one's `n`) has the same predecessors, in order, and the same first edge from each (moved with the edit), in both shapes. */
function sameSupplierEdges(before: TopologyShape, after: TopologyShape, m: number, n: number, id: string, move: TextMove): boolean {
  const i = before.aligned ? m : before.graph.index.get(id);
  const j = after.aligned ? n : after.graph.index.get(id);
  if (i === undefined || j === undefined) return false;
  const x = before.graph.predecessors[i];
  const y = after.graph.predecessors[j];
  if (x.length !== y.length) return false;
  const first = before.firstEdgeIndexes[i];
  const second = after.firstEdgeIndexes[j];
  for (let k = 0; k < x.length; k++) {
    if (before.graph.ids[x[k]] !== after.graph.ids[y[k]] || !sameMovedSpan(before.edges[first[k]].span, after.edges[second[k]].span, move)) return false;
  }
  return true;
}

function optionalAttr<K extends string>(key: K, attr: DotAttribute | undefined): Partial<Record<K, string>> {
  return attr ? ({ [key]: attr.value } as Partial<Record<K, string>>) : {};
}

// ---- pins -------------------------------------------------------------------------------

interface Pointed {
  ref?: string;
  entry?: PinnedEntry;
  diagnostics: Diagnostic[];
}

/** The refs of the cards with id `id`, in the map's order. */
function carriedVersions(cards: ReadonlyMap<string, CardEntry>, id: string): string[] {
  let byId = versionsByCardId.get(cards);
  if (byId === undefined) {
    // one pass per cards map (a load's map is kept while no card changes), not one per pin that misses
    byId = new Map();
    for (const e of cards.values()) {
      const refs = byId.get(e.card!.id);
      if (refs === undefined) byId.set(e.card!.id, [e.ref!]);
      else refs.push(e.ref!);
    }
    versionsByCardId.set(cards, byId);
  }
  return byId.get(id)?.slice() ?? [];
}

const versionsByCardId = new WeakMap<ReadonlyMap<string, CardEntry>, Map<string, string[]>>();

/**
 * A resolved node. Every one is made here with the same four keys (an absent pin or card is an
 * `undefined` value), so the code reading them sees one object shape where optional keys gave
 * V8 four.
 */
function resolvedNode<E extends ResolvedNode['entry']>(dot: DotNode, ref: string | undefined, entry: E): ResolvedNode & { readonly entry: E } {
  return { id: dot.id, dot, ref, entry };
}

/**
 * The card a node's pin names exactly (`card="id@version"`, or `version="…"` with the node's id):
 * the ref `pointNode` looks up, read the same way; undefined when the node pins no card, or none
 * exactly. A function of the node's declared attributes and id.
 */
function pinRef(dot: NodeView): string | undefined {
  const cardAttr = dot.attrs.get('card');
  if (cardAttr) {
    const parsed = parseCardRef(cardAttr.value);
    return parsed && isExactVersion(parsed.version) ? `${parsed.id}@${parsed.version}` : undefined;
  }
  const versionAttr = dot.attrs.get('version');
  if (!versionAttr) return undefined;
  const version = versionAttr.value.trim();
  const parsed = parseCardRef(`${dot.id}@${version}`);
  return parsed && isExactVersion(version) ? `${parsed.id}@${parsed.version}` : undefined;
}

/** A node's pin: the card it names, with its digest checked, or the findings of a pin that names no card of the bundle. */
function pointNode(dot: NodeView, inputs: NodeInputs, file: string): Pointed {
  const [entry, cards] = inputs;
  return entry !== undefined ? pinnedCard(dot, entry, file) : missedCard(dot, cards!.cards, cards!.cardFiles, file);
}

/** The findings of a pin that names no card the bundle holds (or pins none, or none exactly). */
function missedCard(dot: NodeView, cards: ReadonlyMap<string, CardEntry>, cardFiles: readonly CardEntry[], file: string): Pointed {
  const diagnostics: Diagnostic[] = [];
  const at = (attr: DotAttribute | undefined): Span => (attr && !attr.fromDefault ? attr.valueSpan : dot.span);
  const base = { file, nodeId: dot.id };
  const cardAttr = dot.attrs.get('card');
  const versionAttr = dot.attrs.get('version');
  let ref: string | undefined;
  let pinAttr: DotAttribute | undefined;
  if (cardAttr) {
    pinAttr = cardAttr;
    const parsed = parseCardRef(cardAttr.value);
    if (!parsed || !isExactVersion(parsed.version)) {
      const carried = parsed ? carriedVersions(cards, parsed.id) : [];
      diagnostics.push({
        code: 'bundle/unpinned-card',
        severity: 'error',
        message: parsed
          ? `Node ${dot.id} pins ${cardAttr.value.trim()}, which is not one exact version; pin an exact version such as ${carried[0] ?? `${parsed.id}@1.0.0`}.`
          : `Node ${dot.id} has card="${cardAttr.value}", which is not \`id@version\`; write the card's id, an @ and its exact version, e.g. card="my-card@1.0.0".`,
        ...(carried.length ? { hint: `The bundle holds ${carried.join(', ')}.` } : {}),
        location: { ...base, span: at(cardAttr) },
      });
      return { diagnostics };
    }
    ref = `${parsed.id}@${parsed.version}`;
  } else if (versionAttr) {
    pinAttr = versionAttr;
    const version = versionAttr.value.trim();
    const parsed = parseCardRef(`${dot.id}@${version}`);
    if (!parsed || !isExactVersion(version)) {
      const legalId = cardIdPattern.test(dot.id);
      diagnostics.push({
        code: legalId ? 'bundle/unpinned-card' : 'bundle/missing-card',
        severity: 'error',
        message: legalId
          ? `Node ${dot.id} asks for version "${versionAttr.value}", which is not one exact version; write an exact version such as version="1.0.0".`
          : `Node ${dot.id} uses version= but its id is not a card id, so no card can be found; write card="<card-id>@${version || '1.0.0'}" instead.`,
        location: { ...base, span: at(versionAttr) },
      });
      return { diagnostics };
    }
    ref = `${parsed.id}@${parsed.version}`;
  } else {
    const carried = carriedVersions(cards, dot.id);
    const draft = carried.length === 0 ? failedDraft(cardFiles, dot.id) : undefined;
    if (draft !== undefined) {
      const version = draft.read.draft.version;
      const pin = `${dot.id}@${typeof version === 'string' ? version.trim() : '<version>'}`;
      diagnostics.push({
        code: 'bundle/missing-card',
        severity: 'error',
        message: `Node ${dot.id} pins no card, and ${draft.read.file} declares a card with that id, but its errors keep it out of the bundle; fix the errors reported in ${draft.read.file}, then add card="${pin}".`,
        location: { ...base, span: dot.span, ...(typeof version === 'string' ? { cardRef: pin } : {}) },
        related: [{ file: draft.read.file, span: draft.read.locate('id', 'value'), message: `${dot.id} is declared here, but the file has errors` }],
      });
      return { diagnostics };
    }
    diagnostics.push(
      carried.length > 0
        ? {
            code: 'bundle/unpinned-card',
            severity: 'error',
            message: `Node ${dot.id} pins no card version although the bundle holds a card with that id; add card="${carried[carried.length - 1]}".`,
            hint: `The bundle holds ${carried.join(', ')}.`,
            location: { ...base, span: dot.span },
          }
        : {
            code: 'bundle/missing-card',
            severity: 'error',
            message: `Node ${dot.id} points at no card; add card="<card-id>@<version>" naming one of the bundle's cards.`,
            location: { ...base, span: dot.span },
          },
    );
    return { diagnostics };
  }
  const entry = cards.get(ref);
  if (!entry) {
    const draft = failedDraft(cardFiles, ref);
    if (draft) {
      diagnostics.push({
        code: 'bundle/missing-card',
        severity: 'error',
        message: `Node ${dot.id} pins ${ref}, and ${draft.read.file} declares that card, but its errors keep it out of the bundle; fix the errors reported in ${draft.read.file}.`,
        location: { ...base, span: at(pinAttr), cardRef: ref },
        related: [{ file: draft.read.file, span: draft.read.locate('id', 'value'), message: `${ref} is declared here, but the file has errors` }],
      });
      return { ref, diagnostics };
    }
    const named = namedFor(cardFiles, ref);
    if (named !== undefined && named.ref === undefined) {
      // (a file named for the pin that is not read as a card at all: empty, not YAML or JSON, no id)
      diagnostics.push({
        code: 'bundle/missing-card',
        severity: 'error',
        message: `Node ${dot.id} pins ${ref}, and ${named.read.file} is named for that card, but its errors keep it out of the bundle; fix the errors reported in ${named.read.file}.`,
        location: { ...base, span: at(pinAttr), cardRef: ref },
        related: [{ file: named.read.file, span: { start: 0, end: 0 }, message: `${named.read.file} is named for ${ref}, but the file has errors` }],
      });
      return { ref, diagnostics };
    }
    const misnamed = named !== undefined && named.ref !== ref ? (named as CardEntry & { readonly ref: string }) : undefined;
    if (misnamed !== undefined) {
      // (a file renamed for a new version whose `version` was not changed with it)
      const version = ref.slice(ref.lastIndexOf('@') + 1);
      diagnostics.push({
        code: 'bundle/missing-card',
        severity: 'error',
        message: `Node ${dot.id} pins ${ref}, and ${misnamed.read.file} is named for that version but declares ${misnamed.ref}; write version: ${version} in that card if it is the new version, or pin ${misnamed.ref}.`,
        location: { ...base, span: at(pinAttr), cardRef: ref },
        related: [{ file: misnamed.read.file, span: misnamed.read.locate('version', 'value'), message: `${misnamed.read.file} declares ${misnamed.ref} here` }],
      });
      return { ref, diagnostics };
    }
    const id = ref.slice(0, ref.lastIndexOf('@'));
    const carried = carriedVersions(cards, id);
    diagnostics.push({
      code: 'bundle/missing-card',
      severity: 'error',
      message: carried.length
        ? `Node ${dot.id} pins ${ref}, but the bundle holds only ${carried.join(', ')} of that card; pin one of those, or add the missing version under cards/.`
        : `Node ${dot.id} pins ${ref}, but no card in the bundle has that id and version; add cards/${ref}.yaml or pin a card the bundle holds.`,
      location: { ...base, span: at(pinAttr), cardRef: ref },
    });
    return { ref, diagnostics };
  }
  // (not met: the card `pinRef` names is looked up before, see `pointNodes`)
  return pinnedCard(dot, entry as PinnedEntry, file);
}

/** A pin that names a card of the bundle: its `digest=`, if any, checked against the card's. */
function pinnedCard(dot: NodeView, entry: PinnedEntry, file: string): Pointed {
  const diagnostics: Diagnostic[] = [];
  const ref = entry.ref;
  const digestAttr = dot.attrs.get('digest');
  if (digestAttr) {
    const span = digestAttr.fromDefault ? dot.span : digestAttr.valueSpan;
    const wanted = digestAttr.value.trim().toLowerCase();
    const full = entry.digest!;
    const hex = full.slice('sha256:'.length);
    const ok = wanted.length > 0 && (full.startsWith(wanted) || (!wanted.includes(':') && hex.startsWith(wanted)));
    if (!ok) {
      diagnostics.push({
        code: 'bundle/digest-mismatch',
        severity: 'error',
        message: `Node ${dot.id} pins digest "${digestAttr.value}", but ${ref} now hashes to ${full}; the card changed since it was pinned. Review the change, then update the digest or the version.`,
        location: { file, nodeId: dot.id, span, cardRef: ref },
      });
    }
  }
  return { ref, entry, diagnostics };
}

/**
 * The first card file that declares `ref` but did not load: `ref` is an `id@version` (the file's
 * `id` and `version` as written), or an id alone (its `id`, whatever its version; ids hold no `@`).
 */
function failedDraft(cardFiles: readonly CardEntry[], ref: string): CardEntry | undefined {
  let byRef = failedDrafts.get(cardFiles);
  if (byRef === undefined) {
    byRef = new Map();
    for (const entry of cardFiles) {
      const { id, version } = entry.read.draft;
      if (entry.card !== undefined || typeof id !== 'string') continue;
      if (!id.includes('@') && !byRef.has(id.trim())) byRef.set(id.trim(), entry);
      if (typeof version !== 'string') continue;
      const key = `${id.trim()}@${version.trim()}`;
      if (!byRef.has(key)) byRef.set(key, entry);
    }
    failedDrafts.set(cardFiles, byRef);
  }
  return byRef.get(ref);
}

/** Per list of card entries (a load's, kept by the next load that reads no card anew). */
const failedDrafts = new WeakMap<readonly CardEntry[], Map<string, CardEntry>>();

/**
 * The first card file named `<ref>.<extension>` that does not hold `ref`: one that declares
 * another `id@version` (renamed for a version its `version` field does not say), or one that is
 * no card at all (its `ref` undefined).
 */
function namedFor(cardFiles: readonly CardEntry[], ref: string): CardEntry | undefined {
  let byName = misnamedCards.get(cardFiles);
  if (byName === undefined) {
    byName = new Map();
    for (const entry of cardFiles) {
      const name = cardRefNamedBy(entry.read.file);
      if (name !== entry.ref && !byName.has(name)) byName.set(name, entry);
    }
    misnamedCards.set(cardFiles, byName);
  }
  return byName.get(ref);
}

const misnamedCards = new WeakMap<readonly CardEntry[], Map<string, CardEntry>>();

/**
 * A `blueprint.yaml`/`extensions.yaml` under `cards/` that holds card fields
 * (docs/compatibility.md#file-classification): never read
 * as a card. When the bundle holds the card it would be (same `id@version`) in a card file, this
 * one is a stale copy, and the advice is to delete it: renaming it would make two files claim
 * one card (`bundle/digest-mismatch` when they differ), and no node lacks it.
 */
function misfiledCard(file: SourceFile, result: CardReadResult, cards: ReadonlyMap<string, CardEntry>): Diagnostic[] {
  const draft = result.draft;
  if (draft.id === undefined && draft.type === undefined && draft.inputs === undefined && draft.outputs === undefined) return [];
  const ref = typeof draft.id === 'string' && typeof draft.version === 'string' ? `${draft.id}@${draft.version}` : undefined;
  const held = ref === undefined ? undefined : cards.get(ref);
  const message =
    held !== undefined
      ? `${file.path} holds card fields for ${ref}, but a file named ${baseName(file.path)} is never read as a card, and the bundle holds ${ref} already in ${held.read.file}; this copy is unused, so delete it (or give it an id or version of its own and rename it).`
      : `${file.path} holds card fields, but a file named ${baseName(file.path)} is never read as a card, so nodes pinning it report a missing card; rename it to cards/${ref ?? '<id>@<version>'}.yaml.`;
  const location = { file: file.path, span: result.locate('id', 'key') };
  if (held === undefined) return [{ code: 'bundle/misfiled-card', severity: 'warning', message, location }];
  const related = [{ file: held.read.file, span: held.read.locate('id', 'value'), message: `the card file that holds ${ref}` }];
  return [{ code: 'bundle/misfiled-card', severity: 'warning', message, location, related }];
}

// ---- edges ------------------------------------------------------------------------------

interface EdgeCheck {
  pair?: { output: Port; input: Port };
  diagnostics: Diagnostic[];
}

export function portCompatible(vocabulary: Vocabulary, outputType: string, inputType: string): boolean {
  return outputType === inputType || outputType === 'any' || inputType === 'any' || vocabulary.isA(outputType, inputType);
}

function edgeName(edge: { readonly source: string; readonly target: string }): string {
  return `${edge.source} -> ${edge.target}`;
}

function checkEdge(edge: EdgeView, src: PinnedEntry | undefined, dst: PinnedEntry | undefined, vocabulary: Vocabulary, file: string): EdgeCheck {
  const diagnostics: Diagnostic[] = [];
  if (!src || !dst) return { diagnostics };
  const location = { file, span: edge.span, edge: { source: edge.source, target: edge.target } };
  const outAttr = edge.attrs.get('out');
  const inAttr = edge.attrs.get('in');
  const outName = outAttr?.value.trim();
  const inName = inAttr?.value.trim();
  let pinnedOut: Port | undefined;
  let pinnedIn: Port | undefined;
  let badPin = false;
  if (outName !== undefined) {
    pinnedOut = src.card.outputs.find((p) => p.name === outName);
    if (!pinnedOut) {
      badPin = true;
      diagnostics.push({
        code: 'bundle/port-mismatch',
        severity: 'error',
        message: `${src.ref} (node ${edge.source}) has no output named "${outName}"; ${portChoice(src.card.outputs, 'output')}`,
        location: { ...location, span: outAttr!.fromDefault ? edge.span : outAttr!.valueSpan, cardRef: src.ref },
        related: [{ file: src.read.file, span: src.read.locate('outputs', 'key'), message: `the outputs of ${src.ref}` }],
      });
    }
  }
  if (inName !== undefined) {
    pinnedIn = dst.card.inputs.find((p) => p.name === inName);
    if (!pinnedIn) {
      badPin = true;
      diagnostics.push({
        code: 'bundle/port-mismatch',
        severity: 'error',
        message: `${dst.ref} (node ${edge.target}) has no input named "${inName}"; ${portChoice(dst.card.inputs, 'input')}`,
        location: { ...location, span: inAttr!.fromDefault ? edge.span : inAttr!.valueSpan, cardRef: dst.ref },
        related: [{ file: dst.read.file, span: dst.read.locate('inputs', 'key'), message: `the inputs of ${dst.ref}` }],
      });
    }
  }
  if (badPin) return { diagnostics };

  let pair: EdgeCheck['pair'];
  if (pinnedOut && pinnedIn) {
    if (!portCompatible(vocabulary, pinnedOut.type, pinnedIn.type)) {
      diagnostics.push({
        code: 'bundle/type-mismatch',
        severity: 'error',
        message: `Edge ${edgeName(edge)} wires output "${pinnedOut.name}" (${pinnedOut.type}) into input "${pinnedIn.name}" (${pinnedIn.type}), and ${pinnedOut.type} is not a kind of ${pinnedIn.type}; pin ports whose types fit, or change one port's type.`,
        location,
      });
    } else {
      pair = { output: pinnedOut, input: pinnedIn };
    }
  } else {
    const outputs = pinnedOut ? [pinnedOut] : src.card.outputs;
    const inputs = pinnedIn ? [pinnedIn] : dst.card.inputs;
    if (outputs.length === 0 || inputs.length === 0) {
      const side = outputs.length === 0 ? `${src.ref} (node ${edge.source}) declares no outputs` : `${dst.ref} (node ${edge.target}) declares no inputs`;
      diagnostics.push({
        code: 'bundle/port-mismatch',
        severity: 'error',
        message: `Edge ${edgeName(edge)} carries no data because ${side}; declare the port on the card, or remove the edge.`,
        location,
      });
    } else {
      const pairs: { output: Port; input: Port }[] = [];
      for (const o of outputs) for (const i of inputs) if (portCompatible(vocabulary, o.type, i.type)) pairs.push({ output: o, input: i });
      if (pairs.length === 0) {
        diagnostics.push({
          code: 'bundle/type-mismatch',
          severity: 'error',
          message: `No output of ${src.ref} (${outputs.map((p) => `${p.name}: ${p.type}`).join(', ')}) fits an input of ${dst.ref} (${inputs.map((p) => `${p.name}: ${p.type}`).join(', ')}) on edge ${edgeName(edge)}; an output fits when its type equals the input's or is narrower. Change a port type, or remove the edge.`,
          location,
        });
      } else {
        pair = pairs[0];
        if (pairs.length > 1) {
          diagnostics.push({
            code: 'bundle/port-ambiguous',
            severity: 'warning',
            message: `Edge ${edgeName(edge)} fits ${pairs.length} port pairs (${pairs.map((p) => `${p.output.name} → ${p.input.name}`).join(', ')}); the first is assumed. Pin the pair with out="…" and in="…".`,
            location,
          });
        }
      }
    }
  }
  diagnostics.push(...checkProhibitions(edge, src, dst, outName, vocabulary, location));
  return { ...(pair ? { pair } : {}), diagnostics };
}

function portChoice(ports: readonly Port[], side: 'input' | 'output'): string {
  return ports.length === 0
    ? `the card declares no ${side}s; remove the ${side === 'output' ? 'out' : 'in'}= attribute or add the port to the card.`
    : `use one of ${ports.map((p) => `"${p.name}"`).join(', ')}.`;
}

function checkProhibitions(
  edge: EdgeView,
  src: PinnedEntry,
  dst: PinnedEntry,
  outName: string | undefined,
  vocabulary: Vocabulary,
  location: { file: string; span: Span; edge: { source: string; target: string } },
): Diagnostic[] {
  if (dst.card.cannot.length === 0) return [];
  const carriers: { port: Port; index: number }[] = [];
  src.card.outputs.forEach((port, index) => {
    if (outName === undefined || port.name === outName) carriers.push({ port, index });
  });
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  dst.card.cannot.forEach((entry, cannotIndex) => {
    const term = vocabulary.resolve(entry, 'data-type');
    if (!term || seen.has(term.id)) return;
    seen.add(term.id);
    const carrier = carriers.find((c) => vocabulary.isA(c.port.type, term.id));
    if (!carrier) return;
    const related: RelatedInformation[] = [
      { file: dst.read.file, span: dst.read.locate(`cannot[${cannotIndex}]`, 'value'), message: `${dst.ref} declares that it cannot receive ${entry}` },
      { file: src.read.file, span: src.read.locate(`outputs[${carrier.index}]`, 'value'), message: `output "${carrier.port.name}" of ${src.ref} carries ${carrier.port.type}` },
    ];
    out.push({
      code: 'bundle/prohibition-violated',
      severity: 'error',
      message:
        `Edge ${edgeName(edge)} delivers ${carrier.port.type} from output "${carrier.port.name}" of ${src.ref} to node ${edge.target}, ` +
        `whose card ${dst.ref} cannot receive ${term.id}. Remove the edge, or take ${entry} out of the card's \`cannot\` list ` +
        `(moving it to \`will_not\` records the intent but is never checked).`,
      location: { ...location, nodeId: edge.target, cardRef: dst.ref },
      related,
    });
  });
  return out;
}

// ---- dependencies -----------------------------------------------------------------------

/** The dependency findings of the node `nodeId` pinning `entry`, given its suppliers (its predecessors' entries). */
function checkDependencies(
  nodeId: string,
  entry: PinnedEntry,
  suppliers: readonly (CardEntry | undefined)[],
  graph: Graph,
  firstEdges: readonly DotEdge[],
  file: string,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const index = graph.index.get(nodeId)!;
  const predecessors = graph.predecessors[index];
  const supplied = new Set<string>();
  suppliers.forEach((supplier, k) => {
    if (!supplier) return;
    supplied.add(supplier.card!.id);
    supplied.add(graph.ids[predecessors[k]]);
  });
  const declared = entry.card.dependencies;
  // Predecessors without a card supply nothing: one of them may be the node meant, its pin
  // broken. (What the message reads is the node, its predecessors and their entries: the entries
  // are the rule's declared inputs, the rest is compared by `carryOver` across an edit.)
  const cardless = predecessors.filter((_, k) => suppliers[k] === undefined).map((p) => graph.ids[p]);
  declared.forEach((dependency, i) => {
    if (supplied.has(dependency)) return;
    // A dependency names a node id or a card id: the edge to add comes from that node, or from
    // the node that pins that card (a card id with a hyphen or a slash is no node id at all).
    const edge = isAttractorIdentifier(dependency)
      ? `the edge ${dependency} -> ${nodeId} (or one from the node that pins ${dependency})`
      : `an edge into ${nodeId} from the node that pins ${dependency}`;
    const one = cardless.length === 1;
    const message = cardless.includes(dependency)
      ? `${entry.ref} depends on "${dependency}", and node ${dependency} sends to ${nodeId}, but it has no card of the bundle, so it supplies nothing; pin ${dependency} to a card the bundle holds.`
      : cardless.length > 0
        ? `${entry.ref} depends on "${dependency}", but no edge into node ${nodeId} comes from it. ${listIds(cardless)} ${one ? 'sends' : 'send'} to ${nodeId} with no card of the bundle, so ${one ? 'it supplies' : 'they supply'} nothing: if ${one ? 'it' : 'one of them'} should run ${dependency}, pin ${one ? 'it' : 'that node'} to that card; else add ${edge} in ${file}, or remove the entry.`
        : `${entry.ref} depends on "${dependency}", but no edge into node ${nodeId} comes from it; add ${edge} in ${file}, or remove the entry.`;
    out.push({
      code: 'bundle/missing-dependency',
      severity: 'error',
      message,
      location: { file: entry.read.file, span: entry.read.locate(`dependencies[${i}]`, 'value'), cardRef: entry.ref, nodeId, path: `dependencies[${i}]` },
    });
  });
  const declaredSet = new Set(declared);
  suppliers.forEach((supplier, k) => {
    if (!supplier) return;
    const id = graph.ids[predecessors[k]];
    if (declaredSet.has(supplier.card!.id) || declaredSet.has(id)) return;
    const edge = firstEdges[k];
    // Two nodes that pin the same card: whatever the card lists, the node that does not receive
    // from the other then misses it (bundle/missing-dependency), so the way out is another card.
    const message =
      supplier.ref === entry.ref
        ? `Node ${nodeId} receives from ${id}, which pins the same card ${entry.ref}; the card cannot list itself in \`dependencies\` without ${id} then missing that supplier, so pin a card of its own at one of the two nodes, or remove the edge.`
        : `Node ${nodeId} receives from ${id} (${supplier.ref}), but ${entry.ref} does not list it in \`dependencies\`; add "${supplier.card!.id}" to the card's dependencies.`;
    out.push({
      code: 'bundle/undeclared-dependency',
      severity: 'warning',
      message,
      location: { file, span: edge.span, nodeId, cardRef: entry.ref, edge: { source: id, target: nodeId } },
      related: [{ file: entry.read.file, span: entry.read.locate('dependencies', 'key'), message: `the dependencies of ${entry.ref}` }],
    });
  });
  return out;
}
