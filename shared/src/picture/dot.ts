/**
 * `pictureDot`: the picture model as the DOT text handed to Graphviz. Each node is a block that
 * shows its type (the family in brackets when the type is narrower) over its display name, with
 * its risk markers under them; each edge is labelled with its own label, its guard, and the port
 * pair with the data type it carries. The graph keeps the topology's `rankdir`.
 *
 * Every node and edge carries its key as `id` and its classes (`pictureClasses`) as `class`,
 * which Graphviz copies onto the SVG group it draws; colours and line styles are set here only
 * so that the picture reads well on its own (the command's SVG), and a stylesheet overrides
 * them. Texts that the SVG should also class (the kind line, the name, the risks, an edge's
 * label, guard and data) are drawn in marker colours (`textClasses`), which ./render.ts turns
 * into classes. Nothing from the bundle reaches the DOT but escaped text: no attribute of the
 * topology is copied, so no URL, image or font the author wrote can reach the drawing.
 */
import type { Severity } from '../diagnostics';
import { pictureFamilies, type Picture, type PictureEdge, type PictureFamily, type PictureNode } from './model';

export function pictureDot(picture: Picture): string {
  const classes = pictureClasses(picture);
  const lines: string[] = [];
  lines.push('digraph "dp-picture" {');
  lines.push(
    `  graph [rankdir=${picture.graph.rankdir}, bgcolor="transparent", fontname="${font}", fontsize=11, nodesep=0.35, ranksep=0.5, pad=0.2, id="dp-graph", class="dp-graph"];`,
  );
  lines.push(`  node [shape=box, style="rounded,filled", fontname="${font}", fontsize=11, margin="0.14,0.06", penwidth=1.2, color="${palette.border}", fillcolor="${palette.fill}"];`);
  lines.push(`  edge [fontname="${font}", fontsize=10, color="${palette.edge}", fontcolor="${palette.text}", arrowsize=0.7, penwidth=1.2];`);
  const caption = captionOf(picture);
  if (caption !== undefined) lines.push(`  label=<${fontTag(caption, textColours.caption)}>;`);
  picture.nodes.forEach((node, n) => lines.push(`  "${node.key}" [${nodeAttributes(node, classes.nodes[n])}];`));
  picture.edges.forEach((edge, e) => {
    const source = keyOf(picture, edge.source);
    const target = keyOf(picture, edge.target);
    if (source === undefined || target === undefined) return;
    // an edge that closes a cycle is laid out backwards (and drawn pointing the right way), so
    // that Graphviz ranks the cycle in the topology's order instead of breaking it where it likes
    const backwards = edge.closesCycle && source !== target;
    const attributes = edgeAttributes(edge, classes.edges[e]);
    lines.push(backwards ? `  "${target}" -> "${source}" [${attributes}, dir=back];` : `  "${source}" -> "${target}" [${attributes}];`);
  });
  lines.push('}');
  return `${lines.join('\n')}\n`;
}

/**
 * The classes of each node and edge, in model order. Every element gets `dp-node` or `dp-edge`;
 * the rest come from `overlayClasses`, with the severity as `dp-sev-<severity>` and the family
 * as `dp-family-<family>`.
 */
export function pictureClasses(picture: Picture): { readonly nodes: string[][]; readonly edges: string[][] } {
  const { overlays } = picture;
  const nodeSets = {
    leak: new Set<string>(),
    relay: new Set<string>(),
    loop: new Set<string>(),
    fork: new Set(overlays.forks.map((f) => f.node)),
    entry: new Set(overlays.entries),
    exit: new Set(overlays.exits),
    unreachable: new Set(overlays.unreachable),
  };
  const edgeSets = { leak: new Set<number>(), relay: new Set<number>(), loop: new Set<number>(), arm: new Set<number>() };
  for (const route of overlays.leaks) {
    for (const id of route.nodes) nodeSets.leak.add(id);
    for (const e of route.edges) edgeSets.leak.add(e);
  }
  for (const route of overlays.relays) {
    for (const id of route.nodes) nodeSets.relay.add(id);
    for (const e of route.edges) edgeSets.relay.add(e);
  }
  for (const loop of overlays.loops) {
    for (const id of loop.nodes) nodeSets.loop.add(id);
    for (const e of loop.edges) edgeSets.loop.add(e);
  }
  for (const fork of overlays.forks) for (const e of fork.arms) edgeSets.arm.add(e);
  const resolved = new Set(picture.nodes.filter((n) => n.card.resolved).map((n) => n.id));

  const nodes = picture.nodes.map((node) => {
    const list = ['dp-node', `dp-family-${node.family}`];
    if (!node.card.resolved) list.push('dp-unresolved');
    if (node.human) list.push('dp-human');
    if (node.severity !== undefined) list.push(`dp-sev-${node.severity}`);
    if (node.risks.length > 0) list.push('dp-risk');
    if (nodeSets.leak.has(node.id)) list.push('dp-leak');
    if (nodeSets.relay.has(node.id)) list.push('dp-relay');
    if (nodeSets.loop.has(node.id)) list.push('dp-loop');
    if (nodeSets.fork.has(node.id)) list.push('dp-fork');
    if (nodeSets.entry.has(node.id)) list.push('dp-entry');
    if (nodeSets.exit.has(node.id)) list.push('dp-exit');
    if (nodeSets.unreachable.has(node.id)) list.push('dp-unreachable');
    return list;
  });
  const edges = picture.edges.map((edge) => {
    const list = ['dp-edge'];
    if (edge.severity !== undefined) list.push(`dp-sev-${edge.severity}`);
    if (edge.ports === undefined) list.push(resolved.has(edge.source) && resolved.has(edge.target) ? 'dp-empty' : 'dp-pending');
    if (edge.condition !== undefined || edge.weight !== undefined) list.push('dp-guarded');
    if (edge.closesCycle) list.push('dp-back');
    if (edgeSets.leak.has(edge.index)) list.push('dp-leak');
    if (edgeSets.relay.has(edge.index)) list.push('dp-relay');
    if (edgeSets.loop.has(edge.index)) list.push('dp-loop');
    if (edgeSets.arm.has(edge.index)) list.push('dp-fork-arm');
    return list;
  });
  return { nodes, edges };
}

/** Every class `pictureClasses` gives besides `dp-node`, `dp-edge`, `dp-sev-*` and `dp-family-*`, with what it marks (docs/graph.md lists them). */
export const overlayClasses: Readonly<Record<string, string>> = Object.freeze({
  'dp-unresolved': 'a node whose pin found no valid card',
  'dp-human': 'a node where a person acts',
  'dp-risk': 'a node that carries a risk marker',
  'dp-leak': 'a node or edge on a route by which acceptance criteria reach the work they judge',
  'dp-relay': 'a node or edge on a route by which criteria reach a node only through a judge',
  'dp-loop': 'a node or edge of a cycle where no card declares an iteration cap',
  'dp-fork': 'a node whose outgoing edges include arms with neither condition nor weight',
  'dp-fork-arm': 'such an arm',
  'dp-entry': 'a node with no incoming edge',
  'dp-exit': 'a node with no outgoing edge',
  'dp-unreachable': 'a node no path from an entry reaches',
  'dp-empty': 'an edge between two cards that no port pair is wired along',
  'dp-pending': 'an edge with an end that has no card yet',
  'dp-guarded': 'an edge with a condition or a weight',
  'dp-back': 'an edge that closes a cycle',
});

/**
 * The classes of the texts inside a block or a label, each drawn in a marker colour that
 * ./render.ts replaces with its class and the colour shown (`shown`).
 */
export const textClasses = Object.freeze({
  kind: { marker: '#0d0a01', shown: '#57606a', className: 'dp-kind' },
  name: { marker: '#0d0a02', shown: '#1f2328', className: 'dp-name' },
  risks: { marker: '#0d0a03', shown: '#9a6700', className: 'dp-risks' },
  label: { marker: '#0d0a04', shown: '#1f2328', className: 'dp-label' },
  guard: { marker: '#0d0a05', shown: '#57606a', className: 'dp-guard' },
  data: { marker: '#0d0a06', shown: '#0969da', className: 'dp-data' },
  caption: { marker: '#0d0a07', shown: '#57606a', className: 'dp-caption' },
});

type TextClass = keyof typeof textClasses;

const textColours: Readonly<Record<TextClass, string>> = Object.freeze(
  Object.fromEntries(Object.entries(textClasses).map(([key, value]) => [key, value.marker])) as Record<TextClass, string>,
);

const font = 'Helvetica,Arial,sans-serif';

const palette = Object.freeze({
  fill: '#ffffff',
  border: '#8c959f',
  text: '#1f2328',
  edge: '#57606a',
});

/** Fill and border per family (the shape too: a block's outline is all a stylesheet cannot change). */
const familyLooks: Readonly<Record<PictureFamily, { readonly shape: string; readonly style: string; readonly fill: string; readonly border: string; readonly peripheries?: number }>> = Object.freeze({
  agent: { shape: 'box', style: 'rounded,filled', fill: '#ddf4ff', border: '#54aeff' },
  tool: { shape: 'box', style: 'filled', fill: '#f6f8fa', border: '#8c959f' },
  evaluative: { shape: 'hexagon', style: 'filled', fill: '#fff8c5', border: '#d4a72c' },
  'human-in-the-loop': { shape: 'box', style: 'rounded,filled', fill: '#fbefff', border: '#c297ff', peripheries: 2 },
  orchestration: { shape: 'component', style: 'filled', fill: '#dafbe1', border: '#4ac26b' },
  unknown: { shape: 'box', style: 'rounded,filled,dashed', fill: '#ffffff', border: '#8c959f' },
  none: { shape: 'box', style: 'rounded,filled,dashed', fill: '#ffffff', border: '#8c959f' },
});

const severityLooks: Readonly<Record<Severity, { readonly colour: string; readonly width: number }>> = Object.freeze({
  error: { colour: '#cf222e', width: 2.2 },
  warning: { colour: '#bf8700', width: 1.8 },
  info: { colour: '#0969da', width: 1.4 },
});

function nodeAttributes(node: PictureNode, classes: readonly string[]): string {
  const look = familyLooks[node.family];
  const severity = node.severity === undefined ? undefined : severityLooks[node.severity];
  const style = node.card.resolved ? look.style : `${look.style.replace(',dashed', '')},dashed`;
  const attributes = [
    `id="${node.key}"`,
    `class="${classes.join(' ')}"`,
    `shape=${look.shape}`,
    `style="${style}"`,
    `fillcolor="${look.fill}"`,
    `color="${severity?.colour ?? look.border}"`,
    `penwidth=${severity?.width ?? 1.2}`,
  ];
  if (look.peripheries !== undefined) attributes.push(`peripheries=${look.peripheries}`);
  attributes.push(`label=<${nodeLabel(node)}>`);
  return attributes.join(', ');
}

function nodeLabel(node: PictureNode): string {
  const rows = [fontTag(kindLine(node), textColours.kind, 8), `<b>${fontTag(clip(node.name, 48), textColours.name)}</b>`];
  if (node.risks.length > 0) rows.push(fontTag(clip(`⚠ ${node.risks.map((r) => r.marker).join(', ')}`, 56), textColours.risks, 8));
  return table(rows);
}

/** What a block says it is: its type, with the family in brackets when the type is narrower; `no card` or `no type` when it has none. */
function kindLine(node: PictureNode): string {
  const type = node.type?.trim();
  if (type === undefined || type.length === 0) return node.card.resolved ? 'no type' : 'no card';
  if (node.family === 'unknown' || node.family === 'none') return clip(type, 40);
  const word = pictureFamilies[node.family].word;
  return type === node.family || type === word ? clip(type, 40) : `${clip(type, 40)} (${word})`;
}

function edgeAttributes(edge: PictureEdge, classes: readonly string[]): string {
  const severity = edge.severity === undefined ? undefined : severityLooks[edge.severity];
  const on = (name: string): boolean => classes.includes(name);
  const colour = severity?.colour === severityLooks.error.colour ? severity.colour : on('dp-leak') ? '#cf222e' : on('dp-relay') ? '#bc4c00' : on('dp-loop') ? '#8250df' : (severity?.colour ?? palette.edge);
  const width = on('dp-leak') || on('dp-relay') || on('dp-loop') ? 2.2 : (severity?.width ?? 1.2);
  const styles: string[] = [];
  if (on('dp-pending')) styles.push('dotted');
  else if (on('dp-fork-arm') || on('dp-relay')) styles.push('dashed');
  const attributes = [`id="${edge.key}"`, `class="${classes.join(' ')}"`, `color="${colour}"`, `penwidth=${width}`];
  if (styles.length > 0) attributes.push(`style="${styles.join(',')}"`);
  const label = edgeLabel(edge);
  if (label !== undefined) attributes.push(`label=<${label}>`);
  return attributes.join(', ');
}

function edgeLabel(edge: PictureEdge): string | undefined {
  const rows: string[] = [];
  const label = edge.label?.trim();
  if (label !== undefined && label.length > 0) rows.push(fontTag(clip(label, 40), textColours.label));
  const guard: string[] = [];
  if (edge.condition !== undefined && edge.condition.trim().length > 0) guard.push(`[${clip(edge.condition.trim(), 40)}]`);
  if (edge.weight !== undefined && edge.weight.trim().length > 0) guard.push(`weight ${clip(edge.weight.trim(), 12)}`);
  if (guard.length > 0) rows.push(fontTag(guard.join(' '), textColours.guard, 8));
  if (edge.ports !== undefined) {
    const ports = edge.ports.out === edge.ports.in ? edge.ports.out : `${edge.ports.out} → ${edge.ports.in}`;
    rows.push(fontTag(clip(`${ports}: ${edge.carries ?? 'any'}`, 48), textColours.data, 8));
  }
  return rows.length === 0 ? undefined : table(rows);
}

function captionOf(picture: Picture): string | undefined {
  if (!picture.graph.drawn) return 'No directed graph to draw: the topology could not be read as one.';
  if (picture.nodes.length === 0) return 'The topology declares no node.';
  return undefined;
}

function table(rows: readonly string[]): string {
  return `<table border="0" cellborder="0" cellspacing="0" cellpadding="1">${rows.map((row) => `<tr><td>${row}</td></tr>`).join('')}</table>`;
}

function fontTag(text: string, colour: string, size?: number): string {
  return `<font color="${colour}"${size !== undefined ? ` point-size="${size}"` : ''}>${escapeHtml(text)}</font>`;
}

/** The node key of a node id, by the model's own nodes (an edge's ends are always among them). */
function keyOf(picture: Picture, id: string): string | undefined {
  let keys = keysByPicture.get(picture);
  if (keys === undefined) {
    keys = new Map(picture.nodes.map((n) => [n.id, n.key] as const));
    keysByPicture.set(picture, keys);
  }
  return keys.get(id);
}

const keysByPicture = new WeakMap<Picture, Map<string, string>>();

/** At most `max` code points, the last one an ellipsis when the text was longer; line breaks read as spaces. */
function clip(text: string, max: number): string {
  const flat = text.replace(/[\r\n\u2028\u2029]+/g, ' ');
  if (flat.length <= max) return flat;
  const points = Array.from(flat);
  return points.length <= max ? flat : `${points.slice(0, max - 1).join('')}…`;
}

/**
 * Text for a Graphviz HTML-like label: markup characters as entities; a control character, a
 * non-character or half a surrogate pair (which the label's XML reader refuses) as `\u` and its
 * code, as the command prints them.
 */
function escapeHtml(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += text[i] + text[i + 1];
        i++;
        continue;
      }
    }
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || (c >= 0xd800 && c <= 0xdfff) || c === 0xfffe || c === 0xffff) {
      out += `\\u${c.toString(16).padStart(4, '0')}`;
      continue;
    }
    switch (text[i]) {
      case '&':
        out += '&amp;';
        break;
      case '<':
        out += '&lt;';
        break;
      case '>':
        out += '&gt;';
        break;
      case '"':
        out += '&quot;';
        break;
      case "'":
        out += '&#39;';
        break;
      default:
        out += text[i];
    }
  }
  return out;
}
