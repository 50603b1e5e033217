/**
 * The bytes of a publication: `JSON.stringify` of `{ uri, diagnostics, version? }` as UTF-8
 * pieces, joined from each diagnostic's kept JSON (see `Converted` in ./publish-reuse.ts) instead
 * of serialising the whole list again; ./wire.ts writes them on stream transports.
 */
import type { PublishDiagnosticsParams } from 'vscode-languageserver';
import { rangeHead } from './convert';
import type { Converted } from './publish-reuse';

/**
 * `JSON.stringify` of the publication `{ uri, diagnostics, version? }` as UTF-8 pieces: each
 * diagnostic's kept JSON (its head, then its tail with the comma after it) between the opening
 * and the closing of the list.
 */
export function publicationJson(uri: string, converted: readonly Converted[], version: number | undefined): Uint8Array[] {
  encodeHeads(converted);
  const parts: Uint8Array[] = [Buffer.from(`{"uri":${JSON.stringify(uri)},"diagnostics":[`)];
  for (let i = 0; i < converted.length; i++) {
    const entry = converted[i];
    if (entry.head === undefined || entry.tail === undefined) {
      const json = JSON.stringify(entry.lsp);
      const head = rangeHead(entry.lsp.range);
      // (a diagnostic that does not start with its range, which the converter never makes, is one piece)
      const split = json.startsWith(head) ? head.length : json.length;
      entry.head = Buffer.from(json.slice(0, split));
      entry.tail = Buffer.from(`${json.slice(split)},`);
    }
    // (each tail ends with the comma that goes after it in a list: the last is written without it)
    parts.push(entry.head as Uint8Array, i < converted.length - 1 ? entry.tail : entry.tail.subarray(0, entry.tail.length - 1));
  }
  parts.push(Buffer.from(`]${version !== undefined ? `,"version":${JSON.stringify(version)}` : ''}}`));
  return parts;
}

/** The JSON of a publication that clears a file (an empty list), written directly. */
export function emptyPublicationJson(params: PublishDiagnosticsParams): Uint8Array[] {
  return [Buffer.from(JSON.stringify(params))];
}

/**
 * Encodes the heads kept as text (ASCII: see `rangeHead`) a few thousand bytes at a time, each
 * head then a view of its block: a thousand findings move on an edit in the middle of a topology,
 * and encoding each head on its own cost more than the rest of moving it. (A block stays alive
 * while one of its heads does, as the pool `Buffer.from` takes small buffers from does: blocks
 * of the pool's size keep as little alive as it would.)
 */
function encodeHeads(converted: readonly Converted[]): void {
  let text = '';
  let first = 0;
  const flush = (end: number): void => {
    const bytes = Buffer.from(text, 'latin1');
    let at = 0;
    for (let i = first; i < end; i++) {
      const entry = converted[i];
      const head = entry.head;
      if (typeof head !== 'string') continue;
      entry.head = bytes.subarray(at, at + head.length);
      at += head.length;
    }
    text = '';
  };
  for (let i = 0; i < converted.length; i++) {
    const head = converted[i].head;
    if (typeof head !== 'string') continue;
    if (text.length === 0) first = i;
    text += head;
    if (text.length >= headBlockSize) flush(i + 1);
  }
  if (text.length > 0) flush(converted.length);
}

/**
 * How many bytes of heads `encodeHeads` encodes at once: the size of the pool small buffers come
 * from (Node's `Buffer.poolSize`, written out: the module also loads where there is no `Buffer`).
 */
const headBlockSize = 8 * 1024;
