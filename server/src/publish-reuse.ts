/**
 * Reusing a finding's conversion from one publication of its bundle to the next. Every edit
 * checks the whole bundle again, and on a large topology most of its thousands of findings are
 * the ones the last publication had: converting each to LSP again (./convert.ts) and serialising
 * it again would be most of a publication's cost. This module is on the edit path
 * (docs/architecture.md#the-edit-paths-speed-rules).
 *
 * What is reused: a finding's LSP form and, once it has been sent, its JSON (UTF-8 bytes, in a
 * head and a tail: see `Converted`, written by ./publish-json.ts), kept per bundle from one
 * publication to the next.
 *
 * When, tried in this order for each finding (`convertKept`):
 * - The same diagnostic object: the engine hands back the same object for a finding whose inputs
 *   did not change (see `loadBundle`'s memo). Its conversion is looked for first at its place in
 *   the file's last publication (the same index, or the same index counted from the end), then by
 *   object in the bundle's weak map (`KeptConversions`), and reused whole while the docs link, the
 *   client's support and the URIs of the files it points into are the same and each of those files
 *   still reads the same up to just past the span (a range reads nothing of the text beyond it),
 *   so typing near the end of the topology keeps the LSP form of every finding above the edit.
 * - A new object that reads the same as the entry at its place in the last publication (code,
 *   severity, message, no related locations) at a range with the same characters, on the same
 *   lines or moved by whole lines (`movedConversion`): that entry's LSP form, or a copy with the
 *   new range, and its JSON with the new range spliced in front of the rest, so findings moved by
 *   an edit in the middle of the topology are not converted again.
 * - Otherwise the finding is converted afresh, and recorded by object.
 *
 * A list of the same LSP objects is then seen unchanged at once (./publish-send.ts).
 */
import type { Diagnostic as LspDiagnostic } from 'vscode-languageserver';
import { commonPrefixLength, type Diagnostic, type SourceFile } from '../../shared/src';
import { fromEditor, type Snapshot } from './database';
import { lspMessage, rangeHead, toLspDiagnostic, toRange, toSeverity, withRange, type ClientSupport, type DocsLink } from './convert';

/** What a conversion reads of the client and of the settings (the publisher's options). */
export interface ConversionClient {
  readonly support: () => ClientSupport;
  /** How codes link to their docs (`codeDescription`), if they do; the same function while the docs are the same. */
  readonly docsLink: () => DocsLink | undefined;
}

/**
 * Per bundle root, the LSP form of each diagnostic published, and what it was computed from.
 * Weakly held and kept from one publication to the next: an edit adds only the few findings
 * it made (so few young weak keys for the collector), where rebuilding a table of thousands
 * per publication would cost more; an entry goes with its diagnostic.
 */
export type KeptConversions = Map<string, WeakMap<Diagnostic, Converted>>;

/** What the last publication of a file was made of, for the next one to match against. */
export interface LastPublication {
  /** Their conversions, for the next publication of the file to match against (see `movedConversion`). */
  readonly converted: readonly Converted[];
  /** The engine's diagnostics they were converted from, in the same order. */
  readonly list: readonly Diagnostic[];
}

/** One file's publication as converted, before it is sent (./publish-send.ts). */
export interface FilePublication {
  readonly file: string;
  readonly list: readonly Diagnostic[];
  readonly converted: Converted[];
  readonly diagnostics: LspDiagnostic[];
  readonly version: number | undefined;
}

/** An LSP diagnostic and the inputs of its conversion. */
export interface Converted {
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
   * the next publication encodes the new heads together (`encodeHeads` in ./publish-json.ts).
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

/** What the related locations of a conversion read: per location, its file's source (as `Converted.source`), how much of it, and its URI. */
interface Related {
  readonly sources: (SourceFile | undefined)[];
  readonly reads: readonly number[];
  readonly uris: readonly string[];
}

/**
 * What the findings of one file are converted against: the conversions kept for the bundle
 * (`known`, recorded in when `record`), and the file's last publication (`before`, made from
 * `beforeList`), whose entries are matched by place: at the same index, or at the same index
 * counted from the end (`shift` is how many findings the list gained).
 */
interface FileReuse {
  readonly snapshot: Snapshot;
  readonly file: string;
  readonly client: ConversionClient;
  readonly known: WeakMap<Diagnostic, Converted> | undefined;
  readonly record: boolean;
  readonly prefixes: PrefixCache;
  readonly before: readonly Converted[];
  readonly shift: number;
  readonly beforeList: readonly Diagnostic[];
}

/** The kept conversions of the bundle at `root` (made the first time the bundle is published). */
export function keptOf(kept: KeptConversions, root: string): WeakMap<Diagnostic, Converted> {
  let known = kept.get(root);
  if (known === undefined) kept.set(root, (known = new WeakMap()));
  return known;
}

/**
 * Converts the findings of a bundle's snapshot, grouped by file, reusing what it can of `last`
 * (the publications the client shows, by URI) and of the bundle's kept conversions (`known`, see
 * `keptOf`): each file's publication, by URI.
 */
export function convertBundle(
  snapshot: Snapshot,
  groups: ReadonlyMap<string, readonly Diagnostic[]>,
  known: WeakMap<Diagnostic, Converted>,
  last: ReadonlyMap<string, LastPublication>,
  client: ConversionClient,
): Map<string, FilePublication> {
  // Only files with diagnostics or an open version need a publication; every other file of the
  // bundle shows nothing, which the sending clears when it showed something before.
  const files = new Set<string>([...groups.keys(), ...snapshot.versions.keys()]);
  const current = new Map<string, FilePublication>();
  const prefixes = createPrefixCache();
  for (const file of files) {
    const list = groups.get(file) ?? [];
    const converted: Converted[] = new Array(list.length);
    const diagnostics: LspDiagnostic[] = new Array(list.length);
    // The last publication of the file, in the same order: a finding that an edit moved along
    // its line (a new diagnostic object with the same range) is matched with its entry there,
    // at the same place in the list, or at the same place counted from the end (findings were
    // added or removed before it).
    const lastOfFile = last.get(snapshot.uri(file));
    const before = lastOfFile?.converted ?? [];
    const reuse: FileReuse = { snapshot, file, client, known, record: true, prefixes, before, shift: list.length - before.length, beforeList: lastOfFile?.list ?? [] };
    convertList(reuse, list, converted, diagnostics);
    // (the version goes to every client, so that each finding says which text it was computed
    // from, even one that declares no `versionSupport`, VS Code's among them: a client that does
    // not read it ignores it)
    current.set(snapshot.uri(file), { file, list, converted, diagnostics, version: snapshot.versions.get(file) });
  }
  return current;
}

/** Converts one engine diagnostic of a snapshot as it would be published (reusing a kept conversion, recording none). */
export function convertOne(client: ConversionClient, kept: KeptConversions, snapshot: Snapshot, file: string, d: Diagnostic): LspDiagnostic {
  const reuse: FileReuse = { snapshot, file, client, known: kept.get(snapshot.bundle.root), record: false, prefixes: createPrefixCache(), before: [], shift: 0, beforeList: [] };
  return convertKept(reuse, d, 0).lsp;
}

/** Converts a file's list into `converted` and `diagnostics` (a loop of its own: see docs/architecture.md#the-edit-paths-speed-rules). */
function convertList(reuse: FileReuse, list: readonly Diagnostic[], converted: Converted[], diagnostics: LspDiagnostic[]): void {
  for (let i = 0; i < list.length; i++) {
    const kept = convertKept(reuse, list[i], i);
    converted[i] = kept;
    diagnostics[i] = kept.lsp;
  }
}

/**
 * Converts `d`, reusing its conversion when still valid: the entry of `before` (the last
 * publication of the file, made from `beforeList`) at `at` or at `at - shift` when that entry
 * was made from `d` itself, else the one `known` holds for `d`. Failing that, it reuses the
 * entry of `before` at either place when it converts the same but for the lines it is on (see
 * `movedConversion`). A conversion made afresh is recorded in `known` (when `record`); one taken
 * by place is not: the next publication finds it by place too, and a thousand findings moved by
 * an edit in the middle of the topology would cost as many weak-map entries each time.
 */
function convertKept(reuse: FileReuse, d: Diagnostic, at: number): Converted {
  const { snapshot, file, before, shift, beforeList } = reuse;
  const docsLink = reuse.client.docsLink();
  const support = reuse.client.support();
  // the same object at the same place in the last publication (most of a long list, after an
  // edit): its entry there, without a lookup by object
  let kept = beforeList[at] === d ? before[at] : shift !== 0 && beforeList[at - shift] === d ? before[at - shift] : reuse.known?.get(d);
  if (!kept || kept.file !== file || kept.docsLink !== docsLink || kept.support !== support || !sameInputs(snapshot, file, d, kept, reuse.prefixes)) {
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
      if (reuse.record) reuse.known?.set(d, kept);
    }
  }
  return kept;
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
