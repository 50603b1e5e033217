/**
 * The engine's benchmark (`npm run bench`). For generated bundles of 500, 2,000 and 5,000
 * nodes (scripts/generate-bundle.ts), written to a temporary folder and read back, it prints
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
 *   npm run bench                    the three sizes
 *   npm run bench -- --sizes 300,900 --runs 3
 *
 * The engine is measured as it ships: bundled by esbuild (as scripts/build.mjs bundles the CLI and
 * the server), not through tsx, whose transform wraps every inner function in a naming helper.
 *
 * Figures are milliseconds on this machine (wall clock unless marked cpu); they are printed,
 * never asserted. On a busy machine the medians move from run to run: compare the ratios.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parseDocument } from 'yaml';
import { Parser, createService } from 'dot-language-support';
import { buildSync } from 'esbuild';
import { bundleSize, generateBundle, type GeneratedFile } from './generate-bundle';

interface Options {
  readonly sizes: readonly number[];
  readonly runs: number;
  readonly warmups: number;
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

main();

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
      default:
        process.stderr.write(`bench: unknown argument ${argv[i]}; use --sizes a,b,c, --runs n, --warmups n\n`);
        process.exit(3);
    }
  }
  return { sizes, runs, warmups };
}

/** A full garbage collection between samples, so one sample does not pay for another's garbage. */
function garbageCollector(): () => void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as unknown;
  return typeof gc === 'function' ? () => (gc as () => void)() : () => undefined;
}
