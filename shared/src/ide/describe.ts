/**
 * Markdown for hovers and completion details, rendered from the engine's tables: the
 * vocabulary (term facts, `analyzerRole`, `markerWeight`, `kindInfo`), the diagnostics registry,
 * the Attractor attribute table, the card field table, and the few topology attributes DarkPrint
 * adds (below). No term, code, field or attribute fact is written here; only how to show it.
 */
import type { Card, Port } from '../card/card-model';
import { cardFields, portFields, type CardFieldShape } from '../card/card-fields';
import { retiredCardKeys } from '../check/card';
import { attractorAttribute, type AttractorScope } from '../syntax/attractor-table';
import { diagnosticInfo, type DiagnosticCode } from '../diagnostics';
import { analyzerRole, kindInfo, markerWeight } from '../vocabulary';
import type { Term, TermKind, Vocabulary } from '../vocabulary/types';
import type { HeldCard } from './context';

/** The attributes a DarkPrint topology adds to DOT; the Attractor ones come from its table. */
export interface TopologyAttribute {
  readonly scope: AttractorScope;
  readonly name: string;
  readonly description: string;
}

export const topologyAttributes: readonly TopologyAttribute[] = Object.freeze([
  { scope: 'node', name: 'card', description: 'Pins the card this node runs, as `id@version` with an exact version of a card the bundle holds.' },
  { scope: 'node', name: 'version', description: 'Pins the card whose id is the node id, at this exact version; `card=` wins when both are written.' },
  { scope: 'node', name: 'digest', description: 'Pins the card\'s content as well: a prefix of its `sha256:` digest. When the card changes, the pin no longer matches and `bundle/digest-mismatch` says so.' },
  { scope: 'edge', name: 'out', description: 'Names the output port of the source node\'s card that this edge carries; without it the first output that fits an input is used.' },
  { scope: 'edge', name: 'in', description: 'Names the input port of the target node\'s card that this edge feeds; without it the first input that fits is used.' },
]);

export function topologyAttribute(scope: AttractorScope, name: string): TopologyAttribute | undefined {
  return topologyAttributes.find((a) => a.scope === scope && a.name === name);
}

export function code(text: string): string {
  const fence = text.includes('`') ? '``' : '`';
  return `${fence}${text}${fence}`;
}

// ---------------------------------------------------------------------- terms

export function describeTerm(term: Term, vocabulary: Vocabulary): string {
  const info = kindInfo[term.kind];
  const lines: string[] = [`**${term.label}** ${code(term.id)} · ${term.kind} (${info.title})`, '', term.meaning, ''];
  const chain = vocabulary.ancestors(term.id).slice(1).map((t) => code(t.id));
  lines.push(chain.length > 0 ? `Under: ${chain.join(' → ')}` : term.broader !== undefined ? `Under: ${code(term.broader)} (not a known term)` : 'Under: nothing (the top of its hierarchy)');
  if (term.kind === 'risk-marker' && term.arrival !== 'category') lines.push('', markerWeightLine(term));
  if (term.deprecated !== undefined) {
    lines.push('', term.deprecated.replacedBy !== undefined ? `Deprecated: use ${code(term.deprecated.replacedBy)} instead.` : 'Deprecated, with no replacement.');
  }
  if (term.local !== undefined) lines.push('', `Local term, declared in ${code(term.local.file)}${term.local.since !== undefined ? ` since ${term.local.since}` : ''}.`);
  lines.push('', `*In a card* (${info.cardFields.map(code).join(', ')}): ${info.inCard}`, '', `*In the analysis:* ${analyzerRole(term, { vocabulary })}`);
  return lines.join('\n');
}

/**
 * A marker's weight, and how the marker arrives: `Weight: 1.50 (inferred)`. A marker with no
 * usable weight of its own (a local one without `defaultWeight`, or a negative one) weighs what
 * the analysis gives such markers, and the line says so rather than showing that weight as its own.
 */
function markerWeightLine(term: Term): string {
  const arrival = term.arrival ?? 'declared';
  const own = term.defaultWeight !== undefined && Number.isFinite(term.defaultWeight) && term.defaultWeight >= 0;
  const weight = markerWeight(term).toFixed(2);
  return own ? `Weight: ${weight} (${arrival})` : `Weight: ${weight}, what the analysis gives a marker with no weight of its own (${arrival})`;
}

export function describeKind(kind: TermKind): string {
  const info = kindInfo[kind];
  return [`**${kind}**: ${info.title}`, '', `*In a card* (${info.cardFields.map(code).join(', ')}): ${info.inCard}`, '', `*In the analysis:* ${info.analyzer}`].join('\n');
}

// ---------------------------------------------------------------------- diagnostic codes

export function describeCode(diagnosticCode: DiagnosticCode): string {
  const info = diagnosticInfo(diagnosticCode);
  const lines = [`**${code(diagnosticCode)}** · ${info.severity} · ${info.title}${info.beyond ? ' · not a DarkPrint code' : ''}`, '', info.docs];
  if (info.otherSeverities.length > 0) lines.push('', `Also reported as ${info.otherSeverities.map((o) => `${o.severity} for ${o.when}`).join('; ')}.`);
  if (info.emitted !== true) lines.push('', `Never reported by this engine: ${info.emitted.never}`);
  const language = /^\s*(\/\/|(strict\s+)?(di)?graph\b)/.test(info.example) ? 'dot' : 'yaml';
  lines.push('', '```' + language, info.example, '```');
  return lines.join('\n');
}

// ---------------------------------------------------------------------- cards

/** A card's spec in a hover: its first lines, up to so many characters (the whole of it is a link away). */
const specLines = 2;
const specCharacters = 200;

/**
 * A card in a few lines (a node's hover fits in about fifteen, its edges included): the heading
 * (name, the node that runs it, `id@version`, type), phases, ports, prohibitions, the start of the
 * spec, and a link to the card's file.
 */
export function describeCard(held: HeldCard, vocabulary: Vocabulary, nodeId?: string): string {
  const card: Partial<Card> = held.card ?? held.draft;
  const ref = held.ref ?? `${card.id ?? '?'}@${card.version ?? '?'}`;
  const typeTerm = card.type !== undefined ? vocabulary.get(card.type) : undefined;
  const type = card.type !== undefined ? `${code(card.type)}${typeTerm ? ` (${typeTerm.label})` : ''}` : 'no type';
  const lines = [`**${card.name ?? card.id ?? held.file}**${nodeId !== undefined ? ` · node ${code(nodeId)}` : ''} · ${code(ref)} · ${type}`];
  if (held.card === undefined) lines.push('', `The card in ${code(held.file)} has errors, so nodes pinning it do not resolve; this is what could be read.`);
  if (card.phases !== undefined && card.phases.length > 0) lines.push('', `Phases: ${card.phases.map(code).join(', ')}`);
  lines.push('', `Inputs: ${ports(card.inputs)}`, '', `Outputs: ${ports(card.outputs)}`);
  if (card.cannot !== undefined && card.cannot.length > 0) lines.push('', `Cannot receive: ${card.cannot.map(code).join(', ')}`);
  if (card.spec !== undefined && card.spec.trim() !== '') {
    const all = card.spec.trim().split(/\r?\n/);
    let shown = all.slice(0, specLines).join('\n');
    if (shown.length > specCharacters) shown = `${shown.slice(0, specCharacters)}…`;
    else if (all.length > specLines) shown += '\n…';
    lines.push('', ...shown.split('\n').map((l) => `> ${l}`));
  }
  lines.push('', `Defined in ${fileLink(held.file, held.read.locate('id', 'key').start)}`);
  return lines.join('\n');
}

/**
 * A Markdown link to a file of the bundle, at an offset: `[path](bundle-file:path#offset)`. The IDE
 * knows no URI; the server writes each such target as the file's URI at the offset's line (see
 * server/src/convert.ts `toHover`), and plain text keeps the path alone.
 */
export function fileLink(file: string, offset?: number): string {
  return `[${file.replace(/[\[\]\\]/g, '\\$&')}](${bundleFileScheme}${encodeURI(file).replace(/[()#?]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}${offset !== undefined ? `#${offset}` : ''})`;
}

/** The scheme of a link target naming a file of the bundle (see `fileLink`). */
export const bundleFileScheme = 'bundle-file:';

function ports(list: readonly Port[] | undefined): string {
  if (list === undefined) return 'not readable';
  if (list.length === 0) return 'none';
  return list.map((p) => `${code(p.name)}: ${code(p.type)}${p.required === false ? ' (optional)' : ''}`).join(', ');
}

export function describePort(port: Port, side: 'input' | 'output', ref: string, vocabulary: Vocabulary): string {
  const term = vocabulary.get(port.type);
  const lines = [`**${side} ${code(port.name)}** of ${code(ref)} · ${code(port.type)}${term ? ` (${term.label})` : ''}${port.required === false ? ' · optional' : ''}`];
  if (port.description !== undefined && port.description.trim() !== '') lines.push('', port.description.trim());
  if (term !== undefined) lines.push('', term.meaning);
  return lines.join('\n');
}

// ---------------------------------------------------------------------- card fields

/** How a field's value is written, in words. */
const shapeWords: Readonly<Record<CardFieldShape, string>> = {
  text: 'text',
  id: 'a card id',
  version: 'a strict semantic version',
  term: 'one term',
  phases: 'one phase or a list of phases',
  'text-list': 'a list of texts',
  'term-list': 'a list of terms',
  'input-ports': 'a list of ports',
  'output-ports': 'a list of ports',
  params: 'a mapping of names to values',
};

/** A card field's key in a few words (a completion item's detail): required or not, and how its value is written. */
export function cardFieldDetail(key: string): string | undefined {
  const field = cardFields.find((f) => f.key === key || f.alias === key);
  if (field === undefined) return undefined;
  return `${field.required ? 'required' : 'optional'} · ${shapeWords[field.shape]}${field.terms !== undefined ? ` (${field.terms})` : ''}`;
}

/**
 * A card field's key, from the card field table: what it is, whether a card must have it, how its
 * value is written and what the engine does with it; a retired key says what replaced it.
 */
export function describeCardField(key: string): string | undefined {
  const field = cardFields.find((f) => f.key === key || f.alias === key);
  if (field === undefined) {
    const retired = retiredCardKeys.get(key);
    return retired === undefined ? undefined : `**${code(key)}** · retired card field\n\nRead and ignored, with a warning (\`card/retired-field\`): ${retired}. Remove it.`;
  }
  const lines = [`**${code(key)}** · card field · ${cardFieldDetail(key) ?? ''}`, '', field.description];
  if (field.required) lines.push('', 'Required: a card without it, or with it blank, does not load (`card/missing-field`), and the nodes pinning it have no card.');
  if (field.alias !== undefined) lines.push('', key === field.alias ? `DarkPrint writes it ${code(field.key)}; ${code(key)} is read the same.` : `Also read as ${code(field.alias)}.`);
  if (field.terms !== undefined) lines.push('', `*In the analysis:* ${kindInfo[field.terms].analyzer}`);
  return lines.join('\n');
}

/** A port's key (`name`, `type`, `description`, `required`), from the port field table. */
export function describePortField(key: string, side: 'input' | 'output'): string | undefined {
  const field = portFields.find((f) => f.key === key && (side === 'input' || !f.inputsOnly));
  if (field === undefined) return undefined;
  return [`**${code(key)}** · ${side} port field · ${field.required ? 'required' : 'optional'}`, '', field.description].join('\n');
}

// ---------------------------------------------------------------------- attributes

export function describeAttribute(scope: AttractorScope, name: string): string | undefined {
  const own = topologyAttribute(scope, name);
  const attractor = attractorAttribute(scope, name);
  if (own === undefined && attractor === undefined) return undefined;
  const lines = [`**${code(name)}** · ${scope} attribute`];
  if (own !== undefined) lines.push('', own.description);
  if (attractor !== undefined) {
    lines.push(
      '',
      `*Attractor* (${attractor.valueType}${attractor.defaultValue !== undefined && attractor.defaultValue !== '' ? `, default ${code(attractor.defaultValue)}` : ''}): ${attractor.description}`,
    );
  }
  return lines.join('\n');
}
