/**
 * File classification by base name (E§4, SPEC §1). A bundle folder's files arrive as
 * `{ path, text }` with paths relative to the folder; this decides which is the topology, the
 * manifest, the local vocabulary and which are cards.
 */
import type { Diagnostic } from '../diagnostics';
import type { SourceFile } from './model';

export interface ClassifiedFiles {
  readonly topology?: SourceFile;
  readonly manifest?: SourceFile;
  readonly vocabulary?: SourceFile;
  /** Card files in file-name code-unit order. */
  readonly cards: readonly SourceFile[];
  /** Files under `cards/` whose reserved name keeps them out of the card set. */
  readonly reservedUnderCards: readonly SourceFile[];
  readonly diagnostics: readonly Diagnostic[];
}

const topologyName = /\.(dot|gv)$/i;
const manifestName = /^blueprint\.(ya?ml|json)$/i;
const vocabularyName = /^extensions\.(ya?ml|json)$/i;
const cardName = /\.(ya?ml|json)$/i;

/**
 * The files that make their folder a bundle root (SPEC §1), matched in any case; a `cards`
 * folder does too. The language server's workspace scan and the VS Code client's bundle search
 * both read these (and `skippedFolderNames`), so that they find the same bundles.
 */
export const rootMarkerFiles: readonly string[] = ['topology.dot', 'blueprint.yaml', 'blueprint.yml', 'blueprint.json'];

/** Folders no bundle is looked for in (build outputs, dependencies); hidden folders neither. */
export const skippedFolderNames: readonly string[] = ['node_modules', 'out', 'dist', 'coverage'];

/** True when a folder entry of that name makes its folder a bundle root (see `rootMarkerFiles`). */
export function isRootMarker(name: string, isDirectory: boolean): boolean {
  return isDirectory ? name === 'cards' : rootMarkerFiles.includes(name.toLowerCase());
}

/** True when bundles are looked for in a folder of that name (not hidden, not a skipped one). */
export function isSearchedFolderName(name: string): boolean {
  return !name.startsWith('.') && !skippedFolderNames.includes(name);
}

export function baseName(path: string): string {
  const i = path.lastIndexOf('/');
  return i >= 0 ? path.slice(i + 1) : path;
}

function byPath(a: SourceFile, b: SourceFile): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/**
 * - topology: root-level `.dot`/`.gv`; `topology.dot` (any case) wins, else the first by name.
 *   `bundle/legacy-topology-file` only when `topology.dot` is kept and `blueprint.dot` is beside it.
 * - manifest: the first root-level `blueprint.(yaml|yml|json)`.
 * - vocabulary: `ontology/extensions.yaml`, or a root-level `extensions.*`; both present and
 *   different is a `card/parse-error` and neither is used (E§4).
 * - cards: every `*.yaml|yml|json` under `cards/` (nested folders hold namespaced ids), except
 *   files named like a manifest or a vocabulary, which are never cards (SPEC §1).
 */
export function classifyFiles(files: readonly SourceFile[]): ClassifiedFiles {
  const sorted = [...files].sort(byPath);
  const diagnostics: Diagnostic[] = [];
  const rootFiles = sorted.filter((f) => !f.path.includes('/'));
  const candidates = rootFiles.filter((f) => topologyName.test(f.path));
  const preferred = candidates.find((f) => f.path.toLowerCase() === 'topology.dot');
  const topology = preferred ?? candidates[0];
  if (preferred) {
    const legacy = candidates.find((f) => f.path.toLowerCase() === 'blueprint.dot');
    if (legacy) {
      diagnostics.push({
        code: 'bundle/legacy-topology-file',
        severity: 'warning',
        message: `${legacy.path} is an older name for the topology and is ignored because ${preferred.path} is present; delete ${legacy.path} or merge what it still holds into ${preferred.path}.`,
        location: { file: legacy.path },
      });
    }
  }
  const manifest = rootFiles.find((f) => manifestName.test(f.path));

  const nested = sorted.find((f) => f.path === 'ontology/extensions.yaml');
  const flat = rootFiles.find((f) => vocabularyName.test(f.path));
  let vocabulary = nested ?? flat;
  if (nested && flat && nested.text !== flat.text) {
    vocabulary = undefined;
    diagnostics.push({
      code: 'card/parse-error',
      severity: 'error',
      message: `Two local vocabularies disagree: ontology/extensions.yaml and ${flat.path} differ, so neither is used; keep one of them.`,
      location: { file: 'ontology/extensions.yaml', span: { start: 0, end: 0 } },
    });
  }

  const cards: SourceFile[] = [];
  const reservedUnderCards: SourceFile[] = [];
  for (const f of sorted) {
    if (!f.path.startsWith('cards/') || !cardName.test(f.path)) continue;
    const base = baseName(f.path);
    if (manifestName.test(base) || vocabularyName.test(base)) reservedUnderCards.push(f);
    else cards.push(f);
  }
  return { topology, manifest, vocabulary, cards, reservedUnderCards, diagnostics };
}
