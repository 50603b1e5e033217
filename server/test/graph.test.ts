/**
 * `darkprint/graph` over stdio: the picture model of the bundle holding any of its files (or its
 * folder), as `pictureOf` makes it from the same files; the open documents it was computed from
 * with their versions; a broken topology's parse errors in `unreadable`; a file no bundle holds
 * answered with reasons; malformed parameters refused with InvalidParams.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadBundle } from '../../shared/src/bundle/resolve';
import { pictureOf, type Picture } from '../../shared/src/picture';
import { parseFixture } from '../../shared/test/support/fixture';
import { reviewerCard, writerCard } from './support/cards';
import { errorLogs, startSession, type Session } from './support/lsp-client';

const topologyText = `digraph g {
  writer [card="writer@1.0.0"];
  reviewer [card="reviewer@1.0.0"];
  writer -> reviewer;
}
`;

const bundle = `//- topology.dot\n${topologyText}${writerCard({ extra: 'risk_markers: [irreversible-action]\n' })}${reviewerCard()}`;

interface GraphAnswer {
  root: string;
  picture: Picture;
  versions: { file: string; uri: string; version: number }[];
  unreadable: string[];
}

interface Opened {
  readonly dir: string;
  readonly session: Session;
  readonly files: { path: string; text: string }[];
  close(): Promise<void>;
}

async function open(fixture: string): Promise<Opened> {
  const dir = mkdtempSync(path.join(tmpdir(), 'darkprint-graph-'));
  const files = parseFixture(fixture).files.map((f) => ({ path: f.path, text: f.text }));
  for (const f of files) {
    mkdirSync(path.dirname(path.join(dir, f.path)), { recursive: true });
    writeFileSync(path.join(dir, f.path), f.text);
  }
  const session = await startSession({ folders: [dir], settings: { debounceMs: 0 } });
  return {
    dir,
    session,
    files,
    async close() {
      const logged = errorLogs(session);
      const code = await session.shutdown();
      rmSync(dir, { recursive: true, force: true });
      assert.deepEqual(logged, [], 'the server logged no internal error');
      assert.equal(code, 0, 'the server exits cleanly');
    },
  };
}

/** The picture the engine draws of these files, through JSON as the wire carries it. */
function expectedPicture(files: readonly { path: string; text: string }[]): Picture {
  return JSON.parse(JSON.stringify(pictureOf(loadBundle(files, { folderName: 'bundle' }), { hideByteOrderMark: true, files }))) as Picture;
}

describe('server: darkprint/graph', function () {
  it('answers the picture model of the bundle of any of its files, or of its folder, as the engine draws it', async function () {
    const o = await open(bundle);
    try {
      const fromCard = await o.session.request<GraphAnswer>('darkprint/graph', { uri: o.session.uri('cards/reviewer@1.0.0.yaml') });
      const fromRoot = await o.session.request<GraphAnswer>('darkprint/graph', { uri: o.session.uri('.') });
      assert.deepEqual(fromRoot, fromCard);
      assert.equal(fromCard.root.replace(/\/$/, ''), o.session.uri('.').replace(/\/$/, ''));
      // (the folder name differs, which only a bundle without blueprint.yaml reads, for its stub title and slug)
      const expected = expectedPicture(o.files);
      assert.deepEqual({ ...fromCard.picture, header: { ...fromCard.picture.header, title: '', slug: '' } }, { ...expected, header: { ...expected.header, title: '', slug: '' } });
      assert.deepEqual(
        fromCard.picture.nodes.map((n) => [n.id, n.key, n.card.ref, n.card.resolved, n.family, n.place.line]),
        [
          ['writer', 'dp-n-writer', 'writer@1.0.0', true, 'agent', 2],
          ['reviewer', 'dp-n-reviewer', 'reviewer@1.0.0', true, 'agent', 3],
        ],
      );
      assert.deepEqual(fromCard.picture.nodes[0].risks.map((r) => r.marker), ['irreversible-action']);
      assert.deepEqual(fromCard.picture.edges.map((e) => [e.key, e.source, e.target, e.ports, e.carries]), [['dp-e-0', 'writer', 'reviewer', { out: 'draft', in: 'draft' }, 'markdown']]);
      assert.deepEqual(fromCard.versions, [], 'nothing is open: every file came from disk');
      assert.deepEqual(fromCard.unreadable, []);
    } finally {
      await o.close();
    }
  });

  it('draws the open documents over the disk, and names each with the version it was drawn from', async function () {
    const o = await open(bundle);
    try {
      const edited = topologyText.replace('  writer -> reviewer;\n', '  writer -> reviewer;\n  editor;\n  reviewer -> editor;\n');
      o.session.open('topology.dot', topologyText);
      const version = o.session.change('topology.dot', edited);
      const answer = await o.session.request<GraphAnswer>('darkprint/graph', { uri: o.session.uri('topology.dot') });
      assert.deepEqual(answer.versions, [{ file: 'topology.dot', uri: o.session.uri('topology.dot'), version }]);
      assert.deepEqual(answer.picture.nodes.map((n) => n.id), ['writer', 'reviewer', 'editor']);
      const editor = answer.picture.nodes[2];
      assert.equal(editor.card.resolved, false);
      assert.deepEqual(editor.place, { file: 'topology.dot', line: 5, column: 3, endLine: 5, endColumn: 9 });
      assert.ok(answer.picture.unsettled.some((u) => u.kind === 'no-card' && u.node === 'editor'), JSON.stringify(answer.picture.unsettled));
      assert.deepEqual(answer.picture.edges.map((e) => `${e.source}->${e.target}`), ['writer->reviewer', 'reviewer->editor']);
    } finally {
      await o.close();
    }
  });

  it('a topology that stops parsing: the parser recovers what it can, and `unreadable` says where and why', async function () {
    const o = await open(bundle);
    try {
      o.session.open('topology.dot', topologyText);
      o.session.change('topology.dot', topologyText.replace('  writer -> reviewer;\n', '  writer -> reviewer;\n  reviewer -> [;\n'));
      const answer = await o.session.request<GraphAnswer>('darkprint/graph', { uri: o.session.uri('topology.dot') });
      assert.ok(answer.unreadable.length > 0);
      assert.match(answer.unreadable[0], /^topology\.dot:5:\d+: /);
      assert.ok(answer.picture.nodes.some((n) => n.id === 'writer'), 'what parsed is still drawn');

      o.session.change('topology.dot', 'graph g { a -- b; }\n');
      const undirected = await o.session.request<GraphAnswer>('darkprint/graph', { uri: o.session.uri('topology.dot') });
      assert.equal(undirected.picture.graph.drawn, false);
      assert.deepEqual(undirected.picture.nodes, []);
      assert.ok(undirected.unreadable.length > 0, 'a graph that is not directed says so');
    } finally {
      await o.close();
    }
  });

  it('answers reasons for a file in no bundle, and InvalidParams for malformed parameters', async function () {
    const o = await open(bundle);
    try {
      const outside = `file://${path.join(tmpdir(), 'no-such-folder-for-darkprint', 'x.dot')}`;
      const answer = await o.session.request<{ reasons?: string[] }>('darkprint/graph', { uri: outside });
      assert.ok(answer.reasons && answer.reasons.length > 0, JSON.stringify(answer));
      for (const params of [{}, { uri: 3 }, null]) {
        await assert.rejects(o.session.request('darkprint/graph', params), (error: { code?: number; message?: string }) => {
          assert.equal(error.code, -32602, JSON.stringify(params));
          assert.match(error.message ?? '', /uri|parameters/);
          return true;
        });
      }
    } finally {
      await o.close();
    }
  });
});
