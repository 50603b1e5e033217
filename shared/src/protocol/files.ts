/**
 * The requests a language server without a file system of its own (the web build, in a Web
 * Worker) sends its client to read the workspace: list a folder, what a file is, a file's text.
 * The client answers from its editor's file system (`vscode.workspace.fs`), and tells the server
 * of changes with its file watcher (`workspace/didChangeWatchedFiles`), as any client does. See
 * docs/web.md.
 *
 * Plain names and shapes, shared by the server (server/src/client-files.ts) and the client
 * (client/src/files.ts); nothing here reads a file. Every answer is `null` when the file or
 * folder is missing or cannot be read.
 */

/** `{ uri }` → the folder's entries as `[name, type]` (type: `fileTypeBits`), or null. */
export const readDirectoryRequest = 'darkprint/files/readDirectory';

/** `{ uri }` → `{ type, size }` of the file or folder, symbolic links followed (type: `fileTypeBits`), or null. */
export const statRequest = 'darkprint/files/stat';

/** `{ uri, maxBytes }` → `{ text }` (UTF-8, a byte order mark kept), `{ tooLarge: true }` past `maxBytes`, or null. */
export const readFileRequest = 'darkprint/files/readFile';

/** The bits of an entry's type, as VS Code's `FileType` has them: a link to a folder is `directory | symbolicLink`. */
export const fileTypeBits = { file: 1, directory: 2, symbolicLink: 64 } as const;

export interface FileParams {
  readonly uri: string;
}

export interface ReadFileParams {
  readonly uri: string;
  /** The client answers `tooLarge` rather than the text of a larger file. */
  readonly maxBytes: number;
}

export type DirectoryAnswer = readonly (readonly [name: string, type: number])[] | null;

export type StatAnswer = { readonly type: number; readonly size: number } | null;

export type ReadFileAnswer = { readonly text: string } | { readonly tooLarge: true } | null;
