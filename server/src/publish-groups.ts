/**
 * Which file shows each finding of a bundle: the findings after the user's policy, grouped by
 * the file they are published on (./publish.ts publishes them, the code actions read them).
 */
import { applyPolicy, classifyFiles, type Diagnostic } from '../../shared/src';
import type { Snapshot } from './database';
import type { Settings } from './settings';

/** The diagnostics of a snapshot (the engine's, and those about the disk read) after the user's policy, grouped by file. */
export function diagnosticsByFile(snapshot: Snapshot, settings: Settings): Map<string, Diagnostic[]> {
  // (the findings about the disk read, when there are any, go with the engine's: see database.ts `diskFindings`)
  const found = snapshot.diskFindings.length === 0 ? snapshot.result.diagnostics : [...snapshot.result.diagnostics, ...snapshot.diskFindings];
  const kept = applyPolicy(found, { ignore: settings.ignore, severity: settings.severity });
  const fallback = homeOf(snapshot);
  const groups = new Map<string, Diagnostic[]>();
  for (const d of kept) {
    let file = d.location.file ?? fallback;
    // A finding about a file the bundle does not have (the topology it lacks) is shown on the
    // file that stands for the bundle; with none, it is not shown (a folder with only a
    // `cards/` folder in it is seldom meant as a bundle, and a client cannot open a file that
    // is not there).
    if (file !== undefined && !snapshot.files.has(file)) file = fallback;
    if (file === undefined) continue;
    let list = groups.get(file);
    if (!list) groups.set(file, (list = []));
    list.push(d.location.span === undefined ? placedOnGraph(snapshot, file, d) : d);
  }
  return groups;
}

/** The file findings without a file of their own are shown on: the topology, else the manifest, when the bundle has one (as the engine classifies them). */
export function homeOf(snapshot: Snapshot): string | undefined {
  const topology = snapshot.result.blueprint?.topology.file.path;
  if (topology !== undefined) return topology;
  const classified = classifyFiles([...snapshot.files.values()]);
  return classified.topology?.path ?? classified.manifest?.path;
}

/**
 * A finding the engine gives no place, shown on the topology: at the graph's keyword (`digraph`),
 * where `bundle/no-exit` stands, rather than as an empty range at the file's start, which some
 * clients do not show at all. These are findings about the whole graph (DarkPrint gives them no
 * location, and the CLI keeps it so): `analysis/criteria-leak-unanchored`, and
 * `analysis/unresolved-node` when several nodes lack cards. The placed copy is kept per finding,
 * so a finding that did not change stays the same object (the conversion is reused by object:
 * see ./publish-reuse.ts).
 */
const placed = new WeakMap<Diagnostic, Diagnostic>();

function placedOnGraph(snapshot: Snapshot, file: string, d: Diagnostic): Diagnostic {
  const topology = snapshot.result.blueprint?.topology;
  const keyword = topology !== undefined && topology.file.path === file ? topology.parse.graph?.keywordSpan : undefined;
  if (keyword === undefined) return d;
  const known = placed.get(d);
  if (known !== undefined && known.location.file === file && known.location.span?.start === keyword.start && known.location.span.end === keyword.end) return known;
  const copy: Diagnostic = { ...d, location: { ...d.location, file, span: keyword } };
  placed.set(d, copy);
  return copy;
}
