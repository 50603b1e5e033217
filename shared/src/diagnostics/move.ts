/**
 * A finding after an edit: its spans in `file` (its location and its related locations there)
 * moved by `move`, the same object when none moves. Used by every stage that carries findings
 * over an edit instead of computing them again (the parser's rejoin, the resolver's carry-over).
 */
import type { Span } from '../text';
import type { Diagnostic, DiagnosticLocation, RelatedInformation } from './types';

/** With a `move` that always gives a span (a whole statement moved), the finding always moves. */
export function movedDiagnostic(d: Diagnostic, file: string, move: (span: Span) => Span): Diagnostic;
/** With a `move` that gives undefined for a span reaching into what changed: undefined when one of the finding's spans does. */
export function movedDiagnostic(d: Diagnostic, file: string, move: (span: Span) => Span | undefined): Diagnostic | undefined;
export function movedDiagnostic(d: Diagnostic, file: string, move: (span: Span) => Span | undefined): Diagnostic | undefined {
  const at = d.location.file === file && d.location.span !== undefined ? move(d.location.span) : d.location.span;
  if (at === undefined && d.location.span !== undefined) return undefined;
  let related = d.related;
  if (related !== undefined) {
    let copy: RelatedInformation[] | undefined;
    for (let i = 0; i < related.length; i++) {
      const r = related[i];
      const span = r.file === file ? move(r.span) : r.span;
      if (span === undefined) return undefined;
      if (span !== r.span) (copy ??= related.slice(0, i)).push({ ...r, span });
      else copy?.push(r);
    }
    related = copy ?? related;
  }
  if (at === d.location.span && related === d.related) return d;
  return relocated(d, at !== undefined && at !== d.location.span ? withSpan(d.location, at) : d.location, related);
}

/**
 * `d` at `location` (and with `related`), its other members as they are. Written out member by
 * member, as `withSpan` is, where a spread would do: an edit in the middle of a large topology
 * moves a thousand findings through several stages, and V8 spreads objects of several shapes on
 * its slow path. A member absent from `d` stays absent (a deep comparison tells the two apart).
 */
export function relocated(d: Diagnostic, location: DiagnosticLocation, related: Diagnostic['related'] = d.related): Diagnostic {
  const out: Diagnostic = { code: d.code, severity: d.severity, message: d.message, location };
  if ('hint' in d) out.hint = d.hint;
  if (related !== undefined || 'related' in d) out.related = related;
  return out;
}

/** `location` at `span`, its other members as they are (see `relocated`). */
export function withSpan(location: DiagnosticLocation, span: Span): DiagnosticLocation {
  const out: DiagnosticLocation = {};
  if ('file' in location) out.file = location.file;
  out.span = span;
  if ('nodeId' in location) out.nodeId = location.nodeId;
  if ('cardRef' in location) out.cardRef = location.cardRef;
  if ('edge' in location) out.edge = location.edge;
  if ('path' in location) out.path = location.path;
  return out;
}

// Compile-time checks that `relocated` and `withSpan` copy every member there is.
const everyDiagnosticMember: Exclude<keyof Diagnostic, 'code' | 'severity' | 'message' | 'hint' | 'location' | 'related'> extends never ? true : never = true;
const everyLocationMember: Exclude<keyof DiagnosticLocation, 'file' | 'span' | 'nodeId' | 'cardRef' | 'edge' | 'path'> extends never ? true : never = true;
void everyDiagnosticMember;
void everyLocationMember;
