/**
 * Digests (E§6): SHA-256 over the UTF-8 bytes of canonical JSON, as `sha256:<64 hex>`.
 * Card digest = the validated camelCase model minus author and provenance; blueprint digest =
 * `{ cardDigests (sorted, one per resolved node), dot (the raw topology text) }`.
 */
import { createHash } from 'node:crypto';
import type { Card } from '../bundle/card-model';
import { canonicalJson } from './canonical';

export function sha256Hex(text: string): string {
  // Node encodes lone surrogates as U+FFFD, as E§6 requires.
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function cardDigest(card: Card): string {
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
