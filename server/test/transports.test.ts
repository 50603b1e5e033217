/**
 * The transports the server is started with, as data: over `--stdio` the server writes with its
 * own writer (../src/wire.ts: diagnostics from their kept JSON), over `--node-ipc` with the
 * library's. Both must publish the same diagnostics for the same workspace and edits; on stdio,
 * every frame's `Content-Length` must be its body's byte length and every body must be exactly
 * `JSON.stringify` of what it parses to (the plain encoding of the same content).
 */
import assert from 'node:assert/strict';
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  IPCMessageReader,
  IPCMessageWriter,
  StreamMessageReader,
  StreamMessageWriter,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import { parseFixture } from '../../shared/test/support/fixture';
import { builtServer } from './support/lsp-client';
import { reviewerCard, writerCard } from './support/cards';

const workspace = `//- topology.dot
digraph g {
  writer [card="writer@1.0.0"];
  reviewer [card="reviewer@1.0.0"];
  lost [card="lost@1.0.0"];
  writer -> reviewer;
}
${writerCard()}${reviewerCard({ inputType: 'code', dependencies: '[writer]' })}`;

/** Edits typed into the open topology, in order. */
const edits: readonly ((text: string) => string)[] = [
  (text) => text.replace('}\n', '  extra [card="missing@1.0.0"];\n}\n'),
  (text) => text.replace('  lost [card="lost@1.0.0"];\n', ''),
];

interface Started {
  readonly connection: ProtocolConnection;
  readonly child: ChildProcess;
  /** The raw bytes the server wrote (stdio only). */
  readonly raw: Buffer[];
}

const transports: { readonly name: string; readonly start: (entry: string) => Started }[] = [
  {
    name: 'stdio',
    start(entry) {
      const child = spawn(process.execPath, [entry, '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
      const raw: Buffer[] = [];
      const tee = new PassThrough();
      child.stdout!.on('data', (chunk: Buffer) => {
        raw.push(chunk);
        tee.write(chunk);
      });
      const connection = createProtocolConnection(new StreamMessageReader(tee), new StreamMessageWriter(child.stdin!));
      return { connection, child, raw };
    },
  },
  {
    name: 'node-ipc',
    start(entry) {
      const child = fork(entry, ['--node-ipc'], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
      const connection = createProtocolConnection(new IPCMessageReader(child), new IPCMessageWriter(child));
      return { connection, child, raw: [] };
    },
  },
];

/** Runs the workspace and its edits over one transport; the publications for the topology, in order. */
async function run(transport: (typeof transports)[number], dir: string): Promise<{ publications: PublishDiagnosticsParams[]; raw: Buffer }> {
  const { connection, child, raw } = transport.start(await builtServer());
  try {
    return await exercise(transport.name, connection, child, dir, raw);
  } finally {
    // a failed run must not leave its server behind
    if (child.exitCode === null && child.signalCode === null) child.kill();
    connection.dispose();
  }
}

async function exercise(name: string, connection: ProtocolConnection, child: ChildProcess, dir: string, raw: Buffer[]): Promise<{ publications: PublishDiagnosticsParams[]; raw: Buffer }> {
  const publications: PublishDiagnosticsParams[] = [];
  const waiting: (() => void)[] = [];
  const topologyUri = pathToFileURL(path.join(dir, 'topology.dot')).href;
  connection.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) => {
    if (params.uri === topologyUri) publications.push(params);
    for (const wake of waiting.splice(0)) wake();
  });
  connection.onRequest('workspace/configuration', (params: { items: unknown[] }) => params.items.map(() => ({ debounceMs: 0 })));
  connection.onRequest('client/registerCapability', () => null);
  connection.listen();
  const versionPublished = (version: number): Promise<void> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name}: no publication of version ${version}`)), 20_000);
      const check = (): void => {
        if (publications.some((p) => p.version === version)) {
          clearTimeout(timer);
          resolve();
        } else {
          waiting.push(check);
        }
      };
      check();
    });
  await connection.sendRequest('initialize', {
    processId: process.pid,
    rootUri: pathToFileURL(dir).href,
    workspaceFolders: [{ uri: pathToFileURL(dir).href, name: 'transport' }],
    capabilities: {
      workspace: { configuration: true },
      textDocument: { publishDiagnostics: { relatedInformation: true, versionSupport: true, codeDescriptionSupport: true } },
    },
    initializationOptions: { debounceMs: 0 },
  });
  await connection.sendNotification('initialized', {});
  let text = parseFixture(workspace).files.find((f) => f.path === 'topology.dot')!.text;
  let version = 1;
  await connection.sendNotification('textDocument/didOpen', { textDocument: { uri: topologyUri, languageId: 'dot', version, text } });
  await versionPublished(version);
  for (const edit of edits) {
    text = edit(text);
    version++;
    await connection.sendNotification('textDocument/didChange', { textDocument: { uri: topologyUri, version }, contentChanges: [{ text }] });
    await versionPublished(version);
  }
  await connection.sendRequest('shutdown');
  await connection.sendNotification('exit');
  await new Promise((resolve) => (child.exitCode !== null ? resolve(undefined) : child.on('exit', resolve)));
  return { publications: publications.filter((p) => p.version !== undefined), raw: Buffer.concat(raw) };
}

/** Splits what a stream writer wrote into frames, checking each one's length and encoding. */
function checkFrames(raw: Buffer): number {
  let at = 0;
  let frames = 0;
  while (at < raw.length) {
    const headerEnd = raw.indexOf('\r\n\r\n', at);
    assert.ok(headerEnd > at, 'a frame starts with its headers');
    const header = raw.subarray(at, headerEnd).toString('ascii');
    const length = Number(/^Content-Length: (\d+)$/im.exec(header)?.[1]);
    assert.ok(Number.isInteger(length), `a Content-Length header in ${JSON.stringify(header)}`);
    const body = raw.subarray(headerEnd + 4, headerEnd + 4 + length);
    assert.equal(body.length, length, 'the body is as long as announced');
    const text = body.toString('utf-8');
    assert.equal(text, JSON.stringify(JSON.parse(text)), 'the body is the plain encoding of its content');
    at = headerEnd + 4 + length;
    frames++;
  }
  return frames;
}

describe('server transports', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'darkprint-transports-'));
    for (const f of parseFixture(workspace).files) {
      mkdirSync(path.dirname(path.join(dir, f.path)), { recursive: true });
      writeFileSync(path.join(dir, f.path), f.text);
    }
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const results = new Map<string, PublishDiagnosticsParams[]>();
  for (const transport of transports) {
    it(`${transport.name}: publishes every version of the edited topology${transport.name === 'stdio' ? ', in well-formed frames' : ''}`, async () => {
      const { publications, raw } = await run(transport, dir);
      assert.deepEqual(
        publications.map((p) => p.version),
        [1, 2, 3],
      );
      assert.ok(publications.every((p) => p.diagnostics.length > 0));
      if (transport.name === 'stdio') assert.ok(checkFrames(raw) > 3);
      results.set(transport.name, publications);
    });
  }
  it('both transports publish the same diagnostics', () => {
    assert.equal(results.size, transports.length, 'every transport ran');
    const [first, ...others] = [...results.values()];
    for (const other of others) assert.deepEqual(other, first);
  });
});
