/**
 * Running the `darkprint` command in process for tests: `runCli` calls `main` with captured
 * output, `writeBundle` writes a `//- path` fixture into a folder.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { main } from '../../src/cli';
import { parseFixture } from './fixture';

export interface CliRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

export async function runCli(...argv: string[]): Promise<CliRun> {
  let out = '';
  let err = '';
  const code = await main(argv, { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}

/** Writes a `//- path` fixture into `dir` (made if missing); gives `dir`. */
export function writeBundle(dir: string, source: string): string {
  for (const f of parseFixture(source).files) {
    const target = path.join(dir, f.path);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, f.text);
  }
  return dir;
}
