/// <reference types="mocha" />
/**
 * The pure parts of the import command (../src/import-target.ts): the folder the prompt offers,
 * what it says about a folder, where a typed path leads, where each file goes; and the reader of
 * the server's `darkprint/import` answer (../src/protocol.ts).
 */
import assert from 'node:assert/strict';
import {
  bundlePathParts,
  defaultParent,
  entriesInMoveOrder,
  folderNameFor,
  folderVerdict,
  freeFolderName,
  freeNameAttempts,
  resolveTyped,
  type FolderState,
} from '../src/import-target';
import { readImportAnswer } from '../src/protocol';

describe('client: the folder of the import command', function () {
  describe('the name offered for a pipeline', function () {
    const cases: readonly (readonly [string, string])[] = [
      ['release-flow.dot', 'release-flow'],
      ['Release Flow.GV', 'Release Flow'],
      ['ci.attractor.dot', 'ci'],
      ['notes', 'notes'],
      ['.dot', 'imported-pipeline'],
      ['...dot', 'imported-pipeline'],
      ['.hidden.dot', 'hidden'],
      ['a:b*c?.dot', 'a-b-c-'],
      ['out.dot', 'out-bundle'],
      ['node_modules.gv', 'node_modules-bundle'],
      ['tab\there.dot', 'tab-here'],
    ];
    for (const [pipeline, folder] of cases) it(`${JSON.stringify(pipeline)} → ${JSON.stringify(folder)}`, () => assert.equal(folderNameFor(pipeline), folder));
  });

  describe('a free name beside the pipeline', function () {
    const lookup =
      (states: Record<string, FolderState>) =>
      async (path: string): Promise<FolderState> =>
        states[path] ?? { kind: 'missing' };

    it('is the name itself when nothing is there', async function () {
      assert.equal(await freeFolderName('/ws/foo', 'release-flow', lookup({})), 'release-flow');
    });
    it('is the name itself when an empty folder is there', async function () {
      assert.equal(await freeFolderName('/ws/foo', 'release-flow', lookup({ '/ws/foo/release-flow': { kind: 'folder', entries: [] } })), 'release-flow');
    });
    it('counts on past a folder that holds anything and past a file', async function () {
      const states: Record<string, FolderState> = {
        '/ws/foo/release-flow': { kind: 'folder', entries: ['topology.dot'] },
        '/ws/foo/release-flow-2': { kind: 'file' },
      };
      assert.equal(await freeFolderName('/ws/foo', 'release-flow', lookup(states)), 'release-flow-3');
    });
    it('gives the name back when every try is taken (the prompt then says why)', async function () {
      let asked = 0;
      const full = async (): Promise<FolderState> => {
        asked += 1;
        return { kind: 'folder', entries: ['x'] };
      };
      assert.equal(await freeFolderName('/', 'p', full), 'p');
      assert.equal(asked, freeNameAttempts);
    });
    it('works at the root of a file system', async function () {
      const states: Record<string, FolderState> = { '/p': { kind: 'folder', entries: ['x'] } };
      assert.equal(await freeFolderName('/', 'p', lookup(states)), 'p-2');
    });
  });

  describe('where the offered folder goes', function () {
    it('beside a pipeline that lies in no bundle', () => assert.equal(defaultParent('/ws/foo/release-flow.dot', undefined, '/ws'), '/ws/foo'));
    it('beside the bundle a pipeline lies in, never inside it', () => assert.equal(defaultParent('/ws/example/flow.attractor.dot', '/ws/example', '/ws'), '/ws'));
    it('beside the bundle when the pipeline lies deeper in it', () => assert.equal(defaultParent('/ws/a/example/drafts/p.dot', '/ws/a/example', '/ws'), '/ws/a'));
    it('beside the pipeline when the bundle is the workspace folder itself', () => assert.equal(defaultParent('/ws/p.dot', '/ws', '/ws'), '/ws'));
    it('beside the bundle when no workspace folder holds it', () => assert.equal(defaultParent('/tmp/b/p.dot', '/tmp/b', undefined), '/tmp'));
    it('beside the pipeline when the bundle is the root of the file system', () => assert.equal(defaultParent('/p.dot', '/', undefined), '/'));
  });

  describe('what the prompt says about a folder', function () {
    it('accepts a missing folder, saying it is created', function () {
      const verdict = folderVerdict('foo/release-flow', { kind: 'missing' });
      assert.ok(verdict.ok);
      assert.match(verdict.note, /^foo\/release-flow is a new folder: it is created/);
    });
    it('accepts an empty folder', function () {
      const verdict = folderVerdict('drafts', { kind: 'folder', entries: [] });
      assert.ok(verdict.ok);
      assert.match(verdict.note, /empty folder/);
    });
    it('refuses a folder that holds anything, saying why and what to do', function () {
      const verdict = folderVerdict('notes', { kind: 'folder', entries: ['a.txt', 'b/'] });
      assert.ok(!verdict.ok);
      assert.match(verdict.problem, /^notes is not empty \(it holds 2 entries\)\./);
      assert.match(verdict.problem, /never writes over/);
      assert.match(verdict.problem, /type the path of a new folder \(or of an empty one\)/);
    });
    it('refuses a bundle\'s folder, naming it so', function () {
      for (const marker of ['topology.dot', 'blueprint.yaml', 'cards/']) {
        const verdict = folderVerdict('example', { kind: 'folder', entries: ['README.md', marker] });
        assert.ok(!verdict.ok);
        assert.match(verdict.problem, /^example is a bundle's folder \(it holds 2 entries\)\./, marker);
      }
      // a file named `cards` is no bundle's sign
      const file = folderVerdict('x', { kind: 'folder', entries: ['cards'] });
      assert.ok(!file.ok);
      assert.match(file.problem, /^x is not empty \(it holds 1 entry\)/);
    });
    it('refuses a file', function () {
      const verdict = folderVerdict('p.dot', { kind: 'file' });
      assert.ok(!verdict.ok);
      assert.match(verdict.problem, /is a file, not a folder/);
    });
  });

  describe('a typed path', function () {
    it('absolute, as typed', () => assert.equal(resolveTyped('/data/new', '/ws/foo'), '/data/new'));
    it('relative, from the base', () => assert.equal(resolveTyped('flows/new/', '/ws/foo'), '/ws/foo/flows/new'));
    it('with . and ..', () => assert.equal(resolveTyped(' ../x/./y//z ', '/ws/foo'), '/ws/x/y/z'));
    it('never above the root', () => assert.equal(resolveTyped('../../../..', '/ws'), '/'));
    it('blank: none', () => assert.equal(resolveTyped('   ', '/ws'), undefined));
  });

  describe('the files of the bundle', function () {
    it('go inside the folder', () => assert.deepEqual(bundlePathParts('cards/a@0.1.0.yaml'), ['cards', 'a@0.1.0.yaml']));
    for (const outside of ['/etc/passwd', '../x', 'cards/../../x', 'a//b', './a', 'a\\b', ''])
      it(`never outside it: ${JSON.stringify(outside)}`, () => assert.equal(bundlePathParts(outside), undefined));
    it('move in folders first and topology.dot last', function () {
      const order = entriesInMoveOrder(['topology.dot', 'blueprint.yaml', 'cards/a@0.1.0.yaml', 'cards/b@0.1.0.yaml']);
      assert.deepEqual(order, [
        { name: 'cards', folder: true },
        { name: 'blueprint.yaml', folder: false },
        { name: 'topology.dot', folder: false },
      ]);
    });
  });
});

describe('client: reading the darkprint/import answer', function () {
  const finding = { range: { start: { line: 2, character: 4 }, end: { line: 2, character: 9 } }, severity: 2, code: 'attractor/x', source: 'darkprint', message: 'm' };

  it('reads the files and the findings', function () {
    const answer = readImportAnswer({ files: [{ path: 'topology.dot', text: 'digraph g {}\n' }], diagnostics: [finding] });
    assert.deepEqual(answer, {
      kind: 'files',
      files: [{ path: 'topology.dot', text: 'digraph g {}\n' }],
      findings: [{ range: finding.range, severity: 2, code: 'attractor/x', message: 'm' }],
    });
  });
  it('reads a refusal with its findings', function () {
    const answer = readImportAnswer({ reasons: ['p.dot does not read.'], diagnostics: [{ ...finding, severity: 1, code: undefined }] });
    assert.deepEqual(answer, { kind: 'refused', reasons: ['p.dot does not read.'], findings: [{ range: finding.range, severity: 1, message: 'm' }] });
  });
  it('leaves out a finding that does not read, and takes an unknown severity for an error', function () {
    const answer = readImportAnswer({ files: [], diagnostics: [{ message: 'no range' }, { ...finding, severity: 7 }, null] });
    assert.deepEqual(answer, { kind: 'files', files: [], findings: [{ range: finding.range, severity: 1, code: 'attractor/x', message: 'm' }] });
  });
  it('refuses files of another shape, and an answer with neither files nor reasons', function () {
    assert.equal(readImportAnswer({ files: [{ path: 'topology.dot' }] }), undefined);
    assert.equal(readImportAnswer({ diagnostics: [] }), undefined);
    assert.equal(readImportAnswer(null), undefined);
    assert.equal(readImportAnswer([]), undefined);
  });
});
