/**
 * Digests (E§6): SHA-256 over the UTF-8 bytes of canonical JSON, as `sha256:<64 hex>`.
 * Card digest = the validated camelCase model minus author and provenance; blueprint digest =
 * `{ cardDigests (sorted, one per resolved node), dot (the raw topology text) }`.
 */
import * as crypto from 'node:crypto';
import { canonicalJson } from './canonical';

/**
 * The one-shot `crypto.hash` (Node 20.12+, several times faster than a `Hash` object for the
 * small texts of cards); older runtimes (an editor's bundled Node) fall back to `createHash`.
 */
const oneShot: ((algorithm: string, data: string, encoding: 'hex') => string) | undefined =
  typeof (crypto as { hash?: unknown }).hash === 'function' ? (crypto as { hash: (algorithm: string, data: string, encoding: 'hex') => string }).hash : undefined;

export function sha256Hex(text: string): string {
  // Node encodes lone surrogates as U+FFFD (both ways), as E§6 requires.
  return oneShot !== undefined ? oneShot('sha256', text, 'hex') : crypto.createHash('sha256').update(text, 'utf8').digest('hex');
}

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
