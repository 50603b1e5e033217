/**
 * A second real LSP client: Debian's Neovim (0.7) headless starts the shipped server
 * (server/out/server.js) on a bundle, opens topology.dot and reports every diagnostic it holds,
 * including those pushed for a card that is not open. Run with `npm run test:nvim` (which
 * installs neovim when it is missing and builds the server first); not part of `npm test`.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseFixture } from '../../../shared/test/support/fixture';
import { reviewerCard, writerCard } from '../support/cards';
import { bundledEntry } from '../support/lsp-client';

const topologyText = `//- topology.dot
digraph g {
  writer [card="writer@1.0.0"];
  reviewer [card="reviewer@2.0.0"];
  writer -> reviewer;
}
`;

const bundle = topologyText + writerCard() + reviewerCard();

/** `<file>|<code>|<severity 1-4>|<line>:<col>` (0-based), as probe.lua prints them. */
const expected = [
  'topology.dot|bundle/missing-card|1|2:17',
  'topology.dot|analysis/unresolved-node|2|2:2',
  'cards/reviewer@1.0.0.yaml|bundle/orphan-card|2|0:4',
];

describe('server: Neovim smoke test', function () {
  it('Neovim shows the server’s diagnostics for the open topology and for a card that is not open', function () {
    const dir = mkdtempSync(path.join(tmpdir(), 'darkprint-nvim-'));
    try {
      for (const f of parseFixture(bundle).files) {
        mkdirSync(path.dirname(path.join(dir, f.path)), { recursive: true });
        writeFileSync(path.join(dir, f.path), f.text);
      }
      const home = path.join(dir, '.home');
      mkdirSync(home);
      const run = spawnSync('nvim', ['--headless', '--clean', '-i', 'NONE', '-n', '-c', `luafile ${path.join(__dirname, 'probe.lua')}`, 'topology.dot'], {
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
          DARKPRINT_EXPECT: String(expected.length),
        },
      });
      assert.equal(run.error, undefined, `nvim could not run: ${String(run.error)}; \`npm run test:nvim\` installs it`);
      const lines = run.stdout.split('\n').filter((l) => l.trim() !== '');
      const shown = lines.map((l) => l.split('|').slice(0, 4).join('|'));
      const context = `nvim exited ${run.status}\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
      assert.deepEqual([...shown].sort(), [...expected].sort(), context);
      assert.equal(run.status, 0, context);
      assert.ok(lines.some((l) => l.includes('reviewer@2.0.0')), `the message names the pin\n${context}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
