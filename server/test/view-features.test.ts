/**
 * Document highlight, semantic tokens, inlay hints, code lenses, document links and workspace
 * symbols over stdio, as data (support/view-features.ts): the answer as a client gets it, its
 * ranges converted back with the engine's line index, against marks written under the fixture's
 * lines. These test the plumbing (positions, the token legend and encoding, commands, URIs,
 * settings); the features' own behaviour is tested in shared/test.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CodeLens, DocumentHighlight, SemanticTokens, SemanticTokensDelta, SymbolInformation } from 'vscode-languageserver-protocol/node';
import { parseFixture } from '../../shared/test/support/fixture';
import { lineIndex } from '../../shared/src/text';
import { reviewerCard, writerCard } from './support/cards';
import { errorLogs, startSession, testCapabilities } from './support/lsp-client';
import { applyTokenEdits, checkView, decodeTokens, legendOf, openMarked, renderSymbols, type ViewCase } from './support/view-features';

const cards = writerCard() + reviewerCard();

const topology = `//- topology.dot
digraph g {
  // writer drafts, and the writer's draft goes to the reviewer
  writer [card="writer@1.0.0", label="writer"];
  reviewer [card="reviewer@1.0.0", tooltip="not the writer"];
  writer -> reviewer [label="writer to reviewer", out="draft"];
}
`;

const cases: ViewCase[] = [
  {
    name: 'highlight: a node id’s statement and endpoints, not the comment, the labels or the tooltip',
    request: 'documentHighlight',
    fixture: `//- topology.dot
digraph g {
  // writer drafts, and the writer's draft goes to the reviewer
  wri$0ter [card="writer@1.0.0", label="writer"];
//^^^^^^ write
  reviewer [card="reviewer@1.0.0", tooltip="not the writer"];
  writer -> reviewer [label="writer to reviewer", out="draft"];
//^^^^^^ read
}
${cards}`,
  },
  {
    name: 'highlight: a term in a card and the other fields naming it',
    request: 'documentHighlight',
    fixture: topology + reviewerCard().replace('type: markdown', 'type: mark$0down').replace('    type: mark$0down\n', '    type: mark$0down\n#         ^^^^^^^^ read\n') + writerCard(),
  },
  {
    name: 'semantic tokens: node ids, pins, ports and attribute names, in the server’s legend',
    request: 'semanticTokens',
    fixture: `//- topology.dot
digraph g {
  // $0writer drafts
  writer [card="writer@1.0.0", label="writer"];
//^^^^^^ node.declaration
//        ^^^^ darkprintAttribute
//              ^^^^^^ card
//                     ^^^^^ cardVersion
//                             ^^^^^ attractorAttribute
  reviewer [card="reviewer@2.0.0", colour=red];
//^^^^^^^^ node.declaration.unresolved
//          ^^^^ darkprintAttribute
//                ^^^^^^^^ card.unresolved
//                         ^^^^^ cardVersion.unresolved
//                                 ^^^^^^ unknownAttribute
  writer -> reviewer [out="draft"];
//^^^^^^ node
//          ^^^^^^^^ node.unresolved
//                    ^^^ darkprintAttribute
//                         ^^^^^ port
}
${cards}`,
  },
  {
    name: 'semantic tokens of a range: the lines asked for',
    request: 'semanticTokensRange',
    lines: [3, 4],
    fixture: `//- topology.dot
digraph g {
  // $0writer drafts
  writer [card="writer@1.0.0", label="writer"];
  reviewer [card="reviewer@1.0.0"];
//^^^^^^^^ node.declaration
//          ^^^^ darkprintAttribute
//                ^^^^^^^^ card
//                         ^^^^^ cardVersion
  writer -> reviewer;
}
${cards}`,
  },
  {
    name: 'semantic tokens of a card: terms by kind, its id, ports and dependencies',
    request: 'semanticTokens',
    fixture: `${topology}//- cards/reviewer@1.0.0.yaml
id: reviewer
#   ^^^^^^^^ card.declaration
$0name: Reviewer
type: agent
#     ^^^^^ nodeType
phase: testing
#      ^^^^^^^ phase
action: review
spec: Reviews the draft and writes a report of what should change.
inputs:
  - name: draft
#         ^^^^^ port.declaration
    type: markdown
#         ^^^^^^^^ dataType
outputs:
  - name: report
#         ^^^^^^ port.declaration
    type: report
#         ^^^^^^ dataType
dependencies: [writer]
#              ^^^^^^ card
version: 1.0.0
${writerCard()}`,
  },
  {
    name: 'inlay hints: a node’s card type and phases, an edge’s ports and type',
    request: 'inlayHint',
    fixture: `//- topology.dot
$0digraph g {
  writer [card="writer@1.0.0"];
//                             ^ agent · implementation
  reviewer [card="reviewer@1.0.0"]
//                                ^ agent · testing
  writer -> reviewer;
//                   ^ draft: markdown
}
${cards}`,
  },
  {
    name: 'inlay hints: a kind turned off in the settings is not given',
    request: 'inlayHint',
    settings: { inlayHints: { nodeCards: false } },
    fixture: `//- topology.dot
$0digraph g {
  writer [card="writer@1.0.0"];
  reviewer [card="reviewer@1.0.0"];
  writer -> reviewer;
//                   ^ draft: markdown
}
${cards}`,
  },
  {
    name: 'code lenses: the bundle on the graph keyword (the report), each node’s card (opened by the server)',
    request: 'codeLens',
    fixture: `//- topology.dot
$0digraph g {
//[0,7) security 4/4 · autonomy 4 Closed-loop · phases 2/5 → darkprint.showReport topology.dot
  writer [card="writer@1.0.0"];
//^^^^^^ writer@1.0.0 · agent
  reviewer [card="reviewer@1.0.0"];
//^^^^^^^^ reviewer@1.0.0 · agent
  writer -> reviewer;
}
${cards}`,
  },
  {
    name: 'code lenses: a client the server can ask to show a document gets the card opened by the server',
    request: 'codeLens',
    capabilities: { ...testCapabilities, window: { showDocument: { support: true } } },
    fixture: `//- topology.dot
$0digraph g {
//[0,7) security 4/4 · autonomy 4 Closed-loop · phases 1/5 → darkprint.showReport topology.dot
  writer [card="writer@1.0.0"];
//^^^^^^ writer@1.0.0 · agent → darkprint.showLocation cards/writer@1.0.0.yaml
}
${writerCard()}`,
  },
  {
    name: 'code lenses: a card lists the nodes pinning it (a command of the extension)',
    request: 'codeLens',
    fixture: `${topology}${writerCard().replace('id: writer', '$0id: writer\n#     ^^^^^^ pinned by 1 node → darkprint.showReferences cards/writer@1.0.0.yaml')}${reviewerCard()}`,
  },
  {
    name: 'document links: each pin to its card file',
    request: 'documentLink',
    fixture: `//- topology.dot
$0digraph g {
  writer [card="writer@1.0.0"];
//              ^^^^^^^^^^^^ cards/writer@1.0.0.yaml
  reviewer [card="reviewer@1.0.0"];
//                ^^^^^^^^^^^^^^ cards/reviewer@1.0.0.yaml
  ghost [card="ghost@1.0.0"];
}
${cards}`,
  },
  {
    name: 'document links: a card’s dependencies to their card files',
    request: 'documentLink',
    fixture: `${topology}${reviewerCard({ dependencies: '[$0writer, ghost]' }).replace('dependencies: [$0writer, ghost]\n', 'dependencies: [$0writer, ghost]\n#              ^^^^^^ cards/writer@1.0.0.yaml\n')}${writerCard()}`,
  },
];

describe('server: highlights, tokens, hints, lenses, links', function () {
  for (const c of cases) {
    it(c.name, async function () {
      await checkView(c);
    });
  }

  it('highlight never returns a range inside a comment or a label, wherever the cursor is', async function () {
    const opened = await openMarked(`//- topology.dot
digraph g {
  // writer -> reviewer, writer again
  $0writer [card="writer@1.0.0", label="writer -> reviewer"];
  reviewer [card="reviewer@1.0.0", label="reviewer of the writer"]; /* writer */
  writer -> reviewer [label="writer", out="draft", in="draft"]; # reviewer
  co_writer -> reviewer [label="reviewer"];
}
${cards}`);
    try {
      const { session, texts, file } = opened;
      const text = texts.get(file)!;
      const index = lineIndex(text);
      // the comments and the label values, by their text
      const excluded = [...text.matchAll(/\/\/[^\n]*|\/\*.*?\*\/|#[^\n]*|label="[^"]*"/g)].map((m) => ({ start: m.index, end: m.index + m[0].length }));
      let lit = 0;
      for (let offset = 0; offset <= text.length; offset++) {
        const highlights = (await session.request<DocumentHighlight[] | null>('textDocument/documentHighlight', { textDocument: { uri: session.uri(file) }, position: index.positionAt(offset) })) ?? [];
        for (const h of highlights) {
          const start = index.offsetAt(h.range.start);
          const end = index.offsetAt(h.range.end);
          lit++;
          const inside = excluded.find((x) => start < x.end && x.start < end);
          assert.equal(inside, undefined, `the cursor at ${offset} lights ${JSON.stringify(text.slice(start, end))} at ${start}, inside ${JSON.stringify(inside && text.slice(inside.start, inside.end))}`);
          assert.ok(/^(writer|reviewer|co_writer|draft)$/.test(text.slice(start, end)), `a highlight covers a whole name: ${JSON.stringify(text.slice(start, end))}`);
        }
      }
      assert.ok(lit > 0, 'some positions light something');
    } finally {
      await opened.close();
    }
  });

  it('semantic tokens after an edit: the edit of the last answer gives the whole new answer', async function () {
    const opened = await openMarked(`//- topology.dot
digraph g {
  $0writer [card="writer@1.0.0"];
  reviewer [card="reviewer@1.0.0"];
  writer -> reviewer;
}
${cards}`);
    try {
      const { session, texts, file } = opened;
      const textDocument = { uri: session.uri(file) };
      const first = await session.request<SemanticTokens>('textDocument/semanticTokens/full', { textDocument });
      assert.ok(first.resultId !== undefined, 'the answer has a result id');
      const edited = texts.get(file)!.replace('  writer -> reviewer;', '  extra [card="reviewer@1.0.0"];\n  writer -> reviewer -> extra;');
      session.change(file, edited);
      const delta = await session.request<SemanticTokensDelta | SemanticTokens>('textDocument/semanticTokens/full/delta', { textDocument, previousResultId: first.resultId });
      assert.ok('edits' in delta, 'the answer is an edit of the last one');
      const whole = await session.request<SemanticTokens>('textDocument/semanticTokens/full', { textDocument });
      assert.deepEqual(applyTokenEdits(first.data, delta), whole.data);
      const edits = delta.edits.reduce((n, e) => n + (e.data?.length ?? 0), 0);
      assert.ok(edits < whole.data.length, `the edit (${edits} numbers) is smaller than the whole answer (${whole.data.length})`);
      const labels = decodeTokens(whole.data, legendOf(session)).map((t) => t.label);
      assert.deepEqual(labels.filter((l) => l.startsWith('node')), ['node.declaration', 'node.declaration', 'node.declaration', 'node', 'node', 'node']);
      const stale = await session.request<SemanticTokensDelta | SemanticTokens>('textDocument/semanticTokens/full/delta', { textDocument, previousResultId: 'no such result' });
      assert.ok('data' in stale && stale.data.length === whole.data.length, 'an unknown previous result gets the whole answer');
    } finally {
      await opened.close();
    }
  });

  it('a lens listed before the document changed is not resolved (the editor lists the lenses again)', async function () {
    const opened = await openMarked(`//- topology.dot
$0digraph g {
  writer [card="writer@1.0.0"];
}
${writerCard()}`);
    try {
      const { session, texts, file } = opened;
      const textDocument = { uri: session.uri(file) };
      const listed = (await session.request<CodeLens[] | null>('textDocument/codeLens', { textDocument })) ?? [];
      assert.ok(listed.length > 0, 'the topology has lenses');
      const version = session.change(file, texts.get(file)!.replace('writer [', 'writer  ['));
      await session.versionPublished(file, version);
      const stale = await session.request<CodeLens>('codeLens/resolve', listed[0]);
      assert.equal(stale.command, undefined, 'a lens of the earlier text gets no command');
      const again = (await session.request<CodeLens[] | null>('textDocument/codeLens', { textDocument })) ?? [];
      const resolved = await session.request<CodeLens>('codeLens/resolve', again[0]);
      assert.ok(resolved.command?.title.startsWith('security'), JSON.stringify(resolved));
    } finally {
      await opened.close();
    }
  });

  it('the legend names every token type and modifier the features use, and the server advertises every request', async function () {
    const opened = await openMarked(`//- topology.dot\ndigraph g { $0a; }\n`);
    try {
      const capabilities = opened.session.initializeResult.capabilities;
      assert.deepEqual(legendOf(opened.session), {
        tokenTypes: ['node', 'card', 'cardVersion', 'port', 'attractorAttribute', 'darkprintAttribute', 'unknownAttribute', 'nodeType', 'dataType', 'tool', 'phase', 'riskMarker'],
        tokenModifiers: ['declaration', 'unresolved'],
      });
      assert.deepEqual(capabilities.semanticTokensProvider, { legend: legendOf(opened.session), full: { delta: true }, range: true });
      assert.equal(capabilities.documentHighlightProvider, true);
      assert.equal(capabilities.workspaceSymbolProvider, true);
      assert.equal(capabilities.inlayHintProvider, true);
      assert.deepEqual(capabilities.codeLensProvider, { resolveProvider: true });
      assert.deepEqual(capabilities.documentLinkProvider, { resolveProvider: false });
    } finally {
      await opened.close();
    }
  });
});

describe('server: workspace symbols', function () {
  const bundles = `//- release/topology.dot
digraph release {
  request_intake [card="writer@1.0.0"];
  reviewer [card="reviewer@1.0.0"];
  request_intake -> reviewer;
}
//- release/cards/writer@1.0.0.yaml
${parseFixture(writerCard()).files[0].text}
//- release/cards/reviewer@1.0.0.yaml
${parseFixture(reviewerCard({ dependencies: '[]' })).files[0].text}
//- review/topology.dot
digraph review {
  Requester [card="reader@1.0.0"];
}
//- review/ontology/extensions.yaml
terms:
  - id: acme/request-form
    kind: data-type
    label: Request form
    description: A filled-in request.
    since: "0.1.0"
    broader: text
`;

  const cases: { readonly query: string; readonly expected: readonly string[] }[] = [
    {
      query: 'req',
      expected: [
        'Requester 5 review/topology.dot:2 (reader@1.0.0 (not in the bundle))',
        'request_intake 5 release/topology.dot:2 (writer@1.0.0)',
        'acme/request-form 14 review/ontology/extensions.yaml:2 (data-type)',
      ],
    },
    { query: 'RQI', expected: ['request_intake 5 release/topology.dot:2 (writer@1.0.0)'] },
    { query: 'wrt', expected: ['writer@1.0.0 2 release/cards/writer@1.0.0.yaml:1 (Writer)'] },
    { query: 'nothing like it', expected: [] },
  ];

  it('finds nodes, cards and local terms of every bundle of the workspace, by the query’s characters in order', async function () {
    const dir = mkdtempSync(path.join(tmpdir(), 'darkprint-symbols-'));
    const fixture = parseFixture(bundles);
    const texts = new Map<string, string>();
    for (const f of fixture.files) {
      mkdirSync(path.dirname(path.join(dir, f.path)), { recursive: true });
      writeFileSync(path.join(dir, f.path), f.text);
      texts.set(f.path, f.text);
    }
    const session = await startSession({ folders: [dir], settings: { debounceMs: 0 } });
    try {
      for (const c of cases) {
        const symbols = (await session.request<SymbolInformation[] | null>('workspace/symbol', { query: c.query })) ?? [];
        assert.deepEqual(renderSymbols(dir, symbols, (f) => texts.get(f) ?? ''), c.expected, `query ${JSON.stringify(c.query)}`);
      }
      assert.deepEqual(errorLogs(session), [], 'the server logged no internal error');
    } finally {
      assert.equal(await session.shutdown(), 0, 'the server exits cleanly');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
