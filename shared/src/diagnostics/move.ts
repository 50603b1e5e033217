/**
 * A finding after an edit: its spans in `file` (its location and its related locations there)
 * moved by `move`, the same object when none moves. Used by every stage that carries findings
 * over an edit instead of computing them again (the parser's rejoin, the resolver's carry-over).
 */
import type { Span } from '../text';
import type { Diagnostic, RelatedInformation } from './types';

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
  return { ...d, location: { ...d.location, ...(at !== undefined ? { span: at } : {}) }, ...(related !== undefined ? { related } : {}) };
}
