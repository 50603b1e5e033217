/**
 * The engine's benchmark (`npm run bench`). For generated bundles of 500, 2,000 and 5,000
 * nodes (shared/test/support/generate-bundle.ts), written to a temporary folder and read back, it prints
 * the median over several runs, after warm-up, of:
 *
 * - floor: reading every file of the folder from disk and `yaml.parseDocument` of every card,
 *   the least any checker built on the `yaml` package must do;
 * - check: reading the same files and `loadBundle` on them (classification, cards, resolution,
 *   digests, analysis, sorted diagnostics); `load` is the `loadBundle` part alone;
 * - ratio: check / floor (target: at most 2.0 at 5,000 nodes);
 * - the same three in CPU time (`process.cpuUsage`, garbage-collector threads included), which a
 *   busy machine disturbs less than wall-clock time;
 * - our DOT parse (`parseDot`) beside dot-language-support's on the same topology text: its
 *   bare `Parser.parse` and its service's `parseDocument` (parse, bind and check); target: ours
 *   at least twice as fast as its bare parse. The parsers are measured first, before any bundle
 *   check runs in the process, so both start from the same state; and once more after all the
 *   checks. The two can differ: `loadBundle` keeps a parse alive through many young collections,
 *   after which V8 may pretenure `parseDot`'s allocation sites (`node
 *   --trace-pretenuring-statistics` shows the decisions), so that its objects are born in the old
 *   generation while the strings and arrays they point at are born young; a tight loop of bare
 *   parses can then pay more in every young collection. Both tables are printed.
 *
 * Then `darkprint validate` as a command, whole processes side by side (`node bin/darkprint.js`,
 * so build first; `npm ci` does):
 *
 * - validate floor: a process that only reads every file of a 5,000-node bundle and
 *   `yaml.parseDocument`s every card, beside `darkprint validate` on it (output to /dev/null), on
 *   the generated bundle (no error, about 5,000 warnings) and on one with a warning more on every
 *   card (about 10,000 findings); the two take turns; target: validate at most 1.5x the floor;
 * - parallel: 20 bundles of 250 nodes, each validated by a process of its own one after the
 *   other, beside one `darkprint validate` of their parent folder (which checks them on worker
 *   threads); target: the one run's wall time at most 0.7x the sum of the single runs'.
 *
 * CPU time of a process (every thread of it) comes from the process itself, as it ends.
 *
 *   npm run bench                    the three sizes, then the command
 *   npm run bench -- --sizes 300,900 --runs 3
 *   npm run bench -- --part command --process-runs 3
 *
 * The engine is measured as it ships: bundled by esbuild (as scripts/build.mjs bundles the CLI and
 * the server), not through tsx, whose transform wraps every inner function in a naming helper.
 *
 * Figures are milliseconds on this machine (wall clock unless marked cpu); they are printed,
 * never asserted. On a busy machine the medians move from run to run: compare the ratios.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parseDocument } from 'yaml';
import { Parser, createService } from 'dot-language-support';
import { buildSync } from 'esbuild';
import { bundleSize, generateBundle, type GeneratedFile } from '../shared/test/support/generate-bundle';

interface Options {
  readonly sizes: readonly number[];
  readonly runs: number;
  readonly warmups: number;
  /** Which tables: the engine in this process, the command as processes, or both. */
  readonly part: 'engine' | 'command' | 'all';
  /** Runs of each process measurement (after one warm-up). */
  readonly processRuns: number;
}

interface Row {
  readonly nodes: number;
  readonly files: number;
  readonly bytes: number;
  readonly floor: number;
  readonly check: number;
  readonly load: number;
  readonly floorCpu: number;
  readonly checkCpu: number;
  readonly errors: number;
  readonly diagnostics: number;
  readonly dotBytes: number;
  /** DOT figures measured before any `loadBundle` ran in the process. */
  readonly fresh: DotFigures;
  /** The same, measured again after every check of every size. */
  readonly afterLoads: DotFigures;
}

interface DotFigures {
  readonly ourDot: number;
  readonly theirParse: number;
  readonly theirDocument: number;
}

const engine = shippedEngine();
const { loadBundle, parseDot } = engine;

/** Bundles shared/src/index.ts the way the shipped CLI and server are bundled, and loads it. */
function shippedEngine(): typeof import('../shared/src/index') {
  const outfile = path.join(mkdtempSync(path.join(tmpdir(), 'darkprint-bench-engine-')), 'engine.js');
  buildSync({
    entryPoints: [path.join(__dirname, '../shared/src/index.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    logLevel: 'warning',
  });
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(outfile) as typeof import('../shared/src/index');
}

function main(): void {
  const options = parseArguments(process.argv.slice(2));
  if (options.part !== 'command') measureEngine(options);
  if (options.part !== 'engine') process.stdout.write(measureCommand(options));
}

function measureEngine(options: Options): void {
  const collect = garbageCollector();
  const topologies = options.sizes.map((size) => {
    const topology = generateBundle({ nodes: size }).find((f) => f.path === 'topology.dot');
    if (!topology) throw new Error('the generated bundle has no topology.dot');
    return topology.text;
  });
  // The DOT parsers first, in a process where neither has run inside anything else (see below).
  const fresh = topologies.map((text) => measureDot(text, options, collect));
  process.stderr.write('measured the DOT parsers\n');
  const rows: Omit<Row, 'afterLoads'>[] = [];
  options.sizes.forEach((size, index) => {
    const files = generateBundle({ nodes: size });
    const folder = mkdtempSync(path.join(tmpdir(), `darkprint-bench-${size}-`));
    try {
      writeBundle(folder, files);
      rows.push({ ...measure(folder, size, files, options, collect), dotBytes: topologies[index].length, fresh: fresh[index] });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
    process.stderr.write(`measured ${size} nodes\n`);
  });
  // Again, now that `loadBundle` has run `parseDot` inside thousands of loads.
  const afterLoads = topologies.map((text) => measureDot(text, options, collect));
  process.stdout.write(render(rows.map((row, index) => ({ ...row, afterLoads: afterLoads[index] })), options));
}

function measure(folder: string, nodes: number, generated: readonly GeneratedFile[], options: Options, collect: () => void): Omit<Row, 'dotBytes' | 'fresh' | 'afterLoads'> {
  const timed = timer(collect);
  const floors: number[] = [];
  const checks: number[] = [];
  const loads: number[] = [];
  const floorCpus: number[] = [];
  const checkCpus: number[] = [];
  let errors = 0;
  let diagnostics = 0;
  for (let run = 0; run < options.warmups + options.runs; run++) {
    const floor = timed(() => {
      const files = readBundle(folder);
      let nodesRead = 0;
      for (const f of files) {
        if (!f.path.startsWith('cards/')) continue;
        const document = parseDocument(f.text);
        if (document.contents) nodesRead++;
      }
      return nodesRead;
    });
    let loadMs = 0;
    const check = timed(() => {
      const files = readBundle(folder);
      const start = performance.now();
      const result = loadBundle(files, { folderName: 'release-train' });
      loadMs = performance.now() - start;
      return result;
    });
    if (run < options.warmups) continue;
    floors.push(floor.ms);
    checks.push(check.ms);
    loads.push(loadMs);
    floorCpus.push(floor.cpu);
    checkCpus.push(check.cpu);
    errors = check.value.diagnostics.filter((d) => d.severity === 'error').length;
    diagnostics = check.value.diagnostics.length;
  }

  return {
    nodes,
    files: generated.length,
    bytes: bundleSize(generated),
    floor: median(floors),
    check: median(checks),
    load: median(loads),
    floorCpu: median(floorCpus),
    checkCpu: median(checkCpus),
    errors,
    diagnostics,
  };
}

function timer(collect: () => void): <T>(work: () => T) => { ms: number; cpu: number; value: T } {
  return (work) => {
    collect();
    const cpu = process.cpuUsage();
    const start = performance.now();
    const value = work();
    const ms = performance.now() - start;
    const used = process.cpuUsage(cpu);
    return { ms, cpu: (used.user + used.system) / 1000, value };
  };
}

/** Our `parseDot` and dot-language-support's two entry points on the same topology text. */
function measureDot(text: string, options: Options, collect: () => void): DotFigures {
  const timed = timer(collect);
  const service = createService();
  const ours: number[] = [];
  const theirs: number[] = [];
  const theirDocuments: number[] = [];
  // Each sample parses the text several times (about 2 MB in all) to rise above timer noise, and
  // the three parsers take turns so that a busy moment of the machine hits them alike.
  const repeat = Math.max(3, Math.round(2_000_000 / text.length));
  for (let run = 0; run < options.warmups + options.runs; run++) {
    const our = timed(() => {
      let n = 0;
      for (let i = 0; i < repeat; i++) n += parseDot(text).graph?.nodes.length ?? 0;
      return n;
    });
    const their = timed(() => {
      let n = 0;
      for (let i = 0; i < repeat; i++) n += new Parser().parse(text).graph?.statements.length ?? 0;
      return n;
    });
    const theirDocument = timed(() => {
      let n = 0;
      for (let i = 0; i < repeat; i++) n += service.parseDocument(text).graph?.statements.length ?? 0;
      return n;
    });
    if (run < options.warmups) continue;
    ours.push(our.ms / repeat);
    theirs.push(their.ms / repeat);
    theirDocuments.push(theirDocument.ms / repeat);
  }
  return { ourDot: median(ours), theirParse: median(theirs), theirDocument: median(theirDocuments) };
}

// ---- the command, as whole processes -------------------------------------------------------

/** Wall-clock and CPU milliseconds of one process. */
interface ProcessTime {
  readonly ms: number;
  readonly cpu: number;
}

const command = path.join(__dirname, '../bin/darkprint.js');

/**
 * A process that reads every file below a folder and `yaml.parseDocument`s every card: the
 * least a checker built on the `yaml` package must do, as a whole process.
 */
const floorScript = `'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { parseDocument } = require(${JSON.stringify(require.resolve('yaml'))});
let cards = 0;
const walk = (folder, relative) => {
  for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    const child = relative === '' ? entry.name : relative + '/' + entry.name;
    if (entry.isDirectory()) walk(full, child);
    else if (entry.isFile()) {
      const text = fs.readFileSync(full, 'utf8');
      if (child.startsWith('cards/') && parseDocument(text).contents) cards++;
    }
  }
};
walk(process.argv[2], '');
if (cards === 0) process.exitCode = 1;
`;

/** Reports the process's CPU time (every thread) on file descriptor 3 as it ends; loaded with `--require`. */
const cpuReporter = `'use strict';
process.on('exit', () => {
  const used = process.cpuUsage();
  require('node:fs').writeSync(3, String((used.user + used.system) / 1000));
});
`;

function measureCommand(options: Options): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'darkprint-bench-command-'));
  try {
    const floor = path.join(folder, 'floor.js');
    const reporter = path.join(folder, 'cpu.js');
    writeFileSync(floor, floorScript);
    writeFileSync(reporter, cpuReporter);
    const timed = (args: readonly string[], expected: readonly number[]): ProcessTime => {
      const start = performance.now();
      const child = spawnSync(process.execPath, ['--require', reporter, ...args], { stdio: ['ignore', 'ignore', 'pipe', 'pipe'], encoding: 'utf8' });
      const ms = performance.now() - start;
      if (child.status === null || !expected.includes(child.status)) throw new Error(`bench: ${args.join(' ')} ended with ${child.status ?? child.signal}: ${child.stderr}`);
      return { ms, cpu: Number(child.output[3]) };
    };
    const lines: string[] = [];
    lines.push(`darkprint validate as a command: medians of ${options.processRuns} runs after 1 warm-up, whole processes; times in ms`);
    lines.push('');
    const rows: string[][] = [];
    for (const kind of ['generated', 'a warning more a card'] as const) {
      const bundle = path.join(folder, kind === 'generated' ? 'clean' : 'warnings');
      const files = generateBundle({ nodes: 5000, moreWarnings: kind !== 'generated' });
      writeBundle(bundle, files);
      const counted = spawnSync(process.execPath, [command, 'validate', bundle, '--format', 'json'], { encoding: 'utf8', maxBuffer: 1 << 30 });
      const findings = (JSON.parse(counted.stdout) as { diagnostics: unknown[] }).diagnostics.length;
      const floors: ProcessTime[] = [];
      const validates: ProcessTime[] = [];
      for (let run = 0; run <= options.processRuns; run++) {
        const f = timed([floor, bundle], [0]);
        const v = timed([command, 'validate', bundle], [0, 1]);
        if (run === 0) continue;
        floors.push(f);
        validates.push(v);
      }
      const floorMs = median(floors.map((t) => t.ms));
      const validateMs = median(validates.map((t) => t.ms));
      const floorCpu = median(floors.map((t) => t.cpu));
      const validateCpu = median(validates.map((t) => t.cpu));
      rows.push([kind, group(files.length), group(findings), floorMs.toFixed(0), validateMs.toFixed(0), `${(validateMs / floorMs).toFixed(2)}x`, floorCpu.toFixed(0), validateCpu.toFixed(0), `${(validateCpu / floorCpu).toFixed(2)}x`]);
      process.stderr.write(`measured validate on the ${kind} bundle\n`);
    }
    lines.push('5,000-node bundle: floor process beside `darkprint validate`:');
    lines.push(table(['bundle', 'files', 'findings', 'floor', 'validate', 'ratio', 'floor cpu', 'validate cpu', 'cpu ratio'], rows));
    lines.push('  floor = a process that reads every file and yaml.parseDocument()s every card; target: ratio <= 1.50x');
    lines.push('');

    const parent = path.join(folder, 'many');
    const bundles = Array.from({ length: 20 }, (_, i) => path.join(parent, `bundle-${String(i + 1).padStart(2, '0')}`));
    bundles.forEach((b, i) => writeBundle(b, generateBundle({ nodes: 250, seed: i + 1 })));
    const sums: ProcessTime[] = [];
    const together: ProcessTime[] = [];
    for (let run = 0; run <= options.processRuns; run++) {
      const singles = bundles.map((b) => timed([command, 'validate', b], [0, 1]));
      const all = timed([command, 'validate', parent], [0, 1]);
      if (run === 0) continue;
      sums.push({ ms: singles.reduce((a, t) => a + t.ms, 0), cpu: singles.reduce((a, t) => a + t.cpu, 0) });
      together.push(all);
    }
    const sumMs = median(sums.map((t) => t.ms));
    const togetherMs = median(together.map((t) => t.ms));
    lines.push(`20 bundles of 250 nodes: 20 processes one after the other beside one process for all (${availableParallelism()} cores):`);
    lines.push(
      table(
        ['runs', 'sum of singles', 'one run', 'ratio', 'singles cpu', 'one run cpu'],
        [[String(options.processRuns), sumMs.toFixed(0), togetherMs.toFixed(0), `${(togetherMs / sumMs).toFixed(2)}x`, median(sums.map((t) => t.cpu)).toFixed(0), median(together.map((t) => t.cpu)).toFixed(0)]],
      ),
    );
    lines.push('  wall-clock medians; target: ratio <= 0.70x on 2 cores');
    process.stderr.write('measured the parallel run\n');
    return `\n${lines.join('\n')}\n`;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

// ---- files -------------------------------------------------------------------------------

function writeBundle(folder: string, files: readonly GeneratedFile[]): void {
  for (const f of files) {
    const target = path.join(folder, ...f.path.split('/'));
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, f.text);
  }
}

/** Every file under `folder`, as `{ path, text }` with `/`-separated relative paths. */
function readBundle(folder: string): GeneratedFile[] {
  const out: GeneratedFile[] = [];
  const walk = (relative: string): void => {
    for (const entry of readdirSync(path.join(folder, relative), { withFileTypes: true })) {
      const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) out.push({ path: child, text: readFileSync(path.join(folder, child), 'utf8') });
    }
  };
  walk('');
  return out;
}

// ---- output ------------------------------------------------------------------------------

function render(rows: readonly Row[], options: Options): string {
  const lines: string[] = [];
  lines.push(`darkprint bench: medians of ${options.runs} runs after ${options.warmups} warm-up(s); node ${process.version}; times in ms`);
  lines.push('');
  lines.push('bundle check (read files from disk, then parse / load):');
  lines.push(
    table(
      ['nodes', 'files', 'bytes', 'floor', 'check', 'ratio', 'load only', 'floor cpu', 'check cpu', 'cpu ratio', 'errors', 'diagnostics'],
      rows.map((r) => [
        group(r.nodes),
        group(r.files),
        group(r.bytes),
        r.floor.toFixed(1),
        r.check.toFixed(1),
        `${(r.check / r.floor).toFixed(2)}x`,
        r.load.toFixed(1),
        r.floorCpu.toFixed(1),
        r.checkCpu.toFixed(1),
        `${(r.checkCpu / r.floorCpu).toFixed(2)}x`,
        String(r.errors),
        group(r.diagnostics),
      ]),
    ),
  );
  lines.push('  floor = read + yaml.parseDocument of every card; check = read + loadBundle (with analysis); load only = the loadBundle part of check');
  lines.push('  wall-clock and CPU medians; target: ratio <= 2.00x at 5,000 nodes');
  lines.push('');
  const dotTable = (title: string, pick: (r: Row) => DotFigures): void => {
    lines.push(title);
    lines.push(
      table(
        ['nodes', 'dot bytes', 'parseDot', 'dls Parser.parse', 'speed-up', 'dls parseDocument', 'speed-up'],
        rows.map((r) => {
          const f = pick(r);
          return [
            group(r.nodes),
            group(r.dotBytes),
            f.ourDot.toFixed(2),
            f.theirParse.toFixed(2),
            `${(f.theirParse / f.ourDot).toFixed(2)}x`,
            f.theirDocument.toFixed(2),
            `${(f.theirDocument / f.ourDot).toFixed(2)}x`,
          ];
        }),
      ),
    );
  };
  dotTable('DOT parse of topology.dot (same text), measured first, before any bundle check ran:', (r) => r.fresh);
  lines.push('  dls = dot-language-support@4.3.1 (parseDocument = parse + bind + check); target: parseDot at least 2.00x faster than Parser.parse');
  lines.push('');
  dotTable('The same, measured again after all the bundle checks above (parseDot ran inside every load):', (r) => r.afterLoads);
  lines.push('  inside the loads V8 may decide to pretenure parseDot\'s objects (see the note at the top of scripts/bench.ts);');
  lines.push('  this table shows the bare parse in whatever state the loads left it.');
  return `${lines.join('\n')}\n`;
}

function table(header: readonly string[], body: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (cells: readonly string[]): string => `  ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ')}`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

function group(value: number): string {
  return value.toLocaleString('en-US');
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function parseArguments(argv: readonly string[]): Options {
  let sizes: number[] = [500, 2000, 5000];
  let runs = 7;
  let warmups = 2;
  let part: Options['part'] = 'all';
  let processRuns = 5;
  for (let i = 0; i < argv.length; i++) {
    const value = argv[i + 1];
    switch (argv[i]) {
      case '--sizes':
        sizes = (value ?? '').split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0);
        i++;
        break;
      case '--runs':
        runs = Math.max(1, Number(value) || runs);
        i++;
        break;
      case '--warmups':
        warmups = Math.max(0, Number(value) || 0);
        i++;
        break;
      case '--process-runs':
        processRuns = Math.max(1, Number(value) || processRuns);
        i++;
        break;
      case '--part':
        if (value !== 'engine' && value !== 'command' && value !== 'all') {
          process.stderr.write('bench: --part takes engine, command or all\n');
          process.exit(3);
        }
        part = value;
        i++;
        break;
      default:
        process.stderr.write(`bench: unknown argument ${argv[i]}; use --sizes a,b,c, --runs n, --warmups n, --part engine|command|all, --process-runs n\n`);
        process.exit(3);
    }
  }
  return { sizes, runs, warmups, part, processRuns };
}

/** A full garbage collection between samples, so one sample does not pay for another's garbage. */
function garbageCollector(): () => void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as unknown;
  return typeof gc === 'function' ? () => (gc as () => void)() : () => undefined;
}

main();
