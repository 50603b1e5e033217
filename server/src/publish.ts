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
 * whose inputs did not change (see `loadBundle`'s memo), and its LSP form, kept per bundle (by
 * diagnostic object, weakly; looked for first at its place in the file's last publication), is
 * reused while the docs link, the client's support and the
 * URIs of the files it points into are the same and each of those files still reads the same
 * up to just past the span (a range reads nothing of the text beyond it), so typing near the
 * end of the topology keeps the LSP form of every finding above the edit. A list of the same
 * LSP objects is seen unchanged at once. Each kept LSP form also keeps its JSON (UTF-8 bytes),
 * made when first sent: `send` receives, beside the parameters, a function that gives them as
 * JSON in pieces, those bytes between a head and a tail (./wire.ts writes them on stream
 * transports instead of serialising the whole list again).
 */
import type { Diagnostic as LspDiagnostic, PublishDiagnosticsParams } from 'vscode-languageserver';
import { applyPolicy, type Diagnostic } from '../../shared/src';
import type { SourceFile } from '../../shared/src';
import { classifyFiles } from '../../shared/src';
import { commonPrefixLength } from '../../shared/src';
import { fromEditor, snapshotOf, type BundleState, type Database, type Snapshot } from './database';
import { lspMessage, rangeHead, toLspDiagnostic, toRange, toSeverity, withRange, type ClientSupport, type DocsLink } from './convert';
import type { Settings } from './settings';

export interface PublisherOptions {
  readonly db: Database;
  /**
   * Sends one publication. `json()` gives `JSON.stringify(params)` as UTF-8 bytes, in pieces to
   * be written one after the other, made from the kept JSON of each diagnostic (see ./wire.ts);
   * a caller may ignore it.
   */
  readonly send: (params: PublishDiagnosticsParams, json: () => readonly Uint8Array[]) => void;
  readonly settings: () => Settings;
  readonly support: () => ClientSupport;
  /** How codes link to their docs (`codeDescription`), if they do; the same function while the docs are the same. */
  readonly docsLink: () => DocsLink | undefined;
  readonly log: (message: string) => void;
  /** Runs a task on a later turn of the event loop (default `setImmediate`; a Web Worker has none). */
  readonly nextTurn?: (task: () => void) => void;
  /** Called after each publication of a bundle, with the snapshot published (see ./view-refresh.ts). */
  readonly published?: (snapshot: Snapshot) => void;
}

export interface Publisher {
  /** Recomputes and publishes the bundle after `delayMs` of quiet (0: on the next turn). */
  schedule(bundle: BundleState, delayMs: number): void;
  /** Publishes the bundle now (synchronously). */
  publish(bundle: BundleState): void;
  /** Drops the bundle's pending publication, if any (its caller schedules one when its inputs are ready). */
  cancel(root: string): void;
  /** Clears everything published for a bundle that no longer exists. */
  forget(root: string): void;
  /** Publishes every bundle again (after a settings change), one per event-loop turn. */
  republishAll(): void;
  /** The diagnostics of a snapshot (the engine's, and those about the disk read) after the user's policy, grouped by file. */
  diagnosticsByFile(snapshot: Snapshot): Map<string, Diagnostic[]>;
  /** Converts one engine diagnostic of a snapshot as it would be published. */
  convert(snapshot: Snapshot, file: string, d: Diagnostic): LspDiagnostic;
}

interface Published {
  readonly root: string;
  readonly version: number | undefined;
  readonly diagnostics: readonly LspDiagnostic[];
  /** Their conversions, for the next publication of the file to match against (see `movedConversion`). */
  readonly converted: readonly Converted[];
  /** The engine's diagnostics they were converted from, in the same order. */
  readonly list: readonly Diagnostic[];
}

/**
 * A finding the engine gives no place, shown on the topology: at the graph's keyword (`digraph`),
 * where `bundle/no-exit` stands, rather than as an empty range at the file's start, which some
 * clients do not show at all. These are findings about the whole graph (DarkPrint gives them no
 * location, and the CLI keeps it so): `analysis/criteria-leak-unanchored`, and
 * `analysis/unresolved-node` when several nodes lack cards. The placed copy is kept per finding,
 * so a finding that did not change stays the same object (the conversion is reused by object).
 */
const placed = new WeakMap<Diagnostic, Diagnostic>();

function placedOnGraph(snapshot: Snapshot, file: string, d: Diagnostic): Diagnostic {
  const topology = snapshot.result.blueprint?.topology;
  const keyword = topology !== undefined && topology.file.path === file ? topology.parse.graph?.keywordSpan : undefined;
  if (keyword === undefined) return d;
  const known = placed.get(d);
  if (known !== undefined && known.location.file === file && known.location.span?.start === keyword.start && known.location.span.end === keyword.end) return known;
  const copy: Diagnostic = { ...d, location: { ...d.location, file, span: keyword } };
  placed.set(d, copy);
  return copy;
}

/** Clears a file: an empty list, whose JSON is written directly. */
function sendEmpty(send: PublisherOptions['send'], uri: string): void {
  const params: PublishDiagnosticsParams = { uri, diagnostics: [] };
  send(params, () => [Buffer.from(JSON.stringify(params))]);
}

export function createPublisher(options: PublisherOptions): Publisher {
  const { db, send, log } = options;
  const nextTurn = options.nextTurn ?? ((task: () => void): void => void setImmediate(task));
  const timers = new Map<string, NodeJS.Timeout>();
  const queue = new Set<string>();
  let draining = false;
  /** What the client currently shows, by URI. */
  const published = new Map<string, Published>();
  /** URIs published per bundle root. */
  const urisOf = new Map<string, Set<string>>();
  /**
   * Per bundle root, the LSP form of each diagnostic published, and what it was computed from.
   * Weakly held and kept from one publication to the next: an edit adds only the few findings
   * it made (so few young weak keys for the collector), where rebuilding a table of thousands
   * per publication would cost more; an entry goes with its diagnostic.
   */
  const convertedOf = new Map<string, WeakMap<Diagnostic, Converted>>();

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
      nextTurn(drain);
    }
  };

  const enqueue = (root: string): void => {
    queue.add(root);
    if (!draining) {
      draining = true;
      nextTurn(drain);
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
    // (the findings about the disk read, when there are any, go with the engine's: see database.ts `diskFindings`)
    const found = snapshot.diskFindings.length === 0 ? snapshot.result.diagnostics : [...snapshot.result.diagnostics, ...snapshot.diskFindings];
    const kept = applyPolicy(found, { ignore: settings.ignore, severity: settings.severity });
    const fallback = homeOf(snapshot);
    const groups = new Map<string, Diagnostic[]>();
    for (const d of kept) {
      let file = d.location.file ?? fallback;
      // A finding about a file the bundle does not have (the topology it lacks) is shown on the
      // file that stands for the bundle; with none, it is not shown (a folder with only a
      // `cards/` folder in it is seldom meant as a bundle, and a client cannot open a file that
      // is not there).
      if (file !== undefined && !snapshot.files.has(file)) file = fallback;
      if (file === undefined) continue;
      let list = groups.get(file);
      if (!list) groups.set(file, (list = []));
      list.push(d.location.span === undefined ? placedOnGraph(snapshot, file, d) : d);
    }
    return groups;
  };

  /**
   * Converts `d`, reusing its conversion when still valid: the entry of `before` (the last
   * publication of the file, made from `beforeList`) at `at` or at `at - shift` when that entry
   * was made from `d` itself, else the one `known` holds for `d`. Failing that, it reuses the
   * entry of `before` at either place when it converts the same but for the lines it is on (see
   * `movedConversion`). A conversion made afresh is recorded in `known` (when `record`); one taken
   * by place is not: the next publication finds it by place too, and a thousand findings moved by
   * an edit in the middle of the topology would cost as many weak-map entries each time.
   */
  const convertKept = (
    snapshot: Snapshot,
    file: string,
    d: Diagnostic,
    known: WeakMap<Diagnostic, Converted> | undefined,
    record: boolean,
    prefixes: PrefixCache,
    before: readonly Converted[] = [],
    at = 0,
    shift = 0,
    beforeList: readonly Diagnostic[] = [],
  ): Converted => {
    const docsLink = options.docsLink();
    const support = options.support();
    // the same object at the same place in the last publication (most of a long list, after an
    // edit): its entry there, without a lookup by object
    let kept = beforeList[at] === d ? before[at] : shift !== 0 && beforeList[at - shift] === d ? before[at - shift] : known?.get(d);
    if (!kept || kept.file !== file || kept.docsLink !== docsLink || kept.support !== support || !sameInputs(snapshot, file, d, kept, prefixes)) {
      const moved = (c: Converted | undefined): MovedConversion | undefined =>
        c !== undefined && c.file === file && c.docsLink === docsLink && c.support === support ? movedConversion(snapshot, file, d, c) : undefined;
      const reused = moved(before[at]) ?? (shift !== 0 ? moved(before[at - shift]) : undefined);
      if (reused !== undefined) {
        // (found by place, as the next publication will find it: not recorded by object)
        const inputs = inputsOf(snapshot, file, d);
        kept = { file, docsLink, support, source: inputs.source, read: inputs.read, related: inputs.related, lsp: reused.lsp, message: d.message, hint: d.hint, head: reused.head, tail: reused.tail };
      } else {
        const lsp = toLspDiagnostic(d, file, { files: snapshot, support, ...(docsLink !== undefined ? { docsLink } : {}) });
        const inputs = inputsOf(snapshot, file, d);
        kept = { file, docsLink, support, source: inputs.source, read: inputs.read, related: inputs.related, lsp, message: d.message, hint: d.hint, head: undefined, tail: undefined };
        if (record) known?.set(d, kept);
      }
    }
    return kept;
  };

  const convert = (snapshot: Snapshot, file: string, d: Diagnostic): LspDiagnostic =>
    convertKept(snapshot, file, d, convertedOf.get(snapshot.bundle.root), false, createPrefixCache()).lsp;

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
    const current = new Map<string, { file: string; list: readonly Diagnostic[]; converted: Converted[]; diagnostics: LspDiagnostic[]; version: number | undefined }>();
    let known = convertedOf.get(bundle.root);
    if (known === undefined) convertedOf.set(bundle.root, (known = new WeakMap()));
    const prefixes = createPrefixCache();
    for (const file of files) {
      const list = groups.get(file) ?? [];
      const converted: Converted[] = new Array(list.length);
      const diagnostics: LspDiagnostic[] = new Array(list.length);
      // The last publication of the file, in the same order: a finding that an edit moved along
      // its line (a new diagnostic object with the same range) is matched with its entry there,
      // at the same place in the list, or at the same place counted from the end (findings were
      // added or removed before it).
      const last = published.get(snapshot.uri(file));
      const before = last?.converted ?? [];
      const shift = list.length - before.length;
      for (let i = 0; i < list.length; i++) {
        const kept = convertKept(snapshot, file, list[i], known, true, prefixes, before, i, shift, last?.list);
        converted[i] = kept;
        diagnostics[i] = kept.lsp;
      }
      // (the version goes to every client, so that each finding says which text it was computed
      // from, even one that declares no `versionSupport`, VS Code's among them: a client that does
      // not read it ignores it)
      current.set(snapshot.uri(file), { file, list, converted, diagnostics, version: snapshot.versions.get(file) });
    }
    // Clear what shows nothing now (fixed, deleted, renamed) first: an open document's URI may
    // be spelled differently from the disk file's, and the newer spelling must win.
    const previous = urisOf.get(bundle.root) ?? new Set<string>();
    for (const uri of previous) {
      if (current.has(uri)) continue;
      if (published.get(uri)?.root === bundle.root) {
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
        published.set(uri, { root: bundle.root, version: entry.version, diagnostics: entry.diagnostics, converted: entry.converted, list: entry.list });
        now.add(uri);
      }
    }
    urisOf.set(bundle.root, now);
    options.published?.(snapshot);
  };

  const cancel = (root: string): void => {
    const timer = timers.get(root);
    if (timer) clearTimeout(timer);
    timers.delete(root);
    queue.delete(root);
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
    cancel,
    forget(root) {
      cancel(root);
      convertedOf.delete(root);
      for (const uri of urisOf.get(root) ?? []) {
        if (published.get(uri)?.root !== root) continue;
        published.delete(uri);
        sendEmpty(send, uri);
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
  readonly docsLink: DocsLink | undefined;
  readonly support: ClientSupport;
  /**
   * The source of `file` (its text's line index makes the range), as last checked: a check that
   * passes moves it to the source it was made against (they agree where the range reads, so the
   * conversion holds for both), so an entry keeps alive only the text of the last publication
   * that used it, not the one it was made in. Kept as the source object, not its text: sources
   * compare by identity, where two texts of the same length compare code unit by code unit.
   */
  source: SourceFile | undefined;
  /**
   * How much of `source`'s text the range reads: the conversion stays valid for any text that starts
   * with the same `read` code units (0: it reads nothing of the text).
   */
  readonly read: number;
  /** The same for each related location, when there are any (few findings have them). */
  readonly related: Related | undefined;
  readonly lsp: LspDiagnostic;
  /**
   * The engine's message and hint `lsp.message` was made from (see `lspMessage`): a finding
   * moved by an edit keeps the same strings, so `movedConversion` compares them by reference
   * before it compares the texts.
   */
  readonly message: string;
  readonly hint: string | undefined;
  /**
   * `JSON.stringify(lsp)` as UTF-8 bytes, made when first sent (outside the JavaScript heap, so
   * thousands kept cost the collector nothing), in two pieces: `head` up to the end of the range
   * (`{"range":{…}`), `tail` the rest, then the comma that follows it in a list (left out at the
   * list's end). A conversion moved to other lines (see `movedConversion`) writes a new head and
   * shares the tail, so it copies nothing. Both set or neither. A new head is kept as text until
   * the next publication encodes the new heads together (`encodeHeads`).
   */
  head: Uint8Array | string | undefined;
  tail: Uint8Array | undefined;
}

/** A conversion taken over from an earlier one (see `movedConversion`). */
interface MovedConversion {
  readonly lsp: LspDiagnostic;
  readonly head: Uint8Array | string | undefined;
  readonly tail: Uint8Array | undefined;
}

/**
 * How much of a text a range of `span` reads: positions read the text before them and the code
 * unit at them (a CRLF pair is never split), so one past the span's last offset.
 */
function readLength(span: { start: number; end: number } | undefined): number {
  return span === undefined ? 0 : Math.max(span.start, span.end) + 1;
}

/**
 * `d`'s conversion made from `c`, the conversion of a finding that read the same (code,
 * severity, message, no related locations) at a range with the same characters, on the same lines
 * or moved by whole lines (lines added or removed above it): then `c`'s LSP form itself, or a
 * copy with the new range, and its JSON with the new range spliced in front of the rest (the
 * range is the first member `toLspDiagnostic` writes). Undefined when `d` reads otherwise.
 * Cheaper than converting: two positions are looked up.
 */
function movedConversion(snapshot: Snapshot, file: string, d: Diagnostic, c: Converted): MovedConversion | undefined {
  const lsp = c.lsp;
  if (d.code !== lsp.code || (d.related !== undefined && d.related.length > 0) || lsp.relatedInformation !== undefined) return undefined;
  if (toSeverity(d.severity) !== lsp.severity) return undefined;
  // (the same strings, as a moved finding has, compare at once; others are compared as written)
  if (!(d.message === c.message && d.hint === c.hint) && lsp.message !== lspMessage(d)) return undefined;
  const range = toRange(snapshot.lineIndex(file), d.location.span ?? { start: 0, end: 0 });
  const other = lsp.range;
  const lines = range.start.line - other.start.line;
  if (range.start.character !== other.start.character || range.end.character !== other.end.character || range.end.line - other.end.line !== lines) return undefined;
  if (lines === 0) return { lsp, head: c.head, tail: c.tail };
  // (a JSON kept in one piece, with a tail of its comma alone, is written again)
  const split = c.tail !== undefined && c.tail.length > 1;
  return { lsp: withRange(lsp, range), head: split ? rangeHead(range) : undefined, tail: split ? c.tail : undefined };
}

/** What the related locations of a conversion read: per location, its file's source (as `Converted.source`), how much of it, and its URI. */
interface Related {
  readonly sources: (SourceFile | undefined)[];
  readonly reads: readonly number[];
  readonly uris: readonly string[];
}

function inputsOf(snapshot: Snapshot, file: string, d: Diagnostic): { source: SourceFile | undefined; read: number; related: Related | undefined } {
  const source = snapshot.files.get(file);
  const read = readLength(d.location.span);
  if (d.related === undefined || d.related.length === 0) return { source, read, related: undefined };
  const sources: (SourceFile | undefined)[] = [];
  const reads: number[] = [];
  const uris: string[] = [];
  for (const r of d.related) {
    sources.push(snapshot.files.get(r.file));
    reads.push(readLength(r.span));
    uris.push(snapshot.uri(r.file));
  }
  return { source, read, related: { sources, reads, uris } };
}

function sameInputs(snapshot: Snapshot, file: string, d: Diagnostic, kept: Converted, prefixes: PrefixCache): boolean {
  const source = snapshot.files.get(file);
  if (!sameReading(source, kept.source, kept.read, prefixes)) return false;
  const related = d.related ?? [];
  const keptRelated = kept.related;
  if (related.length !== (keptRelated?.uris.length ?? 0)) return false;
  if (keptRelated !== undefined) {
    for (let i = 0; i < related.length; i++) {
      if (snapshot.uri(related[i].file) !== keptRelated.uris[i]) return false;
      if (!sameReading(snapshot.files.get(related[i].file), keptRelated.sources[i], keptRelated.reads[i], prefixes)) return false;
    }
    for (let i = 0; i < related.length; i++) keptRelated.sources[i] = snapshot.files.get(related[i].file);
  }
  kept.source = source;
  return true;
}

/** True when the texts of `now` and `before` agree on their first `length` code units (both absent counts as the same). */
function sameReading(now: SourceFile | undefined, before: SourceFile | undefined, length: number, prefixes: PrefixCache): boolean {
  if (now === before) return true;
  if (now === undefined || before === undefined) return false;
  if (length === 0) return true;
  return prefixes(now, before) >= length;
}

/**
 * The length of two sources' common prefix, remembered for the pairs of one publication (few:
 * one per edited file). Keyed by the source objects: comparing the texts themselves would read
 * two texts of the same length up to where they differ, for every finding of the file.
 */
type PrefixCache = (now: SourceFile, before: SourceFile) => number;

function createPrefixCache(): PrefixCache {
  const known: { now: SourceFile; before: SourceFile; length: number }[] = [];
  return (now, before) => {
    for (const entry of known) if (entry.now === now && entry.before === before) return entry.length;
    // a text that starts with a byte order mark reads from its first column on differently
    // whether an editor sent it (the mark a character) or it was read from disk (no column)
    const common = now.text.charCodeAt(0) === 0xfeff && fromEditor(now) !== fromEditor(before) ? 0 : commonPrefixLength(now.text, before.text);
    // two sources of the same text read the same however far a range reads (past the end too)
    const length = common === now.text.length && common === before.text.length ? Number.POSITIVE_INFINITY : common;
    known.push({ now, before, length });
    return length;
  };
}

/**
 * `JSON.stringify` of the publication `{ uri, diagnostics, version? }` as UTF-8 pieces: each
 * diagnostic's kept JSON (its head, then its tail with the comma after it) between the opening
 * and the closing of the list.
 */
function publicationJson(uri: string, converted: readonly Converted[], version: number | undefined): Uint8Array[] {
  encodeHeads(converted);
  const parts: Uint8Array[] = [Buffer.from(`{"uri":${JSON.stringify(uri)},"diagnostics":[`)];
  for (let i = 0; i < converted.length; i++) {
    const entry = converted[i];
    if (entry.head === undefined || entry.tail === undefined) {
      const json = JSON.stringify(entry.lsp);
      const head = rangeHead(entry.lsp.range);
      // (a diagnostic that does not start with its range, which the converter never makes, is one piece)
      const split = json.startsWith(head) ? head.length : json.length;
      entry.head = Buffer.from(json.slice(0, split));
      entry.tail = Buffer.from(`${json.slice(split)},`);
    }
    // (each tail ends with the comma that goes after it in a list: the last is written without it)
    parts.push(entry.head as Uint8Array, i < converted.length - 1 ? entry.tail : entry.tail.subarray(0, entry.tail.length - 1));
  }
  parts.push(Buffer.from(`]${version !== undefined ? `,"version":${JSON.stringify(version)}` : ''}}`));
  return parts;
}

/**
 * Encodes the heads kept as text (ASCII: see `rangeHead`) a few thousand bytes at a time, each
 * head then a view of its block: a thousand findings move on an edit in the middle of a topology,
 * and encoding each head on its own cost more than the rest of moving it. (A block stays alive
 * while one of its heads does, as the pool `Buffer.from` takes small buffers from does: blocks
 * of the pool's size keep as little alive as it would.)
 */
function encodeHeads(converted: readonly Converted[]): void {
  let text = '';
  let first = 0;
  const flush = (end: number): void => {
    const bytes = Buffer.from(text, 'latin1');
    let at = 0;
    for (let i = first; i < end; i++) {
      const entry = converted[i];
      const head = entry.head;
      if (typeof head !== 'string') continue;
      entry.head = bytes.subarray(at, at + head.length);
      at += head.length;
    }
    text = '';
  };
  for (let i = 0; i < converted.length; i++) {
    const head = converted[i].head;
    if (typeof head !== 'string') continue;
    if (text.length === 0) first = i;
    text += head;
    if (text.length >= headBlockSize) flush(i + 1);
  }
  if (text.length > 0) flush(converted.length);
}

/**
 * How many bytes of heads `encodeHeads` encodes at once: the size of the pool small buffers come
 * from (Node's `Buffer.poolSize`, written out: the module also loads where there is no `Buffer`).
 */
const headBlockSize = 8 * 1024;

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

/** The file findings without a file of their own are shown on: the topology, else the manifest, when the bundle has one (as the engine classifies them). */
export function homeOf(snapshot: Snapshot): string | undefined {
  const topology = snapshot.result.blueprint?.topology.file.path;
  if (topology !== undefined) return topology;
  const classified = classifyFiles([...snapshot.files.values()]);
  return classified.topology?.path ?? classified.manifest?.path;
}

export function describe(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}
