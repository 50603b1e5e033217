/**
 * Bundles: the model (files in, Blueprint out), file classification, the manifest, card
 * references, a new bundle's files (./scaffold.ts), and resolution in DarkPrint's order (pins,
 * digests, orphans, ports, prohibitions, dependencies, entries and exits), then the analysis.
 *
 * Must NOT know: the file system (files arrive as `{ path, text }`), editors or LSP types, the
 * Attractor export.
 */
export * from './model';
export * from '../card/card-model';
export * from '../card/card-ref';
export {
  classifyFiles,
  findTopology,
  baseName,
  bundleReadLimits,
  bundleSearchLimits,
  bundleSearchStep,
  isRootMarker,
  isSearchedFolderName,
  noSkippedReads,
  rootMarkerFiles,
  skippedFolderNames,
  skippedReadsDiagnostics,
  type ClassifiedFiles,
  type SearchEntry,
  type SearchStep,
  type SkippedReads,
} from './classify';
export { readManifest, stubManifest, slugify } from './manifest';
export { newBundleFiles } from './scaffold';
export { createLoadMemo, loadBundle, portCompatible, type LoadMemo, type LoadOptions, type LoadResult } from './resolve';
