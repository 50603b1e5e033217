/**
 * Golden files (docs/architecture.md#tests): compiler output compared byte for byte with a committed file
 * under test-fixtures/golden/. Run with `UPDATE_GOLDEN=1` to accept the current output, then
 * review the diff like code.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

export const goldenRoot = path.resolve(__dirname, '../../../test-fixtures/golden');

export function assertGolden(relative: string, actual: string): void {
  const file = path.join(goldenRoot, relative);
  if (process.env.UPDATE_GOLDEN === '1') {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  if (!existsSync(file)) assert.fail(`golden file ${relative} does not exist; run the tests with UPDATE_GOLDEN=1 to create it, then review it`);
  const expected = readFileSync(file, 'utf8');
  if (expected !== actual) {
    const a = expected.split('\n');
    const b = actual.split('\n');
    let line = 0;
    while (line < a.length && a[line] === b[line]) line++;
    assert.fail(
      `output differs from golden ${relative} at line ${line + 1}:\n  golden: ${JSON.stringify(a[line])}\n  actual: ${JSON.stringify(b[line])}\n(run with UPDATE_GOLDEN=1 to accept it)`,
    );
  }
}
