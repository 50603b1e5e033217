/**
 * `darkprint export` and `darkprint import` through the real command (in process, real files
 * in a temporary folder): exit codes, refusals, atomic writes, and never writing outside --out.
 */
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { insideFolder } from '../src/cli';
import { assertSameButDigest } from './support/export-fixtures';
import { runCli as run, writeBundle as writeFixture } from './support/cli';

const example = path.resolve(__dirname, '../../test-fixtures/example');
let tmp: string;

/** Writes a `//- path` fixture into a new folder under the temporary root. */
function writeBundle(name: string, source: string): string {
  return writeFixture(path.join(tmp, name), source);
}

/** Every file and folder under `dir`, relative, sorted. */
function listing(dir: string): string[] {
  const out: string[] = [];
  const walk = (relative: string): void => {
    for (const e of readdirSync(path.join(dir, relative), { withFileTypes: true })) {
      const child = relative ? `${relative}/${e.name}` : e.name;
      out.push(e.isDirectory() ? `${child}/` : child);
      if (e.isDirectory()) walk(child);
    }
  };
  walk('');
  return out.sort();
}

const cardless = `//- topology.dot
digraph g { a [card="a@1.0.0"]; b [card="b@9.9.9"]; a -> b; }
//- cards/a@1.0.0.yaml
id: a
name: A
type: agent
action: run
spec: A step that does one small thing and then stops for good.
inputs: []
outputs: []
version: 1.0.0
`;

const pipeline = `digraph escape_attempts {
  label="Escape attempts";
  start [shape=Mdiamond];
  ______outside [label="A", shape=box, prompt="One.", card="../../outside@1.0.0", dp_node="../../outside"];
  _etc_passwd [label="B", shape=box, prompt="Two.", dp_node="/etc/passwd"];
  c [label="C", shape=box, prompt="Three.", card="acme/deep@1.0.0"];
  d [label="D", shape=box, prompt="Four.", card="x@1.0.0/../../../y"];
  exit [shape=Msquare];
  start -> ______outside -> _etc_passwd -> c -> d -> exit;
}
`;

describe('darkprint export / import (CLI)', () => {
  beforeEach(() => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'darkprint-compile-'));
  });
  afterEach(() => {
    rmSync(tmp, { recursive: true, force: true });
  });

  it('lists both verbs in its usage', async () => {
    const r = await run('--help');
    assert.equal(r.code, 0);
    assert.match(r.out, /darkprint export \[<dir>\] --attractor \[--out <file>\]/);
    assert.match(r.out, /darkprint import <pipeline\.dot> --as <handle> --out <dir>/);
  });

  it('reads cards reached through a symbolic link inside the bundle, and does not follow a link back up round', async () => {
    const bundle = path.join(tmp, 'bundle');
    mkdirSync(bundle);
    for (const name of readdirSync(example)) if (name !== 'cards') cpSync(path.join(example, name), path.join(bundle, name), { recursive: true });
    const linkedCards = path.join(bundle, 'store', 'cards');
    mkdirSync(linkedCards, { recursive: true });
    for (const name of readdirSync(path.join(example, 'cards'))) writeFileSync(path.join(linkedCards, name), readFileSync(path.join(example, 'cards', name)));
    symlinkSync(path.join('store', 'cards'), path.join(bundle, 'cards'), 'dir');
    symlinkSync(bundle, path.join(linkedCards, 'loop'), 'dir');
    const linked = await run('export', bundle, '--attractor');
    const direct = await run('export', example, '--attractor');
    assert.equal(linked.code, 0, linked.err);
    assert.equal(linked.out.replace(/digest="[^"]*"/g, ''), direct.out.replace(/digest="[^"]*"/g, ''));
    const findings = (err: string): string => err.replace(/^\S*topology\.dot:/gm, 'topology.dot:');
    assert.equal(findings(linked.err), findings(direct.err));
  });

  it('export prints the pipeline on stdout and the remaining findings on stderr', async () => {
    const r = await run('export', example, '--attractor');
    assert.equal(r.code, 0);
    assert.equal(r.out, readFileSync(path.resolve(__dirname, '../../test-fixtures/golden/export/example.dot'), 'utf8'));
    assert.match(r.err, /warning attractor\/unguarded-fork/);
  });

  it('export --out writes the file atomically and leaves nothing else behind', async () => {
    const out = path.join(tmp, 'pipeline.dot');
    writeFileSync(out, 'old contents');
    const r = await run('export', example, '--attractor', `--out=${out}`);
    assert.equal(r.code, 0);
    assert.match(r.out, /^export: wrote /);
    assert.equal(readFileSync(out, 'utf8'), (await run('export', example, '--attractor')).out);
    assert.deepEqual(listing(tmp), ['pipeline.dot']);
  });

  const usageErrors: { name: string; argv: (dir: string) => string[] }[] = [
    { name: 'export without --attractor', argv: () => ['export', example] },
    { name: 'export --attractor with a value', argv: () => ['export', example, '--attractor=yes'] },
    { name: 'export with two folders', argv: () => ['export', example, example, '--attractor'] },
    { name: 'export with a flag it does not take', argv: () => ['export', example, '--attractor', '--as', 'me'] },
    { name: 'export --out into a folder that does not exist', argv: (dir) => ['export', example, '--attractor', '--out', path.join(dir, 'missing', 'p.dot')] },
    { name: 'export --out naming a folder', argv: (dir) => ['export', example, '--attractor', '--out', dir] },
    { name: 'export of a folder that is not there', argv: (dir) => ['export', path.join(dir, 'nope'), '--attractor'] },
    { name: 'import without --as', argv: (dir) => ['import', path.join(dir, 'p.dot'), '--out', path.join(dir, 'o')] },
    { name: 'import with a blank --as', argv: (dir) => ['import', path.join(dir, 'p.dot'), '--as', ' ', '--out', path.join(dir, 'o')] },
    { name: 'import without --out', argv: (dir) => ['import', path.join(dir, 'p.dot'), '--as', 'me'] },
    { name: 'import without a file', argv: (dir) => ['import', '--as', 'me', '--out', path.join(dir, 'o')] },
    { name: 'import of a file that is not there', argv: (dir) => ['import', path.join(dir, 'none.dot'), '--as', 'me', '--out', path.join(dir, 'o')] },
    { name: 'import with --attractor', argv: (dir) => ['import', path.join(dir, 'p.dot'), '--as', 'me', '--out', path.join(dir, 'o'), '--attractor'] },
  ];
  for (const u of usageErrors) {
    it(`exits 3 and writes nothing: ${u.name}`, async () => {
      writeFileSync(path.join(tmp, 'p.dot'), pipeline);
      const before = listing(tmp);
      const r = await run(...u.argv(tmp));
      assert.equal(r.code, 3, r.err);
      assert.equal(r.out, '');
      assert.match(r.err, /^darkprint: /);
      assert.deepEqual(listing(tmp), before);
    });
  }

  it('export refuses a bundle with a cardless node (exit 1, reasons on stderr) and leaves --out untouched', async () => {
    const dir = writeBundle('cardless', cardless);
    const out = path.join(tmp, 'kept.dot');
    writeFileSync(out, 'previous export');
    const r = await run('export', dir, '--attractor', '--out', out);
    assert.equal(r.code, 1);
    assert.equal(r.out, '');
    assert.match(r.err, /^export: Node b points at no card the bundle holds/m);
    assert.equal(readFileSync(out, 'utf8'), 'previous export');
    assert.ok(!existsSync(path.join(tmp, 'missing.dot')));
  });

  it('export refuses a bundle whose findings block storage, listing them', async () => {
    const dir = writeBundle('broken', cardless.replace('a -> b;', 'a -> ;'));
    const r = await run('export', dir, '--attractor');
    assert.equal(r.code, 1);
    assert.match(r.err, /error dot\/parse-error/);
    assert.match(r.err, /^export: One finding stops the bundle from being stored/m);
  });

  it('import writes a draft bundle, lists its files, and a second export matches the first but for the digest', async () => {
    const first = (await run('export', example, '--attractor')).out;
    const file = path.join(tmp, 'release.dot');
    writeFileSync(file, first);
    const out = path.join(tmp, 'drafts', 'release');
    const r = await run('import', file, '--as', 'tester', '--out', out);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^import: wrote 11 files to /);
    assert.match(r.out, /\n {2}topology\.dot\n {2}blueprint\.yaml\n {2}cards\/request-intake@1\.0\.0\.yaml\n/);
    assert.match(r.err, /draft/);
    assert.deepEqual(listing(path.join(tmp, 'drafts')), ['release/', ...listing(out).map((p) => `release/${p}`)], 'no temporary folder is left');
    const card = readFileSync(path.join(out, 'cards', 'code-builder@1.1.0.yaml'), 'utf8');
    assert.match(card, /^author: "tester"$/m);
    assert.match(card, /^provenance: "derived:attractor release\.dot"$/m);
    const second = await run('export', out, '--attractor');
    assert.equal(second.code, 0);
    assertSameButDigest(first, second.out);
  });

  it('import refuses a folder that already holds files, and accepts an empty one', async () => {
    const file = path.join(tmp, 'p.dot');
    writeFileSync(file, pipeline);
    const full = path.join(tmp, 'full');
    mkdirSync(full);
    writeFileSync(path.join(full, 'keep.txt'), 'mine');
    const refused = await run('import', file, '--as', 'me', '--out', full);
    assert.equal(refused.code, 1);
    assert.match(refused.err, /already holds files/);
    assert.deepEqual(listing(full), ['keep.txt']);
    const occupied = path.join(tmp, 'occupied');
    writeFileSync(occupied, 'a file');
    assert.equal((await run('import', file, '--as', 'me', '--out', occupied)).code, 1);
    const empty = path.join(tmp, 'empty');
    mkdirSync(empty);
    const accepted = await run('import', file, '--as', 'me', '--out', empty);
    assert.equal(accepted.code, 0, accepted.err);
    assert.ok(existsSync(path.join(empty, 'topology.dot')));
  });

  it('import refuses a pipeline it cannot read and writes nothing', async () => {
    const file = path.join(tmp, 'bad.dot');
    writeFileSync(file, 'digraph g { a -> ; }');
    const r = await run('import', file, '--as', 'me', '--out', path.join(tmp, 'out'));
    assert.equal(r.code, 1);
    assert.match(r.err, /error dot\/parse-error/);
    assert.deepEqual(listing(tmp), ['bad.dot']);
  });

  it('import never writes outside --out, whatever the ids say', async () => {
    const inner = path.join(tmp, 'a', 'b');
    mkdirSync(inner, { recursive: true });
    const file = path.join(inner, 'p.dot');
    writeFileSync(file, pipeline);
    const out = path.join(inner, 'out');
    const r = await run('import', file, '--as', 'me', '--out', out);
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(listing(tmp), ['a/', 'a/b/', 'a/b/out/', 'a/b/p.dot', ...listing(out).map((p) => `a/b/out/${p}`)].sort());
    assert.deepEqual(listing(out), ['blueprint.yaml', 'cards/', 'cards/acme/', 'cards/acme/deep@1.0.0.yaml', 'cards/d@0.1.0.yaml', 'cards/etc-passwd@0.1.0.yaml', 'cards/outside@0.1.0.yaml', 'topology.dot']);
    assert.match(readFileSync(path.join(out, 'topology.dot'), 'utf8'), /"\.\.\/\.\.\/outside" \[card="outside@0\.1\.0"\]/);
  });

  const unsafe = ['../x', 'cards/../../x', '/etc/x', 'a//b', 'a\\b', '', '.', 'cards/./x', 'a\u0000b'];
  for (const relative of unsafe) {
    it(`insideFolder refuses ${JSON.stringify(relative)}`, () => {
      assert.throws(() => insideFolder(tmp, relative), /refusing to write/);
    });
  }
  it('insideFolder accepts plain nested paths', () => {
    assert.equal(insideFolder(tmp, 'cards/acme/x@1.0.0.yaml'), path.join(tmp, 'cards', 'acme', 'x@1.0.0.yaml'));
  });
});
