/**
 * How often V8 throws away the edit path's optimised code over a long session (a figure, not a
 * test: the counts vary from run to run and machine to machine). V8 deoptimises a function when a
 * value arrives in a shape its optimised code was not built for; when the shape keeps changing,
 * the same function is thrown away edit after edit (a deopt loop) and every edit runs it slowly.
 * In one such loop the resolver ran unoptimised on every card edit from about the thirtieth (see
 * shared/src/arrays.ts for the cause, and docs/architecture.md for the edit path's rules).
 *
 * Runs edit-session.ts under `node --trace-deopt` (NODES=2000, EDITS=100 unless set) and prints,
 * per phase, the functions whose TurboFan code was deoptimised eagerly after the first ten edits
 * (while V8 still learns the shapes), with their counts: a healthy session shows none to two per
 * function, a loop a count that grows with EDITS. Lazy deopts (code invalidated elsewhere, e.g. by
 * a collection dropping what it depended on) are left out. `npm run bench:deopt`.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';

const repo = path.resolve(__dirname, '..');
const tsx = require.resolve('tsx/cjs', { paths: [repo] });
const nodes = process.env.NODES ?? '2000';
const edits = process.env.EDITS ?? '100';
const warmUp = 10;

const trace = execFileSync(process.execPath, ['--trace-deopt', '--require', tsx, path.join(__dirname, 'edit-session.ts')], {
  cwd: repo,
  env: { ...process.env, NODES: nodes, EDITS: edits },
  encoding: 'utf8',
  maxBuffer: 256 * 1024 * 1024,
});
const counts = new Map<string, number>();
let phase: string | undefined;
let edit = -1;
let markers = 0;
let bailouts = 0;
for (const line of trace.split('\n')) {
  const marker = /^EDIT (\S+) (\d+)$/.exec(line);
  if (marker) {
    [phase, edit] = [marker[1], Number(marker[2])];
    markers++;
    continue;
  }
  if (line.startsWith('DONE')) phase = undefined;
  // an unnamed function is told apart by its shared-info address
  const bailout = /^\[bailout \(kind: deopt-eager\b.*deoptimizing \S+ <JSFunction (\S*) \(sfi = (\w+)\)>, \S+ <Code TURBOFAN>/.exec(line);
  if (bailout === null) continue;
  bailouts++;
  if (phase === undefined || edit < warmUp) continue;
  const key = `${phase}\t${bailout[1] || `(anonymous ${bailout[2]})`}`;
  counts.set(key, (counts.get(key) ?? 0) + 1);
}
console.log(`${nodes} nodes, ${edits} edits per phase, ${markers} edits in all; ${bailouts} eager deopts of optimised code, ${[...counts.values()].reduce((a, b) => a + b, 0)} after edit ${warmUp} of a phase`);
if (bailouts === 0) console.log('(no bailout line matched: the format of V8\'s trace may have changed)');
const rows = [...counts].sort((a, b) => b[1] - a[1]);
if (rows.length === 0) console.log('no function deoptimised after the warm-up');
else {
  console.log('count\tphase\tfunction');
  for (const [key, count] of rows) console.log(`${count}\t${key}`);
}
