/**
 * Sending a bundle's publications, and what the client shows after them. A file is sent again
 * only when its diagnostics or its version changed; a file that left the bundle (deleted,
 * renamed, or its bundle gone) is cleared. What was sent is kept (`Shown`): the next publication
 * of the file reuses its conversions (./publish-reuse.ts).
 */
import type { Diagnostic as LspDiagnostic, PublishDiagnosticsParams } from 'vscode-languageserver';
import { emptyPublicationJson, publicationJson } from './publish-json';
import type { FilePublication, LastPublication } from './publish-reuse';

/**
 * Sends one publication. `json()` gives `JSON.stringify(params)` as UTF-8 bytes, in pieces to
 * be written one after the other, made from the kept JSON of each diagnostic (see ./wire.ts);
 * a caller may ignore it.
 */
export type Send = (params: PublishDiagnosticsParams, json: () => readonly Uint8Array[]) => void;

/** A file's last publication, as the client shows it. */
interface Published extends LastPublication {
  readonly root: string;
  readonly version: number | undefined;
  readonly diagnostics: readonly LspDiagnostic[];
}

/** What the client shows. */
export interface Shown {
  /** What the client currently shows, by URI. */
  readonly published: Map<string, Published>;
  /** URIs published per bundle root. */
  readonly urisOf: Map<string, Set<string>>;
}

export function createShown(): Shown {
  return { published: new Map(), urisOf: new Map() };
}

/**
 * Sends the publications of the bundle at `root` (`current`, by URI) that differ from what the
 * client shows, and clears the files of the bundle that show nothing now.
 */
export function sendBundle(shown: Shown, send: Send, root: string, current: ReadonlyMap<string, FilePublication>): void {
  const { published, urisOf } = shown;
  // Clear what shows nothing now (fixed, deleted, renamed) first: an open document's URI may
  // be spelled differently from the disk file's, and the newer spelling must win.
  const previous = urisOf.get(root) ?? new Set<string>();
  for (const uri of previous) {
    if (current.has(uri)) continue;
    if (published.get(uri)?.root === root) {
      published.delete(uri);
      sendEmpty(send, uri);
    }
  }
  const now = new Set<string>();
  for (const [uri, entry] of current) {
    const before = published.get(uri);
    const empty = entry.diagnostics.length === 0 && entry.version === undefined;
    const unchanged = before ? before.version === entry.version && sameDiagnostics(before.diagnostics, entry.diagnostics) : empty;
    if (!unchanged) {
      const params: PublishDiagnosticsParams = { uri, diagnostics: entry.diagnostics, ...(entry.version !== undefined ? { version: entry.version } : {}) };
      const converted = entry.converted;
      send(params, () => publicationJson(uri, converted, entry.version));
    }
    if (empty) {
      published.delete(uri);
    } else {
      published.set(uri, { root, version: entry.version, diagnostics: entry.diagnostics, converted: entry.converted, list: entry.list });
      now.add(uri);
    }
  }
  urisOf.set(root, now);
}

/** Clears everything the client shows of the bundle at `root`. */
export function forgetBundle(shown: Shown, send: Send, root: string): void {
  for (const uri of shown.urisOf.get(root) ?? []) {
    if (shown.published.get(uri)?.root !== root) continue;
    shown.published.delete(uri);
    sendEmpty(send, uri);
  }
  shown.urisOf.delete(root);
}

/** Clears a file: an empty list, whose JSON is written directly. */
function sendEmpty(send: Send, uri: string): void {
  const params: PublishDiagnosticsParams = { uri, diagnostics: [] };
  send(params, () => emptyPublicationJson(params));
}

/** True when two lists show the same thing (compared field by field; cheaper than serialising thousands of them). */
function sameDiagnostics(a: readonly LspDiagnostic[], b: readonly LspDiagnostic[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (
      x.message !== y.message ||
      x.code !== y.code ||
      x.severity !== y.severity ||
      !sameRange(x.range, y.range) ||
      x.codeDescription?.href !== y.codeDescription?.href ||
      String(x.tags ?? '') !== String(y.tags ?? '')
    ) {
      return false;
    }
    const r = x.relatedInformation ?? [];
    const q = y.relatedInformation ?? [];
    if (r.length !== q.length) return false;
    for (let j = 0; j < r.length; j++) {
      if (r[j].message !== q[j].message || r[j].location.uri !== q[j].location.uri || !sameRange(r[j].location.range, q[j].location.range)) return false;
    }
  }
  return true;
}

function sameRange(a: LspDiagnostic['range'], b: LspDiagnostic['range']): boolean {
  return a.start.line === b.start.line && a.start.character === b.start.character && a.end.line === b.end.line && a.end.character === b.end.character;
}
