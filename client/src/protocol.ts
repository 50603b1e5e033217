/**
 * The custom requests the extension sends to the DarkPrint language server, and the readers
 * that turn their untyped answers into the shapes the commands use. Answers arrive as `unknown`:
 * a reader returns `undefined` for anything it does not recognise, never throws.
 *
 * - `darkprint/compiled` `{ uri }` → `{ text }` when the bundle holding `uri` compiles to an
 *   Attractor pipeline, or `{ reasons }` when it cannot (each reason a sentence or a diagnostic).
 * - `darkprint/report` `{ uri }` → the bundle's analysis: security, autonomy, phase coverage
 *   (the same fields as `darkprint report --format json`, bare or under `analysis`), with the
 *   findings, the cycles they stand on (each listed once, a finding pointing at its cycle by
 *   index) and where the nodes are (`locations`: the topology's URI once, a range per node).
 * - `darkprint/graph` `{ uri }` → the bundle's picture model (docs/graph.md) with the bundle
 *   folder's URI, the open documents it was drawn from and their versions, and why the topology
 *   does not read as written (`unreadable`), or `{ reasons }` for a file no bundle holds.
 * - `darkprint/import` `{ uri, text, author }` (a pipeline's URI and text, the handle every card
 *   records) → `{ files, diagnostics }`: the draft bundle's files (paths relative to its folder),
 *   or `{ reasons, diagnostics }` when the pipeline does not read; the diagnostics stand on the
 *   pipeline, as LSP diagnostics. The server only computes: the extension writes the files.
 */
import type { Picture } from '../../shared/src';
import type { ImportFinding, LinePosition } from '../../shared/src';

// The requests' names and parameters, and the shapes their answers travel in, are declared once
// for the server and the client (shared/src/protocol/requests.ts); the readers below check an
// answer against that shape and give the views the commands use.
export { compiledRequest, graphRequest, importRequest, reportRequest } from '../../shared/src';
export type { BundleParams, ImportFinding, ImportParams, LinePosition } from '../../shared/src';

export type CompiledAnswer =
  | { readonly kind: 'compiled'; readonly text: string; readonly slug?: string }
  | { readonly kind: 'refused'; readonly reasons: readonly string[] };

/** An LSP location: a URI string and a 0-based range. */
export interface NodeLocation {
  readonly uri: string;
  readonly range: { readonly start: LinePosition; readonly end: LinePosition };
}

export interface SecurityPenalty {
  readonly marker: string;
  readonly weight: number;
  readonly nodeIds: readonly string[];
}

export interface SecurityFinding {
  readonly marker: string;
  readonly nodeId: string;
  readonly establishedBy: string;
  /** Its own words; absent when its cycle alone establishes it (the cycle's explanation says it). */
  readonly explanation?: string;
  readonly hint?: string;
  /** Its cycle: an index into `security.cycles`. */
  readonly cycle?: number;
}

/** A cycle in which no card declares an iteration cap, listed once however many findings point at it. */
export interface SecurityCycle {
  /** In graph order. */
  readonly members: readonly string[];
  readonly explanation: string;
  readonly hint: string;
}

export interface BundleReport {
  readonly slug?: string;
  readonly title?: string;
  readonly digest?: string;
  readonly security: {
    readonly level: number;
    readonly raw?: number;
    readonly rationale: string;
    readonly penalties: readonly SecurityPenalty[];
    readonly findings: readonly SecurityFinding[];
    readonly cycles: readonly SecurityCycle[];
  };
  /** Where each node first appears in the topology, by node id, for the nodes the server placed. */
  readonly locations: ReadonlyMap<string, NodeLocation>;
  readonly autonomy: {
    readonly level: number;
    readonly autonomyClass: string;
    readonly label: string;
    readonly rationale?: string;
    readonly fraction: number;
    readonly staffingFraction: number;
    readonly autonomousNodes?: number;
    readonly totalNodes?: number;
    readonly control: {
      readonly totalNodes: number;
      readonly unattendedNodes: number;
      readonly fraction: number;
      readonly counted: boolean;
    };
  };
  readonly phaseCoverage: {
    readonly covered: readonly string[];
    readonly missing: readonly string[];
    readonly byPhase: ReadonlyMap<string, readonly string[]>;
    readonly unphased: readonly string[];
  };
}

export type ReportAnswer =
  | { readonly kind: 'report'; readonly report: BundleReport }
  | { readonly kind: 'refused'; readonly reasons: readonly string[] };

export type GraphAnswer =
  | {
      readonly kind: 'graph';
      /** The bundle folder's URI; a place's `file` is relative to it. */
      readonly root: string;
      readonly picture: Picture;
      /** The open documents the picture was drawn from, with their versions. */
      readonly versions: readonly { readonly file: string; readonly uri: string; readonly version: number }[];
      /** Why the topology does not read as written (a parse error with its place, or no directed graph); empty when it reads. */
      readonly unreadable: readonly string[];
    }
  | { readonly kind: 'refused'; readonly reasons: readonly string[] };

/**
 * Reads a `darkprint/graph` answer. The picture is checked in outline (the lists and the fields
 * the drawing and the view read, with their types), not field by field: it comes from the
 * engine's own model.
 */
export function readGraphAnswer(answer: unknown): GraphAnswer | undefined {
  const value = asRecord(answer);
  if (value === undefined) return undefined;
  const root = stringField(value, 'root');
  const picture = value.get('picture');
  if (root === undefined || !isPicture(picture)) {
    const reasons = readReasons(value.get('reasons'));
    return reasons === undefined ? undefined : { kind: 'refused', reasons };
  }
  const versions: { file: string; uri: string; version: number }[] = [];
  for (const entry of arrayField(value, 'versions')) {
    const record = asRecord(entry);
    const file = record && stringField(record, 'file');
    const uri = record && stringField(record, 'uri');
    const version = record && numberField(record, 'version');
    if (file !== undefined && uri !== undefined && version !== undefined) versions.push({ file, uri, version });
  }
  return { kind: 'graph', root, picture, versions, unreadable: stringArray(value.get('unreadable')) };
}

function isPicture(value: unknown): value is Picture {
  const picture = asRecord(value);
  if (picture === undefined) return false;
  const graph = asRecord(picture.get('graph'));
  const header = asRecord(picture.get('header'));
  const overlays = asRecord(picture.get('overlays'));
  if (graph === undefined || header === undefined || overlays === undefined) return false;
  if (typeof graph.get('drawn') !== 'boolean' || !['TB', 'LR', 'BT', 'RL'].includes(String(graph.get('rankdir')))) return false;
  if (asRecord(header.get('counts')) === undefined) return false;
  for (const name of ['leaks', 'relays', 'loops', 'forks', 'entries', 'exits', 'unreachable']) if (!Array.isArray(overlays.get(name))) return false;
  if (!Array.isArray(picture.get('unsettled')) || !Array.isArray(picture.get('findings'))) return false;
  const nodes = picture.get('nodes');
  const edges = picture.get('edges');
  if (!Array.isArray(nodes) || !Array.isArray(edges)) return false;
  const isPlace = (place: unknown): boolean => {
    const record = asRecord(place);
    return record !== undefined && typeof record.get('file') === 'string' && ['line', 'column', 'endLine', 'endColumn'].every((key) => numberField(record, key) !== undefined);
  };
  const isNode = (entry: unknown): boolean => {
    const node = asRecord(entry);
    const card = node && asRecord(node.get('card'));
    return (
      node !== undefined &&
      card !== undefined &&
      typeof card.get('resolved') === 'boolean' &&
      ['id', 'key', 'name', 'family'].every((key) => stringField(node, key) !== undefined) &&
      ['phases', 'risks', 'findings'].every((key) => Array.isArray(node.get(key))) &&
      typeof node.get('human') === 'boolean' &&
      isPlace(node.get('place'))
    );
  };
  const isEdge = (entry: unknown): boolean => {
    const edge = asRecord(entry);
    return (
      edge !== undefined &&
      numberField(edge, 'index') !== undefined &&
      ['key', 'source', 'target'].every((key) => stringField(edge, key) !== undefined) &&
      typeof edge.get('closesCycle') === 'boolean' &&
      Array.isArray(edge.get('findings')) &&
      isPlace(edge.get('place'))
    );
  };
  return (nodes as readonly unknown[]).every(isNode) && (edges as readonly unknown[]).every(isEdge);
}

export type ImportAnswer =
  | { readonly kind: 'files'; readonly files: readonly { readonly path: string; readonly text: string }[]; readonly findings: readonly ImportFinding[] }
  | { readonly kind: 'refused'; readonly reasons: readonly string[]; readonly findings: readonly ImportFinding[] };

/** Reads a `darkprint/import` answer: undefined when it has neither files nor reasons, or a file of another shape. */
export function readImportAnswer(answer: unknown): ImportAnswer | undefined {
  const value = asRecord(answer);
  if (value === undefined) return undefined;
  const findings: ImportFinding[] = [];
  for (const entry of arrayField(value, 'diagnostics')) {
    const record = asRecord(entry);
    const range = record && asRecord(record.get('range'));
    const start = range && readPosition(range.get('start'));
    const end = range && readPosition(range.get('end'));
    const message = record && stringField(record, 'message');
    if (record === undefined || start === undefined || end === undefined || message === undefined) continue;
    const severity = record.get('severity');
    const code = record.get('code');
    findings.push({
      range: { start, end },
      severity: severity === 2 || severity === 3 || severity === 4 ? severity : 1,
      ...(typeof code === 'string' ? { code } : typeof code === 'number' ? { code: String(code) } : {}),
      message,
    });
  }
  const files = value.get('files');
  if (Array.isArray(files)) {
    const read: { path: string; text: string }[] = [];
    for (const entry of files as readonly unknown[]) {
      const record = asRecord(entry);
      const path = record && stringField(record, 'path');
      const text = record && stringField(record, 'text');
      if (path === undefined || text === undefined) return undefined;
      read.push({ path, text });
    }
    return { kind: 'files', files: read, findings };
  }
  const reasons = readReasons(value.get('reasons'));
  return reasons === undefined ? undefined : { kind: 'refused', reasons, findings };
}

/** Reads a `darkprint/compiled` answer. */
export function readCompiledAnswer(answer: unknown): CompiledAnswer | undefined {
  const value = asRecord(answer);
  if (value === undefined) return undefined;
  const text = value.get('text');
  if (typeof text === 'string') {
    const slug = value.get('slug');
    return typeof slug === 'string' && slug !== '' ? { kind: 'compiled', text, slug } : { kind: 'compiled', text };
  }
  const reasons = readReasons(value.get('reasons') ?? value.get('diagnostics'));
  return reasons === undefined ? undefined : { kind: 'refused', reasons };
}

/** Reads a `darkprint/report` answer. */
export function readReportAnswer(answer: unknown): ReportAnswer | undefined {
  const value = asRecord(answer);
  if (value === undefined) return undefined;
  const reasons = readReasons(value.get('reasons'));
  if (reasons !== undefined && !value.has('analysis') && !value.has('security')) return { kind: 'refused', reasons };
  const analysis = value.has('analysis') ? asRecord(value.get('analysis')) : value;
  if (analysis === undefined) return undefined;
  const security = readSecurity(asRecord(analysis.get('security')));
  const autonomy = readAutonomy(asRecord(analysis.get('autonomy')));
  const phaseCoverage = readPhaseCoverage(asRecord(analysis.get('phaseCoverage')));
  if (security === undefined || autonomy === undefined || phaseCoverage === undefined) return undefined;
  const locations = readLocations(asRecord(value.get('locations')));
  const bundle = asRecord(value.get('bundle')) ?? asRecord(value.get('manifest'));
  const slug = stringField(value, 'slug') ?? (bundle && stringField(bundle, 'slug'));
  const title = stringField(value, 'title') ?? (bundle && stringField(bundle, 'title'));
  const digest = stringField(value, 'digest') ?? (bundle && stringField(bundle, 'digest'));
  return {
    kind: 'report',
    report: {
      ...(slug !== undefined ? { slug } : {}),
      ...(title !== undefined ? { title } : {}),
      ...(digest !== undefined ? { digest } : {}),
      security,
      locations,
      autonomy,
      phaseCoverage,
    },
  };
}

/** The autonomy band names, by level. */
export function autonomyLabel(level: number): string {
  switch (level) {
    case 4:
      return 'Closed-loop';
    case 3:
      return 'Conditional';
    case 2:
      return 'Supervised';
    default:
      return 'Assisted';
  }
}

// ---- readers -------------------------------------------------------------------------------

function readSecurity(value: ReadonlyMap<string, unknown> | undefined): BundleReport['security'] | undefined {
  if (value === undefined) return undefined;
  const level = numberField(value, 'level');
  const rationale = stringField(value, 'rationale');
  if (level === undefined || rationale === undefined) return undefined;
  const raw = numberField(value, 'raw');
  const penalties: SecurityPenalty[] = [];
  for (const entry of arrayField(value, 'penalties')) {
    const penalty = asRecord(entry);
    const marker = penalty && stringField(penalty, 'marker');
    const weight = penalty && numberField(penalty, 'weight');
    if (penalty === undefined || marker === undefined || weight === undefined) continue;
    penalties.push({ marker, weight, nodeIds: stringArray(penalty.get('nodeIds')) });
  }
  const cycles: SecurityCycle[] = [];
  for (const entry of arrayField(value, 'cycles')) {
    const cycle = asRecord(entry);
    // (kept even when unreadable, so that the findings' indexes still point at the right cycle)
    cycles.push({
      members: cycle === undefined ? [] : stringArray(cycle.get('members')),
      explanation: (cycle && stringField(cycle, 'explanation')) ?? '',
      hint: (cycle && stringField(cycle, 'hint')) ?? '',
    });
  }
  const findings: SecurityFinding[] = [];
  for (const entry of arrayField(value, 'findings')) {
    const finding = asRecord(entry);
    const marker = finding && stringField(finding, 'marker');
    const nodeId = finding && stringField(finding, 'nodeId');
    if (finding === undefined || marker === undefined || nodeId === undefined) continue;
    const explanation = stringField(finding, 'explanation');
    const hint = stringField(finding, 'hint');
    const cycle = numberField(finding, 'cycle');
    findings.push({
      marker,
      nodeId,
      establishedBy: stringField(finding, 'establishedBy') ?? '',
      ...(explanation !== undefined ? { explanation } : {}),
      ...(hint !== undefined ? { hint } : {}),
      ...(cycle !== undefined && Number.isInteger(cycle) && cycle >= 0 && cycle < cycles.length ? { cycle } : {}),
    });
  }
  return { level, ...(raw !== undefined ? { raw } : {}), rationale, penalties, findings, cycles };
}

/** `{ uri, ranges: { <node id>: range } }` as node locations by id. */
function readLocations(value: ReadonlyMap<string, unknown> | undefined): Map<string, NodeLocation> {
  const locations = new Map<string, NodeLocation>();
  const uri = value && stringField(value, 'uri');
  const ranges = value && asRecord(value.get('ranges'));
  if (uri === undefined || ranges === undefined) return locations;
  for (const [id, range] of ranges) {
    const location = readNodeLocation({ uri, range });
    if (location !== undefined) locations.set(id, location);
  }
  return locations;
}

function readAutonomy(value: ReadonlyMap<string, unknown> | undefined): BundleReport['autonomy'] | undefined {
  if (value === undefined) return undefined;
  const level = numberField(value, 'level');
  const fraction = numberField(value, 'fraction');
  const staffingFraction = numberField(value, 'staffingFraction');
  const control = asRecord(value.get('control'));
  if (level === undefined || fraction === undefined || staffingFraction === undefined || control === undefined) return undefined;
  const rationale = stringField(value, 'rationale');
  const autonomousNodes = numberField(value, 'autonomousNodes');
  const totalNodes = numberField(value, 'totalNodes');
  return {
    level,
    autonomyClass: stringField(value, 'class') ?? stringField(value, 'autonomyClass') ?? '',
    label: stringField(value, 'label') ?? autonomyLabel(level),
    ...(rationale !== undefined ? { rationale } : {}),
    fraction,
    staffingFraction,
    ...(autonomousNodes !== undefined ? { autonomousNodes } : {}),
    ...(totalNodes !== undefined ? { totalNodes } : {}),
    control: {
      totalNodes: numberField(control, 'totalNodes') ?? 0,
      unattendedNodes: numberField(control, 'unattendedNodes') ?? 0,
      fraction: numberField(control, 'fraction') ?? 0,
      counted: control.get('counted') === true,
    },
  };
}

function readPhaseCoverage(value: ReadonlyMap<string, unknown> | undefined): BundleReport['phaseCoverage'] | undefined {
  if (value === undefined) return undefined;
  const byPhase = new Map<string, readonly string[]>();
  const phases = asRecord(value.get('byPhase'));
  if (phases !== undefined) for (const [phase, ids] of phases) byPhase.set(phase, stringArray(ids));
  return {
    covered: stringArray(value.get('covered')),
    missing: stringArray(value.get('missing')),
    byPhase,
    unphased: stringArray(value.get('unphased')),
  };
}

export function readNodeLocation(value: unknown): NodeLocation | undefined {
  const record = asRecord(value);
  const uri = record && stringField(record, 'uri');
  const range = record && asRecord(record.get('range'));
  const start = range && readPosition(range.get('start'));
  const end = range && readPosition(range.get('end'));
  return uri !== undefined && start !== undefined && end !== undefined ? { uri, range: { start, end } } : undefined;
}

function readPosition(value: unknown): LinePosition | undefined {
  const record = asRecord(value);
  const line = record && numberField(record, 'line');
  const character = record && numberField(record, 'character');
  return line !== undefined && character !== undefined ? { line, character } : undefined;
}

function readReasons(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const reasons: string[] = [];
  for (const entry of value as readonly unknown[]) {
    if (typeof entry === 'string') {
      reasons.push(entry);
      continue;
    }
    const record = asRecord(entry);
    const message = record && stringField(record, 'message');
    if (record === undefined || message === undefined) continue;
    const code = stringField(record, 'code');
    reasons.push(code === undefined ? message : `${code}: ${message}`);
  }
  return reasons;
}

/** A JSON object as a Map, so keys such as `__proto__` stay plain data. */
function asRecord(value: unknown): ReadonlyMap<string, unknown> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return new Map(Object.entries(value as Record<string, unknown>));
}

function stringField(record: ReadonlyMap<string, unknown>, key: string): string | undefined {
  const value = record.get(key);
  return typeof value === 'string' ? value : undefined;
}

function numberField(record: ReadonlyMap<string, unknown>, key: string): number | undefined {
  const value = record.get(key);
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function arrayField(record: ReadonlyMap<string, unknown>, key: string): readonly unknown[] {
  const value = record.get(key);
  return Array.isArray(value) ? (value as readonly unknown[]) : [];
}

function stringArray(value: unknown): string[] {
  return Array.isArray(value) ? (value as readonly unknown[]).filter((entry): entry is string => typeof entry === 'string') : [];
}

/**
 * The arguments of `darkprint.showReferences` as the server's code lenses write them: the place
 * the list is about (a URI string and a 0-based position), then the places to list.
 */
export interface ReferencesArguments {
  readonly uri: string;
  readonly position: LinePosition;
  readonly locations: readonly NodeLocation[];
}

/** Reads `[uri, position, locations]`; undefined when any part has another shape (a place that does not read is left out). */
export function readReferencesArguments(args: readonly unknown[]): ReferencesArguments | undefined {
  const [uri, position, locations] = args;
  const at = readPosition(position);
  if (typeof uri !== 'string' || at === undefined || !Array.isArray(locations)) return undefined;
  const places: NodeLocation[] = [];
  for (const value of locations as unknown[]) {
    const place = readNodeLocation(value);
    if (place !== undefined) places.push(place);
  }
  return { uri, position: at, locations: places };
}
