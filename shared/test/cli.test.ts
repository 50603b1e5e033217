/**
 * `darkprint validate`, `report` and the command's own behaviour (folder argument, repeated
 * flags, a reader that stops early), through the real command on files in a temporary folder.
 * Export and import have their own file (compile-cli.test.ts).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runCli as run, writeBundle } from './support/cli';

const repoRoot = path.resolve(__dirname, '../..');
const example = path.join(repoRoot, 'test-fixtures/example');

/** One node with one card (a risk marker, a phase); the node id is written as it is between quotes, the card as JSON. */
function oneNodeBundle(nodeId: string, name = 'A'): string {
  return `//- topology.dot
digraph g { "${nodeId}" [card="a@1.0.0"]; }
//- cards/a@1.0.0.json
${JSON.stringify({
  id: 'a',
  name,
  type: 'agent',
  phase: ['testing'],
  action: 'act',
  spec: 'Do the one thing this node exists for and report what you did, plainly.',
  tools: [],
  mcp: [],
  params: {},
  inputs: [{ name: 'in', type: 'any' }],
  outputs: [{ name: 'out', type: 'any' }],
  dependencies: [],
  cannot: [],
  will_not: [],
  risk_markers: ['secret-access'],
  version: '1.0.0',
})}
`;
}

/** True when `text` holds a C0 control other than line feed, DEL, or a C1 control. */
const rawControl = (text: string): boolean => /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/.test(text);

describe('darkprint validate / report (CLI)', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = mkdtempSync(path.join(os.tmpdir(), 'darkprint-cli-'));
  });
  afterEach(() => {
    rmSync(tmp, { recursive: true, force: true });
  });

  it('places a finding on an undirected topology, in text and in JSON', async () => {
    const dir = writeBundle(path.join(tmp, 'undirected'), '//- topology.dot\ngraph p { a [card="a@1.0.0"]; }\n');
    const text = await run('validate', dir);
    assert.equal(text.code, 1);
    assert.match(text.out, /topology\.dot:1:1: error dot\/not-directed: /);
    const json = await run('validate', dir, '--format', 'json');
    const found = (JSON.parse(json.out) as { diagnostics: { code: string; location: object }[] }).diagnostics.find((d) => d.code === 'dot/not-directed');
    assert.deepEqual(found?.location, { file: 'topology.dot', line: 1, column: 1, endLine: 1, endColumn: 6 });
  });

  it('counts columns as an editor shows them, without a byte order mark', async () => {
    const card = (id: string): string =>
      `\uFEFFid: ${id}\nname: A\ntype: agent\naction: Do it.\nspec: A step that does one small thing and then stops for good.\ninputs: []\noutputs: []\nversion: 1.0.0\n`;
    const dir = writeBundle(path.join(tmp, 'bom'), `//- topology.dot\ndigraph g { a [card="alpha@1.0.0"]; }\n//- cards/alpha@1.0.0.yaml\n${card('alpha')}//- cards/orphan@1.0.0.yaml\n${card('orphan')}`);
    const r = await run('validate', dir);
    assert.match(r.out, /cards\/orphan@1\.0\.0\.yaml:1:5: warning bundle\/orphan-card: /);
  });

  it('report escapes control characters in node ids and terms', async () => {
    const dir = writeBundle(path.join(tmp, 'ctl'), oneNodeBundle('evil\u001b[31mRED', 'Name\u001b[2Jx'));
    const r = await run('report', dir);
    assert.equal(r.code, 0, r.err);
    assert.ok(!rawControl(r.out), r.out);
    assert.match(r.out, /on evil\\x1b\[31mRED/);
    assert.match(r.out, /^ {4}evil\\x1b\[31mRED: secret-access \(declared\)/m);
    assert.match(r.out, /^ {2}testing {9}evil\\x1b\[31mRED$/m);
  });

  it('report gives the staffing reading as a count of nodes', async () => {
    const r = await run('report', example);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^ {2}staffing reading: \d+ of \d+ nodes run unattended \(fraction [0-9.]+\)$/m);
  });

  it('JSON output writes DEL and C1 controls as escapes, and reads back the same', async () => {
    const id = 'x\u009b31m\u007fy';
    const dir = writeBundle(path.join(tmp, 'c1'), oneNodeBundle(id));
    for (const verb of ['validate', 'report']) {
      const r = await run(verb, dir, '--format', 'json');
      assert.ok(!rawControl(r.out), `${verb}: ${r.out}`);
      assert.ok(JSON.stringify(JSON.parse(r.out)).includes(id), `${verb}: the id reads back`);
    }
    assert.match((await run('validate', dir, '--format', 'json')).out, /x\\u009b31m\\u007fy/);
  });

  it('reads the current folder when no folder is named', async () => {
    const here = process.cwd();
    try {
      process.chdir(example);
      const bare = await run('validate');
      const named = await run('validate', '.');
      assert.equal(bare.code, named.code);
      assert.equal(bare.out, named.out);
      assert.match(bare.out, / in \.\n$/);
      assert.equal((await run('export', '--attractor')).out, (await run('export', example, '--attractor')).out);
    } finally {
      process.chdir(here);
    }
  });

  it('adds up repeated --ignore and --severity, and refuses another flag given twice', async () => {
    const only = async (...flags: string[]): Promise<string[]> => {
      const r = await run('validate', example, '--format', 'json', ...flags);
      return (JSON.parse(r.out) as { diagnostics: { code: string; severity: string }[] }).diagnostics.map((d) => `${d.severity} ${d.code}`);
    };
    const all = await only();
    const families = [...new Set(all.map((d) => d.split(' ')[1].split('/')[0]))];
    assert.ok(families.length >= 2, `the example has findings of two families at least: ${all.join(', ')}`);
    const [first, second] = families;
    assert.deepEqual(await only('--ignore', `${first}/`, '--ignore', `${second}/`), await only('--ignore', `${first}/,${second}/`));
    assert.ok(!(await only('--ignore', `${first}/`, '--ignore', `${second}/`)).some((d) => d.includes(` ${first}/`) || d.includes(` ${second}/`)));
    assert.deepEqual(await only('--severity', `${first}/=info`, '--severity', `${second}/=info`), await only('--severity', `${first}/=info,${second}/=info`));
    const twice = await run('validate', example, '--format', 'json', '--format', 'text');
    assert.equal(twice.code, 3);
    assert.match(twice.err, /--format is given twice/);
  });

  it('export names, after its refusal, the errors that may be why', async () => {
    const dir = writeBundle(
      path.join(tmp, 'bad-card'),
      oneNodeBundle('a').replace('"tools":[]', '"tools":"web"'),
    );
    const r = await run('export', dir, '--attractor');
    assert.equal(r.code, 1);
    assert.equal(r.out, '');
    assert.match(r.err, /^export: Node a points at no card/m);
    assert.match(r.err, /^export: the bundle's other errors, which may be why:\n(.*\n)*.*cards\/a@1\.0\.0\.json:\d+:\d+: error card\/bad-type/m);
  });

  it('ends quietly, with its own exit code, when its reader stops early', async () => {
    const child = spawn(process.execPath, [path.join(repoRoot, 'bin/darkprint.js'), 'validate', example], { stdio: ['ignore', 'pipe', 'pipe'] });
    // the reader goes before the command prints anything: every write meets a closed pipe
    child.stdout.destroy();
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(err, '');
    assert.equal(code, (await run('validate', example)).code);
  });
});
