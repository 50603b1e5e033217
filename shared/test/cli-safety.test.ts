/**
 * What the command reads and writes on disk when the disk is not friendly: symbolic links out of
 * the bundle folder, files too large or too many, `export --out` onto the bundle itself, onto a
 * link or a file with its own mode, temporary files a stopped run left, a folder filled while an
 * import ran, and node ids too long for a file name. Through the real command, on real files in a
 * temporary folder.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadBundleFolder, main } from '../src/cli';
import { cardIdPattern } from '../src/card/card-ref';
import { assertDiagnostics, parseFixture } from './support/fixture';
import { runCli as run, writeBundle } from './support/cli';

const example = path.resolve(__dirname, '../../test-fixtures/example');

/** A card file's text for `id@1.0.0` (valid, so only what a test is about is reported). */
function card(id: string): string {
  return `id: ${id}\nname: ${id}\ntype: agent\naction: Do it.\nspec: A step that does one small thing and then stops for good.\ninputs: []\noutputs: []\nversion: 1.0.0\n`;
}

/** A process id that no process has: one that ran and ended. */
function endedProcessId(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  assert.equal(child.status, 0);
  return child.pid;
}

/** Copies the example bundle to `dir` (it exports). */
function copyExample(dir: string): string {
  cpSync(example, dir, { recursive: true });
  return dir;
}

describe('darkprint on an unfriendly disk (CLI)', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'darkprint-safety-'));
  });
  afterEach(() => {
    rmSync(tmp, { recursive: true, force: true });
  });

  describe('reading a bundle', () => {
    it('follows no symbolic link out of the bundle folder, wherever it sits, and reports each one; a link inside still works', async () => {
      const fixture = parseFixture(`//- topology.dot
digraph g { a [card="a@1.0.0"]; b [card="b@1.0.0"]; c [card="c@1.0.0"]; d [card="d@1.0.0"]; a -> b -> c -> d; }
//[0,0) warning bundle/files-skipped: the symbolic links blueprint.yaml, cards/b@1.0.0.yaml, cards/more, ontology lead outside the bundle folder and are not followed
//[40,49) error bundle/missing-card: Node b pins b@1.0.0
//[60,69) error bundle/missing-card: Node c pins c@1.0.0
//- cards/a@1.0.0.yaml
${card('a')}//- store/d@1.0.0.yaml
${card('d')}`);
      const bundle = path.join(tmp, 'bundle');
      writeBundle(bundle, fixture.files.map((f) => `//- ${f.path}\n${f.text}\n`).join(''));
      const outside = writeBundle(path.join(tmp, 'outside'), `//- b@1.0.0.yaml\n${card('b')}//- more/c@1.0.0.yaml\n${card('c')}//- blueprint.yaml\nslug: stolen\n//- ontology/extensions.yaml\nterms: []\n`);
      symlinkSync(path.join(outside, 'b@1.0.0.yaml'), path.join(bundle, 'cards', 'b@1.0.0.yaml'));
      symlinkSync(path.join('..', '..', 'outside', 'more'), path.join(bundle, 'cards', 'more'), 'dir');
      symlinkSync(path.join(outside, 'blueprint.yaml'), path.join(bundle, 'blueprint.yaml'));
      symlinkSync(path.join(outside, 'ontology'), path.join(bundle, 'ontology'), 'dir');
      symlinkSync(path.join('..', 'store', 'd@1.0.0.yaml'), path.join(bundle, 'cards', 'd@1.0.0.yaml'));
      const { result, files } = await loadBundleFolder(bundle);
      assertDiagnostics(fixture, result.diagnostics, ['bundle/missing-card', 'bundle/files-skipped']);
      assert.deepEqual(files.map((f) => f.path).sort(), ['cards/a@1.0.0.yaml', 'cards/d@1.0.0.yaml', 'topology.dot']);
    });

    it('follows a link that names a place inside the bundle by another path, the folder given through a link too', async () => {
      const bundle = writeBundle(path.join(tmp, 'bundle'), `//- topology.dot\ndigraph g { a [card="a@1.0.0"]; }\n//- store/a@1.0.0.yaml\n${card('a')}`);
      const alias = path.join(tmp, 'alias');
      symlinkSync(bundle, alias, 'dir');
      mkdirSync(path.join(bundle, 'cards'));
      symlinkSync(path.join(alias, 'store', 'a@1.0.0.yaml'), path.join(bundle, 'cards', 'a@1.0.0.yaml'));
      const r = await run('validate', alias);
      assert.equal(r.code, 0, r.out);
      assert.doesNotMatch(r.out, /bundle\/(files-skipped|missing-card)/);
    });

    it('does not walk a `cards` link to the root of the file system, and says so in text and JSON', async () => {
      const bundle = writeBundle(path.join(tmp, 'bundle'), '//- topology.dot\ndigraph g { a [card="a@1.0.0"]; }\n');
      symlinkSync('/', path.join(bundle, 'cards'), 'dir');
      const text = await run('validate', bundle);
      assert.equal(text.code, 1, text.err);
      assert.match(text.out, /topology\.dot:1:1: warning bundle\/files-skipped: Some files of this bundle were not read: the symbolic link cards leads outside the bundle folder and is not followed\./);
      assert.match(text.out, /error bundle\/missing-card: Node a pins a@1\.0\.0/);
      const json = JSON.parse((await run('validate', bundle, '--format', 'json')).out) as { diagnostics: { code: string; location: object }[] };
      assert.deepEqual(json.diagnostics.find((d) => d.code === 'bundle/files-skipped')?.location, { file: 'topology.dot', line: 1, column: 1, endLine: 1, endColumn: 1 });
    });

    it('names the skipped link among the reasons when export refuses the cards it hides', async () => {
      const bundle = writeBundle(path.join(tmp, 'bundle'), '//- topology.dot\ndigraph g { a [card="a@1.0.0"]; }\n');
      writeBundle(path.join(tmp, 'elsewhere'), `//- a@1.0.0.yaml\n${card('a')}`);
      symlinkSync(path.join(tmp, 'elsewhere'), path.join(bundle, 'cards'), 'dir');
      const r = await run('export', bundle, '--attractor');
      assert.equal(r.code, 1);
      assert.match(r.err, /^export: the files the read left out and the bundle's other errors, which may be why:\n(.*\n)*.*warning bundle\/files-skipped: .*the symbolic link cards leads outside/m);
    });

    it('refuses a topology that is a link out of the bundle folder, naming it', async () => {
      const bundle = path.join(tmp, 'bundle');
      mkdirSync(bundle);
      writeFileSync(path.join(tmp, 'topology.dot'), 'digraph g { a; }\n');
      symlinkSync(path.join(tmp, 'topology.dot'), path.join(bundle, 'topology.dot'));
      const r = await run('validate', bundle);
      assert.equal(r.code, 3);
      assert.match(r.err, /^darkprint: .*bundle\/topology\.dot is a symbolic link that leads outside .*bundle, and a link out of the bundle folder is never followed; copy the topology into the bundle folder\.\n$/);
    });

    it('reads no card file larger than 16 MB', async () => {
      const bundle = writeBundle(path.join(tmp, 'bundle'), `//- topology.dot\ndigraph g { a [card="a@1.0.0"]; }\n//- cards/a@1.0.0.yaml\n${card('a')}`);
      const huge = path.join(bundle, 'cards', 'huge.yaml');
      writeFileSync(huge, '');
      truncateSync(huge, 17 * 1024 * 1024);
      const r = await run('validate', bundle);
      assert.equal(r.code, 0, r.out);
      assert.match(r.out, /warning bundle\/files-skipped: Some files of this bundle were not read: cards\/huge\.yaml is larger than 16 MB and not read\./);
    });

    it('reads at most 64 MB in all, the topology first', async () => {
      const bundle = writeBundle(path.join(tmp, 'bundle'), '//- topology.dot\ndigraph g { a; }\n');
      mkdirSync(path.join(bundle, 'cards'));
      for (const name of ['p', 'q', 'r', 's', 't']) {
        const file = path.join(bundle, 'cards', `${name}.json`);
        writeFileSync(file, '');
        truncateSync(file, 15 * 1024 * 1024);
      }
      const r = await run('validate', bundle);
      assert.equal(r.code, 1, r.err);
      for (const name of ['p', 'q', 'r', 's']) assert.match(r.out, new RegExp(`^\\S*cards/${name}\\.json:1:1: error card/parse-error`, 'm'));
      assert.doesNotMatch(r.out, /cards\/t\.json:/);
      assert.match(r.out, /topology\.dot:1:1: warning bundle\/files-skipped: Some files of this bundle were not read: 1 file \(cards\/t\.json\) was not read because a bundle reads at most 10,000 files and 64 MB\./);
    });
  });

  describe('export --out', () => {
    it('refuses to write over a file of the bundle it exports, however the path reaches it', async () => {
      const bundle = copyExample(path.join(tmp, 'bundle'));
      const topology = path.join(bundle, 'topology.dot');
      const before = readFileSync(topology, 'utf8');
      symlinkSync(topology, path.join(tmp, 'link.dot'));
      const card = path.join(bundle, 'cards', readdirSync(path.join(bundle, 'cards'))[0]);
      for (const out of [topology, path.join(bundle, 'cards', '..', 'topology.dot'), path.join(tmp, 'link.dot'), card]) {
        const r = await run('export', bundle, '--attractor', '--out', out);
        assert.equal(r.code, 1, `${out}: ${r.err}`);
        assert.equal(r.out, '');
        assert.match(r.err, /^export: --out .* is .*, a file of the bundle being exported, and export never writes over the bundle it reads; name a file outside .*bundle, e.g. .*pipeline\.dot\.\n/m);
        assert.doesNotMatch(r.err, /--help/);
      }
      assert.equal(readFileSync(topology, 'utf8'), before);
      assert.ok(lstatSync(path.join(tmp, 'link.dot')).isSymbolicLink());
      // (a .dot beside the topology, such as an earlier export, is no part of the bundle)
      const beside = path.join(bundle, 'pipeline.dot');
      assert.equal((await run('export', bundle, '--attractor', '--out', beside)).code, 0);
      const again = await run('export', bundle, '--attractor', '--out', beside);
      assert.equal(again.code, 0, again.err);
    });

    it('refuses to write where the bundle reads, though no file it read is there', async () => {
      const bundle = copyExample(path.join(tmp, 'bundle'));
      // a card that does not exist yet, a manifest name the bundle does not use
      for (const out of [path.join(bundle, 'cards', 'new@1.0.0.yaml'), path.join(bundle, 'blueprint.json')]) {
        const r = await run('export', bundle, '--attractor', '--out', out);
        assert.equal(r.code, 1, `${out}: ${r.err}`);
        assert.match(r.err, /a file of the bundle being exported/);
        assert.equal(existsSync(out), false, out);
      }
      // a card skipped for its size is the bundle's all the same
      const big = path.join(bundle, 'cards', 'zz-big@1.0.0.yaml');
      writeFileSync(big, '');
      truncateSync(big, 16 * 1024 * 1024 + 1);
      assert.equal((await run('export', bundle, '--attractor', '--out', big)).code, 1);
      assert.equal(statSync(big).size, 16 * 1024 * 1024 + 1);
      // with no topology.dot, another .dot at the root would be read as the topology
      const other = path.join(tmp, 'other');
      mkdirSync(other);
      cpSync(path.join(bundle, 'cards'), path.join(other, 'cards'), { recursive: true });
      rmSync(path.join(other, 'cards', 'zz-big@1.0.0.yaml'));
      writeFileSync(path.join(other, 'main.dot'), readFileSync(path.join(bundle, 'topology.dot'), 'utf8'));
      const r = await run('export', other, '--attractor', '--out', path.join(other, 'a.dot'));
      assert.equal(r.code, 1, r.err);
      assert.equal(existsSync(path.join(other, 'a.dot')), false);
    });

    it('keeps the mode of the file it writes over', async () => {
      const out = path.join(tmp, 'pipeline.dot');
      writeFileSync(out, 'old');
      // (0o741: no umask gives a new file this mode)
      chmodSync(out, 0o741);
      const r = await run('export', example, '--attractor', '--out', out);
      assert.equal(r.code, 0, r.err);
      assert.equal(statSync(out).mode & 0o7777, 0o741);
      assert.equal(readFileSync(out, 'utf8'), (await run('export', example, '--attractor')).out);
    });

    it('writes through a symbolic link to its target, which keeps its mode, and leaves the link a link', async () => {
      const real = path.join(tmp, 'real');
      mkdirSync(real);
      const target = path.join(real, 'pipeline.dot');
      writeFileSync(target, 'old');
      chmodSync(target, 0o741);
      const link = path.join(tmp, 'pipeline.dot');
      symlinkSync(path.join('real', 'pipeline.dot'), link);
      const r = await run('export', example, '--attractor', '--out', link);
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, /^export: wrote .*real\/pipeline\.dot through the symbolic link .*pipeline\.dot\n$/);
      assert.ok(lstatSync(link).isSymbolicLink());
      assert.equal(readlinkSync(link), path.join('real', 'pipeline.dot'));
      assert.equal(readFileSync(target, 'utf8'), (await run('export', example, '--attractor')).out);
      assert.equal(statSync(target).mode & 0o7777, 0o741);
      assert.deepEqual(readdirSync(real), ['pipeline.dot']);
      assert.deepEqual(readdirSync(tmp).sort(), ['pipeline.dot', 'real']);
    });

    it('never replaces a file that is not a regular file', async () => {
      const fifo = path.join(tmp, 'pipe.dot');
      execFileSync('mkfifo', [fifo]);
      const r = await run('export', example, '--attractor', '--out', fifo);
      assert.equal(r.code, 3);
      assert.match(r.err, /is not a regular file \(a device, pipe or socket\), which export never replaces; name a file, or leave out --out to print the pipeline/);
      assert.ok(lstatSync(fifo).isFIFO());
    });

    it('removes the temporary files of stopped runs for the same file, and nothing else', async () => {
      const ended = endedProcessId();
      const stale = `.pipeline.dot.${ended}.0123456789ab.tmp`;
      const live = `.pipeline.dot.${process.pid}.0123456789ab.tmp`;
      const others = [live, `.other.dot.${ended}.0123456789ab.tmp`, `.pipeline.dot.${ended}.tmp`, `.pipeline.dot.${ended}.0123456789ab.tmp.keep`];
      for (const name of [stale, ...others]) writeFileSync(path.join(tmp, name), 'partial');
      const r = await run('export', example, '--attractor', '--out', path.join(tmp, 'pipeline.dot'));
      assert.equal(r.code, 0, r.err);
      assert.match(r.err, new RegExp(`^export: \\.pipeline\\.dot\\.${ended}\\.0123456789ab\\.tmp is a temporary file an earlier export left behind when it was stopped \\(process ${ended} no longer runs\\), so it is removed\\.$`, 'm'));
      assert.deepEqual(readdirSync(tmp).sort(), ['pipeline.dot', ...others].sort());
    });
  });

  describe('import', () => {
    const pipeline = (...nodes: string[]): string =>
      `digraph p {\n  start [shape=Mdiamond];\n${nodes.map((n) => `  ${n}\n`).join('')}  exit [shape=Msquare];\n}\n`;

    it('removes the temporary folders of stopped imports into the same folder, and nothing else', async () => {
      const file = path.join(tmp, 'p.dot');
      writeFileSync(file, pipeline('a [shape=box, prompt="Do the one thing."];'));
      const ended = endedProcessId();
      const stale = `.out.import-${ended}-AbC123`;
      const others = [`.out.import-${process.pid}-XyZ789`, '.out.import-AbC123', `.other.import-${ended}-AbC123`];
      for (const name of [stale, ...others]) writeBundle(path.join(tmp, name), '//- topology.dot\ndigraph half { }\n');
      const r = await run('import', file, '--as', 'me', '--out', path.join(tmp, 'out'));
      assert.equal(r.code, 0, r.err);
      assert.match(r.err, new RegExp(`^import: \\.out\\.import-${ended}-AbC123 is a temporary folder an earlier import left behind when it was stopped \\(process ${ended} no longer runs\\), so it is removed\\.$`, 'm'));
      assert.deepEqual(readdirSync(tmp).sort(), ['out', 'p.dot', ...others].sort());
    });

    it('refuses, as a refusal and not a usage error, a folder filled while it ran', async () => {
      const file = path.join(tmp, 'p.dot');
      // (a node without a shape: import warns before it writes, and the warning fills --out)
      writeFileSync(file, pipeline('a [prompt="Do the one thing."];'));
      const out = path.join(tmp, 'out');
      let err = '';
      const code = await main(['import', file, '--as', 'me', '--out', out], {
        out: () => undefined,
        err: (text) => {
          if (!existsSync(out)) writeBundle(out, '//- mine.txt\nsomeone else\n');
          err += text;
        },
      });
      assert.equal(code, 1, err);
      assert.match(err, /^import: .*out holds files that came in while the import ran, and import never writes over anything, so nothing is written; name a new folder \(or an empty one\) with --out\.$/m);
      assert.doesNotMatch(err, /--help/);
      assert.deepEqual(readdirSync(out), ['mine.txt']);
      assert.deepEqual(readdirSync(tmp).sort(), ['out', 'p.dot']);
    });

    it('gives a node id too long for a file name a shorter card id, unique, and keeps the node id', async () => {
      const long = 'n'.repeat(250);
      const file = path.join(tmp, 'p.dot');
      writeFileSync(file, pipeline(`${long}_x [shape=box, prompt="One."];`, `${long}_y [shape=box, prompt="Two."];`, `${'m'.repeat(245)} [shape=box, prompt="Three."];`));
      const out = path.join(tmp, 'out');
      const r = await run('import', file, '--as', 'me', '--out', out);
      assert.equal(r.code, 0, r.err);
      assert.equal(r.err.match(/warning dot\/unsupported: The card id import derives from node \w+ has \d+ characters, more than a card's file name can hold, so its card is [a-z0-9-]+@0\.1\.0, the id's first characters and a hash of the whole; the node keeps its id, so rename the card if you want another id\./g)?.length, 3);
      const cards = readdirSync(path.join(out, 'cards'));
      assert.equal(cards.length, 3);
      for (const name of cards) {
        assert.ok(name.length <= 255, name);
        assert.match(name.replace(/@0\.1\.0\.yaml$/, ''), cardIdPattern);
      }
      const topology = readFileSync(path.join(out, 'topology.dot'), 'utf8');
      for (const id of [`${long}_x`, `${long}_y`, 'm'.repeat(245)]) assert.match(topology, new RegExp(`^ {2}${id} \\[card="[a-z0-9-]+@0\\.1\\.0"\\];$`, 'm'));
      const checked = await run('validate', out, '--format', 'json');
      const codes = (JSON.parse(checked.out) as { diagnostics: { code: string }[] }).diagnostics.map((d) => d.code);
      assert.ok(!codes.some((c) => c === 'bundle/missing-card' || c === 'card/filename-mismatch' || c === 'card/bad-id'), codes.join(', '));
    });

    it('writes a pinned card whose id and version are too long for a file name to a shorter one, keeping its id', async () => {
      const id = 'p'.repeat(250);
      const file = path.join(tmp, 'p.dot');
      writeFileSync(file, pipeline(`a [shape=box, prompt="One.", card="${id}@1.0.0"];`));
      const out = path.join(tmp, 'out');
      const r = await run('import', file, '--as', 'me', '--out', out);
      assert.equal(r.code, 0, r.err);
      assert.match(r.err, /warning dot\/unsupported: Node a pins p+@1\.0\.0, whose id and version together are longer than a file name can hold, so import writes the card to cards\/p+-[0-9a-f]{16}\.yaml /);
      const [name] = readdirSync(path.join(out, 'cards'));
      assert.ok(name.length <= 255, name);
      assert.match(readFileSync(path.join(out, 'cards', name), 'utf8'), new RegExp(`^id: "${id}"$`, 'm'));
      const checked = await run('validate', out, '--format', 'json');
      const codes = (JSON.parse(checked.out) as { diagnostics: { code: string }[] }).diagnostics.map((d) => d.code);
      assert.ok(!codes.includes('bundle/missing-card'), codes.join(', '));
      assert.ok(codes.includes('card/filename-mismatch'), codes.join(', '));
    });

    it('refuses, as a path problem, at once and with no stack trace, an --out the file system cannot hold or write', async () => {
      const file = path.join(tmp, 'p.dot');
      writeFileSync(file, pipeline('a [shape=box, prompt="One."];'));
      const long = await run('import', file, '--as', 'me', '--out', path.join(tmp, 'a'.repeat(300)));
      assert.equal(long.code, 3, long.err);
      assert.match(long.err, /a name in it is too long for the file system .*; name a shorter folder with --out/);
      assert.doesNotMatch(long.err, /\n\s+at /);
      // (under /proc a missing folder cannot be made, and Node's recursive mkdir retried that without end)
      for (const [out, parent] of [['/proc/self/new-bundle', '/proc/self'], ['/proc/no-such-folder/new-bundle', '/proc/no-such-folder']]) {
        const unwritable = await run('import', file, '--as', 'me', '--out', out);
        assert.equal(unwritable.code, 3, unwritable.err);
        assert.match(unwritable.err, new RegExp(`^darkprint: cannot (create|write into) ${parent}`, 'm'));
        assert.doesNotMatch(unwritable.err, /\n\s+at /);
      }
      assert.deepEqual(readdirSync(tmp).filter((name) => name.includes('.import-')), [], 'no temporary folder is left');
    });
  });
});
