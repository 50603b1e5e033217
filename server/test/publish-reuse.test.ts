/**
 * What the publisher reuses from one publication to the next (the LSP form of each unchanged
 * diagnostic, kept while the files it points into read the same up to its ranges, and its JSON
 * text), and the JSON it hands the wire (../src/wire.ts), as data. Each case starts from a
 * workspace fixture and applies steps (the files a step lists replace theirs); after every step
 * what a client would show from a publisher that has lived through all the steps must equal what
 * it shows from a publisher that starts afresh on the same files, and every publication's
 * prepared JSON must be byte for byte `JSON.stringify` of its parameters, and of the whole
 * JSON-RPC message once through the writer's encoder.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { NotificationMessage, PublishDiagnosticsParams, ResponseMessage } from 'vscode-languageserver/node';
import { parseFixture } from '../../shared/test/support/fixture';
import { addBundle, createDatabase, setOpenDocument, type Database } from '../src/database';
import { createPublisher, type Publisher } from '../src/publish';
import { commonPrefixLength } from '../../shared/src/text';
import { defaultSettings } from '../src/settings';
import { docsLinker, fullSupport, type ClientSupport } from '../src/convert';

const docsLink = docsLinker('file:///docs/diagnostics.md');
import { createPreparedTexts, preparedEncoder } from '../src/wire';
import { reviewerCard, writerCard } from './support/cards';

interface Case {
  readonly name: string;
  /** The workspace at start (`//- path` sections). */
  readonly initial: string;
  /** Files opened in the editor from the start (their edits arrive as open documents). */
  readonly open: readonly string[];
  /**
   * Each step: the files it replaces, as a fixture; with `keepsAfterLine`, every topology finding
   * below that line (0-based) that reads as one shown before the step (the same code, message
   * and range, moved down by `movedBy` lines) must be shown as that same LSP object, or, when it
   * moved, as a copy of it with the new range (its other members the same objects, so it was not
   * converted again).
   */
  readonly steps: readonly { readonly name: string; readonly files: string; readonly keepsAfterLine?: number; readonly movedBy?: number }[];
}

const root = path.resolve('/workspace/bundle');
const support: ClientSupport = { ...fullSupport, documentChanges: false, renameFiles: false, hierarchicalSymbols: false };

/**
 * A topology with findings at its start (one node with no card: located findings of the
 * resolution and of the analysis), in its middle and at its end, in the given line ending.
 */
function topology(
  options: { readonly head?: string; readonly indent?: string; readonly middle?: string; readonly tail?: string; readonly newline?: string; readonly reviewerInput?: string } = {},
): string {
  const lines = [
    'digraph g {',
    `${options.head ?? ''}${options.indent ?? '  '}lost [card="lost@1.0.0"];`,
    '  writer [card="writer@1.0.0"];',
    '  reviewer [card="reviewer@1.0.0"];',
    ...(options.middle !== undefined ? [options.middle] : []),
    `  writer -> reviewer${options.reviewerInput === undefined ? '' : ` [in="${options.reviewerInput}"]`};`,
    '  writer -> lost [label="late"];',
    `${options.tail ?? ''}}`,
    '',
  ];
  return `//- topology.dot\n${lines.join(options.newline ?? '\n')}`;
}

const cards = writerCard() + reviewerCard({ dependencies: '[writer]' });
/** A node after the middle of the topology, with findings of its own. */
const late = '  late [card="late@1.0.0"];\n';

const cases: Case[] = [
  {
    name: 'typing at the end of the topology, then taking it back',
    initial: topology() + cards,
    open: ['topology.dot'],
    steps: [
      { name: 'a node with a missing card is added before the brace', files: topology({ tail: '  extra [card="missing@1.0.0"];\n' }) },
      { name: 'a second one', files: topology({ tail: '  extra [card="missing@1.0.0"];\n  more [card="missing@1.0.0"];\n' }) },
      { name: 'both removed', files: topology() },
    ],
  },
  {
    name: 'typing at the start of the topology moves every range after it',
    initial: topology() + cards,
    open: ['topology.dot'],
    steps: [
      { name: 'a comment line first', files: topology({ head: '  // note\n' }) },
      { name: 'a longer comment on the same line', files: topology({ head: '  /* a longer note */' }) },
      { name: 'back as it was', files: topology() },
      // every offset stays, every line after it moves: only the ranges change
      { name: 'an indenting space becomes a line break', files: topology({ indent: '\n ' }) },
      { name: 'back as it was', files: topology() },
    ],
  },
  {
    name: 'typing along a line of the topology keeps the LSP form of the findings on the lines below',
    initial: topology() + cards,
    open: ['topology.dot'],
    steps: [
      { name: 'a comment before the first node, on its line', files: topology({ head: '  /* note */' }), keepsAfterLine: 1 },
      { name: 'a longer one', files: topology({ head: '  /* a longer note */' }), keepsAfterLine: 1 },
      { name: 'a node added on the last line moves the findings after it in the list', files: topology({ head: '  /* a longer note */', tail: '  extra [card="missing@1.0.0"]; ' }), keepsAfterLine: 1 },
      { name: 'back as it was', files: topology(), keepsAfterLine: 1 },
      { name: 'a line added above the findings', files: topology({ head: '  // note\n' }), keepsAfterLine: 2, movedBy: 1 },
      { name: 'a longer line added', files: topology({ head: '  // a longer note\n' }), keepsAfterLine: 2 },
      { name: 'the line removed again', files: topology(), keepsAfterLine: 1, movedBy: -1 },
    ],
  },
  {
    // the parse takes the statements after the edit from the last one, moved (see `rejoin` in
    // the parser), and every stage after it carries their findings over, moved
    name: 'typing in the middle of the topology keeps the findings after it, moved',
    initial: topology({ tail: late, middle: '  subgraph cluster_m { label="middle"; }' }) + cards,
    open: ['topology.dot'],
    steps: [
      { name: 'text typed into a label', files: topology({ tail: late, middle: '  subgraph cluster_m { label="middle (edited)"; }' }), keepsAfterLine: 4 },
      { name: 'a node added on its own line', files: topology({ tail: late, middle: '  subgraph cluster_m { label="middle (edited)"; }\n  added;' }), keepsAfterLine: 5, movedBy: 1 },
      { name: 'a character replaced by another', files: topology({ tail: late, middle: '  subgraph cluster_m { label="middle (edites)"; }\n  added;' }), keepsAfterLine: 5 },
      { name: 'back as it was', files: topology({ tail: late, middle: '  subgraph cluster_m { label="middle"; }' }), keepsAfterLine: 4, movedBy: -1 },
    ],
  },
  {
    // the findings of `späť` name it in their messages: JSON bytes that are not ASCII, kept and moved
    name: 'findings whose messages are not ASCII move with the lines above them',
    initial: topology({ tail: '  "späť" [card="missing@1.0.0"];\n', middle: '  subgraph cluster_m { label="mitte"; }' }) + cards,
    open: ['topology.dot'],
    steps: [
      { name: 'a line added in the middle', files: topology({ tail: '  "späť" [card="missing@1.0.0"];\n', middle: '  subgraph cluster_m { label="mitte"; }\n  // añadido' }), keepsAfterLine: 5, movedBy: 1 },
      { name: 'text typed before it', files: topology({ tail: '  "späť" [card="missing@1.0.0"];\n', middle: '  subgraph cluster_m { label="mitte (ü)"; }\n  // añadido' }), keepsAfterLine: 5 },
      { name: 'back as it was', files: topology({ tail: '  "späť" [card="missing@1.0.0"];\n', middle: '  subgraph cluster_m { label="mitte"; }' }), keepsAfterLine: 4, movedBy: -1 },
    ],
  },
  {
    // ranges whose numbers have one to five digits, written digit by digit into the JSON
    name: 'findings far down and far along their lines',
    initial: topology({ head: '\n'.repeat(9998), indent: ' '.repeat(99) }) + cards,
    open: ['topology.dot'],
    steps: [
      { name: 'a line added above them', files: topology({ head: '\n'.repeat(9999), indent: ' '.repeat(99) }) },
      { name: 'a space added before the first', files: topology({ head: '\n'.repeat(9999), indent: ' '.repeat(100) }) },
      { name: 'back as it was', files: topology({ head: '\n'.repeat(9998), indent: ' '.repeat(99) }) },
    ],
  },
  {
    name: 'line endings change next to the findings',
    initial: topology({ newline: '\r\n' }) + cards,
    open: ['topology.dot'],
    steps: [
      { name: 'LF only', files: topology() },
      { name: 'CR only', files: topology({ newline: '\r' }) },
      { name: 'CRLF again', files: topology({ newline: '\r\n' }) },
    ],
  },
  {
    name: 'a card edit adds and removes a finding in the topology that points into the card',
    initial: topology() + cards,
    open: ['cards/reviewer@1.0.0.yaml'],
    steps: [
      { name: 'the input type no longer fits', files: reviewerCard({ inputType: 'code', dependencies: '[writer]' }) },
      { name: 'a port pinned that the card lacks, with related information into the card', files: topology({ reviewerInput: 'nothing' }) },
      { name: 'lines added at the top of the card move the related ranges only', files: `${reviewerCard({ inputType: 'code', dependencies: '[writer]' })}# a\n`.replace('id: reviewer', '# one\n# two\nid: reviewer') },
      { name: 'all fixed', files: topology() + reviewerCard({ dependencies: '[writer]' }) },
    ],
  },
];

/** What a client shows: the last publication per URI. */
type Shown = Map<string, PublishDiagnosticsParams>;

interface Harness {
  readonly db: Database;
  readonly publisher: Publisher;
  readonly shown: Shown;
  /** Every publication sent, with its prepared JSON. */
  readonly sent: { params: PublishDiagnosticsParams; json: () => readonly Uint8Array[] }[];
}

function harness(files: ReadonlyMap<string, string>, open: readonly string[], versions: Map<string, number>): Harness {
  const db = createDatabase((file) => pathToFileURL(file).href);
  const shown: Shown = new Map();
  const sent: Harness['sent'] = [];
  const publisher = createPublisher({
    db,
    send: (params, json) => {
      sent.push({ params, json });
      if (params.diagnostics.length === 0 && params.version === undefined) shown.delete(params.uri);
      else shown.set(params.uri, params);
    },
    settings: () => ({ ...defaultSettings, debounceMs: 0 }),
    support: () => support,
    docsLink: () => docsLink,
    log: (message) => assert.fail(message),
  });
  const disk = new Map([...files].filter(([relative]) => !open.includes(relative)));
  addBundle(db, root, disk);
  for (const relative of open) setOpenDocument(db, path.join(root, relative), documentOf(relative, files.get(relative) ?? '', versions));
  return { db, publisher, shown, sent };
}

function documentOf(relative: string, text: string, versions: Map<string, number>): { uri: string; version: number; text: string } {
  const version = versions.get(relative) ?? 1;
  return { uri: pathToFileURL(path.join(root, relative)).href, version, text };
}

/** Checks the prepared JSON of every publication, as the server's stdio writer would write it. */
async function checkWire(sent: Harness['sent']): Promise<void> {
  const prepared = createPreparedTexts();
  const encoder = preparedEncoder(prepared);
  for (const { params, json } of sent) {
    assert.equal(Buffer.concat(json()).toString('utf-8'), JSON.stringify(params), `prepared JSON of ${params.uri}`);
    prepared.prepare(params, json);
    const message = { jsonrpc: '2.0', method: 'textDocument/publishDiagnostics', params };
    const written = Buffer.from(await encoder.encode(message, { charset: 'utf-8' })).toString('utf-8');
    assert.equal(written, JSON.stringify(message), 'the message the writer encodes');
    assert.deepEqual(JSON.parse(written), JSON.parse(JSON.stringify(message)));
  }
}

async function check(testCase: Case): Promise<void> {
  const files = new Map(parseFixture(testCase.initial).files.map((f) => [f.path, f.text] as const));
  const versions = new Map<string, number>();
  const live = harness(files, testCase.open, versions);
  live.publisher.publish(live.db.bundles.get(root)!);
  await checkWire(live.sent.splice(0));
  for (const step of testCase.steps) {
    for (const f of parseFixture(step.files).files) {
      files.set(f.path, f.text);
      if (testCase.open.includes(f.path)) {
        versions.set(f.path, (versions.get(f.path) ?? 1) + 1);
        setOpenDocument(live.db, path.join(root, f.path), documentOf(f.path, f.text, versions));
      } else {
        const bundle = live.db.bundles.get(root)!;
        bundle.disk.set(f.path, { path: f.path, text: f.text });
        bundle.revision++;
      }
    }
    const topologyUri = pathToFileURL(path.join(root, 'topology.dot')).href;
    const shownBefore = live.shown.get(topologyUri)?.diagnostics ?? [];
    live.publisher.publish(live.db.bundles.get(root)!);
    await checkWire(live.sent.splice(0));
    if (step.keepsAfterLine !== undefined) {
      const below = (live.shown.get(topologyUri)?.diagnostics ?? []).filter((d) => d.range.start.line > step.keepsAfterLine!);
      assert.ok(below.length > 0, `${testCase.name}: after "${step.name}" no finding is below line ${step.keepsAfterLine}`);
      let kept = 0;
      for (const d of below) {
        const by = step.movedBy ?? 0;
        const moved = (r: typeof d.range): string => JSON.stringify({ start: { ...r.start, line: r.start.line + by }, end: { ...r.end, line: r.end.line + by } });
        const same = shownBefore.find((b) => b.code === d.code && b.message === d.message && moved(b.range) === JSON.stringify(d.range));
        if (same === undefined) continue;
        if (by === 0) assert.equal(d, same, `${testCase.name}: after "${step.name}" ${d.code} at line ${d.range.start.line} was converted again`);
        else assert.equal(d.codeDescription, same.codeDescription, `${testCase.name}: after "${step.name}" ${d.code} at line ${d.range.start.line} was converted again`);
        kept++;
      }
      assert.ok(kept > 0, `${testCase.name}: after "${step.name}" no finding below line ${step.keepsAfterLine} reads as before`);
    }
    const fresh = harness(files, testCase.open, versions);
    fresh.publisher.publish(fresh.db.bundles.get(root)!);
    assert.deepEqual(live.shown, fresh.shown, `${testCase.name}: after "${step.name}" the reused publications differ from fresh ones`);
  }
}

describe('publisher reuse', () => {
  for (const testCase of cases) it(testCase.name, () => check(testCase));
});

describe('wire: prepared messages', () => {
  const table: { readonly name: string; readonly message: NotificationMessage | ResponseMessage; readonly prepared: boolean }[] = [
    { name: 'a prepared notification is written from its text', message: { jsonrpc: '2.0', method: 'textDocument/publishDiagnostics', params: { uri: 'file:///a', diagnostics: [] } }, prepared: true },
    { name: 'a notification that was not prepared is serialised', message: { jsonrpc: '2.0', method: 'window/logMessage', params: { type: 3, message: 'x"y' } }, prepared: false },
    { name: 'a response is serialised', message: { jsonrpc: '2.0', id: 1, result: { uri: 'file:///b' } }, prepared: false },
  ];
  for (const row of table) {
    it(row.name, async () => {
      const prepared = createPreparedTexts();
      const params = 'params' in row.message ? row.message.params : undefined;
      let used = false;
      if (row.prepared && typeof params === 'object' && params !== null) {
        prepared.prepare(params, () => {
          used = true;
          return [Buffer.from(JSON.stringify(params))];
        });
      }
      const written = Buffer.from(await preparedEncoder(prepared).encode(row.message, { charset: 'utf-8' })).toString('utf-8');
      assert.equal(written, JSON.stringify(row.message));
      assert.equal(used, row.prepared);
    });
  }
});

describe('commonPrefixLength', () => {
  const table: readonly [string, string, number][] = [
    ['', '', 0],
    ['abc', 'abd', 2],
    ['abc', 'abc', 3],
    ['abc', 'abcdef', 3],
    ['x'.repeat(5000) + 'a', 'x'.repeat(5000) + 'b', 5000],
    ['x'.repeat(8192), 'x'.repeat(8192), 8192],
    ['x'.repeat(4096) + 'y'.repeat(10), 'x'.repeat(4095) + 'z', 4095],
  ];
  for (const [a, b, expected] of table) {
    it(`${a.length} and ${b.length} code units share ${expected}`, () => {
      assert.equal(commonPrefixLength(a, b), expected);
      assert.equal(commonPrefixLength(b, a), expected);
    });
  }
});
