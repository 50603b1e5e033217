/**
 * The user's settings (`darkprint.*`), read from whatever the client sends: the answer to
 * `workspace/configuration`, the `settings` of `workspace/didChangeConfiguration`, or the
 * `initializationOptions`. Input is `unknown`; a malformed entry is skipped and reported in
 * `problems`, never thrown.
 */
import { unknownSelectors, type Severity } from '../../shared/src';
import { diagnosticFamilies } from '../../shared/src';
import { allInlayHints, type InlayHintOptions } from '../../shared/src';

export interface Settings {
  /** Quiet time after an edit before diagnostics are recomputed (`darkprint.debounceMs`). */
  readonly debounceMs: number;
  /** Code or family (`attractor/`, `attractor/*`) → new severity or `off` (`darkprint.severity`). */
  readonly severity: ReadonlyMap<string, Severity | 'off'>;
  /** Codes or families never shown (`darkprint.ignore`). */
  readonly ignore: readonly string[];
  /**
   * Where `codeDescription` links point (`darkprint.docsUrl`): the diagnostics page, to which
   * `#<anchor>` is appended (`#L<line>` for a page on this machine: see `docsLinker`).
   * Undefined: the docs beside the server, when found.
   */
  readonly docsUrl?: string;
  /** Which inlay hints are shown (`darkprint.inlayHints.nodeCards`, `darkprint.inlayHints.edgeTypes`); all by default. */
  readonly inlayHints: InlayHintOptions;
  /**
   * What the server writes to the client's log (`darkprint.logLevel`): errors, then warnings, then
   * `info` (the default), then `debug`, which adds how the server tunes its memory.
   */
  readonly logLevel: LogLevel;
}

export type LogLevel = 'error' | 'warning' | 'info' | 'debug';

const logLevels: readonly LogLevel[] = ['error', 'warning', 'info', 'debug'];

/** True when a message of level `message` is written at the level `setting`. */
export function logsAt(setting: LogLevel, message: LogLevel): boolean {
  return logLevels.indexOf(message) <= logLevels.indexOf(setting);
}

export const defaultSettings: Settings = { debounceMs: 150, severity: new Map(), ignore: [], inlayHints: allInlayHints, logLevel: 'info' };

export interface SettingsRead {
  readonly settings: Settings;
  /** One sentence per ignored entry, for the server's log. */
  readonly problems: readonly string[];
}

const levels: ReadonlySet<string> = new Set(['error', 'warning', 'info', 'off']);

/**
 * Reads the `darkprint` section. `raw` may be the section itself (`{ debounceMs, ... }`) or an
 * object holding it under `darkprint`; dotted keys (`"darkprint.debounceMs"`) are accepted too.
 */
export function readSettings(raw: unknown): SettingsRead {
  const problems: string[] = [];
  const section = sectionOf(raw);
  let debounceMs = defaultSettings.debounceMs;
  const debounce = section.get('debounceMs');
  if (debounce !== undefined && debounce !== null) {
    if (typeof debounce === 'number' && Number.isFinite(debounce) && debounce >= 0) debounceMs = Math.min(Math.round(debounce), 60_000);
    else problems.push(`darkprint.debounceMs must be a number of milliseconds (0 or more); ${JSON.stringify(debounce)} is ignored.`);
  }
  const severity = new Map<string, Severity | 'off'>();
  const rawSeverity = section.get('severity');
  if (isRecord(rawSeverity)) {
    for (const [key, value] of Object.entries(rawSeverity)) {
      if (typeof value === 'string' && levels.has(value)) severity.set(key, value as Severity | 'off');
      else problems.push(`darkprint.severity["${key}"] must be one of error, warning, info or off; ${JSON.stringify(value)} is ignored.`);
    }
  } else if (rawSeverity !== undefined && rawSeverity !== null) {
    problems.push('darkprint.severity must be an object mapping a code or family to error, warning, info or off; it is ignored.');
  }
  const ignore: string[] = [];
  const rawIgnore = section.get('ignore');
  if (Array.isArray(rawIgnore)) {
    for (const entry of rawIgnore as unknown[]) {
      if (typeof entry === 'string' && entry.trim() !== '') ignore.push(entry.trim());
      else problems.push(`darkprint.ignore entries must be codes or families; ${JSON.stringify(entry)} is ignored.`);
    }
  } else if (rawIgnore !== undefined && rawIgnore !== null) {
    problems.push('darkprint.ignore must be a list of codes or families; it is ignored.');
  }
  // a code or family that does not exist (a typo) has no effect: said once per setting, and kept (it is harmless)
  const unknown = (setting: string, selectors: readonly string[]): void => {
    for (const selector of new Set(unknownSelectors(selectors))) {
      problems.push(`darkprint.${setting} names "${selector}", which is no diagnostic code or family (${diagnosticFamilies.map((f) => f.prefix).join(', ')}), so it changes nothing; check its spelling.`);
    }
  };
  unknown('severity', [...severity.keys()]);
  unknown('ignore', ignore);
  const rawDocs = section.get('docsUrl');
  let docsUrl: string | undefined;
  if (typeof rawDocs === 'string' && rawDocs.trim() !== '') docsUrl = rawDocs.trim();
  else if (rawDocs !== undefined && rawDocs !== null && rawDocs !== '') problems.push('darkprint.docsUrl must be a URL string; it is ignored.');
  const inlayHints = readInlayHints(section, problems);
  const rawLevel = section.get('logLevel');
  const logLevel = logLevels.find((l) => l === rawLevel) ?? defaultSettings.logLevel;
  if (rawLevel !== undefined && rawLevel !== null && logLevel !== rawLevel) problems.push(`darkprint.logLevel must be one of ${logLevels.join(', ')}; ${JSON.stringify(rawLevel)} is ignored.`);
  return { settings: { debounceMs, severity, ignore, ...(docsUrl ? { docsUrl } : {}), inlayHints, logLevel }, problems };
}

/**
 * `darkprint.inlayHints`: an object of switches (`{ nodeCards: false }`, as VS Code sends the
 * section), or the same as dotted keys (`inlayHints.nodeCards`); the object wins where both say.
 */
function readInlayHints(section: Map<string, unknown>, problems: string[]): InlayHintOptions {
  const nested = section.get('inlayHints');
  if (nested !== undefined && nested !== null && !isRecord(nested)) problems.push('darkprint.inlayHints must be an object of switches such as { "nodeCards": false }; it is ignored.');
  const read = (key: keyof InlayHintOptions): boolean => {
    const own = isRecord(nested) ? nested[key] : undefined;
    const value = own ?? section.get(`inlayHints.${key}`);
    if (value === undefined || value === null) return allInlayHints[key];
    if (typeof value === 'boolean') return value;
    problems.push(`darkprint.inlayHints.${key} must be true or false; ${JSON.stringify(value)} is ignored.`);
    return allInlayHints[key];
  };
  return { nodeCards: read('nodeCards'), edgeTypes: read('edgeTypes') };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Merges several sources of the `darkprint` section (any of the shapes `readSettings`
 * accepts), later ones winning key by key: e.g. the initialization options, then the answer
 * to `workspace/configuration`.
 */
export function mergeSettings(...sources: readonly unknown[]): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const source of sources) for (const [key, value] of sectionOf(source)) if (value !== undefined && value !== null) out[key] = value;
  return out;
}

/** The `darkprint` section as a Map, whichever of the accepted shapes `raw` has. */
function sectionOf(raw: unknown): Map<string, unknown> {
  const out = new Map<string, unknown>();
  if (!isRecord(raw)) return out;
  const nested = raw['darkprint'];
  const source = isRecord(nested) ? nested : raw;
  for (const [key, value] of Object.entries(source)) {
    out.set(key.startsWith('darkprint.') ? key.slice('darkprint.'.length) : key, value);
  }
  if (source !== raw) {
    for (const [key, value] of Object.entries(raw)) {
      if (key.startsWith('darkprint.') && !out.has(key.slice('darkprint.'.length))) out.set(key.slice('darkprint.'.length), value);
    }
  }
  return out;
}
