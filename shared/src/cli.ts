/**
 * The `darkprint` command line (docs/compatibility.md#command-line). The only module of the engine
 * that touches the file system, argv and the process: it reads bundle folders into `{ path, text }`
 * values, calls the engine, and renders the result. Exit codes: 0 ran and found no error; 1 found
 * errors (or more warnings than `--max-warnings`) or refused; 2 the tool itself failed (a bug); 3
 * the invocation is wrong or a path is unreadable.
 *
 * `validate` and `report` take several folders, and look for bundles below a folder that is not
 * one itself (`bundleSearchStep`, the rule the language server's workspace scan follows). Several
 * bundles are checked on worker threads, one per core: this same module is each worker's entry
 * (see `serveChecks` at the end), from the built bundle and from its TypeScript source alike.
 * A bundle's files are read synchronously: a command has nothing else to do meanwhile, and a
 * read that waits for the thread pool once per file costs more than the read itself.
 */
import {
  closeSync,
  constants as fsConstants,
  existsSync,
  fstatSync,
  lstatSync,
  openSync,
  promises as fs,
  readdirSync,
  readFileSync,
  readlinkSync,
  readSync,
  realpathSync,
  statSync,
  type Dirent,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import {
  applyPolicy,
  bundleReadLimits,
  bundleSearchLimits,
  bundleSearchStep,
  classifyFiles,
  compareCodeUnits,
  findTopology,
  isDiagnosticCode,
  lineIndex,
  skippedReadsDiagnostics,
  sortDiagnostics,
  summarize,
  unknownSelectors,
  type SearchEntry,
  type SkippedReads,
  type Diagnostic,
  type LineIndex,
  type Severity,
  type Span,
} from './index';
import { loadBundle, type LoadResult } from './bundle/resolve';
import type { SourceFile } from './bundle/model';
import type { CardReadResult } from './card/card-model';
import { readCard } from './check/card';
import type { Vocabulary } from './vocabulary/types';
import type { Analysis } from './analyze';
import { explainCode } from './diagnostics/render';
import { githubCommand } from './diagnostics/github';
import { relativeUri, sarifLog, sarifResults, type SarifResult } from './diagnostics/sarif';
import { coreVocabulary, explainTerm } from './vocabulary';
import { exportAttractor, importAttractor, importedBundleFiles } from './compile';
import { pictureDot, pictureOf, renderPicture } from './picture';

export const exitCodes = { ok: 0, findings: 1, internal: 2, usage: 3 } as const;

interface Io {
  out(text: string): void;
  err(text: string): void;
}

/** Set once standard output's reader has gone (see `quietOnClosedStdout`): what is left to print is dropped. */
let stdoutClosed = false;

const processIo: Io = {
  out: (t) => {
    if (!stdoutClosed) process.stdout.write(t);
  },
  err: (t) => process.stderr.write(t),
};

/**
 * A reader that stops early (`darkprint validate | head -1`) closes the pipe, and the writes
 * left fail with EPIPE, which would end the process with a stack trace. Nobody reads on, so the
 * rest of the output is dropped and the command ends as it would have (its exit code too), as
 * command-line tools do. Other write errors stay errors.
 */
export function quietOnClosedStdout(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    stdoutClosed = true;
  });
}

/** A wrong invocation: exit 3, with a pointer to the usage. */
class UsageError extends Error {}

/** A path the command cannot read or write: exit 3, with the reason and no usage hint (the invocation is right). */
class PathError extends Error {}

const usage = `darkprint: check, analyse and explain DarkPrint blueprint bundles.

Usage:
  darkprint validate [<path>...] [--format text|json|sarif|github] [--ignore code,...]
                     [--severity code=level,...] [--quiet] [--max-warnings <n>]
                     [--sarif-root <dir>] [--docs-url <url>]
  darkprint report [<path>...] [--format text|json]
  darkprint explain <code|term>
  darkprint export [<dir>] --attractor [--out <file>]
  darkprint import <pipeline.dot> --as <handle> --out <dir>
  darkprint graph [<dir>] [--format svg|json|dot] [--out <file>]

<path> is a bundle folder (one that holds topology.dot, blueprint.yaml or a cards folder), or a
folder searched for bundles (${bundleSearchLimits.depth} levels deep; hidden folders, node_modules, out, dist
and coverage are skipped); the current folder when left out. <dir> is one bundle folder.

validate  prints every finding (file:line:column: severity code: message) and a summary line;
          exits 1 when any is an error. Several bundles are checked in parallel, and printed in
          the order of the paths given, each path's bundles by name.
          --format json    the findings, digest and analysis; { bundles: [...] } for a search or
                           several paths
          --format sarif   SARIF 2.1.0 for code scanning, one run for every bundle; paths relative
                           to the repository root (the nearest folder above with .git) or to
                           --sarif-root; --docs-url is the diagnostics page rules link to
          --format github  GitHub Actions workflow commands (::error file=...::message), shown
                           as annotations on a pull request
          --quiet          prints errors only (the warnings still count for --max-warnings)
          --max-warnings n exits 1 when there are more than n warnings
report    prints the analysis: security level with its rationale, autonomy with both readings,
          phase coverage, and the risk markers with the nodes they fall on (whatever the
          bundle's errors: the analysis reads them too; exits 1 only when a topology is no
          directed graph).
explain   describes a diagnostic code (e.g. bundle/prohibition-violated) or a vocabulary term (e.g. validation).
export    compiles the bundle to an Attractor pipeline, on stdout or into --out; refuses (exit 1) a
          bundle with a finding that stops storage or a node without a card, and an --out that
          is one of the bundle's own files.
import    reads an Attractor pipeline into a new draft bundle in --out (a folder that must not exist
          or be empty); every card records --as as its author.
graph     draws the bundle's blueprint graph, on stdout or into --out: svg (the default) the
          picture laid out by Graphviz, json the picture model, dot the DOT handed to Graphviz.
          Findings are drawn on their nodes and edges; refuses (exit 1) only a topology that is
          no directed graph, and an --out that is one of the bundle's own files.

--ignore and --severity take codes or families (attractor/), comma-separated or repeated; levels
are error, warning, info, off.
Exit codes: 0 no error found, 1 errors found (or too many warnings) or a refusal, 2 internal
failure, 3 wrong invocation, a path that does not exist, or an unreadable path.
`;

export async function main(argv: readonly string[], io: Io = processIo): Promise<number> {
  try {
    return await run(argv, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`darkprint: ${error.message}\n\nRun \`darkprint --help\` for usage.\n`);
      return exitCodes.usage;
    }
    if (error instanceof PathError) {
      io.err(`darkprint: ${error.message}\n`);
      return exitCodes.usage;
    }
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    io.err(`darkprint: internal error, please report it with the command you ran:\n${message}\n`);
    return exitCodes.internal;
  }
}

interface ParsedArgs {
  positional: string[];
  flags: Map<string, string>;
}

const valueFlags = new Set(['format', 'ignore', 'severity', 'out', 'as', 'max-warnings', 'sarif-root', 'docs-url']);
/** Value flags that take a list, and may be given more than once (the lists add up). */
const listFlags = new Set(['ignore', 'severity']);
/** Flags that take no value. */
const switchFlags = new Set(['attractor', 'quiet']);

function parseArgs(argv: readonly string[]): ParsedArgs {
  const positional: string[] = [];
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--')) {
      if (arg.startsWith('-') && arg.length > 1 && arg !== '-h') throw new UsageError(`unknown option ${escapeControl(arg)}`);
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq >= 0 ? eq : undefined);
    if (name === 'help') {
      flags.set('help', '');
      continue;
    }
    if (switchFlags.has(name)) {
      if (eq >= 0) throw new UsageError(`--${name} takes no value`);
      flags.set(name, '');
      continue;
    }
    if (!valueFlags.has(name)) throw new UsageError(`unknown option --${escapeControl(name)}`);
    let value: string | undefined = eq >= 0 ? arg.slice(eq + 1) : undefined;
    if (value === undefined) {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) throw new UsageError(`--${name} needs a value`);
      value = next;
      i++;
    }
    if (listFlags.has(name) && flags.has(name)) {
      // (repeated lists add up: `--ignore bundle/ --ignore card/` ignores both)
      flags.set(name, `${flags.get(name)},${value}`);
    } else {
      if (flags.has(name)) throw new UsageError(`--${name} is given twice; give it once`);
      flags.set(name, value);
    }
  }
  return { positional, flags };
}

async function run(argv: readonly string[], io: Io): Promise<number> {
  if (argv.length === 0) {
    io.err(usage);
    return exitCodes.usage;
  }
  const args = parseArgs(argv);
  if (args.flags.has('help') || args.positional[0] === 'help' || args.positional[0] === '-h') {
    io.out(usage);
    return exitCodes.ok;
  }
  const [verb, ...rest] = args.positional;
  switch (verb) {
    case 'validate':
      return validate(rest, args.flags, io);
    case 'report':
      return report(rest, args.flags, io);
    case 'explain':
      return explain(rest, args.flags, io);
    case 'export':
      return exportCommand(rest, args.flags, io);
    case 'import':
      return importCommand(rest, args.flags, io);
    case 'graph':
      return graphCommand(rest, args.flags, io);
    default:
      throw new UsageError(`unknown command \`${escapeControl(verb ?? '')}\``);
  }
}

function only(flags: Map<string, string>, allowed: readonly string[], verb: string): void {
  for (const k of flags.keys()) if (!allowed.includes(k)) throw new UsageError(`${verb} does not take --${k}`);
}

/** The output formats of `validate`; `report` writes the first two. */
type Format = 'text' | 'json' | 'sarif' | 'github';

function formatFlag<F extends Format>(flags: Map<string, string>, allowed: readonly F[]): F {
  const f = flags.get('format') ?? 'text';
  if (!(allowed as readonly string[]).includes(f)) {
    throw new UsageError(`--format must be ${allowed.slice(0, -1).join(', ')} or ${allowed[allowed.length - 1]}, not ${escapeControl(f)}`);
  }
  return f as F;
}

function listFlag(flags: Map<string, string>, name: string): string[] {
  return (flags.get(name) ?? '').split(',').map((s) => s.trim()).filter((s) => s.length > 0);
}

function severityFlag(flags: Map<string, string>): Map<string, Severity | 'off'> {
  const out = new Map<string, Severity | 'off'>();
  for (const item of listFlag(flags, 'severity')) {
    const eq = item.lastIndexOf('=');
    const level = item.slice(eq + 1);
    if (eq <= 0 || !['error', 'warning', 'info', 'off'].includes(level)) {
      throw new UsageError(`--severity takes code=level pairs with level error, warning, info or off (got ${escapeControl(item)})`);
    }
    out.set(item.slice(0, eq), level as Severity | 'off');
  }
  return out;
}

/**
 * Reads and checks a bundle folder: `given`, or the current folder when none is named (as
 * DarkPrint's `validate [<dir>]`). Also gives the files read, whose texts place findings on lines, and where
 * each really is. What the read left out (see `readBundleFolder`) is one more finding of the load,
 * `bundle/files-skipped`, sorted in with the others. A folder named on the command line
 * (`named`, the default) that holds no topology ends the command (exit 3, saying why); a bundle
 * a search found is loaded all the same, and the load reports the missing topology.
 */
export async function loadBundleFolder(given: string | undefined, options: { readonly named?: boolean } = {}): Promise<LoadedFolder> {
  return loadFolder(given, options.named ?? true);
}

/** A bundle folder read and checked (see `loadBundleFolder`). */
export interface LoadedFolder {
  readonly dir: string;
  readonly result: LoadResult;
  readonly files: readonly SourceFile[];
  readonly realPaths: ReadonlyMap<string, string>;
}

function loadFolder(given: string | undefined, named: boolean): LoadedFolder {
  const dirArg = given === undefined || given === '' ? '.' : given;
  const dir = path.resolve(dirArg);
  let stat;
  try {
    stat = statSync(dir);
  } catch {
    throw new UsageError(`cannot read ${escapeControl(dirArg)}: no such file or folder`);
  }
  if (!stat.isDirectory()) throw new UsageError(`${escapeControl(dirArg)} is not a folder; give the bundle folder that holds topology.dot`);
  const { files, skipped, realPaths } = readFolder(dir);
  const topology = findTopology(files);
  if (topology === undefined && named) {
    const why = skippedTopology(skipped, escapeControl(dirArg));
    if (why !== undefined) throw new PathError(why);
    throw new UsageError(`${escapeControl(dirArg)} is not a bundle: it holds no topology.dot`);
  }
  const loaded = loadBundle(files, { folderName: path.basename(dir), readCard: readCardOnce });
  const found = skippedReadsDiagnostics(skipped, topology?.path, 'the bundle folder');
  const result = found.length === 0 ? loaded : { ...loaded, diagnostics: sortDiagnostics([...loaded.diagnostics, ...found]) };
  return { dir, result, files, realPaths };
}

/** A card read for one load: its located tree is not kept past the read (see `ReadCardOptions.keepTree`). */
function readCardOnce(file: SourceFile, vocabulary: Vocabulary): CardReadResult {
  return readCard(file, vocabulary, { keepTree: false });
}

/** Why a folder's root-level topology was not read, when the read left one out; undefined when it holds none. */
function skippedTopology(skipped: SkippedReads, folder: string): string | undefined {
  const isTopology = (relative: string): boolean => !relative.includes('/') && /\.(dot|gv)$/i.test(relative);
  const outside = skipped.outsideLinks.find(isTopology);
  if (outside !== undefined) {
    return `${folder}/${escapeControl(outside)} is a symbolic link that leads outside ${folder}, and a link out of the bundle folder is never followed; copy the topology into the bundle folder.`;
  }
  const large = skipped.tooLarge.find(isTopology);
  if (large !== undefined) {
    return `${folder}/${escapeControl(large)} is larger than ${bundleReadLimits.fileBytes / (1024 * 1024)} MB, more than a bundle reads; make the topology smaller.`;
  }
  return undefined;
}

/** What `readBundleFolder` gives: the files read, what it left out, and where each file read really is. */
export interface BundleRead {
  /** The files read, paths relative to the bundle folder (`/` separators). */
  readonly files: SourceFile[];
  readonly skipped: SkippedReads;
  /** The real path (every symbolic link resolved) of each file read, to its path in the bundle. */
  readonly realPaths: ReadonlyMap<string, string>;
}

/** The files of a bundle folder the engine can use (see `readBundleFolder`), without what the read left out. */
export async function readBundleFiles(dir: string): Promise<SourceFile[]> {
  return readFolder(dir).files;
}

/**
 * Reads the files the engine can use: root-level topology, manifest and vocabulary candidates,
 * `ontology/extensions.yaml`, and every YAML or JSON file under `cards/`. A symbolic link is
 * followed only when its real target lies inside the bundle folder (wherever the link sits:
 * `cards` itself, an entry of `cards/`, `ontology`, a root-level file), and a folder link back
 * up or to a folder already entered is not followed; nothing outside the folder is read or
 * listed (a link is only resolved to learn where it leads). At most `bundleReadLimits`
 * is read, and `bundleSearchLimits.depth` folders below `cards/`: the root-level files and the
 * vocabulary first, then the cards in name order. What was left out comes back in `skipped`. A
 * file or folder of the bundle that cannot be read ends the command (exit 3).
 */
export async function readBundleFolder(dir: string): Promise<BundleRead> {
  return readFolder(dir);
}

function readFolder(dir: string): BundleRead {
  let root: string;
  try {
    root = realpathSync(dir);
  } catch (error) {
    throw unreadable(dir, error);
  }
  const outsideLinks: string[] = [];
  const candidates: Candidate[] = [];
  /** Real paths of the folders entered through a symbolic link (one entered twice, or a link back up, is not followed). */
  const linked = new Set<string>();
  const walk = (relative: string, real: string, depth: number): void => {
    if (depth > bundleSearchLimits.depth) return;
    for (const e of bundleEntries(root, real, path.join(dir, ...relative.split('/')))) {
      const child = `${relative}/${e.name}`;
      if (e.kind === 'outside') outsideLinks.push(child);
      else if (e.kind === 'folder') {
        if (e.linked) {
          if (linked.has(e.real) || real === e.real || real.startsWith(`${e.real}${path.sep}`)) continue;
          linked.add(e.real);
        }
        walk(child, e.real, depth + 1);
      } else if (e.kind === 'file' && /\.(ya?ml|json)$/i.test(e.name)) candidates.push({ relative: child, real: e.real });
    }
  };
  const relevantRoot = /\.(dot|gv)$|^(blueprint|extensions)\.(ya?ml|json)$/i;
  let cards: BundleEntry | undefined;
  let ontology: BundleEntry | undefined;
  for (const e of bundleEntries(root, root, dir, (name) => name === 'cards' || name === 'ontology' || relevantRoot.test(name))) {
    if (e.kind === 'outside') outsideLinks.push(e.name);
    else if (e.name === 'cards') cards = e;
    else if (e.name === 'ontology') ontology = e;
    else if (e.kind === 'file') candidates.push({ relative: e.name, real: e.real });
  }
  if (ontology?.kind === 'folder') {
    const vocabulary = bundleEntry(root, ontology.real, 'extensions.yaml');
    if (vocabulary?.kind === 'outside') outsideLinks.push('ontology/extensions.yaml');
    else if (vocabulary?.kind === 'file') candidates.push({ relative: 'ontology/extensions.yaml', real: vocabulary.real });
  }
  if (cards?.kind === 'folder') {
    if (cards.linked) linked.add(cards.real);
    walk('cards', cards.real, 0);
  }

  const files: SourceFile[] = [];
  const realPaths = new Map<string, string>();
  const tooLarge: string[] = [];
  const overLimit: string[] = [];
  let total = 0;
  for (const c of candidates) {
    let read: CappedRead;
    try {
      // (from its real path: a link swapped since it was checked is not followed again)
      read = readCapped(c.real, bundleReadLimits.fileBytes, () => files.length >= bundleReadLimits.files, (size) => total + size > bundleReadLimits.totalBytes);
    } catch (error) {
      throw unreadable(path.join(dir, ...c.relative.split('/')), error);
    }
    if (read === 'too large') tooLarge.push(c.relative);
    else if (read === 'over the limit') overLimit.push(c.relative);
    else {
      total += read.bytes;
      files.push({ path: c.relative, text: read.text });
      realPaths.set(c.real, c.relative);
    }
  }
  return { files, skipped: { outsideLinks: outsideLinks.sort(compareCodeUnits), tooLarge, overLimit }, realPaths };
}

/** A file the read may take: its path in the bundle, and its real path. */
interface Candidate {
  readonly relative: string;
  readonly real: string;
}

/**
 * A folder entry as the bundle read sees it, a symbolic link taken as what it points at: a file,
 * a folder, anything else, or a link whose target lies outside the bundle.
 */
type BundleEntry =
  | { readonly name: string; readonly kind: 'file' | 'folder'; readonly real: string; readonly linked: boolean }
  | { readonly name: string; readonly kind: 'other' | 'outside' };

/**
 * The entries of the bundle's folder `real` (`shown` in messages), sorted by name, those `wanted`
 * only (all by default); a link to nothing is left out. The kinds come with the listing: only a
 * symbolic link is looked at further.
 */
function bundleEntries(root: string, real: string, shown: string, wanted?: (name: string) => boolean): BundleEntry[] {
  let dirents: Dirent[];
  try {
    dirents = readdirSync(real, { withFileTypes: true });
  } catch (error) {
    throw unreadable(shown, error);
  }
  dirents.sort((a, b) => compareCodeUnits(a.name, b.name));
  const out: BundleEntry[] = [];
  for (const d of dirents) {
    if (wanted !== undefined && !wanted(d.name)) continue;
    const e = d.isSymbolicLink() || d.isFile() || d.isDirectory() ? fromDirent(root, real, d) : bundleEntry(root, real, d.name);
    if (e !== undefined) out.push(e);
  }
  return out;
}

function fromDirent(root: string, real: string, d: Dirent): BundleEntry | undefined {
  if (d.isSymbolicLink()) return bundleEntry(root, real, d.name);
  return { name: d.name, kind: d.isFile() ? 'file' : 'folder', real: path.join(real, d.name), linked: false };
}

/** One entry of the bundle's folder `real` (see `BundleEntry`); undefined when there is none or it is a link to nothing. */
function bundleEntry(root: string, real: string, name: string): BundleEntry | undefined {
  const full = path.join(real, name);
  let stat = lstatOrUndefined(full);
  if (stat === undefined) return undefined;
  let target = full;
  const linked = stat.isSymbolicLink();
  if (linked) {
    const resolved = realpathOrUndefined(full);
    if (resolved === undefined) {
      // (a link to nothing, or to a place that cannot be looked at: out of the folder when its
      // own text says so, else left out like any link to nothing)
      const first = readlinkOrUndefined(full);
      return first !== undefined && !isInside(root, path.resolve(real, first)) ? { name, kind: 'outside' } : undefined;
    }
    if (!isInside(root, resolved)) return { name, kind: 'outside' };
    target = resolved;
    stat = statOrUndefined(resolved);
    if (stat === undefined) return undefined;
  }
  if (stat.isFile()) return { name, kind: 'file', real: target, linked };
  if (stat.isDirectory()) return { name, kind: 'folder', real: target, linked };
  return { name, kind: 'other' };
}

function lstatOrUndefined(file: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(file);
  } catch {
    return undefined;
  }
}

function statOrUndefined(file: string): ReturnType<typeof statSync> | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}

function realpathOrUndefined(file: string): string | undefined {
  try {
    return realpathSync(file);
  } catch {
    return undefined;
  }
}

function readlinkOrUndefined(file: string): string | undefined {
  try {
    return readlinkSync(file);
  } catch {
    return undefined;
  }
}

/** True when `file` is `root` or lies under it (both real, absolute paths). */
function isInside(root: string, file: string): boolean {
  return file === root || file.startsWith(root.endsWith(path.sep) ? root : `${root}${path.sep}`);
}

/** What `readCapped` gives: the text and its size in bytes, or why it was not read. */
type CappedRead = { readonly text: string; readonly bytes: number } | 'too large' | 'over the limit';

/**
 * The text of the regular file `file`: `too large` when it holds more than `cap` bytes (it is read
 * no further than that), `over the limit` when `full()` says no more file may be read or `over`
 * says its size would pass the bundle's limit. Opened without
 * waiting, so a pipe put in a file's place cannot hold the command up; its size is the one of the
 * file opened.
 */
function readCapped(file: string, cap: number, full: () => boolean, over: (size: number) => boolean): CappedRead {
  const handle = openSync(file, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
  try {
    const stat = fstatSync(handle);
    if (!stat.isFile()) throw new Error('it is no longer a regular file');
    if (stat.size > cap) return 'too large';
    if (full() || over(stat.size)) return 'over the limit';
    let buffer = Buffer.allocUnsafe(stat.size + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length > cap) return 'too large';
        // (the file grew since it was measured)
        const larger = Buffer.allocUnsafe(Math.min(cap + 1, length * 2 + 64 * 1024));
        buffer.copy(larger, 0, 0, length);
        buffer = larger;
      }
      const read = readSync(handle, buffer, length, buffer.length - length, null);
      if (read === 0) break;
      length += read;
    }
    if (length > cap) return 'too large';
    if (length !== stat.size && over(length)) return 'over the limit';
    return { text: buffer.toString('utf8', 0, length), bytes: length };
  } finally {
    closeSync(handle);
  }
}

/** The error for a file or folder of the bundle that cannot be read (exit 3, no usage hint). */
function unreadable(file: string, error: unknown): PathError {
  const reason = (error as NodeJS.ErrnoException | undefined)?.code === 'EACCES' ? 'permission denied' : error instanceof Error ? error.message : String(error);
  return new PathError(`cannot read ${escapeControl(file)}: ${escapeControl(reason)}; make it readable, or move it out of the bundle folder`);
}

async function validate(rest: string[], flags: Map<string, string>, io: Io): Promise<number> {
  only(flags, ['format', 'ignore', 'severity', 'quiet', 'max-warnings', 'sarif-root', 'docs-url'], 'validate');
  const format = formatFlag(flags, ['text', 'json', 'sarif', 'github']);
  const ignore = listFlag(flags, 'ignore');
  const severity = severityFlag(flags);
  const unknown = unknownSelectors([...ignore, ...severity.keys()]);
  if (unknown.length) throw new UsageError(`unknown diagnostic code ${unknown.map(escapeControl).join(', ')}; \`darkprint explain <code>\` lists none by that name`);
  const maxWarnings = maxWarningsFlag(flags);
  if (flags.has('sarif-root') && format !== 'sarif' && format !== 'github') {
    throw new UsageError('--sarif-root is for --format sarif or github; add one of them, or leave --sarif-root out');
  }
  if (flags.has('docs-url') && format !== 'sarif') throw new UsageError('--docs-url is for --format sarif; add it, or leave --docs-url out');
  const root = format === 'sarif' || format === 'github' ? sarifRoot(flags.get('sarif-root')) : process.cwd();
  const docsUrl = docsUrlFlag(flags.get('docs-url'));
  const targets = findBundles(rest, io);
  const outcomes = await checkBundles(
    targets.bundles.map((t) => ({ verb: 'validate', folder: t.folder, named: t.named, format, ignore, severity: [...severity], quiet: flags.has('quiet'), root, listed: targets.listed })),
  );
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const o of outcomes) for (const level of ['error', 'warning', 'info'] as const) counts[level] += o.counts[level];
  switch (format) {
    case 'json':
      io.out(jsonOutput(outcomes, targets.listed));
      break;
    case 'sarif': {
      const results = outcomes.flatMap((o) => o.value as SarifResult[]);
      const log = sarifLog(results, { docsUrl, rootUri: pathToFileURL(path.join(root, path.sep)).href, version: toolVersion() });
      io.out(`${escapeJsonControl(JSON.stringify(log, undefined, 2))}\n`);
      break;
    }
    case 'text':
    case 'github': {
      for (const o of outcomes) io.out(o.text);
      const where = targets.bundles.length === 1 ? escapeControl(shownFolder(targets.bundles[0].folder)) : `${targets.bundles.length} bundles`;
      io.out(`${counts.error} error(s), ${counts.warning} warning(s), ${counts.info} info(s) in ${where}\n`);
      break;
    }
    default:
      assertNever(format);
  }
  if (maxWarnings !== undefined && counts.warning > maxWarnings) {
    io.err(`darkprint: ${counts.warning} warning(s) found, more than --max-warnings ${maxWarnings} allows; fix some of them, or raise the limit.\n`);
    return exitCodes.findings;
  }
  return counts.error > 0 ? exitCodes.findings : exitCodes.ok;
}

async function report(rest: string[], flags: Map<string, string>, io: Io): Promise<number> {
  only(flags, ['format'], 'report');
  const format = formatFlag(flags, ['text', 'json']);
  const targets = findBundles(rest, io);
  const outcomes = await checkBundles(
    targets.bundles.map((t) => ({ verb: 'report', folder: t.folder, named: t.named, format, ignore: [], severity: [], quiet: false, root: process.cwd(), listed: targets.listed })),
  );
  for (const o of outcomes) io.err(o.err);
  const written = outcomes.filter((o) => !o.failed);
  if (format === 'json') {
    if (targets.listed) io.out(jsonOutput(written, true));
    else if (written.length > 0) io.out(jsonOutput(written, false));
  } else {
    io.out(written.map((o) => o.text).join('\n'));
  }
  return outcomes.some((o) => o.failed) ? exitCodes.findings : exitCodes.ok;
}

/** The JSON of `validate` or `report`: one bundle's object, or `{ bundles: [...] }` for a search or several paths. */
function jsonOutput(outcomes: readonly CheckOutcome[], listed: boolean): string {
  const value = listed ? { bundles: outcomes.map((o) => o.value) } : outcomes[0].value;
  return `${escapeJsonControl(JSON.stringify(value, undefined, 2))}\n`;
}

function maxWarningsFlag(flags: Map<string, string>): number | undefined {
  const raw = flags.get('max-warnings');
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (!/^-?[0-9]+$/.test(raw.trim()) || !Number.isSafeInteger(value) || value < -1) {
    throw new UsageError(`--max-warnings takes a whole number of warnings, 0 or more (-1 for no limit), not ${escapeControl(raw)}`);
  }
  return value === -1 ? undefined : value;
}

/**
 * The folder SARIF and GitHub paths are relative to: `given`, or the repository the current
 * folder is in (the nearest folder at or above it that holds `.git`), or the current folder.
 */
function sarifRoot(given: string | undefined): string {
  if (given !== undefined) {
    const dir = path.resolve(given);
    if (!statOrUndefined(dir)?.isDirectory()) throw new UsageError(`--sarif-root ${escapeControl(given)} is not a folder; give the repository root`);
    return dir;
  }
  const cwd = process.cwd();
  for (let dir = cwd; ; ) {
    if (existsSync(path.join(dir, '.git'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return cwd;
    dir = parent;
  }
}

/** The diagnostics page rules link to: `given` (an absolute URL), or the `docs/diagnostics.md` shipped beside the command. */
function docsUrlFlag(given: string | undefined): string {
  if (given === undefined) return pathToFileURL(path.resolve(__dirname, '../../docs/diagnostics.md')).href;
  let url: URL;
  try {
    url = new URL(given);
  } catch {
    throw new UsageError(`--docs-url must be an absolute URL such as https://example.org/docs/diagnostics.md, not ${escapeControl(given)}`);
  }
  url.hash = '';
  return url.href;
}

/** The version in the package.json beside the command, if it can be read. */
function toolVersion(): string | undefined {
  try {
    const version = (JSON.parse(readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as { version?: unknown }).version;
    return typeof version === 'string' ? version : undefined;
  } catch {
    return undefined;
  }
}

// ---- which bundles -------------------------------------------------------------------------

/** A bundle folder to check: as resolved from the path given (not every link resolved), and whether it was named itself. */
export interface BundleTarget {
  readonly folder: string;
  readonly named: boolean;
}

/**
 * The bundles the paths given stand for, the current folder when none is: a folder that is a
 * bundle itself (it holds a root marker, or a root-level `.dot`/`.gv` the engine reads as its
 * topology), or else every bundle a search below it finds (`searchBundles`). Every path is
 * looked at before any bundle is read: one that does not exist, or is no folder, or below which
 * no bundle is found, ends the command (exit 3, naming it). A bundle reached twice is checked
 * once, where it came first. `listed` when the answer is not one folder named on its own.
 */
export function findBundles(given: readonly string[], io: Io = processIo): { bundles: BundleTarget[]; listed: boolean } {
  const paths = given.length === 0 ? ['.'] : given.map((g) => (g === '' ? '.' : g));
  for (const p of paths) {
    const stat = statOrUndefined(path.resolve(p));
    if (stat === undefined) throw new PathError(`cannot read ${escapeControl(p)}: no such file or folder; name a folder that exists`);
    if (!stat.isDirectory()) throw new UsageError(`${escapeControl(p)} is not a folder; give a bundle folder, or a folder to look for bundles in`);
  }
  const bundles: BundleTarget[] = [];
  const seen = new Set<string>();
  let searched = false;
  const add = (folder: string, named: boolean): void => {
    const real = realpathOrUndefined(folder) ?? folder;
    if (seen.has(real)) return;
    seen.add(real);
    bundles.push({ folder, named });
  };
  for (const p of paths) {
    const folder = path.resolve(p);
    if (isBundleFolder(folder)) {
      add(folder, true);
      continue;
    }
    searched = true;
    const found = searchBundles(folder, p, io);
    if (found.length === 0) {
      throw new PathError(
        `no bundle at or below ${escapeControl(p)}: no folder there (${bundleSearchLimits.depth} levels deep, hidden folders, node_modules, out, dist and coverage left out) holds a topology.dot, a blueprint.yaml or a cards folder; name a bundle folder`,
      );
    }
    for (const f of found) add(f, false);
  }
  return { bundles, listed: searched || paths.length > 1 };
}

/** True when a folder named on the command line is a bundle itself (see `findBundles`); its links are taken by name. */
function isBundleFolder(folder: string): boolean {
  let dirents: Dirent[];
  try {
    dirents = readdirSync(folder, { withFileTypes: true });
  } catch (error) {
    throw unreadable(folder, error);
  }
  const entries = dirents.map((d): SearchEntry => ({ name: d.name, directory: d.isDirectory() || (d.isSymbolicLink() && statOrUndefined(path.join(folder, d.name))?.isDirectory() === true) }));
  return bundleSearchStep(entries, 0).isBundle || entries.some((e) => !e.directory && /\.(dot|gv)$/i.test(e.name));
}

/**
 * Every bundle root at or below `top` (`shown` in messages), by `bundleSearchStep`, in
 * code-unit order of their paths. A symbolic link is followed only when its real target lies
 * inside `top`, and each real folder is entered once, so links that go round end. A folder that
 * cannot be listed is passed over with a note on stderr; past `bundleSearchLimits.folders` the
 * search stops, and says so.
 */
function searchBundles(top: string, shown: string, io: Io): string[] {
  const found: string[] = [];
  const realTop = realpathOrUndefined(top) ?? top;
  const entered = new Set<string>([realTop]);
  let listed = 0;
  let stopped = false;
  const walk = (dir: string, real: string, depth: number): void => {
    if (listed >= bundleSearchLimits.folders) {
      stopped = true;
      return;
    }
    listed++;
    let dirents: Dirent[];
    try {
      dirents = readdirSync(dir, { withFileTypes: true });
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code === 'EACCES' ? 'permission denied' : error instanceof Error ? error.message : String(error);
      io.err(`darkprint: cannot look into ${escapeControl(path.relative(process.cwd(), dir) || '.')} (${escapeControl(reason)}), so no bundle below it is checked; make it readable to check them.\n`);
      return;
    }
    const entries: SearchEntry[] = [];
    const linkedFolders = new Map<string, string>();
    for (const d of dirents) {
      if (!d.isSymbolicLink()) {
        entries.push({ name: d.name, directory: d.isDirectory() });
        continue;
      }
      // (a link out of the folder searched is not followed, nor taken for a root marker)
      const target = realpathOrUndefined(path.join(dir, d.name));
      if (target === undefined || !isInside(realTop, target)) continue;
      const directory = statOrUndefined(target)?.isDirectory() === true;
      entries.push({ name: d.name, directory });
      if (directory) linkedFolders.set(d.name, target);
    }
    const step = bundleSearchStep(entries, depth);
    if (step.isBundle) found.push(dir);
    for (const name of step.descend) {
      const realChild = linkedFolders.get(name) ?? path.join(real, name);
      if (entered.has(realChild)) continue;
      entered.add(realChild);
      walk(path.join(dir, name), realChild, depth + 1);
    }
  };
  walk(top, realTop, 0);
  if (stopped) {
    io.err(`darkprint: stopped looking for bundles below ${escapeControl(shown)} after ${bundleSearchLimits.folders.toLocaleString('en')} folders; name the bundle folders, or a folder nearer to them.\n`);
  }
  return found.sort(compareCodeUnits);
}

/** A folder as findings name it: relative to the current folder. */
function shownFolder(folder: string): string {
  return path.relative(process.cwd(), folder) || '.';
}

// ---- checking bundles, on worker threads when there are several ---------------------------

/** One bundle to check, as a worker receives it (plain data). */
interface CheckJob {
  readonly verb: 'validate' | 'report';
  readonly folder: string;
  readonly named: boolean;
  readonly format: Format;
  readonly ignore: readonly string[];
  readonly severity: readonly (readonly [string, Severity | 'off'])[];
  /** Errors only in the output (the counts keep every finding). */
  readonly quiet: boolean;
  /** The folder SARIF and GitHub paths are relative to. */
  readonly root: string;
  /** The bundle is one of a list: its JSON names its folder. */
  readonly listed: boolean;
}

/** What checking one bundle gives (plain data): its output, text or a value to put in the JSON or SARIF. */
interface CheckOutcome {
  readonly text: string;
  readonly value?: unknown;
  /** For stderr. */
  readonly err: string;
  /** Every finding after --ignore and --severity, --quiet or not. */
  readonly counts: Record<Severity, number>;
  /** `report` found no analysis to print. */
  readonly failed: boolean;
}

/**
 * Checks every bundle, in order: one in this thread, several on worker threads (as many as the
 * machine has cores, each taking the next bundle when it is done). The outcomes come back in
 * the order of `jobs`; when some failed, the first failure (in that order) is thrown, once all
 * have ended.
 */
async function checkBundles(jobs: readonly CheckJob[]): Promise<CheckOutcome[]> {
  const threads = Math.min(jobs.length, availableParallelism());
  if (threads <= 1) return jobs.map(checkBundle);
  const settled = new Array<{ ok: true; outcome: CheckOutcome } | { ok: false; error: Error }>(jobs.length);
  let next = 0;
  const workers: Worker[] = [];
  try {
    await Promise.all(
      Array.from({ length: threads }, async () => {
        const worker = startWorker();
        workers.push(worker);
        while (next < jobs.length) {
          const index = next++;
          settled[index] = await askWorker(worker, jobs[index]);
        }
      }),
    );
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  const failure = settled.find((s) => !s.ok);
  if (failure !== undefined && !failure.ok) throw failure.error;
  return settled.map((s) => (s.ok ? s.outcome : never()));
}

/** What a worker sends back for one job. */
type WorkerReply = { readonly ok: true; readonly outcome: CheckOutcome } | { readonly ok: false; readonly kind: 'usage' | 'path' | 'internal'; readonly message: string };

/** Marks a worker started by `startWorker`. */
const workerMark = 'darkprint-checks';

/**
 * A worker thread running this module (see `serveChecks`): the built bundle as it is, or, when
 * this is the TypeScript source (as tests run it), the source through the same tsx loader.
 */
function startWorker(): Worker {
  if (!__filename.endsWith('.ts')) return new Worker(__filename, { workerData: workerMark });
  // (named at run time: the built bundle neither holds nor needs the loader)
  const loader = require.resolve(['tsx', 'cjs'].join('/'));
  return new Worker(`require(${JSON.stringify(loader)}); require(${JSON.stringify(__filename)});`, { eval: true, workerData: workerMark });
}

function askWorker(worker: Worker, job: CheckJob): Promise<{ ok: true; outcome: CheckOutcome } | { ok: false; error: Error }> {
  return new Promise((resolve) => {
    const done = (): void => {
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    const onMessage = (reply: WorkerReply): void => {
      done();
      if (reply.ok) resolve({ ok: true, outcome: reply.outcome });
      else resolve({ ok: false, error: reply.kind === 'usage' ? new UsageError(reply.message) : reply.kind === 'path' ? new PathError(reply.message) : internalError(reply.message) });
    };
    const onError = (error: Error): void => {
      done();
      resolve({ ok: false, error });
    };
    const onExit = (code: number): void => {
      done();
      resolve({ ok: false, error: new Error(`a worker thread ended (exit code ${code}) before it checked ${job.folder}`) });
    };
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage(job);
  });
}

function internalError(stack: string): Error {
  const error = new Error(stack.split('\n')[0]);
  error.stack = stack;
  return error;
}

/** A worker's loop: checks each job it is sent and replies with the outcome, or with what went wrong. */
function serveChecks(port: NonNullable<typeof parentPort>): void {
  port.on('message', (job: CheckJob) => {
    let reply: WorkerReply;
    try {
      reply = { ok: true, outcome: checkBundle(job) };
    } catch (error) {
      const kind = error instanceof UsageError ? 'usage' : error instanceof PathError ? 'path' : 'internal';
      reply = { ok: false, kind, message: kind === 'internal' && error instanceof Error ? (error.stack ?? error.message) : error instanceof Error ? error.message : String(error) };
    }
    port.postMessage(reply);
  });
}

/** Reads and checks one bundle, and renders what `job` asks for. */
function checkBundle(job: CheckJob): CheckOutcome {
  const { dir, result, files } = loadFolder(job.folder, job.named);
  const rel = shownFolder(dir);
  const indexFor = bundleIndex(result, files);
  const folder = job.listed ? { folder: rel } : {};
  if (job.verb === 'report') {
    const counts = { error: 0, warning: 0, info: 0 };
    if (!result.analysis || !result.blueprint) {
      const where = job.listed ? `${escapeControl(rel)}: ` : '';
      return { text: '', err: `report: ${where}the topology could not be read as a directed graph, so there is nothing to analyse; run \`darkprint validate\` to see why.\n`, counts, failed: true };
    }
    if (job.format === 'json') return { text: '', value: { ...folder, digest: result.blueprint.digest, analysis: jsonAnalysis(result.analysis) }, err: '', counts, failed: false };
    return { text: `${job.listed ? `Folder ${escapeControl(rel)}\n` : ''}${renderReport(result)}`, err: '', counts, failed: false };
  }
  // (the load's findings come sorted; a changed severity may move one)
  const all = job.ignore.length === 0 && job.severity.length === 0 ? result.diagnostics : sortDiagnostics(applyPolicy(result.diagnostics, { ignore: job.ignore, severity: new Map(job.severity) }));
  const counts = summarize(all);
  const shown = job.quiet ? all.filter((d) => d.severity === 'error') : all;
  const outcome = (text: string, value?: unknown): CheckOutcome => ({ text, ...(value !== undefined ? { value } : {}), err: '', counts, failed: false });
  switch (job.format) {
    case 'text':
      return outcome(shown.map((d) => renderTextDiagnostic(d, rel, indexFor)).join(''));
    case 'json':
      return outcome('', { ...folder, ...jsonReport(shown, result, indexFor) });
    case 'sarif':
      return outcome('', sarifResults(shown, sarifPlacement(dir, job.root, result, files, indexFor)));
    case 'github': {
      const place = githubPlacement(dir, job.root, homeFile(files), indexFor);
      return outcome(shown.map((d) => githubCommand(d, place(d))).join(''));
    }
    default:
      return assertNever(job.format);
  }
}

/** Where a finding that names no file is shown: the bundle's topology, else the folder. */
function homeFile(files: readonly SourceFile[]): string {
  return findTopology(files)?.path ?? '.';
}

/** A path of the bundle (`.` for the folder) relative to `root`, with `/` separators. */
function rootRelative(dir: string, root: string, file: string): string {
  const relative = path.relative(root, file === '.' ? dir : path.join(dir, ...file.split('/')));
  return relative === '' ? '.' : relative.split(path.sep).join('/');
}

function sarifPlacement(dir: string, root: string, result: LoadResult, files: readonly SourceFile[], indexFor: (file: string) => LineIndex | undefined) {
  return {
    uriOf: (file: string): string => relativeUri(rootRelative(dir, root, file)),
    regionOf: (file: string, span: Span) => {
      const index = indexFor(file);
      if (index === undefined) return undefined;
      const s = index.positionAt(span.start);
      const e = index.positionAt(span.end);
      return { startLine: s.line + 1, startColumn: s.character + 1, endLine: e.line + 1, endColumn: e.character + 1 };
    },
    textOf: (file: string, span: Span): string | undefined => indexFor(file)?.text.slice(span.start, span.end),
    home: result.blueprint?.topology.file.path ?? homeFile(files),
  };
}

function githubPlacement(dir: string, root: string, home: string, indexFor: (file: string) => LineIndex | undefined) {
  return (d: Diagnostic) => {
    const file = d.location.file ?? home;
    const index = d.location.file !== undefined && d.location.span !== undefined ? indexFor(d.location.file) : undefined;
    if (index === undefined || d.location.span === undefined) return { file: rootRelative(dir, root, file) };
    const s = index.positionAt(d.location.span.start);
    const e = index.positionAt(d.location.span.end);
    return { file: rootRelative(dir, root, file), line: s.line + 1, column: s.character + 1, endLine: e.line + 1, endColumn: e.character + 1 };
  };
}

function assertNever(value: never): never {
  throw new Error(`unexpected value ${String(value)}`);
}

function never(): never {
  throw new Error('unreachable');
}

async function explain(rest: string[], flags: Map<string, string>, io: Io): Promise<number> {
  only(flags, [], 'explain');
  const subject = rest[0];
  if (!subject || rest.length > 1) throw new UsageError('explain takes one diagnostic code or vocabulary term');
  if (isDiagnosticCode(subject)) {
    io.out(`${explainCode(subject)}\n`);
    return exitCodes.ok;
  }
  const term = coreVocabulary.get(subject);
  if (term) {
    io.out(`${explainTerm(term, coreVocabulary)}\n`);
    return exitCodes.ok;
  }
  throw new UsageError(`${escapeControl(subject)} is neither a diagnostic code (e.g. card/unknown-term) nor a core vocabulary term (e.g. validation)`);
}

async function exportCommand(rest: string[], flags: Map<string, string>, io: Io): Promise<number> {
  only(flags, ['attractor', 'out'], 'export');
  if (rest.length > 1) throw new UsageError(`export takes one folder, got ${rest.length}`);
  if (!flags.has('attractor')) throw new UsageError('export needs a target format: add --attractor (the only format this build writes)');
  const out = flags.get('out');
  const target = out === undefined ? undefined : await outputFile(out);
  const { dir, result, files, realPaths } = await loadBundleFolder(rest[0]);
  const rel = path.relative(process.cwd(), dir) || '.';
  if (out !== undefined && target !== undefined) {
    const own = bundlePlaceOf(target.path, dir, files, realPaths);
    if (own !== undefined) {
      io.err(`export: --out ${escapeControl(out)} is ${escapeControl(path.join(rel, own))}, a file of the bundle being exported, and export never writes over the bundle it reads; name a file outside ${escapeControl(rel)}, e.g. ${escapeControl(path.join(rel, '..', 'pipeline.dot'))}.\n`);
      return exitCodes.findings;
    }
  }
  const indexFor = bundleIndex(result, files);
  const outcome = exportAttractor(result);
  if (!outcome.ok) {
    for (const d of sortDiagnostics(outcome.blocking)) io.err(renderTextDiagnostic(d, rel, indexFor));
    for (const reason of outcome.reasons) io.err(`export: ${escapeControl(reason)}\n`);
    // (a node without a card is refused, but why it has none, such as its card's own errors, is
    // in the other errors: they follow, so that the refusal can be acted on without a second run)
    // (so are the files the read left out: a card behind a link out of the folder is missing)
    const blocking = new Set(outcome.blocking);
    const causes = sortDiagnostics(result.diagnostics.filter((d) => (d.severity === 'error' || d.code === 'bundle/files-skipped') && !blocking.has(d)));
    if (causes.length > 0) {
      const skipped = causes.some((d) => d.code === 'bundle/files-skipped');
      io.err(`export: ${skipped ? "the files the read left out and the bundle's other errors" : "the bundle's other errors"}, which may be why:\n`);
      for (const d of causes) io.err(renderTextDiagnostic(d, rel, indexFor));
    }
    return exitCodes.findings;
  }
  for (const d of sortDiagnostics(outcome.diagnostics)) io.err(renderTextDiagnostic(d, rel, indexFor));
  if (out === undefined || target === undefined) {
    io.out(outcome.text);
    return exitCodes.ok;
  }
  await writeFileAtomically(target, outcome.text, io);
  if (target.path === path.resolve(out)) io.out(`export: wrote ${escapeControl(out)}\n`);
  else io.out(`export: wrote ${escapeControl(path.relative(process.cwd(), target.path) || target.path)} through the symbolic link ${escapeControl(out)}\n`);
  return exitCodes.ok;
}

/** What `graph --format` writes: the SVG picture, the picture model, or the DOT handed to Graphviz (docs/graph.md). */
const graphFormats = ['svg', 'json', 'dot'] as const;

async function graphCommand(rest: string[], flags: Map<string, string>, io: Io): Promise<number> {
  only(flags, ['format', 'out'], 'graph');
  if (rest.length > 1) throw new UsageError(`graph takes one folder, got ${rest.length}`);
  const format = flags.get('format') ?? 'svg';
  if (!(graphFormats as readonly string[]).includes(format)) throw new UsageError(`--format must be svg, json or dot, not ${escapeControl(format)}`);
  const out = flags.get('out');
  const target = out === undefined ? undefined : await outputFile(out, graphWriter);
  const { dir, result, files, realPaths } = await loadBundleFolder(rest[0]);
  const rel = path.relative(process.cwd(), dir) || '.';
  if (out !== undefined && target !== undefined) {
    const own = bundlePlaceOf(target.path, dir, files, realPaths);
    if (own !== undefined) {
      io.err(`graph: --out ${escapeControl(out)} is ${escapeControl(path.join(rel, own))}, a file of the bundle being drawn, and graph never writes over the bundle it reads; name a file outside ${escapeControl(rel)}, e.g. ${escapeControl(path.join(rel, '..', `graph.${format}`))}.\n`);
      return exitCodes.findings;
    }
  }
  const picture = pictureOf(result, { hideByteOrderMark: true, files });
  if (!picture.graph.drawn) {
    const indexFor = bundleIndex(result, files);
    for (const d of result.diagnostics.filter((d) => d.severity === 'error')) io.err(renderTextDiagnostic(d, rel, indexFor));
    io.err(`graph: the topology could not be read as a directed graph, so there is nothing to draw; fix the errors above and draw again.\n`);
    return exitCodes.findings;
  }
  const text = format === 'json' ? `${escapeJsonControl(JSON.stringify(picture, undefined, 2))}\n` : format === 'dot' ? pictureDot(picture) : await renderPicture(picture);
  if (out === undefined || target === undefined) {
    io.out(text);
    return exitCodes.ok;
  }
  await writeFileAtomically(target, text, io, graphWriter);
  if (target.path === path.resolve(out)) io.out(`graph: wrote ${escapeControl(out)}\n`);
  else io.out(`graph: wrote ${escapeControl(path.relative(process.cwd(), target.path) || target.path)} through the symbolic link ${escapeControl(out)}\n`);
  return exitCodes.ok;
}

async function importCommand(rest: string[], flags: Map<string, string>, io: Io): Promise<number> {
  only(flags, ['as', 'out'], 'import');
  if (rest.length !== 1) throw new UsageError('import takes one pipeline file, e.g. `darkprint import pipeline.dot --as my-handle --out drafts/pipeline`');
  const author = flags.get('as');
  if (author === undefined || author.trim().length === 0) throw new UsageError('import needs --as <handle>: the author every imported card records');
  const outArg = flags.get('out');
  if (outArg === undefined || outArg.trim().length === 0) throw new UsageError('import needs --out <dir>: a new folder for the draft bundle');
  const file = rest[0];
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${escapeControl(file)}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const out = path.resolve(outArg);
  const existing = await describeExisting(out);
  if (existing !== undefined) {
    io.err(`import: ${escapeControl(outArg)} ${existing}, and import never writes over anything; name a new folder (or an empty one) with --out.\n`);
    return exitCodes.findings;
  }
  const display = path.relative(process.cwd(), path.resolve(file)) || file;
  const result = importAttractor(text, { author, origin: path.basename(file), file: display });
  const index = lineIndex(text, true);
  for (const d of result.diagnostics) io.err(renderTextDiagnostic(d, '', (f) => (f === display ? index : undefined)));
  if (!result.readable) {
    io.err(`import: ${escapeControl(file)} is not a readable DOT digraph, so nothing was written; fix the errors above and import again.\n`);
    return exitCodes.findings;
  }
  const files = importedBundleFiles(result);
  const written = await writeFolderAtomically(out, files, io);
  if (written === 'filled') {
    io.err(`import: ${escapeControl(outArg)} holds files that came in while the import ran, and import never writes over anything, so nothing is written; name a new folder (or an empty one) with --out.\n`);
    return exitCodes.findings;
  }
  io.err(
    `import: the bundle in ${escapeControl(outArg)} is a draft: its cards have no ports, dependencies or prohibitions, ` +
      `and each records author "${escapeControl(author)}" and provenance "derived:attractor ${escapeControl(path.basename(file))}". Review every card before you use it.\n`,
  );
  io.out(`import: wrote ${files.length} files to ${escapeControl(outArg)}\n`);
  for (const f of files) io.out(`  ${escapeControl(f.path)}\n`);
  return exitCodes.ok;
}

/** Line tables of the bundle's files, made when first asked (findings name files by their path in the bundle). */
function bundleIndex(result: LoadResult, files: readonly SourceFile[]): (file: string) => LineIndex | undefined {
  let texts: Map<string, string> | undefined;
  const indexes = new Map<string, LineIndex>();
  return (file) => {
    let index = indexes.get(file);
    if (index === undefined) {
      texts ??= sourceTexts(result, files);
      const source = texts.get(file);
      if (source === undefined) return undefined;
      index = lineIndex(source, true);
      indexes.set(file, index);
    }
    return index;
  };
}

/** Where `export --out` writes: the real file behind the path given, and its mode when it exists. */
/**
 * The bundle-relative path of `file` (a real path) when writing it would change what the bundle
 * at `dir` reads, whether or not it was read this time (a card skipped for its size, one past the
 * limits, a file not there yet): a file the read took (through a link too), anything under
 * `cards/`, `ontology/extensions.yaml`, a root-level manifest or vocabulary name, and a root-level
 * `.dot`/`.gv` unless the bundle keeps a `topology.dot`, which wins over any other (so an earlier
 * export beside it is no part of the bundle). Undefined for a file the bundle does not read.
 */
function bundlePlaceOf(file: string, dir: string, files: readonly SourceFile[], realPaths: ReadonlyMap<string, string>): string | undefined {
  const read = realPaths.get(file);
  const topology = classifyFiles(files).topology?.path;
  const keepsTopologyDot = topology !== undefined && topology.toLowerCase() === 'topology.dot';
  const rootDot = (relative: string): boolean => !relative.includes('/') && /\.(dot|gv)$/i.test(relative);
  if (read !== undefined) return rootDot(read) && keepsTopologyDot && read !== topology ? undefined : read;
  let real: string;
  try {
    real = realpathSync(dir);
  } catch {
    return undefined;
  }
  const relative = path.relative(real, file);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return undefined;
  const place = relative.split(path.sep).join('/');
  if (place.startsWith('cards/') || place === 'ontology/extensions.yaml') return place;
  if (place.includes('/')) return undefined;
  if (/^(blueprint|extensions)\.(ya?ml|json)$/i.test(place)) return place;
  if (rootDot(place)) return keepsTopologyDot && place.toLowerCase() !== 'topology.dot' ? undefined : place;
  return undefined;
}

interface OutputFile {
  /** Real and absolute: every symbolic link resolved, the file itself perhaps not there yet. */
  readonly path: string;
  /** The permission bits of the file written over, kept by the new one; undefined for a new file. */
  readonly mode?: number;
}

/** The command that writes an `--out` file, as its messages name it, and what it prints without one. */
interface OutputWriter {
  readonly verb: string;
  readonly printed: string;
  /** A file name to suggest. */
  readonly example: string;
}

const exportWriter: OutputWriter = { verb: 'export', printed: 'the pipeline', example: 'pipeline.dot' };
const graphWriter: OutputWriter = { verb: 'graph', printed: 'the picture', example: 'graph.svg' };

/**
 * The file `--out` names, through any symbolic links (a link is written through: its target
 * gets the new text, the link stays), found before any work is done. Refuses a folder, a folder
 * that does not exist, links that go round, and anything but a regular file (a device such as
 * /dev/null is never replaced).
 */
async function outputFile(out: string, writer: OutputWriter = exportWriter): Promise<OutputFile> {
  let current = path.resolve(out);
  for (let hops = 0; hops <= 40; hops++) {
    const shown = hops === 0 ? path.dirname(out) : path.dirname(current);
    const folder = await fs.realpath(path.dirname(current)).catch(() => undefined);
    if (folder === undefined) throw new UsageError(`cannot write ${escapeControl(out)}: the folder ${escapeControl(shown)} does not exist`);
    if (!(await fs.stat(folder)).isDirectory()) throw new UsageError(`cannot write ${escapeControl(out)}: ${escapeControl(shown)} is not a folder`);
    current = path.join(folder, path.basename(current));
    const stat = await fs.lstat(current).catch(() => undefined);
    if (stat === undefined) return { path: current };
    if (stat.isSymbolicLink()) {
      current = path.resolve(folder, await fs.readlink(current));
      continue;
    }
    if (stat.isDirectory()) throw new UsageError(`--out ${escapeControl(out)} is a folder; name the file to write, e.g. ${escapeControl(path.join(out, writer.example))}`);
    if (!stat.isFile()) throw new UsageError(`--out ${escapeControl(out)} is not a regular file (a device, pipe or socket), which ${writer.verb} never replaces; name a file, or leave out --out to print ${writer.printed}`);
    return { path: current, mode: stat.mode & 0o7777 };
  }
  throw new UsageError(`cannot write ${escapeControl(out)}: its symbolic links go round in a loop; name the file itself`);
}

/**
 * Writes a temporary file beside `file` (its name records this process's id, so that a later run
 * can tell one a stopped run left, and removes those first), then renames it into place: readers
 * see the old file or the whole new one. A file written over keeps its permission bits.
 */
async function writeFileAtomically(file: OutputFile, text: string, io: Io, writer: OutputWriter = exportWriter): Promise<void> {
  const folder = path.dirname(file.path);
  const prefix = temporaryPrefix(path.basename(file.path));
  const stale = await removeStaleTemporaries(folder, new RegExp(`^${escapeRegExp(prefix)}\\.([0-9]+)\\.[0-9a-f]{12}\\.tmp$`), 'file');
  for (const { name, pid } of stale) io.err(`${writer.verb}: ${escapeControl(name)} is a temporary file an earlier ${writer.verb} left behind when it was stopped (process ${pid} no longer runs), so it is removed.\n`);
  const temp = path.join(folder, `${prefix}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await fs.writeFile(temp, text, { flag: 'wx', mode: file.mode ?? 0o666 });
    // (the mode given to open is narrowed by the umask: set it exactly)
    if (file.mode !== undefined) await fs.chmod(temp, file.mode);
    await fs.rename(temp, file.path);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw new PathError(`cannot write ${escapeControl(file.path)}: ${escapeControl(error instanceof Error ? error.message : String(error))}; make its folder writable, or name another file with --out`);
  }
}

/**
 * How the temporary file or folder for a target named `name` begins: a dot, then the name, cut
 * (between characters) to 64 bytes, so that the suffixes after it still fit in a file name.
 */
function temporaryPrefix(name: string): string {
  let kept = '';
  for (const c of name) {
    if (Buffer.byteLength(kept + c) > 64) break;
    kept += c;
  }
  return `.${kept}`;
}

/** `text` as a regular expression that matches it and nothing else. */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Removes from `folder` the temporary files (or folders) an earlier run of this command left
 * when it was stopped before it could (`kill -9`, a power cut): only entries whose whole name
 * `pattern` matches (it captures the process id the name records) and whose process no longer
 * runs. Gives the names removed, each with the process id it records.
 */
async function removeStaleTemporaries(folder: string, pattern: RegExp, kind: 'file' | 'folder'): Promise<{ name: string; pid: number }[]> {
  const removed: { name: string; pid: number }[] = [];
  const names = await fs.readdir(folder).catch(() => [] as string[]);
  for (const name of names.sort(compareCodeUnits)) {
    const pid = Number(pattern.exec(name)?.[1]);
    if (!Number.isSafeInteger(pid) || pid <= 0 || isRunning(pid)) continue;
    const entry = path.join(folder, name);
    const stat = await fs.lstat(entry).catch(() => undefined);
    if (stat === undefined || (kind === 'file' ? !stat.isFile() : !stat.isDirectory())) continue;
    await fs.rm(entry, { recursive: kind === 'folder', force: true });
    removed.push({ name, pid });
  }
  return removed;
}

/** True unless no process has the id `pid` (another user's process counts as running). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** Why `dir` cannot receive an import (it holds something), or undefined when it is absent or an empty folder. */
async function describeExisting(dir: string): Promise<string | undefined> {
  const stat = await fs.lstat(dir).catch(() => undefined);
  if (!stat) return undefined;
  if (!stat.isDirectory()) return 'already exists and is not a folder';
  return (await fs.readdir(dir)).length > 0 ? 'already holds files' : undefined;
}

/**
 * Writes `files` into a temporary folder beside `dir` (its name records this process's id, so
 * that a later run can tell one a stopped run left), then renames it to `dir`, so a failure never
 * leaves half a bundle. Every path must stay inside the folder: a path that would leave it is a
 * bug, never written. Gives `filled`, having written nothing, when something came into `dir`
 * meanwhile.
 */
async function writeFolderAtomically(dir: string, files: readonly SourceFile[], io: Io): Promise<'written' | 'filled'> {
  const parent = path.dirname(dir);
  try {
    await makeFolders(parent);
  } catch (error) {
    throw cannotWrite(error, `cannot create ${escapeControl(parent)}`, 'make its parent writable, or name another folder with --out');
  }
  const prefix = `${temporaryPrefix(path.basename(dir))}.import-`;
  const stale = await removeStaleTemporaries(parent, new RegExp(`^${escapeRegExp(prefix)}([0-9]+)-[A-Za-z0-9]{6}$`), 'folder');
  for (const { name, pid } of stale) io.err(`import: ${escapeControl(name)} is a temporary folder an earlier import left behind when it was stopped (process ${pid} no longer runs), so it is removed.\n`);
  let temp: string;
  try {
    temp = await fs.mkdtemp(path.join(parent, `${prefix}${process.pid}-`));
  } catch (error) {
    throw cannotWrite(error, `cannot write into ${escapeControl(parent)}`, 'make it writable, or name another folder with --out');
  }
  try {
    for (const f of files) {
      const target = insideFolder(temp, f.path);
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.writeFile(target, f.text, { flag: 'wx' });
    }
    if ((await describeExisting(dir)) !== undefined) {
      await fs.rm(temp, { recursive: true, force: true });
      return 'filled';
    }
    try {
      // an empty folder may stand where the bundle goes; rmdir removes it only while it is empty
      if (await fs.lstat(dir).catch(() => undefined)) await fs.rmdir(dir);
      await fs.rename(temp, dir);
    } catch (error) {
      // (filled between the look and the rename)
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'ENOTDIR') throw error;
      await fs.rm(temp, { recursive: true, force: true });
      return 'filled';
    }
    return 'written';
  } catch (error) {
    await fs.rm(temp, { recursive: true, force: true });
    if (error instanceof PathError || typeof (error as NodeJS.ErrnoException).code !== 'string') throw error;
    throw cannotWrite(error, `cannot write the bundle to ${escapeControl(dir)}`, 'name another folder with --out');
  }
}

/**
 * Creates `dir` and the folders above it that are missing, one at a time. (Node's recursive
 * `mkdir` retries without end where a parent exists but refuses new entries with ENOENT, as
 * `/proc` does: `--out /proc/x/y` never returned.)
 */
async function makeFolders(dir: string): Promise<void> {
  const missing: string[] = [];
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    const stat = await fs.stat(current).catch(() => undefined);
    if (stat !== undefined) {
      if (!stat.isDirectory()) throw Object.assign(new Error(`${current} is not a folder`), { code: 'ENOTDIR' });
      break;
    }
    missing.push(current);
    if (path.dirname(current) === current) break;
  }
  for (const folder of missing.reverse()) {
    try {
      await fs.mkdir(folder);
    } catch (error) {
      // (made meanwhile by another run: fine)
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
}

/**
 * A file system's refusal to write as the user's problem (exit 3), not the tool's: what could not
 * be done, why, and `fix`; a name too long for the file system says so instead of the fix.
 */
function cannotWrite(error: unknown, what: string, fix: string): PathError {
  const reason = escapeControl(error instanceof Error ? error.message : String(error));
  if ((error as NodeJS.ErrnoException).code === 'ENAMETOOLONG') return new PathError(`${what}: a name in it is too long for the file system (${reason}); name a shorter folder with --out`);
  return new PathError(`${what}: ${reason}; ${fix}`);
}

/** `relative` resolved inside `root`; throws on any path that is absolute, empty, or steps out with `..`. */
export function insideFolder(root: string, relative: string): string {
  const segments = relative.split('/');
  const bad = relative.length === 0 || relative.includes('\\') || relative.includes('\u0000') || path.isAbsolute(relative) || segments.some((s) => s === '' || s === '.' || s === '..');
  const target = path.resolve(root, ...segments);
  if (bad || !target.startsWith(root + path.sep)) throw new Error(`refusing to write ${JSON.stringify(relative)}: it is not a plain path inside the output folder`);
  return target;
}

// ---- rendering --------------------------------------------------------------------------

/**
 * The texts findings' spans count in, by file: the files as the bundle read them, or, when no
 * blueprint came of it (a topology that is no directed graph), as read from the folder (the
 * same texts).
 */
function sourceTexts(result: LoadResult, files: readonly SourceFile[]): Map<string, string> {
  const texts = new Map<string, string>();
  for (const f of files) texts.set(f.path, f.text);
  const b = result.blueprint;
  if (b !== undefined) {
    texts.set(b.topology.file.path, b.topology.file.text);
    if (b.manifestFile !== undefined) texts.set(b.manifestFile.path, b.manifestFile.text);
    if (b.vocabularyFile !== undefined) texts.set(b.vocabularyFile.path, b.vocabularyFile.text);
    for (const c of b.cardFiles) texts.set(c.read.file, c.read.text);
  }
  return texts;
}

/**
 * JSON text with DEL and the C1 controls (U+007F–U+009F) written as `\u` escapes, as
 * `JSON.stringify` already writes the C0 ones: the same JSON value, and nothing in it that a
 * terminal could take for a command (docs/compatibility.md#control-characters).
 */
export function escapeJsonControl(json: string): string {
  return json.replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Replaces control characters (and DEL) by visible escapes so user text cannot drive the terminal. */
export function escapeControl(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f\u0080-\u009f]/g, (c) => {
    const code = c.charCodeAt(0);
    if (code === 10) return '\\n';
    if (code === 9) return '\\t';
    if (code === 13) return '\\r';
    return `\\x${code.toString(16).padStart(2, '0')}`;
  });
}

function renderTextDiagnostic(d: Diagnostic, dir: string, indexFor: (file: string) => LineIndex | undefined): string {
  const file = d.location.file ? path.join(dir, d.location.file) : dir;
  let where = escapeControl(file);
  const index = d.location.file ? indexFor(d.location.file) : undefined;
  if (d.location.span && index) {
    const p = index.positionAt(d.location.span.start);
    where += `:${p.line + 1}:${p.character + 1}`;
  }
  let text = `${where}: ${d.severity} ${d.code}: ${escapeControl(d.message)}\n`;
  if (d.hint) text += `  ${escapeControl(d.hint)}\n`;
  return text;
}

interface JsonLocation {
  file?: string;
  line?: number;
  column?: number;
  endLine?: number;
  endColumn?: number;
  nodeId?: string;
  cardRef?: string;
  edge?: { source: string; target: string };
  path?: string;
}

function jsonReport(diagnostics: readonly Diagnostic[], result: LoadResult, indexFor: (file: string) => LineIndex | undefined): object {
  return {
    diagnostics: diagnostics.map((d) => {
      const location: JsonLocation = {};
      const l = d.location;
      if (l.file !== undefined) location.file = l.file;
      const index = l.file ? indexFor(l.file) : undefined;
      if (l.span && index) {
        const s = index.positionAt(l.span.start);
        const e = index.positionAt(l.span.end);
        location.line = s.line + 1;
        location.column = s.character + 1;
        location.endLine = e.line + 1;
        location.endColumn = e.character + 1;
      }
      if (l.nodeId !== undefined) location.nodeId = l.nodeId;
      if (l.cardRef !== undefined) location.cardRef = l.cardRef;
      if (l.edge !== undefined) location.edge = { source: l.edge.source, target: l.edge.target };
      if (l.path !== undefined) location.path = l.path;
      return { code: d.code, severity: d.severity, message: d.message, ...(d.hint !== undefined ? { hint: d.hint } : {}), location };
    }),
    ...(result.blueprint ? { digest: result.blueprint.digest } : {}),
    ...(result.analysis ? { analysis: jsonAnalysis(result.analysis) } : {}),
  };
}

function jsonAnalysis(a: Analysis): object {
  return {
    security: {
      level: a.security.level,
      raw: a.security.raw,
      rationale: a.security.rationale,
      penalties: a.security.penalties.map((p) => ({ marker: p.marker, weight: p.weight, nodeIds: p.nodeIds })),
    },
    autonomy: {
      level: a.autonomy.level,
      class: a.autonomy.autonomyClass,
      fraction: a.autonomy.fraction,
      staffingFraction: a.autonomy.staffingFraction,
      control: a.autonomy.control,
    },
    phaseCoverage: a.phaseCoverage,
  };
}

export function renderReport(result: LoadResult): string {
  const b = result.blueprint!;
  const a = result.analysis!;
  const lines: string[] = [];
  lines.push(`Blueprint ${escapeControl(b.manifest.slug)}${b.manifest.title ? ` (${escapeControl(b.manifest.title)})` : ''}`);
  lines.push(`  digest    ${b.digest}`);
  lines.push(`  nodes     ${b.graph.ids.length}, edges ${b.edges.length}, cards ${b.cards.size}`);
  lines.push('');
  lines.push(`Security: level ${a.security.level} of 4 (raw ${a.security.raw})`);
  // (node ids and terms are the user's text: escaped like the rest,
  // docs/compatibility.md#control-characters)
  const list = (items: readonly string[]): string => items.map(escapeControl).join(', ');
  lines.push(`  ${escapeControl(a.security.rationale)}`);
  if (a.security.penalties.length === 0) lines.push('  No risk marker falls on any node.');
  for (const p of a.security.penalties) {
    lines.push(`  ${escapeControl(p.marker)}  −${p.weight.toFixed(2)}  on ${list(p.nodeIds)}`);
  }
  for (const f of a.security.findings) {
    lines.push(`    ${escapeControl(f.nodeId)}: ${escapeControl(f.marker)} (${f.establishedBy}) ${escapeControl(f.explanation)}`);
  }
  lines.push('');
  const au = a.autonomy;
  lines.push(`Autonomy: level ${au.level} (${au.label})`);
  lines.push(`  ${escapeControl(au.rationale)}`);
  lines.push(`  staffing reading: ${au.autonomousNodes} of ${au.totalNodes} nodes run unattended (fraction ${au.staffingFraction})`);
  lines.push(
    au.control.totalNodes === 0
      ? '  control reading: the graph declares no control point'
      : `  control reading: ${au.control.unattendedNodes} of ${au.control.totalNodes} control points run unattended (${au.control.fraction})${au.control.counted ? '' : '; fewer than 2, so it does not decide the band'}`,
  );
  lines.push(`  dark factory: ${au.isDarkFactory ? 'yes' : 'no'}`);
  lines.push('');
  const pc = a.phaseCoverage;
  lines.push(`Phase coverage: ${pc.covered.length ? list(pc.covered) : 'none'} covered${pc.missing.length ? `; missing ${list(pc.missing)}` : ''}`);
  for (const [phase, ids] of Object.entries(pc.byPhase)) lines.push(`  ${escapeControl(phase).padEnd(15)} ${list(ids as readonly string[]) || '-'}`);
  lines.push(`  ${'(no phase)'.padEnd(15)} ${list(pc.unphased) || '-'}`);
  return `${lines.join('\n')}\n`;
}

export type { Severity };

if (!isMainThread && workerData === workerMark && parentPort !== null) {
  serveChecks(parentPort);
} else if (require.main === module) {
  quietOnClosedStdout();
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
