/**
 * The extension's answers to a language server that reads the workspace through it (the web
 * build: server/src/client-files.ts): a folder's entries, what a file is, a file's text, from
 * `vscode.workspace.fs`, so from any file system VS Code mounts (github.dev's, code-server's
 * remote one, a local folder in vscode.dev). The requests are shared/src/protocol/files.ts; see
 * docs/web.md. A file or folder that is missing or cannot be read is answered `null`.
 */
import * as vscode from 'vscode';
import type { BaseLanguageClient } from 'vscode-languageclient';
import { readDirectoryRequest, readFileRequest, statRequest, type DirectoryAnswer, type ReadFileAnswer, type StatAnswer } from '../../shared/src';

export function answerFileRequests(client: BaseLanguageClient): vscode.Disposable {
  // (a text decoded as Node's `fs` would: a byte order mark kept, for the server to hide as it does for the disk)
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  return vscode.Disposable.from(
    client.onRequest(readDirectoryRequest, async (params: unknown): Promise<DirectoryAnswer> => {
      const uri = uriParam(params);
      if (uri === undefined) return null;
      try {
        return await vscode.workspace.fs.readDirectory(uri);
      } catch {
        return null;
      }
    }),
    client.onRequest(statRequest, async (params: unknown): Promise<StatAnswer> => {
      const uri = uriParam(params);
      if (uri === undefined) return null;
      try {
        const stat = await vscode.workspace.fs.stat(uri);
        return { type: stat.type, size: stat.size };
      } catch {
        return null;
      }
    }),
    client.onRequest(readFileRequest, async (params: unknown): Promise<ReadFileAnswer> => {
      const uri = uriParam(params);
      const maxBytes: unknown = typeof params === 'object' && params !== null ? (params as { maxBytes?: unknown }).maxBytes : undefined;
      if (uri === undefined || typeof maxBytes !== 'number') return null;
      try {
        // (read at once: the server asks for a file's size before its text, and for the text only of
        // a file within the limit, so a stat here would only cost another round trip; a file grown
        // past the limit since is answered `tooLarge`)
        const bytes = await vscode.workspace.fs.readFile(uri);
        return bytes.length > maxBytes ? { tooLarge: true } : { text: decoder.decode(bytes) };
      } catch {
        return null;
      }
    }),
  );
}

/** The `uri` of a request's parameters, parsed; undefined when it is missing or malformed. */
function uriParam(params: unknown): vscode.Uri | undefined {
  const uri: unknown = typeof params === 'object' && params !== null ? (params as { uri?: unknown }).uri : undefined;
  if (typeof uri !== 'string') return undefined;
  try {
    return vscode.Uri.parse(uri, true);
  } catch {
    return undefined;
  }
}
