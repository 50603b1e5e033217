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
 * Incremental loads: given a `LoadMemo`, a load reuses what its inputs did not
 * change, keyed on object identity (the server hands back the same `CardReadResult` for an
 * unchanged card, and a card read gives the same `CardEntry`) or on what a parsed node or edge
 * reads (see `ResolutionMemo`), and the same diagnostic objects come back for unchanged
 * findings (a re-parse's lint, parse and entry/exit findings that read as before are handed back
 * as the earlier objects too: ../diagnostics/sort.ts `interner`). The file classification is kept
 * while the paths are the same (`classify`), kept pins skip their check while the cards map is
 * the same object, and the final order merges the findings that stayed with the new ones rather
 * than sorting all (`sortedDeduped`). The diagnostics, in content and order, and the analysis
 * are the same with or without a memo (shared/test/incremental-load.test.ts checks it on random edit
 * sequences, one edit or several per load).
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

/** What `loadBundle` may reuse between loads of one bundle. Opaque: create it with `createLoadMemo`. */
export interface LoadMemo {
  topology?: {
    readonly path: string;
    readonly text: string;
    readonly parse: DotParseResult;
    readonly lint: readonly Diagnostic[];
    /** The parse's diagnostics, located in the topology file. */
    readonly located: readonly Diagnostic[];
  };
  /** What the lint may take from its last run (../check/attractor-lint.ts). */
  lint?: LintMemo;
  vocabulary?: {
    readonly key: string | undefined;
    readonly config: AnalysisConfig;
    readonly localTerms: Term[];
    readonly vocabulary: Vocabulary;
    readonly diagnostics: readonly Diagnostic[];
  };
  manifest?: { readonly path: string | undefined; readonly text: string | undefined; readonly folderName: string; readonly read: ReturnType<typeof readManifest> };
  cards?: CardStage;
  resolution?: ResolutionMemo;
  analysis?: AnalysisMemo;
  /** The resolved nodes of the last load in graph order, and the analyzer's node made of each (see `analysisNodes`). */
  analysisNodes?: { readonly resolved: readonly (ResolvedNode | undefined)[]; readonly nodes: readonly AnalysisNode[] };
  /** The orphan-card findings of the last load, by card entry and in order, and the topology file they name. */
  orphans?: { readonly file: string; readonly byEntry: Map<CardEntry, Diagnostic>; readonly list: readonly Diagnostic[] };
  /** The last load's cards, and how many of its nodes pinned one of them (see the orphans in `loadBundle`). */
  pins?: { readonly cards: ReadonlyMap<string, CardEntry>; readonly count: number };
  /** The last load's sorted diagnostics, for merging the next ones (../diagnostics/sort.ts). */
  order?: SortMemo;
  /** The last load's files and their classification (see `classify`). */
  classified?: { readonly files: readonly SourceFile[]; readonly result: ClassifiedFiles };
}

/** The cards of one load: what `readCards` gives, and what it needs to patch it. */
interface CardStage {
  readonly vocabulary: Vocabulary;
  /** The card files read, in order. */
  readonly files: readonly SourceFile[];
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
 * Reads the card files into entries, the cards by ref, the digest clashes and the version
 * chain. With a memo, a file that is the same `SourceFile` object as in the last load keeps its
 * read; when every other file read again kept its ref, and that ref is neither claimed twice
 * nor one of several versions of its id, the last load's results are patched rather than
 * rebuilt (nothing else can change: the refs, the clashes and the version chains are the same).
 */
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
  read: (file: SourceFile, vocabulary: Vocabulary) => CardReadResult,
  last: CardStage,
): { index: number; entry: CardEntry }[] | undefined {
  const changed: { index: number; entry: CardEntry }[] = [];
  for (let i = 0; i < files.length; i++) {
    const file = files[i];
    const before = last.files[i];
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

function readCards(
  files: readonly SourceFile[],
  vocabulary: Vocabulary,
  read: (file: SourceFile, vocabulary: Vocabulary) => CardReadResult,
  memo: LoadMemo | undefined,
): CardStage {
  const last = memo?.cards;
  if (last && last.vocabulary === vocabulary && last.files.length === files.length) {
    const changed = changedCards(files, vocabulary, read, last);
    if (changed !== undefined) {
      let stage: CardStage;
      if (changed.length === 0) {
        stage = { ...last, files };
      } else {
        const cardFiles = last.cardFiles.slice();
        const perFile = last.perFile.slice();
        const cards = new Map(last.cards);
        for (const { index, entry } of changed) {
          cardFiles[index] = entry;
          perFile[index] = entry.read.diagnostics;
          if (entry.ref !== undefined) cards.set(entry.ref, entry);
        }
        stage = { ...last, files, cardFiles, cards, perFile };
      }
      if (memo) memo.cards = stage;
      return stage;
    }
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
  const stage: CardStage = { vocabulary, files, cardFiles, cards, perFile, versions, shared, versioned };
  if (memo) memo.cards = stage;
  return stage;
}

/**
 * Resolution results of one parse of the topology with one vocabulary, by the position of the
 * node or edge they are about. A card edit reuses every result whose card entries are the same
 * objects. A topology edit brings a new parse: a node or edge at the same position that reads
 * the same (same id or endpoints, same spans, same attributes the checks read) keeps its
 * results, so an edit re-resolves only what it touched and what follows it in the file.
 * Arrays rather than WeakMaps: young weak keys make every minor garbage collection slower.
 */
interface ResolutionMemo {
  readonly vocabulary: Vocabulary;
  readonly file: string;
  readonly parse: DotParseResult;
  /** Per node whose pin found a card: its resolved node and pin findings, valid while the card entry is the same. */
  readonly nodes: ({ readonly resolved: ResolvedNode & { readonly entry: CardEntry }; readonly diagnostics: readonly Diagnostic[] } | undefined)[];
  /** Per edge: its resolution, valid while both endpoints' card entries are the same. */
  readonly edges: ({ readonly source: CardEntry | undefined; readonly target: CardEntry | undefined; readonly resolved: ResolvedEdge; readonly diagnostics: readonly Diagnostic[] } | undefined)[];
  /** Per node: its dependency findings, valid while its entry and its suppliers' entries are the same. */
  readonly dependencies: ({ readonly entry: CardEntry; readonly suppliers: readonly (CardEntry | undefined)[]; readonly diagnostics: readonly Diagnostic[] } | undefined)[];
  /** What the topology alone decides. */
  readonly shape: TopologyShape;
  /**
   * The cards (`CardStage.cards`, a map replaced whenever a card's entry changes) that every
   * kept node result was checked against or computed with: while a load reads the same map, the
   * kept pins need no check.
   */
  cards?: ReadonlyMap<string, CardEntry>;
}

export function createLoadMemo(): LoadMemo {
  return {};
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

/** Loads a bundle folder's files: classification, vocabulary, manifest, resolution, analysis. */
export function loadBundle(files: readonly SourceFile[], options: LoadOptions = {}): LoadResult {
  const classified = classify(files, options.memo);
  const diagnostics: Diagnostic[] = [...classified.diagnostics];
  const memo = options.memo;

  // Local vocabulary (ours, docs/compatibility.md#vocabulary-checks: its diagnostics are part of the
  // bundle's results).
  const config = options.config ?? defaultAnalysisConfig;
  const vocabularyKey = classified.vocabulary ? `${classified.vocabulary.path}\u0000${classified.vocabulary.text}` : undefined;
  let local = memo?.vocabulary;
  if (!local || local.key !== vocabularyKey || local.config !== config) {
    let localTerms: Term[] = [];
    const found: Diagnostic[] = [];
    if (classified.vocabulary) {
      const read = readExtensions(classified.vocabulary);
      localTerms = read.terms;
      found.push(...read.diagnostics);
    }
    const { vocabulary, shadowed } = createVocabulary(localTerms);
    if (classified.vocabulary) {
      found.push(...validateVocabulary(vocabulary, shadowed, localTerms, config));
    }
    local = { key: vocabularyKey, config, localTerms, vocabulary, diagnostics: found };
    if (memo) memo.vocabulary = local;
  }
  const { localTerms, vocabulary } = local;
  diagnostics.push(...local.diagnostics);

  const folderName = options.folderName ?? 'untitled-blueprint';
  let manifest = memo?.manifest;
  if (!manifest || manifest.path !== classified.manifest?.path || manifest.text !== classified.manifest?.text || manifest.folderName !== folderName) {
    manifest = { path: classified.manifest?.path, text: classified.manifest?.text, folderName, read: readManifest(classified.manifest, folderName) };
    if (memo) memo.manifest = manifest;
  }
  const manifestRead = manifest.read;
  diagnostics.push(...manifestRead.diagnostics);

  const topologyFile = classified.topology;
  if (!topologyFile) {
    diagnostics.push({
      code: 'dot/parse-error',
      severity: 'error',
      message: 'The bundle has no topology: add a topology.dot that declares `digraph <name> { … }` with one node per card.',
      location: { file: topologyFallback },
    });
    return { diagnostics: sortedDeduped(diagnostics, memo ? (memo.order ??= {}) : undefined) };
  }
  const file = topologyFile.path;
  let topology = memo?.topology;
  if (!topology || topology.path !== file || topology.text !== topologyFile.text) {
    // a parse of the same file starts after the statements the texts share (see `parseDot`)
    const parsed = parseDot(topologyFile.text, undefined, topology?.path === file ? topology.parse : undefined);
    const directed = parsed.graph !== undefined && parsed.graph.directed;
    // findings that read as in the last parse come back as the same objects
    const lintOf = interner(topology?.lint ?? []);
    const locatedOf = interner(topology?.located ?? []);
    topology = {
      path: file,
      text: topologyFile.text,
      parse: parsed,
      lint: directed ? lintAttractor(parsed, topologyFile.text, file, memo ? (memo.lint ??= createLintMemo()) : undefined).map(lintOf) : [],
      located: parsed.diagnostics.map((d) => locatedOf({ ...d, location: { ...d.location, file } })),
    };
    if (memo) memo.topology = topology;
  }
  const parse = topology.parse;
  diagnostics.push(...topology.located);
  const graphModel = parse.graph;
  if (!graphModel || !graphModel.directed) {
    return { diagnostics: sortedDeduped(diagnostics, memo ? (memo.order ??= {}) : undefined) };
  }

  // Cards, in file-name order; identity is the card's own id@version.
  const read = options.readCard ?? ((f: SourceFile, v: Vocabulary) => readCard(f, v));
  const stage = readCards(classified.cards, vocabulary, read, memo);
  const { cardFiles, cards } = stage;
  for (let i = 0; i < stage.perFile.length; i++) pushAll(diagnostics, stage.perFile[i]);
  pushAll(diagnostics, stage.versions);
  for (const f of classified.reservedUnderCards) diagnostics.push(...misfiledCard(f, read(f, vocabulary), cards));

  let resolution = memo?.resolution;
  if (memo && (!resolution || resolution.vocabulary !== vocabulary || resolution.parse !== parse || resolution.file !== file)) {
    const previous = resolution;
    const shape = previous?.parse === parse && previous.file === file ? previous.shape : topologyShape(graphModel, file, previous?.shape);
    resolution = { vocabulary, file, parse, nodes: [], edges: [], dependencies: [], shape };
    if (previous && previous.vocabulary === vocabulary && previous.file === file) {
      carryOver(previous, resolution, graphModel);
      // the carried pins were checked against the cards of the previous load
      resolution.cards = previous.cards;
    }
    memo.resolution = resolution;
  }

  // Nodes -> cards.
  const nodes: ResolvedNode[] = [];
  const trusted = resolution !== undefined && resolution.cards === cards;
  /** Nodes that pin a card, taken from the resolution as they were, and found anew. */
  let keptPins = 0;
  let foundPins = 0;
  for (let n = 0; n < graphModel.nodes.length; n++) {
    const dot = graphModel.nodes[n];
    const kept = resolution?.nodes[n];
    if (kept && (trusted || cards.get(kept.resolved.ref!) === kept.resolved.entry)) {
      pushAll(diagnostics, kept.diagnostics);
      keptPins++;
      nodes.push(kept.resolved);
      continue;
    }
    const pointed = pointNode(dot, cards, file, cardFiles);
    pushAll(diagnostics, pointed.diagnostics);
    if (pointed.entry) foundPins++;
    const resolved = resolvedNode(dot, pointed.ref || undefined, pointed.entry);
    nodes.push(resolved);
    // a pin that found no card reads the other cards' versions: only a found card is kept
    if (resolution) resolution.nodes[n] = pointed.entry ? { resolved: resolved as ResolvedNode & { entry: CardEntry }, diagnostics: pointed.diagnostics } : undefined;
  }
  if (resolution) resolution.cards = cards;
  // The pinned cards are the last load's when every pin was taken as it was and as many nodes
  // pin a card: each kept pin is one of the last load's (a node's resolution is carried over
  // from one node only), so then they are all of them. The orphans are then the last ones too.
  const lastPins = memo?.pins;
  const samePins = foundPins === 0 && lastPins !== undefined && lastPins.cards === cards && lastPins.count === keptPins && memo?.orphans?.file === file;
  if (samePins) {
    pushAll(diagnostics, memo!.orphans!.list);
  } else {
    // the pinned cards, by entry (a card's entry is the one object `cards` holds for its ref)
    const used = new Set<CardEntry>();
    for (let n = 0; n < nodes.length; n++) if (nodes[n].entry !== undefined) used.add(nodes[n].entry!);
    const orphans = new Map<CardEntry, Diagnostic>();
    const list: Diagnostic[] = [];
    const keptOrphans = memo?.orphans?.file === file ? memo.orphans.byEntry : undefined;
    cards.forEach((entry) => {
      if (used.has(entry)) return;
      const orphan: Diagnostic = keptOrphans?.get(entry) ?? {
        code: 'bundle/orphan-card',
        severity: 'warning',
        message: `No node pins ${entry.ref}, so it takes no part in the pipeline; pin it from a node in ${file} with card="${entry.ref}", or delete the file.`,
        location: { file: entry.read.file, span: entry.read.locate('id', 'value'), cardRef: entry.ref },
      };
      orphans.set(entry, orphan);
      list.push(orphan);
    });
    pushAll(diagnostics, list);
    if (memo) memo.orphans = { file, byEntry: orphans, list };
  }
  if (memo) memo.pins = { cards, count: keptPins + foundPins };
  // built when first asked for: an aligned graph needs no lookup by id on the edit path
  let byId: Map<string, ResolvedNode> | undefined;
  const nodeById = (): ReadonlyMap<string, ResolvedNode> => {
    if (byId === undefined) {
      byId = new Map();
      for (let n = 0; n < nodes.length; n++) byId.set(nodes[n].id, nodes[n]);
    }
    return byId;
  };
  const shape = resolution?.shape ?? topologyShape(graphModel, file);
  const graph = shape.graph;
  /** The resolved node at a graph index. */
  const nodeAt = shape.aligned ? (index: number): ResolvedNode | undefined => nodes[index] : (index: number) => nodeById().get(graph.ids[index]);
  pushLint(diagnostics, topology.lint, (id) => {
    const index = graph.index.get(id);
    return index === undefined ? undefined : nodeAt(index);
  }, vocabulary);

  // Edges: ports, types, prohibitions.
  const edges: ResolvedEdge[] = [];
  for (let e = 0; e < graphModel.edges.length; e++) {
    const dot = graphModel.edges[e];
    const source = nodeAt(shape.endpoints[2 * e]);
    const target = nodeAt(shape.endpoints[2 * e + 1]);
    const kept = resolution?.edges[e];
    if (kept && kept.source === source?.entry && kept.target === target?.entry) {
      pushAll(diagnostics, kept.diagnostics);
      edges.push(kept.resolved);
      continue;
    }
    const checked = checkEdge(dot, source, target, vocabulary, file);
    pushAll(diagnostics, checked.diagnostics);
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
    edges.push(resolved);
    if (resolution) resolution.edges[e] = { source: source?.entry, target: target?.entry, resolved, diagnostics: checked.diagnostics };
  }

  for (let n = 0; n < nodes.length; n++) {
    const node = nodes[n];
    const entry = node.entry;
    if (!entry) continue;
    const index = shape.aligned ? n : graph.index.get(node.id);
    if (index === undefined) continue;
    const predecessors = graph.predecessors[index];
    const kept = resolution?.dependencies[n];
    let found: readonly Diagnostic[];
    if (kept && kept.entry === entry && sameSuppliers(kept.suppliers, predecessors, nodeAt)) {
      found = kept.diagnostics;
    } else {
      // (`mapped`, not `map`: with `map`, `sameSuppliers` lost the resolver's optimised code on
      // every card edit of a long session; see arrays.ts)
      const suppliers = mapped(predecessors, (p) => nodeAt(p)?.entry);
      found = checkDependencies(node, entry, suppliers, graph, firstEdgesOf(shape, index), file);
      if (resolution) resolution.dependencies[n] = { entry, suppliers, diagnostics: found };
    }
    pushAll(diagnostics, found);
  }
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
    manifest: manifestRead.manifest,
    ...(classified.manifest ? { manifestFile: classified.manifest } : {}),
    topology: { file: topologyFile, parse },
    vocabulary,
    ...(classified.vocabulary ? { vocabularyFile: classified.vocabulary } : {}),
    localTerms,
    cardFiles,
    cards,
    graph,
    nodes,
    get nodeById(): ReadonlyMap<string, ResolvedNode> {
      return nodeById();
    },
    edges,
    get digest(): string {
      return digestNow();
    },
  };
  const analysis = analyze(
    {
      graph,
      nodes: analysisNodes(graph.ids, nodeAt, memo),
      vocabulary,
      file,
    },
    options.config ?? defaultAnalysisConfig,
    memo ? (memo.analysis ??= createAnalysisMemo()) : undefined,
  );
  pushAll(diagnostics, analysis.diagnostics);
  return { blueprint, analysis, diagnostics: sortedDeduped(diagnostics, memo ? (memo.order ??= {}) : undefined) };
}

/**
 * `classifyFiles`, reusing the last load's classification when the files come in the same order
 * with the same paths: classification reads paths, and texts only to compare two local
 * vocabularies, so the last result with each replaced file object swapped in is the same
 * (unless a replaced file is a vocabulary candidate: then it is classified again).
 */
function classify(files: readonly SourceFile[], memo: LoadMemo | undefined): ClassifiedFiles {
  const last = memo?.classified;
  let result: ClassifiedFiles | undefined;
  if (last !== undefined && last.files.length === files.length) {
    let replaced: Map<SourceFile, SourceFile> | undefined = new Map();
    for (let i = 0; i < files.length && replaced !== undefined; i++) {
      const before = last.files[i];
      const file = files[i];
      if (file === before) continue;
      if (file.path !== before.path || file.path === 'ontology/extensions.yaml' || (!file.path.includes('/') && vocabularyFile.test(file.path))) replaced = undefined;
      else replaced.set(before, file);
    }
    if (replaced !== undefined) {
      const swap = (f: SourceFile | undefined): SourceFile | undefined => (f === undefined ? undefined : (replaced!.get(f) ?? f));
      // the same array when none of its files was replaced (an empty one above all: a mapped empty
      // array is another kind of array to V8, which would drop the optimised `loadBundle` that reads it)
      const swapAll = (list: readonly SourceFile[]): readonly SourceFile[] => (list.some((f) => replaced!.has(f)) ? mapped(list, (f) => replaced!.get(f) ?? f) : list);
      const old = last.result;
      result =
        replaced.size === 0
          ? old
          : // (the keys in `classifyFiles`' order: one object shape for both, which V8 keeps optimised)
            {
              topology: swap(old.topology),
              manifest: swap(old.manifest),
              vocabulary: swap(old.vocabulary),
              cards: swapAll(old.cards),
              reservedUnderCards: swapAll(old.reservedUnderCards),
              diagnostics: old.diagnostics,
            };
    }
  }
  result ??= classifyFiles(files);
  if (memo) memo.classified = { files, result };
  return result;
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
function carryOver(previous: ResolutionMemo, next: ResolutionMemo, graphModel: NonNullable<DotParseResult['graph']>): void {
  const before = previous.parse.graph;
  if (!before) return;
  const move = textMove(previous.parse.table.source, next.parse.table.source);
  const samePlace = (old: Span, now: Span): boolean => sameMovedSpan(old, now, move);
  /** True when the attributes `keys` read the same in both maps, their values where the edit moved them. */
  const sameAttributes = (a: DotAttributes, b: DotAttributes, keys: readonly string[]): boolean => {
    for (let k = 0; k < keys.length; k++) if (!sameMovedAttribute(a.get(keys[k]), b.get(keys[k]), move)) return false;
    return true;
  };
  const file = next.file;
  const nodes = graphModel.nodes;
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
  for (let n = 0; n < nodes.length; n++) {
    const m = nodeAt(n);
    if (m < 0) continue;
    const dot = nodes[n];
    const old = before.nodes[m];
    // a parse that resumed after unchanged statements hands their nodes back as the same objects
    if (old === dot) {
      sameNode[n] = 2;
      next.nodes[n] = previous.nodes[m];
      continue;
    }
    sameNode[n] = 1;
    if (!takenNode(n, m) && (!samePlace(old.span, dot.span) || !sameAttributes(old.attrs, dot.attrs, nodeAttributes))) continue;
    sameNode[n] = 2;
    const kept = previous.nodes[m];
    const diagnostics = kept && movedDiagnostics(kept.diagnostics, file, move);
    if (kept && diagnostics) {
      const { ref, entry } = kept.resolved;
      next.nodes[n] = { resolved: resolvedNode(dot, ref, entry), diagnostics };
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
    const diagnostics = kept && movedDiagnostics(kept.diagnostics, file, move);
    if (kept && diagnostics) next.edges[e] = { source: kept.source, target: kept.target, resolved: withDot(kept.resolved, dot), diagnostics };
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
      const diagnostics = movedDiagnostics(dependencies.diagnostics, file, move);
      if (diagnostics) next.dependencies[n] = diagnostics === dependencies.diagnostics ? dependencies : { ...dependencies, diagnostics };
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
 * without reading it again).
 */
function analysisNodes(ids: readonly string[], nodeAt: (index: number) => ResolvedNode | undefined, memo: LoadMemo | undefined): AnalysisNode[] {
  const last = memo?.analysisNodes;
  const resolved: (ResolvedNode | undefined)[] = new Array(ids.length);
  const out: AnalysisNode[] = new Array(ids.length);
  for (let index = 0; index < ids.length; index++) {
    const n = nodeAt(index);
    resolved[index] = n;
    if (n !== undefined && last !== undefined && index < last.resolved.length && last.resolved[index] === n) {
      out[index] = last.nodes[index];
      continue;
    }
    const id = ids[index];
    out[index] = n === undefined ? { id } : n.entry ? { id, card: n.entry.card, span: n.dot.span } : { id, span: n.dot.span };
  }
  if (memo) memo.analysisNodes = { resolved, nodes: out };
  return out;
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

/** True when the predecessors' entries are still `kept`, in order. */
function sameSuppliers(kept: readonly (CardEntry | undefined)[], predecessors: readonly number[], nodeAt: (index: number) => ResolvedNode | undefined): boolean {
  if (kept.length !== predecessors.length) return false;
  for (let i = 0; i < kept.length; i++) if (kept[i] !== nodeAt(predecessors[i])?.entry) return false;
  return true;
}

function optionalAttr<K extends string>(key: K, attr: DotAttribute | undefined): Partial<Record<K, string>> {
  return attr ? ({ [key]: attr.value } as Partial<Record<K, string>>) : {};
}

// ---- pins -------------------------------------------------------------------------------

interface Pointed {
  ref?: string;
  entry?: CardEntry & { card: Card; ref: string };
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

function pointNode(dot: NodeView, cards: ReadonlyMap<string, CardEntry>, file: string, cardFiles: readonly CardEntry[]): Pointed {
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
  const digestAttr = dot.attrs.get('digest');
  if (digestAttr) {
    const wanted = digestAttr.value.trim().toLowerCase();
    const full = entry.digest!;
    const hex = full.slice('sha256:'.length);
    const ok = wanted.length > 0 && (full.startsWith(wanted) || (!wanted.includes(':') && hex.startsWith(wanted)));
    if (!ok) {
      diagnostics.push({
        code: 'bundle/digest-mismatch',
        severity: 'error',
        message: `Node ${dot.id} pins digest "${digestAttr.value}", but ${ref} now hashes to ${full}; the card changed since it was pinned. Review the change, then update the digest or the version.`,
        location: { ...base, span: at(digestAttr), cardRef: ref },
      });
    }
  }
  return { ref, entry: entry as CardEntry & { card: Card; ref: string }, diagnostics };
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

function checkEdge(
  edge: EdgeView,
  source: ResolvedNode | undefined,
  target: ResolvedNode | undefined,
  vocabulary: Vocabulary,
  file: string,
): EdgeCheck {
  const diagnostics: Diagnostic[] = [];
  const src = source?.entry;
  const dst = target?.entry;
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
  src: CardEntry & { card: Card; ref: string },
  dst: CardEntry & { card: Card; ref: string },
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

/** The dependency findings of one resolved node, given its suppliers (its predecessors' entries). */
function checkDependencies(
  node: ResolvedNode,
  entry: CardEntry & { card: Card; ref: string },
  suppliers: readonly (CardEntry | undefined)[],
  graph: Graph,
  firstEdges: readonly DotEdge[],
  file: string,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const index = graph.index.get(node.id)!;
  const predecessors = graph.predecessors[index];
  const supplied = new Set<string>();
  suppliers.forEach((supplier, k) => {
    if (!supplier) return;
    supplied.add(supplier.card!.id);
    supplied.add(graph.ids[predecessors[k]]);
  });
  const declared = entry.card.dependencies;
  // Predecessors without a card supply nothing: one of them may be the node meant, its pin
  // broken. (What the message reads is the node, its predecessors and their entries, which the
  // memo compares before it keeps a node's dependency findings: see `carryOver`.)
  const cardless = predecessors.filter((_, k) => suppliers[k] === undefined).map((p) => graph.ids[p]);
  declared.forEach((dependency, i) => {
    if (supplied.has(dependency)) return;
    // A dependency names a node id or a card id: the edge to add comes from that node, or from
    // the node that pins that card (a card id with a hyphen or a slash is no node id at all).
    const edge = isAttractorIdentifier(dependency)
      ? `the edge ${dependency} -> ${node.id} (or one from the node that pins ${dependency})`
      : `an edge into ${node.id} from the node that pins ${dependency}`;
    const one = cardless.length === 1;
    const message = cardless.includes(dependency)
      ? `${entry.ref} depends on "${dependency}", and node ${dependency} sends to ${node.id}, but it has no card of the bundle, so it supplies nothing; pin ${dependency} to a card the bundle holds.`
      : cardless.length > 0
        ? `${entry.ref} depends on "${dependency}", but no edge into node ${node.id} comes from it. ${listIds(cardless)} ${one ? 'sends' : 'send'} to ${node.id} with no card of the bundle, so ${one ? 'it supplies' : 'they supply'} nothing: if ${one ? 'it' : 'one of them'} should run ${dependency}, pin ${one ? 'it' : 'that node'} to that card; else add ${edge} in ${file}, or remove the entry.`
        : `${entry.ref} depends on "${dependency}", but no edge into node ${node.id} comes from it; add ${edge} in ${file}, or remove the entry.`;
    out.push({
      code: 'bundle/missing-dependency',
      severity: 'error',
      message,
      location: { file: entry.read.file, span: entry.read.locate(`dependencies[${i}]`, 'value'), cardRef: entry.ref, nodeId: node.id, path: `dependencies[${i}]` },
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
        ? `Node ${node.id} receives from ${id}, which pins the same card ${entry.ref}; the card cannot list itself in \`dependencies\` without ${id} then missing that supplier, so pin a card of its own at one of the two nodes, or remove the edge.`
        : `Node ${node.id} receives from ${id} (${supplier.ref}), but ${entry.ref} does not list it in \`dependencies\`; add "${supplier.card!.id}" to the card's dependencies.`;
    out.push({
      code: 'bundle/undeclared-dependency',
      severity: 'warning',
      message,
      location: { file, span: edge.span, nodeId: node.id, cardRef: entry.ref, edge: { source: id, target: node.id } },
      related: [{ file: entry.read.file, span: entry.read.locate('dependencies', 'key'), message: `the dependencies of ${entry.ref}` }],
    });
  });
  return out;
}
