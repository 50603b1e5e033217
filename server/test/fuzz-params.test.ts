/**
 * Robustness against malformed parameters: thousands of requests to every method the server
 * registers, over stdio, each built well formed and then, most of the time, with one field
 * replaced or left out (null, a wrong type, a negative, fractional or huge number, a string where
 * a number goes, a list where an object goes), and malformed document notifications in between.
 * Well-formed parameters include positions past the end of their line or document, huge line
 * numbers and URIs no bundle holds.
 *
 * Every request must be answered: InvalidParams naming the replaced field when the parameters
 * are malformed (the oracle below reads the protocol's types, not the server's checks), a normal
 * answer otherwise (empty for a URI no bundle holds). Every malformed notification is dropped
 * with a warning. The server logs no internal error, and at the end a well-formed edit is
 * published and a hover answered from it. Deterministic for a seed (`DARKPRINT_FUZZ_SEED`); a
 * failure names the seed and the request number.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Hover } from 'vscode-languageserver-protocol/node';
import { parseFixture } from '../../shared/test/support/fixture';
import { lineIndex } from '../../shared/src/text';
import { reviewerCard, writerCard } from './support/cards';
import { errorLogs, startSession, type Session } from './support/lsp-client';
import { mulberry32 } from './support/random-edits';

const requests = Number(process.env.DARKPRINT_FUZZ_PARAMS ?? 3000);
const seed = Number(process.env.DARKPRINT_FUZZ_SEED ?? 20_240_611);

const topology = `digraph g {
  writer [card="writer@1.0.0"];
  reviewer [card="reviewer@1.0.0"];
  writer -> reviewer [out="draft", in="draft"];
}
`;
const bundle = `//- topology.dot\n${topology}${writerCard()}${reviewerCard()}`;

/** Stands for a field left out. */
const missing = Symbol('missing');

/** What a field may hold, by the protocol's types. */
type Accepts = (value: unknown) => boolean;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const absent = (v: unknown): boolean => v === undefined || v === null;
const uinteger: Accepts = (v) => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const string: Accepts = (v) => typeof v === 'string';
const boolean: Accepts = (v) => typeof v === 'boolean';
const list: Accepts = (v) => Array.isArray(v);
const position: Accepts = (v) => isObject(v) && uinteger(v.line) && uinteger(v.character);
const range: Accepts = (v) => isObject(v) && position(v.start) && position(v.end);
const document: Accepts = (v) => isObject(v) && string(v.uri);
const kinds: Accepts = (v) => absent(v) || (Array.isArray(v) && v.every(string));
const optional = (accepts: Accepts): Accepts => (v) => absent(v) || accepts(v);
const oneOf = (...values: unknown[]): Accepts => (v) => values.includes(v);
const completionContext: Accepts = (v) => absent(v) || (isObject(v) && oneOf(1, 2, 3)(v.triggerKind) && optional(string)(v.triggerCharacter));
const codeActionContext: Accepts = (v) => isObject(v) && list(v.diagnostics) && kinds(v.only) && optional(oneOf(1, 2))(v.triggerKind);
const referenceContext: Accepts = (v) => isObject(v) && boolean(v.includeDeclaration);
const locationArguments: Accepts = (v) => Array.isArray(v) && string(v[0]) && range(v[1]);
const workspaceEdit: Accepts = (v) =>
  isObject(v) && (absent(v.documentChanges) ? isObject(v.changes) : Array.isArray(v.documentChanges) && v.documentChanges.every(isObject));
const showCommand: Accepts = (v) => isObject(v) && v.command === 'darkprint.showLocation' && locationArguments(v.arguments);

/** A field of a request's parameters: where it is, and what it may hold. */
interface Slot {
  readonly path: readonly (string | number)[];
  readonly accepts: Accepts;
}

const slot = (path: string, accepts: Accepts): Slot => ({ path: path.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)), accepts });
const documentSlots = [slot('textDocument', document), slot('textDocument.uri', string)];
const formattingSlots = [slot('options', (v) => isObject(v) && uinteger(v.tabSize) && boolean(v.insertSpaces)), slot('options.tabSize', uinteger), slot('options.insertSpaces', boolean)];
const positionSlots = [slot('position', position), slot('position.line', uinteger), slot('position.character', uinteger)];
const rangeSlots = [
  slot('range', range),
  slot('range.start', position),
  slot('range.end', position),
  slot('range.start.line', uinteger),
  slot('range.start.character', uinteger),
  slot('range.end.line', uinteger),
  slot('range.end.character', uinteger),
];

interface Method {
  readonly name: string;
  readonly slots: readonly Slot[];
  /** Well-formed parameters for the document at `uri`, with `at` a position and `span` a range there. */
  params(uri: string, at: unknown, span: unknown): Record<string, unknown>;
  /** The answer to well-formed parameters may be this error code (a refused rename). */
  readonly refusal?: number;
  /** A text document request: empty (null) for a URI no bundle holds. */
  readonly textDocument: boolean;
}

const methods: readonly Method[] = [
  ...['hover', 'definition'].map((name) => ({ name: `textDocument/${name}`, slots: [...documentSlots, ...positionSlots], params: (uri: string, at: unknown) => ({ textDocument: { uri }, position: at }), textDocument: true })),
  { name: 'textDocument/prepareRename', slots: [...documentSlots, ...positionSlots], params: (uri, at) => ({ textDocument: { uri }, position: at }), refusal: -32803, textDocument: true },
  {
    name: 'textDocument/completion',
    slots: [...documentSlots, ...positionSlots, slot('context', completionContext), slot('context.triggerKind', oneOf(1, 2, 3)), slot('context.triggerCharacter', optional(string))],
    params: (uri, at) => ({ textDocument: { uri }, position: at, context: { triggerKind: 2, triggerCharacter: '"' } }),
    textDocument: true,
  },
  {
    name: 'textDocument/references',
    slots: [...documentSlots, ...positionSlots, slot('context', referenceContext), slot('context.includeDeclaration', boolean)],
    params: (uri, at) => ({ textDocument: { uri }, position: at, context: { includeDeclaration: true } }),
    textDocument: true,
  },
  {
    name: 'textDocument/rename',
    slots: [...documentSlots, ...positionSlots, slot('newName', string)],
    params: (uri, at) => ({ textDocument: { uri }, position: at, newName: 'author' }),
    refusal: -32803,
    textDocument: true,
  },
  { name: 'textDocument/documentSymbol', slots: documentSlots, params: (uri) => ({ textDocument: { uri } }), textDocument: true },
  { name: 'textDocument/foldingRange', slots: documentSlots, params: (uri) => ({ textDocument: { uri } }), textDocument: true },
  {
    name: 'textDocument/codeAction',
    slots: [
      ...documentSlots,
      ...rangeSlots,
      slot('context', codeActionContext),
      slot('context.diagnostics', list),
      slot('context.only', kinds),
      slot('context.only.0', string),
      slot('context.triggerKind', optional(oneOf(1, 2))),
    ],
    params: (uri, _at, span) => ({ textDocument: { uri }, range: span, context: { diagnostics: [], only: ['quickfix'], triggerKind: 2 } }),
    textDocument: true,
  },
  {
    name: 'workspace/executeCommand',
    slots: [slot('command', oneOf('darkprint.showLocation')), slot('arguments', locationArguments), slot('arguments.0', string), slot('arguments.1', range), slot('arguments.1.end.line', uinteger)],
    params: (uri, _at, span) => ({ command: 'darkprint.showLocation', arguments: [uri, span] }),
    textDocument: false,
  },
  {
    name: 'workspace/executeCommand',
    slots: [
      slot('command', oneOf('darkprint.applyEdit')),
      slot('arguments.0', workspaceEdit),
      slot('arguments.0.changes', isObject),
      slot('arguments.1', optional(showCommand)),
      slot('arguments.1.command', oneOf('darkprint.showLocation')),
      slot('arguments.1.arguments', locationArguments),
      slot('arguments.1.arguments.1', range),
    ],
    params: (uri, _at, span) => ({ command: 'darkprint.applyEdit', arguments: [{ changes: {} }, { title: 'Show', command: 'darkprint.showLocation', arguments: [uri, span] }] }),
    textDocument: false,
  },
  ...['darkprint/compiled', 'darkprint/report'].map((name) => ({ name, slots: [slot('uri', string)], params: (uri: string) => ({ uri }), textDocument: false })),
  {
    name: 'darkprint/import',
    slots: [slot('uri', string), slot('text', string), slot('author', string)],
    params: (uri) => ({ uri, text: 'digraph p {\n  start [shape=Mdiamond];\n  work [prompt="Do it."];\n  start -> work;\n}\n', author: 'fuzz' }),
    textDocument: false,
  },
  { name: 'textDocument/documentHighlight', slots: [...documentSlots, ...positionSlots], params: (uri, at) => ({ textDocument: { uri }, position: at }), textDocument: true },
  ...['full', 'full/delta'].map((kind) => ({
    name: `textDocument/semanticTokens/${kind}`,
    slots: kind === 'full' ? documentSlots : [...documentSlots, slot('previousResultId', string)],
    params: (uri: string) => (kind === 'full' ? { textDocument: { uri } } : { textDocument: { uri }, previousResultId: '1' }),
    textDocument: true,
  })),
  ...['semanticTokens/range', 'inlayHint'].map((name) => ({ name: `textDocument/${name}`, slots: [...documentSlots, ...rangeSlots], params: (uri: string, _at: unknown, span: unknown) => ({ textDocument: { uri }, range: span }), textDocument: true })),
  ...['codeLens', 'documentLink'].map((name) => ({ name: `textDocument/${name}`, slots: documentSlots, params: (uri: string) => ({ textDocument: { uri } }), textDocument: true })),
  { name: 'workspace/symbol', slots: [slot('query', string)], params: () => ({ query: 'wr' }), textDocument: false },
  { name: 'textDocument/formatting', slots: [...documentSlots, ...formattingSlots], params: (uri) => ({ textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } }), textDocument: true },
  {
    name: 'textDocument/rangeFormatting',
    slots: [...documentSlots, ...rangeSlots, ...formattingSlots],
    params: (uri, _at, span) => ({ textDocument: { uri }, range: span, options: { tabSize: 4, insertSpaces: false } }),
    textDocument: true,
  },
];

/** Document notifications, each with the fields whose replacement makes it malformed. */
const notifications: readonly { readonly name: string; readonly slots: readonly Slot[] }[] = [
  {
    name: 'textDocument/didOpen',
    slots: [slot('textDocument', (v) => isObject(v) && string(v.uri) && Number.isInteger(v.version) && string(v.text)), slot('textDocument.uri', string), slot('textDocument.version', Number.isInteger), slot('textDocument.text', string)],
  },
  {
    name: 'textDocument/didChange',
    slots: [
      slot('textDocument', (v) => isObject(v) && string(v.uri) && Number.isInteger(v.version)),
      slot('textDocument.uri', string),
      slot('textDocument.version', Number.isInteger),
      slot('contentChanges', (v) => Array.isArray(v) && v.every((c) => isObject(c) && string(c.text) && (c.range === undefined || range(c.range)))),
      slot('contentChanges.0', (v) => isObject(v) && string(v.text) && (v.range === undefined || range(v.range))),
      slot('contentChanges.0.text', string),
      slot('contentChanges.0.range', (v) => v === undefined || range(v)),
      slot('contentChanges.0.range.start', position),
      slot('contentChanges.0.range.end.character', uinteger),
    ],
  },
  { name: 'textDocument/didClose', slots: [slot('textDocument', document), slot('textDocument.uri', string)] },
];

/** Values a field is replaced with: every JSON type, numbers of every kind, and a few shapes of the protocol. */
const replacements: readonly unknown[] = [
  missing, null, true, false, 0, 1, 2, 3, -1, -0.5, 1.5, 2 ** 31, -(2 ** 31), Number.MAX_SAFE_INTEGER, 1e300, -1e300,
  '', '0', '3', 'x', 'quickfix', 'file:///nowhere/topology.dot', 'untitled:Untitled-1',
  [], [1], ['quickfix'], [null], {}, { uri: 5 }, { line: 1 }, { line: 0, character: 0 }, { line: 1e300, character: 2 ** 31 },
  { start: { line: 0, character: 0 } }, { start: { line: 0, character: 0 }, end: { line: 9, character: 99 } }, { includeDeclaration: 'yes' },
];

const unknownUris = ['file:///no/such/folder/topology.dot', 'untitled:Untitled-1', '', 'file://%zz', 'not a uri'];

describe('server: fuzz of malformed parameters', function () {
  this.timeout(600_000);

  it(`answers ${requests} requests with malformed or odd parameters as the protocol's types say (seed ${seed})`, async function () {
    const dir = mkdtempSync(path.join(tmpdir(), 'darkprint-fuzz-params-'));
    const texts = new Map<string, string>();
    for (const f of parseFixture(bundle).files) {
      mkdirSync(path.dirname(path.join(dir, f.path)), { recursive: true });
      writeFileSync(path.join(dir, f.path), f.text);
      texts.set(f.path, f.text);
    }
    const session = await startSession({ folders: [dir], settings: { debounceMs: 0 } });
    session.connection.onRequest('window/showDocument', () => ({ success: true }));
    session.connection.onRequest('workspace/applyEdit', () => ({ applied: false }));
    const random = mulberry32(seed);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
    const files = [...texts.keys()];
    let ignored = 0;
    try {
      session.open('topology.dot', topology);
      await session.versionPublished('topology.dot', 1);
      for (let n = 0; n < requests; n++) {
        const where = `seed ${seed}, request ${n}`;
        if (random() < 0.1) {
          ignored += sendMalformedNotification(session, texts, random);
          continue;
        }
        const method = pick(methods);
        const file = pick(files);
        const unknown = random() < 0.1;
        const uri = unknown ? pick(unknownUris) : session.uri(file);
        const params = method.params(uri, randomPosition(texts.get(file)!, random), { start: randomPosition(texts.get(file)!, random), end: randomPosition(texts.get(file)!, random) });
        let replaced: Slot | undefined;
        let value: unknown;
        if (random() < 0.75) {
          replaced = pick(method.slots);
          value = pick(replacements);
          setAt(params, replaced.path, value);
        }
        const malformed = replaced !== undefined && !replaced.accepts(value === missing ? undefined : value);
        const what = `${where}: ${method.name} ${JSON.stringify(params)}`;
        let answer: unknown;
        let failure: { code: number; message: string } | undefined;
        try {
          answer = await session.request(method.name, params);
        } catch (error) {
          const { code, message } = error as { code?: unknown; message?: unknown };
          assert.ok(typeof code === 'number', `${what} is answered (not: ${String(error)})`);
          failure = { code, message: String(message) };
        }
        if (malformed) {
          assert.equal(failure?.code, -32602, `${what} gets InvalidParams, not ${JSON.stringify(failure ?? answer)}`);
          assert.ok(failure.message.includes(`\`${nameOf(replaced!.path)}`), `${what}: the message names the field: ${failure.message}`);
          continue;
        }
        if (failure) {
          assert.equal(failure.code, method.refusal, `${what} is answered, not refused: ${failure.message}`);
          continue;
        }
        if (method.textDocument && !isKnown(params, session, files)) assert.equal(answer, null, `${what}: no bundle holds the document`);
      }
      // a well-formed edit after all that applies to the text the server kept, and is answered from
      const line = 3;
      const insert = '  ghost [card="ghost@1.0.0"];\n';
      const after = topology.split('\n');
      after.splice(line, 0, insert.slice(0, -1));
      const version = session.changeIncremental('topology.dot', [{ range: { start: { line, character: 0 }, end: { line, character: 0 } }, text: insert }], after.join('\n'));
      const published = await session.versionPublished('topology.dot', version);
      assert.ok(published.diagnostics.some((d) => d.code === 'bundle/missing-card' && d.range.start.line === line), `seed ${seed}: ${JSON.stringify(published.diagnostics)}`);
      const hover = await session.request<Hover | null>('textDocument/hover', { textDocument: { uri: session.uri('topology.dot') }, position: { line, character: 4 } });
      assert.match(JSON.stringify(hover?.contents), /ghost/, `seed ${seed}: a hover after the fuzz`);
      const warnings = session.logs.filter((l) => l.type === 2 && / is ignored: /.test(l.message));
      assert.equal(warnings.length, ignored, `seed ${seed}: each malformed notification is dropped with a warning`);
      assert.deepEqual(errorLogs(session), [], `seed ${seed}: the server logged internal errors`);
    } finally {
      const code = await session.shutdown();
      rmSync(dir, { recursive: true, force: true });
      assert.equal(code, 0, `seed ${seed}: the server exits cleanly`);
    }
  });
});

/**
 * Sends one document notification made malformed by one replaced field (a replacement that
 * leaves it well formed is not sent: it would change the documents). Returns how many were sent.
 */
function sendMalformedNotification(session: Session, texts: ReadonlyMap<string, string>, random: () => number): number {
  const notification = notifications[Math.floor(random() * notifications.length)];
  const uri = session.uri(random() < 0.5 ? 'topology.dot' : 'cards/writer@1.0.0.yaml');
  const version = (session.versions.get(uri) ?? 1) + 1;
  const params: Record<string, unknown> =
    notification.name === 'textDocument/didOpen'
      ? { textDocument: { uri, languageId: 'yaml', version: 1, text: texts.get('cards/writer@1.0.0.yaml') } }
      : notification.name === 'textDocument/didChange'
        ? { textDocument: { uri, version }, contentChanges: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '' }] }
        : { textDocument: { uri } };
  const replaced = notification.slots[Math.floor(random() * notification.slots.length)];
  const value = replacements[Math.floor(random() * replacements.length)];
  if (replaced.accepts(value === missing ? undefined : value)) return 0;
  setAt(params, replaced.path, value);
  void session.connection.sendNotification(notification.name, params);
  return 1;
}

/** A position in `text`: inside it, past the end of a line, past its end, or a huge one. */
function randomPosition(text: string, random: () => number): { line: number; character: number } {
  const index = lineIndex(text);
  const inside = index.positionAt(Math.floor(random() * (text.length + 1)));
  const roll = random();
  if (roll < 0.6) return inside;
  if (roll < 0.75) return { line: inside.line, character: inside.character + 1 + Math.floor(random() * 200) };
  if (roll < 0.9) return { line: index.positionAt(text.length).line + 1 + Math.floor(random() * 5), character: Math.floor(random() * 10) };
  return { line: [2 ** 31 - 1, 2 ** 31, Number.MAX_SAFE_INTEGER, 1e300][Math.floor(random() * 4)], character: [0, 2 ** 31, 1e300][Math.floor(random() * 3)] };
}

/** Whether the request's `textDocument.uri` is a file of the bundle. */
function isKnown(params: Record<string, unknown>, session: Session, files: readonly string[]): boolean {
  const uri = (params.textDocument as { uri: string }).uri;
  return files.some((f) => session.uri(f) === uri);
}

/** Replaces (or, with `missing`, leaves out) the field at `path`, making the objects and lists on the way. */
function setAt(target: Record<string, unknown>, path: readonly (string | number)[], value: unknown): void {
  let here: Record<string | number, unknown> = target;
  for (const step of path.slice(0, -1)) {
    const next = here[step];
    if (typeof next !== 'object' || next === null) here[step] = typeof step === 'number' ? [] : {};
    here = here[step] as Record<string | number, unknown>;
  }
  const last = path[path.length - 1];
  if (value === missing) delete here[last];
  else here[last] = structuredClone(value);
}

/** `context.only[0]`, as the server's messages name a field. */
function nameOf(path: readonly (string | number)[]): string {
  return path.map((step, i) => (typeof step === 'number' ? `[${step}]` : i === 0 ? step : `.${step}`)).join('');
}
