/** Card references `id@version` as DOT nodes pin them (docs/compatibility.md#pins). */

/** Card id: lowercase words joined by hyphens, with at most one `namespace/` segment. */
export const cardIdPattern = /^(?:[a-z0-9]+(?:-[a-z0-9]+)*\/)?[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** The loose version accepted inside a pin (`latest` is rejected: it must start with a digit). */
export const pinVersionPattern = /^[0-9][0-9A-Za-z.+-]*$/;
/** Strict semver (semver.org): no `v`, no leading zeros, optional prerelease and build. */
export const strictSemverPattern =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

export interface CardRef {
  readonly id: string;
  readonly version: string;
}

export function parseCardRef(raw: string): CardRef | undefined {
  const text = raw.trim();
  const at = text.lastIndexOf('@');
  if (at <= 0 || at === text.length - 1) return undefined;
  const id = text.slice(0, at);
  const version = text.slice(at + 1);
  if (!cardIdPattern.test(id) || !pinVersionPattern.test(version)) return undefined;
  return { id, version };
}

/**
 * [decision] (docs/compatibility.md#pins): a pin whose version is not exact (`1.x`, `^1.0.0`,
 * `~1.2`, `*`, a range, `latest`) is `bundle/unpinned-card`. DarkPrint's loose pattern accepts
 * `1.x`; we additionally require strict semver inside a pin, so `1.x` is unpinned rather than a
 * missing card.
 */
export function isExactVersion(version: string): boolean {
  return strictSemverPattern.test(version.trim());
}

export function formatRef(ref: CardRef): string {
  return `${ref.id}@${ref.version}`;
}
