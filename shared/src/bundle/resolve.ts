/**
 * Resolution (E§4, SPEC §5), in DarkPrint's order: parse the topology, read the cards, point
 * nodes at cards (pins, digests, orphans), pair ports on every edge, check prohibitions, check
 * dependencies, then entries, exits and reachability. Then the digest and the analysis.
 *
 * Decisions where SPEC and E leave room (documented here, and in the issue note):
 * - A pin problem (`bundle/missing-card`, `bundle/unpinned-card`, `bundle/digest-mismatch` of a
 *   node) is reported on the attribute value it is about (`card="…"`, `version="…"`,
 *   `digest="…"`) when the node has one; otherwise on the node's first appearance.
 * - A port name that the card lacks is reported on the `out="…"`/`in="…"` value; every other
 *   edge finding covers the edge, from its source endpoint to the end of its attributes.
 * - The parser recovers, so resolution continues after `dot/parse-error` (DarkPrint stops):
 *   one typo does not hide every other finding. The parse error itself stays an error.
 */
import type { Diagnostic, RelatedInformation } from '../diagnostics';
import { dedupeDiagnostics, sortDiagnostics } from '../diagnostics';
import type { Span } from '../text';
import { parseDot } from '../syntax/dot-parser';
import type { DotAttribute, DotEdge, DotNode, DotParseResult } from '../syntax/dot-model';
import { lintAttractor } from '../check/attractor-lint';
import { readCard } from '../check/card';
import { checkVersionChain } from '../check/version-bump';
import { createVocabulary, readExtensions, validateVocabulary } from '../vocabulary';
import type { Vocabulary, Term } from '../vocabulary/types';
import { buildGraph, reachableFrom, sinks, sources } from '../analyze/graph';
import { analyze, type Analysis } from '../analyze';
import { defaultAnalysisConfig, type AnalysisConfig } from '../analyze/config';
import { blueprintDigest, cardDigest } from '../hash';
import type { Card, CardReadResult, Port } from './card-model';
import { parseCardRef, isExactVersion, cardIdPattern } from './card-ref';
import { classifyFiles, baseName } from './classify';
import { readManifest } from './manifest';
import type { Blueprint, CardEntry, ResolvedEdge, ResolvedNode, SourceFile } from './model';

export interface LoadOptions {
  /** The bundle folder's name, for the stub manifest. */
  readonly folderName?: string;
  readonly config?: AnalysisConfig;
  /** Reuse card reads (the language server memoises them per document version). */
  readonly readCard?: (file: SourceFile, vocabulary: Vocabulary) => CardReadResult;
  /**
   * Reuse, from one load of a bundle to the next, what the files it depends on did not change:
   * the topology's parse and lint (by text), the local vocabulary (by text) and the manifest
   * (by text). The language server keeps one per bundle (`createLoadMemo`); results are the
   * same with or without it.
   */
  readonly memo?: LoadMemo;
}

/** What `loadBundle` may reuse between loads of one bundle. Opaque: create it with `createLoadMemo`. */
export interface LoadMemo {
  topology?: { readonly path: string; readonly text: string; readonly parse: DotParseResult; readonly lint: readonly Diagnostic[] };
  vocabulary?: {
    readonly key: string | undefined;
    readonly config: AnalysisConfig;
    readonly localTerms: Term[];
    readonly vocabulary: Vocabulary;
    readonly diagnostics: readonly Diagnostic[];
  };
  manifest?: { readonly path: string | undefined; readonly text: string | undefined; readonly folderName: string; readonly read: ReturnType<typeof readManifest> };
}

export function createLoadMemo(): LoadMemo {
  return {};
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
  const classified = classifyFiles(files);
  const diagnostics: Diagnostic[] = [...classified.diagnostics];
  const memo = options.memo;

  // Local vocabulary ([beyond] SPEC §4: its diagnostics are part of the bundle's results).
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
    return { diagnostics: sortDiagnostics(dedupeDiagnostics(diagnostics)) };
  }
  const file = topologyFile.path;
  let topology = memo?.topology;
  if (!topology || topology.path !== file || topology.text !== topologyFile.text) {
    const parsed = parseDot(topologyFile.text);
    const directed = parsed.graph !== undefined && parsed.graph.directed;
    topology = { path: file, text: topologyFile.text, parse: parsed, lint: directed ? lintAttractor(parsed, topologyFile.text, file) : [] };
    if (memo) memo.topology = topology;
  }
  const parse = topology.parse;
  diagnostics.push(...parse.diagnostics.map((d) => ({ ...d, location: { ...d.location, file } })));
  const graphModel = parse.graph;
  if (!graphModel || !graphModel.directed) {
    return { diagnostics: sortDiagnostics(dedupeDiagnostics(diagnostics)) };
  }

  // Cards, in file-name order; identity is the card's own id@version.
  const read = options.readCard ?? ((f: SourceFile, v: Vocabulary) => readCard(f, v));
  const cardFiles: CardEntry[] = [];
  const cards = new Map<string, CardEntry>();
  for (const f of classified.cards) {
    const result = read(f, vocabulary);
    diagnostics.push(...result.diagnostics);
    const card = result.card;
    if (!card) {
      cardFiles.push({ read: result });
      continue;
    }
    const ref = `${card.id}@${card.version}`;
    const entry: CardEntry = { read: result, card, ref, digest: digestOf(card) };
    cardFiles.push(entry);
    const first = cards.get(ref);
    if (!first) {
      cards.set(ref, entry);
    } else if (first.digest !== entry.digest) {
      diagnostics.push({
        code: 'bundle/digest-mismatch',
        severity: 'error',
        message: `${f.path} and ${first.read.file} both claim ${ref} but their contents differ; give one of them a new version, or delete the stale copy.`,
        location: { file: f.path, span: result.locate('version', 'value'), cardRef: ref },
        related: [{ file: first.read.file, span: first.read.locate('version', 'value'), message: `the first file that claims ${ref}` }],
      });
    }
  }
  diagnostics.push(
    ...checkVersionChain(
      [...cards.values()].map((e) => ({ file: e.read.file, card: e.card!, locate: e.read.locate })),
    ),
  );
  for (const f of classified.reservedUnderCards) diagnostics.push(...misfiledCard(f, read(f, vocabulary)));

  // Nodes -> cards.
  const nodes: ResolvedNode[] = [];
  const usedRefs = new Set<string>();
  for (const dot of graphModel.nodes) {
    const pointed = pointNode(dot, cards, file);
    diagnostics.push(...pointed.diagnostics);
    if (pointed.entry) usedRefs.add(pointed.entry.ref);
    nodes.push({ id: dot.id, dot, ...(pointed.ref ? { ref: pointed.ref } : {}), ...(pointed.entry ? { entry: pointed.entry } : {}) });
  }
  for (const entry of cards.values()) {
    if (usedRefs.has(entry.ref!)) continue;
    diagnostics.push({
      code: 'bundle/orphan-card',
      severity: 'warning',
      message: `No node pins ${entry.ref}, so it takes no part in the pipeline; pin it from a node in ${file} with card="${entry.ref}", or delete the file.`,
      location: { file: entry.read.file, span: entry.read.locate('id', 'value'), cardRef: entry.ref },
    });
  }
  const nodeById = new Map(nodes.map((n) => [n.id, n] as const));
  // A `parallel` node runs every arm, so its fan-out needs no guard: the lint cannot know the
  // card's type, resolution can.
  for (const d of topology.lint) {
    if (d.code === 'attractor/unguarded-fork' && d.location.nodeId !== undefined) {
      const type = nodeById.get(d.location.nodeId)?.entry?.card.type;
      if (type !== undefined && vocabulary.isA(type, 'parallel')) continue;
    }
    diagnostics.push(d);
  }

  // Edges: ports, types, prohibitions.
  const edges: ResolvedEdge[] = [];
  for (const dot of graphModel.edges) {
    const source = nodeById.get(dot.source);
    const target = nodeById.get(dot.target);
    const checked = checkEdge(dot, source, target, vocabulary, file);
    diagnostics.push(...checked.diagnostics);
    edges.push({
      dot,
      source: dot.source,
      target: dot.target,
      ...(checked.pair ? { pair: checked.pair } : {}),
      ...optionalAttr('label', dot.attrs.get('label')),
      ...optionalAttr('condition', dot.attrs.get('condition')),
      ...optionalAttr('weight', dot.attrs.get('weight')),
    });
  }

  const graph = buildGraph(
    graphModel.nodes.map((n) => n.id),
    graphModel.edges,
  );
  diagnostics.push(...checkDependencies(nodes, nodeById, graphModel.edges, graph, file));

  if (graph.ids.length > 0) {
    const entries = sources(graph);
    if (entries.length === 0) {
      diagnostics.push({
        code: 'bundle/no-entry',
        severity: 'warning',
        message: 'Every node has an incoming edge, so the pipeline has no place to start; remove the edge into the node that should run first.',
        location: { file, span: graphModel.keywordSpan },
      });
    } else {
      const reached = reachableFrom(graph, entries);
      for (let i = 0; i < graph.ids.length; i++) {
        if (reached[i]) continue;
        const node = nodeById.get(graph.ids[i]);
        diagnostics.push({
          code: 'bundle/unreachable-node',
          severity: 'warning',
          message: `No path leads from an entry node to ${graph.ids[i]}, so it never runs; add an edge into it from a node that runs, or remove it.`,
          location: { file, nodeId: graph.ids[i], ...(node ? { span: node.dot.span } : {}) },
        });
      }
    }
    if (sinks(graph).length === 0) {
      diagnostics.push({
        code: 'bundle/no-exit',
        severity: 'warning',
        message: 'Every node has an outgoing edge, so the pipeline has no place to finish; let the final node end without outgoing edges.',
        location: { file, span: graphModel.keywordSpan },
      });
    }
  }

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
    nodeById,
    edges,
    get digest(): string {
      return digestNow();
    },
  };
  const analysis = analyze(
    {
      graph,
      nodes: graph.ids.map((id) => {
        const n = nodeById.get(id);
        return { id, ...(n?.entry ? { card: n.entry.card } : {}), ...(n ? { span: n.dot.span } : {}) };
      }),
      vocabulary,
      file,
    },
    options.config ?? defaultAnalysisConfig,
  );
  diagnostics.push(...analysis.diagnostics);
  return { blueprint, analysis, diagnostics: sortDiagnostics(dedupeDiagnostics(diagnostics)) };
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

function carriedVersions(cards: ReadonlyMap<string, CardEntry>, id: string): string[] {
  const out: string[] = [];
  for (const e of cards.values()) if (e.card!.id === id) out.push(e.ref!);
  return out;
}

function pointNode(dot: DotNode, cards: ReadonlyMap<string, CardEntry>, file: string): Pointed {
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

function misfiledCard(file: SourceFile, result: CardReadResult): Diagnostic[] {
  const draft = result.draft;
  if (draft.id === undefined && draft.type === undefined && draft.inputs === undefined && draft.outputs === undefined) return [];
  const name = draft.id && draft.version ? `${draft.id}@${draft.version}.yaml` : '<id>@<version>.yaml';
  return [
    {
      code: 'bundle/misfiled-card',
      severity: 'warning',
      message: `${file.path} holds card fields, but a file named ${baseName(file.path)} is never read as a card, so nodes pinning it report a missing card; rename it to cards/${name}.`,
      location: { file: file.path, span: result.locate('id', 'key') },
    },
  ];
}

// ---- edges ------------------------------------------------------------------------------

interface EdgeCheck {
  pair?: { output: Port; input: Port };
  diagnostics: Diagnostic[];
}

export function portCompatible(vocabulary: Vocabulary, outputType: string, inputType: string): boolean {
  return outputType === inputType || outputType === 'any' || inputType === 'any' || vocabulary.isA(outputType, inputType);
}

function edgeName(edge: DotEdge): string {
  return `${edge.source} -> ${edge.target}`;
}

function checkEdge(
  edge: DotEdge,
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
  edge: DotEdge,
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

function checkDependencies(
  nodes: readonly ResolvedNode[],
  nodeById: ReadonlyMap<string, ResolvedNode>,
  edges: readonly DotEdge[],
  graph: ReturnType<typeof buildGraph>,
  file: string,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const firstEdge = new Map<string, DotEdge>();
  for (const e of edges) {
    const key = `${e.source}\u0000${e.target}`;
    if (!firstEdge.has(key)) firstEdge.set(key, e);
  }
  for (const node of nodes) {
    const entry = node.entry;
    if (!entry) continue;
    const index = graph.index.get(node.id);
    if (index === undefined) continue;
    const suppliers: ResolvedNode[] = [];
    for (const p of graph.predecessors[index]) {
      const supplier = nodeById.get(graph.ids[p]);
      if (supplier?.entry) suppliers.push(supplier);
    }
    const supplied = new Set<string>();
    for (const s of suppliers) {
      supplied.add(s.entry!.card.id);
      supplied.add(s.id);
    }
    const declared = entry.card.dependencies;
    declared.forEach((dependency, i) => {
      if (supplied.has(dependency)) return;
      out.push({
        code: 'bundle/missing-dependency',
        severity: 'error',
        message: `${entry.ref} depends on "${dependency}", but no edge into node ${node.id} comes from it; add the edge ${dependency} -> ${node.id} in ${file}, or remove the entry.`,
        location: { file: entry.read.file, span: entry.read.locate(`dependencies[${i}]`, 'value'), cardRef: entry.ref, nodeId: node.id, path: `dependencies[${i}]` },
      });
    });
    const declaredSet = new Set(declared);
    for (const s of suppliers) {
      if (declaredSet.has(s.entry!.card.id) || declaredSet.has(s.id)) continue;
      const edge = firstEdge.get(`${s.id}\u0000${node.id}`)!;
      out.push({
        code: 'bundle/undeclared-dependency',
        severity: 'warning',
        message: `Node ${node.id} receives from ${s.id} (${s.entry!.ref}), but ${entry.ref} does not list it in \`dependencies\`; add "${s.entry!.card.id}" to the card's dependencies.`,
        location: { file, span: edge.span, nodeId: node.id, cardRef: entry.ref, edge: { source: s.id, target: node.id } },
        related: [{ file: entry.read.file, span: entry.read.locate('dependencies', 'key'), message: `the dependencies of ${entry.ref}` }],
      });
    }
  }
  return out;
}
