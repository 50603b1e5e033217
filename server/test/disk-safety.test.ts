/**
 * What the disk may make the server do, over stdio: a symbolic link leading out of the workspace
 * folder is not followed (and the bundle says so, `bundle/files-skipped`), a large workspace
 * scan does not hold up requests about an open document, and the scan reports its progress to a
 * client that takes it. Orders are asserted by protocol events; the test timeout is the only clock.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { FileChangeType, type Hover, type PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node';
import { parseFixture } from '../../shared/test/support/fixture';
import { writerCard } from './support/cards';
import { errorLogs, startSession, testCapabilities, type Session } from './support/lsp-client';

const topology = 'digraph g {\n  writer [card="writer@1.0.0"];\n}\n';
/** Where the hover asks: on the node id `writer`. */
const onWriter = { line: 1, character: 4 };
const writerText = parseFixture(writerCard()).files[0].text;
const progressCapabilities = { ...testCapabilities, window: { workDoneProgress: true } };

/** Writes `files` (relative path → text) under `dir`; a value `{ link }` is a symbolic link to that path. */
function write(dir: string, files: Record<string, string | { link: string }>): void {
  for (const [relative, content] of Object.entries(files)) {
    const target = path.join(dir, relative);
    mkdirSync(path.dirname(target), { recursive: true });
    if (typeof content === 'string') writeFileSync(target, content);
    else symlinkSync(content.link, target, 'dir');
  }
}

function codes(session: Session, file: string): string[] {
  return (session.diagnostics.get(session.uri(file))?.diagnostics ?? []).map((d) => String(d.code));
}

function skippedMessage(session: Session, file: string): string | undefined {
  return session.diagnostics.get(session.uri(file))?.diagnostics.find((d) => d.code === 'bundle/files-skipped')?.message;
}

async function hover(session: Session, file: string, position = onWriter): Promise<Hover | null> {
  return session.request<Hover | null>('textDocument/hover', { textDocument: { uri: session.uri(file) }, position });
}

/** Resolves when the scan's progress has ended (the client takes progress tokens). */
async function scanEnded(session: Session, count = 1): Promise<void> {
  await session.until(
    () => session.progress.filter((p) => p.value.kind === 'end').length >= count,
    () => `waiting for ${count} scan(s) to end; progress: ${JSON.stringify(session.progress)}`,
  );
}

describe('server: symbolic links and the workspace folder', function () {
  let dir: string;
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'darkprint-links-')));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a bundle whose cards folder links to the root of the machine answers a hover and reads nothing outside the workspace', async function () {
    write(dir, { 'bundle/topology.dot': topology, 'bundle/cards': { link: '/' } });
    const session = await startSession({ folders: [dir], settings: { debounceMs: 0 }, capabilities: progressCapabilities });
    try {
      session.open('bundle/topology.dot', topology);
      const answer = await hover(session, 'bundle/topology.dot');
      assert.ok(answer, 'the hover is answered');
      await scanEnded(session);
      await session.until(() => skippedMessage(session, 'bundle/topology.dot') !== undefined, () => `the topology reports the link; ${JSON.stringify([...session.diagnostics.values()])}`);
      const inside = pathToFileURL(dir).href + '/';
      assert.deepEqual(session.publications.map((p) => p.uri).filter((uri) => !uri.startsWith(inside)), []);
      assert.match(skippedMessage(session, 'bundle/topology.dot')!, /the symbolic link cards leads outside the workspace folder and is not followed/);
      assert.deepEqual(errorLogs(session), []);
    } finally {
      await session.shutdown();
    }
  });

  it('cards linked from outside the workspace folder are not read, cards linked from inside it are, and the finding goes when the link does', async function () {
    write(dir, {
      'outside/cards/writer@1.0.0.yaml': writerText,
      'ws/far/topology.dot': topology,
      'ws/far/cards': { link: path.join(dir, 'outside/cards') },
      'ws/near/topology.dot': topology,
      'ws/store/writer@1.0.0.yaml': writerText,
      'ws/near/cards': { link: path.join(dir, 'ws/store') },
    });
    const session = await startSession({ folders: [path.join(dir, 'ws')], settings: { debounceMs: 0 } });
    try {
      await session.request('darkprint/report', { uri: session.uri('.') });
      await session.until(() => codes(session, 'far/topology.dot').includes('bundle/files-skipped'), () => `far reports its link; ${JSON.stringify(session.diagnostics.get(session.uri('far/topology.dot')))}`);
      assert.deepEqual(codes(session, 'far/topology.dot').sort(), ['analysis/unresolved-node', 'bundle/files-skipped', 'bundle/missing-card']);
      assert.match(skippedMessage(session, 'far/topology.dot')!, /the symbolic link cards leads outside the workspace folder/);
      assert.deepEqual(codes(session, 'near/topology.dot'), [], 'the link inside the workspace folder is followed: the card is there');
      assert.equal(session.publications.some((p) => p.uri.includes('/outside/')), false);

      // the link replaced by a folder of the bundle's own: the card is read, the finding goes
      unlinkSync(path.join(dir, 'ws/far/cards'));
      write(dir, { 'ws/far/cards/writer@1.0.0.yaml': writerText });
      session.fileEvents([
        { file: 'far/cards', type: FileChangeType.Deleted },
        { file: 'far/cards', type: FileChangeType.Created },
      ]);
      await session.until(() => codes(session, 'far/topology.dot').length === 0, () => `far is clean; ${JSON.stringify(session.diagnostics.get(session.uri('far/topology.dot')))}`);
      assert.deepEqual(errorLogs(session), []);
    } finally {
      await session.shutdown();
    }
  });

  it('a bundle outside every workspace folder may not link out of its own folder', async function () {
    write(dir, {
      'ws/readme.md': 'nothing here',
      'elsewhere/cards/writer@1.0.0.yaml': writerText,
      'elsewhere/bundle/topology.dot': topology,
      'elsewhere/bundle/cards': { link: path.join(dir, 'elsewhere/cards') },
    });
    const session = await startSession({ folders: [path.join(dir, 'ws')], settings: { debounceMs: 0 }, base: dir });
    try {
      session.open('elsewhere/bundle/topology.dot', topology);
      await session.until(() => codes(session, 'elsewhere/bundle/topology.dot').includes('bundle/files-skipped'), () => `the link is reported; ${JSON.stringify([...session.diagnostics.values()])}`);
      assert.match(skippedMessage(session, 'elsewhere/bundle/topology.dot')!, /leads outside the bundle folder/);
      assert.ok(codes(session, 'elsewhere/bundle/topology.dot').includes('bundle/missing-card'));
      assert.deepEqual(errorLogs(session), []);
    } finally {
      await session.shutdown();
    }
  });

  it('a notification of thousands of changes in a bundle whose read left files out reads the bundle again once, not once per change', async function () {
    // (read once per event, 3,000 events × 300 cards is 900,000 reads: no answer within the test's timeout)
    const files: Record<string, string | { link: string }> = {
      'outside/cards/far@1.0.0.yaml': writerText,
      'ws/b/topology.dot': topology,
      'ws/b/cards/ext': { link: path.join(dir, 'outside/cards') },
    };
    for (let i = 0; i < 300; i++) files[`ws/b/cards/c${i}@1.0.0.yaml`] = writerText.replace(/^id: writer$/m, `id: c${i}`);
    write(dir, files);
    const session = await startSession({ folders: [path.join(dir, 'ws')], settings: { debounceMs: 0 } });
    try {
      await session.request('darkprint/report', { uri: session.uri('b') });
      await session.until(() => codes(session, 'b/topology.dot').includes('bundle/missing-card'), () => `the missing card is shown; ${JSON.stringify(session.diagnostics.get(session.uri('b/topology.dot')))}`);
      write(dir, { 'ws/b/cards/writer@1.0.0.yaml': writerText });
      const events: { file: string; type: FileChangeType }[] = [];
      for (let round = 0; round < 10; round++) for (let i = 0; i < 300; i++) events.push({ file: `b/cards/c${i}@1.0.0.yaml`, type: FileChangeType.Changed });
      events.push({ file: 'b/cards/writer@1.0.0.yaml', type: FileChangeType.Created });
      session.fileEvents(events);
      await session.until(() => !codes(session, 'b/topology.dot').includes('bundle/missing-card'), () => `the new card is read; ${JSON.stringify(session.diagnostics.get(session.uri('b/topology.dot')))}`);
      assert.ok(codes(session, 'b/topology.dot').includes('bundle/files-skipped'), 'the link out is still reported');
      assert.deepEqual(errorLogs(session), []);
    } finally {
      await session.shutdown();
    }
  });

  it('a card too large to read is reported, and read once it shrinks', async function () {
    write(dir, { 'b/topology.dot': topology, 'b/cards/writer@1.0.0.yaml': '' });
    const big = path.join(dir, 'b/cards/writer@1.0.0.yaml');
    truncateSync(big, 16 * 1024 * 1024 + 1);
    const session = await startSession({ folders: [dir], settings: { debounceMs: 0 } });
    try {
      await session.request('darkprint/report', { uri: session.uri('.') });
      await session.until(() => codes(session, 'b/topology.dot').includes('bundle/files-skipped'), () => `the size is reported; ${JSON.stringify(session.diagnostics.get(session.uri('b/topology.dot')))}`);
      assert.match(skippedMessage(session, 'b/topology.dot')!, /cards\/writer@1\.0\.0\.yaml is larger than 16 MB and not read/);
      writeFileSync(big, writerText);
      session.fileEvents([{ file: 'b/cards/writer@1.0.0.yaml', type: FileChangeType.Changed }]);
      await session.until(() => codes(session, 'b/topology.dot').length === 0, () => `b is clean; ${JSON.stringify(session.diagnostics.get(session.uri('b/topology.dot')))}`);
      // another one created too large, then deleted: reported, then not
      const other = path.join(dir, 'b/cards/other@1.0.0.yaml');
      writeFileSync(other, '');
      truncateSync(other, 16 * 1024 * 1024 + 1);
      session.fileEvents([{ file: 'b/cards/other@1.0.0.yaml', type: FileChangeType.Created }]);
      await session.until(() => /other@1\.0\.0\.yaml is larger/.test(skippedMessage(session, 'b/topology.dot') ?? ''), () => `the new file is reported; ${JSON.stringify(session.diagnostics.get(session.uri('b/topology.dot')))}`);
      unlinkSync(other);
      session.fileEvents([{ file: 'b/cards/other@1.0.0.yaml', type: FileChangeType.Deleted }]);
      await session.until(() => codes(session, 'b/topology.dot').length === 0, () => `b is clean again; ${JSON.stringify(session.diagnostics.get(session.uri('b/topology.dot')))}`);
      assert.deepEqual(errorLogs(session), []);
    } finally {
      await session.shutdown();
    }
  });
});

describe('server: the workspace scan', function () {
  let dir: string;
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'darkprint-scan-')));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('a hover on an open document is answered while the scan of a large workspace is still walking', async function () {
    // 10,000 folders to walk, and one bundle
    for (let i = 0; i < 100; i++) for (let j = 0; j < 100; j++) mkdirSync(path.join(dir, `tree/${i}/${j}`), { recursive: true });
    write(dir, { 'b/topology.dot': topology, 'b/cards/writer@1.0.0.yaml': writerText });
    const session = await startSession({ folders: [dir], settings: { debounceMs: 0 }, capabilities: progressCapabilities });
    try {
      await session.until(() => session.progress.some((p) => p.value.kind === 'begin'), () => `waiting for the scan to begin; ${JSON.stringify(session.progress)}`);
      session.open('b/topology.dot', topology);
      const answer = await hover(session, 'b/topology.dot');
      const endedBefore = session.progress.some((p) => p.value.kind === 'end');
      assert.ok(answer && JSON.stringify(answer.contents).includes('writer@1.0.0'), JSON.stringify(answer));
      assert.equal(endedBefore, false, `the hover waited for the scan; progress: ${JSON.stringify(session.progress)}`);
      await scanEnded(session);
      assert.ok(session.progress.some((p) => p.value.kind === 'report' && /folders looked at/.test(p.value.message ?? '')), JSON.stringify(session.progress));
      const published: PublishDiagnosticsParams | undefined = session.diagnostics.get(session.uri('b/topology.dot'));
      assert.deepEqual(published?.diagnostics ?? [], []);
      assert.deepEqual(errorLogs(session), []);
    } finally {
      await session.shutdown();
    }
  });

  it('reports its progress to a client that declares it, for the initial scan and a rescan, and to no other', async function () {
    write(dir, { 'b/topology.dot': topology, 'b/cards/writer@1.0.0.yaml': writerText });
    const taking = await startSession({ folders: [dir], settings: { debounceMs: 0 }, capabilities: progressCapabilities });
    try {
      await scanEnded(taking);
      const token = taking.progressTokens[0];
      assert.deepEqual(
        taking.progress.filter((p) => p.value.kind !== 'report').map((p) => [p.token, p.value.kind]),
        [
          [token, 'begin'],
          [token, 'end'],
        ],
      );
      assert.match(taking.progress[0].value.title ?? '', /DarkPrint/);
      // a bundle created: the roots are looked for again, with progress of its own
      write(dir, { 'c/topology.dot': topology });
      taking.fileEvents([{ file: 'c/topology.dot', type: FileChangeType.Created }]);
      await scanEnded(taking, 2);
      assert.equal(taking.progressTokens.length, 2);
      assert.notEqual(taking.progressTokens[1], token);
      assert.deepEqual(errorLogs(taking), []);
    } finally {
      await taking.shutdown();
    }

    const silent = await startSession({ folders: [dir], settings: { debounceMs: 0 } });
    try {
      await silent.request('darkprint/report', { uri: silent.uri('.') });
      silent.open('b/topology.dot', topology);
      assert.ok(await hover(silent, 'b/topology.dot'));
      assert.deepEqual([silent.progressTokens, silent.progress], [[], []]);
    } finally {
      await silent.shutdown();
    }

    const refusing = await startSession({ folders: [dir], settings: { debounceMs: 0 }, capabilities: progressCapabilities, progressTokens: 'refuse' });
    try {
      await refusing.until(() => refusing.progressTokens.length > 0, () => 'the server asks for a token');
      await refusing.request('darkprint/report', { uri: refusing.uri('.') });
      refusing.open('b/topology.dot', topology);
      assert.ok(await hover(refusing, 'b/topology.dot'));
      assert.deepEqual(refusing.progress, []);
      assert.deepEqual(errorLogs(refusing), []);
    } finally {
      await refusing.shutdown();
    }
  });
});
