/**
 * `validate` and `report` over many bundles, and what `validate` gives a CI: the bundle search
 * (nested bundles, skipped folders, depth, symbolic links that go round or lead out), several
 * bundles checked on worker threads and printed in order with one summary line, exit codes,
 * SARIF checked against the official schema, GitHub workflow commands and their escaping,
 * `--quiet` and `--max-warnings`. Through the real command, on files in a temporary folder.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Ajv4 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { findBundles } from '../src/cli';
import { bundleSearchLimits, bundleSearchStep, type SearchEntry } from '../src/bundle/classify';
import { allDiagnosticCodes } from '../src/diagnostics/registry';
import { codeHeading, docsAnchor } from '../src/diagnostics/render';
import { escapeGithubData, escapeGithubProperty } from '../src/diagnostics/github';
import { runCli as run, writeBundle } from './support/cli';

const repoRoot = path.resolve(__dirname, '../..');

/**
 * The official SARIF 2.1.0 schema, read from ../shared/spec/sarif beside the repository (a
 * checkout for CI has it there too), or from DARKPRINT_SARIF_SCHEMA.
 */
const sarifSchemaFile = process.env.DARKPRINT_SARIF_SCHEMA ?? path.resolve(repoRoot, '../shared/spec/sarif/sarif-schema-2.1.0.json');

/** A valid card `id@1.0.0` (so that only what a test is about is reported); `extra` lines are added. */
function card(id: string, extra = ''): string {
  return `id: ${id}\nname: ${id}\ntype: agent\naction: Do it.\nspec: A step that does one small thing and then stops for good.\ninputs: []\noutputs: []\nversion: 1.0.0\n${extra}`;
}

/** A bundle in `folder` with no finding: one node and its card. */
function clean(folder: string): string {
  return `//- ${folder}/topology.dot\ndigraph g { a [card="a@1.0.0"]; }\n//- ${folder}/cards/a@1.0.0.yaml\n${card('a')}`;
}

/** A bundle in `folder` with one error: its node pins a card it does not hold. */
function broken(folder: string): string {
  return `//- ${folder}/topology.dot\ndigraph g { a [card="a@1.0.0"]; b [card="gone@1.0.0"]; }\n//- ${folder}/cards/a@1.0.0.yaml\n${card('a')}`;
}

/** A bundle in `folder` with two warnings (specs too thin to instruct an agent) and no error. */
function thin(folder: string): string {
  const short = (id: string): string => card(id).replace(/^spec: .*$/m, 'spec: Do it.');
  return `//- ${folder}/topology.dot\ndigraph g { a [card="a@1.0.0"]; b [card="b@1.0.0"]; }\n//- ${folder}/cards/a@1.0.0.yaml\n${short('a')}//- ${folder}/cards/b@1.0.0.yaml\n${short('b')}`;
}

/** True when `text` holds a C0 control other than line feed, DEL, or a C1 control. */
const rawControl = (text: string): boolean => /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/.test(text);

interface SarifLog {
  runs: {
    tool: { driver: { name: string; rules: { id: string; helpUri: string; defaultConfiguration: { level: string } }[] } };
    originalUriBaseIds: Record<string, { uri: string }>;
    results: {
      ruleId: string;
      ruleIndex: number;
      level: string;
      message: { text: string };
      locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId: string }; region?: { startLine: number; startColumn: number; endLine: number; endColumn: number } } }[];
      relatedLocations?: { physicalLocation: { artifactLocation: { uri: string } }; message: { text: string } }[];
      partialFingerprints: Record<string, string>;
    }[];
  }[];
}

describe('darkprint over many bundles, and in CI (CLI)', () => {
  let tmp: string;
  let here: string;
  beforeEach(() => {
    here = process.cwd();
    tmp = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'darkprint-bundles-')));
  });
  afterEach(() => {
    process.chdir(here);
    rmSync(tmp, { recursive: true, force: true });
  });

  describe('the search rule (one folder)', () => {
    const entries = (spec: string): SearchEntry[] =>
      spec
        .split(' ')
        .filter((s) => s !== '')
        .map((s) => (s.endsWith('/') ? { name: s.slice(0, -1), directory: true } : { name: s, directory: false }));
    const cases: { name: string; entries: string; depth?: number; isBundle: boolean; descend: string[] }[] = [
      { name: 'a topology makes a root; its folders are searched, in name order', entries: 'topology.dot src/ docs/', isBundle: true, descend: ['docs', 'src'] },
      { name: 'a manifest in any case makes a root', entries: 'Blueprint.YML', isBundle: true, descend: [] },
      { name: 'a cards folder makes a root, and is not searched itself', entries: 'cards/ other/', isBundle: true, descend: ['other'] },
      { name: 'a file named cards makes no root', entries: 'cards README.md', isBundle: false, descend: [] },
      { name: 'another .dot makes no root', entries: 'pipeline.dot', isBundle: false, descend: [] },
      { name: 'hidden and skipped folders are not searched', entries: '.git/ .vscode/ node_modules/ out/ dist/ coverage/ src/', isBundle: false, descend: ['src'] },
      { name: 'a folder at the deepest level is looked at, its folders not', entries: 'topology.dot deeper/', depth: bundleSearchLimits.depth, isBundle: true, descend: [] },
      { name: 'one level above it, its folders are', entries: 'deeper/', depth: bundleSearchLimits.depth - 1, isBundle: false, descend: ['deeper'] },
    ];
    for (const c of cases) {
      it(c.name, () => {
        const step = bundleSearchStep(entries(c.entries), c.depth ?? 0);
        assert.deepEqual({ isBundle: step.isBundle, descend: step.descend }, { isBundle: c.isBundle, descend: c.descend });
      });
    }
  });

  describe('which bundles a path stands for', () => {
    const deep = (levels: number): string => Array.from({ length: levels }, (_, i) => `d${i + 1}`).join('/');
    const cases: { name: string; tree: string; links?: [string, string][]; paths: string[]; found: string[] }[] = [
      {
        name: 'a bundle folder named is that bundle, whatever it holds below',
        tree: `${clean('repo/a')}${clean('repo/a/sub/b')}`,
        paths: ['repo/a'],
        found: ['repo/a'],
      },
      {
        name: 'a folder that is no bundle is searched: nested bundles too, but nothing inside a cards folder',
        tree: `${clean('repo/a')}//- repo/a/cards/more/blueprint.yaml\nslug: misfiled\n${clean('repo/a/sub/b')}//- repo/c/blueprint.yaml\nslug: c\n//- repo/d/cards/x@1.0.0.yaml\n${card('x')}//- repo/notes/readme.md\nnothing here\n`,
        paths: ['repo'],
        found: ['repo/a', 'repo/a/sub/b', 'repo/c', 'repo/d'],
      },
      {
        name: 'hidden folders and build outputs are passed over',
        tree: ['node_modules/p', '.git/x', '.hidden/y', 'out/z', 'dist/z', 'coverage/z', 'src/ok'].map((f) => clean(`repo/${f}`)).join(''),
        paths: ['repo'],
        found: ['repo/src/ok'],
      },
      {
        name: `the search goes ${bundleSearchLimits.depth} folders deep and no deeper`,
        tree: `${clean(`repo/${deep(bundleSearchLimits.depth)}`)}${clean(`repo/x/${deep(bundleSearchLimits.depth)}`)}`,
        paths: ['repo'],
        found: [`repo/${deep(bundleSearchLimits.depth)}`],
      },
      {
        name: 'links back up or round end, a folder reached twice is searched once, and a link out of the folder is not followed',
        tree: `${clean('repo/a')}${clean('elsewhere/e')}`,
        links: [
          ['repo/a/up', '..'],
          ['repo/loop', '.'],
          ['repo/twice', 'a'],
          ['repo/out', '../elsewhere'],
        ],
        paths: ['repo'],
        found: ['repo/a'],
      },
      {
        name: 'several paths give their bundles in their order, each bundle once',
        tree: `${clean('repo/a')}${clean('repo/b')}`,
        paths: ['repo/b', 'repo', 'repo/a'],
        found: ['repo/b', 'repo/a'],
      },
      {
        name: 'a folder holding a root-level .dot of another name is a bundle when named',
        tree: '//- flows/pipeline.gv\ndigraph g { a; }\n',
        paths: ['flows'],
        found: ['flows'],
      },
    ];
    for (const c of cases) {
      it(c.name, () => {
        writeBundle(tmp, c.tree);
        for (const [link, target] of c.links ?? []) symlinkSync(target, path.join(tmp, link), 'dir');
        const found = findBundles(c.paths.map((p) => path.join(tmp, p)), { out: () => undefined, err: () => undefined });
        assert.deepEqual(
          found.bundles.map((b) => path.relative(tmp, b.folder)),
          c.found,
        );
      });
    }

    it('says which path does not exist, is no folder, or holds no bundle, and checks nothing (exit 3)', async () => {
      writeBundle(tmp, `${broken('repo/a')}//- repo/file.txt\nx\n//- empty/readme.md\nx\n`);
      const cases: [string, RegExp][] = [
        ['repo/nope', /^darkprint: cannot read \S*repo\/nope: no such file or folder; name a folder that exists\n$/],
        ['repo/file.txt', /repo\/file\.txt is not a folder/],
        ['empty', /^darkprint: no bundle at or below \S*empty: no folder there .* holds a topology\.dot, a blueprint\.yaml or a cards folder; name a bundle folder\n$/],
      ];
      for (const [bad, message] of cases) {
        const r = await run('validate', path.join(tmp, 'repo/a'), path.join(tmp, bad));
        assert.equal(r.code, 3, bad);
        assert.equal(r.out, '', bad);
        assert.match(r.err, message);
      }
    });
  });

  describe('validate and report of several bundles', () => {
    it('checks them in parallel and prints them in order, as one run each would, with one summary line', async () => {
      writeBundle(tmp, `${thin('repo/a')}${broken('repo/b')}${clean('repo/c')}${thin('repo/d')}`);
      process.chdir(tmp);
      const alone = await Promise.all(['a', 'b', 'c', 'd'].map((f) => run('validate', `repo/${f}`)));
      const findings = alone.map((r) => r.out.split('\n').slice(0, -2).map((line) => `${line}\n`).join('')).join('');
      const all = await run('validate', 'repo');
      assert.equal(all.code, 1);
      assert.equal(all.out, `${findings}1 error(s), 5 warning(s), 0 info(s) in 4 bundles\n`);
      // (the command as built and shipped, whose worker threads run the bundle itself)
      const shipped = spawnSync(process.execPath, [path.join(repoRoot, 'bin/darkprint.js'), 'validate', 'repo'], { encoding: 'utf8' });
      assert.equal(shipped.stderr, '');
      assert.equal(shipped.stdout, all.out);
      assert.equal(shipped.status, 1);
      assert.equal((await run('validate', 'repo/a', 'repo/c')).code, 0);
    });

    it('gives JSON as { bundles } for a search, each with its folder, and one bundle as before', async () => {
      writeBundle(tmp, `${thin('repo/a')}${broken('repo/b')}`);
      process.chdir(tmp);
      const listed = JSON.parse((await run('validate', 'repo', '--format', 'json')).out) as { bundles: { folder: string; diagnostics: { code: string }[]; digest?: string }[] };
      assert.deepEqual(listed.bundles.map((b) => [b.folder, b.diagnostics.map((d) => d.code)]), [
        ['repo/a', ['card/spec-too-thin', 'card/spec-too-thin']],
        ['repo/b', ['bundle/missing-card', 'analysis/unresolved-node']],
      ]);
      const one = JSON.parse((await run('validate', 'repo/b', '--format', 'json')).out) as Record<string, unknown>;
      assert.deepEqual(Object.keys(one), ['diagnostics', 'digest', 'analysis']);
    });

    it('reports each bundle, and exits 1 naming a bundle whose topology is no directed graph', async () => {
      writeBundle(tmp, `${clean('repo/a')}//- repo/b/topology.dot\ngraph g { a -- b; }\n${clean('repo/c')}`);
      process.chdir(tmp);
      const text = await run('report', 'repo');
      assert.equal(text.code, 1);
      assert.match(text.err, /^report: repo\/b: the topology could not be read as a directed graph/);
      assert.deepEqual(text.out.match(/^Folder .*$/gm), ['Folder repo/a', 'Folder repo/c']);
      const json = JSON.parse((await run('report', 'repo', '--format', 'json')).out) as { bundles: { folder: string; digest: string }[] };
      assert.deepEqual(json.bundles.map((b) => b.folder), ['repo/a', 'repo/c']);
      assert.ok(json.bundles.every((b) => b.digest.startsWith('sha256:')));
    });
  });

  describe('--quiet and --max-warnings', () => {
    it('--quiet prints the errors only, in every format, and the summary still counts every finding', async () => {
      writeBundle(tmp, `${thin('repo/a')}${broken('repo/b')}`);
      process.chdir(tmp);
      const text = await run('validate', 'repo', '--quiet');
      assert.equal(text.code, 1);
      assert.deepEqual(text.out.split('\n').filter((l) => l !== ''), [
        'repo/b/topology.dot:1:41: error bundle/missing-card: Node b pins gone@1.0.0, but no card in the bundle has that id and version; add cards/gone@1.0.0.yaml or pin a card the bundle holds.',
        '1 error(s), 3 warning(s), 0 info(s) in 2 bundles',
      ]);
      const levels = (format: string, pick: (out: string) => string[]): Promise<string[]> => run('validate', 'repo', '--quiet', '--format', format).then((r) => pick(r.out));
      assert.deepEqual(await levels('json', (out) => (JSON.parse(out) as { bundles: { diagnostics: { severity: string }[] }[] }).bundles.flatMap((b) => b.diagnostics.map((d) => d.severity))), ['error']);
      assert.deepEqual(await levels('sarif', (out) => (JSON.parse(out) as SarifLog).runs[0].results.map((r) => r.level)), ['error']);
      assert.deepEqual(await levels('github', (out) => out.split('\n').filter((l) => l.startsWith('::')).map((l) => l.slice(2, l.indexOf(' ')))), ['error']);
    });

    it('--max-warnings fails the run above the number given, and only above it', async () => {
      writeBundle(tmp, thin('repo/a'));
      const cases: { given: string; code: number; err: RegExp }[] = [
        { given: '1', code: 1, err: /^darkprint: 2 warning\(s\) found, more than --max-warnings 1 allows; fix some of them, or raise the limit\.\n$/ },
        { given: '2', code: 0, err: /^$/ },
        { given: '-1', code: 0, err: /^$/ },
        { given: '0', code: 1, err: /more than --max-warnings 0 allows/ },
        { given: 'two', code: 3, err: /--max-warnings takes a whole number of warnings/ },
        { given: '1.5', code: 3, err: /--max-warnings takes a whole number of warnings/ },
      ];
      for (const c of cases) {
        const r = await run('validate', path.join(tmp, 'repo/a'), '--max-warnings', c.given);
        assert.equal(r.code, c.code, c.given);
        assert.match(r.err, c.err, c.given);
      }
      const quiet = await run('validate', path.join(tmp, 'repo/a'), '--quiet', '--max-warnings', '1');
      assert.equal(quiet.code, 1, 'warnings count with --quiet too');
    });

    it('refuses flags that do not go together (exit 3)', async () => {
      writeBundle(tmp, clean('repo/a'));
      const bundle = path.join(tmp, 'repo/a');
      const cases: [string[], RegExp][] = [
        [['validate', bundle, '--format', 'yaml'], /--format must be text, json, sarif or github, not yaml/],
        [['report', bundle, '--format', 'sarif'], /--format must be text or json, not sarif/],
        [['report', bundle, '--quiet'], /report does not take --quiet/],
        [['validate', bundle, '--sarif-root', tmp], /--sarif-root is for --format sarif or github/],
        [['validate', bundle, '--format', 'github', '--docs-url', 'https://example.org/d.md'], /--docs-url is for --format sarif; add it, or leave --docs-url out/],
        [['validate', bundle, '--docs-url', 'https://example.org/d.md'], /--docs-url is for --format sarif/],
        [['validate', bundle, '--max-warnings'], /--max-warnings needs a value/],
        [['validate', bundle, '--format', 'sarif', '--docs-url', 'docs.md'], /--docs-url must be an absolute URL/],
        [['validate', bundle, '--format', 'sarif', '--sarif-root', path.join(tmp, 'nope')], /--sarif-root .*nope is not a folder/],
        [['validate', bundle, '--quiet=yes'], /--quiet takes no value/],
      ];
      for (const [argv, message] of cases) {
        const r = await run(...argv);
        assert.equal(r.code, 3, argv.join(' '));
        assert.match(r.err, message);
      }
    });
  });

  describe('--format sarif', () => {
    it('is valid SARIF 2.1.0 by the official schema: one run, the registry as rules, results placed in the repository', async () => {
      assert.ok(existsSync(sarifSchemaFile), `${sarifSchemaFile} is absent: the SARIF schema is read from ../shared/spec/sarif beside the repository (or set DARKPRINT_SARIF_SCHEMA)`);
      const ajv = new Ajv4({ allErrors: true, strict: false });
      addFormats(ajv);
      const validateSarif = ajv.compile(JSON.parse(readFileSync(sarifSchemaFile, 'utf8')) as object);
      const ports = card('p', 'x: 1\n').replace('inputs: []', 'inputs:\n  - name: in\n    type: text\n  - name: in\n    type: text');
      writeBundle(tmp, `${broken('repo/blue prints/b')}${thin('repo/a')}//- repo/c/topology.dot\ndigraph g { p [card="p@1.0.0"]; }\n//- repo/c/cards/p@1.0.0.yaml\n${ports}`);
      mkdirSync(path.join(tmp, 'repo/.git'));
      mkdirSync(path.join(tmp, 'repo/tools'));
      process.chdir(path.join(tmp, 'repo/tools'));
      const r = await run('validate', '..', '--format', 'sarif');
      assert.equal(r.code, 1, r.err);
      const log = JSON.parse(r.out) as SarifLog;
      assert.ok(validateSarif(log), ajv.errorsText(validateSarif.errors));
      assert.equal(log.runs.length, 1);
      const run0 = log.runs[0];
      assert.deepEqual(run0.tool.driver.rules.map((rule) => rule.id), allDiagnosticCodes);
      const docs = readFileSync(path.join(repoRoot, 'docs/diagnostics.md'), 'utf8');
      for (const rule of run0.tool.driver.rules) {
        assert.ok(docs.includes(`\n${codeHeading(rule.id)}\n`), `docs/diagnostics.md has a heading for ${rule.id}`);
        assert.ok(rule.helpUri.startsWith('file:') && rule.helpUri.endsWith(`/docs/diagnostics.md#${docsAnchor(rule.id)}`), rule.helpUri);
      }
      assert.equal(run0.originalUriBaseIds['%SRCROOT%'].uri, `${new URL(`file://${path.join(tmp, 'repo')}/`).href}`);
      for (const result of run0.results) assert.equal(run0.tool.driver.rules[result.ruleIndex].id, result.ruleId);
      const summary = run0.results.map((x) => {
        const where = x.locations[0].physicalLocation;
        const region = where.region;
        return `${x.level} ${x.ruleId} ${where.artifactLocation.uri}${region ? `:${region.startLine}:${region.startColumn}-${region.endLine}:${region.endColumn}` : ''}`;
      });
      assert.deepEqual(summary, [
        'warning card/spec-too-thin a/cards/a@1.0.0.yaml:5:7-5:13',
        'warning card/spec-too-thin a/cards/b@1.0.0.yaml:5:7-5:13',
        'error bundle/missing-card blue%20prints/b/topology.dot:1:41-1:53',
        'warning analysis/unresolved-node blue%20prints/b/topology.dot:1:33-1:34',
        'error card/duplicate-port c/cards/p@1.0.0.yaml:9:11-9:13',
        'error bundle/missing-card c/topology.dot:1:21-1:30',
        'warning analysis/unresolved-node c/topology.dot:1:13-1:14',
        'note card/bad-type c/cards/p@1.0.0.yaml:13:1-13:2',
      ]);
      const duplicate = run0.results.find((x) => x.ruleId === 'card/duplicate-port');
      assert.deepEqual(duplicate?.relatedLocations?.map((l) => [l.physicalLocation.artifactLocation.uri, l.message.text]), [['c/cards/p@1.0.0.yaml', 'the first port named `in`']]);
      const rooted = JSON.parse((await run('validate', '..', '--format', 'sarif', '--sarif-root', path.join(tmp, 'repo/a'))).out) as SarifLog;
      assert.equal(rooted.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri, 'cards/a@1.0.0.yaml');
      assert.equal(rooted.runs[0].results[2].locations[0].physicalLocation.artifactLocation.uri, '../blue%20prints/b/topology.dot');
      const hosted = JSON.parse((await run('validate', '../a', '--format', 'sarif', '--docs-url', 'https://example.org/docs/diagnostics.md')).out) as SarifLog;
      assert.equal(hosted.runs[0].tool.driver.rules[0].helpUri, 'https://example.org/docs/diagnostics.md#dotparse-error');
    });

    it('keeps each finding\'s fingerprint from run to run, and while lines around it move', async () => {
      writeBundle(tmp, `${broken('repo/b')}${thin('repo/a')}`);
      const fingerprints = async (): Promise<Map<string, string>> => {
        const log = JSON.parse((await run('validate', path.join(tmp, 'repo'), '--format', 'sarif')).out) as SarifLog;
        return new Map(log.runs[0].results.map((x) => [x.partialFingerprints['darkprint/v1'], `${x.ruleId} ${x.locations[0].physicalLocation.region?.startLine}`]));
      };
      const first = await fingerprints();
      assert.equal(first.size, 4, 'every result has a fingerprint of its own');
      assert.deepEqual(await fingerprints(), first);
      const topology = path.join(tmp, 'repo/b/topology.dot');
      writeFileSync(topology, `// moved down a line\n${readFileSync(topology, 'utf8')}`);
      const moved = await fingerprints();
      assert.deepEqual([...moved.keys()], [...first.keys()]);
      assert.notDeepEqual([...moved.values()], [...first.values()], 'the lines did move');
    });

    it('writes control characters in messages as JSON escapes, and they read back', async () => {
      const id = 'evil\u001b[2J\u009b31m\u007f';
      writeBundle(tmp, `//- repo/a/topology.dot\ndigraph g { "${id}" [card="gone@1.0.0"]; }\n`);
      const r = await run('validate', path.join(tmp, 'repo/a'), '--format', 'sarif');
      assert.ok(!rawControl(r.out), r.out);
      const messages = (JSON.parse(r.out) as SarifLog).runs[0].results.map((x) => x.message.text);
      assert.ok(messages.some((m) => m.includes(`Node ${id} pins gone@1.0.0`)), messages.join('\n'));
    });
  });

  describe('--format github', () => {
    const escapes: { text: string; data: string; property: string }[] = [
      { text: 'plain', data: 'plain', property: 'plain' },
      { text: '100%', data: '100%25', property: '100%25' },
      { text: 'a\r\nb', data: 'a%0D%0Ab', property: 'a%0D%0Ab' },
      { text: 'key: a, b', data: 'key: a, b', property: 'key%3A a%2C b' },
      { text: '%0A is not a line feed', data: '%250A is not a line feed', property: '%250A is not a line feed' },
      { text: '::error::x', data: '::error::x', property: '%3A%3Aerror%3A%3Ax' },
      { text: 'bell\u0007 esc\u001b csi\u009b tab\t', data: 'bell\\x07 esc\\x1b csi\\x9b tab\\t', property: 'bell\\x07 esc\\x1b csi\\x9b tab\\t' },
    ];
    for (const e of escapes) {
      it(`escapes ${JSON.stringify(e.text)} as the runner reads it`, () => {
        assert.equal(escapeGithubData(e.text), e.data);
        assert.equal(escapeGithubProperty(e.text), e.property);
      });
    }

    it('writes one command per finding, file relative to the repository, escaped', async () => {
      writeBundle(tmp, `//- repo/we,ird:dir%/topology.dot\ndigraph g { "a%b:c,d\ne" [card="gone@1.0.0"]; }\n${thin('repo/a')}`);
      mkdirSync(path.join(tmp, 'repo/.git'));
      process.chdir(path.join(tmp, 'repo'));
      const r = await run('validate', '.', '--format', 'github');
      assert.equal(r.code, 1);
      const lines = r.out.split('\n');
      assert.equal(lines.length, 8, r.out);
      assert.equal(lines[0], '::warning file=a/cards/a@1.0.0.yaml,line=5,col=7,endLine=5,endColumn=13,title=card/spec-too-thin::`spec` is 6 characters long, too thin to instruct an agent that sees nothing else of the graph; say what to do, what to produce and what to leave alone (at least 40 characters).');
      assert.equal(
        lines[2],
        '::error file=we%2Cird%3Adir%25/topology.dot,line=2,col=10,endLine=2,endColumn=22,title=bundle/missing-card::Node a%25b:c,d%0Ae pins gone@1.0.0, but no card in the bundle has that id and version; add cards/gone@1.0.0.yaml or pin a card the bundle holds.',
      );
      assert.ok(lines.slice(0, 6).every((l) => /^::(error|warning|notice) file=[^:]*,title=[^:]+::/.test(l.replace(/,line=\d+,col=\d+,endLine=\d+,endColumn=\d+/, ''))), r.out);
      assert.equal(lines[6], '1 error(s), 5 warning(s), 0 info(s) in 2 bundles');
    });
  });
});
