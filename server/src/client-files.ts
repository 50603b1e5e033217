/**
 * The client-backed `FileAccess` (./files.ts): the server asks its client for folders, sizes and
 * texts over the custom requests of shared/src/protocol/files.ts, and the client answers from its
 * editor's file system. The web build reads the workspace this way (./browser.ts); see
 * docs/web.md.
 *
 * Files are named by URI, of any scheme the client sends (`vscode-vfs:`, `vscode-remote:`,
 * `file:`...). The server's paths are made of them (`uriPath`): `scheme://authority/a/b` is the
 * POSIX path `/scheme/@authority/a/b`, the authority percent-encoded, so that a walk up from a
 * file never leaves its file system, and `uriOf` gives the URI back. A URI with a query or a
 * fragment, or whose path does not start with `/` (`untitled:Untitled-1`), names no file.
 *
 * The client cannot tell where a symbolic link leads (`vscode.workspace.fs` has no `realpath`),
 * so `realPath` is always unknown and the walk follows no link (it reports each as not
 * followed). Answers are checked before they are used: a malformed one counts as missing.
 */
import { fileTypeBits, readDirectoryRequest, readFileRequest, statRequest, type FileParams, type ReadFileParams } from '../../shared/src';
import type { FileAccess, FolderEntry } from './files';
import { posixPaths } from './posix-paths';

/** What the client-backed access needs of a connection: sending a request to the client. */
export interface RequestSender {
  sendRequest(method: string, params: unknown): Promise<unknown>;
}

export function clientFiles(client: RequestSender): FileAccess {
  /** The answer to a request, or undefined when the client failed or refused it. */
  const ask = async (method: string, params: FileParams | ReadFileParams): Promise<unknown> => {
    try {
      return await client.sendRequest(method, params);
    } catch {
      return undefined;
    }
  };
  return {
    paths: posixPaths,
    pathOf: uriPath,
    uriOf: (file) => pathUri(file) ?? `${unmappedScheme}:${encodePath(file)}`,
    readFolder: async (dir) => {
      const uri = pathUri(dir);
      if (uri === undefined) return [];
      const answer = await ask(readDirectoryRequest, { uri });
      if (!Array.isArray(answer)) return [];
      const out: FolderEntry[] = [];
      for (const entry of answer as unknown[]) {
        if (!Array.isArray(entry) || typeof entry[0] !== 'string' || typeof entry[1] !== 'number') continue;
        const [name, type] = entry as [string, number];
        if (name === '' || name === '.' || name === '..' || name.includes('/')) continue;
        const directory = (type & fileTypeBits.directory) !== 0;
        const file = (type & fileTypeBits.file) !== 0;
        const linked = (type & fileTypeBits.symbolicLink) !== 0;
        // (a link to nothing, as a walk with Node's `fs` leaves it out)
        if (linked && !directory && !file) continue;
        out.push({ name, directory, file, linked });
      }
      return out;
    },
    stat: async (file) => {
      const answer = await statOf(file);
      return answer === undefined ? undefined : { directory: (answer.type & fileTypeBits.directory) !== 0, file: (answer.type & fileTypeBits.file) !== 0, size: answer.size };
    },
    isLink: async (file) => {
      const answer = await statOf(file);
      return answer === undefined ? undefined : (answer.type & fileTypeBits.symbolicLink) !== 0;
    },
    realPath: async () => undefined,
    readText: async (file, maxBytes) => {
      const uri = pathUri(file);
      if (uri === undefined) return undefined;
      const answer = await ask(readFileRequest, { uri, maxBytes });
      if (typeof answer !== 'object' || answer === null) return undefined;
      const text: unknown = (answer as { text?: unknown }).text;
      return typeof text === 'string' ? text : undefined;
    },
  };

  async function statOf(file: string): Promise<{ type: number; size: number } | undefined> {
    const uri = pathUri(file);
    if (uri === undefined) return undefined;
    const answer = await ask(statRequest, { uri });
    if (typeof answer !== 'object' || answer === null) return undefined;
    const { type, size } = answer as { type?: unknown; size?: unknown };
    return typeof type === 'number' && typeof size === 'number' ? { type, size } : undefined;
  }
}

/** The scheme `uriOf` gives a path that names no URI (`/`, `/scheme`): no client reads it. */
const unmappedScheme = 'darkprint-unmapped';

/** The server's path of a URI (see the header), or undefined for a URI that names no file. */
export function uriPath(uri: string): string | undefined {
  const match = /^([A-Za-z][A-Za-z0-9+.-]*):(?:\/\/([^/?#]*))?([^?#]*)$/.exec(uri);
  if (match === null) return undefined;
  const [, scheme, authority = '', encoded] = match;
  if (!encoded.startsWith('/') || scheme.toLowerCase() === unmappedScheme) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(encoded);
  } catch {
    return undefined;
  }
  // (`..` in the path stays below the authority: the walk up from a file ends there)
  const inside = posixPaths.resolve(decoded);
  return `/${scheme.toLowerCase()}/@${encodeURIComponent(authority)}${inside === '/' ? '' : inside}`;
}

/** The URI of a path made by `uriPath`, or undefined for a path above any authority (`/`, `/scheme`). */
export function pathUri(file: string): string | undefined {
  const match = /^\/([a-z][a-z0-9+.-]*)\/@([^/]*)(\/.*)?$/.exec(posixPaths.resolve(file));
  if (match === null) return undefined;
  const [, scheme, authority, rest = '/'] = match;
  let host: string;
  try {
    host = decodeURIComponent(authority);
  } catch {
    return undefined;
  }
  return `${scheme}://${host}${encodePath(rest)}`;
}

/** A path percent-encoded for a URI: every character but `/` and RFC 3986's path characters. */
function encodePath(file: string): string {
  // (a lone surrogate, which no URI can spell, is written as U+FFFD)
  const wellFormed = file.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
  return wellFormed.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/]+/g, (run) => encodeURIComponent(run));
}
