/**
 * THE seam between the server and the file system: everything the server reads from disk (the
 * workspace scan, the files of a bundle that are not open, the folders a watched-file event
 * names) goes through one `FileAccess`, and so does how it names files (paths and URIs).
 *
 *   ./workspace.ts     the Node implementation: `node:fs` and `node:path`, `file:` URIs only
 *   ./client-files.ts  the client-backed implementation: the client answers with its editor's
 *                      file system (`vscode.workspace.fs`), any URI scheme; used by the web build
 *
 * What is read, in which order and within which limits is decided once, above this seam, in
 * ./bundle-files.ts (see docs/web.md for what differs when the client answers). An
 * implementation never throws: a missing, vanished or unreadable file or folder is `undefined`
 * (or an empty listing).
 */

/** The path operations of one kind of path (Node's `path`, or the POSIX paths of ./posix-paths.ts). */
export interface Paths {
  /** The separator between a path's parts. */
  readonly sep: string;
  join(...parts: string[]): string;
  resolve(...parts: string[]): string;
  relative(from: string, to: string): string;
  dirname(file: string): string;
  basename(file: string): string;
  isAbsolute(file: string): boolean;
}

/** A folder entry, a symbolic link taken as what it points at. */
export interface FolderEntry {
  readonly name: string;
  readonly directory: boolean;
  readonly file: boolean;
  /** True for an entry reached through a symbolic link (a walk decides whether to follow it). */
  readonly linked: boolean;
}

/** What a file or folder is, a symbolic link followed. */
export interface FileStat {
  readonly directory: boolean;
  readonly file: boolean;
  /** Bytes (of a file). */
  readonly size: number;
}

export interface FileAccess {
  readonly paths: Paths;
  /** The absolute path a URI names, or undefined for a URI this file system does not hold (or a malformed one). */
  pathOf(uri: string): string | undefined;
  /** The URI of an absolute path (the inverse of `pathOf`). */
  uriOf(file: string): string;
  /** The entries of a folder, links taken as what they point at and links to nothing left out; empty when it cannot be listed. */
  readFolder(dir: string): Promise<FolderEntry[]>;
  /** What `file` is, links followed; undefined when it is missing or unreadable. */
  stat(file: string): Promise<FileStat | undefined>;
  /** Whether `file` itself is a symbolic link; undefined when it is missing. */
  isLink(file: string): Promise<boolean | undefined>;
  /**
   * The real path of `file` (every link resolved), or undefined when it is missing or the file
   * system cannot tell (a walk then follows no link: see ./bundle-files.ts `linkGuard`).
   */
  realPath(file: string): Promise<string | undefined>;
  /**
   * The text of a file read as UTF-8 (a byte order mark kept), or undefined when it is missing,
   * unreadable, or larger than `maxBytes`.
   */
  readText(file: string, maxBytes: number): Promise<string | undefined>;
}

/** The bytes of `text` in UTF-8 (a lone surrogate counts as U+FFFD, 3 bytes, as encoders write it). */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      // a surrogate pair: two code units, four bytes
      bytes += 2;
      i++;
    } else bytes += 2;
  }
  return bytes;
}
