/**
 * The `darkprint` command line (SPEC §10). The only module of the engine that touches the file
 * system, argv and the process: it reads a bundle folder into `{ path, text }` values, calls the
 * engine, and renders the result. Exit codes: 0 ran and found no error; 1 found errors or
 * refused; 2 the tool itself failed (a bug); 3 the invocation is wrong or a path is unreadable.
 */
import { constants as fsConstants, promises as fs } from 'node:fs';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import {
  applyPolicy,
  bundleReadLimits,
  classifyFiles,
  compareCodeUnits,
  isDiagnosticCode,
  lineIndex,
  skippedReadsDiagnostics,
  sortDiagnostics,
  summarize,
  unknownSelectors,
  type SkippedReads,
  type Diagnostic,
  type LineIndex,
  type Severity,
} from './index';
import { loadBundle, type LoadResult } from './bundle/resolve';
import type { SourceFile } from './bundle/model';
import type { Analysis } from './analyze';
import { explainCode } from './diagnostics/render';
import { coreVocabulary, explainTerm } from './vocabulary';
import { exportAttractor, importAttractor, importedBundleFiles } from './compile';

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
  darkprint validate [<dir>] [--format text|json] [--ignore code,...] [--severity code=level,...]
  darkprint report [<dir>] [--format text|json]
  darkprint explain <code|term>
  darkprint export [<dir>] --attractor [--out <file>]
  darkprint import <pipeline.dot> --as <handle> --out <dir>

<dir> is the bundle folder, the one that holds topology.dot; the current folder when left out.

validate  prints every finding (file:line:column: severity code: message); exits 1 when any is an error.
report    prints the analysis: security level with its rationale, autonomy with both readings,
          phase coverage, and the risk markers with the nodes they fall on (whatever the
          bundle's errors: the analysis reads them too; exits 1 only when the topology is no
          directed graph).
explain   describes a diagnostic code (e.g. bundle/prohibition-violated) or a vocabulary term (e.g. validation).
export    compiles the bundle to an Attractor pipeline, on stdout or into --out; refuses (exit 1) a
          bundle with a finding that stops storage or a node without a card, and an --out that
          is one of the bundle's own files.
import    reads an Attractor pipeline into a new draft bundle in --out (a folder that must not exist
          or be empty); every card records --as as its author.

--ignore and --severity take codes or families (attractor/), comma-separated or repeated; levels
are error, warning, info, off.
Exit codes: 0 no error found, 1 errors found or a refusal, 2 internal failure, 3 wrong invocation
or unreadable path.
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

const valueFlags = new Set(['format', 'ignore', 'severity', 'out', 'as']);
/** Value flags that take a list, and may be given more than once (the lists add up). */
const listFlags = new Set(['ignore', 'severity']);
/** Flags that take no value. */
const switchFlags = new Set(['attractor']);

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
    default:
      throw new UsageError(`unknown command \`${escapeControl(verb ?? '')}\``);
  }
}

function only(flags: Map<string, string>, allowed: readonly string[], verb: string): void {
  for (const k of flags.keys()) if (!allowed.includes(k)) throw new UsageError(`${verb} does not take --${k}`);
}

function formatFlag(flags: Map<string, string>): 'text' | 'json' {
  const f = flags.get('format') ?? 'text';
  if (f !== 'text' && f !== 'json') throw new UsageError(`--format must be text or json, not ${escapeControl(f)}`);
  return f;
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
 * Reads and checks a bundle folder: `given`, or the current folder when none is named (E§11's
 * `validate [<dir>]`). Also gives the files read, whose texts place findings on lines, and where
 * each really is. What the read left out (see `readBundleFolder`) is one more finding of the load,
 * `bundle/files-skipped`, sorted in with the others.
 */
export async function loadBundleFolder(given: string | undefined): Promise<{ dir: string; result: LoadResult; files: readonly SourceFile[]; realPaths: ReadonlyMap<string, string> }> {
  const dirArg = given === undefined || given === '' ? '.' : given;
  const dir = path.resolve(dirArg);
  let stat;
  try {
    stat = await fs.stat(dir);
  } catch {
    throw new UsageError(`cannot read ${escapeControl(dirArg)}: no such file or folder`);
  }
  if (!stat.isDirectory()) throw new UsageError(`${escapeControl(dirArg)} is not a folder; give the bundle folder that holds topology.dot`);
  const { files, skipped, realPaths } = await readBundleFolder(dir);
  const topology = classifyFiles(files).topology;
  if (topology === undefined) {
    const why = skippedTopology(skipped, escapeControl(dirArg));
    if (why !== undefined) throw new PathError(why);
    throw new UsageError(`${escapeControl(dirArg)} is not a bundle: it holds no topology.dot`);
  }
  const loaded = loadBundle(files, { folderName: path.basename(dir) });
  const found = skippedReadsDiagnostics(skipped, topology.path, 'the bundle folder');
  const result = found.length === 0 ? loaded : { ...loaded, diagnostics: sortDiagnostics([...loaded.diagnostics, ...found]) };
  return { dir, result, files, realPaths };
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
  return (await readBundleFolder(dir)).files;
}

/**
 * Reads the files the engine can use: root-level topology, manifest and vocabulary candidates,
 * `ontology/extensions.yaml`, and every YAML or JSON file under `cards/`. A symbolic link is
 * followed only when its real target lies inside the bundle folder (wherever the link sits:
 * `cards` itself, an entry of `cards/`, `ontology`, a root-level file), and a folder link back
 * up or to a folder already entered is not followed; nothing outside the folder is read or
 * listed (a link is only resolved to learn where it leads). At most `bundleReadLimits`
 * is read: the root-level files and the vocabulary first, then the cards in name order. What
 * was left out comes back in `skipped`. A file or folder of the bundle that cannot be read
 * ends the command (exit 3).
 */
export async function readBundleFolder(dir: string): Promise<BundleRead> {
  let root: string;
  try {
    root = await fs.realpath(dir);
  } catch (error) {
    throw unreadable(dir, error);
  }
  const outsideLinks: string[] = [];
  const candidates: Candidate[] = [];
  /** Real paths of the folders entered through a symbolic link (one entered twice, or a link back up, is not followed). */
  const linked = new Set<string>();
  const walk = async (relative: string, real: string, depth: number): Promise<void> => {
    if (depth > 16) return;
    for (const e of await bundleEntries(root, real, path.join(dir, ...relative.split('/')))) {
      const child = `${relative}/${e.name}`;
      if (e.kind === 'outside') outsideLinks.push(child);
      else if (e.kind === 'folder') {
        if (e.linked) {
          if (linked.has(e.real) || real === e.real || real.startsWith(`${e.real}${path.sep}`)) continue;
          linked.add(e.real);
        }
        await walk(child, e.real, depth + 1);
      } else if (e.kind === 'file' && /\.(ya?ml|json)$/i.test(e.name)) candidates.push({ relative: child, real: e.real, size: e.size });
    }
  };
  const relevantRoot = /\.(dot|gv)$|^(blueprint|extensions)\.(ya?ml|json)$/i;
  let cards: BundleEntry | undefined;
  let ontology: BundleEntry | undefined;
  for (const e of await bundleEntries(root, root, dir)) {
    if (e.name !== 'cards' && e.name !== 'ontology' && !relevantRoot.test(e.name)) continue;
    if (e.kind === 'outside') outsideLinks.push(e.name);
    else if (e.name === 'cards') cards = e;
    else if (e.name === 'ontology') ontology = e;
    else if (e.kind === 'file') candidates.push({ relative: e.name, real: e.real, size: e.size });
  }
  if (ontology?.kind === 'folder') {
    const vocabulary = await bundleEntry(root, ontology.real, 'extensions.yaml');
    if (vocabulary?.kind === 'outside') outsideLinks.push('ontology/extensions.yaml');
    else if (vocabulary?.kind === 'file') candidates.push({ relative: 'ontology/extensions.yaml', real: vocabulary.real, size: vocabulary.size });
  }
  if (cards?.kind === 'folder') {
    if (cards.linked) linked.add(cards.real);
    await walk('cards', cards.real, 0);
  }

  const files: SourceFile[] = [];
  const realPaths = new Map<string, string>();
  const tooLarge: string[] = [];
  const overLimit: string[] = [];
  let total = 0;
  for (const c of candidates) {
    if (c.size > bundleReadLimits.fileBytes) {
      tooLarge.push(c.relative);
      continue;
    }
    if (files.length >= bundleReadLimits.files || total + c.size > bundleReadLimits.totalBytes) {
      overLimit.push(c.relative);
      continue;
    }
    let text: string | undefined;
    try {
      // (from its real path: a link swapped since it was checked is not followed again)
      text = await readCapped(c.real, bundleReadLimits.fileBytes);
    } catch (error) {
      throw unreadable(path.join(dir, ...c.relative.split('/')), error);
    }
    if (text === undefined) {
      tooLarge.push(c.relative);
      continue;
    }
    total += Buffer.byteLength(text);
    files.push({ path: c.relative, text });
    realPaths.set(c.real, c.relative);
  }
  return { files, skipped: { outsideLinks: outsideLinks.sort(compareCodeUnits), tooLarge, overLimit }, realPaths };
}

/** A file the read may take: its path in the bundle, its real path, and its size when listed. */
interface Candidate {
  readonly relative: string;
  readonly real: string;
  readonly size: number;
}

/**
 * A folder entry as the bundle read sees it, a symbolic link taken as what it points at: a file
 * (with its size), a folder, anything else, or a link whose target lies outside the bundle.
 */
type BundleEntry =
  | { readonly name: string; readonly kind: 'file'; readonly real: string; readonly size: number; readonly linked: boolean }
  | { readonly name: string; readonly kind: 'folder'; readonly real: string; readonly linked: boolean }
  | { readonly name: string; readonly kind: 'other' | 'outside' };

/** The entries of the bundle's folder `real` (`shown` in messages), sorted by name; a link to nothing is left out. */
async function bundleEntries(root: string, real: string, shown: string): Promise<BundleEntry[]> {
  let names: string[];
  try {
    names = await fs.readdir(real);
  } catch (error) {
    throw unreadable(shown, error);
  }
  const out: BundleEntry[] = [];
  for (const name of names.sort(compareCodeUnits)) {
    const e = await bundleEntry(root, real, name);
    if (e !== undefined) out.push(e);
  }
  return out;
}

/** One entry of the bundle's folder `real` (see `BundleEntry`); undefined when there is none or it is a link to nothing. */
async function bundleEntry(root: string, real: string, name: string): Promise<BundleEntry | undefined> {
  const full = path.join(real, name);
  let stat = await fs.lstat(full).catch(() => undefined);
  if (stat === undefined) return undefined;
  let target = full;
  const linked = stat.isSymbolicLink();
  if (linked) {
    const resolved = await fs.realpath(full).catch(() => undefined);
    if (resolved === undefined) {
      // (a link to nothing, or to a place that cannot be looked at: out of the folder when its
      // own text says so, else left out like any link to nothing)
      const first = await fs.readlink(full).catch(() => undefined);
      return first !== undefined && !isInside(root, path.resolve(real, first)) ? { name, kind: 'outside' } : undefined;
    }
    if (!isInside(root, resolved)) return { name, kind: 'outside' };
    target = resolved;
    stat = await fs.stat(resolved).catch(() => undefined);
    if (stat === undefined) return undefined;
  }
  if (stat.isFile()) return { name, kind: 'file', real: target, size: stat.size, linked };
  if (stat.isDirectory()) return { name, kind: 'folder', real: target, linked };
  return { name, kind: 'other' };
}

/** True when `file` is `root` or lies under it (both real, absolute paths). */
function isInside(root: string, file: string): boolean {
  return file === root || file.startsWith(root.endsWith(path.sep) ? root : `${root}${path.sep}`);
}

/**
 * The text of the regular file `file`, or undefined when it holds more than `cap` bytes (it is
 * read no further than that). Opened without waiting, so a pipe put in a file's place cannot
 * hold the command up.
 */
async function readCapped(file: string, cap: number): Promise<string | undefined> {
  const handle = await fs.open(file, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new Error('it is no longer a regular file');
    const chunks: Buffer[] = [];
    let length = 0;
    let want = Math.min(stat.size, cap) + 1;
    for (;;) {
      const chunk = Buffer.alloc(Math.min(want, cap + 1 - length));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      length += bytesRead;
      if (length > cap) return undefined;
      want = 64 * 1024;
    }
    return Buffer.concat(chunks, length).toString('utf8');
  } finally {
    await handle.close();
  }
}

/** The error for a file or folder of the bundle that cannot be read (exit 3, no usage hint). */
function unreadable(file: string, error: unknown): PathError {
  const reason = (error as NodeJS.ErrnoException | undefined)?.code === 'EACCES' ? 'permission denied' : error instanceof Error ? error.message : String(error);
  return new PathError(`cannot read ${escapeControl(file)}: ${escapeControl(reason)}; make it readable, or move it out of the bundle folder`);
}

async function validate(rest: string[], flags: Map<string, string>, io: Io): Promise<number> {
  only(flags, ['format', 'ignore', 'severity'], 'validate');
  if (rest.length > 1) throw new UsageError(`validate takes one folder, got ${rest.length}`);
  const format = formatFlag(flags);
  const ignore = listFlag(flags, 'ignore');
  const severity = severityFlag(flags);
  const unknown = unknownSelectors([...ignore, ...severity.keys()]);
  if (unknown.length) throw new UsageError(`unknown diagnostic code ${unknown.map(escapeControl).join(', ')}; \`darkprint explain <code>\` lists none by that name`);
  const { dir, result, files } = await loadBundleFolder(rest[0]);
  const diagnostics = sortDiagnostics(applyPolicy(result.diagnostics, { ignore, severity }));
  const indexFor = bundleIndex(result, files);
  if (format === 'json') {
    io.out(`${escapeJsonControl(JSON.stringify(jsonReport(diagnostics, result, indexFor), undefined, 2))}\n`);
  } else {
    const rel = path.relative(process.cwd(), dir) || '.';
    for (const d of diagnostics) io.out(renderTextDiagnostic(d, rel, indexFor));
    const counts = summarize(diagnostics);
    io.out(`${counts.error} error(s), ${counts.warning} warning(s), ${counts.info} info(s) in ${escapeControl(rel)}\n`);
  }
  return diagnostics.some((d) => d.severity === 'error') ? exitCodes.findings : exitCodes.ok;
}

async function report(rest: string[], flags: Map<string, string>, io: Io): Promise<number> {
  only(flags, ['format'], 'report');
  if (rest.length > 1) throw new UsageError(`report takes one folder, got ${rest.length}`);
  const format = formatFlag(flags);
  const { result } = await loadBundleFolder(rest[0]);
  if (!result.analysis || !result.blueprint) {
    io.err('report: the topology could not be read as a directed graph, so there is nothing to analyse; run `darkprint validate` to see why.\n');
    return exitCodes.findings;
  }
  if (format === 'json') {
    io.out(`${escapeJsonControl(JSON.stringify({ digest: result.blueprint.digest, analysis: jsonAnalysis(result.analysis) }, undefined, 2))}\n`);
  } else {
    io.out(renderReport(result));
  }
  return exitCodes.ok;
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
    const own = realPaths.get(target.path);
    // (a root-level .dot beside the topology is no part of the bundle: an earlier export, say)
    const ignored = own !== undefined && !own.includes('/') && /\.(dot|gv)$/i.test(own) && own !== classifyFiles(files).topology?.path;
    if (own !== undefined && !ignored) {
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
  const texts = new Map<string, LineIndex>();
  return (file) => {
    if (!texts.has(file)) {
      const source = sourceText(result, file, files);
      if (source !== undefined) texts.set(file, lineIndex(source, true));
    }
    return texts.get(file);
  };
}

/** Where `export --out` writes: the real file behind the path given, and its mode when it exists. */
interface OutputFile {
  /** Real and absolute: every symbolic link resolved, the file itself perhaps not there yet. */
  readonly path: string;
  /** The permission bits of the file written over, kept by the new one; undefined for a new file. */
  readonly mode?: number;
}

/**
 * The file `--out` names, through any symbolic links (a link is written through: its target
 * gets the new text, the link stays), found before any work is done. Refuses a folder, a folder
 * that does not exist, links that go round, and anything but a regular file (a device such as
 * /dev/null is never replaced).
 */
async function outputFile(out: string): Promise<OutputFile> {
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
    if (stat.isDirectory()) throw new UsageError(`--out ${escapeControl(out)} is a folder; name the file to write, e.g. ${escapeControl(path.join(out, 'pipeline.dot'))}`);
    if (!stat.isFile()) throw new UsageError(`--out ${escapeControl(out)} is not a regular file (a device, pipe or socket), which export never replaces; name a file, or leave out --out to print the pipeline`);
    return { path: current, mode: stat.mode & 0o7777 };
  }
  throw new UsageError(`cannot write ${escapeControl(out)}: its symbolic links go round in a loop; name the file itself`);
}

/**
 * Writes a temporary file beside `file` (its name records this process's id, so that a later run
 * can tell one a stopped run left, and removes those first), then renames it into place: readers
 * see the old file or the whole new one. A file written over keeps its permission bits.
 */
async function writeFileAtomically(file: OutputFile, text: string, io: Io): Promise<void> {
  const folder = path.dirname(file.path);
  const prefix = temporaryPrefix(path.basename(file.path));
  const stale = await removeStaleTemporaries(folder, new RegExp(`^${escapeRegExp(prefix)}\\.([0-9]+)\\.[0-9a-f]{12}\\.tmp$`), 'file');
  for (const { name, pid } of stale) io.err(`export: ${escapeControl(name)} is a temporary file an earlier export left behind when it was stopped (process ${pid} no longer runs), so it is removed.\n`);
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
    await fs.mkdir(parent, { recursive: true });
  } catch (error) {
    throw new PathError(`cannot create ${escapeControl(parent)}: ${escapeControl(error instanceof Error ? error.message : String(error))}; make its parent writable, or name another folder with --out`);
  }
  const prefix = `${temporaryPrefix(path.basename(dir))}.import-`;
  const stale = await removeStaleTemporaries(parent, new RegExp(`^${escapeRegExp(prefix)}([0-9]+)-[A-Za-z0-9]{6}$`), 'folder');
  for (const { name, pid } of stale) io.err(`import: ${escapeControl(name)} is a temporary folder an earlier import left behind when it was stopped (process ${pid} no longer runs), so it is removed.\n`);
  const temp = await fs.mkdtemp(path.join(parent, `${prefix}${process.pid}-`));
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
    throw error;
  }
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
 * The text a finding's span counts in: the file as the bundle read it, or, when no blueprint
 * came of it (a topology that is no directed graph), as read from the folder (the same text).
 */
function sourceText(result: LoadResult, file: string, files: readonly SourceFile[]): string | undefined {
  const b = result.blueprint;
  if (b !== undefined) {
    if (b.topology.file.path === file) return b.topology.file.text;
    if (b.manifestFile?.path === file) return b.manifestFile.text;
    if (b.vocabularyFile?.path === file) return b.vocabularyFile.text;
    const card = b.cardFiles.find((c) => c.read.file === file);
    if (card !== undefined) return card.read.text;
  }
  return files.find((f) => f.path === file)?.text;
}

/**
 * JSON text with DEL and the C1 controls (U+007F–U+009F) written as `\u` escapes, as
 * `JSON.stringify` already writes the C0 ones: the same JSON value, and nothing in it that a
 * terminal could take for a command (SPEC §10: output escapes control characters).
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
  // (node ids and terms are the user's text: escaped like the rest, SPEC §10)
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

if (require.main === module) {
  quietOnClosedStdout();
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
