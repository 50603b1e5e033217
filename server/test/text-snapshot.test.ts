/**
 * Completion, the outline and the folds answer from the current texts over the last check's
 * result (`textSnapshotOf` in ../src/database.ts) when only topologies and cards changed since,
 * without loading the bundle again: as data, each case edits a workspace and says whether they
 * may skip the load; at every cursor of the edited text the completion, and for each edited file
 * the outline and the folds, must be the ones the loaded snapshot gives.
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseFixture } from '../../shared/test/support/fixture';
import { complete, documentSymbols, foldingRanges } from '../../shared/src/ide';
import { topologyView } from '../../shared/src/ide/context';
import { dotParseReuse } from '../../shared/src/syntax/dot-parser';
import { addBundle, createDatabase, setOpenDocument, snapshotOf, textSnapshotOf } from '../src/database';
import { reviewerCard, writerCard } from './support/cards';

const root = path.resolve('/workspace/bundle');

const workspace = `
//- topology.dot
digraph g {
  writer [card="writer@1.0.0"];
  reviewer [card="reviewer@1.0.0"];
  writer -> reviewer [out="draft", in="draft"];
}
${writerCard()}${reviewerCard()}//- ontology/extensions.yaml
terms:
  - id: acme/memo
    kind: data-type
    label: Memo
    description: A short note.
    since: "0.1.0"
    broader: text
`;

interface Case {
  readonly name: string;
  /** The files the edit replaces (`//- path` sections; an empty section removes nothing). */
  readonly edit: string;
  /** True when completion may answer without loading the bundle again. */
  readonly skipsLoad: boolean;
}

const cases: readonly Case[] = [
  {
    name: 'a node typed into the topology',
    edit: `
//- topology.dot
digraph g {
  writer [card="writer@1.0.0"];
  reviewer [card="reviewer@1.0.0"];
  editor [card="w
  writer -> reviewer [out="draft", in="dr];
  reviewer -> editor [condition="outcome=];
}`,
    skipsLoad: true,
  },
  {
    name: 'a card edited (its outputs renamed)',
    edit: writerCard().replace(/draft/g, 'notes'),
    skipsLoad: true,
  },
  { name: 'the vocabulary edited', edit: '\n//- ontology/extensions.yaml\nterms: []\n', skipsLoad: false },
  { name: 'a card added', edit: writerCard().replace(/writer/g, 'editor'), skipsLoad: false },
];

describe('completion answers from the texts before the bundle is loaded again', () => {
  for (const c of cases) {
    it(c.name, () => {
      const initial = parseFixture(workspace).files;
      const db = createDatabase((file) => pathToFileURL(file).href);
      const bundle = addBundle(db, root, new Map(initial.map((f) => [f.path, f.text] as const)));
      const loaded = snapshotOf(db, bundle);
      let version = 1;
      for (const f of parseFixture(c.edit).files) {
        const file = path.join(root, ...f.path.split('/'));
        setOpenDocument(db, file, { uri: pathToFileURL(file).href, version: version++, text: f.text });
      }
      const quick = textSnapshotOf(db, bundle);
      assert.equal(quick.result === loaded.result, c.skipsLoad, c.skipsLoad ? 'the last result, not a new load' : 'a new load');
      assert.equal(bundle.snapshot === loaded, c.skipsLoad, 'the bundle keeps its snapshot until it is loaded again');
      const full = snapshotOf(db, bundle);
      for (const f of parseFixture(c.edit).files) {
        assert.equal(quick.files.get(f.path)?.text, f.text, 'the current text');
        for (const file of [f.path, 'topology.dot']) {
          const text = full.files.get(file)?.text ?? '';
          for (let offset = 0; offset <= text.length; offset++) {
            assert.deepEqual(complete(quick.ide, file, offset), complete(full.ide, file, offset), `completion in ${file} at ${offset}: ${JSON.stringify(text.slice(Math.max(0, offset - 12), offset))}`);
          }
          // the outline and the folds, which the server also answers from the current texts
          assert.deepEqual(documentSymbols(quick.ide, file), documentSymbols(full.ide, file), `the outline of ${file}`);
          assert.deepEqual(foldingRanges(quick.ide, file), foldingRanges(full.ide, file), `the folds of ${file}`);
        }
      }
    });
  }
});

describe('completion parses the typed topology from the last load, which then takes that parse', () => {
  for (const name of ['topology.dot', 'flow.gv']) {
    it(`a topology named ${name}`, () => {
      const initial = parseFixture(workspace.replace('//- topology.dot', `//- ${name}`)).files;
      const db = createDatabase((file) => pathToFileURL(file).href);
      const bundle = addBundle(db, root, new Map(initial.map((f) => [f.path, f.text] as const)));
      const loaded = snapshotOf(db, bundle);
      assert.equal(loaded.result.blueprint?.topology.file.path, name, 'the bundle reads it as its topology');
      const text = loaded.files.get(name)!.text.replace('reviewer [card', 'editor;\n  reviewer [card');
      const file = path.join(root, name);
      setOpenDocument(db, file, { uri: pathToFileURL(file).href, version: 2, text });
      const quick = textSnapshotOf(db, bundle);
      const view = topologyView(quick.ide, name);
      assert.ok(view !== undefined && !view.current);
      assert.ok(dotParseReuse(view.parse) !== undefined, 'parsed from the last load\'s parse');
      assert.equal(snapshotOf(db, bundle).result.blueprint?.topology.parse, view.parse, 'the load took that parse');
    });
  }
});
