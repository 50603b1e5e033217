/**
 * Pan and zoom of the graph page (client/webview/graph-view.ts) as plain arithmetic, so that a test
 * checks it without a browser: a view is a translation and a scale applied to the drawing
 * (`screen = drawing × scale + offset`).
 */

export interface ViewTransform {
  readonly x: number;
  readonly y: number;
  readonly scale: number;
}

export interface Size {
  readonly width: number;
  readonly height: number;
}

/** The scales a view keeps to: from a 2,000-node overview to a close look at one label. */
export const minScale = 0.02;
export const maxScale = 8;

export const identity: ViewTransform = { x: 0, y: 0, scale: 1 };

export interface FitOptions {
  /** Room kept free around the drawing, in pixels. */
  readonly margin?: number;
  /** The largest scale a fit takes (a two-node picture stays its own size rather than filling the pane). */
  readonly largest?: number;
  /**
   * The smallest: a drawing that would need less is shown at this scale from its start (its
   * first ranks at the left or top, centred on the other axis where it fits), to be panned.
   */
  readonly smallest?: number;
}

/** The scale at which a drawing's texts stay legible: the view's first fit goes no smaller. */
export const legibleScale = 0.75;

/** The view that shows the whole drawing centred in the viewport with a margin, within the fit's scales. */
export function fitTransform(drawing: Size, viewport: Size, options: FitOptions = {}): ViewTransform {
  const margin = options.margin ?? 16;
  if (drawing.width <= 0 || drawing.height <= 0 || viewport.width <= 0 || viewport.height <= 0) return identity;
  const room = { width: Math.max(1, viewport.width - 2 * margin), height: Math.max(1, viewport.height - 2 * margin) };
  const whole = Math.min(room.width / drawing.width, room.height / drawing.height, options.largest ?? 1.25);
  const scale = clampScale(Math.max(whole, options.smallest ?? 0));
  const place = (size: number, free: number, inner: number): number => (size * scale <= inner ? (free - size * scale) / 2 : margin);
  return { x: place(drawing.width, viewport.width, room.width), y: place(drawing.height, viewport.height, room.height), scale };
}

/** Whether the drawing, so viewed, reaches beyond the viewport (then the page says it can be panned). */
export function overflows(drawing: Size, viewport: Size, view: ViewTransform): boolean {
  const slack = 1;
  return view.x < -slack || view.y < -slack || view.x + drawing.width * view.scale > viewport.width + slack || view.y + drawing.height * view.scale > viewport.height + slack;
}

/** The view zoomed by `factor` about a point of the viewport, which stays where it is on screen. */
export function zoomAbout(view: ViewTransform, point: { readonly x: number; readonly y: number }, factor: number): ViewTransform {
  const scale = clampScale(view.scale * factor);
  const applied = scale / view.scale;
  return { x: point.x - (point.x - view.x) * applied, y: point.y - (point.y - view.y) * applied, scale };
}

/** The zoom factor of one wheel event (`deltaY` in pixels): a notch of about 100 pixels is about ×1.2. */
export function wheelFactor(deltaY: number): number {
  return Math.exp(-Math.max(-300, Math.min(300, deltaY)) * 0.0018);
}

export function clampScale(scale: number): number {
  if (!Number.isFinite(scale)) return 1;
  return Math.min(maxScale, Math.max(minScale, scale));
}

/** A view read back from saved state; undefined for anything that is not one. */
export function readTransform(value: unknown): ViewTransform | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { x, y, scale } = value as { x?: unknown; y?: unknown; scale?: unknown };
  if (typeof x !== 'number' || typeof y !== 'number' || typeof scale !== 'number') return undefined;
  if (![x, y, scale].every(Number.isFinite) || scale <= 0) return undefined;
  return { x, y, scale: clampScale(scale) };
}
