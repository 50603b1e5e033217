/**
 * Writes the generated docs from the engine's tables (STYLE.md "One table, many readers"):
 * `docs/diagnostics.md` and the README's table of codes from the diagnostics registry,
 * `docs/vocabulary.md` from the vocabulary table.
 *
 *   npm run gen              writes every file whose content changed
 *   npm run gen -- --check   writes nothing; lists the stale files and exits 1 if there are any
 *
 * The README is the lead's: only the part between the table markers is generated, and a README
 * without the markers is left alone.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { renderDiagnosticsMarkdown, renderDiagnosticsTable } from '../shared/src/diagnostics/render';
import { renderVocabularyMarkdown } from '../shared/src/vocabulary';

/** The repository root (this file sits in `scripts/`). */
export const repoRoot = path.resolve(__dirname, '..');

export interface GeneratedFile {
  /** Relative to the repository root, `/`-separated. */
  readonly path: string;
  readonly content: string;
}

export const readmePath = 'README.md';
export const tableStartMarker = '<!-- diagnostics-table:start -->';
export const tableEndMarker = '<!-- diagnostics-table:end -->';

/**
 * Every generated file with the content it should have. `readme` is the README's current text
 * (undefined when there is none); the README is included only when it has the table markers.
 */
export function generatedFiles(readme: string | undefined): GeneratedFile[] {
  const files: GeneratedFile[] = [
    { path: 'docs/diagnostics.md', content: renderDiagnosticsMarkdown() },
    { path: 'docs/vocabulary.md', content: withFinalNewline(renderVocabularyMarkdown()) },
  ];
  const spliced = readme === undefined ? undefined : spliceDiagnosticsTable(readme, renderDiagnosticsTable());
  if (spliced !== undefined) files.push({ path: readmePath, content: spliced });
  return files;
}

/**
 * Replaces what lies between the table markers with `table`, keeping the markers and everything
 * around them. Undefined when the start marker is missing or has no end marker after it.
 */
export function spliceDiagnosticsTable(readme: string, table: string): string | undefined {
  const start = readme.indexOf(tableStartMarker);
  if (start < 0) return undefined;
  const inner = start + tableStartMarker.length;
  const end = readme.indexOf(tableEndMarker, inner);
  if (end < 0) return undefined;
  return `${readme.slice(0, inner)}\n${withFinalNewline(table)}${readme.slice(end)}`;
}

/** The paths of the files whose current content (`read` gives undefined for a missing file) differs. */
export function staleFiles(files: readonly GeneratedFile[], read: (file: string) => string | undefined): string[] {
  return files.filter((f) => read(f.path) !== f.content).map((f) => f.path);
}

/** Reads a repository file, undefined when it does not exist. */
export function readRepoFile(file: string): string | undefined {
  const full = path.join(repoRoot, file);
  return existsSync(full) ? readFileSync(full, 'utf8') : undefined;
}

/** Runs the generator; returns the exit code (0 done or up to date, 1 stale under --check, 3 bad arguments). */
export function main(args: readonly string[]): number {
  const unknown = args.filter((a) => a !== '--check');
  if (unknown.length > 0) {
    process.stderr.write(`gen-docs: unknown argument ${unknown.join(' ')}; the only option is --check\n`);
    return 3;
  }
  const check = args.includes('--check');
  const readme = readRepoFile(readmePath);
  if (readme === undefined) {
    process.stdout.write(`gen-docs: no ${readmePath}; its table of codes is not generated\n`);
  } else if (spliceDiagnosticsTable(readme, '') === undefined) {
    process.stdout.write(`gen-docs: ${readmePath} has no ${tableStartMarker} ... ${tableEndMarker} markers; left as it is\n`);
  }
  const files = generatedFiles(readme);
  const stale = staleFiles(files, readRepoFile);
  if (check) {
    if (stale.length === 0) {
      process.stdout.write('gen-docs: the generated files are up to date\n');
      return 0;
    }
    process.stdout.write(`gen-docs: stale, run \`npm run gen\` to update:\n${stale.map((p) => `  ${p}\n`).join('')}`);
    return 1;
  }
  for (const file of files) {
    if (!stale.includes(file.path)) continue;
    const full = path.join(repoRoot, file.path);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, file.content);
    process.stdout.write(`gen-docs: wrote ${file.path}\n`);
  }
  if (stale.length === 0) process.stdout.write('gen-docs: the generated files are up to date\n');
  return 0;
}

function withFinalNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}

if (require.main === module) {
  process.exitCode = main(process.argv.slice(2));
}
