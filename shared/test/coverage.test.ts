/**
 * Every code this engine reports has at least one data-driven fixture that expects it in place
 * (an annotation `<severity> <code>` in some test file). Codes the registry marks as never
 * emitted are exempt, and must indeed appear in no annotation.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { allDiagnosticCodes, diagnosticInfo } from '../src/diagnostics';

function testSources(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...testSources(full));
    else if (e.name.endsWith('.test.ts')) out.push(readFileSync(full, 'utf8'));
  }
  return out;
}

describe('fixture coverage of the registry', () => {
  const sources = testSources(__dirname).join('\n');
  const annotated = (code: string): boolean =>
    new RegExp(`(?:\\^|\\)|!|^)\\s*(?:\\.\\.\\.)?\\s*(?:error|warning|info) ${code.replace(/[/.-]/g, (c) => `\\${c}`)}\\b`, 'm').test(sources);

  for (const code of allDiagnosticCodes) {
    const emitted = diagnosticInfo(code).emitted === true;
    it(`${code} ${emitted ? 'has a fixture that expects it in place' : 'is never emitted and expected nowhere'}`, () => {
      assert.equal(annotated(code), emitted);
    });
  }
});
