/**
 * The `darkprint` command line (SPEC §10). The only module of the engine that touches the file
 * system, argv and the process: it reads a bundle folder into `{ path, text }` values, calls the
 * engine, and renders the result. Exit codes: 0 ran and found no error; 1 found errors or
 * refused; 2 the tool itself failed (a bug); 3 the invocation is wrong or a path is unreadable.
 */
import { promises as fs } from 'node:fs';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import {
  applyPolicy,
  isDiagnosticCode,
  lineIndex,
  sortDiagnostics,
  summarize,
  unknownSelectors,
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

class UsageError extends Error {}

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
          bundle with a finding that stops storage or a node without a card.
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
 * Reads and checks a bundle folder: `dirArg`, or the current folder when none is named (E§11's
 * `validate [<dir>]`). Also gives the files read, whose texts place findings on lines.
 */
async function loadFolder(given: string | undefined): Promise<{ dir: string; result: LoadResult; files: readonly SourceFile[] }> {
  const dirArg = given === undefined || given === '' ? '.' : given;
  const dir = path.resolve(dirArg);
  let stat;
  try {
    stat = await fs.stat(dir);
  } catch {
    throw new UsageError(`cannot read ${escapeControl(dirArg)}: no such file or folder`);
  }
  if (!stat.isDirectory()) throw new UsageError(`${escapeControl(dirArg)} is not a folder; give the bundle folder that holds topology.dot`);
  const files = await readBundleFiles(dir);
  if (!files.some((f) => !f.path.includes('/') && /\.(dot|gv)$/i.test(f.path))) {
    throw new UsageError(`${escapeControl(dirArg)} is not a bundle: it holds no topology.dot`);
  }
  return { dir, result: loadBundle(files, { folderName: path.basename(dir) }), files };
}

/** Reads the files the engine can use: root topology/manifest/vocabulary candidates, `ontology/`, and everything under `cards/`. */
export async function readBundleFiles(dir: string): Promise<SourceFile[]> {
  const out: SourceFile[] = [];
  const relevantRoot = /\.(dot|gv)$|^(blueprint|extensions)\.(ya?ml|json)$/i;
  const read = async (relative: string): Promise<void> => {
    try {
      out.push({ path: relative, text: await fs.readFile(path.join(dir, relative), 'utf8') });
    } catch (error) {
      throw new UsageError(`cannot read ${escapeControl(path.join(dir, relative))}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  /** Real paths of the folders entered through a symbolic link (a link back up is not followed). */
  const linked = new Set<string>();
  const walk = async (relative: string, depth: number): Promise<void> => {
    if (depth > 16) return;
    let entries;
    try {
      entries = await followedEntries(path.join(dir, relative));
    } catch (error) {
      throw new UsageError(`cannot read ${escapeControl(path.join(dir, relative))}: ${error instanceof Error ? error.message : String(error)}`);
    }
    for (const e of entries) {
      const child = relative ? `${relative}/${e.name}` : e.name;
      if (e.directory) {
        if (e.linked) {
          const real = await fs.realpath(path.join(dir, child));
          const within = await fs.realpath(path.join(dir, relative));
          if (linked.has(real) || within === real || within.startsWith(`${real}${path.sep}`)) continue;
          linked.add(real);
        }
        await walk(child, depth + 1);
      } else if (e.file && /\.(ya?ml|json)$/i.test(e.name)) await read(child);
    }
  };
  for (const e of await followedEntries(dir)) {
    if (e.file && relevantRoot.test(e.name)) await read(e.name);
    else if (e.directory && e.name === 'cards') await walk('cards', 0);
    else if (e.directory && e.name === 'ontology') {
      const p = path.join(dir, 'ontology', 'extensions.yaml');
      try {
        if ((await fs.stat(p)).isFile()) await read('ontology/extensions.yaml');
      } catch {
        // no ontology/extensions.yaml: nothing to read
      }
    }
  }
  return out;
}

/** A folder's entries, each symbolic link taken as what it points at (a link to nothing is left out). */
async function followedEntries(dir: string): Promise<{ name: string; directory: boolean; file: boolean; linked: boolean }[]> {
  const out: { name: string; directory: boolean; file: boolean; linked: boolean }[] = [];
  for (const e of await fs.readdir(dir, { withFileTypes: true })) {
    if (!e.isSymbolicLink()) {
      out.push({ name: e.name, directory: e.isDirectory(), file: e.isFile(), linked: false });
      continue;
    }
    try {
      const target = await fs.stat(path.join(dir, e.name));
      out.push({ name: e.name, directory: target.isDirectory(), file: target.isFile(), linked: true });
    } catch {
      // a link to nothing
    }
  }
  return out;
}

async function validate(rest: string[], flags: Map<string, string>, io: Io): Promise<number> {
  only(flags, ['format', 'ignore', 'severity'], 'validate');
  if (rest.length > 1) throw new UsageError(`validate takes one folder, got ${rest.length}`);
  const format = formatFlag(flags);
  const ignore = listFlag(flags, 'ignore');
  const severity = severityFlag(flags);
  const unknown = unknownSelectors([...ignore, ...severity.keys()]);
  if (unknown.length) throw new UsageError(`unknown diagnostic code ${unknown.map(escapeControl).join(', ')}; \`darkprint explain <code>\` lists none by that name`);
  const { dir, result, files } = await loadFolder(rest[0]);
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
  const { result } = await loadFolder(rest[0]);
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
  if (out !== undefined) await checkOutputFile(out);
  const { dir, result, files } = await loadFolder(rest[0]);
  const rel = path.relative(process.cwd(), dir) || '.';
  const indexFor = bundleIndex(result, files);
  const outcome = exportAttractor(result);
  if (!outcome.ok) {
    for (const d of sortDiagnostics(outcome.blocking)) io.err(renderTextDiagnostic(d, rel, indexFor));
    for (const reason of outcome.reasons) io.err(`export: ${escapeControl(reason)}\n`);
    // (a node without a card is refused, but why it has none, such as its card's own errors, is
    // in the other errors: they follow, so that the refusal can be acted on without a second run)
    const blocking = new Set(outcome.blocking);
    const causes = sortDiagnostics(result.diagnostics.filter((d) => d.severity === 'error' && !blocking.has(d)));
    if (causes.length > 0) {
      io.err(`export: the bundle's other errors, which may be why:\n`);
      for (const d of causes) io.err(renderTextDiagnostic(d, rel, indexFor));
    }
    return exitCodes.findings;
  }
  for (const d of sortDiagnostics(outcome.diagnostics)) io.err(renderTextDiagnostic(d, rel, indexFor));
  if (out === undefined) {
    io.out(outcome.text);
  } else {
    await writeFileAtomically(path.resolve(out), outcome.text);
    io.out(`export: wrote ${escapeControl(out)}\n`);
  }
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
  await writeFolderAtomically(out, files);
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

/** Refuses an --out that is a folder or sits in a folder that does not exist, before any work is done. */
async function checkOutputFile(out: string): Promise<void> {
  const target = path.resolve(out);
  const stat = await fs.stat(target).catch(() => undefined);
  if (stat?.isDirectory()) throw new UsageError(`--out ${escapeControl(out)} is a folder; name the file to write, e.g. ${escapeControl(path.join(out, 'pipeline.dot'))}`);
  const parent = await fs.stat(path.dirname(target)).catch(() => undefined);
  if (!parent?.isDirectory()) throw new UsageError(`cannot write ${escapeControl(out)}: the folder ${escapeControl(path.dirname(out))} does not exist`);
}

/** Writes a temporary file beside `file`, then renames it into place: readers see the old file or the whole new one. */
async function writeFileAtomically(file: string, text: string): Promise<void> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await fs.writeFile(temp, text, { flag: 'wx' });
    await fs.rename(temp, file);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw new UsageError(`cannot write ${escapeControl(file)}: ${error instanceof Error ? error.message : String(error)}`);
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
 * Writes `files` into a temporary folder beside `dir`, then renames it to `dir`, so a failure
 * never leaves half a bundle. Every path must stay inside the folder: a path that would leave it
 * is a bug, never written.
 */
async function writeFolderAtomically(dir: string, files: readonly SourceFile[]): Promise<void> {
  const parent = path.dirname(dir);
  try {
    await fs.mkdir(parent, { recursive: true });
  } catch (error) {
    throw new UsageError(`cannot create ${escapeControl(parent)}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const temp = await fs.mkdtemp(path.join(parent, `.${path.basename(dir)}.import-`));
  try {
    for (const f of files) {
      const target = insideFolder(temp, f.path);
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.writeFile(target, f.text, { flag: 'wx' });
    }
    if ((await describeExisting(dir)) !== undefined) throw new UsageError(`${escapeControl(dir)} was filled while the import ran; nothing was written`);
    // an empty folder may stand where the bundle goes; rmdir removes it only while it is empty
    if (await fs.lstat(dir).catch(() => undefined)) await fs.rmdir(dir);
    await fs.rename(temp, dir);
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
