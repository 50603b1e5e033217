/**
 * Semantic versions (docs/compatibility.md#field-rules, semver.org §11).
 *
 * A card's own `version` must be strict semver; a DOT pin only has to look like a version
 * (the loose pattern from ../card/card-ref.ts). Ordering follows semver §11: release
 * components numerically, then a prerelease sorts below its release, identifiers compare
 * left to right, numeric identifiers numerically and below alphanumeric ones, and a shorter
 * identifier list sorts first when the rest is equal. Build metadata never affects order.
 */
import { compareCodeUnits } from '../diagnostics';
import { pinVersionPattern, strictSemverPattern } from '../card/card-ref';

export interface Semver {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
  /** Dot-separated identifiers after `-`; empty for a release. */
  readonly prerelease: readonly string[];
  /** Dot-separated identifiers after `+`; kept for display, ignored by comparison. */
  readonly build: readonly string[];
}

/**
 * Strict parse: exactly the semver.org grammar, no `v`, no leading zeros, no surrounding
 * whitespace. Components are JavaScript numbers, so a component beyond 2^53 parses but
 * compares approximately (no card has one).
 */
export function parseSemver(text: string): Semver | undefined {
  const match = strictSemverPattern.exec(text);
  if (!match) return undefined;
  return {
    major: Number(match[1]),
    minor: Number(match[2]),
    patch: Number(match[3]),
    prerelease: match[4] === undefined ? [] : match[4].split('.'),
    build: match[5] === undefined ? [] : match[5].split('.'),
  };
}

/** Renders `major.minor.patch[-prerelease][+build]`. */
export function formatSemver(version: Semver): string {
  const core = `${version.major}.${version.minor}.${version.patch}`;
  const pre = version.prerelease.length > 0 ? `-${version.prerelease.join('.')}` : '';
  const build = version.build.length > 0 ? `+${version.build.join('.')}` : '';
  return core + pre + build;
}

/** Negative when `a` precedes `b`, zero when they have the same precedence, positive otherwise. */
export function compareSemver(a: Semver, b: Semver): number {
  return (
    compareNumbers(a.major, b.major) ||
    compareNumbers(a.minor, b.minor) ||
    compareNumbers(a.patch, b.patch) ||
    comparePrerelease(a.prerelease, b.prerelease)
  );
}

/**
 * Orders raw version strings: valid versions by precedence, every unparseable string below
 * every valid one, unparseable strings among themselves by UTF-16 code units (a total order).
 */
export function compareVersionStrings(a: string, b: string): number {
  const left = parseSemver(a);
  const right = parseSemver(b);
  if (left && right) return compareSemver(left, right);
  if (left) return 1;
  if (right) return -1;
  return compareCodeUnits(a, b);
}

/** True for a strict semver string. */
export function isStrictSemver(text: string): boolean {
  return strictSemverPattern.test(text);
}

/**
 * The loose version a card reference accepts after `@` (docs/compatibility.md#pins): it starts
 * with a digit and holds only letters, digits, `.`, `+` and `-` (so `latest` is rejected).
 */
export function isLooseVersion(text: string): boolean {
  return pinVersionPattern.test(text);
}

export type BumpLevel = 'none' | 'patch' | 'minor' | 'major';

const bumpRank: Record<BumpLevel, number> = { none: 0, patch: 1, minor: 2, major: 3 };

export function bumpRankOf(level: BumpLevel): number {
  return bumpRank[level];
}

/**
 * The lowest release that is a `level` bump over `previous`, prerelease and build dropped:
 * `major+1.0.0`, `x.minor+1.0`, `x.y.patch+1`. Undefined for `none` or an unparseable version.
 */
export function lowestVersionFor(previous: string, level: BumpLevel): string | undefined {
  const version = parseSemver(previous);
  if (!version) return undefined;
  switch (level) {
    case 'none':
      return undefined;
    case 'major':
      return `${version.major + 1}.0.0`;
    case 'minor':
      return `${version.major}.${version.minor + 1}.0`;
    case 'patch':
      return `${version.major}.${version.minor}.${version.patch + 1}`;
    default:
      return assertNever(level);
  }
}

function compareNumbers(a: number, b: number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

const numericIdentifier = /^[0-9]+$/;

function comparePrerelease(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return b.length - a.length; // a release ranks above any prerelease
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    const xNumeric = numericIdentifier.test(x);
    const yNumeric = numericIdentifier.test(y);
    if (xNumeric && yNumeric) {
      // Strict semver forbids leading zeros, so the longer digit string is the larger number.
      return x.length !== y.length ? x.length - y.length : compareCodeUnits(x, y);
    }
    if (xNumeric) return -1;
    if (yNumeric) return 1;
    return compareCodeUnits(x, y);
  }
  return a.length - b.length;
}

function assertNever(value: never): never {
  throw new Error(`unexpected value ${String(value)}`);
}
