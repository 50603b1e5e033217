/**
 * Neovim (Debian's 0.7) as a client of formatting: headless, it starts the shipped server
 * (server/out/server.js) on a bundle, opens its topology written every which way, formats it as
 * `vim.lsp.buf.formatting_sync()` does (format.lua) and prints the buffer, which must read as the
 * formatter writes it: the node statements aligned, the comments where they were. Run with
 * `npm run test:nvim`; not part of `npm test`.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { reviewerCard, writerCard } from '../support/cards';
import { parseFixture } from '../../../shared/test/support/fixture';
import { bundledEntry } from '../support/lsp-client';

/** (the topology ends with a line break, as files do: the blank line before the next file keeps it) */
const bundle = `//- topology.dot
digraph   g{
// the writer drafts for the reviewer
writer[card="writer@1.0.0"]   reviewer [card="reviewer@1.0.0" , label="Reviewer"];


      writer->reviewer   // the draft
}

${writerCard()}${reviewerCard()}`;

const expected = [
  'BEGIN',
  'digraph g {',
  '  // the writer drafts for the reviewer',
  '  writer   [card="writer@1.0.0"]',
  '  reviewer [card="reviewer@1.0.0", label="Reviewer"];',
  '',
  '  writer -> reviewer // the draft',
  '}',
  'END',
];

describe('server: Neovim formats a topology', function () {
  it('Neovim gets the edits that write the topology in the formatter style, and applies them', function () {
    const dir = mkdtempSync(path.join(tmpdir(), 'darkprint-nvim-format-'));
    try {
      for (const f of parseFixture(bundle).files) {
        mkdirSync(path.dirname(path.join(dir, f.path)), { recursive: true });
        writeFileSync(path.join(dir, f.path), f.text);
      }
      const home = path.join(dir, '.home');
      mkdirSync(home);
      const run = spawnSync('nvim', ['--headless', '--clean', '-i', 'NONE', '-n', '-c', `luafile ${path.join(__dirname, 'format.lua')}`, 'topology.dot'], {
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
        },
      });
      assert.equal(run.error, undefined, `nvim could not run: ${String(run.error)}; \`npm run test:nvim\` installs it`);
      const lines = run.stdout.split('\n').filter((l, i, all) => !(l === '' && i === all.length - 1));
      const context = `nvim exited ${run.status}\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`;
      assert.deepEqual(lines, expected, context);
      assert.equal(run.status, 0, context);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
