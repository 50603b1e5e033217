/**
 * Version bumps (docs/compatibility.md#version-bumps): which bump a change from one card version to
 * the next requires, which bump two version strings declare, and the check over every pair of
 * consecutive versions of one card id in a bundle (`card/version-bump-too-small`).
 *
 * The rule lines, in the order they are tested:
 * - major: id or type changed; an input or output removed (a rename is a removal plus an
 *   addition); a port's type changed; an input turned from optional to required; a required
 *   input added (`required` absent means required); an entry added to `cannot`; an entry
 *   withdrawn from `will_not`.
 * - minor: a phase added or withdrawn; an optional input or any output added; a tool, mcp
 *   entry, risk marker or dependency added; an entry withdrawn from `cannot` or added to
 *   `will_not`; a params key added; `model`, `spec` or `skill` changed (set, unset, altered).
 * - patch: an input turned from required to optional; a port description changed (absent
 *   counts as empty); ports reordered with the same names; a tool, mcp entry, risk marker or
 *   dependency removed; a pure reorder of tools, mcp, risk_markers, dependencies, phases,
 *   cannot or will_not; a params key removed or its value changed (compared as canonical
 *   JSON); `agent`, `name`, `action` or `notes` changed.
 * - otherwise, any difference in the card minus version, author and provenance (canonical
 *   JSON) is a patch ("card content changed"); no difference is `none`.
 */
import type { Card, CardLocator, JsonValue, Port } from '../card/card-model';
import type { Diagnostic } from '../diagnostics';
import { canonicalJson } from '../hash/canonical';
import { bumpRankOf, compareSemver, compareVersionStrings, lowestVersionFor, parseSemver, type BumpLevel } from './semver';

export type { BumpLevel } from './semver';

export interface BumpReason {
  readonly level: Exclude<BumpLevel, 'none'>;
  readonly text: string;
}

export interface BumpInference {
  readonly level: BumpLevel;
  /** Strongest first; within one level, in the order the rules found them. */
  readonly reasons: readonly BumpReason[];
}

/** The bump the change from `previous` to `next` requires. */
export function inferBump(previous: Card, next: Card): BumpInference {
  const found: BumpReason[] = [];
  const push = (level: BumpReason['level'], text: string): void => {
    found.push({ level, text });
  };

  if (previous.id !== next.id) push('major', `the id changes from \`${previous.id}\` to \`${next.id}\``);
  if (previous.type !== next.type) push('major', `the type changes from \`${previous.type}\` to \`${next.type}\``);
  comparePorts('input', previous.inputs, next.inputs, push);
  comparePorts('output', previous.outputs, next.outputs, push);
  compareList(previous.cannot, next.cannot, 'cannot', { added: 'major', removed: 'minor' }, push);
  compareList(previous.willNot, next.willNot, 'will_not', { added: 'minor', removed: 'major' }, push);
  compareList(previous.phases, next.phases, 'phase', { added: 'minor', removed: 'minor' }, push);
  compareList(previous.tools, next.tools, 'tools', { added: 'minor', removed: 'patch' }, push);
  compareList(previous.mcp, next.mcp, 'mcp', { added: 'minor', removed: 'patch' }, push);
  compareList(previous.riskMarkers, next.riskMarkers, 'risk_markers', { added: 'minor', removed: 'patch' }, push);
  compareList(previous.dependencies, next.dependencies, 'dependencies', { added: 'minor', removed: 'patch' }, push);
  compareParams(previous.params, next.params, push);
  if (previous.model !== next.model) push('minor', `\`model\` changes from ${showText(previous.model)} to ${showText(next.model)}`);
  if (previous.spec !== next.spec) push('minor', '`spec` changes, so the agent receives different instructions');
  if (previous.skill !== next.skill) push('minor', `\`skill\` changes from ${showText(previous.skill)} to ${showText(next.skill)}`);
  if (previous.agent !== next.agent) push('patch', `\`agent\` changes from ${showText(previous.agent)} to ${showText(next.agent)}`);
  if (previous.name !== next.name) push('patch', `\`name\` changes from ${showText(previous.name)} to ${showText(next.name)}`);
  if (previous.action !== next.action) push('patch', '`action` changes');
  if (previous.notes !== next.notes) push('patch', '`notes` change');

  if (found.length === 0) {
    return contentOf(previous) === contentOf(next)
      ? { level: 'none', reasons: [] }
      : { level: 'patch', reasons: [{ level: 'patch', text: 'the card content changes' }] };
  }
  const reasons = found
    .map((reason, index) => ({ reason, index }))
    .sort((a, b) => bumpRankOf(b.reason.level) - bumpRankOf(a.reason.level) || a.index - b.index)
    .map((entry) => entry.reason);
  return { level: reasons[0].level, reasons };
}

/**
 * The bump two version strings declare: `none` when either is not strict semver or `next`
 * does not come after `previous`; otherwise the highest release component that differs
 * (a prerelease promoted to its release counts as a patch).
 */
export function declaredBump(previousVersion: string, nextVersion: string): BumpLevel {
  const before = parseSemver(previousVersion);
  const after = parseSemver(nextVersion);
  if (!before || !after || compareSemver(after, before) <= 0) return 'none';
  if (after.major !== before.major) return 'major';
  if (after.minor !== before.minor) return 'minor';
  return 'patch';
}

/** True when the declared bump is at least as strong as the required one. */
export function bumpSatisfies(declared: BumpLevel, required: BumpLevel): boolean {
  return bumpRankOf(declared) >= bumpRankOf(required);
}

export interface VersionedCard {
  /** The card file, relative to the bundle folder. */
  readonly file: string;
  readonly card: Card;
  readonly locate: CardLocator;
}

/**
 * `card/version-bump-too-small` for every pair of consecutive versions of one card id (cards
 * of several ids may be passed together). Versions are ordered by semver precedence; two
 * entries with the same version string are not compared (a duplicate `id@version` is the
 * resolver's `bundle/digest-mismatch`). The diagnostic sits on the newer card's `version` value.
 */
export function checkVersionChain(cards: readonly VersionedCard[]): Diagnostic[] {
  const byId = new Map<string, VersionedCard[]>();
  for (const entry of cards) {
    const group = byId.get(entry.card.id);
    if (group) group.push(entry);
    else byId.set(entry.card.id, [entry]);
  }
  const diagnostics: Diagnostic[] = [];
  for (const group of byId.values()) {
    if (group.length < 2) continue;
    const ordered = [...group].sort((a, b) => compareVersionStrings(a.card.version, b.card.version));
    for (let i = 1; i < ordered.length; i++) {
      const previous = ordered[i - 1];
      const next = ordered[i];
      if (previous.card.version === next.card.version) continue;
      const diagnostic = checkBump(previous, next);
      if (diagnostic) diagnostics.push(diagnostic);
    }
  }
  return diagnostics;
}

/** The finding for one pair, or undefined when the declared bump is enough. */
export function checkBump(previous: VersionedCard, next: VersionedCard): Diagnostic | undefined {
  const required = inferBump(previous.card, next.card);
  const declared = declaredBump(previous.card.version, next.card.version);
  if (bumpSatisfies(declared, required.level)) return undefined;
  const ref = `${next.card.id}@${next.card.version}`;
  const strongest = required.reasons.filter((r) => r.level === required.level);
  const shown = strongest.slice(0, maxReasonsShown).map((r) => r.text);
  const more = strongest.length - shown.length;
  const why = shown.join('; ') + (more > 0 ? `; and ${more} more` : '');
  const declaredText =
    declared === 'none'
      ? `\`${ref}\` does not move past \`${previous.card.version}\``
      : `\`${ref}\` is only a ${declared} bump over \`${previous.card.version}\``;
  const target = lowestVersionFor(previous.card.version, required.level);
  const fix = target ? `set \`version\` to \`${target}\` or higher` : 'raise `version`';
  return {
    code: 'card/version-bump-too-small',
    severity: 'error',
    message: `${declaredText}, but its changes need a ${required.level} bump (${why}); ${fix}.`,
    ...(target ? { hint: `The lowest version that satisfies the changes is \`${target}\`.` } : {}),
    location: { file: next.file, span: next.locate('version', 'value'), path: 'version', cardRef: ref },
    related: [
      {
        file: previous.file,
        span: previous.locate('version', 'value'),
        message: `the previous version, ${previous.card.id}@${previous.card.version}`,
      },
    ],
  };
}

const maxReasonsShown = 3;
/** Values quoted in reasons are cut to this many characters, followed by an ellipsis. */
const maxShown = 40;

type Push = (level: BumpReason['level'], text: string) => void;

function truncate(text: string): string {
  return text.length > maxShown ? `${text.slice(0, maxShown)}…` : text;
}

function showText(value: string | undefined): string {
  return value === undefined ? 'nothing' : JSON.stringify(truncate(value));
}

/** Canonical JSON that never throws: a value with no JSON form falls back to a plain rendering. */
function stable(value: unknown): string {
  try {
    return canonicalJson(value);
  } catch {
    try {
      return JSON.stringify(value) ?? 'undefined';
    } catch {
      return '(unrepresentable)';
    }
  }
}

function showValue(value: JsonValue | undefined): string {
  return truncate(stable(value));
}

function isRequired(port: Port): boolean {
  return port.required !== false;
}

/** Ports by name; the first declaration wins (a duplicate is the card reader's finding). */
function portsByName(ports: readonly Port[]): Map<string, Port> {
  const map = new Map<string, Port>();
  for (const port of ports) if (!map.has(port.name)) map.set(port.name, port);
  return map;
}

function comparePorts(side: 'input' | 'output', previous: readonly Port[], next: readonly Port[], push: Push): void {
  const before = portsByName(previous);
  const after = portsByName(next);
  for (const [name, port] of before) {
    const updated = after.get(name);
    if (!updated) {
      push('major', `${side} \`${name}\` is removed`);
      continue;
    }
    if (updated.type !== port.type) push('major', `${side} \`${name}\` changes type from \`${port.type}\` to \`${updated.type}\``);
    if (side === 'input') {
      if (!isRequired(port) && isRequired(updated)) push('major', `input \`${name}\` becomes required`);
      else if (isRequired(port) && !isRequired(updated)) push('patch', `input \`${name}\` becomes optional`);
    }
    if ((port.description ?? '') !== (updated.description ?? '')) push('patch', `the description of ${side} \`${name}\` changes`);
  }
  for (const [name, port] of after) {
    if (before.has(name)) continue;
    if (side === 'output') push('minor', `output \`${name}\` is added`);
    else if (isRequired(port)) push('major', `required input \`${name}\` is added`);
    else push('minor', `optional input \`${name}\` is added`);
  }
  const sameNames = before.size === after.size && [...before.keys()].every((name) => after.has(name));
  if (sameNames && !sameSequence(previous.map((p) => p.name), next.map((p) => p.name))) {
    push('patch', `the ${side}s are reordered`);
  }
}

function compareList(
  previous: readonly string[],
  next: readonly string[],
  field: string,
  levels: { readonly added: BumpReason['level']; readonly removed: BumpReason['level'] },
  push: Push,
): void {
  const before = new Set(previous);
  const after = new Set(next);
  const removed = new Set<string>();
  for (const value of previous) {
    if (after.has(value) || removed.has(value)) continue;
    removed.add(value);
    push(levels.removed, `\`${field}\` loses \`${truncate(value)}\``);
  }
  const added = new Set<string>();
  for (const value of next) {
    if (before.has(value) || added.has(value)) continue;
    added.add(value);
    push(levels.added, `\`${field}\` gains \`${truncate(value)}\``);
  }
  const sameMembers = previous.length === next.length && removed.size === 0 && added.size === 0;
  if (sameMembers && !sameSequence(previous, next)) push('patch', `the entries of \`${field}\` are reordered`);
}

function compareParams(previous: Card['params'], next: Card['params'], push: Push): void {
  const has = (record: Card['params'], key: string): boolean => Object.prototype.hasOwnProperty.call(record, key);
  for (const key of Object.keys(previous)) {
    if (!has(next, key)) push('patch', `parameter \`${key}\` is removed`);
  }
  for (const key of Object.keys(next)) {
    if (!has(previous, key)) {
      push('minor', `parameter \`${key}\` is added`);
      continue;
    }
    const before = stable(previous[key]);
    const after = stable(next[key]);
    if (before !== after) push('patch', `parameter \`${key}\` changes from ${showValue(previous[key])} to ${showValue(next[key])}`);
  }
}

function sameSequence(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

/** The card minus the fields that play no part in a bump. */
function contentOf(card: Card): string {
  const { version: _version, author: _author, provenance: _provenance, ...content } = card;
  return stable(content);
}
