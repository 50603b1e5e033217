/**
 * The script of the graph page (client/src/graph-html.ts writes the page; scripts/build.mjs
 * bundles this file to `client/out/graph-view.js`, which the page loads by nonce). It shows the
 * SVG the extension posts, and keeps the view: pan (drag, arrows), zoom (wheel, +/-), fit (0),
 * the overlay toggles and the legend, all kept in the webview's state across redraws and reloads.
 * A new picture replaces the old in one step (never a blank page between), and keeps the view
 * unless the view was fitted, when it fits the new picture. Clicking a block or wire asks the
 * extension to show it in the topology; Ctrl/⌘/Alt+click on a block asks for its card; a hover
 * shows the block's or wire's facts and findings, built as text (nothing posted is read as HTML
 * but the SVG, which the engine's renderer writes with every text escaped).
 */
import type { ElementTip, FromPage, GraphView, ToPage } from '../src/graph-messages';
import { fitTransform, identity, legibleScale, overflows, readTransform, wheelFactor, zoomAbout, type ViewTransform } from '../src/graph-zoom';

interface VsCodeApi {
  postMessage(message: FromPage): void;
  getState(): unknown;
  setState(state: SavedState): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

/**
 * How the view fits the picture until the user pans or zooms: `legible` (the first view: the
 * whole picture, or as much of it as fits with its texts legible) or `whole` (the Fit button).
 */
type Fit = 'legible' | 'whole' | 'none';

interface SavedState {
  readonly view?: ViewTransform;
  readonly fitted: Fit;
  readonly hidden: readonly string[];
  readonly legend: boolean;
}

const vscode = acquireVsCodeApi();
const element = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;
const viewport = element<HTMLElement>('viewport');
const stage = element<HTMLDivElement>('stage');
const message = element<HTMLParagraphElement>('message');
const banner = element<HTMLDivElement>('banner');
const summary = element<HTMLSpanElement>('summary');
const legend = element<HTMLElement>('legend');
const legendButton = element<HTMLButtonElement>('legend-button');
const unsettled = element<HTMLDetailsElement>('unsettled');
const tip = element<HTMLDivElement>('tip');
const hint = element<HTMLParagraphElement>('hint');

const saved = readState(vscode.getState());
let view: ViewTransform = saved.view ?? identity;
let fitted = saved.fitted;
let hidden = new Set(saved.hidden);
let legendShown = saved.legend;
let drawing: { width: number; height: number } | undefined;
let tips = new Map<string, ElementTip>();
let bundle = '';
let highlighted: readonly string[] = [];

// ---- messages from the extension ----------------------------------------------------------

window.addEventListener('message', (event: MessageEvent<ToPage>) => {
  const data = event.data;
  switch (data.type) {
    case 'picture':
      showPicture(data.svg, data.view, data.bundle);
      showBanner(data.banner);
      break;
    case 'banner':
      showBanner(data.text);
      break;
    case 'highlight':
      highlight(data.keys);
      break;
    case 'message':
      if (drawing === undefined) {
        message.textContent = data.text;
        message.hidden = false;
      } else showBanner(data.text);
      break;
  }
});

function showPicture(svgText: string, graphView: GraphView, bundleUri: string): void {
  const parsed = new DOMParser().parseFromString(svgText, 'image/svg+xml');
  const svg = parsed.documentElement;
  if (svg.nodeName !== 'svg' || parsed.getElementsByTagName('parsererror').length > 0) {
    showBanner('The picture could not be read; edit the bundle to draw it again.');
    return;
  }
  const box = (svg.getAttribute('viewBox') ?? '').split(/[\s,]+/).map(Number);
  // (Graphviz measures in points: 4/3 of a CSS pixel)
  const width = Number.isFinite(box[2]) ? box[2] * (4 / 3) : 400;
  const height = Number.isFinite(box[3]) ? box[3] * (4 / 3) : 300;
  svg.setAttribute('width', String(width));
  svg.setAttribute('height', String(height));
  bundle = bundleUri;
  tips = new Map([...graphView.nodes, ...graphView.edges].map((t) => [t.key, t] as const));
  for (const group of Array.from(svg.querySelectorAll<SVGGElement>('g.dp-node, g.dp-edge'))) prepare(group);
  // one step from the old picture to the new
  stage.replaceChildren(document.importNode(svg, true));
  message.hidden = true;
  drawing = { width, height };
  for (const node of Array.from(stage.querySelectorAll<SVGGElement>('g.dp-node'))) fitTexts(node);
  summary.textContent = graphView.summary;
  showUnsettled(graphView.unsettled);
  if (fitted !== 'none') view = fitted === 'whole' ? fitTransform(drawing, viewportSize()) : fitTransform(drawing, viewportSize(), { smallest: legibleScale });
  apply();
  highlight(highlighted);
}

/** Marks an element for the context menu and gives a wire a wider, invisible line to point at. */
function prepare(group: SVGGElement): void {
  const node = group.classList.contains('dp-node');
  group.setAttribute('data-vscode-context', JSON.stringify({ webviewSection: node ? 'node' : 'edge', bundle, key: group.id, preventDefaultContextMenuItems: true }));
  if (node) return;
  const line = group.querySelector('path');
  if (line === null) return;
  const hit = line.cloneNode(false) as SVGPathElement;
  hit.setAttribute('class', 'dp-hit');
  group.insertBefore(hit, line);
}

/**
 * Keeps a block's texts inside it when the font shown is wider than the one Graphviz measured
 * (a machine without Arial or Helvetica): each text is centred on the block, and narrowed to fit.
 */
function fitTexts(node: SVGGElement): void {
  const outline = node.querySelector<SVGGraphicsElement>('path, polygon');
  if (outline === null) return;
  const box = outline.getBBox();
  const room = box.width * (outline.tagName === 'polygon' ? 0.72 : 0.9);
  for (const text of Array.from(node.querySelectorAll<SVGTextElement>('text'))) {
    text.setAttribute('text-anchor', 'middle');
    text.setAttribute('x', String(box.x + box.width / 2));
    if (text.getComputedTextLength() > room) {
      text.setAttribute('textLength', String(room));
      text.setAttribute('lengthAdjust', 'spacingAndGlyphs');
    }
  }
}

function showBanner(text: string | undefined): void {
  banner.textContent = text ?? '';
  banner.hidden = text === undefined || text === '';
}

function showUnsettled(items: readonly string[]): void {
  unsettled.hidden = items.length === 0;
  const head = unsettled.querySelector('summary')!;
  head.textContent = `Still to settle (${items.length})`;
  const list = unsettled.querySelector('ul')!;
  list.replaceChildren(
    ...items.slice(0, 200).map((item) => {
      const entry = document.createElement('li');
      entry.textContent = item;
      return entry;
    }),
  );
  if (items.length > 200) {
    const more = document.createElement('li');
    more.textContent = `…and ${items.length - 200} more.`;
    list.append(more);
  }
}

function highlight(keys: readonly string[]): void {
  highlighted = keys;
  for (const old of Array.from(stage.querySelectorAll('.dp-selected'))) old.classList.remove('dp-selected');
  for (const key of keys) document.getElementById(key)?.classList.add('dp-selected');
}

// ---- the view ----------------------------------------------------------------------------

function viewportSize(): { width: number; height: number } {
  return { width: viewport.clientWidth, height: viewport.clientHeight };
}

function apply(): void {
  stage.style.transform = `translate(${view.x}px, ${view.y}px) scale(${view.scale})`;
  hint.hidden = drawing === undefined || !overflows(drawing, viewportSize(), view);
  save();
}

function save(): void {
  vscode.setState({ view, fitted, hidden: [...hidden], legend: legendShown });
}

function fit(how: Fit = 'whole'): void {
  if (drawing === undefined) return;
  fitted = how;
  view = how === 'whole' ? fitTransform(drawing, viewportSize()) : fitTransform(drawing, viewportSize(), { smallest: legibleScale });
  apply();
}

function moveTo(next: ViewTransform): void {
  fitted = 'none';
  view = next;
  apply();
}

function zoomBy(factor: number, point = { x: viewport.clientWidth / 2, y: viewport.clientHeight / 2 }): void {
  moveTo(zoomAbout(view, point, factor));
}

element('fit').addEventListener('click', () => fit('whole'));
element('zoom-in').addEventListener('click', () => zoomBy(1.25));
element('zoom-out').addEventListener('click', () => zoomBy(0.8));
element('actual').addEventListener('click', () => zoomBy(1 / view.scale));
element('export').addEventListener('click', () => vscode.postMessage({ type: 'export' }));

viewport.addEventListener(
  'wheel',
  (event) => {
    event.preventDefault();
    const bounds = viewport.getBoundingClientRect();
    zoomBy(wheelFactor(event.deltaMode === 1 ? event.deltaY * 40 : event.deltaY), { x: event.clientX - bounds.left, y: event.clientY - bounds.top });
  },
  { passive: false },
);

viewport.addEventListener('keydown', (event) => {
  const step = 60;
  const keys: Record<string, () => void> = {
    '+': () => zoomBy(1.25),
    '=': () => zoomBy(1.25),
    '-': () => zoomBy(0.8),
    '0': () => fit('whole'),
    '1': () => zoomBy(1 / view.scale),
    ArrowLeft: () => moveTo({ ...view, x: view.x + step }),
    ArrowRight: () => moveTo({ ...view, x: view.x - step }),
    ArrowUp: () => moveTo({ ...view, y: view.y + step }),
    ArrowDown: () => moveTo({ ...view, y: view.y - step }),
  };
  const run = Object.prototype.hasOwnProperty.call(keys, event.key) ? keys[event.key] : undefined;
  if (run === undefined || event.ctrlKey || event.metaKey || event.altKey) return;
  event.preventDefault();
  run();
});

// A press that moves less than a few pixels is a click on what lies under it; more is a pan.
let press: { id: number; x: number; y: number; start: ViewTransform; moved: boolean } | undefined;

viewport.addEventListener('pointerdown', (event) => {
  if (event.button !== 0) return;
  press = { id: event.pointerId, x: event.clientX, y: event.clientY, start: view, moved: false };
  viewport.setPointerCapture(event.pointerId);
});

viewport.addEventListener('pointermove', (event) => {
  if (press === undefined || event.pointerId !== press.id) {
    moveTip(event);
    return;
  }
  const dx = event.clientX - press.x;
  const dy = event.clientY - press.y;
  if (!press.moved && Math.hypot(dx, dy) < 4) return;
  if (!press.moved) {
    press.moved = true;
    viewport.classList.add('panning');
    hideTip();
  }
  moveTo({ ...press.start, x: press.start.x + dx, y: press.start.y + dy });
});

const endPress = (event: PointerEvent): void => {
  if (press === undefined || event.pointerId !== press.id) return;
  const clicked = !press.moved && event.type === 'pointerup';
  press = undefined;
  viewport.classList.remove('panning');
  if (!clicked) return;
  // (the capture retargets the event at the viewport: find what lies under the pointer)
  const under = document.elementFromPoint(event.clientX, event.clientY);
  const target = under?.closest<SVGGElement>('g.dp-node, g.dp-edge');
  if (target === null || target === undefined) return;
  const card = target.classList.contains('dp-node') && (event.ctrlKey || event.metaKey || event.altKey);
  vscode.postMessage(card ? { type: 'openCard', key: target.id } : { type: 'reveal', key: target.id });
};
viewport.addEventListener('pointerup', endPress);
viewport.addEventListener('pointercancel', endPress);

// (an element brought into view, by focus or a find, would scroll the viewport under the view: it never scrolls)
viewport.addEventListener('scroll', () => {
  viewport.scrollLeft = 0;
  viewport.scrollTop = 0;
});

new ResizeObserver(() => {
  if (fitted !== 'none' && drawing !== undefined) fit(fitted);
  else if (drawing !== undefined) apply();
}).observe(viewport);

// ---- hover --------------------------------------------------------------------------------

let tipKey: string | undefined;

function moveTip(event: PointerEvent): void {
  const target = (event.target as Element | null)?.closest?.<SVGGElement>('g.dp-node, g.dp-edge');
  const shown = target === null || target === undefined ? undefined : tips.get(target.id);
  if (shown === undefined) {
    hideTip();
    return;
  }
  if (tipKey !== shown.key) {
    tipKey = shown.key;
    fillTip(shown);
    tip.hidden = false;
  }
  const margin = 14;
  const left = Math.min(event.clientX + margin, window.innerWidth - tip.offsetWidth - 4);
  const top = event.clientY + margin + tip.offsetHeight > window.innerHeight ? event.clientY - tip.offsetHeight - margin : event.clientY + margin;
  tip.style.left = `${Math.max(4, left)}px`;
  tip.style.top = `${Math.max(4, top)}px`;
}

function fillTip(shown: ElementTip): void {
  const title = document.createElement('div');
  title.className = 'title';
  title.textContent = shown.title;
  const parts: HTMLElement[] = [title];
  for (const line of shown.lines) {
    const entry = document.createElement('div');
    entry.className = 'line';
    entry.textContent = line;
    parts.push(entry);
  }
  if (shown.findings.length > 0) {
    const list = document.createElement('ul');
    for (const finding of shown.findings) {
      const entry = document.createElement('li');
      entry.className = `sev-${finding.severity}`;
      entry.textContent = `${finding.severity} ${finding.text}`;
      list.append(entry);
    }
    if (shown.more > 0) {
      const more = document.createElement('li');
      more.textContent = `…and ${shown.more} more`;
      list.append(more);
    }
    parts.push(list);
  }
  tip.replaceChildren(...parts);
}

function hideTip(): void {
  tipKey = undefined;
  tip.hidden = true;
}

viewport.addEventListener('pointerleave', hideTip);

// ---- toggles and legend -------------------------------------------------------------------

for (const box of Array.from(document.querySelectorAll<HTMLInputElement>('input[data-toggle]'))) {
  const name = box.dataset.toggle ?? '';
  box.checked = !hidden.has(name);
  document.body.classList.toggle(`hide-${name}`, hidden.has(name));
  box.addEventListener('change', () => {
    if (box.checked) hidden.delete(name);
    else hidden.add(name);
    document.body.classList.toggle(`hide-${name}`, !box.checked);
    save();
  });
}

function showLegend(shown: boolean): void {
  legendShown = shown;
  legend.hidden = !shown;
  legendButton.setAttribute('aria-pressed', String(shown));
}
showLegend(legendShown);
legendButton.addEventListener('click', () => {
  showLegend(!legendShown);
  save();
});

function readState(value: unknown): SavedState {
  const record = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const view = readTransform(record.view);
  const hiddenList = Array.isArray(record.hidden) ? record.hidden.filter((entry): entry is string => typeof entry === 'string') : [];
  const fit: Fit = view === undefined ? 'legible' : record.fitted === 'whole' || record.fitted === 'none' ? record.fitted : 'legible';
  return { ...(view !== undefined ? { view } : {}), fitted: fit, hidden: hiddenList, legend: record.legend === true };
}

vscode.postMessage({ type: 'ready' });
