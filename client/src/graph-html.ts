/**
 * The page of `DarkPrint: Show Blueprint Graph` (./graph.ts), and everything about it that needs
 * no `vscode` API, so that it runs the same under a test: the HTML shell with its content security
 * policy, the messages between the page and the extension, what a hover shows for each node and
 * edge (`graphView`), which nodes and edges the cursor in a bundle file is about (`keysAt`), and
 * which files an export may not write over.
 *
 * The page holds no WebAssembly and loads nothing remote: the extension lays the picture out
 * (the engine's `renderPicture`) and posts the SVG, and the page's one script
 * (client/webview/graph-view.ts, built to `client/out/graph-view.js`) is a resource of the
 * extension, run by nonce. Colours come from VS Code's theme variables, so a light, dark or high
 * contrast theme restyles the same SVG; the classes it styles are docs/graph.md's.
 */
import type { Picture, PictureEdge, PictureFamily, PictureFinding, PictureNode } from '../../shared/src';
import type { ElementTip, FromPage, GraphView } from './graph-messages';

export type { ElementTip, FromPage, GraphView, ToPage } from './graph-messages';

export const showGraphCommand = 'darkprint.showGraph';
export const exportGraphCommand = 'darkprint.exportGraph';
/** The webview context menu's commands (contributed for `webviewId == 'darkprint.graph'`). */
export const graphOpenCardCommand = 'darkprint.graph.openCard';
export const graphRevealCommand = 'darkprint.graph.reveal';
export const graphViewType = 'darkprint.graph';

/** How many findings a hover lists before it says how many more there are. */
export const listedTipFindings = 8;

// ---- messages --------------------------------------------------------------------------------

/** Reads a message the page posted; undefined for anything else. */
export function readFromPage(message: unknown): FromPage | undefined {
  if (typeof message !== 'object' || message === null) return undefined;
  const { type, key } = message as { type?: unknown; key?: unknown };
  switch (type) {
    case 'ready':
    case 'export':
      return { type };
    case 'reveal':
    case 'openCard':
      return typeof key === 'string' && key.length <= 4096 ? { type, key } : undefined;
    default:
      return undefined;
  }
}

// ---- the page --------------------------------------------------------------------------------

export interface GraphPage {
  /** The webview's `cspSource`. */
  readonly cspSource: string;
  /** A fresh random nonce for this page's script and style. */
  readonly nonce: string;
  /** The webview URI of `client/out/graph-view.js`. */
  readonly scriptUri: string;
  readonly title: string;
}

export function renderGraphHtml(page: GraphPage): string {
  const nonce = escapeHtml(page.nonce);
  const policy = [`default-src 'none'`, `img-src ${page.cspSource} data:`, `style-src 'nonce-${nonce}'`, `script-src 'nonce-${nonce}'`, `font-src ${page.cspSource}`].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(policy)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeHtml(page.title)}</title>
<style nonce="${nonce}">
${graphStyle}
</style>
</head>
<body>
<header id="toolbar" role="toolbar" aria-label="Graph">
  <span class="group">
    <button type="button" id="fit" title="Fit the picture to the view (0)">Fit</button>
    <button type="button" id="zoom-out" title="Zoom out (-)" aria-label="Zoom out">−</button>
    <button type="button" id="zoom-in" title="Zoom in (+)" aria-label="Zoom in">+</button>
    <button type="button" id="actual" title="Actual size (1)">100%</button>
  </span>
  <span class="group" id="toggles">
${toggles.map((t) => `    <label title="${escapeHtml(t.title)}"><input type="checkbox" data-toggle="${t.id}" checked> ${escapeHtml(t.label)}</label>`).join('\n')}
  </span>
  <span class="group">
    <button type="button" id="legend-button" aria-pressed="false" aria-controls="legend">Legend</button>
    <button type="button" id="export" title="Write the picture to an SVG file">Export SVG…</button>
  </span>
  <span id="summary"></span>
</header>
<div id="banner" role="status" hidden></div>
<main id="viewport" tabindex="0" aria-label="Blueprint graph: drag to pan, wheel to zoom; click a block to show it in the topology, Ctrl+click to open its card">
  <div id="stage"></div>
  <p id="message">Asking the language server for the picture…</p>
  <p id="hint" hidden>Drag to pan · wheel to zoom · Fit shows it all</p>
</main>
<aside id="legend" hidden>
${legendHtml()}
</aside>
<details id="unsettled" hidden><summary></summary><ul></ul></details>
<div id="tip" role="tooltip" hidden></div>
<script nonce="${nonce}" src="${escapeHtml(page.scriptUri)}"></script>
</body>
</html>
`;
}

/** The overlay toggles: each adds `hide-<id>` to the body when unchecked. */
export const toggles: readonly { readonly id: string; readonly label: string; readonly title: string }[] = [
  { id: 'risk', label: 'Risk', title: 'The risk markers under each block' },
  { id: 'findings', label: 'Findings', title: 'Borders and wires coloured by their worst finding' },
  { id: 'data', label: 'Ports & data', title: 'The port pair and data type on each wire' },
  { id: 'analysis', label: 'Analysis', title: 'Criteria-leak routes, relays through a judge, uncapped loops, unguarded forks' },
];

/** The legend's entries: the block of each family, the border of each severity, each kind of wire. */
export const legendEntries = {
  families: [
    ['agent', 'agent'],
    ['tool', 'tool'],
    ['evaluative', 'evaluative (judge)'],
    ['human-in-the-loop', 'human in the loop'],
    ['orchestration', 'orchestration'],
    ['none', 'no card yet (dashed)'],
  ] as readonly (readonly [PictureFamily, string])[],
  severities: [
    ['error', 'error on it'],
    ['warning', 'warning on it'],
    ['info', 'info on it'],
  ] as readonly (readonly [string, string])[],
  wires: [
    ['', 'wire, with its ports and data'],
    ['dp-leak', 'criteria-leak route'],
    ['dp-relay', 'criteria relayed through a judge'],
    ['dp-loop', 'cycle with no iteration cap'],
    ['dp-fork-arm', 'unguarded fork arm'],
    ['dp-pending', 'an end has no card yet'],
  ] as readonly (readonly [string, string])[],
};

function legendHtml(): string {
  const block = (classes: string, text: string): string =>
    `<li><svg class="swatch" width="34" height="18" viewBox="0 0 34 18" aria-hidden="true"><g class="node dp-node ${classes}"><path d="M4,1 H30 Q33,1 33,4 V14 Q33,17 30,17 H4 Q1,17 1,14 V4 Q1,1 4,1 Z" fill="#ffffff" stroke="#8c959f"/></g></svg>${escapeHtml(text)}</li>`;
  const wire = (classes: string, text: string): string =>
    `<li><svg class="swatch" width="34" height="18" viewBox="0 0 34 18" aria-hidden="true"><g class="edge dp-edge ${classes}"><path d="M2,9 H26" fill="none" stroke="#57606a"/><polygon points="26,5 33,9 26,13" fill="#57606a" stroke="#57606a"/></g></svg>${escapeHtml(text)}</li>`;
  const parts: string[] = [];
  parts.push('<h2>Blocks</h2><ul>');
  for (const [family, text] of legendEntries.families) parts.push(block(`dp-family-${family}${family === 'none' ? ' dp-unresolved' : ''}`, text));
  parts.push('</ul><h2>Borders</h2><ul>');
  for (const [severity, text] of legendEntries.severities) parts.push(block(`dp-family-tool dp-sev-${severity}`, text));
  parts.push(block('dp-family-tool dp-selected', 'where the cursor is'));
  parts.push('</ul><h2>Wires</h2><ul>');
  for (const [classes, text] of legendEntries.wires) parts.push(wire(classes, text));
  parts.push('</ul><p class="muted">Click a block or wire to show it in the topology; Ctrl+click (⌘+click) a block, or its context menu, to open its card.</p>');
  return parts.join('\n');
}

/**
 * The page's stylesheet. Graphviz's own colours (./dot.ts in the engine) are overridden by class
 * with theme variables; a text keeps its size and place, so hiding one never moves the drawing.
 */
const graphStyle = `
:root { --dp-edge: color-mix(in srgb, var(--vscode-editor-foreground) 55%, transparent); --dp-muted: var(--vscode-descriptionForeground); }
html, body { height: 100%; margin: 0; padding: 0; overflow: hidden; }
body { display: flex; flex-direction: column; font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); background: var(--vscode-editor-background); }
#toolbar { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 14px; padding: 6px 10px; border-bottom: 1px solid var(--vscode-panel-border, transparent); }
#toolbar .group { display: inline-flex; align-items: center; gap: 4px; }
#toolbar label { display: inline-flex; align-items: center; gap: 3px; cursor: pointer; user-select: none; }
button { font: inherit; color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground); border: 1px solid var(--vscode-button-border, transparent); border-radius: 2px; padding: 2px 8px; cursor: pointer; }
button:hover { background: var(--vscode-button-secondaryHoverBackground); }
button[aria-pressed="true"] { color: var(--vscode-button-foreground); background: var(--vscode-button-background); }
button:focus-visible, input:focus-visible, #viewport:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 1px; }
#summary { color: var(--dp-muted); margin-left: auto; }
#banner { padding: 6px 10px; color: var(--vscode-inputValidation-warningForeground, var(--vscode-foreground)); background: var(--vscode-inputValidation-warningBackground); border-bottom: 1px solid var(--vscode-inputValidation-warningBorder); white-space: pre-wrap; }
#viewport { position: relative; flex: 1; overflow: hidden; cursor: grab; touch-action: none; }
#viewport.panning { cursor: grabbing; }
#stage { position: absolute; left: 0; top: 0; transform-origin: 0 0; }
#message { position: absolute; left: 16px; top: 8px; color: var(--dp-muted); margin: 0; }
#hint { position: absolute; right: 10px; bottom: 6px; margin: 0; color: var(--dp-muted); pointer-events: none; }
#legend { position: absolute; right: 10px; top: 44px; max-height: calc(100% - 60px); overflow: auto; padding: 4px 12px 8px; background: var(--vscode-editorWidget-background); color: var(--vscode-editorWidget-foreground); border: 1px solid var(--vscode-editorWidget-border, var(--vscode-contrastBorder, transparent)); box-shadow: 0 2px 8px var(--vscode-widget-shadow, transparent); max-width: 260px; }
#legend h2 { font-size: 1em; margin: 8px 0 4px; }
#legend ul { list-style: none; margin: 0; padding: 0; }
#legend li { display: flex; align-items: center; gap: 8px; margin: 2px 0; }
#legend .muted { color: var(--dp-muted); margin: 8px 0 0; }
#unsettled { position: absolute; left: 10px; bottom: 10px; max-width: 60%; max-height: 40%; overflow: auto; padding: 4px 10px; background: var(--vscode-editorWidget-background); border: 1px solid var(--vscode-editorWidget-border, var(--vscode-contrastBorder, transparent)); }
#unsettled summary { cursor: pointer; }
#unsettled ul { margin: 4px 0; padding-left: 18px; }
#tip { position: fixed; z-index: 10; max-width: 420px; padding: 6px 9px; pointer-events: none; background: var(--vscode-editorHoverWidget-background); color: var(--vscode-editorHoverWidget-foreground); border: 1px solid var(--vscode-editorHoverWidget-border); box-shadow: 0 2px 8px var(--vscode-widget-shadow, transparent); }
#tip .title { font-weight: bold; }
#tip .line { color: var(--dp-muted); }
#tip ul { margin: 4px 0 0; padding-left: 16px; }
#tip .sev-error { color: var(--vscode-editorError-foreground); }
#tip .sev-warning { color: var(--vscode-editorWarning-foreground); }
#tip .sev-info { color: var(--vscode-editorInfo-foreground); }
[hidden] { display: none !important; }

/* the drawing: texts */
.dp-picture text { font-family: Arial, Helvetica, "Liberation Sans", Arimo, "DejaVu Sans Condensed", sans-serif; fill: var(--vscode-editor-foreground); }
.dp-picture text.dp-kind, .dp-picture text.dp-guard, .dp-picture text.dp-caption { fill: var(--dp-muted); }
.dp-picture text.dp-data { fill: var(--vscode-textLink-foreground); }
.dp-picture text.dp-risks { fill: var(--vscode-editorWarning-foreground); }
body.hide-risk .dp-picture text.dp-risks, body.hide-data .dp-picture text.dp-data { visibility: hidden; }

/* blocks: fill and border by family (the first shape of a block is its outline) */
.dp-node { cursor: pointer; --dp-hue: var(--dp-muted); }
.dp-family-agent { --dp-hue: var(--vscode-charts-blue); }
.dp-family-tool { --dp-hue: var(--vscode-charts-foreground, var(--vscode-editor-foreground)); }
.dp-family-evaluative { --dp-hue: var(--vscode-charts-yellow); }
.dp-family-human-in-the-loop { --dp-hue: var(--vscode-charts-purple); }
.dp-family-orchestration { --dp-hue: var(--vscode-charts-green); }
.dp-family-unknown, .dp-family-none { --dp-hue: var(--dp-muted); }
.dp-node > path, .dp-node > polygon, .dp-node > ellipse, .dp-node > polyline { fill: color-mix(in srgb, var(--dp-hue) 18%, var(--vscode-editor-background)); stroke: var(--dp-hue); stroke-width: 1.2px; }
.dp-node > polyline { fill: none; }
.dp-node.dp-family-unknown > path, .dp-node.dp-family-none > path, .dp-node.dp-unresolved > path, .dp-node.dp-unresolved > polygon { fill: var(--vscode-editor-background); stroke-dasharray: 5 2; }
body:not(.hide-findings) .dp-node.dp-sev-info > :is(path, polygon) { stroke: var(--vscode-editorInfo-foreground); stroke-width: 1.6px; }
body:not(.hide-findings) .dp-node.dp-sev-warning > :is(path, polygon) { stroke: var(--vscode-editorWarning-foreground); stroke-width: 2px; }
body:not(.hide-findings) .dp-node.dp-sev-error > :is(path, polygon) { stroke: var(--vscode-editorError-foreground); stroke-width: 2.4px; }
.dp-node:hover > :is(path, polygon) { stroke-width: 2.6px; }

/* wires */
.dp-edge { cursor: pointer; }
.dp-edge > path { stroke: var(--dp-edge); fill: none; stroke-width: 1.2px; }
.dp-edge > polygon { stroke: var(--dp-edge); fill: var(--dp-edge); }
.dp-edge > path.dp-hit { stroke: transparent; stroke-width: 12px; stroke-dasharray: none; }
.dp-edge.dp-pending > path:not(.dp-hit) { stroke-dasharray: 2 3; }
body:not(.hide-analysis) .dp-edge.dp-fork-arm > path:not(.dp-hit) { stroke-dasharray: 6 3; }
body:not(.hide-analysis) .dp-edge.dp-loop > :is(path:not(.dp-hit), polygon) { stroke: var(--vscode-charts-purple); stroke-width: 2.2px; }
body:not(.hide-analysis) .dp-edge.dp-loop > polygon { fill: var(--vscode-charts-purple); }
body:not(.hide-analysis) .dp-edge.dp-relay > :is(path:not(.dp-hit), polygon) { stroke: var(--vscode-charts-orange); stroke-width: 2.2px; }
body:not(.hide-analysis) .dp-edge.dp-relay > path:not(.dp-hit) { stroke-dasharray: 6 3; }
body:not(.hide-analysis) .dp-edge.dp-relay > polygon { fill: var(--vscode-charts-orange); }
body:not(.hide-analysis) .dp-edge.dp-leak > :is(path:not(.dp-hit), polygon) { stroke: var(--vscode-charts-red); stroke-width: 2.4px; }
body:not(.hide-analysis) .dp-edge.dp-leak > polygon { fill: var(--vscode-charts-red); }
body:not(.hide-findings) .dp-edge.dp-sev-warning > :is(path:not(.dp-hit), polygon) { stroke: var(--vscode-editorWarning-foreground); }
body:not(.hide-findings) .dp-edge.dp-sev-warning > polygon { fill: var(--vscode-editorWarning-foreground); }
body:not(.hide-findings) .dp-edge.dp-sev-error > :is(path:not(.dp-hit), polygon) { stroke: var(--vscode-editorError-foreground); stroke-width: 2.2px; }
body:not(.hide-findings) .dp-edge.dp-sev-error > polygon { fill: var(--vscode-editorError-foreground); }
.dp-edge:hover > path:not(.dp-hit) { stroke-width: 2.6px; }

/* where the cursor is */
.dp-selected > :is(path:not(.dp-hit), polygon) { stroke: var(--vscode-focusBorder) !important; stroke-width: 3px !important; }
.dp-selected { filter: drop-shadow(0 0 3px var(--vscode-focusBorder)); }

/* high contrast: outlines in the contrast border, no tinted fills */
body.vscode-high-contrast .dp-node > :is(path, polygon), body.vscode-high-contrast-light .dp-node > :is(path, polygon) { fill: var(--vscode-editor-background); }
body.vscode-high-contrast .dp-edge > path:not(.dp-hit), body.vscode-high-contrast-light .dp-edge > path:not(.dp-hit) { stroke: var(--vscode-contrastBorder, var(--vscode-editor-foreground)); }
body.vscode-high-contrast .dp-edge > polygon, body.vscode-high-contrast-light .dp-edge > polygon { stroke: var(--vscode-contrastBorder, var(--vscode-editor-foreground)); fill: var(--vscode-contrastBorder, var(--vscode-editor-foreground)); }
.swatch { flex: none; }
`;

// ---- what a hover shows ----------------------------------------------------------------------

/** The view of a picture: the summary line, each node's and edge's hover, what is left to settle. */
export function graphView(picture: Picture): GraphView {
  return {
    summary: summaryOf(picture),
    nodes: picture.nodes.map(nodeTip),
    edges: picture.edges.map((edge) => edgeTip(edge, picture)),
    unsettled: picture.unsettled.map((u) => u.message),
  };
}

function summaryOf(picture: Picture): string {
  const { header } = picture;
  const parts: string[] = [];
  if (header.title !== '') parts.push(header.title);
  if (header.security !== undefined) parts.push(`security ${header.security.level}/4`);
  if (header.autonomy !== undefined) parts.push(`autonomy ${header.autonomy.label}`);
  if (header.phases !== undefined && header.phases.missing.length > 0) parts.push(`missing ${header.phases.missing.join(', ')}`);
  const { error, warning, info } = header.counts;
  parts.push(`${count(error, 'error')}, ${count(warning, 'warning')}, ${count(info, 'info')}`);
  return parts.join(' · ');
}

export function nodeTip(node: PictureNode): ElementTip {
  const lines: string[] = [];
  const kind = node.type !== undefined && node.type.trim() !== '' ? `${node.type}${node.family !== 'unknown' && node.family !== 'none' && node.family !== node.type ? ` (${node.family})` : ''}` : undefined;
  lines.push(`${node.id}${kind !== undefined ? `: ${kind}` : ''}`);
  if (node.card.ref === undefined) lines.push('pins no card');
  else lines.push(`card ${node.card.ref}${node.card.resolved ? '' : ' — does not resolve to a valid card'}`);
  if (node.phases.length > 0) lines.push(`phases: ${node.phases.join(', ')}`);
  if (node.human) lines.push('a person acts here');
  if (node.risks.length > 0) lines.push(`risks: ${node.risks.map((r) => `${r.marker} (−${r.weight.toFixed(2)}, ${r.establishedBy})`).join(', ')}`);
  return { key: node.key, title: node.name, lines, ...findingsOf(node.findings) };
}

export function edgeTip(edge: PictureEdge, picture: Picture): ElementTip {
  const lines: string[] = [];
  if (edge.label !== undefined && edge.label.trim() !== '') lines.push(`label: ${edge.label}`);
  const guard = [edge.condition !== undefined ? `condition ${edge.condition}` : '', edge.weight !== undefined ? `weight ${edge.weight}` : ''].filter((g) => g !== '');
  if (guard.length > 0) lines.push(guard.join(', '));
  if (edge.ports !== undefined) lines.push(`${edge.ports.out} → ${edge.ports.in}: ${edge.carries ?? 'any'}`);
  else {
    const settle = picture.unsettled.find((u) => u.kind === 'carries-nothing' && u.edge === edge.index);
    lines.push(settle !== undefined ? `carries nothing: ${settle.message}` : 'carries nothing yet');
  }
  if (edge.closesCycle) lines.push('closes a cycle');
  return { key: edge.key, title: `${edge.source} → ${edge.target}`, lines, ...findingsOf(edge.findings) };
}

function findingsOf(findings: readonly PictureFinding[]): Pick<ElementTip, 'findings' | 'more'> {
  const order = { error: 0, warning: 1, info: 2 } as const;
  const sorted = [...findings].sort((a, b) => order[a.severity] - order[b.severity]);
  return {
    findings: sorted.slice(0, listedTipFindings).map((f) => ({ severity: f.severity, text: `${f.code}: ${f.message}` })),
    more: Math.max(0, sorted.length - listedTipFindings),
  };
}

// ---- where the cursor is ---------------------------------------------------------------------

/**
 * The keys of the nodes and edges a cursor (0-based line and character, as an editor counts them)
 * in a bundle file is about. In the topology: the node statements and edges whose text holds it,
 * an edge's two ends with it, else the node the word under the cursor names (`word`). In a card:
 * every node that pins it.
 */
export function keysAt(picture: Picture, file: string, line: number, character: number, word?: string): string[] {
  const keys: string[] = [];
  if (file === picture.graph.file) {
    const at = { line: line + 1, column: character + 1 };
    const nodeKeys = new Map(picture.nodes.map((n) => [n.id, n.key] as const));
    for (const node of picture.nodes) if (holds(node.place, at)) keys.push(node.key);
    for (const edge of picture.edges) {
      if (!holds(edge.place, at)) continue;
      keys.push(edge.key);
      for (const end of [edge.source, edge.target]) {
        const key = nodeKeys.get(end);
        if (key !== undefined && !keys.includes(key)) keys.push(key);
      }
    }
    if (keys.length === 0 && word !== undefined) {
      const key = nodeKeys.get(word);
      if (key !== undefined) keys.push(key);
    }
    return keys;
  }
  for (const node of picture.nodes) if (node.card.place?.file === file) keys.push(node.key);
  return keys;
}

/** Whether a place holds a position (its end inclusive: a cursor just after the statement is still on it). */
function holds(place: { readonly line: number; readonly column: number; readonly endLine: number; readonly endColumn: number }, at: { readonly line: number; readonly column: number }): boolean {
  const afterStart = at.line > place.line || (at.line === place.line && at.column >= place.column);
  const beforeEnd = at.line < place.endLine || (at.line === place.endLine && at.column <= place.endColumn);
  return afterStart && beforeEnd;
}

/**
 * Whether a path relative to the bundle folder names a file the bundle reads (its topology, its
 * manifest, its vocabulary, a card), which an export never writes over.
 */
export function isBundleFile(relative: string, picture: Picture): boolean {
  if (relative === picture.graph.file) return true;
  if (/^(blueprint|extensions)\.(ya?ml|json)$/i.test(relative) || /^[^/]*\.(dot|gv)$/i.test(relative)) return true;
  return relative === 'ontology/extensions.yaml' || /^cards\/.*\.(ya?ml|json)$/i.test(relative);
}

// ---- helpers ---------------------------------------------------------------------------------

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 || noun === 'info' ? '' : 's'}`;
}
