import type { Diagnostic, Severity } from './types';
import { isDiagnosticCode } from './registry';
import { diagnosticFamilies } from './render';

/** The user's choices: codes to drop, and severities to replace (CLI flags, server settings). */
export interface DiagnosticPolicy {
  readonly ignore?: readonly string[];
  readonly severity?: ReadonlyMap<string, Severity | 'off'>;
}

/**
 * Applies a policy. An entry may name a code (`bundle/orphan-card`) or a whole family
 * (`attractor/` or `attractor/*`); an exact code wins over its family.
 */
export function applyPolicy(diagnostics: readonly Diagnostic[], policy: DiagnosticPolicy): Diagnostic[] {
  const ignored = new Set((policy.ignore ?? []).map(normalizeSelector));
  const overrides = new Map<string, Severity | 'off'>();
  for (const [k, v] of policy.severity ?? []) overrides.set(normalizeSelector(k), v);
  // (no policy, the usual case: the list as it is, read once per publication of thousands)
  if (ignored.size === 0 && overrides.size === 0) return diagnostics.slice();
  const out: Diagnostic[] = [];
  for (const d of diagnostics) {
    const family = d.code.slice(0, d.code.indexOf('/') + 1);
    if (ignored.has(d.code) || ignored.has(family)) continue;
    const override = overrides.get(d.code) ?? overrides.get(family);
    if (override === 'off') continue;
    out.push(override ? { ...d, severity: override } : d);
  }
  return out;
}

function normalizeSelector(selector: string): string {
  const s = selector.trim();
  return s.endsWith('/*') ? s.slice(0, -1) : s;
}

/** Selectors that name neither a known code nor a known family (for a clear CLI message). */
export function unknownSelectors(selectors: readonly string[]): string[] {
  const families = new Set(diagnosticFamilies.map((f) => f.prefix));
  return selectors.filter((s) => {
    const n = normalizeSelector(s);
    return !(isDiagnosticCode(n) || families.has(n));
  });
}
