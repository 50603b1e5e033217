/**
 * Pushing diagnostics. An edit schedules its bundle; after the quiet time (`debounceMs`) the
 * bundle's snapshot is brought up to date and the diagnostics of EVERY file of the bundle are
 * sent, open or not, each open document's with the version it was computed from. A file is
 * sent again only when its diagnostics or its version changed; a file that left the bundle
 * (deleted, renamed, or its bundle gone) is cleared.
 *
 * Superseded work is dropped rather than done: a new edit restarts the bundle's quiet time
 * and takes it out of the run queue; the queue runs one bundle per event-loop turn, so edits
 * that arrive meanwhile are read before the next bundle is computed; and a computation always
 * reads the latest inputs, so it is never older than the last edit it follows.
 *
 * Conversion is reused too: the engine hands back the same diagnostic object for a finding
 * whose inputs did not change (see `loadBundle`'s memo), and its LSP form, kept per bundle from
 * one publication to the next, is reused while the texts and URIs of the files it points
 * into, the docs link and the client's support are the same; a list of the same LSP objects
 * is seen unchanged at once.
 */
import type { Diagnostic as LspDiagnostic, PublishDiagnosticsParams } from 'vscode-languageserver';
import { applyPolicy, type Diagnostic } from '../../shared/src/diagnostics';
import { snapshotOf, type BundleState, type Database, type Snapshot } from './database';
import { toLspDiagnostic, type ClientSupport } from './convert';
import type { Settings } from './settings';

export interface PublisherOptions {
  readonly db: Database;
  readonly send: (params: PublishDiagnosticsParams) => void;
  readonly settings: () => Settings;
  readonly support: () => ClientSupport;
  /** The diagnostics page `codeDescription` links point at, if any. */
  readonly docsUrl: () => string | undefined;
  readonly log: (message: string) => void;
}

export interface Publisher {
  /** Recomputes and publishes the bundle after `delayMs` of quiet (0: on the next turn). */
  schedule(bundle: BundleState, delayMs: number): void;
  /** Publishes the bundle now (synchronously). */
  publish(bundle: BundleState): void;
  /** Clears everything published for a bundle that no longer exists. */
  forget(root: string): void;
  /** Publishes every bundle again (after a settings change), one per event-loop turn. */
  republishAll(): void;
  /** The engine diagnostics of a snapshot after the user's policy, grouped by file. */
  diagnosticsByFile(snapshot: Snapshot): Map<string, Diagnostic[]>;
  /** Converts one engine diagnostic of a snapshot as it would be published. */
  convert(snapshot: Snapshot, file: string, d: Diagnostic): LspDiagnostic;
}

interface Published {
  readonly root: string;
  readonly version: number | undefined;
  readonly diagnostics: readonly LspDiagnostic[];
}

export function createPublisher(options: PublisherOptions): Publisher {
  const { db, send, log } = options;
  const timers = new Map<string, NodeJS.Timeout>();
  const queue = new Set<string>();
  let draining = false;
  /** What the client currently shows, by URI. */
  const published = new Map<string, Published>();
  /** URIs published per bundle root. */
  const urisOf = new Map<string, Set<string>>();
  /**
   * Per bundle root, the LSP form of the diagnostics of its last publication and what each was
   * computed from (a Map replaced at each publication, rather than a WeakMap: young weak keys
   * slow every minor garbage collection).
   */
  const convertedOf = new Map<string, Map<Diagnostic, Converted>>();

  const drain = (): void => {
    draining = false;
    const next = queue.values().next();
    if (next.done) return;
    const root = next.value;
    queue.delete(root);
    const bundle = db.bundles.get(root);
    if (bundle) publishGuarded(bundle);
    if (queue.size > 0) {
      draining = true;
      setImmediate(drain);
    }
  };

  const enqueue = (root: string): void => {
    queue.add(root);
    if (!draining) {
      draining = true;
      setImmediate(drain);
    }
  };

  const publishGuarded = (bundle: BundleState): void => {
    try {
      publish(bundle);
    } catch (error) {
      log(`darkprint: computing the diagnostics of ${bundle.root} failed: ${describe(error)}`);
    }
  };

  const diagnosticsByFile = (snapshot: Snapshot): Map<string, Diagnostic[]> => {
    const settings = options.settings();
    const kept = applyPolicy(snapshot.result.diagnostics, { ignore: settings.ignore, severity: settings.severity });
    const fallback = snapshot.result.blueprint?.topology.file.path ?? topologyOf(snapshot);
    const groups = new Map<string, Diagnostic[]>();
    for (const d of kept) {
      const file = d.location.file ?? fallback;
      let list = groups.get(file);
      if (!list) groups.set(file, (list = []));
      list.push(d);
    }
    return groups;
  };

  /** Converts `d`, reusing its conversion in `before` when still valid, and records it in `after`. */
  const convertKept = (
    snapshot: Snapshot,
    file: string,
    d: Diagnostic,
    before: ReadonlyMap<Diagnostic, Converted> | undefined,
    after: Map<Diagnostic, Converted> | undefined,
  ): LspDiagnostic => {
    const docsUrl = options.docsUrl();
    const support = options.support();
    let kept = before?.get(d);
    if (!kept || kept.file !== file || kept.docsUrl !== docsUrl || kept.support !== support || !sameInputs(snapshot, file, d, kept)) {
      const lsp = toLspDiagnostic(d, file, { files: snapshot, support, ...(docsUrl ? { docsUrl } : {}) });
      kept = { file, docsUrl, support, ...inputsOf(snapshot, file, d), lsp };
    }
    after?.set(d, kept);
    return kept.lsp;
  };

  const convert = (snapshot: Snapshot, file: string, d: Diagnostic): LspDiagnostic =>
    convertKept(snapshot, file, d, convertedOf.get(snapshot.bundle.root), undefined);

  const publish = (bundle: BundleState): void => {
    const timer = timers.get(bundle.root);
    if (timer) {
      clearTimeout(timer);
      timers.delete(bundle.root);
    }
    queue.delete(bundle.root);
    const snapshot = snapshotOf(db, bundle);
    const groups = diagnosticsByFile(snapshot);
    // Only files with diagnostics or an open version need a publication; every other file of the
    // bundle shows nothing, which is cleared below when it showed something before.
    const files = new Set<string>([...groups.keys(), ...snapshot.versions.keys()]);
    const current = new Map<string, { file: string; diagnostics: LspDiagnostic[]; version: number | undefined }>();
    const before = convertedOf.get(bundle.root);
    const after = new Map<Diagnostic, Converted>();
    for (const file of files) {
      const list = groups.get(file) ?? [];
      current.set(snapshot.uri(file), {
        file,
        diagnostics: list.map((d) => convertKept(snapshot, file, d, before, after)),
        version: snapshot.versions.get(file),
      });
    }
    convertedOf.set(bundle.root, after);
    // Clear what shows nothing now (fixed, deleted, renamed) first: an open document's URI may
    // be spelled differently from the disk file's, and the newer spelling must win.
    const previous = urisOf.get(bundle.root) ?? new Set<string>();
    for (const uri of previous) {
      if (current.has(uri)) continue;
      if (published.get(uri)?.root === bundle.root) {
        published.delete(uri);
        send({ uri, diagnostics: [] });
      }
    }
    const now = new Set<string>();
    for (const [uri, entry] of current) {
      const before = published.get(uri);
      const empty = entry.diagnostics.length === 0 && entry.version === undefined;
      const unchanged = before ? before.version === entry.version && sameDiagnostics(before.diagnostics, entry.diagnostics) : empty;
      if (!unchanged) {
        send({ uri, diagnostics: entry.diagnostics, ...(entry.version !== undefined ? { version: entry.version } : {}) });
      }
      if (empty) {
        published.delete(uri);
      } else {
        published.set(uri, { root: bundle.root, version: entry.version, diagnostics: entry.diagnostics });
        now.add(uri);
      }
    }
    urisOf.set(bundle.root, now);
  };

  return {
    schedule(bundle, delayMs) {
      const existing = timers.get(bundle.root);
      if (existing) clearTimeout(existing);
      timers.delete(bundle.root);
      if (delayMs <= 0) {
        enqueue(bundle.root);
        return;
      }
      queue.delete(bundle.root);
      const root = bundle.root;
      timers.set(
        root,
        setTimeout(() => {
          timers.delete(root);
          enqueue(root);
        }, delayMs),
      );
    },
    publish: publishGuarded,
    forget(root) {
      const timer = timers.get(root);
      if (timer) clearTimeout(timer);
      timers.delete(root);
      queue.delete(root);
      convertedOf.delete(root);
      for (const uri of urisOf.get(root) ?? []) {
        if (published.get(uri)?.root !== root) continue;
        published.delete(uri);
        send({ uri, diagnostics: [] });
      }
      urisOf.delete(root);
    },
    republishAll() {
      for (const root of db.bundles.keys()) enqueue(root);
    },
    diagnosticsByFile,
    convert,
  };
}

/** An LSP diagnostic and the inputs of its conversion. */
interface Converted {
  readonly file: string;
  readonly docsUrl: string | undefined;
  readonly support: ClientSupport;
  /** The text of `file`, then of each related location's file (their line indexes make the ranges). */
  readonly texts: readonly (string | undefined)[];
  /** The URI of each related location's file. */
  readonly uris: readonly string[];
  readonly lsp: LspDiagnostic;
}

function inputsOf(snapshot: Snapshot, file: string, d: Diagnostic): { texts: (string | undefined)[]; uris: string[] } {
  const texts = [snapshot.files.get(file)?.text];
  const uris: string[] = [];
  for (const r of d.related ?? []) {
    texts.push(snapshot.files.get(r.file)?.text);
    uris.push(snapshot.uri(r.file));
  }
  return { texts, uris };
}

function sameInputs(snapshot: Snapshot, file: string, d: Diagnostic, kept: Converted): boolean {
  if (snapshot.files.get(file)?.text !== kept.texts[0]) return false;
  const related = d.related ?? [];
  for (let i = 0; i < related.length; i++) {
    if (snapshot.files.get(related[i].file)?.text !== kept.texts[i + 1] || snapshot.uri(related[i].file) !== kept.uris[i]) return false;
  }
  return true;
}

/** True when two lists show the same thing (compared field by field; cheaper than serialising thousands of them). */
export function sameDiagnostics(a: readonly LspDiagnostic[], b: readonly LspDiagnostic[]): boolean {
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

function topologyOf(snapshot: Snapshot): string {
  for (const file of snapshot.files.keys()) if (!file.includes('/') && /\.(dot|gv)$/i.test(file)) return file;
  return 'topology.dot';
}

export function describe(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}
