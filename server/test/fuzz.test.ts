/**
 * Robustness: 10,000 random edits (inserts, deletes, garbage bytes, half-typed YAML and DOT)
 * typed into a live server over stdio, as incremental changes to five open documents of one
 * bundle, with requests fired at random positions in between. The server must never crash,
 * never log an internal error, publish every range inside the document version it names,
 * answer every request with ranges inside the document, and still answer at the end.
 *
 * Deterministic for a seed (`DARKPRINT_FUZZ_SEED`, default below); a failure names the seed and
 * the edit number. Debounce is 0; the test waits for the publication of each batch's last
 * version (a protocol event), never for time.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Diagnostic, DocumentSymbol } from 'vscode-languageserver-protocol/node';
import { errorLogs, startSession } from './support/lsp-client';
import { fuzzFiles as files, fuzzRequest, mulberry32, randomEdit } from './support/random-edits';
import { assertInside, linesOf } from './support/scenario';

const edits = Number(process.env.DARKPRINT_FUZZ_EDITS ?? 10_000);
const seed = Number(process.env.DARKPRINT_FUZZ_SEED ?? 20_240_611);

describe('server: fuzz', function () {
  this.timeout(600_000);

  it(`survives ${edits} random edits with every range inside its document (seed ${seed})`, async function () {
    const dir = mkdtempSync(path.join(tmpdir(), 'darkprint-fuzz-'));
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    }
    const session = await startSession({ folders: [dir], settings: { debounceMs: 0 } });
    const random = mulberry32(seed);
    const names = Object.keys(files);
    /** Text of each open document at each version not yet superseded by a publication. */
    const history = new Map<string, Map<number, string>>();
    const current = new Map<string, string>();
    let checked = 0;
    const checkPublications = (): void => {
      for (; checked < session.publications.length; checked++) {
        const p = session.publications[checked];
        const versions = history.get(p.uri);
        if (!versions) continue; // a file this test does not edit (none: all five are open)
        assert.ok(p.version !== undefined, `seed ${seed}: diagnostics for the open document ${p.uri} carry its version`);
        const text = versions.get(p.version);
        assert.ok(text !== undefined, `seed ${seed}: diagnostics for ${p.uri} name version ${p.version}, which this client never sent`);
        const lines = linesOf(text);
        for (const d of p.diagnostics) assertInside(lines, d.range, `seed ${seed}: ${describeDiagnostic(d)} in ${p.uri} version ${p.version}`);
        for (const [v] of versions) if (v < p.version) versions.delete(v);
      }
    };
    try {
      for (const file of names) {
        session.open(file, files[file]);
        current.set(file, files[file]);
        history.set(session.uri(file), new Map([[1, files[file]]]));
      }
      for (const file of names) await session.versionPublished(file, 1);
      let done = 0;
      while (done < edits) {
        const batch = 1 + Math.floor(random() * 8);
        const touched = new Map<string, number>();
        for (let i = 0; i < batch && done < edits; i++, done++) {
          const file = names[Math.floor(random() * names.length)];
          const before = current.get(file)!;
          const { range, text, after } = randomEdit(before, random);
          const version = session.changeIncremental(file, [{ range, text }], after);
          current.set(file, after);
          history.get(session.uri(file))!.set(version, after);
          touched.set(file, version);
        }
        for (const [file, version] of touched) await session.versionPublished(file, version);
        checkPublications();
        if (random() < 0.3) await fuzzRequest(session, current, names, random, `seed ${seed}, edit ${done}`);
      }
      checkPublications();
      // Still alive and answering.
      const symbols = await session.request<DocumentSymbol[] | null>('textDocument/documentSymbol', { textDocument: { uri: session.uri('topology.dot') } });
      assert.ok(symbols === null || Array.isArray(symbols));
      assert.deepEqual(errorLogs(session), [], `seed ${seed}: the server logged internal errors`);
    } finally {
      const code = await session.shutdown();
      rmSync(dir, { recursive: true, force: true });
      assert.equal(code, 0, `seed ${seed}: the server exits cleanly`);
    }
  });
});

function describeDiagnostic(d: Diagnostic): string {
  return `${String(d.code)} ${JSON.stringify(d.range)}`;
}

/** One random edit of `text`: its LSP range (never splitting a CRLF pair), the inserted text and the result. */
