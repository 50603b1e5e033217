/**
 * Neovim (Debian's 0.7) as a client of document highlight and workspace symbols: headless, it
 * starts the shipped server (server/out/server.js) on a bundle, opens topology.dot, asks for the
 * highlights of a node id and for the symbols matching a query (features.lua), and prints them.
 * The highlights are the node's statement (write) and its edge endpoints (read), never the id's
 * words in a comment or a label. Run with `npm run test:nvim`; not part of `npm test`.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseFixture } from '../../../shared/test/support/fixture';
import { reviewerCard, writerCard } from '../support/cards';
import { bundledEntry } from '../support/lsp-client';

const bundle = `//- topology.dot
digraph g {
  // the writer drafts for the reviewer
  writer [card="writer@1.0.0", label="writer"];
  reviewer [card="reviewer@1.0.0"];
  writer -> reviewer [label="from the writer"];
}
${writerCard()}${reviewerCard()}`;

/** What features.lua prints: the highlights of `writer` (line 2, character 3), then the symbols for `rvw`. */
const expected = [
  'highlight|2:2-2:8|3',
  'highlight|4:2-4:8|2',
  'symbol|reviewer|5|topology.dot:3',
  'symbol|reviewer@1.0.0|2|cards/reviewer@1.0.0.yaml:0',
];

describe('server: Neovim asks for highlights and workspace symbols', function () {
  it('Neovim gets the node’s occurrences (none in the comment or the labels) and the symbols matching a query', function () {
    const dir = mkdtempSync(path.join(tmpdir(), 'darkprint-nvim-features-'));
    try {
      for (const f of parseFixture(bundle).files) {
        mkdirSync(path.dirname(path.join(dir, f.path)), { recursive: true });
        writeFileSync(path.join(dir, f.path), f.text);
      }
      const home = path.join(dir, '.home');
      mkdirSync(home);
      const run = spawnSync('nvim', ['--headless', '--clean', '-i', 'NONE', '-n', '-c', `luafile ${path.join(__dirname, 'features.lua')}`, 'topology.dot'], {
        cwd: dir,
        encoding: 'utf8',
        timeout: 90_000,
        env: {
          ...process.env,
          HOME: home,
          XDG_CONFIG_HOME: path.join(home, 'config'),
          XDG_DATA_HOME: path.join(home, 'data'),
          XDG_STATE_HOME: path.join(home, 'state'),
          XDG_CACHE_HOME: path.join(home, 'cache'),
          DARKPRINT_SERVER: bundledEntry,
          DARKPRINT_ROOT: dir,
          DARKPRINT_LINE: '2',
          DARKPRINT_CHARACTER: '3',
          DARKPRINT_QUERY: 'rvw',
        },
      });
      assert.equal(run.error, undefined, `nvim could not run: ${String(run.error)}; \`npm run test:nvim\` installs it`);
      const lines = run.stdout.split('\n').filter((l) => l.trim() !== '');
      const context = `nvim exited ${run.status}\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
      assert.deepEqual(lines, expected, context);
      assert.equal(run.status, 0, context);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
