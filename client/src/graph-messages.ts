/**
 * The messages between the graph page (client/webview/graph-view.ts) and the extension
 * (./graph.ts), and what the page shows besides the SVG. Plain types with no import: the page's
 * script and the extension are compiled apart and share only this.
 */

/** What a hover shows for one node or edge: a title, lines of facts, and its findings. */
export interface ElementTip {
  readonly key: string;
  readonly title: string;
  readonly lines: readonly string[];
  readonly findings: readonly { readonly severity: string; readonly text: string }[];
  /** Findings left out of `findings`. */
  readonly more: number;
}

/** What the page shows besides the SVG, computed from the picture model. */
export interface GraphView {
  /** One line about the whole bundle: title, security, autonomy, missing phases, findings by severity. */
  readonly summary: string;
  readonly nodes: readonly ElementTip[];
  readonly edges: readonly ElementTip[];
  /** What is still to settle, in words. */
  readonly unsettled: readonly string[];
}

export type ToPage =
  /** A new picture (and the bundle it is of, for the context menu); `banner` says why it may not be current. */
  | { readonly type: 'picture'; readonly svg: string; readonly view: GraphView; readonly bundle: string; readonly banner?: string }
  /** The picture stays; the banner changes (none: it goes). */
  | { readonly type: 'banner'; readonly text?: string }
  /** The nodes and edges the cursor is about. */
  | { readonly type: 'highlight'; readonly keys: readonly string[] }
  /** No picture yet: a sentence instead. */
  | { readonly type: 'message'; readonly text: string };

export type FromPage =
  | { readonly type: 'ready' }
  | { readonly type: 'reveal'; readonly key: string }
  | { readonly type: 'openCard'; readonly key: string }
  | { readonly type: 'export' };

