/** Hashing: canonical JSON and the card/blueprint digests (docs/compatibility.md#digests). Must not know: files, the DOT syntax. */
export * from './canonical';
export * from './digest';
