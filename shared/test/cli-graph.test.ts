/**
 * `darkprint graph` through the real command (in process, real files in a temporary folder): the
 * three formats are the picture model, its DOT and its SVG as the engine makes them; the exit
 * codes; `--out` written atomically with the export's rules (a file's mode kept, a link written
 * through, the bundle's own files refused).
 */
import assert from 'node:assert/strict';
import { chmodSync, cpSync, lstatSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadBundleFolder } from '../src/cli';
import { pictureDot, pictureOf, type Picture } from '../src/picture';
import { runCli as run, writeBundle } from './support/cli';

const example = path.resolve(__dirname, '../../test-fixtures/example');

/** The picture the engine draws of a folder, as the command reads it. */
async function pictureOfFolder(dir: string): Promise<Picture> {
  const { result, files } = await loadBundleFolder(dir);
  return pictureOf(result, { hideByteOrderMark: true, files });
}

/** The ids of the SVG's element groups, in order. */
function groupIds(svg: string): string[] {
  return [...svg.matchAll(/<g id="(dp-[ne]-[^"]*)" class="([^"]*)">/g)].map((m) => m[1]);
}

describe('darkprint graph (CLI)', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'darkprint-graph-'));
  });
  afterEach(() => {
    rmSync(tmp, { recursive: true, force: true });
  });

  /** A copy of the example bundle, to write beside or into. */
  const copy = (): string => {
    const dir = path.join(tmp, 'example');
    cpSync(example, dir, { recursive: true });
    return dir;
  };

  it('lists the verb in its usage', async () => {
    const r = await run('--help');
    assert.equal(r.code, 0);
    assert.match(r.out, /darkprint graph \[<dir>\] \[--format svg\|json\|dot\] \[--out <file>\]/);
  });

  it('prints the SVG by default: one group per node and edge of the model, with its key', async () => {
    const picture = await pictureOfFolder(example);
    const r = await run('graph', example);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.err, '');
    assert.ok(r.out.startsWith('<svg class="dp-picture" '), r.out.slice(0, 80));
    assert.deepEqual(groupIds(r.out).sort(), [...picture.nodes.map((n) => n.key), ...picture.edges.map((e) => e.key)].sort());
    assert.equal((await run('graph', example, '--format', 'svg')).out, r.out, 'svg is the default');
  });

  it('prints the picture model with --format json, and the styled DOT with --format dot', async () => {
    const picture = await pictureOfFolder(example);
    const json = await run('graph', example, '--format', 'json');
    assert.equal(json.code, 0, json.err);
    assert.deepEqual(JSON.parse(json.out), JSON.parse(JSON.stringify(picture)));
    const dot = await run('graph', example, '--format=dot');
    assert.equal(dot.code, 0, dot.err);
    assert.equal(dot.out, pictureDot(picture));
    assert.ok(dot.out.startsWith('digraph "dp-picture" {'));
  });

  it('draws a bundle with errors, the findings on their nodes and edges (exit 0, as report)', async () => {
    const dir = writeBundle(
      path.join(tmp, 'broken'),
      `//- topology.dot
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
`,
    );
    const r = await run('graph', dir);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /<g id="dp-n-b" class="node dp-node dp-family-none dp-unresolved dp-sev-error[^"]*">/);
    const json = JSON.parse((await run('graph', dir, '--format', 'json')).out) as Picture;
    assert.ok(json.unsettled.some((u) => u.kind === 'no-card' && u.node === 'b'), JSON.stringify(json.unsettled));
  });

  it('refuses a topology that is no directed graph (exit 1, the errors on stderr, nothing printed)', async () => {
    const dir = writeBundle(path.join(tmp, 'undirected'), '//- topology.dot\ngraph g { a -- b; }\n');
    for (const format of ['svg', 'json', 'dot']) {
      const r = await run('graph', dir, '--format', format);
      assert.equal(r.code, 1, format);
      assert.equal(r.out, '');
      assert.match(r.err, /topology\.dot:1:1: error dot\/\S+/);
      assert.match(r.err, /graph: the topology could not be read as a directed graph/);
    }
  });

  it('exits 3 for a wrong invocation or a folder that is no bundle', async () => {
    const cases: { args: string[]; says: RegExp }[] = [
      { args: ['graph', example, '--format', 'png'], says: /--format must be svg, json or dot, not png/ },
      { args: ['graph', example, '--ignore', 'dot/'], says: /graph does not take --ignore/ },
      { args: ['graph', example, '--attractor'], says: /graph does not take --attractor/ },
      { args: ['graph', example, example], says: /graph takes one folder, got 2/ },
      { args: ['graph', path.join(tmp, 'nowhere')], says: /no such file or folder/ },
      { args: ['graph', tmp], says: /is not a bundle: it holds no topology\.dot/ },
      { args: ['graph', example, '--out', path.join(tmp, 'no-folder', 'x.svg')], says: /the folder .* does not exist/ },
      { args: ['graph', example, '--out', tmp], says: /is a folder; name the file to write, e\.g\. .*graph\.svg/ },
    ];
    for (const c of cases) {
      const r = await run(...c.args);
      assert.equal(r.code, 3, `${c.args.join(' ')}: ${r.err}`);
      assert.match(r.err, c.says, c.args.join(' '));
      assert.equal(r.out, '');
    }
  });

  it('--out writes the file whole (no temporary left), keeps the mode of the file it replaces, and says so', async () => {
    const out = path.join(tmp, 'graph.svg');
    writeFileSync(out, 'old\n');
    chmodSync(out, 0o640);
    const r = await run('graph', example, '--out', out);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out, `graph: wrote ${out}\n`);
    assert.equal(readFileSync(out, 'utf8'), (await run('graph', example)).out);
    assert.equal(statSync(out).mode & 0o777, 0o640);
    assert.deepEqual(readdirSync(tmp).sort(), ['graph.svg']);
    const json = path.join(tmp, 'picture.json');
    assert.equal((await run('graph', example, '--format', 'json', '--out', json)).code, 0);
    assert.deepEqual(JSON.parse(readFileSync(json, 'utf8')), JSON.parse(JSON.stringify(await pictureOfFolder(example))));
  });

  it('--out through a symbolic link writes its target, and the link stays a link', async () => {
    const real = path.join(tmp, 'real.dot');
    writeFileSync(real, 'old\n');
    const link = path.join(tmp, 'link.dot');
    symlinkSync(real, link);
    const r = await run('graph', example, '--format', 'dot', '--out', link);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /through the symbolic link/);
    assert.ok(lstatSync(link).isSymbolicLink());
    assert.equal(readlinkSync(link), real);
    assert.ok(readFileSync(real, 'utf8').startsWith('digraph "dp-picture" {'));
  });

  it('--out refuses a file of the bundle it draws (exit 1, the file untouched), and takes another .dot beside the topology', async () => {
    const dir = copy();
    for (const own of ['topology.dot', 'blueprint.yaml', 'cards/test-runner@1.0.0.yaml']) {
      const file = path.join(dir, own);
      const before = readFileSync(file, 'utf8');
      const r = await run('graph', dir, '--format', 'dot', '--out', file);
      assert.equal(r.code, 1, own);
      assert.match(r.err, /a file of the bundle being drawn, and graph never writes over the bundle it reads/);
      assert.equal(readFileSync(file, 'utf8'), before, own);
    }
    const beside = path.join(dir, 'picture.dot');
    assert.equal((await run('graph', dir, '--format', 'dot', '--out', beside)).code, 0);
    assert.ok(readFileSync(beside, 'utf8').startsWith('digraph "dp-picture" {'));
  });
});
