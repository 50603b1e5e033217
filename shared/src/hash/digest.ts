/**
 * Digests (docs/compatibility.md#digests): SHA-256 over the UTF-8 bytes of canonical JSON, as
 * `sha256:<64 hex>`. Card digest = the validated camelCase model minus author and provenance;
 * blueprint digest =
 * `{ cardDigests (sorted, one per resolved node), dot (the raw topology text) }`.
 */
import { canonicalJson } from './canonical';
import { sha256Hex } from './sha256-native';

export { sha256Hex };

/**
 * A card's digest. Typed by what it leaves out, not as the card model, so that the hashing
 * layer stays below the folders that define and read cards (any card model passes).
 */
export function cardDigest(card: { readonly author?: unknown; readonly provenance?: unknown }): string {
  const { author: _author, provenance: _provenance, ...hashed } = card;
  return `sha256:${sha256Hex(canonicalJson(hashed))}`;
}

export function blueprintDigest(dot: string, cardDigests: readonly string[]): string {
  const sorted = [...cardDigests].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `sha256:${sha256Hex(canonicalJson({ cardDigests: sorted, dot }))}`;
}

export function shortDigest(digest: string): string {
  return digest.slice(0, 'sha256:'.length + 8);
}
