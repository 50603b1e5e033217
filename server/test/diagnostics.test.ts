/**
 * Pushed diagnostics over stdio, as data: every file of an affected bundle (open or not),
 * across files in both directions, related information, the version of open documents,
 * clearing after a fix, a deletion or a rename, watched-file changes, multi-root and nested
 * bundles, open documents over disk, and the user's settings. See support/scenario.ts.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseFixture } from '../../shared/test/support/fixture';
import { reviewerCard, writerCard } from './support/cards';
import { FileChangeType, WatchKind } from 'vscode-languageserver-protocol/node';
import { errorLogs, startSession } from './support/lsp-client';
import { runScenario, type Scenario } from './support/scenario';

const topology = `//- topology.dot
digraph g {
  writer [card="writer@1.0.0"];
  reviewer [card="reviewer@1.0.0"];
  writer -> reviewer;
}
`;

const writer = (outputType = 'markdown', extra = ''): string => writerCard({ outputType, extra });

const reviewer = (inputType = 'markdown', annotation = ''): string => reviewerCard({ inputType, extra: `${annotation}cannot: [acceptance-criteria]\n` });

const clean = topology + writer() + reviewer();

const typeMismatch = `//- topology.dot
digraph g {
  writer [card="writer@1.0.0"];
  reviewer [card="reviewer@1.0.0"];
  writer -> reviewer;
//^^^^^^^^^^^^^^^^^^ error bundle/type-mismatch: No output of writer@1.0.0
}
`;

const missingDependency = '#              ^^^^^^ error bundle/missing-dependency: depends on "writer"\n';

const scenarios: Scenario[] = [
  {
    name: 'a finding about the whole graph, which the engine gives no place, stands on the graph keyword',
    initial: clean,
    open: ['topology.dot'],
    steps: [
      {
        name: 'two nodes pin cards the bundle lacks',
        files: `//- topology.dot
digraph g {
//[0,7) warning analysis/unresolved-node: 2 of the 4 nodes have no card in the bundle (a and b)
  writer [card="writer@1.0.0"];
  reviewer [card="reviewer@1.0.0"];
  a [card="missing-a@1.0.0"];
//[10,27) error bundle/missing-card: Node a pins missing-a@1.0.0
  b [card="missing-b@1.0.0"];
//[10,27) error bundle/missing-card: Node b pins missing-b@1.0.0
  writer -> reviewer -> a -> b;
}
`,
      },
    ],
  },
  {
    name: 'editing a card breaks the topology, and fixing it clears the topology',
    initial: clean,
    open: ['cards/reviewer@1.0.0.yaml'],
    steps: [
      { name: 'the input type no longer fits', files: reviewer('code') + typeMismatch },
      { name: 'the type is fixed', files: reviewer('markdown') + topology },
    ],
  },
  {
    name: 'editing the topology breaks a card, which is not open, and undoing it clears the card',
    initial: clean,
    open: ['topology.dot'],
    steps: [
      {
        name: 'the edge is removed',
        files: `//- topology.dot
digraph g {
  writer [card="writer@1.0.0"];
  reviewer [card="reviewer@1.0.0"];
}
` + reviewer('markdown', missingDependency),
      },
      { name: 'the edge is back', files: topology + reviewer() },
    ],
  },
  {
    name: 'a prohibition points into both cards, and the docs link names the code',
    initial: clean,
    open: ['cards/writer@1.0.0.yaml'],
    settings: { docsUrl: 'https://docs.example/diagnostics.md' },
    steps: [
      {
        name: 'the writer starts sending acceptance criteria',
        files:
          writer('acceptance-criteria') +
          `//- topology.dot
digraph g {
//[0,7) warning analysis/criteria-leak-unanchored
  writer [card="writer@1.0.0"];
  reviewer [card="reviewer@1.0.0"];
  writer -> reviewer;
//^^^^^^^^^^^^^^^^^^ error bundle/prohibition-violated: cannot receive acceptance-criteria
//^^^^^^^^^^^^^^^^^^ error bundle/type-mismatch
}
`,
        related: [{ file: 'topology.dot', code: 'bundle/prohibition-violated', to: ['cards/reviewer@1.0.0.yaml', 'cards/writer@1.0.0.yaml'] }],
        links: [{ file: 'topology.dot', code: 'bundle/prohibition-violated', href: 'https://docs.example/diagnostics.md#bundleprohibition-violated' }],
      },
      { name: 'the writer is fixed', files: writer() + topology },
    ],
  },
  {
    name: 'a card deleted on disk is cleared and its absence reported; recreating it clears that',
    initial: clean,
    steps: [
      {
        name: 'the writer card is deleted',
        delete: ['cards/writer@1.0.0.yaml'],
        files:
          `//- topology.dot
digraph g {
  writer [card="writer@1.0.0"];
//^^^^^^ warning analysis/unresolved-node
//             ^^^^^^^^^^^^^^ error bundle/missing-card
  reviewer [card="reviewer@1.0.0"];
  writer -> reviewer;
}
` + reviewer('markdown', missingDependency),
      },
      { name: 'the writer card is created again', files: writer() + topology + reviewer() },
    ],
  },
  {
    name: 'a card renamed on disk moves its diagnostics to the new name',
    initial: clean,
    steps: [
      {
        name: 'renamed to a name that does not say which card it is',
        rename: [{ from: 'cards/writer@1.0.0.yaml', to: 'cards/author.yaml' }],
        files: `//- cards/author.yaml
id: writer
#   ^^^^^^ info card/filename-mismatch: rename it to cards/writer@1.0.0.yaml
name: Writer
type: agent
phase: implementation
action: write
spec: Writes the draft of the document from the brief it is given.
inputs: []
outputs:
  - name: draft
    type: markdown
version: 1.0.0
`,
      },
      { name: 'renamed back', rename: [{ from: 'cards/author.yaml', to: 'cards/writer@1.0.0.yaml' }], files: writer() },
    ],
  },
  {
    name: 'an open document overrides the disk until it is closed',
    initial: clean,
    steps: [
      { name: 'typed into the editor, never saved', open: ['cards/reviewer@1.0.0.yaml'], files: reviewer('code') + typeMismatch, via: 'editor' },
      { name: 'closed without saving: the disk text is back', close: ['cards/reviewer@1.0.0.yaml'], files: topology },
    ],
  },
  {
    name: 'severity overrides and the ignore list apply, one code or a whole family',
    initial:
      writer() +
      reviewer('code') +
      `//- topology.dot
digraph g {
  writer [card="writer@1.0.0"];
  reviewer [card="reviewer@1.0.0"];
  writer -> reviewer;
//^^^^^^^^^^^^^^^^^^ warning bundle/type-mismatch
}
`,
    settings: { severity: { 'bundle/type-mismatch': 'warning' } },
    steps: [
      { name: 'the family is ignored', settings: { ignore: ['bundle/'] }, files: topology },
      {
        name: 'the family is made info',
        settings: { severity: { 'bundle/*': 'info' } },
        files: typeMismatch.replace('error bundle/type-mismatch', 'info bundle/type-mismatch'),
      },
      { name: 'the code is turned off', settings: { severity: { 'bundle/type-mismatch': 'off' } }, files: topology },
      { name: 'back to the defaults', settings: {}, files: typeMismatch },
    ],
  },
  {
    name: 'several workspace folders and nested bundles: each file belongs to its nearest root',
    folders: ['one', 'two'],
    initial: [
      prefix('one', clean),
      prefix('two', clean),
      prefix('two/sub', clean),
    ].join(''),
    open: ['two/sub/cards/reviewer@1.0.0.yaml'],
    steps: [
      {
        name: 'only the nested bundle breaks',
        files: prefix('two/sub', reviewer('code') + typeMismatch),
      },
      { name: 'and is fixed', files: prefix('two/sub', reviewer() + topology) },
    ],
  },
  {
    name: 'a workspace folder added later is scanned, and its diagnostics cleared when it is removed',
    folders: ['one'],
    initial: prefix('one', clean) + prefix('two', writer() + reviewer('code') + topology),
    steps: [
      { name: 'folder two is added', folders: { added: ['two'] }, files: prefix('two', typeMismatch) },
      { name: 'folder two is removed', folders: { removed: ['two'] }, files: prefix('two', topology) },
    ],
  },
  {
    // `cards/` holds the bundle's cards: a blueprint.yaml misfiled there is the bundle's warning,
    // not a bundle of its own that takes the cards away from the topology
    name: 'a card misfiled as cards/blueprint.yaml is reported by its bundle, whose other cards stay',
    initial: `${clean}//- cards/blueprint.yaml
title: notes
`,
    open: ['cards/blueprint.yaml'],
    steps: [
      {
        name: 'the misfiled card is given the rest of its fields',
        files: `//- cards/blueprint.yaml
id: lost
#[0,2) warning bundle/misfiled-card
name: Lost
type: agent
version: 1.0.0
`,
      },
    ],
  },
  {
    // nothing may be shown on a file that is not there: the topology the bundle lacks
    name: 'a bundle without a topology shows that on its blueprint.yaml, and nowhere when it has none',
    initial: writer(),
    steps: [
      {
        name: 'a blueprint.yaml is added',
        files: `//- blueprint.yaml
slug: notes
#[0,0) error dot/parse-error: no topology
title: Notes
summary: A bundle that has no topology yet.
tags: []
`,
      },
      { name: 'and removed again', delete: ['blueprint.yaml'] },
    ],
  },
  {
    name: 'a bundle created on disk is found, and cleared when its folder is deleted',
    initial: clean,
    steps: [
      {
        name: 'a new bundle appears',
        files: `//- fresh/topology.dot
digraph fresh {
  lonely [card="lonely@1.0.0"];
//^^^^^^ warning analysis/unresolved-node
//             ^^^^^^^^^^^^^^ error bundle/missing-card
}
`,
      },
      { name: 'its folder is deleted', delete: ['fresh'] },
    ],
  },
];

/** Moves every file of a fixture under a folder. */
function prefix(folder: string, fixture: string): string {
  return fixture.replace(/^\/\/- /gm, `//- ${folder}/`);
}

describe('server: diagnostics', function () {
  for (const scenario of scenarios) {
    it(scenario.name, async function () {
      await runScenario(scenario);
    });
  }
});

describe('server: closing a document', function () {
  it('a document saved and closed before the disk event arrives shows the saved text, never the older disk text', async function () {
    const dir = mkdtempSync(path.join(tmpdir(), 'darkprint-close-'));
    const broken = reviewer('code');
    const files = parseFixture(topology + writer() + broken).files;
    for (const f of files) {
      mkdirSync(path.dirname(path.join(dir, f.path)), { recursive: true });
      writeFileSync(path.join(dir, f.path), f.text);
    }
    const session = await startSession({ folders: [dir], settings: { debounceMs: 0 } });
    try {
      const card = 'cards/reviewer@1.0.0.yaml';
      const brokenText = parseFixture(broken).files[0].text;
      const fixedText = parseFixture(reviewer()).files[0].text;
      const mismatch = (): boolean => (session.diagnostics.get(session.uri('topology.dot'))?.diagnostics ?? []).some((d) => d.code === 'bundle/type-mismatch');
      session.open(card, brokenText);
      await session.until(mismatch, () => 'the type mismatch of the disk text is shown');
      const version = session.change(card, fixedText);
      await session.versionPublished(card, version);
      await session.until(() => !mismatch(), () => 'the fix typed into the editor clears the mismatch');
      // saved, then closed; the watched-file event of the save comes later (or never)
      writeFileSync(path.join(dir, card), fixedText);
      const seen = session.publications.length;
      session.close(card);
      // the card's own publication after the close (it has no version any more) ends the wait
      await session.until(
        () => session.publications.slice(seen).some((p) => p.uri === session.uri(card) && p.version === undefined),
        () => 'the closed card is published again',
      );
      await session.request('darkprint/report', { uri: session.uri('.') });
      const after = session.publications.slice(seen).filter((p) => p.uri === session.uri('topology.dot'));
      assert.ok(after.every((p) => !p.diagnostics.some((d) => d.code === 'bundle/type-mismatch')), 'no publication after the close shows the older disk text');
      assert.deepEqual(errorLogs(session), []);
    } finally {
      await session.shutdown();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('server: whole bundle folders on disk', function () {
  it('a bundle folder moved into the workspace is found from the one event for the folder, and cleared when the folder is deleted', async function () {
    const dir = mkdtempSync(path.join(tmpdir(), 'darkprint-folders-'));
    const workspace = path.join(dir, 'ws');
    mkdirSync(workspace);
    // the bundle starts outside the workspace, with a type mismatch to show
    for (const f of parseFixture(topology + writer() + reviewer('code')).files) {
      mkdirSync(path.dirname(path.join(dir, 'elsewhere', f.path)), { recursive: true });
      writeFileSync(path.join(dir, 'elsewhere', f.path), f.text);
    }
    const session = await startSession({ folders: [workspace], settings: { debounceMs: 0 }, base: dir });
    try {
      const moved = session.uri('ws/moved/topology.dot');
      const mismatch = (): boolean => (session.diagnostics.get(moved)?.diagnostics ?? []).some((d) => d.code === 'bundle/type-mismatch');
      await session.request('darkprint/report', { uri: session.uri('ws') });
      renameSync(path.join(dir, 'elsewhere'), path.join(workspace, 'moved'));
      session.fileEvents([{ file: 'ws/moved', type: FileChangeType.Created }]);
      await session.until(mismatch, () => 'the moved bundle is checked');
      rmSync(path.join(workspace, 'moved'), { recursive: true, force: true });
      session.fileEvents([{ file: 'ws/moved', type: FileChangeType.Deleted }]);
      await session.until(() => [...session.diagnostics.values()].every((p) => p.diagnostics.length === 0), () => 'everything shown for the deleted folder is cleared');
      assert.deepEqual(errorLogs(session), []);
    } finally {
      await session.shutdown();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a folder created inside a bundle, or a hidden one, does not make the server read the workspace again', async function () {
    const dir = mkdtempSync(path.join(tmpdir(), 'darkprint-folders-'));
    for (const folder of ['one', 'two']) {
      for (const f of parseFixture(topology + writer() + reviewer()).files) {
        mkdirSync(path.dirname(path.join(dir, folder, f.path)), { recursive: true });
        writeFileSync(path.join(dir, folder, f.path), f.text);
      }
    }
    const session = await startSession({ folders: [dir], settings: { debounceMs: 0 } });
    try {
      await session.request('darkprint/report', { uri: session.uri('.') });
      const mismatch = (folder: string): boolean => (session.diagnostics.get(session.uri(`${folder}/topology.dot`))?.diagnostics ?? []).some((d) => d.code === 'bundle/type-mismatch');
      // bundle two changes on disk with no event: only a read of the whole workspace would see it
      writeFileSync(path.join(dir, 'two/cards/reviewer@1.0.0.yaml'), parseFixture(reviewer('code')).files[0].text);
      mkdirSync(path.join(dir, 'one/build'));
      mkdirSync(path.join(dir, '.cache'));
      session.fileEvents([
        { file: 'one/build', type: FileChangeType.Created },
        { file: '.cache', type: FileChangeType.Created },
      ]);
      // then bundle one changes twice, with events: once the second shows, the folder events were
      // handled (disk work runs in order) and whatever they scheduled was published (bundles are
      // published in the order they were scheduled)
      const card = path.join(dir, 'one/cards/reviewer@1.0.0.yaml');
      writeFileSync(card, parseFixture(reviewer('code')).files[0].text);
      session.fileEvents([{ file: 'one/cards/reviewer@1.0.0.yaml', type: FileChangeType.Changed }]);
      await session.until(() => mismatch('one'), () => 'bundle one is read again after its event');
      writeFileSync(card, parseFixture(reviewer()).files[0].text);
      session.fileEvents([{ file: 'one/cards/reviewer@1.0.0.yaml', type: FileChangeType.Changed }]);
      await session.until(() => !mismatch('one'), () => 'bundle one is read again after its second event');
      assert.equal(mismatch('two'), false, 'bundle two was read again');
      // a folder created outside every bundle is searched
      mkdirSync(path.join(dir, 'three'));
      session.fileEvents([{ file: 'three', type: FileChangeType.Created }]);
      await session.until(() => mismatch('two'), () => 'a folder outside every bundle starts a scan, which reads bundle two again');
    } finally {
      await session.shutdown();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a bundle moved into a folder of another bundle is found from the one event for the folder', async function () {
    const dir = mkdtempSync(path.join(tmpdir(), 'darkprint-folders-'));
    const workspace = path.join(dir, 'ws');
    // the workspace folder is a bundle itself; the other one starts outside, with a mismatch to show
    for (const [folder, fixture] of [
      ['ws', clean],
      ['elsewhere', topology + writer() + reviewer('code')],
    ] as const) {
      for (const f of parseFixture(fixture).files) {
        mkdirSync(path.dirname(path.join(dir, folder, f.path)), { recursive: true });
        writeFileSync(path.join(dir, folder, f.path), f.text);
      }
    }
    const session = await startSession({ folders: [workspace], settings: { debounceMs: 0 }, base: dir });
    try {
      await session.request('darkprint/report', { uri: session.uri('ws') });
      mkdirSync(path.join(workspace, 'examples'));
      renameSync(path.join(dir, 'elsewhere'), path.join(workspace, 'examples', 'moved'));
      session.fileEvents([{ file: 'ws/examples', type: FileChangeType.Created }]);
      const moved = session.uri('ws/examples/moved/topology.dot');
      await session.until(
        () => (session.diagnostics.get(moved)?.diagnostics ?? []).some((d) => d.code === 'bundle/type-mismatch'),
        () => 'the bundle moved into a folder of the workspace bundle is checked',
      );
      assert.deepEqual(errorLogs(session), []);
    } finally {
      await session.shutdown();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a bundle known only from an open document keeps it when the workspace is scanned again', async function () {
    const dir = mkdtempSync(path.join(tmpdir(), 'darkprint-folders-'));
    for (const f of parseFixture(clean).files) {
      mkdirSync(path.dirname(path.join(dir, 'one', f.path)), { recursive: true });
      writeFileSync(path.join(dir, 'one', f.path), f.text);
    }
    // a topology in a folder that is no bundle root on disk: open, it is a bundle of one file
    mkdirSync(path.join(dir, 'notes'));
    const loose = 'digraph g {\n  lonely;\n}\n';
    writeFileSync(path.join(dir, 'notes/flow.dot'), loose);
    const session = await startSession({ folders: [dir], settings: { debounceMs: 0 } });
    try {
      const flow = session.uri('notes/flow.dot');
      session.open('notes/flow.dot', loose);
      await session.versionPublished('notes/flow.dot', 1);
      const shown = (): number => session.diagnostics.get(flow)?.diagnostics.length ?? 0;
      assert.ok(shown() > 0, 'the loose topology is checked');
      // a folder created outside every bundle makes the server scan the workspace again
      mkdirSync(path.join(dir, 'scratch'));
      session.fileEvents([{ file: 'scratch', type: FileChangeType.Created }]);
      // then bundle one changes with an event: once that shows, the scan is done (disk work runs in order)
      writeFileSync(path.join(dir, 'one/cards/reviewer@1.0.0.yaml'), parseFixture(reviewer('code')).files[0].text);
      session.fileEvents([{ file: 'one/cards/reviewer@1.0.0.yaml', type: FileChangeType.Changed }]);
      await session.until(
        () => (session.diagnostics.get(session.uri('one/topology.dot'))?.diagnostics ?? []).some((d) => d.code === 'bundle/type-mismatch'),
        () => 'bundle one is read again',
      );
      assert.ok(shown() > 0, 'the open topology still shows its findings');
      const symbols = await session.request<unknown[] | null>('textDocument/documentSymbol', { textDocument: { uri: flow } });
      assert.ok(symbols !== null && symbols.length > 0, 'and still has its outline');
    } finally {
      await session.shutdown();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a bundle known only from open documents is let go, its findings cleared, when the last one closes', async function () {
    const dir = mkdtempSync(path.join(tmpdir(), 'darkprint-folders-'));
    const write = (folder: string, source: string): void => {
      for (const f of parseFixture(source).files) {
        mkdirSync(path.dirname(path.join(dir, folder, f.path)), { recursive: true });
        writeFileSync(path.join(dir, folder, f.path), f.text);
      }
    };
    const mismatched = topology + writer() + reviewer('code');
    write('elsewhere', mismatched); // outside the workspace folder
    write('ws/node_modules/pkg', mismatched); // in a folder the scan skips
    write('ws/two', mismatched); // found by the scan
    mkdirSync(path.join(dir, 'ws/notes'));
    const loose = 'digraph g {\n  lonely;\n}\n';
    writeFileSync(path.join(dir, 'ws/notes/flow.dot'), loose); // a topology in a folder that is no root
    const session = await startSession({ folders: [path.join(dir, 'ws')], settings: { debounceMs: 0 }, base: dir });
    try {
      await session.request('darkprint/report', { uri: session.uri('ws/two') });
      const shown = (file: string): number => session.diagnostics.get(session.uri(file))?.diagnostics.length ?? 0;
      for (const file of ['elsewhere/topology.dot', 'ws/node_modules/pkg/topology.dot', 'ws/notes/flow.dot']) {
        const text = file.endsWith('flow.dot') ? loose : parseFixture(mismatched).files[0].text;
        session.open(file, text);
        await session.versionPublished(file, 1);
        assert.ok(shown(file) > 0, `${file} is checked while open`);
        session.close(file);
        await session.until(() => shown(file) === 0, () => `${file}: its findings are cleared once it closes`);
      }
      // a bundle the scan finds keeps its findings after the close (published again, without a version)
      session.open('ws/two/topology.dot', parseFixture(mismatched).files[0].text);
      await session.versionPublished('ws/two/topology.dot', 1);
      session.close('ws/two/topology.dot');
      await session.until(() => session.diagnostics.get(session.uri('ws/two/topology.dot'))?.version === undefined, () => 'bundle two is published again after the close');
      assert.ok(shown('ws/two/topology.dot') > 0, 'and still shows its findings');
      assert.deepEqual(errorLogs(session), []);
    } finally {
      await session.shutdown();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a file on disk that starts with a byte order mark is placed as the editor shows it, without the mark', async function () {
    const dir = mkdtempSync(path.join(tmpdir(), 'darkprint-folders-'));
    const card = (id: string): string =>
      `\uFEFFid: ${id}\nname: A\ntype: agent\naction: Do it.\nspec: A step that does one small thing and then stops for good.\ninputs: []\noutputs: []\nversion: 1.0.0\n`;
    const topologyText = 'digraph g { a [card="alpha@1.0.0"]; }\n';
    mkdirSync(path.join(dir, 'cards'));
    writeFileSync(path.join(dir, 'topology.dot'), topologyText);
    writeFileSync(path.join(dir, 'cards/alpha@1.0.0.yaml'), card('alpha'));
    writeFileSync(path.join(dir, 'cards/orphan@1.0.0.yaml'), card('orphan'));
    const session = await startSession({ folders: [dir], settings: { debounceMs: 0 } });
    try {
      session.open('topology.dot', topologyText);
      await session.versionPublished('topology.dot', 1);
      const orphan = session.uri('cards/orphan@1.0.0.yaml');
      await session.until(() => (session.diagnostics.get(orphan)?.diagnostics ?? []).some((d) => d.code === 'bundle/orphan-card'), () => 'the orphan card is reported');
      const where = (session.diagnostics.get(orphan)?.diagnostics ?? []).find((d) => d.code === 'bundle/orphan-card')!.range;
      assert.deepEqual(where.start, { line: 0, character: 4 }, 'on `orphan`, counted as the editor shows the line `id: orphan`');
      const pin = { line: 0, character: topologyText.indexOf('alpha@') + 2 };
      const targets = await session.request<{ uri: string; range: { start: unknown; end: unknown } }[]>('textDocument/definition', { textDocument: { uri: session.uri('topology.dot') }, position: pin });
      assert.deepEqual(targets.map((t) => [t.uri, t.range.start, t.range.end]), [[session.uri('cards/alpha@1.0.0.yaml'), { line: 0, character: 4 }, { line: 0, character: 9 }]]);
      // an editor that keeps the mark in the text it sends counts it as a character; closed, the disk view again
      const start = (): unknown => (session.diagnostics.get(orphan)?.diagnostics ?? []).find((d) => d.code === 'bundle/orphan-card')?.range.start;
      session.open('cards/orphan@1.0.0.yaml', card('orphan'));
      await session.versionPublished('cards/orphan@1.0.0.yaml', 1);
      assert.deepEqual(start(), { line: 0, character: 5 }, 'open with the mark sent: after it');
      session.close('cards/orphan@1.0.0.yaml');
      await session.until(() => session.diagnostics.get(orphan)?.version === undefined, () => 'the card is published again after the close');
      assert.deepEqual(start(), { line: 0, character: 4 }, 'closed: as the editor shows it');
      assert.deepEqual(errorLogs(session), []);
    } finally {
      await session.shutdown();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('cards reached through a symbolic link inside the workspace folder are read, and a link back up is not followed round', async function () {
    const dir = mkdtempSync(path.join(tmpdir(), 'darkprint-folders-'));
    for (const f of parseFixture(topology + writer() + reviewer()).files) {
      const target = f.path.startsWith('cards/') ? path.join(dir, 'ws/.shared', f.path) : path.join(dir, 'ws/linked', f.path);
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, f.text);
    }
    symlinkSync(path.join(dir, 'ws/.shared/cards'), path.join(dir, 'ws/linked/cards'), 'dir');
    symlinkSync(path.join(dir, 'ws/.shared'), path.join(dir, 'ws/.shared/cards/loop'), 'dir');
    const session = await startSession({ folders: [path.join(dir, 'ws')], settings: { debounceMs: 0 }, base: dir });
    try {
      // the bundle compiles: both pins find their card through the link, each card read once
      const answer = await session.request<{ text?: string; reasons?: string[] }>('darkprint/compiled', { uri: session.uri('ws/linked/topology.dot') });
      assert.equal(answer.reasons, undefined, JSON.stringify(answer.reasons));
      assert.ok(answer.text?.includes('reviewer'), answer.text);
      assert.deepEqual([...session.diagnostics.values()].flatMap((p) => p.diagnostics.map((d) => `${p.uri} ${d.code}`)), []);
      assert.deepEqual(errorLogs(session), []);
    } finally {
      await session.shutdown();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the server asks to hear of folders created and deleted, whatever their name', async function () {
    const dir = mkdtempSync(path.join(tmpdir(), 'darkprint-folders-'));
    const session = await startSession({ folders: [dir], settings: { debounceMs: 0 } });
    try {
      await session.request('darkprint/report', { uri: session.uri('.') });
      const watchers = session.registrations
        .filter((r) => r.method === 'workspace/didChangeWatchedFiles')
        .flatMap((r) => (r.registerOptions as { watchers: { globPattern: string; kind?: number }[] }).watchers);
      assert.ok(watchers.some((w) => w.globPattern === '**/*' && w.kind === (WatchKind.Create | WatchKind.Delete)), JSON.stringify(watchers));
    } finally {
      await session.shutdown();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
