/**
 * The answers to the custom requests the extension sends (`darkprint/compiled`, `darkprint/report`,
 * `darkprint/graph`, `darkprint/import`): their names and the shapes they travel in are declared
 * once, in shared/src/protocol/requests.ts, which the client reads them by; this module computes
 * them. The first three answer from the bundle's current snapshot (open documents included); the
 * import reads no file and writes none (the client writes the files where the user chose).
 */
import type { Diagnostic as LspDiagnostic, Range } from 'vscode-languageserver';
import { exportAttractor, importAttractor, importedBundleFiles } from '../../shared/src';
import { lineIndex } from '../../shared/src';
import { sortDiagnostics, type Diagnostic } from '../../shared/src';
import { pictureOf } from '../../shared/src';
import type { Picture } from '../../shared/src';
import type { SecurityCycle, SecurityFinding } from '../../shared/src';
import type { CompiledAnswer, GraphAnswer, ImportAnswer, ImportParams, ReportAnswer, ReportCycle, ReportFinding } from '../../shared/src';
import type { Snapshot } from './database';
import { toLspDiagnostic, toRange, type ClientSupport } from './convert';
import { homeOf } from './publish-groups';

export { compiledRequest, graphRequest, importRequest, reportRequest } from '../../shared/src';
export type { BundleParams, CompiledAnswer, GraphAnswer, ImportAnswer, ImportParams, ReportAnswer, ReportCycle, ReportFinding } from '../../shared/src';

/**
 * The draft bundle of a pipeline, as `darkprint import` makes it: the cards' provenance names the
 * pipeline by the last part of its URI, and its findings are located in the text given.
 */
export function imported(params: ImportParams, support: ClientSupport): ImportAnswer {
  const author = params.author.trim();
  if (author === '') return { reasons: ['The author handle is blank: every imported card records who imported it; give a handle.'], diagnostics: [] };
  const origin = nameOf(params.uri);
  const result = importAttractor(params.text, { author, origin, file: origin });
  const index = lineIndex(params.text);
  const files = { uri: () => params.uri, lineIndex: () => index, versions: new Map<string, number>() };
  const diagnostics = result.diagnostics.map((d) => toLspDiagnostic(d, origin, { files, support }));
  if (!result.readable) return { reasons: [`${origin} is not a DOT digraph the importer can read; its diagnostics say where it stops.`], diagnostics };
  return { files: importedBundleFiles(result), diagnostics };
}

/** The last part of a URI's path, decoded (`pipeline.dot` when it has none). */
function nameOf(uri: string): string {
  let path = uri.replace(/[?#].*$/, '');
  path = path.slice(path.lastIndexOf('/') + 1);
  try {
    path = decodeURIComponent(path);
  } catch {
    // (a malformed escape: the name as written)
  }
  return path === '' ? 'pipeline.dot' : path;
}

/** The findings that say the topology does not read as written. */
const unreadableCodes: ReadonlySet<string> = new Set(['dot/parse-error', 'dot/not-directed']);

export function graph(snapshot: Snapshot, rootUri: string): GraphAnswer {
  const picture = pictureOfSnapshot(snapshot);
  const versions = [...snapshot.versions].map(([file, version]) => ({ file, uri: snapshot.uri(file), version }));
  const unreadable = sortDiagnostics(snapshot.result.diagnostics.filter((d) => unreadableCodes.has(d.code))).map((d) => `${placeOf(snapshot, d)}: ${d.message}`);
  if (!picture.graph.drawn && unreadable.length === 0) {
    unreadable.push(picture.graph.file === undefined ? 'The bundle has no topology file to draw.' : `${picture.graph.file} could not be read as a directed graph.`);
  }
  return { root: rootUri, picture, versions, unreadable };
}

/** The picture of a snapshot, made once per snapshot (several views may ask for one revision). */
function pictureOfSnapshot(snapshot: Snapshot): Picture {
  let picture = pictures.get(snapshot);
  if (picture === undefined) {
    const topology = snapshot.result.blueprint?.topology.file.path;
    // (a file read from disk hides its byte order mark, as the editor that opens it will: see database.ts `lineIndex`)
    const fromDisk = topology === undefined || !snapshot.versions.has(topology);
    picture = pictureOf(snapshot.result, { hideByteOrderMark: fromDisk, files: [...snapshot.files.values()] });
    pictures.set(snapshot, picture);
  }
  return picture;
}

const pictures = new WeakMap<Snapshot, Picture>();

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
  const index = snapshot.lineIndex(topology);
  // (built from entries, so that an id such as `__proto__` stays a plain key)
  const ranges = new Map<string, Range>();
  for (const penalty of analysis.security.penalties) {
    for (const id of penalty.nodeIds) {
      if (ranges.has(id)) continue;
      const node = blueprint.nodeById.get(id);
      if (node !== undefined) ranges.set(id, toRange(index, node.dot.span));
    }
  }
  const s = analysis.security;
  const a = analysis.autonomy;
  const { findings, cycles } = reportFindings(s.findings);
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
      penalties: s.penalties.map((p) => ({ marker: p.marker, weight: p.weight, explanation: p.explanation, nodeIds: p.nodeIds })),
      findings,
      cycles,
    },
    locations: { uri: snapshot.uri(topology), ranges: Object.fromEntries(ranges) },
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

/** The findings as the report writes them, with the cycles they stand on listed once. */
function reportFindings(findings: readonly SecurityFinding[]): { readonly findings: ReportFinding[]; readonly cycles: ReportCycle[] } {
  const cycles: ReportCycle[] = [];
  const cycleIndex = new Map<SecurityCycle, number>();
  const out = findings.map((f): ReportFinding => {
    const cycle = f.cycle;
    if (cycle === undefined) {
      const finding: { -readonly [K in keyof ReportFinding]: ReportFinding[K] } = { marker: f.marker, nodeId: f.nodeId, establishedBy: f.establishedBy, explanation: f.explanation };
      if (f.hint !== undefined) finding.hint = f.hint;
      if (f.path !== undefined) finding.path = f.path;
      if (f.pathOmitted !== undefined) finding.pathOmitted = f.pathOmitted;
      return finding;
    }
    let at = cycleIndex.get(cycle);
    if (at === undefined) {
      at = cycles.length;
      cycleIndex.set(cycle, at);
      cycles.push({ members: cycle.members, explanation: cycle.explanation, hint: cycle.hint });
    }
    // the cycle says what it alone establishes; a member whose card also declares the marker says so in its own words
    if (f.establishedBy === 'inferred') return { marker: f.marker, nodeId: f.nodeId, establishedBy: f.establishedBy, cycle: at };
    return f.hint !== undefined
      ? { marker: f.marker, nodeId: f.nodeId, establishedBy: f.establishedBy, explanation: f.explanation, hint: f.hint, cycle: at }
      : { marker: f.marker, nodeId: f.nodeId, establishedBy: f.establishedBy, explanation: f.explanation, cycle: at };
  });
  return { findings: out, cycles };
}
