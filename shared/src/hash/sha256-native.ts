/**
 * SHA-256 of a string's UTF-8 bytes as lowercase hex, by Node's `crypto`. The web build takes
 * ./sha256.ts in its place (shared/package.json's `browser` field): same digests, no Node.
 */
import * as crypto from 'node:crypto';

/**
 * The one-shot `crypto.hash` (Node 20.12+, several times faster than a `Hash` object for the
 * small texts of cards); older runtimes (an editor's bundled Node) fall back to `createHash`.
 */
const oneShot: ((algorithm: string, data: string, encoding: 'hex') => string) | undefined =
  typeof (crypto as { hash?: unknown }).hash === 'function' ? (crypto as { hash: (algorithm: string, data: string, encoding: 'hex') => string }).hash : undefined;

export function sha256Hex(text: string): string {
  // Node encodes lone surrogates as U+FFFD (both ways), as DarkPrint's digests do
  // (docs/compatibility.md#canonical-json).
  return oneShot !== undefined ? oneShot('sha256', text, 'hex') : crypto.createHash('sha256').update(text, 'utf8').digest('hex');
}
