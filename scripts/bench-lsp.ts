/**
 * The language server's benchmark (`npm run bench:lsp`). For generated bundles of 500, 2,000 and
 * 5,000 nodes (shared/test/support/generate-bundle.ts) written to a temporary folder, it starts the server
 * over stdio (bundled from server/src exactly as scripts/build.mjs does, debounce 0), opens the
 * topology and one card, and prints, over several runs:
 *
 * - initial: from `initialize` to the first diagnostics of the open topology (scan, reads,
 *   the first whole-bundle check);
 * - card edit: a card's input type is broken or fixed → the card's diagnostics at the new
 *   version AND the topology's changed diagnostics have arrived (p50/p95);
 * - topology edit: a node with a missing card is added before the closing `}` or removed → the
 *   topology's diagnostics at the new version (p50/p95);
 * - mid-file edits, in a second table, timed the same way in the middle of the topology (the
 *   cluster of the middle unit), where everything after the edit moves: text typed into a label
 *   (the line count stays), and a node with a missing card added on a line of its own or removed
 *   (every line after it moves, and so does every node after it in the graph);
 * - every edit is sent as one incremental change (the range replaced and its new text, the
 *   smallest that turns one text into the other), as VS Code and Neovim send them to a server
 *   that asks for incremental sync, as this one does;
 * - warm-up: the first 10 edits of each kind are timed but left out of the two figures above,
 *   and printed on their own (their median): V8 compiles the edit path's code only after it has
 *   run a few times, so the first edits after start-up measure the compiler, not the steady
 *   state a long-running server is in. Ten edits do not cover all of it: the next twenty or so
 *   of each kind are still slower at times, and they are measured (`--warmup 30` leaves them
 *   out too, to see the steady state alone);
 * - where the mid-file edits' time goes, in a third table: the server's part (from the change
 *   sent to the first bytes the server writes after it) and its reply's (from there to the
 *   publication read and parsed here), each p50/p95 (the two need not add up at p95);
 * - completion inside `card="…"`, hover on a node id (p50/p95);
 * - formatting the whole topology, in a table of its own, asked last (p50/p95, and the number of
 *   edits it answers: the generated topology is not written in the formatter's style);
 * - in a table of their own, asked last on the topology as it first read: semantic tokens of the
 *   whole topology and of a screenful (50 lines in its middle), inlay hints for that screenful,
 *   code lenses of the whole topology (a client asks for a document's lenses at once), those of
 *   the screenful resolved (and, beside them, as many resolves the server answers reading nothing:
 *   the round trips alone), the lenses of a card, document highlight on a node id, and workspace symbols for a query whose characters
 *   are spread through the names (`bldr`, every builder and more);
 * - the server's RSS after those runs (and its peak), and again after the mid-file edits;
 * - completion right after an edit, in the second table: the topology edit above again and
 *   again, each followed (once its diagnostics have arrived) by one completion inside
 *   `card="…"`, timed: the first request against a new text, as someone typing meets it; and
 *   last (after the RSS is read), the same with text typed into the middle unit's label and a
 *   completion inside the pin on the next line ("completion right after the typing"), the code
 *   actions there asked the same way, as VS Code asks for its light bulb when the cursor moves
 *   ("code actions right after the typing"), and that completion asked right after the change
 *   is sent, as an editor asks on a trigger character, timed from the change, with the server's
 *   default debounce (150 ms) so that the diagnostics come after it as they do in an editor
 *   ("completion as the typing arrives").
 *
 *   npm run bench:lsp
 *   npm run bench:lsp -- --sizes 300,900 --runs 10
 *   npm run bench:lsp -- --warmup 30        (more warm-up edits: the steady state of a long session)
 *   DARKPRINT_SERVER_NODE_ARGS="--cpu-prof" npm run bench:lsp   (flags for the server's node; a heap flag
 *                                                                turns the server's heap policy off, see server/src/memory.ts)
 *
 * Targets, at 2,000 nodes: edit → diagnostics ≤ 50 ms p95; completion and hover ≤ 10 ms p95;
 * formatting ≤ 100 ms; at 5,000 nodes RSS ≤ 300 MB. Figures are wall-clock milliseconds on this
 * machine; they are printed, never asserted. An edit's figure includes this client reading and
 * parsing the topology's publication (about 1 MB of JSON at 2,000 nodes); over stdio the server
 * writes publications from each diagnostic's kept JSON (server/src/wire.ts), as it does for the
 * VS Code client, which starts it on stdio too.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type ProtocolConnection,
  type Position,
  type PublishDiagnosticsParams,
  type Range,
} from 'vscode-languageserver-protocol/node';
import { generateBundle } from '../shared/test/support/generate-bundle';
import { memoryOf, percentile } from './measure';

/**
 * One edit's time in two parts: `server`, from the change sent to the first bytes the server
 * writes after it (its work on the edit, up to the start of its publication), and `reply`, from
 * there to the publication handled here (the rest of it through the pipe, and this client's
 * reading and parsing of it). The first bytes after a change are the topology's publication in
 * the mid-file edits, where no other file's diagnostics change and the server logs nothing.
 */
interface Split {
  readonly server: number;
  readonly reply: number;
}

/** What the benchmark reads of one `publishDiagnostics`. */
interface Arrival {
  readonly uri: string;
  readonly version: number | undefined;
  /** The codes of its diagnostics. */
  readonly codes: ReadonlySet<string>;
}

interface Figures {
  readonly nodes: number;
  readonly initial: number;
  readonly cardEdit: readonly number[];
  readonly topologyEdit: readonly number[];
  /** Completion right after each of a run of topology edits (see the header). */
  readonly completionAfterEdit: readonly number[];
  /** The same after text typed in the middle of the topology (the label edit below), inside a pin on the next line. */
  readonly completionAfterMiddleEdit: readonly number[];
  /** The same asked right after the change, timed from the change (see `requestsAfterEdits`). */
  readonly completionAsTyped: readonly number[];
  /** Code actions at the same place as `completionAfterMiddleEdit`, asked the same way. */
  readonly codeActionAfterMiddleEdit: readonly number[];
  /** Mid-file edits (see the header): text typed into a label, a node added on its own line. */
  readonly middleTyped: readonly number[];
  readonly middleNode: readonly number[];
  /** Where each mid-file edit's time went (see `Split`), in the order of the two lists above. */
  readonly middleTypedSplit: readonly Split[];
  readonly middleNodeSplit: readonly Split[];
  /** The warm-up edits, timed alike (see `warmupEdits`). */
  readonly cardWarmup: readonly number[];
  readonly topologyWarmup: readonly number[];
  readonly completion: readonly number[];
  readonly hover: readonly number[];
  readonly rssMb: number;
  readonly peakMb: number;
  /** The same after the mid-file edits. */
  readonly middleRssMb: number;
  readonly middlePeakMb: number;
  /** Formatting the whole topology (`textDocument/formatting`), and how many edits it answers. */
  readonly formatting: readonly number[];
  readonly formattingEdits: number;
}

const repoRoot = path.resolve(__dirname, '..');

/** The server's default debounce (server/src/settings.ts), which the last phase runs with. */
const defaultDebounceMs = 150;

/** Edits of each kind made and timed before the measured ones (see the header; `--warmup N` changes it). */
const defaultWarmupEdits = 10;

async function main(args: readonly string[]): Promise<number> {
  let sizes = [500, 2000, 5000];
  let runs = 30;
  let warmupEdits = defaultWarmupEdits;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--sizes') sizes = (args[++i] ?? '').split(',').map(Number).filter((n) => n > 0);
    else if (args[i] === '--runs') runs = Math.max(1, Number(args[++i]) || runs);
    else if (args[i] === '--warmup') {
      const count = Number(args[++i]);
      if (!Number.isInteger(count) || count < 0) {
        process.stderr.write(`bench-lsp: --warmup takes a whole number of edits (0 or more), not ${args[i] ?? 'nothing'}\n`);
        return 3;
      }
      warmupEdits = count;
    }
    else {
      process.stderr.write(`bench-lsp: unknown argument ${args[i]}; use --sizes 500,2000, --runs N and --warmup N\n`);
      return 3;
    }
  }
  const work = mkdtempSync(path.join(tmpdir(), 'darkprint-bench-lsp-'));
  try {
    const entry = path.join(work, 'server.js');
    await build({ entryPoints: [path.join(repoRoot, 'server/src/node.ts')], outfile: entry, bundle: true, platform: 'node', target: 'node20', format: 'cjs', logLevel: 'warning' });
    const results: Figures[] = [];
    for (const nodes of sizes) {
      const dir = path.join(work, `bundle-${nodes}`);
      for (const f of generateBundle({ nodes })) {
        mkdirSync(path.dirname(path.join(dir, f.path)), { recursive: true });
        writeFileSync(path.join(dir, f.path), f.text);
      }
      const figures = await measure(entry, dir, nodes, runs, warmupEdits);
      results.push(figures);
      printRow(figures, results.length === 1);
    }
    process.stdout.write('\nThen: completion right after each topology edit, and mid-file topology edits (in the cluster of the middle unit), p50/p95 ms:\n');
    for (const f of results) printMiddle(f, f === results[0]);
    process.stdout.write('\nWhere the mid-file edits\' time goes, p50/p95 ms: the server (the change sent → the first bytes it writes after it), then its reply (→ the publication read and parsed here):\n');
    for (const f of results) printSplit(f, f === results[0]);
    process.stdout.write('\nFormatting the whole topology (textDocument/formatting; the edits answered, not applied), p50/p95 ms:\n');
    for (const f of results) printFormatting(f, f === results[0]);
    process.stdout.write('\nEditor features, p50/p95 ms (a screenful: 50 lines in the middle of the topology):\n');
    for (const f of results) printViews(f.nodes, viewFigures.get(f.nodes), f === results[0]);
    process.stdout.write(`\nload average during the run: ${loadavg().map((l) => l.toFixed(2)).join(', ')} (${runs} runs per figure, after ${warmupEdits} warm-up edits of each kind)\n`);
    return 0;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function measure(entry: string, dir: string, nodes: number, runs: number, warmupEdits: number): Promise<Figures> {
  const started = performance.now();
  // DARKPRINT_SERVER_NODE_ARGS passes flags to the server's node (e.g. `--cpu-prof` to profile it).
  const nodeArgs = (process.env.DARKPRINT_SERVER_NODE_ARGS ?? '').split(' ').filter((a) => a !== '');
  const child = spawn(process.execPath, [...nodeArgs, entry, '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
  // (registered before the reader's: it sees each chunk first)
  let firstByte: { at: number } | undefined;
  child.stdout!.on('data', () => {
    if (firstByte !== undefined && firstByte.at < 0) firstByte.at = performance.now();
  });
  const connection: ProtocolConnection = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  // Each publication is kept as what the waits below ask about, not as the whole list: a client
  // that held every list of thousands of diagnostics would time its own garbage collection.
  const arrivals: { at: number; params: Arrival }[] = [];
  const waiters = new Set<() => void>();
  connection.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) => {
    const codes = new Set<string>();
    for (const d of params.diagnostics) if (typeof d.code === 'string') codes.add(d.code);
    arrivals.push({ at: performance.now(), params: { uri: params.uri, version: params.version, codes } });
    for (const w of [...waiters]) w();
  });
  // (debounce 0 but for the last phase: see `completionAsTyped`)
  let debounceMs = 0;
  let configured: (() => void) | undefined;
  connection.onRequest('workspace/configuration', (params: { items: unknown[] }) => {
    configured?.();
    return params.items.map(() => ({ debounceMs }));
  });
  connection.onRequest('client/registerCapability', () => null);
  connection.listen();
  /** Resolves with the first arrival at or after `from` that satisfies `test`. */
  const arrival = (from: number, test: (p: Arrival) => boolean): Promise<number> =>
    new Promise((resolve) => {
      let seen = from;
      const check = (): void => {
        for (; seen < arrivals.length; seen++) {
          if (test(arrivals[seen].params)) {
            waiters.delete(check);
            resolve(arrivals[seen].at);
            return;
          }
        }
      };
      waiters.add(check);
      check();
    });

  const uri = (file: string): string => pathToFileURL(path.join(dir, file)).href;
  const topologyUri = uri('topology.dot');
  const cardFile = `cards/builder-${Math.floor(nodes / 20)}@1.0.0.yaml`;
  const cardUri = uri(cardFile);
  const topologyText = readFileSync(path.join(dir, 'topology.dot'), 'utf8');
  const cardText = readFileSync(path.join(dir, cardFile), 'utf8');
  const brokenCard = cardText.replace(/(inputs:\n {2}- name: plan\n {4}type: )plan/, '$1code');
  if (brokenCard === cardText) throw new Error(`bench-lsp: ${cardFile} has no plan input to break`);
  const extraNode = '  bench_extra [card="missing-card@1.0.0"];\n';
  const closing = topologyText.lastIndexOf('}');
  const brokenTopology = topologyText.slice(0, closing) + extraNode + topologyText.slice(closing);

  await connection.sendRequest('initialize', {
    processId: process.pid,
    rootUri: pathToFileURL(dir).href,
    workspaceFolders: [{ uri: pathToFileURL(dir).href, name: 'bench' }],
    capabilities: {
      workspace: { configuration: true },
      textDocument: {
        publishDiagnostics: { relatedInformation: true, versionSupport: true },
        completion: { completionList: { itemDefaults: ['editRange'] } },
        hover: { contentFormat: ['markdown'] },
      },
    },
    initializationOptions: { debounceMs: 0 },
  });
  await connection.sendNotification('initialized', {});
  await connection.sendNotification('textDocument/didOpen', { textDocument: { uri: topologyUri, languageId: 'dot', version: 1, text: topologyText } });
  await connection.sendNotification('textDocument/didOpen', { textDocument: { uri: cardUri, languageId: 'yaml', version: 1, text: cardText } });
  const initialAt = await arrival(0, (p) => p.uri === topologyUri && p.version === 1);
  await arrival(0, (p) => p.uri === cardUri && p.version === 1);
  const initial = initialAt - started;

  const breakCard = rangeChange(cardText, brokenCard);
  const fixCard = rangeChange(brokenCard, cardText);
  let cardVersion = 1;
  let topologyVersion = 1;
  const cardEdit: number[] = [];
  const cardWarmup: number[] = [];
  for (let i = 0; i < warmupEdits + runs * 2; i++) {
    const broken = i % 2 === 0;
    const from = arrivals.length;
    const t0 = performance.now();
    cardVersion++;
    await connection.sendNotification('textDocument/didChange', { textDocument: { uri: cardUri, version: cardVersion }, contentChanges: [broken ? breakCard : fixCard] });
    const version = cardVersion;
    const [a, b] = await Promise.all([
      arrival(from, (p) => p.uri === cardUri && p.version === version),
      arrival(from, (p) => p.uri === topologyUri && p.codes.has('bundle/type-mismatch') === broken),
    ]);
    (i < warmupEdits ? cardWarmup : cardEdit).push(Math.max(a, b) - t0);
  }
  /** Alternates the topology between `variant` and its text: the times of the warm-up edits, then of the rest. */
  const topologyEdits = async (variant: string): Promise<{ warmup: number[]; measured: number[]; split: Split[] }> => {
    const warmup: number[] = [];
    const measured: number[] = [];
    const split: Split[] = [];
    const there = rangeChange(topologyText, variant);
    const back = rangeChange(variant, topologyText);
    for (let i = 0; i < warmupEdits + runs * 2; i++) {
      const from = arrivals.length;
      const first = { at: -1 };
      firstByte = first;
      const t0 = performance.now();
      topologyVersion++;
      await connection.sendNotification('textDocument/didChange', { textDocument: { uri: topologyUri, version: topologyVersion }, contentChanges: [i % 2 === 0 ? there : back] });
      const version = topologyVersion;
      const at = await arrival(from, (p) => p.uri === topologyUri && p.version === version);
      firstByte = undefined;
      (i < warmupEdits ? warmup : measured).push(at - t0);
      if (i >= warmupEdits && first.at >= 0) split.push({ server: first.at - t0, reply: at - first.at });
    }
    return { warmup, measured, split };
  };
  const { warmup: topologyWarmup, measured: topologyEdit } = await topologyEdits(brokenTopology);
  // The topology is back to its original text: complete inside a pin and hover on a node id.
  const pinLine = topologyText.split('\n').findIndex((l) => l.includes(`[card="builder-${Math.floor(nodes / 20)}@`));
  const pinCharacter = topologyText.split('\n')[pinLine].indexOf('card="') + 'card="'.length + 3;
  const idCharacter = topologyText.split('\n')[pinLine].search(/\S/) + 2;
  const timed = async (method: string, params: unknown): Promise<number[]> => {
    const out: number[] = [];
    for (let i = 0; i < runs + 3; i++) {
      const t0 = performance.now();
      await connection.sendRequest(method, params);
      if (i >= 3) out.push(performance.now() - t0);
    }
    return out;
  };
  const completion = await timed('textDocument/completion', { textDocument: { uri: topologyUri }, position: { line: pinLine, character: pinCharacter } });
  const hover = await timed('textDocument/hover', { textDocument: { uri: topologyUri }, position: { line: pinLine, character: idCharacter } });
  const { rss, peak } = memoryOf(child.pid!);
  // Completion as someone typing meets it: the first request after each edit (once the edit's
  // diagnostics have arrived), when nothing has yet been asked of the new text. The topology
  // alternates between its text and `variant`; `position` reads the same in both.
  // With `asTyped`, the completion is asked right after the change is sent, as an editor asks on
  // a trigger character, and timed from the change: before the edit's diagnostics, whatever the
  // server does with the change first. `ask` names the request (code actions, the same way).
  const requestsAfterEdits = async (variant: string, position: Position, asTyped = false, ask: 'completion' | 'codeAction' = 'completion'): Promise<number[]> => {
    const out: number[] = [];
    const there = rangeChange(topologyText, variant);
    const back = rangeChange(variant, topologyText);
    for (let i = 0; i < warmupEdits + runs * 2; i++) {
      const from = arrivals.length;
      topologyVersion++;
      const t0 = performance.now();
      await connection.sendNotification('textDocument/didChange', { textDocument: { uri: topologyUri, version: topologyVersion }, contentChanges: [i % 2 === 0 ? there : back] });
      const version = topologyVersion;
      const diagnostics = arrival(from, (p) => p.uri === topologyUri && p.version === version);
      if (!asTyped) await diagnostics;
      const t1 = performance.now();
      if (ask === 'completion') await connection.sendRequest('textDocument/completion', { textDocument: { uri: topologyUri }, position });
      // (as VS Code asks for its light bulb when the cursor moves: the actions at the cursor, none of the diagnostics there)
      else await connection.sendRequest('textDocument/codeAction', { textDocument: { uri: topologyUri }, range: { start: position, end: position }, context: { diagnostics: [], triggerKind: 2 } });
      if (i >= warmupEdits) out.push(performance.now() - (asTyped ? t0 : t1));
      await diagnostics;
    }
    return out;
  };
  const completionAfterEdit = await requestsAfterEdits(brokenTopology, { line: pinLine, character: pinCharacter });
  // The mid-file edits come last, so that the figures above are taken as in earlier sessions (their
  // garbage would otherwise be collected during the completions and hovers). The middle unit's
  // cluster label: `label="unit K";`.
  const middleLabel = `label="unit ${Math.floor(Math.ceil(nodes / 10) / 2)}";`;
  if (!topologyText.includes(middleLabel)) throw new Error(`bench-lsp: the topology has no ${middleLabel}`);
  const { measured: middleTyped, split: middleTypedSplit } = await topologyEdits(topologyText.replace(middleLabel, middleLabel.replace('";', ' (edited)";')));
  const { measured: middleNode, split: middleNodeSplit } = await topologyEdits(topologyText.replace(middleLabel, `${middleLabel}\n    bench_middle [card="missing-card@1.0.0"];`));
  const after = memoryOf(child.pid!);
  // Completion right after text is typed into the middle unit's label: inside the pin of the
  // node on the next line, whose place reads the same in both texts.
  const lines = topologyText.split('\n');
  const middlePinLine = lines.findIndex((l) => l.includes(middleLabel)) + 1;
  const middlePin = { line: middlePinLine, character: lines[middlePinLine].indexOf('card="') + 'card="'.length + 3 };
  if (!lines[middlePinLine].includes('card="')) throw new Error('bench-lsp: no pin on the line after the middle label');
  const typedLabel = topologyText.replace(middleLabel, middleLabel.replace('";', ' (edited)";'));
  const completionAfterMiddleEdit = await requestsAfterEdits(typedLabel, middlePin);
  const codeActionAfterMiddleEdit = await requestsAfterEdits(typedLabel, middlePin, false, 'codeAction');
  // As an editor meets it, the diagnostics wait for the server's default debounce while the
  // completion is asked at once: the settings change to that debounce first.
  debounceMs = defaultDebounceMs;
  const asked = new Promise<void>((resolve) => (configured = resolve));
  await connection.sendNotification('workspace/didChangeConfiguration', { settings: null });
  await asked;
  const completionAsTyped = await requestsAfterEdits(typedLabel, middlePin, true);
  // Formatting the whole topology, which reads as it did at first again: the edits are answered, not applied.
  const formattingParams = { textDocument: { uri: topologyUri }, options: { tabSize: 2, insertSpaces: true } };
  const formatting = await timed('textDocument/formatting', formattingParams);
  const formattingEdits = ((await connection.sendRequest('textDocument/formatting', formattingParams)) as unknown[] | null)?.length ?? 0;

  // The requests that colour, annotate and link what an editor shows, on the topology as it first read (see `ViewFigures`).
  viewFigures.set(nodes, await measureViews(connection, topologyUri, cardUri, topologyText, timed, runs));

  await connection.sendRequest('shutdown');
  await connection.sendNotification('exit');
  await new Promise((resolve) => child.on('exit', resolve));
  connection.dispose();
  return { nodes, initial, cardEdit, topologyEdit, completionAfterEdit, completionAfterMiddleEdit, completionAsTyped, codeActionAfterMiddleEdit, middleTyped, middleNode, middleTypedSplit, middleNodeSplit, cardWarmup, topologyWarmup, completion, hover, rssMb: rss, peakMb: peak, middleRssMb: after.rss, middlePeakMb: after.peak, formatting, formattingEdits };
}

/**
 * The incremental change that turns `before` into `after` (the server asks for incremental sync,
 * so editors send only the replaced range and its new text, as VS Code and Neovim do).
 */
function rangeChange(before: string, after: string): { range: Range; text: string } {
  let start = 0;
  const shorter = Math.min(before.length, after.length);
  while (start < shorter && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let end = 0;
  while (end < shorter - start && before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end)) end++;
  const position = (offset: number): Position => {
    const lines = before.slice(0, offset).split('\n');
    return { line: lines.length - 1, character: lines[lines.length - 1].length };
  };
  return { range: { start: position(start), end: position(before.length - end) }, text: after.slice(start, after.length - end) };
}

function printRow(f: Figures, header: boolean): void {
  const pair = (values: readonly number[]): string => `${percentile(values, 50).toFixed(1)} / ${percentile(values, 95).toFixed(1)}`;
  const columns = ['nodes', 'initial ms', 'warm-up edits p50 card/topology', 'card edit p50/p95', 'topology edit p50/p95', 'completion p50/p95', 'hover p50/p95', 'RSS MB (peak)'];
  const widths = [6, 11, 32, 18, 22, 19, 15, 14];
  const row = (cells: string[]): string => cells.map((c, i) => c.padStart(widths[i])).join('  ');
  if (header) process.stdout.write(`${row(columns)}\n`);
  process.stdout.write(
    `${row([String(f.nodes), f.initial.toFixed(0), `${percentile(f.cardWarmup, 50).toFixed(1)} / ${percentile(f.topologyWarmup, 50).toFixed(1)}`, pair(f.cardEdit), pair(f.topologyEdit), pair(f.completion), pair(f.hover), `${f.rssMb.toFixed(0)} (${f.peakMb.toFixed(0)})`])}\n`,
  );
}

function printMiddle(f: Figures, header: boolean): void {
  const pair = (values: readonly number[]): string => `${percentile(values, 50).toFixed(1)} / ${percentile(values, 95).toFixed(1)}`;
  const widths = [6, 30, 26, 30, 26, 32, 30, 33];
  const row = (cells: string[]): string => cells.map((c, i) => c.padStart(widths[i])).join('  ');
  if (header) process.stdout.write(`${row(['nodes', 'completion right after an edit', 'text typed into a label', 'a node added on its own line', 'RSS MB (peak) after them', 'completion right after the typing', 'completion as the typing arrives', 'code actions right after the typing'])}\n`);
  process.stdout.write(
    `${row([String(f.nodes), pair(f.completionAfterEdit), pair(f.middleTyped), pair(f.middleNode), `${f.middleRssMb.toFixed(0)} (${f.middlePeakMb.toFixed(0)})`, pair(f.completionAfterMiddleEdit), pair(f.completionAsTyped), pair(f.codeActionAfterMiddleEdit)])}\n`,
  );
}

function printSplit(f: Figures, header: boolean): void {
  const pair = (values: readonly number[]): string => `${percentile(values, 50).toFixed(1)} / ${percentile(values, 95).toFixed(1)}`;
  const widths = [6, 30, 30, 30, 30];
  const row = (cells: string[]): string => cells.map((c, i) => c.padStart(widths[i])).join('  ');
  if (header) process.stdout.write(`${row(['nodes', 'label typed: server', 'label typed: reply', 'node added: server', 'node added: reply'])}\n`);
  const parts = (split: readonly Split[]): string[] => [pair(split.map((s) => s.server)), pair(split.map((s) => s.reply))];
  process.stdout.write(`${row([String(f.nodes), ...parts(f.middleTypedSplit), ...parts(f.middleNodeSplit)])}\n`);
}

function printFormatting(f: Figures, header: boolean): void {
  const widths = [6, 22, 14];
  const row = (cells: string[]): string => cells.map((c, i) => c.padStart(widths[i])).join('  ');
  if (header) process.stdout.write(`${row(['nodes', 'formatting p50/p95', 'edits answered'])}\n`);
  process.stdout.write(`${row([String(f.nodes), `${percentile(f.formatting, 50).toFixed(1)} / ${percentile(f.formatting, 95).toFixed(1)}`, String(f.formattingEdits)])}\n`);
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`bench-lsp: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(2);
  },
);

/** The editor-feature requests' times (p50/p95 each), by bundle size. */
interface ViewFigures {
  readonly semanticFull: readonly number[];
  readonly semanticRange: readonly number[];
  readonly inlayHints: readonly number[];
  readonly codeLensTopology: readonly number[];
  /** The lenses of the screenful, listed, then resolved as an editor resolves those it shows (all asked at once). */
  readonly codeLensScreen: readonly number[];
  /**
   * As many resolves of lenses that carry no `data`, which the server answers at once reading
   * nothing, asked the same way in turn with those above: what the round trips cost alone (each
   * lens is a request of its own, and most of the screenful's time is that).
   */
  readonly codeLensRoundTrips: readonly number[];
  readonly codeLensCard: readonly number[];
  readonly highlight: readonly number[];
  readonly workspaceSymbols: readonly number[];
  /** How many tokens the whole topology has, and how many symbols `bldr` finds (at most the server's limit). */
  readonly tokens: number;
  readonly symbols: number;
}

const viewFigures = new Map<number, ViewFigures>();

async function measureViews(connection: ProtocolConnection, topologyUri: string, cardUri: string, topologyText: string, timed: (method: string, params: unknown) => Promise<number[]>, runs: number): Promise<ViewFigures> {
  const lines = topologyText.split('\n');
  const middle = Math.floor(lines.length / 2);
  const screen = { start: { line: middle, character: 0 }, end: { line: Math.min(lines.length - 1, middle + 50), character: 0 } };
  const textDocument = { uri: topologyUri };
  const idLine = lines.findIndex((l, i) => i >= middle && /^\s+[a-z]\w*\s*\[card=/.test(l));
  const idAt = { line: idLine, character: lines[idLine].search(/\S/) + 1 };
  const semanticFull = await timed('textDocument/semanticTokens/full', { textDocument });
  const semanticRange = await timed('textDocument/semanticTokens/range', { textDocument, range: screen });
  const inlayHints = await timed('textDocument/inlayHint', { textDocument, range: screen });
  const codeLensTopology = await timed('textDocument/codeLens', { textDocument });
  const { screenful: codeLensScreen, roundTrips: codeLensRoundTrips } = await resolveScreen(connection, textDocument, screen, runs);
  const figures = {
    semanticFull,
    semanticRange,
    inlayHints,
    codeLensTopology,
    codeLensScreen,
    codeLensRoundTrips,
    codeLensCard: await timed('textDocument/codeLens', { textDocument: { uri: cardUri } }),
    highlight: await timed('textDocument/documentHighlight', { textDocument, position: idAt }),
    workspaceSymbols: await timed('workspace/symbol', { query: 'bldr' }),
  };
  // (the answers measured are not empty)
  const tokens = (await connection.sendRequest('textDocument/semanticTokens/full', { textDocument })) as { data: number[] } | null;
  const symbols = (await connection.sendRequest('workspace/symbol', { query: 'bldr' })) as unknown[] | null;
  return { ...figures, tokens: (tokens?.data.length ?? 0) / 5, symbols: symbols?.length ?? 0 };
}

/**
 * Times resolving the lenses of `screen`, from a list asked first: all at once, as an editor
 * resolves those it shows; and in turn with each run, as many lenses without `data` (see
 * `codeLensRoundTrips`). 3 warm-up runs, then `runs`.
 */
async function resolveScreen(connection: ProtocolConnection, textDocument: { uri: string }, screen: Range, runs: number): Promise<{ screenful: number[]; roundTrips: number[] }> {
  const listed = ((await connection.sendRequest('textDocument/codeLens', { textDocument })) as { range: Range }[] | null) ?? [];
  const shown = listed.filter((l) => l.range.start.line >= screen.start.line && l.range.start.line < screen.end.line);
  const bare = shown.map((lens) => ({ range: lens.range }));
  const screenful: number[] = [];
  const roundTrips: number[] = [];
  const time = async (lenses: readonly unknown[]): Promise<number> => {
    const t0 = performance.now();
    await Promise.all(lenses.map((lens) => connection.sendRequest('codeLens/resolve', lens)));
    return performance.now() - t0;
  };
  for (let i = 0; i < runs + 3; i++) {
    const real = await time(shown);
    const empty = await time(bare);
    if (i < 3) continue;
    screenful.push(real);
    roundTrips.push(empty);
  }
  return { screenful, roundTrips };
}

function printViews(nodes: number, f: ViewFigures | undefined, header: boolean): void {
  const pair = (values: readonly number[] | undefined): string => (values === undefined ? '-' : `${percentile(values, 50).toFixed(1)} / ${percentile(values, 95).toFixed(1)}`);
  const widths = [6, 22, 22, 22, 22, 22, 26, 20, 16, 20, 18];
  const row = (cells: string[]): string => cells.map((c, i) => c.padStart(widths[i])).join('  ');
  if (header) process.stdout.write(`${row(['nodes', 'tokens: topology', 'tokens: a screenful', 'inlay hints: screen', 'code lens: listed', 'code lens: screenful', 'its round trips alone', 'code lens: a card', 'highlight', 'workspace symbols', 'tokens / symbols'])}\n`);
  process.stdout.write(`${row([String(nodes), pair(f?.semanticFull), pair(f?.semanticRange), pair(f?.inlayHints), pair(f?.codeLensTopology), pair(f?.codeLensScreen), pair(f?.codeLensRoundTrips), pair(f?.codeLensCard), pair(f?.highlight), pair(f?.workspaceSymbols), f === undefined ? '-' : `${f.tokens} / ${f.symbols}`])}\n`);
}
