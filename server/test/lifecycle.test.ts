/**
 * The protocol's lifecycle, over stdio with a bare client: a request before `initialize` gets
 * ServerNotInitialized and a notification then is dropped; `initialize` is taken once; after
 * `shutdown` requests get InvalidRequest and notifications change nothing; `exit` ends the
 * process with 0. Malformed notifications are ignored without an internal error.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  ErrorCodes,
  ResponseError,
  StreamMessageReader,
  StreamMessageWriter,
  type LogMessageParams,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import { builtServer } from './support/lsp-client';

/** The error code a request was answered with (undefined when it was answered with a result). */
async function errorCode(request: Promise<unknown>): Promise<number | undefined> {
  try {
    await request;
    return undefined;
  } catch (error) {
    if (error instanceof ResponseError) return error.code;
    throw error;
  }
}

describe('server: lifecycle', function () {
  it('refuses requests before initialize and after shutdown, and drops notifications then', async function () {
    const dir = mkdtempSync(path.join(tmpdir(), 'darkprint-lifecycle-'));
    const topology = path.join(dir, 'topology.dot');
    writeFileSync(topology, 'digraph g {\n  a [card="missing@1.0.0"];\n}\n');
    const uri = pathToFileURL(topology).href;
    const child = spawn(process.execPath, [await builtServer(), '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
    const connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    const publications: PublishDiagnosticsParams[] = [];
    const logs: string[] = [];
    connection.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) => publications.push(params));
    connection.onNotification('window/logMessage', (params: LogMessageParams) => logs.push(params.message));
    connection.onRequest('workspace/configuration', (params: { items: unknown[] }) => params.items.map(() => ({ debounceMs: 0 })));
    const registered: unknown[] = [];
    connection.onRequest('client/registerCapability', (params: unknown) => {
      registered.push(params);
      return null;
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    connection.listen();
    try {
      const hover = { textDocument: { uri }, position: { line: 1, character: 3 } };
      assert.equal(await errorCode(connection.sendRequest('textDocument/hover', hover)), ErrorCodes.ServerNotInitialized, 'a request before initialize');
      // an open text that differs from the disk: were it taken, the node b would be reported
      await connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'dot', version: 1, text: 'digraph g {\n  b [card="lost@1.0.0"];\n}\n' } });
      const capabilities = { workspace: { configuration: true, didChangeWatchedFiles: { dynamicRegistration: true } }, textDocument: { publishDiagnostics: { versionSupport: true } } };
      await connection.sendRequest('initialize', { processId: process.pid, rootUri: pathToFileURL(dir).href, workspaceFolders: [{ uri: pathToFileURL(dir).href, name: 'w' }], capabilities });
      await connection.sendNotification('initialized', {});
      assert.equal(
        await errorCode(connection.sendRequest('initialize', { processId: process.pid, rootUri: null, capabilities: {} })),
        ErrorCodes.InvalidRequest,
        'a second initialize',
      );
      // a second initialized registers nothing again
      const registrations = registered.length;
      await connection.sendNotification('initialized', {});
      // malformed notifications: ignored, without an internal error
      await connection.sendNotification('workspace/didChangeConfiguration', null);
      await connection.sendNotification('workspace/didChangeWatchedFiles', null);
      await connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [null, { uri: 3, type: 1 }] });
      // (answered once the workspace is scanned and read)
      assert.equal(await errorCode(connection.sendRequest('darkprint/report', { uri: pathToFileURL(dir).href })), undefined);
      assert.equal(await errorCode(connection.sendRequest('textDocument/hover', hover)), undefined, 'a request once initialized');
      assert.equal(registered.length, registrations, 'a second initialized registers nothing');
      const shownOpen = publications.filter((p) => p.uri === uri && p.version !== undefined);
      assert.deepEqual(shownOpen, [], 'the document opened before initialize was not taken');
      const before = publications.length;
      await connection.sendRequest('shutdown');
      assert.equal(await errorCode(connection.sendRequest('textDocument/hover', hover)), ErrorCodes.InvalidRequest, 'a request after shutdown');
      assert.equal(await errorCode(connection.sendRequest('darkprint/compiled', { uri })), ErrorCodes.InvalidRequest, 'a custom request after shutdown');
      await connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'dot', version: 2, text: 'digraph g { c; }\n' } });
      assert.equal(await errorCode(connection.sendRequest('textDocument/hover', hover)), ErrorCodes.InvalidRequest);
      assert.equal(publications.length, before, 'nothing published after shutdown');
      assert.deepEqual(logs.filter((l) => /Error|failed/.test(l)), [], 'no internal error logged');
      await connection.sendNotification('exit');
      assert.equal(await exited, 0);
    } finally {
      connection.dispose();
      child.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
