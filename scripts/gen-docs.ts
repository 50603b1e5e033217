/**
 * Writes the generated docs from the engine's tables (docs/architecture.md#one-table-many-readers):
 * `docs/diagnostics.md` and the README's table of codes from the diagnostics registry,
 * `docs/vocabulary.md` from the vocabulary table, and `schemas/card.schema.json` (the card JSON
 * Schema) from the card field table and the vocabulary, and `docs/example-graph.svg` (the example
 * bundle's blueprint graph, which the README shows) from the picture renderer.
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
import { renderCardSchema } from '../shared/src/bundle/card-schema';
import { loadBundleFolder } from '../shared/src/cli';
import { layoutSvg, pictureDot, pictureOf } from '../shared/src/picture';

/** The repository root (this file sits in `scripts/`). */
export const repoRoot = path.resolve(__dirname, '..');

export interface GeneratedFile {
  /** Relative to the repository root, `/`-separated. */
  readonly path: string;
  readonly content: string;
}

export const readmePath = 'README.md';
export const cardSchemaPath = 'schemas/card.schema.json';
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
    { path: cardSchemaPath, content: renderCardSchema() },
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

export const exampleGraphPath = 'docs/example-graph.svg';

/**
 * The drawings, which take the renderer's asynchronous load: the example bundle
 * (test-fixtures/example) as `darkprint graph` draws it, on a white ground so that it reads on a
 * dark page too.
 */
export async function generatedPictures(): Promise<GeneratedFile[]> {
  const { result, files } = await loadBundleFolder(path.join(repoRoot, 'test-fixtures', 'example'));
  const dot = pictureDot(pictureOf(result, { hideByteOrderMark: true, files }));
  const transparent = 'bgcolor="transparent"';
  if (!dot.includes(transparent)) throw new Error(`gen-docs: the picture's DOT no longer sets ${transparent}; update generatedPictures`);
  return [{ path: exampleGraphPath, content: await layoutSvg(dot.replace(transparent, 'bgcolor="#ffffff"')) }];
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
export function main(args: readonly string[], pictures: readonly GeneratedFile[] = []): number {
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
  const files = [...generatedFiles(readme), ...pictures];
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
  void generatedPictures().then((pictures) => {
    process.exitCode = main(process.argv.slice(2), pictures);
  });
}
