/**
 * The bundles the export tests compile: the example bundle and every folder under
 * test-fixtures/export/, and the check every export must pass.
 */
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import * as path from 'node:path';
import { parseDot } from '../../src/syntax/dot-parser';
import { lintAttractor } from '../../src/check/attractor-lint';
import { diagnosticInfo } from '../../src/diagnostics';
import { checkAttractorConformance } from './attractor-conformance';

const fixturesRoot = path.resolve(__dirname, '../../../test-fixtures');

export const exportFixtures: readonly { name: string; dir: string }[] = [
  { name: 'example', dir: path.join(fixturesRoot, 'example') },
  ...readdirSync(path.join(fixturesRoot, 'export'), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => ({ name: e.name, dir: path.join(fixturesRoot, 'export', e.name) }))
    .sort((a, b) => (a.name < b.name ? -1 : 1)),
];

/**
 * Asserts the text is a conformant Attractor pipeline and that DarkPrint's lint (its own codes,
 * not ours) finds exactly `expectedLint` in it: nothing, unless the topology carried a condition
 * the lint rejects, which the export copies verbatim.
 */
export function assertConformant(text: string, expectedLint: readonly string[] = []): void {
  const conformance = checkAttractorConformance(text);
  assert.deepEqual(conformance.findings, [], 'the export passes the Attractor conformance checker');
  const parse = parseDot(text);
  assert.deepEqual(parse.diagnostics.filter((d) => d.severity === 'error'), [], 'the export parses');
  const lint = lintAttractor(parse, text).filter((d) => !diagnosticInfo(d.code).beyond);
  assert.deepEqual(lint.map((d) => d.code), expectedLint, `DarkPrint's lint on the export: ${lint.map((d) => d.message).join(' ')}`);
}

const digestLine = /^\/\/ Blueprint digest: sha256:[0-9a-f]{64}$/;

/** Asserts two exports are the same file but for the value of the `// Blueprint digest:` line (docs/compatibility.md#round-trip). */
export function assertSameButDigest(first: string, second: string): void {
  const a = first.split('\n');
  const b = second.split('\n');
  assert.match(a[1], digestLine);
  assert.match(b[1], digestLine);
  a[1] = b[1] = '';
  assert.deepEqual(b, a);
}
