/**
 * Analysis: graph facts (SCCs, sources, reachability), the criteria-leak anchors (producers,
 * judges, generators), risk markers declared and inferred, and the three readings DarkPrint
 * defines (docs/compatibility.md#analysis-and-scores):
 * security, autonomy and phase coverage, with their `analysis/*` warnings. Input is an already
 * resolved graph (`AnalysisInput`: ids, edges, one card or none per node, node spans) plus a
 * vocabulary view and a config; output is plain data.
 *
 * Must NOT know: files, text or parsing (DOT or YAML), how cards were found or pinned, the
 * `bundle/*` checks, export to Attractor, or any editor/LSP type. It never re-reads a card: it
 * asks the vocabulary and the iteration-cap reader, which are the single answers to those questions.
 */
export { analyze, analysisContext, createAnalysisMemo, sameCardFacts } from './analyze';
export type { Analysis, AnalysisInput, AnalysisMemo, AnalysisNode, AnalysisContext } from './analyze';
export { computeSecurity, toLevel } from './security';
export type { SecurityCycle, SecurityFinding, SecurityLevel, SecurityPenalty, SecurityResult } from './security';
export { computeAutonomy, formatFraction, listIds, round4 } from './autonomy';
export type { AutonomyClass, AutonomyContribution, AutonomyControl, AutonomyLevel, AutonomyResult } from './autonomy';
export { computePhaseCoverage } from './phase-coverage';
export type { PhaseCoverage } from './phase-coverage';
export { anchorTerms, checkCriteria, criteriaLeakMarker } from './criteria';
export type { CriteriaResult, Inference } from './criteria';
export { createSimilarityMemo, findSimilarSpecs, hasShingleEvidence, jaccardSimilarity, shingles, shingleWidth, specWords } from './similarity';
export type { SimilarPair, SimilarityMemo } from './similarity';
export { buildGraph, labelledReach, reachableFrom, sinks, sources, stronglyConnected } from './graph';
export type { Graph, LabelledReach } from './graph';
export { configuredWeight, defaultAnalysisConfig } from '../vocabulary/analysis-config';
export type { AnalysisConfig, AutonomyBands, CriteriaLeakConfig } from '../vocabulary/analysis-config';
