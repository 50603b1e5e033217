/**
 * The graph picture's benchmark (`npm run bench:graph`). For generated bundles of 10, 50, 500 and
 * 2,000 nodes (shared/test/support/generate-bundle.ts), loaded as the language server loads them (with a load
 * memo), it prints, p50 / p95 over several runs after a warm-up:
 *
 * - model: `pictureOf` drawn again and again from one load (with its CPU time), what a view pays
 *   for the model when nothing else runs;
 * - then, after each of a run of one-node edits of the topology (a node and the edge into it
 *   added at its end, then taken out again, in turn), once the bundle is loaded again: the model
 *   (the objects of a load just made, some garbage collection on the way), layout + render
 *   (`renderPicture`: the DOT text, Graphviz's layout in WebAssembly, the SVG cleaned), and
 *   edit → redrawn, the two together: what the view waits for;
 * - the SVG's size (of the bundle as generated);
 * - and, apart, the load after the edit (`loadBundle` with the memo the language server keeps,
 *   which `npm run bench:lsp` measures in the server's terms).
 *
 *   npm run bench:graph                          the four sizes
 *   npm run bench:graph -- --sizes 50,500 --runs 20
 *
 * Targets: a 50-node bundle redrawn in at most 150 ms p95 after an edit, a 500-node one in 1.5 s;
 * the model alone at most 10 ms at 2,000 nodes. The engine is measured as it ships: bundled by
 * esbuild, as scripts/build.mjs bundles the command and the server. A garbage collection runs
 * before each edit (an editor is idle between keystrokes). Figures are wall-clock
 * milliseconds on this machine, with the model's CPU time beside it (a busy machine moves it
 * less); they are printed, never asserted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { buildSync } from 'esbuild';
import { generateBundle, type GeneratedFile } from '../shared/test/support/generate-bundle';
import { percentile } from './measure';

interface Options {
  readonly sizes: readonly number[];
  /** Runs per figure; by default more for small bundles (see `runsFor`). */
  readonly runs?: number;
}

interface Row {
  readonly nodes: number;
  readonly edges: number;
  readonly model: readonly number[];
  readonly modelCpu: readonly number[];
  readonly edited: readonly number[];
  readonly render: readonly number[];
  readonly svgBytes: number;
  readonly redraw: readonly number[];
  readonly load: readonly number[];
}

const engine = shippedEngine();

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 2;
});

async function main(): Promise<void> {
  const options = parseArguments(process.argv.slice(2));
  const collect = garbageCollector();
  const rows: Row[] = [];
  for (const size of options.sizes) {
    rows.push(await measure(size, options.runs ?? runsFor(size), collect));
    process.stderr.write(`measured ${size} nodes\n`);
  }
  process.stdout.write(render(rows));
}

async function measure(size: number, runs: number, collect: () => void): Promise<Row> {
  const files = generateBundle({ nodes: size });
  const memo = engine.createLoadMemo();
  const first = engine.loadBundle(files, { memo, folderName: 'release-train' });
  const warmups = Math.max(2, Math.min(5, runs));
  for (let k = 0; k < warmups; k++) engine.pictureOf(first);

  // the model alone, drawn again and again from one load (what a view pays when nothing else runs)
  const model: number[] = [];
  const modelCpu: number[] = [];
  for (let k = 0; k < 4 * runs; k++) {
    const cpu = process.cpuUsage();
    const start = performance.now();
    engine.pictureOf(first);
    model.push(performance.now() - start);
    const used = process.cpuUsage(cpu);
    modelCpu.push((used.user + used.system) / 1000);
  }
  const edges = engine.pictureOf(first).edges.length;

  // the one-node edit, made and taken back in turn (each load sees a topology other than the last)
  const edited = withProbeNode(files, size);
  const row = { edited: [] as number[], render: [] as number[], redraw: [] as number[], load: [] as number[] };
  let svgBytes = 0;
  for (let k = 0; k < warmups + runs; k++) {
    collect();
    const start = performance.now();
    const loaded = engine.loadBundle(k % 2 === 0 ? edited : files, { memo, folderName: 'release-train' });
    const loadedAt = performance.now();
    const picture = engine.pictureOf(loaded);
    const modelled = performance.now();
    const svg = await engine.renderPicture(picture);
    const end = performance.now();
    if (k < warmups) continue;
    row.load.push(loadedAt - start);
    row.edited.push(modelled - loadedAt);
    row.render.push(end - modelled);
    row.redraw.push(end - loadedAt);
    if (k % 2 === 1) svgBytes = Buffer.byteLength(svg);
  }
  return { nodes: size, edges, model, modelCpu, svgBytes, ...row };
}

/** The bundle with one more node, and the edge into it from the last node, written before the topology's closing brace. */
function withProbeNode(files: readonly GeneratedFile[], size: number): GeneratedFile[] {
  const last = `docs_${Math.ceil(size / 10) - 1}`;
  return files.map((f) => {
    if (f.path !== 'topology.dot') return f;
    const closing = f.text.lastIndexOf('}');
    const source = size % 10 === 0 ? last : 'intake_0';
    return { path: f.path, text: `${f.text.slice(0, closing)}  probe_node [card="docs-0@1.0.0"];\n  ${source} -> probe_node;\n${f.text.slice(closing)}` };
  });
}

/** Runs per figure: Graphviz lays a 2,000-node bundle out in seconds. */
function runsFor(size: number): number {
  return size <= 50 ? 30 : size <= 500 ? 12 : 5;
}

function render(rows: readonly Row[]): string {
  const pair = (values: readonly number[]): string => `${format(percentile(values, 50))} / ${format(percentile(values, 95))}`;
  const columns = ['nodes', 'edges', 'model', 'model cpu p50', 'after an edit: model', 'layout+render', 'edit → redrawn', 'SVG KB', 'load'];
  const table = [
    columns,
    ...rows.map((r) => [String(r.nodes), String(r.edges), pair(r.model), format(percentile(r.modelCpu, 50)), pair(r.edited), pair(r.render), pair(r.redraw), (r.svgBytes / 1024).toFixed(0), pair(r.load)]),
  ];
  const widths = columns.map((_, c) => Math.max(...table.map((line) => line[c].length)));
  const lines = table.map((line) => line.map((cell, c) => cell.padStart(widths[c])).join('  '));
  return [
    'Graph picture, milliseconds, p50 / p95. model: pictureOf again and again on one load; after an edit (a node and an edge',
    'added to the topology, then taken out, in turn): the model, layout + render, edit → redrawn (the two together), and the',
    'load itself (loadBundle with the memo) before them:',
    ...lines,
    'Targets: 50 nodes redrawn ≤ 150 ms p95; 500 nodes ≤ 1.5 s; the model alone ≤ 10 ms at 2,000 nodes.',
    '',
  ].join('\n');
}

function format(ms: number): string {
  return ms >= 100 ? ms.toFixed(0) : ms.toFixed(1);
}

function parseArguments(args: readonly string[]): Options {
  let sizes: number[] = [10, 50, 500, 2000];
  let runs: number | undefined;
  for (let i = 0; i < args.length; i++) {
    const value = args[i + 1];
    if (args[i] === '--sizes' && value !== undefined) {
      sizes = value.split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0);
      i++;
    } else if (args[i] === '--runs' && value !== undefined) {
      runs = Math.max(1, Math.floor(Number(value)));
      i++;
    } else {
      throw new Error(`unknown argument ${args[i]}; use --sizes 10,50 and --runs N`);
    }
  }
  return { sizes, ...(runs !== undefined ? { runs } : {}) };
}

type Engine = typeof import('../shared/src/index') & Pick<typeof import('../shared/src/bundle/resolve'), 'createLoadMemo'>;

/** Bundles shared/src/index.ts (and the load memo the server keeps) the way the shipped command and server are bundled, and loads it. */
function shippedEngine(): Engine {
  const folder = mkdtempSync(path.join(tmpdir(), 'darkprint-bench-graph-'));
  const outfile = path.join(folder, 'engine.js');
  try {
    buildSync({
      stdin: { contents: "export * from './index';\nexport { createLoadMemo } from './bundle/resolve';\n", resolveDir: path.join(__dirname, '../shared/src'), sourcefile: 'bench-engine.ts', loader: 'ts' },
      outfile,
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      logLevel: 'warning',
    });
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(outfile) as Engine;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

function garbageCollector(): () => void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as unknown;
  return typeof gc === 'function' ? () => (gc as () => void)() : () => undefined;
}
