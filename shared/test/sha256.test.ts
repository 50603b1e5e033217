/**
 * The plain-TypeScript SHA-256 (shared/src/hash/sha256.ts), which the web build uses in place of
 * Node's `crypto` (shared/package.json `browser`), gives the same digests as Node's, for any text:
 * the standard's test vectors, lengths around the 64-byte block boundaries, and random strings
 * with astral characters and lone surrogates (both encode those as U+FFFD).
 */
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { sha256Hex as plain } from '../src/hash/sha256';
import { sha256Hex as native } from '../src/hash/sha256-native';

describe('engine: SHA-256 without Node', function () {
  it('gives the standard test vectors', function () {
    assert.equal(plain(''), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    assert.equal(plain('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    assert.equal(plain('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq'), '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1');
  });

  it('agrees with Node’s crypto on every length around the block boundaries', function () {
    for (let length = 0; length <= 200; length++) {
      const text = 'é'.repeat(length % 3) + 'x'.repeat(length);
      assert.equal(plain(text), native(text), `length ${length}`);
    }
  });

  it('agrees with Node’s crypto on any string, lone surrogates included', function () {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => plain(text) === native(text)),
      { numRuns: 2000, seed: 20240611 },
    );
    fc.assert(
      fc.property(fc.array(fc.constantFrom('a', '\uD83D', '\uDE00', '😀', 'é', '\u0000', '\uFFFF'), { maxLength: 80 }), (parts) => plain(parts.join('')) === native(parts.join(''))),
      { numRuns: 2000, seed: 20240611 },
    );
  });
});
