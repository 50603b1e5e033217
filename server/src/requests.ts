/**
 * The two custom requests the extension sends (issue 4):
 * - `darkprint/compiled` `{ uri }` (any file of a bundle) → `{ text, slug }` with the compiled
 *   Attractor pipeline, or `{ reasons }` saying why it cannot be compiled;
 * - `darkprint/report` `{ uri }` → the analysis as JSON (security with its rationale, penalties
 *   and findings located in the topology, autonomy, phase coverage), or `{ reasons }`.
 * Both answer from the bundle's current snapshot (open documents included).
 */
import type { Location } from 'vscode-languageserver';
import { exportAttractor } from '../../shared/src/compile';
import { sortDiagnostics, type Diagnostic } from '../../shared/src/diagnostics';
import type { SecurityFinding, SecurityPenalty } from '../../shared/src/analyze';
import type { Snapshot } from './database';
import { toLocation } from './convert';
import { homeOf } from './publish';

export const compiledRequest = 'darkprint/compiled';
export const reportRequest = 'darkprint/report';

export interface BundleParams {
  readonly uri: string;
}

export type CompiledAnswer = { readonly text: string; readonly slug: string } | { readonly reasons: readonly string[] };

export interface NodeLocation {
  readonly id: string;
  readonly location?: Location;
}

export interface ReportAnswer {
  readonly bundle: { readonly uri: string; readonly slug: string; readonly title: string; readonly digest: string; readonly nodes: number; readonly edges: number };
  readonly security: {
    readonly level: number;
    readonly raw: number;
    readonly rationale: string;
    readonly penalties: readonly (SecurityPenalty & { readonly nodes: readonly NodeLocation[] })[];
    readonly findings: readonly (SecurityFinding & { readonly location?: Location })[];
  };
  readonly autonomy: {
    readonly level: number;
    readonly class: string;
    readonly label: string;
    readonly fraction: number;
    readonly staffingFraction: number;
    readonly isDarkFactory: boolean;
    readonly autonomousNodes: number;
    readonly totalNodes: number;
    readonly control: unknown;
    readonly rationale: string;
  };
  readonly phaseCoverage: { readonly covered: readonly string[]; readonly missing: readonly string[]; readonly byPhase: Readonly<Record<string, readonly string[]>>; readonly unphased: readonly string[] };
}

export function compiled(snapshot: Snapshot): CompiledAnswer {
  const outcome = exportAttractor(snapshot.result);
  if (outcome.ok) return { text: outcome.text, slug: snapshot.result.blueprint?.manifest.slug ?? 'blueprint' };
  // the findings that stop the export first, each with its place, as the CLI prints them
  const blocking = sortDiagnostics(outcome.blocking);
  const named = blocking.slice(0, listedFindings).map((d) => `${placeOf(snapshot, d)}: ${d.severity} ${d.code}: ${d.message}`);
  if (blocking.length > listedFindings) named.push(`…and ${blocking.length - listedFindings} more findings that stop it; the Problems list shows them all.`);
  const reasons = [...named, ...outcome.reasons];
  return { reasons: reasons.length > 0 ? reasons : ['The bundle cannot be compiled; see its diagnostics.'] };
}

/** How many of the findings that stop an export `compiled` names. */
const listedFindings = 20;

/** `file:line:column` (1-based) of a finding in the bundle, or its file alone when it has no range. */
function placeOf(snapshot: Snapshot, d: Diagnostic): string {
  const file = d.location.file ?? homeOf(snapshot);
  const span = d.location.span;
  if (file === undefined) return 'the bundle';
  if (span === undefined || !snapshot.files.has(file)) return file;
  const at = snapshot.lineIndex(file).positionAt(span.start);
  return `${file}:${at.line + 1}:${at.character + 1}`;
}

export function report(snapshot: Snapshot, rootUri: string): ReportAnswer | { readonly reasons: readonly string[] } {
  const blueprint = snapshot.result.blueprint;
  const analysis = snapshot.result.analysis;
  if (!blueprint || !analysis) {
    return { reasons: ['The topology could not be read as a directed graph, so there is nothing to analyse; fix the errors in topology.dot first.'] };
  }
  const topology = blueprint.topology.file.path;
  const locate = (id: string): Location | undefined => {
    const node = blueprint.nodeById.get(id);
    return node ? toLocation(snapshot, { file: topology, span: node.dot.span }) : undefined;
  };
  const node = (id: string): NodeLocation => {
    const location = locate(id);
    return location ? { id, location } : { id };
  };
  const s = analysis.security;
  const a = analysis.autonomy;
  return {
    bundle: {
      uri: rootUri,
      slug: blueprint.manifest.slug,
      title: blueprint.manifest.title,
      digest: blueprint.digest,
      nodes: blueprint.graph.ids.length,
      edges: blueprint.edges.length,
    },
    security: {
      level: s.level,
      raw: s.raw,
      rationale: s.rationale,
      penalties: s.penalties.map((p) => ({ marker: p.marker, weight: p.weight, explanation: p.explanation, nodeIds: p.nodeIds, nodes: p.nodeIds.map(node) })),
      findings: s.findings.map((f) => {
        const location = locate(f.nodeId);
        return {
          marker: f.marker,
          nodeId: f.nodeId,
          establishedBy: f.establishedBy,
          explanation: f.explanation,
          ...(f.hint !== undefined ? { hint: f.hint } : {}),
          ...(f.path !== undefined ? { path: f.path } : {}),
          ...(location ? { location } : {}),
        };
      }),
    },
    autonomy: {
      level: a.level,
      class: a.autonomyClass,
      label: a.label,
      fraction: a.fraction,
      staffingFraction: a.staffingFraction,
      isDarkFactory: a.isDarkFactory,
      autonomousNodes: a.autonomousNodes,
      totalNodes: a.totalNodes,
      control: a.control,
      rationale: a.rationale,
    },
    phaseCoverage: analysis.phaseCoverage,
  };
}
