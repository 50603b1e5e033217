/**
 * Views shown again after another file changes (server/src/view-refresh.ts), over stdio: a
 * client that declares `refreshSupport` for code lenses, semantic tokens and inlay hints is asked
 * to refresh each once after the publication that follows a card edit (the topology beside it
 * shows the card's type, ports and pin), and not after an edit of the only open document; a
 * client that declares nothing is never asked.
 *
 * "Nothing was asked" is read without waiting for time to pass: the server sends its refresh
 * requests right after the publication they follow, and answers a later request after them on
 * the same stream, so once that answer is here every refresh sent before it has been received.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ClientCapabilities } from 'vscode-languageserver-protocol/node';
import { parseFixture } from '../../shared/test/support/fixture';
import { reviewerCard, writerCard } from './support/cards';
import { errorLogs, startSession, testCapabilities, type Session } from './support/lsp-client';

const refreshMethods = ['workspace/codeLens/refresh', 'workspace/semanticTokens/refresh', 'workspace/inlayHint/refresh'] as const;

const bundle = `//- topology.dot
digraph g {
  writer [card="writer@1.0.0"];
  reviewer [card="reviewer@1.0.0"];
  writer -> reviewer [out="draft"];
}
${writerCard()}${reviewerCard()}`;

const refreshing: ClientCapabilities = {
  ...testCapabilities,
  workspace: { ...testCapabilities.workspace, codeLens: { refreshSupport: true }, semanticTokens: { refreshSupport: true }, inlayHint: { refreshSupport: true } },
};

/** A refresh request as received: its method, and how many publications had arrived before it. */
interface Received {
  readonly method: string;
  readonly afterPublications: number;
}

interface Opened {
  readonly session: Session;
  readonly dir: string;
  readonly texts: ReadonlyMap<string, string>;
  readonly received: Received[];
  close(): Promise<void>;
}

async function openBundle(capabilities: ClientCapabilities): Promise<Opened> {
  const dir = mkdtempSync(path.join(tmpdir(), 'darkprint-refresh-'));
  const texts = new Map<string, string>();
  for (const f of parseFixture(bundle).files) {
    mkdirSync(path.dirname(path.join(dir, f.path)), { recursive: true });
    writeFileSync(path.join(dir, f.path), f.text);
    texts.set(f.path, f.text);
  }
  const session = await startSession({ folders: [dir], settings: { debounceMs: 0 }, capabilities });
  const received: Received[] = [];
  for (const method of refreshMethods) {
    session.connection.onRequest(method, () => {
      received.push({ method, afterPublications: session.publications.length });
      return null;
    });
  }
  return {
    session,
    dir,
    texts,
    received,
    async close() {
      try {
        assert.deepEqual(errorLogs(session), [], 'the server logged no internal error');
      } finally {
        assert.equal(await session.shutdown(), 0, 'the server exits cleanly');
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** Every message the server wrote before this answer has been received (see the header). */
async function drained(opened: Opened): Promise<void> {
  await opened.session.request('textDocument/codeLens', { textDocument: { uri: opened.session.uri('topology.dot') } });
}

/** The refresh methods received, in order. */
function methods(received: readonly Received[]): string[] {
  return received.map((r) => r.method);
}

describe('server: views shown again after another file changes', function () {
  this.timeout(60_000);

  it('asks a client with refreshSupport to refresh lenses, tokens and hints once after a card edit, and not after an edit of the only open document', async function () {
    const opened = await openBundle(refreshing);
    const { session, texts, received } = opened;
    try {
      session.open('topology.dot', texts.get('topology.dot')!);
      await session.versionPublished('topology.dot', 1);
      await drained(opened);
      assert.deepEqual(methods(received), [], 'opening the topology asks for nothing');

      // The only open document edited: its editor asks for its views again itself.
      const typed = session.change('topology.dot', texts.get('topology.dot')!.replace('writer -> reviewer', 'writer  -> reviewer'));
      await session.versionPublished('topology.dot', typed);
      await drained(opened);
      assert.deepEqual(methods(received), [], 'an edit of the only open document asks for nothing');

      // A card edited beside the topology: the topology's lenses, tokens and hints read it.
      session.open('cards/writer@1.0.0.yaml', texts.get('cards/writer@1.0.0.yaml')!);
      await session.versionPublished('cards/writer@1.0.0.yaml', 1);
      await drained(opened);
      assert.deepEqual(methods(received), [], 'opening a card as it reads on disk asks for nothing');
      const edited = session.change('cards/writer@1.0.0.yaml', texts.get('cards/writer@1.0.0.yaml')!.replace('type: agent', 'type: validation'));
      await session.versionPublished('cards/writer@1.0.0.yaml', edited);
      const published = session.publications.length;
      await drained(opened);
      assert.deepEqual(methods(received), [...refreshMethods], 'each refresh once, after the card edit');
      for (const r of received) assert.ok(r.afterPublications >= published, `${r.method} came after the card's publication`);

      // What the refresh asks for again shows the card as edited.
      const hints = await session.request<{ label: string }[] | null>('textDocument/inlayHint', {
        textDocument: { uri: session.uri('topology.dot') },
        range: { start: { line: 0, character: 0 }, end: { line: 6, character: 0 } },
      });
      assert.ok(hints?.some((h) => h.label.startsWith('validation')), JSON.stringify(hints));
    } finally {
      await opened.close();
    }
  });

  it('never asks a client that declares no refreshSupport', async function () {
    const opened = await openBundle(testCapabilities);
    const { session, texts, received } = opened;
    try {
      session.open('topology.dot', texts.get('topology.dot')!);
      session.open('cards/writer@1.0.0.yaml', texts.get('cards/writer@1.0.0.yaml')!);
      await session.versionPublished('topology.dot', 1);
      await session.versionPublished('cards/writer@1.0.0.yaml', 1);
      const edited = session.change('cards/writer@1.0.0.yaml', texts.get('cards/writer@1.0.0.yaml')!.replace('type: agent', 'type: validation'));
      await session.versionPublished('cards/writer@1.0.0.yaml', edited);
      await drained(opened);
      assert.deepEqual(methods(received), []);
    } finally {
      await opened.close();
    }
  });
});
