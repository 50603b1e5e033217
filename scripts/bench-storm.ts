/**
 * The storm benchmark (`npm run bench:storm`): the language server's robustness test run for
 * figures instead of assertions. 3,000 random incremental edits (snippets, garbage, half-typed
 * lines: server/test/support/random-edits.ts) are typed into the five open documents of a small
 * bundle, in batches of one to eight, with about 1,400 random requests (hover, completion,
 * definition, references, prepareRename, symbols, folds, code actions) fired between batches,
 * debounce 0. It prints, for the edits (a batch sent → the publication of its last version for
 * every document it touched) and for the requests (sent → answered): count, p50, p95 and the
 * slowest; and the server's RSS at the end and its peak (Linux /proc).
 *
 * Deterministic for a seed: `--seed <n>` (default the fuzz test's), `--edits <n>`.
 * Figures, never assertions: timing lives here, not in tests.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { startSession } from '../server/test/support/lsp-client';
import { fuzzFiles, fuzzRequest, mulberry32, randomEdit } from '../server/test/support/random-edits';
import { memoryOf, percentile } from './measure';

async function main(): Promise<void> {
  const edits = numberFlag('--edits', 3_000);
  const seed = numberFlag('--seed', 20_240_611);
  const dir = mkdtempSync(path.join(tmpdir(), 'darkprint-storm-'));
  for (const [file, text] of Object.entries(fuzzFiles)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  const session = await startSession({ folders: [dir], settings: { debounceMs: 0 } });
  const random = mulberry32(seed);
  const names = Object.keys(fuzzFiles);
  const current = new Map<string, string>();
  const editTimes: number[] = [];
  const requestTimes: number[] = [];
  try {
    for (const file of names) {
      session.open(file, fuzzFiles[file]);
      current.set(file, fuzzFiles[file]);
    }
    for (const file of names) await session.versionPublished(file, 1);
    let done = 0;
    while (done < edits) {
      const batch = 1 + Math.floor(random() * 8);
      const touched = new Map<string, number>();
      const sent = performance.now();
      for (let i = 0; i < batch && done < edits; i++, done++) {
        const file = names[Math.floor(random() * names.length)];
        const { range, text, after } = randomEdit(current.get(file)!, random);
        touched.set(file, session.changeIncremental(file, [{ range, text }], after));
        current.set(file, after);
      }
      for (const [file, version] of touched) await session.versionPublished(file, version);
      editTimes.push(performance.now() - sent);
      // (about 1,400 requests for 3,000 edits: two after each batch, now and then three)
      for (let n = random() < 0.1 ? 3 : 2; n > 0; n--) {
        const asked = performance.now();
        await fuzzRequest(session, current, names, random, `seed ${seed}, edit ${done}`);
        requestTimes.push(performance.now() - asked);
      }
    }
    // (the bench starts the Node server: a session of the web build has no process)
    const memory = memoryOf(session.process!.pid!);
    const row = (name: string, values: readonly number[]): string =>
      `${name.padEnd(22)} ${String(values.length).padStart(6)} ${percentile(values, 50).toFixed(1).padStart(8)} ${percentile(values, 95).toFixed(1).padStart(8)} ${Math.max(...values).toFixed(1).padStart(8)}`;
    process.stdout.write(
      `storm: ${edits} edits, seed ${seed}\n` +
        `${'ms'.padEnd(22)} ${'count'.padStart(6)} ${'p50'.padStart(8)} ${'p95'.padStart(8)} ${'max'.padStart(8)}\n` +
        `${row('edit batch → published', editTimes)}\n` +
        `${row('request → answered', requestTimes)}\n` +
        `server RSS ${memory.rss.toFixed(0)} MB at the end, peak ${memory.peak.toFixed(0)} MB\n`,
    );
  } finally {
    await session.shutdown();
    rmSync(dir, { recursive: true, force: true });
  }
}

function numberFlag(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isFinite(value)) throw new Error(`${name} takes a number`);
  return value;
}

main().catch((error: unknown) => {
  process.stderr.write(`bench:storm failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
