/**
 * Findings as SARIF 2.1.0 (the Static Analysis Results Interchange Format that code scanning
 * services read): `sarifRules` lists the registry as the tool's rules, `sarifResults` turns one
 * bundle's findings into results, `sarifLog` puts rules and results into one run. Pure: where a
 * finding's file lies and how its spans fall on lines arrive as functions.
 *
 * Columns are UTF-16 code units (`columnKind`), 1-based, the end column one past the last
 * character, as SARIF counts them. A result's `partialFingerprints` (`darkprint/v1`) is made
 * from what the finding is about, never from its line or message: its code, its file, its
 * node, card, edge or field when it names one and else the text its range covers, and how many
 * findings with the same key come before it in the file. So a result keeps its fingerprint from
 * one run to the next while the lines around it move.
 */
import { sha256Hex } from '../hash/digest';
import type { Span } from '../text';
import { allDiagnosticCodes, diagnosticInfo, type DiagnosticCode } from './registry';
import { docsAnchor, exampleLanguage } from './render';
import type { Diagnostic, Severity } from './types';

/** The fingerprint key of a result's `partialFingerprints`. */
export const sarifFingerprintKey = 'darkprint/v1';

/** The `uriBaseId` every artifact location is relative to: the repository root, or the root given. */
export const sarifRootId = '%SRCROOT%';

export interface SarifRegion {
  readonly startLine: number;
  readonly startColumn: number;
  readonly endLine: number;
  readonly endColumn: number;
}

/** How one bundle's files are placed (see `sarifResults`). */
export interface SarifPlacement {
  /** The URI of a file of the bundle (a path in the bundle folder), relative to the root. */
  uriOf(file: string): string;
  /** The 1-based region a span of a file covers; undefined when the file's text is unknown. */
  regionOf(file: string, span: Span): SarifRegion | undefined;
  /** The text a span of a file covers (for fingerprints); undefined when unknown. */
  textOf(file: string, span: Span): string | undefined;
  /** Where a finding that names no file is shown: the bundle's topology, or the folder itself. */
  readonly home: string;
}

export interface SarifResult {
  readonly ruleId: string;
  readonly ruleIndex: number;
  readonly level: SarifLevel;
  readonly message: { readonly text: string };
  readonly locations: readonly SarifLocation[];
  readonly relatedLocations?: readonly SarifLocation[];
  readonly partialFingerprints: { readonly [key: string]: string };
}

export interface SarifLocation {
  readonly id?: number;
  readonly physicalLocation: {
    readonly artifactLocation: { readonly uri: string; readonly uriBaseId: string };
    readonly region?: SarifRegion;
  };
  readonly message?: { readonly text: string };
}

export type SarifLevel = 'error' | 'warning' | 'note';

/** The SARIF level of a severity. */
export function sarifLevel(severity: Severity): SarifLevel {
  switch (severity) {
    case 'error':
      return 'error';
    case 'warning':
      return 'warning';
    case 'info':
      return 'note';
  }
}

/** A SARIF reporting descriptor (one rule). */
export interface SarifRule {
  readonly id: string;
  readonly shortDescription: { readonly text: string };
  readonly fullDescription: { readonly text: string };
  readonly help: { readonly text: string; readonly markdown: string };
  readonly helpUri: string;
  readonly defaultConfiguration: { readonly level: SarifLevel; readonly enabled: boolean };
  readonly properties: { readonly tags: readonly string[] };
}

/**
 * Every code of the registry as a rule, in registry order (a result's `ruleIndex` is its code's
 * place here), each with its docs, an example, and a help link: `docsUrl` (the diagnostics page)
 * with the code's heading anchor. A code this engine never reports is listed, disabled.
 */
export function sarifRules(docsUrl: string): SarifRule[] {
  return allDiagnosticCodes.map((code) => {
    const info = diagnosticInfo(code);
    const slash = code.indexOf('/');
    const tags = [code.slice(0, slash), ...(info.beyond ? ['beyond'] : [])];
    const fence = '```';
    return {
      id: code,
      shortDescription: { text: info.title },
      fullDescription: { text: info.docs },
      help: {
        text: `${info.docs}\n\nExample:\n${info.example}`,
        markdown: `${info.docs}\n\n${fence}${exampleLanguage(code)}\n${info.example}\n${fence}`,
      },
      helpUri: `${docsUrl}#${docsAnchor(code)}`,
      defaultConfiguration: { level: sarifLevel(info.severity), enabled: info.emitted === true },
      properties: { tags },
    };
  });
}

const ruleIndexes: ReadonlyMap<string, number> = new Map(allDiagnosticCodes.map((code, i) => [code, i]));

/** The place of a code among `sarifRules`. */
export function sarifRuleIndex(code: DiagnosticCode): number {
  const index = ruleIndexes.get(code);
  if (index === undefined) throw new Error(`${code} is not in the registry`);
  return index;
}

/** One bundle's findings (sorted, the policy applied) as SARIF results, in the same order. */
export function sarifResults(diagnostics: readonly Diagnostic[], placement: SarifPlacement): SarifResult[] {
  const seen = new Map<string, number>();
  return diagnostics.map((d) => {
    const file = d.location.file ?? placement.home;
    const span = d.location.file !== undefined ? d.location.span : undefined;
    const related = (d.related ?? []).map((r, i): SarifLocation => ({ id: i + 1, ...place(placement, r.file, r.span), message: { text: r.message } }));
    const key = fingerprintKey(d, placement.uriOf(file), span === undefined ? undefined : placement.textOf(file, span));
    const ordinal = seen.get(key) ?? 0;
    seen.set(key, ordinal + 1);
    const result: SarifResult = {
      ruleId: d.code,
      ruleIndex: sarifRuleIndex(d.code),
      level: sarifLevel(d.severity),
      message: { text: d.hint !== undefined ? `${d.message}\n${d.hint}` : d.message },
      locations: [place(placement, file, span)],
      ...(related.length > 0 ? { relatedLocations: related } : {}),
      partialFingerprints: { [sarifFingerprintKey]: sha256Hex(`${key}\u0000${ordinal}`) },
    };
    return result;
  });
}

/** Options of the whole log (see `sarifLog`). */
export interface SarifLogOptions {
  /** The diagnostics page (see `sarifRules`). */
  readonly docsUrl: string;
  /** The root artifact URIs are relative to, as a `file:` URL ending in `/`. */
  readonly rootUri: string;
  /** The tool's version, when known. */
  readonly version?: string;
}

/** A whole SARIF log: one run of the tool, its rules, and the results of every bundle checked. */
export function sarifLog(results: readonly SarifResult[], options: SarifLogOptions): object {
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'darkprint',
            ...(options.version !== undefined ? { version: options.version, semanticVersion: options.version } : {}),
            rules: sarifRules(options.docsUrl),
          },
        },
        originalUriBaseIds: { [sarifRootId]: { uri: options.rootUri } },
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
}

/**
 * A file path relative to the root (`/`-separated) as a relative URI reference: each segment
 * with what a URI path does not allow percent-encoded (`@` stays, `%`, `#`, `?` and spaces do not).
 */
export function relativeUri(relative: string): string {
  return relative
    .split('/')
    .map((segment) => segment.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@]/gu, (c) => encodeURIComponent(c)))
    .join('/');
}

function place(placement: SarifPlacement, file: string, span: Span | undefined): SarifLocation {
  const region = span !== undefined ? placement.regionOf(file, span) : undefined;
  return {
    physicalLocation: {
      artifactLocation: { uri: placement.uriOf(file), uriBaseId: sarifRootId },
      ...(region !== undefined ? { region } : {}),
    },
  };
}

/** What a finding is about, without its line or its wording (see the note at the top). */
function fingerprintKey(d: Diagnostic, uri: string, covered: string | undefined): string {
  const l = d.location;
  const about =
    l.nodeId !== undefined || l.cardRef !== undefined || l.edge !== undefined || l.path !== undefined
      ? JSON.stringify([l.nodeId ?? null, l.cardRef ?? null, l.edge ? [l.edge.source, l.edge.target] : null, l.path ?? null])
      : (covered ?? '').slice(0, 512);
  return `${d.code}\u0000${uri}\u0000${about}`;
}
