/**
 * Import from Attractor (docs/compatibility.md#attractor-import): a pipeline read back into a draft
 * bundle. The entry and exit nodes are dropped; every other node becomes a node pinning a card
 * whose type comes from the SAME mapping table export uses, read backwards (../syntax/attractor-table.ts).
 * The result is a draft: ports, dependencies and prohibitions are empty, `author` is who imported
 * it and `provenance` says where it came from.
 *
 * Choices of ours where DarkPrint's behaviour leaves room (docs/compatibility.md#import-choices):
 * - a node keeps the topology id its `dp_node` records (so a DarkPrint export comes home under
 *   its own ids), when that record is one export could have written for the node: made into
 *   an Attractor id, it gives the node's id (maybe with export's `_2`, `_3`…), as the empty id
 *   `""` gives `n_`. Any other `dp_node` (a foreign or hand-edited one, say `dp_node=""` on a
 *   node `a`) names no node: it would rename the node to something export never made of it. The
 *   card id is derived from the `dp_node` all the same, as DarkPrint's import does;
 * - a card id derived from a node's name is made unique against every card id the pipeline
 *   pins, wherever the pinning node stands (DarkPrint uniquifies the derived ids; against pins only
 *   seen earlier, a later `card="x@0.0.1"` would make a second card `x`, two versions of one
 *   card that the draft could not store);
 * - a derived card id is at most `maximumDerivedCardIdLength` characters: a longer one (from a
 *   node id or `dp_node` of hundreds of characters) keeps its first characters and a hash of the
 *   whole, so that `cards/<id>@<version>.yaml` fits in a file name; the node keeps its id;
 * - a card whose pinned id and version are too long together for a file name keeps them, and is
 *   written to a shorter file name (`cardFile`), as a card's identity is its fields, not its name;
 * - a pipeline with a parse error yields an empty draft that the command refuses to write.
 *
 * The round trip (docs/compatibility.md#round-trip): `export(import(export(B)))` is `export(B)` but
 * for the digest line, for every bundle DarkPrint's import lets it hold for; where the two part,
 * DarkPrint's import wins (compatibility first): a bundle whose title is blank exports no `label`,
 * and import, as DarkPrint's does, takes the title from the graph name then, so the second export
 * gains `label="<slug>"`; and a card type from the bundle's own vocabulary comes back as the core
 * type its shape stands for, as a pipeline carries no vocabulary.
 */
import type { Diagnostic, DiagnosticCode } from '../diagnostics';
import type { Span } from '../text';
import type { Card, JsonValue, Port } from '../card/card-model';
import type { Manifest, SourceFile } from '../bundle/model';
import { parseCardRef } from '../card/card-ref';
import { sha256Hex } from '../hash/digest';
import type { Vocabulary } from '../vocabulary/types';
import { coreVocabulary } from '../vocabulary';
import { parseDot } from '../syntax/dot-parser';
import type { DotAttribute, DotNode } from '../syntax/dot-model';
import {
  cardAttribute,
  className,
  entryShape,
  exitShape,
  isBoundaryNodeId,
  originalIdAttribute,
  toIdentifier,
  typeRow,
  typesByShape,
} from '../syntax/attractor-table';
import { cardIdFrom, dotName, isTopologyWritable, quoteTopology, topologyId, unescapeAttractor, uniqueNames, yamlJson, yamlString } from './strings';

export interface ImportOptions {
  /** Who imports: every card's `author`. Must not be blank. */
  readonly author: string;
  /** Where the pipeline came from, for `provenance: derived:attractor <origin>`. */
  readonly origin: string;
  /** The file name diagnostics are reported against; `origin` when absent. */
  readonly file?: string;
  /** The vocabulary whose phase terms `dp-<phase>` classes are read as (the core vocabulary by default). */
  readonly vocabulary?: Vocabulary;
}

export interface ImportedCard {
  /** The node id in the written topology. */
  readonly nodeId: string;
  /** The node id in the pipeline it came from. */
  readonly sourceNodeId: string;
  readonly ref: string;
  /** `cards/<id>@<version>.yaml`, or a shorter name when that one is too long (see `cardFile`). */
  readonly file: string;
  readonly card: Card;
  /** The card file's text. */
  readonly text: string;
}

export interface ImportResult {
  /** False when the pipeline could not be read (a parse error): the draft is then empty. */
  readonly readable: boolean;
  readonly manifest: Manifest;
  /** The `topology.dot` text; empty when the pipeline could not be read. */
  readonly dot: string;
  readonly cards: readonly ImportedCard[];
  /** In reading order (not sorted), located in the pipeline file. */
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * The longest card id import derives from a name. A card is written to
 * `cards/<id>@<version>.yaml`, and most file systems hold at most `maximumFileNameBytes` in a
 * name: a longer derived id is cut (see `shortenedCardId`), which leaves room for the `-2`,
 * `-3`… that keep ids unique.
 */
export const maximumDerivedCardIdLength = 200;
/** The longest file or folder name, in bytes, import writes: what most file systems hold. */
export const maximumFileNameBytes = 255;

/** Version of every card import creates when the pipeline pins none. */
export const importedVersion = '0.1.0';
/** Slug of a pipeline with no graph name. */
export const importedSlug = 'imported-pipeline';
/** `provenance` of every imported card: this prefix, a space, then the origin. */
export const importedProvenancePrefix = 'derived:attractor';

/**
 * Reads an Attractor pipeline into a draft bundle. Throws only on a programming error: a blank
 * `author` (the command checks `--as` before it calls this).
 */
export function importAttractor(text: string, options: ImportOptions): ImportResult {
  const author = options.author;
  if (author.trim().length === 0) throw new RangeError('importAttractor needs a non-blank author (the handle written into every card).');
  const file = options.file ?? options.origin;
  const vocabulary = options.vocabulary ?? coreVocabulary;
  const provenance = `${importedProvenancePrefix} ${options.origin}`;
  const parse = parseDot(text, file);
  const diagnostics: Diagnostic[] = parse.diagnostics.map((d) => ({ ...d, location: { ...d.location, file } }));
  const graph = parse.graph;
  if (!graph || diagnostics.some((d) => d.severity === 'error')) {
    return { readable: false, manifest: { slug: importedSlug, title: '', summary: '', tags: [] }, dot: '', cards: [], diagnostics };
  }
  const warn = (code: DiagnosticCode, message: string, span: Span, nodeId?: string): void => {
    diagnostics.push({ code, severity: 'warning', message, location: { file, span, ...(nodeId !== undefined ? { nodeId } : {}) } });
  };
  const value = (attribute: DotAttribute | undefined): string | undefined => (attribute === undefined ? undefined : unescapeAttractor(attribute.value));

  // ---- nodes ----
  const boundary = new Set<string>();
  const newId = new Map<string, string>();
  const uniqueNodeId = uniqueNames('_');
  const usedCardIds = new Set<string>();
  const isBoundary = (node: DotNode): boolean => {
    const shape = value(node.attrs.get('shape'));
    return shape === entryShape || shape === exitShape || isBoundaryNodeId(node.id);
  };
  // (every card id a kept node pins, first: a derived id never takes one, wherever its node stands)
  for (const node of graph.nodes) {
    const pinned = isBoundary(node) ? undefined : parseCardRef(value(node.attrs.get(cardAttribute)) ?? '');
    if (pinned) usedCardIds.add(pinned.id);
  }
  const uniqueCardId = uniqueNames('-');
  const refOfNode = new Map<string, string>();
  const cardByRef = new Map<string, ImportedCard>();
  const cards: ImportedCard[] = [];
  const keptNodes: DotNode[] = [];
  for (const node of graph.nodes) {
    const shapeAttribute = node.attrs.get('shape');
    const shape = value(shapeAttribute);
    if (isBoundary(node)) {
      boundary.add(node.id);
      const prompt = node.attrs.get('prompt');
      if (prompt) {
        warn(
          'dot/unsupported',
          `Node ${node.id} is the pipeline's ${shape === exitShape || node.id === 'exit' || node.id === 'end' ? 'exit' : 'entry'}, which import drops together with its prompt; move the instruction into a node of its own if it matters.`,
          prompt.valueSpan,
          node.id,
        );
      }
      continue;
    }
    keptNodes.push(node);
    const recorded = value(node.attrs.get(originalIdAttribute));
    const original = recorded !== undefined && recordsExportOf(recorded, node.id) && isTopologyWritable(recorded) ? recorded : node.id;
    // (E: a card id is derived from the `dp_node` whatever it holds, else from the node's id)
    const named = recorded ?? node.id;
    const id = uniqueNodeId(original);
    newId.set(node.id, id);

    const pinned = parseCardRef(value(node.attrs.get(cardAttribute)) ?? '');
    if (pinned) {
      const ref = `${pinned.id}@${pinned.version}`;
      refOfNode.set(node.id, ref);
      usedCardIds.add(pinned.id);
      if (cardByRef.has(ref)) continue;
    }
    let cardId = pinned?.id;
    const version = pinned?.version ?? importedVersion;
    if (cardId === undefined) {
      const derived = cardIdFrom(named);
      const base = shortenedCardId(derived);
      do cardId = uniqueCardId(base);
      while (usedCardIds.has(cardId));
      usedCardIds.add(cardId);
      if (base !== derived) {
        warn(
          'dot/unsupported',
          `The card id import derives from node ${node.id} has ${derived.length} characters, more than a card's file name can hold, so its card is ${cardId}@${version}, the id's first characters and a hash of the whole; the node keeps its id, so rename the card if you want another id.`,
          node.span,
          node.id,
        );
      }
    }
    const ref = `${cardId}@${version}`;
    refOfNode.set(node.id, ref);
    if (cardByRef.has(ref)) continue;
    const cardPath = cardFile(ref);
    if (cardPath !== `cards/${ref}.yaml`) {
      warn(
        'dot/unsupported',
        `Node ${node.id} pins ${ref}, whose id and version together are longer than a file name can hold, so import writes the card to ${cardPath} (it keeps its id and version, and validate reports the file name as card/filename-mismatch); shorten the card's id in the pipeline if you can.`,
        node.attrs.get(cardAttribute)?.valueSpan ?? node.span,
        node.id,
      );
    }

    // type, from the shape (and, for a shape several types share, the `dp-` classes)
    const classes = (value(node.attrs.get('class')) ?? '').split(/\s*,\s*/);
    const candidates = shape === undefined ? undefined : typesByShape.get(shape);
    let type: string;
    if (!candidates) {
      type = 'agent';
      warn(
        'dot/unsupported',
        shape === undefined
          ? `Node ${node.id} sets no shape, so import cannot tell its handler and makes its card an \`agent\`; set the card's type by hand.`
          : `Node ${node.id} has shape "${shape}", which selects no handler import knows, so its card becomes an \`agent\`; set the card's type by hand.`,
        shapeAttribute?.valueSpan ?? node.span,
        node.id,
      );
    } else {
      type = candidates.find((candidate) => classes.includes(className(candidate))) ?? candidates[0];
    }
    const phases: string[] = [];
    for (const name of classes) {
      if (!name.startsWith('dp-')) continue;
      const term = vocabulary.get(name.slice(3));
      if (term?.kind === 'phase') phases.push(term.id);
    }

    const prompt = value(node.attrs.get('prompt'));
    const spec = prompt ?? '';
    if (spec.trim().length === 0) {
      warn(
        'card/missing-field',
        `Node ${node.id} carries no prompt, so card ${ref} gets an empty spec and will not load until one is written; describe what the step does in its spec.`,
        node.attrs.get('prompt')?.valueSpan ?? node.span,
        node.id,
      );
    }
    const params: Record<string, JsonValue> = {};
    const retries = node.attrs.get('max_retries');
    if (retries) {
      const digits = unescapeAttractor(retries.value);
      if (/^[0-9]+$/.test(digits)) {
        params.max_iterations = Number(digits);
      } else {
        warn(
          'dot/unsupported',
          `Node ${node.id} has max_retries="${digits}", which is not a whole number, so import drops it; write the cap as params.max_iterations on the card.`,
          retries.valueSpan,
          node.id,
        );
      }
    }
    const command = value(node.attrs.get('tool_command'));
    if (command !== undefined && command.trim().length > 0) params.tool_command = command;
    const model = value(node.attrs.get('llm_model'))?.trim();

    const card: Card = {
      id: cardId,
      name: value(node.attrs.get('label')) ?? node.id,
      type,
      phases,
      action: typeRow(type)!.handler,
      spec,
      ...(model ? { model } : {}),
      tools: [],
      mcp: [],
      params,
      inputs: [],
      outputs: [],
      dependencies: [],
      cannot: [],
      willNot: [],
      riskMarkers: [],
      version,
      author,
      provenance,
    };
    const imported: ImportedCard = { nodeId: id, sourceNodeId: node.id, ref, file: cardPath, card, text: cardYaml(card) };
    cardByRef.set(ref, imported);
    cards.push(imported);
  }

  // ---- edges ----
  const edgeLines: string[] = [];
  for (const edge of graph.edges) {
    if (boundary.has(edge.source) || boundary.has(edge.target)) continue;
    const attributes: string[] = [];
    for (const key of ['label', 'condition', 'weight']) {
      const attribute = edge.attrs.get(key);
      if (!attribute) continue;
      const text = unescapeAttractor(attribute.value);
      if (isTopologyWritable(text)) {
        attributes.push(`${key}=${quoteTopology(text)}`);
      } else {
        warn(
          'dot/unsupported',
          `The ${key} of edge ${edge.source} -> ${edge.target} has a backslash at its end or before a quote or line break, which a topology string cannot hold, so import drops it; add it to the topology by hand.`,
          attribute.valueSpan,
        );
      }
    }
    edgeLines.push(`  ${topologyId(newId.get(edge.source)!)} -> ${topologyId(newId.get(edge.target)!)}${attributes.length > 0 ? ` [${attributes.join(', ')}]` : ''};`);
  }

  // ---- manifest and topology ----
  const name = graph.name;
  const slug = name === undefined || name.length === 0 ? importedSlug : cardIdFrom(name);
  const title = value(graph.graphAttrs.get('label'))?.trim() || name || '';
  const manifest: Manifest = { slug, title, summary: value(graph.graphAttrs.get('goal')) ?? '', tags: [] };
  const lines = [`digraph ${dotName(name ?? slug)} {`];
  for (const node of keptNodes) lines.push(`  ${topologyId(newId.get(node.id)!)} [card=${quoteTopology(refOfNode.get(node.id)!)}];`);
  lines.push('', ...edgeLines, '}');
  return { readable: true, manifest, dot: `${lines.join('\n')}\n`, cards, diagnostics };
}

/** The files of an imported draft, as the command writes them: topology, manifest, then the cards. */
export function importedBundleFiles(result: ImportResult): SourceFile[] {
  return [
    { path: 'topology.dot', text: result.dot },
    { path: 'blueprint.yaml', text: manifestYaml(result.manifest) },
    ...result.cards.map((c) => ({ path: c.file, text: c.text })),
  ];
}

/** `blueprint.yaml` for a manifest: slug, title, summary, tags, every scalar double-quoted. */
export function manifestYaml(manifest: Manifest): string {
  const lines = [`slug: ${yamlString(manifest.slug)}`, `title: ${yamlString(manifest.title)}`, `summary: ${yamlString(manifest.summary)}`];
  lines.push(manifest.tags.length === 0 ? 'tags: []' : `tags:\n${manifest.tags.map((t) => `  - ${yamlString(t)}`).join('\n')}`);
  return `${lines.join('\n')}\n`;
}

/** A card file in import's layout (docs/compatibility.md#attractor-import): identity, then behaviour, then wiring, then version and origin. */
export function cardYaml(card: Card): string {
  const list = (key: string, items: readonly JsonValue[]): string =>
    items.length === 0 ? `${key}: []` : `${key}:\n${items.map((item) => `  - ${yamlJson(item)}`).join('\n')}`;
  const ports = (items: readonly Port[]): JsonValue[] => items.map((p) => ({ ...p }) as { [key: string]: JsonValue });
  const params = Object.keys(card.params);
  const lines = [
    `id: ${yamlString(card.id)}`,
    `name: ${yamlString(card.name)}`,
    `type: ${yamlString(card.type)}`,
    list('phase', card.phases),
    '',
    `action: ${yamlString(card.action)}`,
    `spec: ${yamlString(card.spec)}`,
    ...(card.model !== undefined ? [`model: ${yamlString(card.model)}`] : []),
    list('tools', card.tools),
    list('mcp', card.mcp),
    params.length === 0 ? 'params: {}' : `params:\n${params.map((key) => `  ${yamlKey(key)}: ${yamlJson(card.params[key])}`).join('\n')}`,
    '',
    list('inputs', ports(card.inputs)),
    list('outputs', ports(card.outputs)),
    list('dependencies', card.dependencies),
    list('cannot', card.cannot),
    list('will_not', card.willNot),
    list('risk_markers', card.riskMarkers),
    '',
    `version: ${yamlString(card.version)}`,
    ...(card.author !== undefined ? [`author: ${yamlString(card.author)}`] : []),
    ...(card.provenance !== undefined ? [`provenance: ${yamlString(card.provenance)}`] : []),
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * `derived` (a card id made by `cardIdFrom`) when it has at most `maximumDerivedCardIdLength`
 * characters; else its first characters (no `-` at their end), `-`, and the first 16 hex digits
 * of its SHA-256: still a valid card id, the same for the same name, and, but for a hash
 * collision, different for names that differ only after the cut (the namer keeps the ids unique
 * whatever the hash gives).
 */
export function shortenedCardId(derived: string): string {
  if (derived.length <= maximumDerivedCardIdLength) return derived;
  const hash = sha256Hex(derived).slice(0, 16);
  return `${derived.slice(0, maximumDerivedCardIdLength - hash.length - 1).replace(/-+$/, '')}-${hash}`;
}

/**
 * Where import writes the card `ref`: `cards/<id>@<version>.yaml` (a namespaced id in a folder
 * of its namespace), or, when a name on that path is longer than `maximumFileNameBytes`,
 * `cards/<the ref's first characters>-<16 hex digits of its SHA-256>.yaml`. That name holds no
 * `@`, so it is never the name of another card, and is the same for the same ref. (A card
 * ref is ASCII, so its length is its size in bytes.)
 */
export function cardFile(ref: string): string {
  const usual = `cards/${ref}.yaml`;
  if (usual.split('/').every((name) => name.length <= maximumFileNameBytes)) return usual;
  const hash = sha256Hex(ref).slice(0, 16);
  return `cards/${ref.replace(/[@/]/g, '-').slice(0, maximumDerivedCardIdLength - hash.length - 1).replace(/-+$/, '')}-${hash}.yaml`;
}

function yamlKey(key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? key : yamlString(key);
}

/**
 * True when `recorded` (a node's `dp_node`) is a topology id that export could have written as
 * `id`: as an Attractor id (with export's `n_` before a boundary name), `id` itself or `id` with
 * export's `_2`, `_3`… (see `attractorNodeIds` in ./emit.ts).
 */
function recordsExportOf(recorded: string, id: string): boolean {
  const identifier = toIdentifier(recorded);
  const base = isBoundaryNodeId(identifier) ? `n_${identifier}` : identifier;
  return id === base || (id.startsWith(`${base}_`) && /^[1-9][0-9]*$/.test(id.slice(base.length + 1)));
}
