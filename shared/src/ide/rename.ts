/**
 * Rename: a node id across the topology (every occurrence: statements, edge endpoints, chains,
 * subgraphs, `retry_target`/`fallback_retry_target` values, plus the entries naming it in the
 * `dependencies` of the cards it feeds; a quoted occurrence stays quoted; a node pinned by its own
 * `version=` gets the `card=` pin it stood for), and a card id across the bundle (its `id`
 * field, the file name when it follows `<id>@<version>`, every pin and every `dependencies`
 * entry). A value spelled across a `+` (or a backslash-newline) is written anew as one string.
 * A YAML alias naming the old id (or a whole `dependencies` list that is an alias) gives way to
 * the new id written out, and the value it repeated stays as it was; an anchored id renamed
 * carries its aliases along, as YAML reads them. A place no edit can rewrite, or one the new
 * name would change the meaning of, refuses the whole rename (see `refusedError`). In a pin
 * `card="id@version"` only the id part is a rename target: the version names no symbol, and the
 * range answered must hold the cursor. The new name is checked against the grammar of what it
 * names (an Attractor-usable node id; a card id) and refused when it is taken, with a message
 * that says why and what would do.
 */
import { cardIdPattern, parseCardRef } from '../card/card-ref';
import { expectedCardPath } from '../check/card';
import { isAttractorIdentifier, isAttractorKeyword, isBoundaryNodeId, isUsableNodeId, suggestNodeId } from '../syntax/attractor-table';
import { quoteTopology, topologyId } from '../compile/strings';
import { deref } from '../syntax/yaml';
import type { DotNode } from '../syntax/dot-model';
import { nodeOccurrences } from '../syntax/dot-mentions';
import { isDotIdPart, isDotIdStart } from '../syntax/dot-lexer';
import { lineIndex, partitionPoint, type Span } from '../text';
import {
  assertNever,
  cardIndex,
  cardOfNode,
  graphIndex,
  isCardPath,
  isTopologyPath,
  mainTopology,
  nodeAtOffset,
  pinIdSpan,
  pinOf,
  pinnedViews,
  textOf,
  topologyFile,
  topologyView,
  type TopologyView,
} from './context';
import { item } from './data-context';
import { dataDocument, hitAt } from './data-tree';
import { isIdLike } from './dot-context';
import { collectEdits, mappingOf, scalarText, type EditCollector, type Refusal } from './edits';
import { realignedRuns } from './format';
import type { IdeBundle, RenameTarget, WorkspaceEdit } from './types';
import { formatOf } from '../syntax/yaml';

type Target =
  | { readonly kind: 'node'; readonly view: TopologyView; readonly node: DotNode; readonly span: Span; readonly name: string }
  | { readonly kind: 'card'; readonly span: Span; readonly name: string };

/**
 * What a rename here would rename, or why it would be refused whatever the new name (see
 * `refusedError`): told before the user types a name, as LSP lets prepareRename answer.
 */
export function prepareRename(bundle: IdeBundle, file: string, offset: number): RenameTarget | { error: string } | undefined {
  const target = renameTarget(bundle, file, offset);
  // The range answered holds the cursor (LSP), so the cursor on a quote around a card id answers nothing.
  if (target === undefined || offset < target.span.start || offset > target.span.end) return undefined;
  // The places no edit can rewrite do not depend on the new name: a rename to the same name finds them.
  const edits = collectEdits();
  if (target.kind === 'node') renameNode(bundle, target.view, target.node, target.name, edits, 'keep');
  else renameCard(bundle, target.name, target.name, edits, file);
  if (edits.refused.length > 0) return { error: refusedError(bundle, target.name, edits.refused) };
  return { span: target.span, placeholder: target.name };
}

export function rename(bundle: IdeBundle, file: string, offset: number, newName: string): WorkspaceEdit | { error: string } {
  const target = renameTarget(bundle, file, offset);
  if (target === undefined) return { error: 'Nothing here can be renamed; put the cursor on a node id in the topology, or on a card id.' };
  if (newName === target.name) return { changes: [] };
  const edits = collectEdits();
  switch (target.kind) {
    case 'node': {
      const problem = nodeNameProblem(newName, target.view, target.node);
      if (problem !== undefined) return { error: problem };
      renameNode(bundle, target.view, target.node, newName, edits, 'keep');
      if (edits.refused.length > 0) return { error: refusedError(bundle, target.name, edits.refused) };
      keepAlignment(target.view, edits);
      return separateAdjacentEdits(edits.result());
    }
    case 'card': {
      const problem = cardNameProblem(bundle, target.name, newName);
      if (problem !== undefined) return { error: problem };
      renameCard(bundle, target.name, newName, edits, file);
      if (edits.refused.length > 0) return { error: refusedError(bundle, target.name, edits.refused) };
      const clash = (edits.result().renames ?? []).find((r) => bundle.files.has(r.to));
      if (clash !== undefined) return { error: `Renaming would move ${clash.from} onto ${clash.to}, which already exists; remove or rename that file first.` };
      return edits.result();
    }
    default:
      return assertNever(target);
  }
}

/**
 * Why a rename is refused: a place names `name` in a way no edit in place can rewrite (see
 * `EditCollector.refuse`). Renaming everything else would leave that place naming what no
 * longer exists, a break the user did not ask for, so the whole rename is refused and the
 * message says where to write the name out first.
 */
function refusedError(bundle: IdeBundle, name: string, refused: readonly Refusal[]): string {
  const first = refused[0];
  const line = lineIndex(textOf(bundle, first.file) ?? '').positionAt(first.span.start).line + 1;
  const places = refused.length === 1 ? 'One place that names it cannot be rewritten' : `${refused.length} places that name it cannot be rewritten`;
  return `${places}, so \`${name}\` was not renamed: ${first.file} line ${line} ${first.why}.`;
}

/**
 * Why a node that takes card `ref` from its id under a `node [version=…]` default is refused, by
 * a node rename and a card rename alike: either would change the card it pins, and the node has
 * no `version=` of its own to turn into the `card=` it stands for.
 */
function underVersionDefault(nodeId: string, ref: string): string {
  return `pins card ${ref} through the id of node \`${nodeId}\` under a \`node [version=…]\` default, and no node statement of \`${nodeId}\` can take a pin (one that first names it, or has an attribute list, with no port); give \`${nodeId}\` a \`card=${quoteTopology(ref)}\` of its own first`;
}

/**
 * Where a node that takes its card from its id under a `node [version=…]` default can be given
 * a `card=` of its own: just after its id in the first of its node statements that can take one,
 * where ` [card="…"]` reads as one more attribute list (DOT reads several in a row) and an
 * explicit `card=` wins over the default's `version=`. A statement can take one when the attributes
 * it gives the node stay the same but for the pin:
 * - the statement that first names the node, or one with an attribute list of its own: either
 *   already gives the node the defaults in force there (a re-declaration fills the keys it lacks);
 *   a bare `a;` naming a node that exists is a mention only, and a list would make it take them;
 * - no port after the id (`a:p`, `a :p`): the list would land between the two;
 * - not rewritten by the same edit (`skip`, the occurrences a fix-all rewrites as glued runs).
 * Undefined when no statement can: a rename refuses then (see `underVersionDefault`).
 */
function ownPinPlace(view: TopologyView, node: DotNode, skip?: ReadonlySet<number>): number | undefined {
  const graph = view.graph;
  if (graph === undefined) return undefined;
  const occurrences = nodeOccurrences(graph, node.id);
  const tokens = view.significant;
  for (const statement of node.statements) {
    if (skip?.has(statement.start) === true) continue;
    const id = occurrences.find((span) => span.start === statement.start);
    if (id === undefined) continue;
    if (statement.start !== node.span.start && statement.end <= id.end) continue;
    const next = partitionPoint(tokens.length, (k) => tokens[k].span.start < id.end);
    if (next < tokens.length && tokens[next].kind === 'colon') continue;
    return id.end;
  }
  return undefined;
}

/**
 * For a node that pins `pinned` by its id under a version default: writes `card="<written>"` in
 * its own statement (see `ownPinPlace`), nothing when `written` is undefined (the same name, as
 * prepareRename asks), and refuses when it has no such statement.
 */
function pinUnderVersionDefault(view: TopologyView, node: DotNode, pinned: string, written: string | undefined, edits: EditCollector, skip?: ReadonlySet<number>): void {
  const at = ownPinPlace(view, node, skip);
  if (at === undefined) edits.refuse(view.file, node.span, underVersionDefault(node.id, pinned));
  else if (written !== undefined) edits.add(view.file, { start: at, end: at }, ` [card=${quoteTopology(written)}]`);
}

function renameTarget(bundle: IdeBundle, file: string, offset: number): Target | undefined {
  const text = textOf(bundle, file);
  if (text === undefined || !(offset >= 0 && offset <= text.length)) return undefined;
  if (isTopologyPath(file)) {
    const view = topologyView(bundle, file);
    const graph = view?.graph;
    if (view === undefined || graph === undefined) return undefined;
    const found = nodeAtOffset(graph, offset);
    if (found !== undefined) return { kind: 'node', view, node: found.node, span: found.occurrence, name: found.node.id };
    for (const node of graph.nodes) {
      const pin = pinOf(node);
      const attr = pin.attr;
      if (pin.via !== 'card' || attr === undefined || pin.id === undefined || attr.valueSpan.start > offset || offset > attr.valueSpan.end) continue;
      if (!cardIndex(bundle).byId.has(pin.id)) return undefined;
      const idSpan = pinIdSpan(text, pin);
      // A pin spelled across a `+` (or a backslash-newline) has no one place that is the id: the
      // whole value is the target, the id its placeholder, and the rename writes it as one string.
      if (idSpan === undefined) return { kind: 'card', span: attr.valueSpan, name: pin.id };
      // Only the id part of `id@version` names the card: on the version (or a quote) there is
      // nothing to rename, as the range answered must hold the cursor.
      if (offset < idSpan.start || offset > idSpan.end) return undefined;
      return { kind: 'card', span: idSpan, name: pin.id };
    }
    return undefined;
  }
  if (!isCardPath(file)) return undefined;
  const hit = hitAt(dataDocument(file, text).root, offset);
  const value = hit?.scalar?.value;
  if (hit === undefined || hit.role !== 'value' || typeof value !== 'string' || !cardIdPattern.test(value)) return undefined;
  const isId = hit.path.length === 1 && hit.path[0] === 'id';
  const isDependency = hit.path.length === 2 && hit.path[0] === 'dependencies' && hit.path[1] === item && cardIndex(bundle).byId.has(value);
  if (!isId && !isDependency) return undefined;
  return { kind: 'card', span: contentSpan(text, hit.span), name: value };
}

/** A scalar's span without its quotes. */
function contentSpan(text: string, span: Span): Span {
  const c = text.charCodeAt(span.start);
  return (c === 34 || c === 39) && span.end - span.start >= 2 ? { start: span.start + 1, end: span.end - 1 } : span;
}

// ---------------------------------------------------------------------- nodes

function nodeNameProblem(name: string, view: TopologyView, node: DotNode): string | undefined {
  const taken = (candidate: string): boolean => candidate !== node.id && (view.graph?.nodes.some((n) => n.id === candidate) ?? false);
  if (!isUsableNodeId(name)) {
    const suggestion = suggestNodeId(name, taken);
    if (isBoundaryNodeId(name)) return `\`${name}\` is the name Attractor gives the pipeline's ${name === 'start' || name === 'Start' ? 'entry' : 'exit'}, so it cannot name a node; try \`${suggestion}\`.`;
    if (isAttractorKeyword(name)) return `\`${name}\` is a DOT keyword, so it cannot name a node; try \`${suggestion}\`.`;
    if (!isAttractorIdentifier(name)) return `\`${name}\` cannot name a node: a node id is letters, digits and \`_\`, not starting with a digit; try \`${suggestion}\`.`;
  }
  if (taken(name)) return `A node named \`${name}\` already exists in ${view.file}; pick another id (two nodes cannot share one).`;
  return undefined;
}

/**
 * How a node rename writes the occurrences of the id: `keep` leaves a quoted occurrence quoted
 * where the quotes were a choice, the old id being one DOT reads bare (`topologyId`; a rename
 * changes the name, not how it is written), and writes it bare where they were needed
 * (`"the builder"` renamed to `the_builder`: the quotes only carried the space, and Attractor
 * warns about a quoted id); `drop` writes every occurrence bare (the fixes, which exist to give
 * Attractor ids it can read unquoted).
 */
export type OccurrenceQuotes = 'keep' | 'drop';

/**
 * Renames a node: every occurrence in the topology (quoted or bare as `quotes` says), every
 * `retry_target`/`fallback_retry_target` value naming it (on nodes, in defaults, on the graph;
 * quoted values stay quoted), and the `dependencies` entries naming it in the cards it feeds.
 * `newName` is a usable node id, so it is valid written either way. Occurrences starting at an
 * offset in `skip` are left as they are (the fix-all rewrites those itself). A bare name never
 * runs into the token beside it: see `unglued`.
 */
export function renameNode(
  bundle: IdeBundle,
  view: TopologyView,
  node: DotNode,
  newName: string,
  edits: EditCollector,
  quotes: OccurrenceQuotes,
  skip?: ReadonlySet<number>,
): void {
  const keepQuotes = quotes === 'keep' && node.idError === undefined && topologyId(node.id) === node.id;
  for (const occurrence of view.graph === undefined ? [] : nodeOccurrences(view.graph, node.id)) {
    if (skip?.has(occurrence.start) === true) continue;
    const quoted = keepQuotes && view.text.charCodeAt(occurrence.start) === 34;
    const written = unglued(view.text, occurrence, quoted ? quoteTopology(newName) : newName);
    if (view.text.slice(occurrence.start, occurrence.end) !== written) edits.add(view.file, occurrence, written);
  }
  for (const value of retryTargets(view).get(node.id) ?? []) {
    const written = unglued(view.text, value.span, value.kind === 'string' ? quoteTopology(newName) : value.kind === 'html' ? `<${newName}>` : newName);
    if (view.text.slice(value.span.start, value.span.end) !== written) edits.add(view.file, value.span, written);
  }
  // A node pinned by `version=` takes its card's id from its own: renamed, it would pin another
  // card. Its own `version=` becomes the `card=` it stood for. Under a `node [version=…]`
  // default the node's own statement takes the `card=` (the rename refuses when it has none).
  // An id that is no card id pins nothing: the rename refuses a new name that would make it pin
  // a card.
  const pin = pinOf(node);
  if (pin.via === 'version' && pin.attr !== undefined && pin.ref === undefined && newName !== node.id) {
    const gained = parseCardRef(`${newName}@${pin.attr.value.trim()}`);
    if (gained !== undefined) {
      edits.refuse(
        view.file,
        pin.attr.fromDefault ? node.span : pin.attr.keySpan,
        `gives node \`${node.id}\` a \`version=\` that pins no card while its id is no card id, and would pin ${gained.id}@${gained.version} under the new name; remove the \`version=\`, or pin the card meant with \`card=\`, first`,
      );
    }
  }
  if (pin.via === 'version' && pin.attr !== undefined && pin.ref !== undefined) {
    // (the same name keeps the pin: only prepareRename asks that, for what would be refused)
    if (!pin.attr.fromDefault) {
      if (newName !== node.id) edits.add(view.file, { start: pin.attr.keySpan.start, end: pin.attr.valueSpan.end }, `card=${quoteTopology(pin.ref)}`);
    } else {
      pinUnderVersionDefault(view, node, pin.ref, newName !== node.id ? pin.ref : undefined, edits, skip);
    }
  }
  const graph = view.graph;
  // (a card's dependencies name nodes of the bundle's own topology: a second `.dot` leaves them be)
  if (graph === undefined || view.file !== topologyFile(bundle)) return;
  // A dependency may name the supplier's node id or its card id; only the node id changes.
  const ownCardId = cardOfNode(bundle, node)?.id ?? pinOf(node).id;
  if (ownCardId === node.id) return;
  const files = new Set<string>();
  const lookups = graphIndex(graph);
  for (const edge of lookups.outgoing.get(node.id) ?? []) {
    const target = lookups.byId.get(edge.target);
    const held = target ? cardOfNode(bundle, target) : undefined;
    if (held !== undefined) files.add(held.file);
  }
  for (const file of files) renameListEntries(bundle, file, 'dependencies', node.id, newName, edits);
}

/**
 * Adds to a node rename's edits those that keep the topology's aligned runs of node statements
 * aligned, as the formatter writes them (see ./format.ts `realignedRuns`).
 */
function keepAlignment(view: TopologyView, edits: EditCollector): void {
  const own = edits.result().changes.find((c) => c.file === view.file)?.edits ?? [];
  for (const edit of realignedRuns(view.text, view.parse, own)) edits.add(view.file, edit.span, edit.newText);
}

/**
 * `written` as it must replace `span` of a topology's `text` for the tokens on either side to
 * stay what they are. DOT ends a token only where its characters stop: `step-1` is the node
 * `step` followed by the node `-1` (a number), so `-1` renamed to `n_1` in place would give
 * `stepn_1`, one node, and a rename would silently merge two nodes. A bare name put straight
 * after an id or number character (or after `x-`, which would make a hyphenated id of both),
 * or straight before one (or before `-x`), gets a space on that side, which keeps the graph the
 * lexer reads exactly as it was. (The fixes also offer to write what a glued `step-1` most
 * likely meant, `step_1`; see `gluedRuns` in ./fixes.ts.)
 */
export function unglued(text: string, span: Span, written: string): string {
  if (written.length === 0) return written;
  const before = text.charCodeAt(span.start - 1);
  const after = text.charCodeAt(span.end);
  const joinsBefore =
    isDotIdPart(written.charCodeAt(0)) &&
    (isDotIdPart(before) || before === 46 /* . */ || (before === 45 /* - */ && isDotIdPart(text.charCodeAt(span.start - 2))));
  const joinsAfter = isDotIdPart(written.charCodeAt(written.length - 1)) && (isDotIdPart(after) || (after === 45 && isDotIdStart(text.charCodeAt(span.end + 1))));
  return `${joinsBefore ? ' ' : ''}${written}${joinsAfter ? ' ' : ''}`;
}

/**
 * `edit` with a space put between two topology edits that meet, where the first writes an id
 * or number character last and the second one first: `unglued` reads the text around an edit
 * as it stands, so it cannot see that a neighbour is being rewritten too (the fix-all turning
 * `"q"-1` into `q` and `n_1`, or `<a><a>` into `a` and `a`).
 */
export function separateAdjacentEdits(edit: WorkspaceEdit): WorkspaceEdit {
  const changes = edit.changes.map((change) => {
    if (!isTopologyPath(change.file)) return change;
    const edits = [...change.edits];
    for (let i = 1; i < edits.length; i++) {
      const first = edits[i - 1];
      const second = edits[i];
      if (first.span.end !== second.span.start || first.newText.length === 0 || second.newText.length === 0) continue;
      if (isDotIdPart(first.newText.charCodeAt(first.newText.length - 1)) && isDotIdPart(second.newText.charCodeAt(0))) edits[i] = { span: second.span, newText: ` ${second.newText}` };
    }
    return { ...change, edits };
  });
  return { ...edit, changes };
}

/** Attributes whose value names a node. */
const nodeValuedKeys: ReadonlySet<string> = new Set(['retry_target', 'fallback_retry_target']);

/**
 * A value of `retry_target=`/`fallback_retry_target=`: an id, a string, an HTML-like `<…>`, or a
 * `+` concatenation of strings (`"dra" + "ft"`, kind `string`, from the first string to the
 * last), which a rename writes whole as one string.
 */
interface RetryTarget {
  readonly kind: 'id' | 'string' | 'html';
  readonly span: Span;
}

const retryTargetCache = new WeakMap<TopologyView['parse'], ReadonlyMap<string, readonly RetryTarget[]>>();

/** The values of `retry_target=`/`fallback_retry_target=` (in lists and as graph statements), by the node id they name. */
function retryTargets(view: TopologyView): ReadonlyMap<string, readonly RetryTarget[]> {
  const cached = retryTargetCache.get(view.parse);
  if (cached !== undefined) return cached;
  const tokens = view.significant;
  const byId = new Map<string, RetryTarget[]>();
  for (let i = 2; i < tokens.length; i++) {
    const value = tokens[i];
    const key = tokens[i - 2];
    if (tokens[i - 1].kind !== 'equals' || !isIdLike(key.kind) || !nodeValuedKeys.has(key.value)) continue;
    if (value.kind !== 'id' && value.kind !== 'string' && value.kind !== 'html') continue;
    // DOT joins `"a" + "b"` into one string (the parser reads strings only on either side)
    let id = value.value;
    let last = i;
    if (value.kind === 'string') {
      while (tokens[last + 1]?.kind === 'plus' && tokens[last + 2]?.kind === 'string') {
        id += tokens[last + 2].value;
        last += 2;
      }
    }
    id = id.trim();
    const found: RetryTarget = { kind: value.kind, span: { start: value.span.start, end: tokens[last].span.end } };
    const list = byId.get(id);
    if (list === undefined) byId.set(id, [found]);
    else list.push(found);
    i = last;
  }
  retryTargetCache.set(view.parse, byId);
  return byId;
}

function renameListEntries(bundle: IdeBundle, file: string, key: string, from: string, to: string, edits: EditCollector): void {
  const text = textOf(bundle, file);
  if (text === undefined) return;
  const root = mappingOf(dataDocument(file, text).root);
  const written = root?.entries.get(key)?.value;
  const list = deref(written);
  if (list?.kind !== 'sequence') return;
  if (written?.kind === 'alias') {
    // The whole list repeats one anchored elsewhere: written out here as a flow list with the
    // new name, the anchored one stays as it was (entries all plain names, as `dependencies` are).
    const values = list.items.map((entry) => deref(entry));
    if (!values.some((v) => v?.kind === 'scalar' && v.value === from)) return;
    if (!values.every((v) => v?.kind === 'scalar' && typeof v.value === 'string')) {
      edits.refuse(file, written.span, `lists it through the YAML alias \`*${written.name}\`, a list whose entries are not all plain names; write the list out in place of the alias first`);
      return;
    }
    const format = formatOf(file);
    const names = values.map((v) => scalarText(v?.kind === 'scalar' && v.value !== from ? String(v.value) : to, format, ''));
    edits.add(file, written.span, `[${names.join(', ')}]`);
    return;
  }
  for (const node of list.items) {
    if (node.kind !== 'scalar' || node.value !== from) continue;
    edits.add(file, node.span, scalarText(to, formatOf(file), text.slice(node.span.start, node.span.end)));
  }
  // An alias follows its anchor: one anchored in this list was just rewritten; one anchored
  // elsewhere gives way to the new name written out (renaming the anchored value would change
  // the other place too).
  for (const node of list.items) {
    if (node.kind !== 'alias' || node.target?.kind !== 'scalar' || node.target.value !== from || list.items.includes(node.target)) continue;
    edits.add(file, node.span, scalarText(to, formatOf(file), ''));
  }
}

// ---------------------------------------------------------------------- cards

function cardNameProblem(bundle: IdeBundle, from: string, name: string): string | undefined {
  if (!cardIdPattern.test(name)) {
    return `\`${name}\` is not a card id: write lowercase letters and digits in words joined by single hyphens, with at most one \`namespace/\` prefix (e.g. \`outline-writer\`).`;
  }
  const existing = cardIndex(bundle).byId.get(name);
  if (existing !== undefined && existing.length > 0) {
    return `The bundle already holds a card with id \`${name}\` (${existing.map((h) => h.file).join(', ')}); pick another id for \`${from}\`.`;
  }
  return undefined;
}

/**
 * Renames a card id: every card file with that id (and its file name when it follows the
 * convention), every pin in the bundle's topology and in `also` (another topology file the rename
 * was asked from; see `pinnedViews`), every dependency entry.
 */
export function renameCard(bundle: IdeBundle, from: string, to: string, edits: EditCollector, also?: string): void {
  const index = cardIndex(bundle);
  for (const held of index.files) {
    if (held.draft.id !== from) continue;
    const text = textOf(bundle, held.file);
    if (text === undefined) continue;
    const idEntry = mappingOf(dataDocument(held.file, text).root)?.entries.get('id');
    if (idEntry !== undefined && idEntry.value.kind === 'scalar') {
      edits.add(held.file, idEntry.value.span, scalarText(to, formatOf(held.file), text.slice(idEntry.value.span.start, idEntry.value.span.end)));
    } else if (idEntry !== undefined && idEntry.value.kind === 'alias') {
      // (the anchored value elsewhere keeps what it says: the new id is written out in place of the alias)
      edits.add(held.file, idEntry.value.span, scalarText(to, formatOf(held.file), ''));
    }
    const version = held.draft.version;
    if (typeof version === 'string' && expectedCardPath(held.file, from, version) === undefined) {
      const moved = expectedCardPath(held.file, to, version);
      if (moved !== undefined) edits.rename(held.file, moved);
    }
  }
  for (const view of pinnedViews(bundle, also)) {
    for (const node of view.graph?.nodes ?? []) {
      const pin = pinOf(node);
      const attr = pin.attr;
      if (attr === undefined || pin.id !== from) continue;
      if (pin.via === 'card') {
        const idSpan = pinIdSpan(view.text, pin);
        if (idSpan !== undefined) {
          edits.add(view.file, idSpan, to);
        } else {
          // spelled across a `+` or a backslash-newline: the value is written anew, as one string
          const at = attr.value.indexOf(`${from}@`);
          if (at >= 0) edits.add(view.file, attr.valueSpan, quoteTopology(`${attr.value.slice(0, at)}${to}${attr.value.slice(at + from.length)}`));
        }
      } else if (pin.via === 'version' && !attr.fromDefault) {
        edits.add(view.file, { start: attr.keySpan.start, end: attr.valueSpan.end }, `card="${to}@${pin.version ?? ''}"`);
      } else if (pin.via === 'version') {
        // the node's id names the card, under a `node [version=…]` default: its own statement takes a `card=`
        pinUnderVersionDefault(view, node, pin.ref ?? `${from}@${pin.version ?? ''}`, to !== from ? `${to}@${pin.version ?? ''}` : undefined, edits);
      }
    }
  }
  for (const held of index.files) {
    if ((held.draft.dependencies ?? []).includes(from)) renameListEntries(bundle, held.file, 'dependencies', from, to, edits);
  }
}
