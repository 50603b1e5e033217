/**
 * Instructions per DOT parse, ours beside dot-language-support's (`npm run bench:dot-instructions`).
 *
 * `npm run bench` times the two parsers by the clock, the figure the parser's speed goal is
 * stated in; on a busy two-core machine those medians move by a third from one run to the next.
 * This script counts what each parse executes instead, which does not depend on what else the
 * machine is doing: it runs each parser under valgrind (`cachegrind`, cache simulation off) in a
 * node started with `--predictable` (no concurrent compiler or collector threads, so every run
 * makes the same decisions), once with N parses and once with none, and divides the difference by
 * N. Garbage collection is counted, since it runs on the main thread; a full collection precedes
 * every 38 parses, as in `npm run bench`. Two runs of the same code agree to the instruction.
 *
 *   npm run bench:dot-instructions                      500 nodes, 100 parses
 *   npm run bench:dot-instructions -- --sizes 500,2000 --parses 50
 *
 * Needs valgrind (Debian: `apt-get install valgrind`); each size takes a minute or two. A count is
 * a proxy, not a time: it misses cache misses and page faults, which the clock sees.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildSync } from 'esbuild';
import { generateBundle } from '../shared/test/support/generate-bundle';

function main(argv: readonly string[]): number {
  let sizes = [500];
  let parses = 100;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--sizes') sizes = (argv[++i] ?? '').split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0);
    else if (argv[i] === '--parses') parses = Math.max(1, Number(argv[++i]) || parses);
    else {
      process.stderr.write(`bench-dot-instructions: unknown argument ${argv[i]}; use --sizes 500,2000 and --parses N\n`);
      return 3;
    }
  }
  if (spawnSync('valgrind', ['--version']).status !== 0) {
    process.stderr.write('bench-dot-instructions: valgrind is not installed (Debian: apt-get install valgrind); nothing measured.\n');
    return 3;
  }
  const work = mkdtempSync(path.join(tmpdir(), 'darkprint-dot-instructions-'));
  try {
    const engine = path.join(work, 'engine.js');
    buildSync({ entryPoints: [path.join(__dirname, '../shared/src/index.ts')], outfile: engine, bundle: true, platform: 'node', target: 'node20', format: 'cjs', logLevel: 'warning' });
    const runner = path.join(work, 'runner.js');
    // The runner warms the parser up (200 parses), then parses N more times.
    writeFileSync(
      runner,
      [
        "const [which, file, count] = process.argv.slice(2);",
        "const text = require('fs').readFileSync(file, 'utf8');",
        `const parse = which === 'ours' ? require(${JSON.stringify(engine)}).parseDot : ((P) => (t) => new P().parse(t))(require(${JSON.stringify(require.resolve('dot-language-support'))}).Parser);`,
        'for (let i = 0; i < 200; i++) parse(text);',
        'for (let i = 0; i < Number(count); i++) { if (i % 38 === 0) gc(); parse(text); }',
      ].join('\n'),
    );
    process.stdout.write('  nodes  dot bytes  parseDot (M instructions)  dls Parser.parse  ratio\n');
    for (const nodes of sizes) {
      const topology = generateBundle({ nodes }).find((f) => f.path === 'topology.dot');
      if (topology === undefined) throw new Error('the generated bundle has no topology.dot');
      const file = path.join(work, `topology-${nodes}.dot`);
      writeFileSync(file, topology.text);
      const perParse = (which: 'ours' | 'theirs'): number => (instructions(runner, which, file, parses) - instructions(runner, which, file, 0)) / parses;
      const ours = perParse('ours');
      const theirs = perParse('theirs');
      process.stdout.write(
        `  ${String(nodes).padEnd(5)}  ${topology.text.length.toLocaleString('en-US').padStart(9)}  ${(ours / 1e6).toFixed(2).padStart(24)}  ${(theirs / 1e6).toFixed(2).padStart(16)}  ${(theirs / ours).toFixed(2)}x\n`,
      );
    }
    return 0;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** Instructions valgrind counts for one run of the runner. */
function instructions(runner: string, which: string, file: string, count: number): number {
  const run = spawnSync(
    'valgrind',
    ['--tool=cachegrind', '--cache-sim=no', '--cachegrind-out-file=/dev/null', process.execPath, '--predictable', '--expose-gc', runner, which, file, String(count)],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  const match = /I\s+refs:\s+([\d,]+)/.exec(run.stderr);
  if (run.status !== 0 || match === null) throw new Error(`valgrind failed (status ${run.status}): ${run.stderr.slice(-2000)}`);
  return Number(match[1].replace(/,/g, ''));
}

process.exit(main(process.argv.slice(2)));
