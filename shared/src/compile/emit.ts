/**
 * Export to Attractor (docs/compatibility.md#attractor-export): a blueprint compiled byte for byte
 * as DarkPrint's exporter writes it. `emitAttractor` compiles any blueprint (a node without a card
 * becomes a plain box); `exportAttractor` is the command's gate: it refuses what DarkPrint refuses
 * (docs/compatibility.md#export-refusal) and otherwise compiles.
 *
 * Everything Attractor-specific (shapes, handlers, emitted and withheld names, the identifier
 * rule) comes from ../syntax/attractor-table.ts; the header's lists are derived from it here.
 */
import type { Diagnostic } from '../diagnostics';
import type { Blueprint, ResolvedNode } from '../bundle/model';
import type { Card } from '../card/card-model';
import type { Vocabulary } from '../vocabulary/types';
import type { LoadResult } from '../bundle/resolve';
import { reachableFrom, sinks, sources, stronglyConnected, type Graph } from '../analyze/graph';
import { findIterationCap } from '../check/iteration-cap';
import {
  attractorScopes,
  cardAttribute,
  className,
  disclosedAttributes,
  entryLabel,
  entryNodeId,
  entryShape,
  exitLabel,
  exitNodeId,
  exitShape,
  fallbackRow,
  isBoundaryNodeId,
  originalIdAttribute,
  rowForChain,
  toIdentifier,
  type AttractorScope,
} from '../syntax/attractor-table';
import { quoteAttractor, uniqueNames } from './strings';
import { blocksStorage } from './gate';

/** Header lines are wrapped before a name would pass this column (docs/compatibility.md#export-header). */
export const headerWidth = 88;

/** Compiles a blueprint to Attractor DOT text (lines joined by `\n`, final newline). */
export function emitAttractor(blueprint: Blueprint): string {
  const { graph } = blueprint;
  const ids = attractorNodeIds(graph.ids);
  const taken = new Set(ids);
  const entry = freeName(entryNodeId, taken);
  taken.add(entry);
  const exit = freeName(exitNodeId, taken);

  const lines: string[] = [...attractorHeader(blueprint.digest)];
  lines.push(`digraph ${attractorGraphName(blueprint.manifest.slug)} {`);
  const goal = blueprint.manifest.summary.trim();
  if (goal.length > 0) lines.push(`  goal=${quoteAttractor(goal)};`);
  const label = blueprint.manifest.title.trim();
  if (label.length > 0) lines.push(`  label=${quoteAttractor(label)};`);
  lines.push('');
  lines.push(`  ${entry}${attributeList([['label', quoteAttractor(entryLabel)], ['shape', entryShape]])};`);
  graph.ids.forEach((id, i) => {
    lines.push(`  ${ids[i]}${attributeList(nodeAttributes(id, ids[i], blueprint.nodeById.get(id), blueprint.vocabulary))};`);
  });
  lines.push(`  ${exit}${attributeList([['label', quoteAttractor(exitLabel)], ['shape', exitShape]])};`);
  lines.push('');
  const idOf = (raw: string): string => ids[graph.index.get(raw)!];
  for (const target of entryTargets(graph)) lines.push(`  ${entry} -> ${ids[target]};`);
  for (const edge of blueprint.edges) {
    const attributes: [string, string][] = [];
    const edgeLabel = edge.label?.trim();
    if (edgeLabel) attributes.push(['label', quoteAttractor(edgeLabel)]);
    if (edge.condition !== undefined) attributes.push(['condition', quoteAttractor(edge.condition)]);
    if (edge.weight !== undefined) attributes.push(['weight', isBareWeight(edge.weight) ? edge.weight : quoteAttractor(edge.weight)]);
    lines.push(`  ${idOf(edge.source)} -> ${idOf(edge.target)}${attributeList(attributes)};`);
  }
  const exits = exitSources(graph);
  for (const source of exits) lines.push(`  ${ids[source]} -> ${exit};`);
  if (exits.length === 0) lines.push(`  ${entry} -> ${exit};`);
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

/** Why an export was refused: the storage-blocking findings, and the nodes with no card. */
export interface ExportRefusal {
  readonly ok: false;
  /** Storage-blocking diagnostics (docs/compatibility.md#storage-and-release-gate). */
  readonly blocking: readonly Diagnostic[];
  /** Graph ids whose node resolved to no card. */
  readonly cardless: readonly string[];
  /** One sentence per reason, for the command's stderr. */
  readonly reasons: readonly string[];
  readonly diagnostics: readonly Diagnostic[];
}

export interface ExportSuccess {
  readonly ok: true;
  readonly text: string;
  /** The bundle's findings that did not stop the export (they may include errors such as a port mismatch). */
  readonly diagnostics: readonly Diagnostic[];
}

export type ExportOutcome = ExportSuccess | ExportRefusal;

/**
 * The export command's decision (docs/compatibility.md#export-refusal): refuse when the topology is
 * not a directed graph, when any finding blocks storage, or when any node has no card; otherwise
 * compile.
 */
export function exportAttractor(result: LoadResult): ExportOutcome {
  const blocking = result.diagnostics.filter(blocksStorage);
  const rest = result.diagnostics.filter((d) => !blocksStorage(d));
  const blueprint = result.blueprint;
  const reasons: string[] = [];
  if (!blueprint) {
    reasons.push('The topology could not be read as a directed graph, so there is nothing to compile; fix the errors above and export again.');
  } else if (blocking.length > 0) {
    reasons.push(
      `${blocking.length === 1 ? 'One finding stops' : `${blocking.length} findings stop`} the bundle from being stored, so it is not compiled; fix ${blocking.length === 1 ? 'it' : 'them'} and export again.`,
    );
  }
  const cardless = blueprint ? blueprint.graph.ids.filter((id) => !blueprint.nodeById.get(id)?.entry) : [];
  if (cardless.length > 0) {
    const some = cardless.slice(0, 10).join(', ') + (cardless.length > 10 ? ', …' : '');
    reasons.push(
      `${cardless.length === 1 ? 'Node' : `${cardless.length} nodes`} ${some} ${cardless.length === 1 ? 'points' : 'point'} at no card the bundle holds, and a node compiles from its card; pin a card the bundle holds with card="<id>@<version>", or add the card under cards/.`,
    );
  }
  if (!blueprint || reasons.length > 0) {
    return { ok: false, blocking, cardless, reasons, diagnostics: rest };
  }
  return { ok: true, text: emitAttractor(blueprint), diagnostics: rest };
}

// ---- header -------------------------------------------------------------------------------

/** The header (docs/compatibility.md#export-header): its structure is DarkPrint's, its sentences are ours. */
export function attractorHeader(digest: string): string[] {
  const lines = [
    '// Compiled to an Attractor pipeline by darkprint, from a DarkPrint blueprint bundle.',
    `// Blueprint digest: ${digest}`,
    '//',
    '// The lists below name attributes an Attractor runner reads that no blueprint field can',
    '// set. Add the ones you need by hand; the next export rewrites this whole file.',
  ];
  const defaulting = attractorScopes.flatMap((scope) => wrapNames(scope, disclosedAttributes(scope).defaulting));
  if (defaulting.length > 0) lines.push('//', '// Left unset, these take the runner\'s default:', ...defaulting);
  const needed = attractorScopes.flatMap((scope) => wrapNames(scope, disclosedAttributes(scope).handlerNeeded));
  if (needed.length > 0) lines.push('//', '// These have no default; the handler that needs one reads it directly:', ...needed);
  lines.push(
    '//',
    '// No node gets `type`: the shape written for its card\'s type already picks the handler,',
    '// and an explicit `type` would override it. Ports, dependencies, prohibitions',
    '// (`cannot`) and risk markers stay in the blueprint; Attractor has no place for them.',
    '//',
  );
  return lines;
}

/**
 * One disclosure list as comment lines: `//   <label>: a, b, …`, continued under the first name
 * and wrapped before a name would pass `headerWidth` columns (the broken line keeps its comma).
 */
export function wrapNames(label: AttractorScope | string, names: readonly string[]): string[] {
  if (names.length === 0) return [];
  const first = `//   ${label}: `;
  const next = `//   ${' '.repeat(label.length + 2)}`;
  const out: string[] = [];
  let prefix = first;
  let current = '';
  for (const name of names) {
    if (current.length > 0 && prefix.length + current.length + 2 + name.length > headerWidth) {
      out.push(`${prefix}${current},`);
      prefix = next;
      current = name;
    } else {
      current = current.length > 0 ? `${current}, ${name}` : name;
    }
  }
  out.push(`${prefix}${current}`);
  return out;
}

// ---- names --------------------------------------------------------------------------------

/** The digraph's name: `blueprint` for a blank slug, else the slug as an identifier. */
export function attractorGraphName(slug: string): string {
  return slug.trim().length === 0 ? 'blueprint' : toIdentifier(slug);
}

/**
 * Node ids in graph order (docs/compatibility.md#identifiers-and-node-ids): the id as an
 * identifier, `n_` before a boundary name, then `_2`, `_3`, … while an earlier node already holds
 * the result.
 */
export function attractorNodeIds(graphIds: readonly string[]): string[] {
  const unique = uniqueNames('_');
  return graphIds.map((raw) => {
    const base = toIdentifier(raw);
    return unique(isBoundaryNodeId(base) ? `n_${base}` : base);
  });
}

function freeName(name: string, taken: ReadonlySet<string>): string {
  let out = name;
  while (taken.has(out)) out += '_';
  return out;
}

// ---- nodes --------------------------------------------------------------------------------

function nodeAttributes(raw: string, id: string, node: ResolvedNode | undefined, vocabulary: Vocabulary): [string, string][] {
  const out: [string, string][] = [];
  const card = node?.entry?.card;
  if (!card) {
    out.push(['label', quoteAttractor(raw)], ['shape', fallbackRow.shape]);
  } else {
    const chain = typeChain(card.type, vocabulary);
    const mapping = rowForChain(chain);
    out.push(['label', quoteAttractor(card.name)], ['shape', mapping.shape], ['prompt', quoteAttractor(card.spec)]);
    const model = card.model?.trim();
    if (model) out.push(['llm_model', quoteAttractor(model)]);
    const cap = findIterationCap(card.params);
    if (cap) out.push(['max_retries', integerText(cap.value)]);
    const command = toolCommand(card);
    if (mapping.handler === 'tool' && command !== undefined) out.push(['tool_command', quoteAttractor(command)]);
    const classes = attractorClasses(card, chain);
    if (classes.length > 0) out.push(['class', quoteAttractor(classes.join(','))]);
    out.push([cardAttribute, quoteAttractor(node!.entry!.ref)]);
  }
  if (id !== raw) out.push([originalIdAttribute, quoteAttractor(raw)]);
  return out;
}

/** The type's own id then its broader terms, nearest first; just the id when the vocabulary does not know it. */
export function typeChain(type: string, vocabulary: Vocabulary): string[] {
  const chain = vocabulary.ancestors(type).map((t) => t.id);
  return chain.length > 0 ? chain : [type];
}

/** The node's `class` names: its type chain then its phases, each as a `dp-` class, without repeats. */
export function attractorClasses(card: Pick<Card, 'phases'>, chain: readonly string[]): string[] {
  const out: string[] = [];
  for (const id of [...chain, ...card.phases]) {
    const name = className(id);
    if (!out.includes(name)) out.push(name);
  }
  return out;
}

function toolCommand(card: Card): string | undefined {
  if (!Object.prototype.hasOwnProperty.call(card.params, 'tool_command')) return undefined;
  const value = card.params.tool_command;
  return typeof value === 'string' && value.trim().length > 0 ? value : undefined;
}

/** An integer in plain digits (never exponent notation, which is not an Attractor Integer). */
function integerText(value: number): string {
  return Number.isSafeInteger(value) ? String(value) : BigInt(value).toString();
}

/**
 * A weight is written bare when it is an Attractor Integer or Float, quoted otherwise. (DarkPrint's
 * pattern also writes `1.` bare, which Attractor's Float rule does not admit: it is quoted here;
 * docs/compatibility.md#export-body.)
 */
export function isBareWeight(weight: string): boolean {
  return /^-?(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+)$/.test(weight);
}

function attributeList(attributes: readonly (readonly [string, string])[]): string {
  return attributes.length === 0 ? '' : ` [${attributes.map(([k, v]) => `${k}=${v}`).join(', ')}]`;
}

// ---- wiring -------------------------------------------------------------------------------

/** Targets of the entry node (docs/compatibility.md#entry-and-exit-wiring): every source, then each node no earlier target reaches, in graph order. */
export function entryTargets(graph: Graph): number[] {
  const targets = sources(graph);
  const reached = reachableFrom(graph, targets);
  const queue: number[] = [];
  for (let i = 0; i < graph.ids.length; i++) {
    if (reached[i]) continue;
    targets.push(i);
    reached[i] = true;
    queue.length = 0;
    queue.push(i);
    for (let head = 0; head < queue.length; head++) {
      for (const next of graph.successors[queue[head]]) {
        if (reached[next]) continue;
        reached[next] = true;
        queue.push(next);
      }
    }
  }
  return targets;
}

/** Sources of edges into the exit node (docs/compatibility.md#entry-and-exit-wiring): every sink; with none, the first member of each cycle nothing leaves. */
export function exitSources(graph: Graph): number[] {
  const found = sinks(graph);
  if (found.length > 0) return found;
  const out: number[] = [];
  for (const component of stronglyConnected(graph)) {
    const members = new Set(component);
    const leaves = component.some((v) => graph.successors[v].some((w) => !members.has(w)));
    if (!leaves) out.push(component[0]);
  }
  return out;
}
