/** Hashing: canonical JSON and the card/blueprint digests (E§6). Must not know: files, the DOT syntax. */
export * from './canonical';
export * from './digest';
