/**
 * The severities the README's table and the docs give (the registry: a code's severity and the
 * other severities it declares, each with its case) and the severities the engine reports agree:
 * - every case the registry declares is met by a fixture below, at that severity;
 * - whatever the bundle (the example, the corpus when it is there, and the example mutated at
 *   random), every finding has its code's severity or one the registry declares for it.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import type { SourceFile } from '../src/bundle/model';
import { loadBundle } from '../src/bundle/resolve';
import { allDiagnosticCodes, diagnosticInfo, type DiagnosticCode } from '../src/diagnostics/registry';
import type { Diagnostic, Severity } from '../src/diagnostics';
import { renderDiagnosticsTable } from '../src/diagnostics/render';
import { parseFixture } from './support/fixture';
import { card } from './support/ide';
import { example, mutatedExampleBundles, readTree } from './support/mutations';

const corpusRoot = process.env.DARKPRINT_CORPUS ?? path.resolve(__dirname, '../../../shared/corpus');

/** Each declared other severity, by code and case, and a bundle that meets it. */
const declared: readonly { readonly code: DiagnosticCode; readonly severity: Severity; readonly fixture: string }[] = [
  {
    code: 'card/parse-error',
    severity: 'warning',
    fixture: `
//- cards/a@1.0.0.yaml
${card({ id: 'a', extra: ['notes: !!foo bar'] })}`,
  },
  {
    code: 'card/unknown-term',
    severity: 'warning',
    fixture: `
//- cards/a@1.0.0.yaml
${card({ id: 'a', extra: ['cannot: [leak the acceptance criteria]'] })}`,
  },
  {
    code: 'card/missing-field',
    severity: 'warning',
    fixture: `
//- cards/a@1.0.0.yaml
${card({ id: 'a', type: 'shell-tool' })}`,
  },
  {
    code: 'card/bad-type',
    severity: 'warning',
    fixture: `
//- cards/a@1.0.0.yaml
${card({ id: 'a', type: 'shell-tool', extra: ['params: { tool_command: "" }'] })}`,
  },
  {
    code: 'card/bad-type',
    severity: 'info',
    fixture: `
//- cards/a@1.0.0.yaml
${card({ id: 'a', extra: ['colour: red'] })}`,
  },
];

/** A topology pinning the card `a@1.0.0` the fixtures hold. */
const topology = '//- topology.dot\ndigraph g { x [card="a@1.0.0"]; }\n';

function findings(files: readonly SourceFile[]): Diagnostic[] {
  return [...loadBundle(files, { folderName: 'fixture' }).diagnostics];
}

function allowed(code: DiagnosticCode): Severity[] {
  const info = diagnosticInfo(code);
  return [info.severity, ...info.otherSeverities.map((o) => o.severity)];
}

function assertAgree(found: readonly Diagnostic[], where: string): void {
  for (const d of found) assert.ok(allowed(d.code).includes(d.severity), `${where}: ${d.code} is reported as ${d.severity}, which the registry does not say (${d.message})`);
}

describe('registry: severities the engine reports', () => {
  for (const c of declared) {
    it(`${c.code} is reported as ${c.severity} where the registry says so`, () => {
      const info = diagnosticInfo(c.code);
      assert.ok(info.otherSeverities.some((o) => o.severity === c.severity), `the registry declares ${c.code} at ${c.severity}`);
      const found = findings(parseFixture(topology + c.fixture).files).filter((d) => d.code === c.code);
      assert.ok(found.some((d) => d.severity === c.severity), `${c.code} at ${c.severity}: ${found.map((d) => `${d.severity} ${d.message}`).join(' | ')}`);
    });
  }

  it('every other severity the registry declares is met by a fixture here', () => {
    for (const code of allDiagnosticCodes) {
      for (const other of diagnosticInfo(code).otherSeverities) {
        assert.ok(declared.some((c) => c.code === code && c.severity === other.severity), `${code} at ${other.severity} (${other.when}) has no fixture`);
      }
    }
  });

  it('the README table says a code\'s other severities beside its own', () => {
    const row = renderDiagnosticsTable().split('\n').find((l) => l.startsWith('| `card/unknown-term` |'));
    assert.equal(row, '| `card/unknown-term` | error; warning for a sentence in `cannot` (it belongs in `will_not`; the card still loads) |  | A term is not in the vocabulary |');
  });

  it('the example bundle and the fixtures above report no severity the registry does not say', () => {
    assertAgree(findings(example), 'example');
    for (const c of declared) assertAgree(findings(parseFixture(topology + c.fixture).files), c.code);
  });

  it('a bundle mutated at random reports no severity the registry does not say', () => {
    fc.assert(
      fc.property(mutatedExampleBundles(), (files) => assertAgree(findings(files), 'a mutated example')),
      { numRuns: 150, seed: 20_260_103 },
    );
  });

  const bundlesRoot = path.join(corpusRoot, 'darkprint-bundles');
  if (existsSync(bundlesRoot)) {
    it('the corpus bundles report no severity the registry does not say', () => {
      for (const name of readdirSync(bundlesRoot, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name)) {
        assertAgree(findings(readTree(path.join(bundlesRoot, name))), name);
      }
    });
  }
});
