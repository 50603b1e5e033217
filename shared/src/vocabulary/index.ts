/**
 * Vocabulary: THE table of the 54 core terms (core.ts), a bundle's local terms read from
 * `ontology/extensions.yaml` (extensions.ts), the merged view with lookups, deprecation
 * redirects and subsumption (view.ts), the vocabulary's own diagnostics, and the generated
 * reference page (render.ts). Hovers, completions, card checks, the analyzer, the exporter and
 * the docs all read terms from here and nowhere else.
 *
 * Must NOT know: cards, topologies, bundles or graphs. It answers questions about term ids
 * (what is it, what is it under, who acts at a node of this type) and never looks at a node,
 * an edge or a file other than the extensions file it is handed as `{ path, text }`. From
 * `analyze/` it reads only the configuration's plain data (the marker weights), never a metric.
 */
export * from './types';
export { coreTerms, coreTermIds, kindInfo, externalAccessTools, phaseOrder, type KindInfo } from './core';
export {
  createVocabulary,
  coreVocabulary,
  humanMembership,
  controlMembership,
  analyzerRole,
  markerWeight,
  type VocabularyBuild,
  type Membership,
  type RoleOptions,
} from './view';
export { readExtensions, validateVocabulary, extensionsPath, type ExtensionsRead } from './extensions';
export { renderVocabularyMarkdown, explainTerm } from './render';
