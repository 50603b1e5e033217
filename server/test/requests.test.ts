/**
 * The custom requests (`darkprint/compiled`, `darkprint/report`, `darkprint/import`), a client with few
 * capabilities, and the shipped entry `server/out/server.js` (built by `npm run build`).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CodeAction, Command, type CompletionList, type Diagnostic, type Range } from 'vscode-languageserver-protocol/node';
import { parseFixture } from '../../shared/test/support/fixture';
import { lineIndex } from '../../shared/src/text';
import { importAttractor, importedBundleFiles } from '../../shared/src/compile';
import { reviewerCard, writerCard } from './support/cards';
import { bundledEntry, errorLogs, startSession, testCapabilities, type Session, type SessionOptions } from './support/lsp-client';

const topologyText = `//- topology.dot
digraph g {
  writer [card="writer@1.0.0"];
  reviewer [card="reviewer@1.0.0"];
  writer -> reviewer;
}
`;

const bundle = topologyText + writerCard({ extra: 'risk_markers: [irreversible-action]\n' }) + reviewerCard();

interface Opened {
  readonly dir: string;
  readonly session: Session;
  readonly texts: Map<string, string>;
  close(): Promise<void>;
}

async function open(fixture: string, options: Partial<SessionOptions> = {}): Promise<Opened> {
  const dir = mkdtempSync(path.join(tmpdir(), 'darkprint-requests-'));
  const texts = new Map<string, string>();
  for (const f of parseFixture(fixture).files) {
    mkdirSync(path.dirname(path.join(dir, f.path)), { recursive: true });
    writeFileSync(path.join(dir, f.path), f.text);
    texts.set(f.path, f.text);
  }
  const session = await startSession({ folders: [dir], settings: { debounceMs: 0 }, ...options });
  return {
    dir,
    session,
    texts,
    async close() {
      const logged = errorLogs(session);
      const code = await session.shutdown();
      rmSync(dir, { recursive: true, force: true });
      assert.deepEqual(logged, [], 'the server logged no internal error');
      assert.equal(code, 0, 'the server exits cleanly');
    },
  };
}

/** What a file shows once it shows something (for a client that reads no version, whose publications carry none). */
async function findingsOn(o: Opened, file: string): Promise<Diagnostic[]> {
  const uri = o.session.uri(file);
  await o.session.until(() => (o.session.diagnostics.get(uri)?.diagnostics.length ?? 0) > 0, () => JSON.stringify([...o.session.diagnostics.keys()]));
  return o.session.diagnostics.get(uri)!.diagnostics;
}

function covered(text: string, range: Range): string {
  const index = lineIndex(text);
  return text.slice(index.offsetAt(range.start), index.offsetAt(range.end));
}

describe('server: custom requests', function () {
  it('darkprint/compiled answers the Attractor text of the bundle of any of its files', async function () {
    const o = await open(bundle);
    try {
      const answer = await o.session.request<{ text?: string; slug?: string; reasons?: string[] }>('darkprint/compiled', { uri: o.session.uri('cards/reviewer@1.0.0.yaml') });
      assert.equal(answer.reasons, undefined, JSON.stringify(answer.reasons));
      assert.ok(answer.text?.includes('digraph'), answer.text);
      assert.ok(answer.text?.includes('writer'), answer.text);
      assert.equal(typeof answer.slug, 'string');
    } finally {
      await o.close();
    }
  });

  it('darkprint/compiled answers the reasons when the bundle cannot compile, with open documents over disk', async function () {
    const o = await open(bundle);
    try {
      const topology = o.texts.get('topology.dot')!.replace('reviewer [card="reviewer@1.0.0"];', 'reviewer [card="reviewer@9.9.9"];');
      o.session.open('topology.dot', topology);
      const answer = await o.session.request<{ text?: string; reasons?: string[] }>('darkprint/compiled', { uri: o.session.uri('topology.dot') });
      assert.equal(answer.text, undefined);
      assert.ok(answer.reasons?.some((r) => r.includes('reviewer')), JSON.stringify(answer.reasons));
    } finally {
      await o.close();
    }
  });

  it('darkprint/compiled names each finding that stops the export, with its place', async function () {
    const o = await open(bundle);
    try {
      const card = o.texts.get('cards/writer@1.0.0.yaml')!;
      const broken = card.replace(/^version: .*$/m, 'version: [1]');
      assert.notEqual(broken, card);
      o.session.open('cards/writer@1.0.0.yaml', broken);
      const answer = await o.session.request<{ text?: string; reasons?: string[] }>('darkprint/compiled', { uri: o.session.uri('topology.dot') });
      assert.equal(answer.text, undefined);
      const line = broken.split('\n').findIndex((l) => l.startsWith('version:')) + 1;
      const reasons = answer.reasons ?? [];
      assert.ok(reasons[0]?.startsWith(`cards/writer@1.0.0.yaml:${line}:`), JSON.stringify(reasons));
      assert.match(reasons[0], /error card\/\S+: /);
      assert.ok(reasons.some((r) => r.includes('stop')), JSON.stringify(reasons));
    } finally {
      await o.close();
    }
  });

  it('darkprint/compiled and darkprint/report say so for a file in no bundle', async function () {
    const o = await open(bundle);
    try {
      const outside = `file://${path.join(tmpdir(), 'no-such-folder-for-darkprint', 'x.dot')}`;
      for (const method of ['darkprint/compiled', 'darkprint/report']) {
        const answer = await o.session.request<{ reasons?: string[] }>(method, { uri: outside });
        assert.ok(answer.reasons && answer.reasons.length > 0, `${method}: ${JSON.stringify(answer)}`);
      }
    } finally {
      await o.close();
    }
  });

  it('darkprint/report answers the analysis, with the place of each node it names', async function () {
    const o = await open(bundle);
    try {
      const report = await o.session.request<{
        bundle: { slug: string; nodes: number };
        security: { level: number; rationale: string; penalties: { marker: string; nodeIds: string[] }[]; findings: { marker: string; nodeId: string; explanation?: string }[]; cycles: unknown[] };
        locations: { uri: string; ranges: Record<string, Range> };
        autonomy: { level: number; class: string };
        phaseCoverage: { covered: string[]; missing: string[] };
      }>('darkprint/report', { uri: o.session.uri('topology.dot') });
      assert.equal(report.bundle.nodes, 2);
      assert.equal(report.security.level, 3);
      assert.ok(report.security.rationale.includes('irreversible-action'), report.security.rationale);
      const finding = report.security.findings.find((f) => f.marker === 'irreversible-action');
      assert.equal(finding?.nodeId, 'writer', JSON.stringify(report.security.findings));
      assert.match(finding.explanation ?? '', /declares the risk marker irreversible-action/);
      assert.deepEqual(report.security.cycles, []);
      const penalty = report.security.penalties.find((p) => p.marker === 'irreversible-action');
      assert.deepEqual(penalty?.nodeIds, ['writer']);
      // where the nodes are: the topology once, each node's range once
      assert.equal(report.locations.uri, o.session.uri('topology.dot'));
      assert.deepEqual(Object.keys(report.locations.ranges), ['writer']);
      assert.equal(covered(o.texts.get('topology.dot')!, report.locations.ranges.writer), 'writer');
      assert.ok(['assisted', 'supervised', 'conditional', 'closed-loop'].includes(report.autonomy.class));
      assert.deepEqual(report.phaseCoverage.covered, ['implementation', 'testing']);
    } finally {
      await o.close();
    }
  });

  it('darkprint/report on a 12,000-node cycle answers a few megabytes, and the request sent after it is answered too', async function () {
    // (each member's finding once held the whole cycle: 12,000 × 12,000 ids, more than a string can hold, so no answer came)
    const size = 12_000;
    const lines = ['//- topology.dot', 'digraph g {'];
    for (let i = 0; i < size; i++) lines.push(`  n${i} [card="step@1.0.0"];`);
    for (let i = 0; i < size; i++) lines.push(`  n${i} -> n${(i + 1) % size};`);
    lines.push('}', '//- cards/step@1.0.0.yaml', 'id: step', 'name: Step', 'type: agent', 'action: step', 'spec: Takes one step of the work and hands it on to the next.');
    lines.push('inputs:', '  - name: work', '    type: markdown', 'outputs:', '  - name: work', '    type: markdown', 'version: 1.0.0', '');
    const o = await open(lines.join('\n'));
    try {
      const reportAsked = o.session.request<{ security: { findings: { marker: string; cycle?: number }[]; cycles: { members: string[] }[] } }>('darkprint/report', {
        uri: o.session.uri('topology.dot'),
      });
      const hoverAsked = o.session.request<{ contents: unknown } | null>('textDocument/hover', { textDocument: { uri: o.session.uri('topology.dot') }, position: { line: 1, character: 3 } });
      const [report, hover] = await Promise.all([reportAsked, hoverAsked]);
      assert.ok(hover !== null && JSON.stringify(hover.contents).includes('step@1.0.0'), JSON.stringify(hover));
      const bytes = Buffer.byteLength(JSON.stringify(report));
      assert.ok(bytes < 4_000_000, `${bytes} bytes`);
      assert.equal(report.security.cycles.length, 1);
      assert.equal(report.security.cycles[0].members.length, size);
      const loops = report.security.findings.filter((f) => f.marker === 'unbounded-loop');
      assert.equal(loops.length, size);
      assert.ok(loops.every((f) => f.cycle === 0));
    } finally {
      await o.close();
    }
  });
});

describe('server: clients with fewer capabilities', function () {
  const codeActionLiterals = { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix', 'source.fixAll'] } } };

  it('without documentChanges support, a fix is a plain changes map; without relatedInformation, none is sent', async function () {
    const fixture = bundle.replace('  writer [card="writer@1.0.0"];\n  reviewer', '  code-builder [card="writer@1.0.0"];\n  reviewer').replace('writer -> reviewer', 'code-builder -> reviewer');
    const o = await open(fixture, { capabilities: { textDocument: { codeAction: codeActionLiterals } } });
    try {
      const text = o.texts.get('topology.dot')!;
      o.session.open('topology.dot', text);
      const published = await findingsOn(o, 'topology.dot');
      for (const d of published) {
        assert.equal(d.relatedInformation, undefined);
        assert.equal(d.codeDescription, undefined);
      }
      const line = text.split('\n').findIndex((l) => l.includes('code-builder ['));
      const actions = (await o.session.request<CodeAction[]>('textDocument/codeAction', {
        textDocument: { uri: o.session.uri('topology.dot') },
        range: { start: { line, character: 2 }, end: { line, character: 2 } },
        context: { diagnostics: [] },
      })) ?? [];
      const rename = actions.find((a) => a.title.includes('code_builder'));
      assert.ok(rename?.edit?.changes, JSON.stringify(actions));
      assert.equal(rename.edit.documentChanges, undefined);
      assert.equal(rename.edit.changes[o.session.uri('topology.dot')].length, 2);
      // Without hierarchical symbol support, symbols come flat, each with its location and container.
      const symbols = await o.session.request<{ name: string; location: { uri: string }; containerName?: string }[]>('textDocument/documentSymbol', {
        textDocument: { uri: o.session.uri('topology.dot') },
      });
      const node = symbols.find((x) => x.name === 'reviewer');
      assert.ok(node, JSON.stringify(symbols));
      assert.equal(node.location.uri, o.session.uri('topology.dot'));
      assert.equal(node.containerName, 'g');
    } finally {
      await o.close();
    }
  });
});

describe('server: what a client declares decides what it is sent (LSP 3.17)', function () {
  // a node id Attractor cannot read (a quick fix), an orphan card (a finding with a tag), an edge (a symbol)
  const fixture =
    bundle.replace('  writer [card="writer@1.0.0"];\n  reviewer', '  code-builder [card="writer@1.0.0"];\n  reviewer').replace('writer -> reviewer', 'code-builder -> reviewer') +
    '//- cards/spare@1.0.0.yaml\nid: spare\nname: Spare\ntype: agent\naction: wait\nspec: Waits.\ninputs: []\noutputs: []\nversion: 1.0.0\n';
  const fixLine = (o: Opened): number => o.texts.get('topology.dot')!.split('\n').findIndex((l) => l.includes('code-builder ['));
  const actionsAt = (o: Opened): Promise<(CodeAction | Command)[]> =>
    o.session.request<(CodeAction | Command)[]>('textDocument/codeAction', {
      textDocument: { uri: o.session.uri('topology.dot') },
      range: { start: { line: fixLine(o), character: 2 }, end: { line: fixLine(o), character: 2 } },
      context: { diagnostics: [] },
    });

  it('a client that takes only commands: code actions come as commands that apply their edit, and nothing beyond the base kinds or tags is sent', async function () {
    const o = await open(fixture, { capabilities: { workspace: { applyEdit: true } } });
    try {
      assert.equal(o.session.initializeResult.capabilities.codeActionProvider, true);
      assert.ok(o.session.initializeResult.capabilities.executeCommandProvider?.commands.includes('darkprint.applyEdit'));
      const applied: unknown[] = [];
      o.session.connection.onRequest('workspace/applyEdit', (params: unknown) => {
        applied.push(params);
        return { applied: true };
      });
      o.session.open('topology.dot', o.texts.get('topology.dot')!);
      await findingsOn(o, 'topology.dot');
      const orphan = (await findingsOn(o, 'cards/spare@1.0.0.yaml')).find((d) => d.code === 'bundle/orphan-card');
      assert.ok(orphan, 'the orphan card is reported');
      assert.equal(orphan.tags, undefined, 'no tags without tagSupport');
      // the version goes all the same: the issue asks for it, and VS Code's client declares no versionSupport
      assert.equal(o.session.diagnostics.get(o.session.uri('topology.dot'))?.version, 1, 'the open topology is published with its version');

      const actions = await actionsAt(o);
      const rename = actions.find((a) => a.title.includes('code_builder'));
      assert.ok(rename && Command.is(rename), JSON.stringify(actions));
      assert.equal(rename.command, 'darkprint.applyEdit');
      assert.ok(actions.every((a) => !('isPreferred' in a) && !('kind' in a)), JSON.stringify(actions));
      const [edit] = rename.arguments as [{ changes: Record<string, unknown[]> }];
      assert.equal(edit.changes[o.session.uri('topology.dot')].length, 2);
      assert.equal(await o.session.request('workspace/executeCommand', { command: rename.command, arguments: rename.arguments }), null);
      assert.deepEqual(applied, [{ edit }]);

      const text = o.texts.get('topology.dot')!;
      const pin = text.split('\n').findIndex((l) => l.includes('reviewer [card="reviewer@'));
      const versions = await o.session.request<CompletionList>('textDocument/completion', {
        textDocument: { uri: o.session.uri('topology.dot') },
        position: { line: pin, character: text.split('\n')[pin].indexOf('@') + 1 },
      });
      assert.ok(versions.items.length > 0);
      assert.ok(versions.items.every((i) => i.kind !== undefined && i.kind >= 1 && i.kind <= 18), JSON.stringify(versions.items.map((i) => i.kind)));
      const symbols = await o.session.request<{ name: string; kind: number }[]>('textDocument/documentSymbol', { textDocument: { uri: o.session.uri('topology.dot') } });
      assert.ok(symbols.some((x) => x.name.includes('->')), JSON.stringify(symbols));
      assert.ok(symbols.every((x) => x.kind >= 1 && x.kind <= 18), JSON.stringify(symbols.map((x) => x.kind)));
    } finally {
      await o.close();
    }
  });

  it('a client that takes neither code action literals nor edits sent to it is offered no code action', async function () {
    const o = await open(fixture, { capabilities: {} });
    try {
      o.session.open('topology.dot', o.texts.get('topology.dot')!);
      await findingsOn(o, 'topology.dot');
      assert.deepEqual(await actionsAt(o), []);
    } finally {
      await o.close();
    }
  });

  it('a client that declares them gets code action kinds, the preferred fix and tags', async function () {
    const o = await open(fixture);
    try {
      assert.deepEqual(o.session.initializeResult.capabilities.codeActionProvider, { codeActionKinds: ['quickfix', 'source.fixAll'] });
      o.session.open('topology.dot', o.texts.get('topology.dot')!);
      await o.session.versionPublished('topology.dot', 1);
      const orphan = (await findingsOn(o, 'cards/spare@1.0.0.yaml')).find((d) => d.code === 'bundle/orphan-card');
      assert.deepEqual(orphan?.tags, [1]);
      const rename = (await actionsAt(o)).find((a) => a.title.includes('code_builder'));
      assert.ok(rename && CodeAction.is(rename), JSON.stringify(rename));
      assert.equal(rename.isPreferred, true);
      assert.equal(rename.kind, 'quickfix');
    } finally {
      await o.close();
    }
  });

  it('a refused rename fails as RequestFailed with the reason; malformed parameters get InvalidParams', async function () {
    const o = await open(bundle);
    try {
      const card = o.session.uri('cards/writer@1.0.0.yaml');
      await assert.rejects(o.session.request('textDocument/rename', { textDocument: { uri: card }, position: { line: 0, character: 5 }, newName: 'bad name!' }), (error: { code?: number; message?: string }) => {
        assert.equal(error.code, -32803);
        assert.match(error.message ?? '', /is not a card id/);
        return true;
      });
      const invalid = async (method: string, params: unknown, lacks: RegExp): Promise<void> => {
        await assert.rejects(o.session.request(method, params), (error: { code?: number; message?: string }) => {
          assert.equal(error.code, -32602, method);
          assert.match(error.message ?? '', lacks);
          return true;
        });
      };
      await invalid('textDocument/hover', { textDocument: { uri: card } }, /position/);
      await invalid('textDocument/codeAction', { textDocument: { uri: card }, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } } }, /context/);
      await invalid('textDocument/references', { textDocument: { uri: card }, position: { line: 0, character: 0 } }, /context/);
      await invalid('textDocument/documentSymbol', { textDocument: {} }, /textDocument\.uri/);
      await invalid('textDocument/rename', { textDocument: { uri: card }, position: { line: 0, character: 5 } }, /newName/);
    } finally {
      await o.close();
    }
  });

  it('a card renamed for a client that cannot rename files: the ids change, and the user is told which file to rename', async function () {
    const o = await open(bundle, { capabilities: { ...testCapabilities, workspace: { ...testCapabilities.workspace, workspaceEdit: { documentChanges: true } } } });
    try {
      const shown: { type: number; message: string }[] = [];
      o.session.connection.onNotification('window/showMessage', (params: { type: number; message: string }) => shown.push(params));
      const edit = await o.session.request<{ documentChanges: { kind?: string; textDocument?: { uri: string } }[] }>('textDocument/rename', {
        textDocument: { uri: o.session.uri('cards/writer@1.0.0.yaml') },
        position: { line: 0, character: 5 },
        newName: 'author',
      });
      assert.ok(edit.documentChanges.length > 0 && edit.documentChanges.every((c) => c.kind === undefined), JSON.stringify(edit));
      assert.equal(shown.length, 1, JSON.stringify(shown));
      assert.equal(shown[0].type, 2);
      assert.match(shown[0].message, /rename cards\/writer@1\.0\.0\.yaml to cards\/author@1\.0\.0\.yaml yourself/);
    } finally {
      await o.close();
    }
  });

  it("keeps to a client's folding range limit, the outer folds first", async function () {
    const fixture = '//- topology.dot\ndigraph g {\n  subgraph cluster_a {\n    a;\n    b;\n  }\n  /* a\n     comment */\n}\n';
    const o = await open(fixture, { capabilities: { ...testCapabilities, textDocument: { ...testCapabilities.textDocument, foldingRange: { rangeLimit: 2 } } } });
    try {
      const folds = await o.session.request<{ startLine: number; endLine: number }[]>('textDocument/foldingRange', { textDocument: { uri: o.session.uri('topology.dot') } });
      assert.deepEqual(
        folds.map((f) => [f.startLine, f.endLine]),
        [
          [0, 7],
          [1, 4],
        ],
      );
    } finally {
      await o.close();
    }
  });
});

describe('server: a fix that opens a place', function () {
  // removing `type=` from a node, then opening the `type` of its card
  const fixture = bundle.replace('  writer [card="writer@1.0.0"];', '  writer [card="writer@1.0.0", type="box"];');
  const actionsAt = async (o: Opened): Promise<CodeAction[]> => {
    const text = o.texts.get('topology.dot')!;
    const line = text.split('\n').findIndex((l) => l.includes('type="box"'));
    const character = text.split('\n')[line].indexOf('type=');
    return (
      (await o.session.request<CodeAction[]>('textDocument/codeAction', {
        textDocument: { uri: o.session.uri('topology.dot') },
        range: { start: { line, character }, end: { line, character } },
        context: { diagnostics: [] },
      })) ?? []
    );
  };

  it('runs a command after its edit that has the client show the card at its type', async function () {
    const o = await open(fixture, { capabilities: { ...testCapabilities, window: { showDocument: { support: true } } } });
    try {
      const shown: unknown[] = [];
      o.session.connection.onRequest('window/showDocument', (params: unknown) => {
        shown.push(params);
        return { success: true };
      });
      await o.session.request('darkprint/report', { uri: o.session.uri('.') });
      const actions = await actionsAt(o);
      const opening = actions.find((a) => a.command !== undefined);
      assert.ok(opening, JSON.stringify(actions.map((a) => a.title)));
      assert.ok(opening.edit, 'the action still carries its edit');
      assert.equal(opening.command!.command, 'darkprint.showLocation');
      const card = o.texts.get('cards/writer@1.0.0.yaml')!;
      const [uri, range] = opening.command!.arguments as [string, Range];
      assert.equal(uri, o.session.uri('cards/writer@1.0.0.yaml'));
      assert.equal(covered(card, range), 'agent');
      assert.equal(await o.session.request('workspace/executeCommand', opening.command), null);
      assert.deepEqual(shown, [{ uri, selection: range, takeFocus: true }]);
    } finally {
      await o.close();
    }
  });

  it('is not offered to a client that cannot be asked to show a document (the same edit is, on its own)', async function () {
    const o = await open(fixture);
    try {
      await o.session.request('darkprint/report', { uri: o.session.uri('.') });
      const actions = await actionsAt(o);
      assert.ok(actions.some((a) => a.title.startsWith('Remove `type` from node `writer`')), JSON.stringify(actions.map((a) => a.title)));
      assert.ok(actions.every((a) => a.command === undefined && !a.title.includes('and open')), JSON.stringify(actions.map((a) => a.title)));
    } finally {
      await o.close();
    }
  });
});

describe('server: the darkprint/import request', function () {
  it('darkprint/import answers the files `darkprint import` writes, and the findings on the pipeline with their ranges', async function () {
    const o = await open(bundle);
    try {
      const pipeline = 'digraph release_flow {\n  start [shape=Mdiamond];\n  build [prompt="Build it.", bogus_attribute="x"];\n  exit [shape=Msquare];\n  start -> build -> exit;\n}\n';
      const uri = 'file:///elsewhere/release%20flow.dot';
      const answer = await o.session.request<ImportAnswerShape>('darkprint/import', { uri, text: pipeline, author: '  ada ' });
      // the engine's own import, as the command line makes it: the same files
      const expected = importAttractor(pipeline, { author: 'ada', origin: 'release flow.dot', file: 'release flow.dot' });
      assert.deepEqual(answer.files, importedBundleFiles(expected));
      assert.equal(answer.reasons, undefined);
      assert.ok(expected.diagnostics.length > 0, 'the pipeline has a finding');
      assert.equal(answer.diagnostics.length, expected.diagnostics.length);
      for (const [i, d] of expected.diagnostics.entries()) {
        assert.equal(answer.diagnostics[i]!.code, d.code);
        assert.equal(covered(pipeline, answer.diagnostics[i]!.range), pipeline.slice(d.location.span!.start, d.location.span!.end));
      }
      assert.ok(answer.files!.some((f) => f.text.includes('derived:attractor release flow.dot')), 'the provenance names the pipeline');
      // nothing was written anywhere: the answer is data
      assert.deepEqual(readdirSync(o.dir).sort(), [...new Set([...o.texts.keys()].map((f) => f.split('/')[0]!))].sort());
    } finally {
      await o.close();
    }
  });

  it('darkprint/import refuses a pipeline that does not read, and a blank author, with reasons', async function () {
    const o = await open(bundle);
    try {
      const broken = 'digraph g {\n  a -> ;\n';
      const answer = await o.session.request<ImportAnswerShape>('darkprint/import', { uri: 'file:///p/broken.dot', text: broken, author: 'ada' });
      assert.equal(answer.files, undefined);
      assert.ok(answer.reasons?.some((r) => r.startsWith('broken.dot ')), JSON.stringify(answer.reasons));
      assert.ok(answer.diagnostics.some((d) => d.code === 'dot/parse-error' && d.range.start.line === 1), JSON.stringify(answer.diagnostics));
      const blank = await o.session.request<ImportAnswerShape>('darkprint/import', { uri: 'file:///p/ok.dot', text: 'digraph g { a -> b; }\n', author: ' ' });
      assert.equal(blank.files, undefined);
      assert.match(blank.reasons?.[0] ?? '', /author handle is blank/);
    } finally {
      await o.close();
    }
  });
});

interface ImportAnswerShape {
  readonly files?: { readonly path: string; readonly text: string }[];
  readonly reasons?: string[];
  readonly diagnostics: Diagnostic[];
}

describe('server: completion asked by a trigger character', function () {
  it('a : or , typed at the end of a line gets no list (Enter would take its first item), asked otherwise it does', async function () {
    const o = await open(bundle);
    try {
      const file = 'cards/writer@1.0.0.yaml';
      const text = `${o.texts.get(file)!.replace(/\n?$/, '\n')}tools:\n`;
      o.session.open(file, text);
      await o.session.versionPublished(file, 1);
      const line = text.split('\n').findIndex((l) => l === 'tools:');
      const ask = (character: number, context: unknown) =>
        o.session.request<CompletionList | null>('textDocument/completion', { textDocument: { uri: o.session.uri(file) }, position: { line, character }, context });
      assert.equal(await ask(6, { triggerKind: 2, triggerCharacter: ':' }), null, 'the : typed at the end of the line');
      const invoked = await ask(6, { triggerKind: 1 });
      assert.ok(invoked !== null && invoked.items.length > 0, 'asked for explicitly');
      const noContext = await ask(6, undefined);
      assert.ok(noContext !== null && noContext.items.length > 0, 'a client that sends no context');
    } finally {
      await o.close();
    }
  });
});

describe('server: long completion lists', function () {
  it('beyond 1,000 items the list is narrowed by the typed prefix, cut, marked incomplete, and shares its edit range', async function () {
    let fixture = '//- topology.dot\ndigraph g {\n  a [card="$0"];\n}\n';
    for (let i = 0; i < 1200; i++) {
      fixture += `//- cards/c${i}@1.0.0.yaml\nid: ${i % 2 === 0 ? 'even' : 'odd'}-${i}\nname: C\ntype: agent\naction: a\nspec: s\ninputs: []\noutputs: []\nversion: 1.0.0\n`;
    }
    const parsed = parseFixture(fixture);
    const o = await open(fixture, {
      capabilities: { textDocument: { publishDiagnostics: { versionSupport: true }, completion: { completionList: { itemDefaults: ['editRange'] } } } },
    });
    try {
      const text = o.texts.get('topology.dot')!;
      const cursor = parsed.cursor!.offset;
      o.session.open('topology.dot', text);
      await o.session.versionPublished('topology.dot', 1);
      const ask = async (typed: string): Promise<CompletionList> => {
        const typedText = text.slice(0, cursor) + typed + text.slice(cursor);
        const version = o.session.change('topology.dot', typedText);
        await o.session.versionPublished('topology.dot', version);
        const position = lineIndex(typedText).positionAt(cursor + typed.length);
        return (await o.session.request<CompletionList | null>('textDocument/completion', { textDocument: { uri: o.session.uri('topology.dot') }, position }))!;
      };
      const all = await ask('');
      assert.equal(all.isIncomplete, true);
      assert.equal(all.items.length, 1000);
      const range = all.itemDefaults?.editRange as Range | undefined;
      assert.ok(range && 'start' in range, JSON.stringify(all.itemDefaults));
      assert.ok(all.items.every((i) => i.textEdit === undefined));
      const odd = await ask('odd-11');
      assert.equal(odd.isIncomplete, true);
      assert.ok(odd.items.length > 0 && odd.items.length < 1000, String(odd.items.length));
      assert.ok(odd.items.every((i) => i.label.startsWith('odd-')), odd.items.map((i) => i.label).join(', '));
      assert.ok(odd.items.some((i) => i.label === 'odd-11@1.0.0'));
      // the first 1,000 in sort order, whatever was typed before (the sorted list is kept between requests)
      const labels = (list: CompletionList): string[] => list.items.map((i) => i.label);
      const expected = [...Array(1200).keys()].map((i) => `${i % 2 === 0 ? 'even' : 'odd'}-${i}@1.0.0`).sort().slice(0, 1000);
      assert.deepEqual(labels(all), expected);
      const ones = await ask('1');
      assert.deepEqual(labels(ones), expected, 'every label holds a 1 (in @1.0.0)');
      assert.deepEqual(labels(await ask('')), expected);
    } finally {
      await o.close();
    }
  });
});

describe('server: the shipped entry', function () {
  it('server/out/server.js starts over stdio, publishes diagnostics and links each code to the docs beside it', async function () {
    assert.ok(existsSync(bundledEntry), `${bundledEntry} is missing: run \`npm run build\` first`);
    const broken = bundle.replace('reviewer [card="reviewer@1.0.0"]', 'reviewer [card="reviewer@2.0.0"]');
    const o = await open(broken, { entry: bundledEntry });
    try {
      o.session.open('topology.dot', o.texts.get('topology.dot')!);
      const published = await o.session.versionPublished('topology.dot', 1);
      const missing = published.diagnostics.find((d: Diagnostic) => d.code === 'bundle/missing-card');
      assert.ok(missing, JSON.stringify(published.diagnostics));
      const href = missing.codeDescription?.href ?? '';
      assert.ok(href.startsWith('file:'), `a link to the docs: ${href}`);
      // (a page on this machine is linked at the line of the code's heading, which VS Code opens there)
      const [file, fragment] = href.split('#');
      const docs = readFileSync(fileURLToPath(file), 'utf8');
      const line = Number(/^L([0-9]+)$/.exec(fragment)?.[1]);
      assert.equal(docs.split(/\r?\n/)[line - 1], '### `bundle/missing-card`', `the link names the line of the code's heading: ${href}`);
    } finally {
      await o.close();
    }
  });
});
