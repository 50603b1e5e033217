/**
 * The web build of the server (server/src/browser.ts) in a Worker-like thread with a browser's
 * globals only (./support/web-worker.ts), reading the workspace through this client's answers to
 * its file requests. What is the web build's own: files named by URIs of any scheme, symbolic
 * links never followed, the docs linked beside the Worker's script, the Worker closed on `exit`.
 * The Node server's data-driven protocol tests run against it too: `npm run test:web`.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FileChangeType, type Hover, type PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node';
import { parseFixture } from '../../shared/test/support/fixture';
import { reviewerCard, writerCard } from './support/cards';
import { errorLogs, startSession, type Naming, type Session } from './support/lsp-client';

/** Files named `web-test://workspace/<path>`, as a browser's virtual file system names them. */
const webNaming: Naming = {
  uri: (file) => `web-test://workspace${file.split('/').map((part) => encodeURIComponent(part).replace(/%40/g, '@')).join('/')}`,
  path: (uri) => {
    const prefix = 'web-test://workspace/';
    if (!uri.startsWith(prefix)) return undefined;
    try {
      return `/${uri.slice(prefix.length).split('/').map(decodeURIComponent).join('/')}`;
    } catch {
      return undefined;
    }
  },
};

const topology = 'digraph g {\n  writer [card="writer@1.0.0"];\n  reviewer [card="reviewer@1.0.0"];\n  ghost [card="ghost@1.0.0"];\n  writer -> reviewer [out="draft", in="draft"];\n}\n';

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

describe('server: the web build in a Worker, reading through its client', function () {
  let dir: string;
  beforeEach(() => {
    dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'darkprint-web-')));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a workspace named by URIs of another scheme: diagnostics of every file, a card never opened included, a hover, the compiled pipeline', async function () {
    const cards = parseFixture(writerCard() + reviewerCard({ dependencies: '[writer, ghost]' }));
    write(dir, { 'b/topology.dot': topology, ...Object.fromEntries(cards.files.map((f) => [`b/${f.path}`, f.text])) });
    const session = await startSession({ folders: [dir], settings: { debounceMs: 0 }, server: 'web', naming: webNaming });
    try {
      // nothing opened: the scan finds the bundle and reads it through the client
      await session.until(
        () => codes(session, 'b/topology.dot').includes('bundle/missing-card') && codes(session, 'b/cards/reviewer@1.0.0.yaml').length > 0,
        () => `waiting for the topology's and the reviewer card's findings; ${JSON.stringify([...session.diagnostics.keys()])}`,
      );
      assert.ok(
        session.publications.every((p: PublishDiagnosticsParams) => p.uri.startsWith('web-test://workspace/')),
        session.publications.map((p) => p.uri).join('\n'),
      );
      session.open('b/topology.dot', topology);
      const hover = await session.request<Hover | null>('textDocument/hover', { textDocument: { uri: session.uri('b/topology.dot') }, position: { line: 1, character: 4 } });
      assert.ok(hover && JSON.stringify(hover.contents).includes('writer@1.0.0'), JSON.stringify(hover));
      const compiled = await session.request<{ reasons?: string[] }>('darkprint/compiled', { uri: session.uri('b/topology.dot') });
      assert.ok(compiled.reasons?.some((reason) => reason.includes('ghost')), JSON.stringify(compiled));

      // a card fixed on disk: the client's watcher tells, the server reads it again through the client
      const fixed = parseFixture(reviewerCard()).files[0];
      writeFileSync(path.join(dir, 'b', fixed.path), fixed.text);
      session.fileEvents([{ file: `b/${fixed.path}`, type: FileChangeType.Changed }]);
      await session.until(
        () => codes(session, 'b/cards/reviewer@1.0.0.yaml').length === 0,
        () => `waiting for the fixed card to clear; ${JSON.stringify(session.diagnostics.get(session.uri('b/topology.dot')))}`,
      );
      assert.deepEqual(errorLogs(session), []);
    } finally {
      await session.shutdown();
    }
  });

  it('follows no symbolic link, inside the workspace folder or not (its client cannot tell where one leads), and says so on the topology', async function () {
    write(dir, {
      'ws/store/writer@1.0.0.yaml': parseFixture(writerCard()).files[0].text,
      'ws/near/topology.dot': 'digraph g {\n  writer [card="writer@1.0.0"];\n}\n',
      'ws/near/cards': { link: path.join(dir, 'ws/store') },
    });
    const session = await startSession({ folders: [path.join(dir, 'ws')], settings: { debounceMs: 0 }, server: 'web' });
    try {
      await session.until(
        () => codes(session, 'near/topology.dot').includes('bundle/files-skipped'),
        () => `waiting for the link's finding; ${JSON.stringify(session.diagnostics.get(session.uri('near/topology.dot')))}`,
      );
      const skipped = session.diagnostics.get(session.uri('near/topology.dot'))?.diagnostics.find((d) => d.code === 'bundle/files-skipped');
      assert.match(skipped?.message ?? '', /the symbolic link cards leads outside the workspace folder and is not followed/);
      assert.ok(codes(session, 'near/topology.dot').includes('bundle/missing-card'));
      assert.equal(
        session.publications.some((p) => p.uri.includes('/store/')),
        false,
        'nothing is published for the folder the link points at',
      );
    } finally {
      await session.shutdown();
    }
  });

  it('links each code to the docs beside its script, and closes its Worker on exit', async function () {
    write(dir, { 'b/topology.dot': 'digraph g {\n  writer [card="writer@1.0.0"];\n}\n' });
    const session = await startSession({ folders: [dir], settings: { debounceMs: 0 }, server: 'web' });
    let code: number | null;
    try {
      await session.until(
        () => codes(session, 'b/topology.dot').includes('bundle/missing-card'),
        () => `waiting for the finding; ${JSON.stringify(session.diagnostics.get(session.uri('b/topology.dot')))}`,
      );
      const missing = session.diagnostics.get(session.uri('b/topology.dot'))?.diagnostics.find((d) => d.code === 'bundle/missing-card');
      // (the harness loads the script from https://extension.invalid/server/out/browser.js)
      assert.equal(missing?.codeDescription?.href.split('#')[0], 'https://extension.invalid/docs/diagnostics.md');
      assert.deepEqual(errorLogs(session), []);
    } finally {
      code = await session.shutdown();
    }
    assert.equal(session.process, undefined, 'no process: the server ran in a thread');
    assert.equal(code, 0, 'the server closed its Worker itself after exit');
  });
});
