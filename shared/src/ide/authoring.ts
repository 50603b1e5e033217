/**
 * Quick fixes that write what the bundle lacks, rather than pointing at what it holds:
 * - "Create card `<id>@<version>`" for a node with no card (no pin, and no card of its id; or a
 *   pin naming an id no card of the bundle has): a new card file with every required field, its
 *   name from the node's label, its type guessed from the node's shape or label (else `agent`),
 *   its ports inferred from the edges (`out=`/`in=`, then the neighbours' ports and their types),
 *   its dependencies from the nodes that feed it, and a `spec` placeholder that says what to write
 *   (a warning until it is written); the node gets its pin when it had none, and the new file is
 *   opened at the placeholder;
 * - "Add output/input `<name>` (`<type>`) to `<card>`" for an `out=`/`in=` naming a port the card
 *   lacks, the type taken from the port it pairs with at the other end;
 * - "Declare the ports" for an edge that carries nothing because a card declares no port on its
 *   side (a bundle fresh from `import`): the missing output, input or both, of one type;
 * - "Pin one of the bundle's cards…" for a node with no pin: writes `card=""` and opens the place
 *   between the quotes, asking the editor for completion there (the bundle's cards).
 * The edits are worked out from the bundle's current texts; an action is left out when they
 * cannot be.
 */
import type { Card, Port } from '../card/card-model';
import { cardIdPattern } from '../card/card-ref';
import { typesByShape } from '../syntax/attractor-table';
import type { Diagnostic } from '../diagnostics';
import { deref, formatOf, type DataFormat, type YamlMapping } from '../syntax/yaml';
import type { DotEdge, DotNode } from '../syntax/dot-model';
import type { Span } from '../text';
import { cardIndex, cardOfNode, graphIndex, pinOf, textOf, topologyView, type HeldCard, type TopologyView } from './context';
import { dataDocument } from './data-tree';
import { addMappingEntry, appendListItem, lineStart, mappingOf, newline, newScalar } from './edits';
import type { CodeAction, IdeBundle, TextEdit, WorkspaceEdit } from './types';

/** The version a card created for a node with no pin starts at. */
export const firstCardVersion = '1.0.0';

/** The `spec` a created card starts with: shorter than a spec may be on purpose (`card/spec-too-thin`, a warning), saying what to write. */
export const specPlaceholder = 'TODO: say what the step does.';

/** The `action` a created card starts with. */
export const actionPlaceholder = 'TODO: one line saying what the node does';

/** The data type of a port whose other end says nothing about what it carries. */
const unknownType = 'any';

// ---------------------------------------------------------------------- create card

/**
 * "Create card …" for a `bundle/missing-card` or `bundle/unpinned-card` on a node whose card id
 * names no card of the bundle: the node has no pin (the id is made from the node's, version
 * `firstCardVersion`), or pins `id@version` of an id the bundle holds no version of.
 */
export function createCardActions(bundle: IdeBundle, file: string, diagnostic: Diagnostic, place: Placement): CodeAction[] {
  const view = topologyView(bundle, file);
  const node = nodeOf(view, diagnostic);
  if (view === undefined || node === undefined) return [];
  const pin = pinOf(node);
  const index = cardIndex(bundle);
  let id: string;
  let version: string;
  if (pin.via === 'none') {
    id = cardIdFor(node.id, (candidate) => index.byId.has(candidate) || index.files.some((h) => h.draft.id === candidate));
    version = firstCardVersion;
  } else {
    if (pin.id === undefined || pin.version === undefined || pin.attr?.fromDefault === true) return [];
    if (index.byId.has(pin.id) || index.files.some((h) => h.draft.id === pin.id)) return [];
    id = pin.id;
    version = pin.version;
  }
  const path = `cards/${id}@${version}.yaml`;
  if ([...bundle.files.keys()].some((f) => f.toLowerCase() === path.toLowerCase())) return [];
  const text = newCardText(bundle, view, node, id, version);
  const edit: { creates: { file: string; text: string }[]; changes: WorkspaceEdit['changes'] } = { creates: [{ file: path, text }], changes: [] };
  if (pin.via === 'none') {
    const pinning = place(view, node, `card="${id}@${version}"`);
    edit.changes = [{ file, edits: [{ span: pinning.span, newText: pinning.newText }] }];
  }
  const at = text.indexOf(specPlaceholder);
  return [
    {
      title: `Create card \`${id}@${version}\` in ${path}`,
      kind: 'quickfix',
      edit,
      isPreferred: false,
      show: { file: path, span: { start: at, end: at + specPlaceholder.length }, optional: true },
    },
  ];
}

/** A card id for a node id: lowercase words joined by hyphens (`code_builder` → `code-builder`), made unique. */
export function cardIdFor(nodeId: string, taken: (id: string) => boolean): string {
  let base = nodeId
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (!cardIdPattern.test(base)) base = 'step';
  let id = base;
  for (let n = 2; taken(id); n++) id = `${base}-${n}`;
  return id;
}

/** The text of the card created for `node`: block YAML, every required field. */
function newCardText(bundle: IdeBundle, view: TopologyView, node: DotNode, id: string, version: string): string {
  const label = node.attrs.get('label');
  const name = label !== undefined && label.value.trim() !== '' ? label.value.trim().replace(/\s+/g, ' ') : humanName(node.id);
  const type = guessType(node);
  const { inputs, outputs } = inferredPorts(bundle, view, node);
  const lines = [`id: ${id}`, `name: ${yamlText(name)}`, `type: ${type}`, `action: ${yamlText(actionPlaceholder)}`, `spec: ${yamlText(specPlaceholder)}`];
  if (type === 'shell-tool') lines.push('params:', '  tool_command: "echo TODO"');
  lines.push(...portLines('inputs', inputs), ...portLines('outputs', outputs));
  const suppliers = suppliersOf(bundle, view, node, id);
  if (suppliers.length > 0) lines.push(`dependencies: [${suppliers.map((s) => newScalar(s, 'yaml')).join(', ')}]`);
  lines.push(`version: ${version}`, '');
  return lines.join('\n');
}

function portLines(key: string, ports: readonly Port[]): string[] {
  if (ports.length === 0) return [`${key}: []`];
  return [`${key}:`, ...ports.flatMap((p) => [`  - name: ${yamlText(p.name)}`, `    type: ${p.type}`])];
}

/** A text as a YAML value: bare when YAML reads it back as the same string (words and blanks), else quoted. */
function yamlText(value: string): string {
  const plain = /^[A-Za-z0-9_][A-Za-z0-9_ .,()/+-]*$/.test(value) && !/ $/.test(value) && newScalar(value.split(' ')[0], 'yaml') === value.split(' ')[0];
  return plain ? value : JSON.stringify(value);
}

/** `code_builder` → `Code builder`. */
function humanName(nodeId: string): string {
  const words = nodeId.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_\-.]+/g, ' ').trim().toLowerCase();
  return words === '' ? nodeId : words.charAt(0).toUpperCase() + words.slice(1);
}

/** Words in a node's label or id that say what kind of worker it is. */
const typeWords: readonly { readonly pattern: RegExp; readonly type: string }[] = [
  { pattern: /\b(approv\w*|sign[ -]?off|human|person|manual)\b/, type: 'human-gate' },
  { pattern: /\b(decide|decision|route|router|branch)\b/, type: 'decision' },
  { pattern: /\b(validat\w*|verif\w*|judge|check\w*|test\w*)\b/, type: 'validation' },
];

/** The node's type: from the shape it sets itself, else from its label or id, else from a default shape, else `agent`. */
function guessType(node: DotNode): string {
  const shape = node.attrs.get('shape');
  const fromShape = shape !== undefined ? typesByShape.get(shape.value.trim())?.[0] : undefined;
  if (shape !== undefined && !shape.fromDefault && fromShape !== undefined) return fromShape;
  const words = `${node.attrs.get('label')?.value ?? ''} ${node.id.replace(/[_\-.]+/g, ' ')}`.toLowerCase();
  for (const w of typeWords) if (w.pattern.test(words)) return w.type;
  return fromShape ?? 'agent';
}

/**
 * The ports a new card for `node` needs so that its edges carry data: per incoming edge an input
 * named by its `in=` (else the output it pairs with, else its label, else `from_<source>`) of the
 * type of that output (else `any`); per outgoing edge an output likewise. One name, one port; a
 * name taken by another type gets a number.
 */
function inferredPorts(bundle: IdeBundle, view: TopologyView, node: DotNode): { inputs: Port[]; outputs: Port[] } {
  const graph = view.graph;
  if (graph === undefined) return { inputs: [], outputs: [] };
  const lookups = graphIndex(graph);
  const cardOf = (nodeId: string): Card | undefined => {
    const other = lookups.byId.get(nodeId);
    return other !== undefined ? cardOfNode(bundle, other)?.card : undefined;
  };
  const inputs: Port[] = [];
  const outputs: Port[] = [];
  for (const edge of lookups.incoming.get(node.id) ?? []) {
    if (edge.source === node.id) continue;
    const other = pairedPort(cardOf(edge.source)?.outputs, edge.attrs.get('out')?.value.trim());
    const name = edge.attrs.get('in')?.value.trim() || other?.name || labelName(edge) || `from_${portWord(edge.source)}`;
    addPort(inputs, name, other?.type ?? unknownType);
  }
  for (const edge of lookups.outgoing.get(node.id) ?? []) {
    if (edge.target === node.id) continue;
    const other = pairedPort(cardOf(edge.target)?.inputs, edge.attrs.get('in')?.value.trim());
    const name = edge.attrs.get('out')?.value.trim() || other?.name || labelName(edge) || `to_${portWord(edge.target)}`;
    addPort(outputs, name, other?.type ?? unknownType);
  }
  return { inputs, outputs };
}

/** The port of the other end an edge pairs with: the one it names, else the first. */
function pairedPort(ports: readonly Port[] | undefined, named: string | undefined): Port | undefined {
  if (ports === undefined) return undefined;
  return named !== undefined ? ports.find((p) => p.name === named) : ports[0];
}

function addPort(ports: Port[], name: string, type: string): void {
  if (ports.some((p) => p.name === name && p.type === type)) return;
  let unique = name;
  for (let n = 2; ports.some((p) => p.name === unique); n++) unique = `${name}_${n}`;
  ports.push({ name: unique, type });
}

/** A port name from an edge's label (`acceptance criteria` → `acceptance_criteria`), if it has one. */
function labelName(edge: DotEdge): string | undefined {
  const label = edge.attrs.get('label')?.value ?? '';
  const word = portWord(label);
  return word === '' ? undefined : word;
}

function portWord(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '');
}

/** The card ids of the nodes that feed `node` (its dependencies), never its own. */
function suppliersOf(bundle: IdeBundle, view: TopologyView, node: DotNode, ownId: string): string[] {
  const graph = view.graph;
  if (graph === undefined) return [];
  const lookups = graphIndex(graph);
  const out: string[] = [];
  for (const edge of lookups.incoming.get(node.id) ?? []) {
    const source = lookups.byId.get(edge.source);
    const id = source !== undefined ? (cardOfNode(bundle, source)?.id ?? pinOf(source).id) : undefined;
    if (id !== undefined && id !== ownId && !out.includes(id)) out.push(id);
  }
  return out;
}

// ---------------------------------------------------------------------- ports

/**
 * For a `bundle/port-mismatch`: "Add output/input …" when the edge's `out=`/`in=` names a port the
 * card lacks; "Declare the ports" when the edge carries nothing because a card on its way declares
 * no port on that side.
 */
export function portActions(bundle: IdeBundle, file: string, diagnostic: Diagnostic): CodeAction[] {
  const view = topologyView(bundle, file);
  const graph = view?.graph;
  const ends = diagnostic.location.edge;
  const at = diagnostic.location.span;
  if (view === undefined || graph === undefined || ends === undefined || at === undefined) return [];
  const lookups = graphIndex(graph);
  const heldOf = (nodeId: string): HeldCard | undefined => {
    const node = lookups.byId.get(nodeId);
    return node !== undefined ? cardOfNode(bundle, node) : undefined;
  };
  const source = heldOf(ends.source);
  const target = heldOf(ends.target);
  if (source?.card === undefined || target?.card === undefined) return [];
  const edge = (lookups.outgoing.get(ends.source) ?? []).find((e) => e.target === ends.target && e.span.start <= at.start && at.end <= e.span.end + 1) ??
    (lookups.outgoing.get(ends.source) ?? []).find((e) => e.target === ends.target);
  if (edge === undefined) return [];
  const outAttr = edge.attrs.get('out');
  const inAttr = edge.attrs.get('in');
  const outName = outAttr?.value.trim();
  const inName = inAttr?.value.trim();
  const named = (attr: typeof outAttr): boolean => attr !== undefined && (attr.fromDefault ? sameSpan(edge.span, at) : sameSpan(attr.valueSpan, at));
  // `out=` naming an output the card lacks
  if (outName !== undefined && outName !== '' && named(outAttr) && !source.card.outputs.some((p) => p.name === outName) && (diagnostic.location.cardRef ?? source.ref) === source.ref) {
    const type = pairedPort(target.card.inputs, inName)?.type ?? unknownType;
    const edit = portEdit(bundle, [{ held: source, side: 'outputs', port: { name: outName, type } }]);
    return edit === undefined ? [] : [{ title: `Add output \`${outName}\` (\`${type}\`) to \`${source.ref ?? source.file}\``, kind: 'quickfix', edit, isPreferred: false }];
  }
  if (inName !== undefined && inName !== '' && named(inAttr) && !target.card.inputs.some((p) => p.name === inName) && (diagnostic.location.cardRef ?? target.ref) === target.ref) {
    const type = pairedPort(source.card.outputs, outName)?.type ?? unknownType;
    const edit = portEdit(bundle, [{ held: target, side: 'inputs', port: { name: inName, type } }]);
    return edit === undefined ? [] : [{ title: `Add input \`${inName}\` (\`${type}\`) to \`${target.ref ?? target.file}\``, kind: 'quickfix', edit, isPreferred: false }];
  }
  // an edge that carries nothing: the side (or both) with no port gets one
  if (!sameSpan(edge.span, at) || outName !== undefined || inName !== undefined) return [];
  const noOutputs = source.card.outputs.length === 0;
  const noInputs = target.card.inputs.length === 0;
  if (!noOutputs && !noInputs) return [];
  const additions: PortAddition[] = [];
  if (noOutputs && noInputs) {
    const name = labelName(edge) ?? `${portWord(ends.source)}_to_${portWord(ends.target)}`;
    additions.push({ held: source, side: 'outputs', port: { name, type: unknownType } }, { held: target, side: 'inputs', port: { name, type: unknownType } });
  } else if (noOutputs) {
    const input = target.card.inputs[0];
    additions.push({ held: source, side: 'outputs', port: { name: labelName(edge) ?? input.name, type: input.type } });
  } else {
    const output = source.card.outputs[0];
    additions.push({ held: target, side: 'inputs', port: { name: labelName(edge) ?? output.name, type: output.type } });
  }
  // (an edge from a node to another of the same card: one card gains both ports)
  const edit = portEdit(bundle, additions);
  if (edit === undefined) return [];
  const said = additions.map((a) => `${a.side === 'outputs' ? 'output' : 'input'} \`${a.port.name}\` (\`${a.port.type}\`) on \`${a.held.ref ?? a.held.file}\``);
  return [{ title: `Declare the ports: ${said.join(' and ')}`, kind: 'quickfix', edit, isPreferred: true }];
}

interface PortAddition {
  readonly held: HeldCard;
  readonly side: 'inputs' | 'outputs';
  readonly port: Port;
}

function sameSpan(a: Span, b: Span): boolean {
  return a.start === b.start && a.end === b.end;
}

/** The edit that adds each port to its card, in the card's own style; undefined when a card's text cannot take it. */
function portEdit(bundle: IdeBundle, additions: readonly PortAddition[]): WorkspaceEdit | undefined {
  const byFile = new Map<string, PortAddition[]>();
  for (const a of additions) byFile.set(a.held.file, [...(byFile.get(a.held.file) ?? []), a]);
  const changes: WorkspaceEdit['changes'][number][] = [];
  for (const [file, list] of byFile) {
    let text = textOf(bundle, file);
    if (text === undefined) return undefined;
    // (two ports on one card: the second is added to the text the first made, as one replacement)
    const original = text;
    for (const a of list) {
      const root = mappingOf(dataDocument(file, text).root);
      if (root === undefined) return undefined;
      const edit = addPortText(text, formatOf(file), root, a.side, a.port);
      if (edit === undefined) return undefined;
      text = text.slice(0, edit.span.start) + edit.newText + text.slice(edit.span.end);
    }
    changes.push({ file, edits: [minimalReplacement(original, text)] });
  }
  return { changes };
}

/** The one replacement that turns `before` into `after` (their common start and end kept). */
function minimalReplacement(before: string, after: string): { span: Span; newText: string } {
  let start = 0;
  const shorter = Math.min(before.length, after.length);
  while (start < shorter && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let end = 0;
  while (end < shorter - start && before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end)) end++;
  return { span: { start, end: before.length - end }, newText: after.slice(start, after.length - end) };
}

/**
 * Adds a port to the list `key` (`inputs`/`outputs`) of a card: appended in the list's style; an
 * empty flow list of a block YAML card becomes a block list; a missing or empty list gets one.
 */
function addPortText(text: string, format: DataFormat, root: YamlMapping, key: 'inputs' | 'outputs', port: Port): { span: Span; newText: string } | undefined {
  const eol = newline(text);
  const flowRoot = text.charCodeAt(root.span.start) === 123;
  const flowPort = format === 'json' ? `{"name": ${JSON.stringify(port.name)}, "type": ${JSON.stringify(port.type)}}` : `{name: ${yamlText(port.name)}, type: ${port.type}}`;
  const entry = root.entries.get(key);
  const keyIndent = (offset: number): string => text.slice(lineStart(text, offset), offset);
  const blockItems = (indent: string): string => `${eol}${indent}  - name: ${yamlText(port.name)}${eol}${indent}    type: ${port.type}`;
  if (entry === undefined) {
    if (format === 'json' || flowRoot) return addMappingEntry(text, format, root, key, `[${flowPort}]`, key === 'inputs' ? ['spec', 'action'] : ['inputs']);
    const first = [...root.entries.values()].sort((a, b) => a.keySpan.start - b.keySpan.start)[0];
    const indent = first !== undefined ? keyIndent(first.keySpan.start) : '';
    return addMappingEntry(text, format, root, key, `\n${indent}  - name: ${yamlText(port.name)}\n${indent}    type: ${port.type}`, key === 'inputs' ? ['spec', 'action'] : ['inputs']);
  }
  const value = deref(entry.value);
  const empty = value === undefined || (value.kind === 'scalar' && value.value === null) || (value.kind === 'sequence' && value.items.length === 0);
  if (empty && format === 'yaml' && !flowRoot && entry.value.kind !== 'alias') {
    // `outputs: []` (or `outputs:`) in a block card: a block list in its place
    const colon = text.indexOf(':', entry.keySpan.end);
    if (colon < 0) return undefined;
    const end = value !== undefined && entry.value.span.end > entry.value.span.start ? entry.value.span.end : colon + 1;
    return { span: { start: colon + 1, end }, newText: blockItems(keyIndent(entry.keySpan.start)) };
  }
  if (value?.kind !== 'sequence' || entry.value.kind === 'alias') return undefined;
  const flow = text.charCodeAt(value.span.start) === 91;
  if (flow || format === 'json') return appendListItem(text, value, flowPort);
  const last = value.items[value.items.length - 1];
  const dash = text.lastIndexOf('-', last.span.start);
  const dashIndent = text.slice(lineStart(text, dash), dash);
  return appendListItem(text, value, `name: ${yamlText(port.name)}${eol}${dashIndent}  type: ${port.type}`);
}

// ---------------------------------------------------------------------- pin one of the cards

/** "Pin one of the bundle's cards…" for a node with no pin, when the bundle holds a card it could pin. */
export function pinPickAction(bundle: IdeBundle, file: string, diagnostic: Diagnostic, place: Placement): CodeAction[] {
  const view = topologyView(bundle, file);
  const node = nodeOf(view, diagnostic);
  if (view === undefined || node === undefined || pinOf(node).via !== 'none') return [];
  let any = false;
  for (const held of cardIndex(bundle).byRef.values()) if ((any = held.card !== undefined)) break;
  if (!any) return [];
  const insertion = place(view, node, 'card=""');
  // the place between the quotes, once the insertion is made
  const quote = insertion.newText.indexOf('""') + 1;
  const at = insertion.span.start + quote;
  return [
    {
      title: "Pin one of the bundle's cards…",
      kind: 'quickfix',
      edit: { changes: [{ file, edits: [{ span: insertion.span, newText: insertion.newText }] }] },
      show: { file, span: { start: at, end: at }, suggest: true, optional: true },
    },
  ];
}

// ---------------------------------------------------------------------- shared

/** Where a node takes a new attribute, as the pin fixes write it (./fixes.ts `attributePlacement`). */
export type Placement = (view: TopologyView, node: DotNode, attribute: string) => TextEdit;

function nodeOf(view: TopologyView | undefined, diagnostic: Diagnostic): DotNode | undefined {
  const nodeId = diagnostic.location.nodeId;
  return view?.graph !== undefined && nodeId !== undefined ? graphIndex(view.graph).byId.get(nodeId) : undefined;
}
