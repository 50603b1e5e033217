/**
 * The picture model: one fixture per overlay and per kind of broken bundle, each with what its
 * picture shows written under it (./support/picture-fixtures.ts, format in ./support/picture.ts);
 * then the parts every picture relies on: families, keys, places, and the folder's boundaries.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { loadBundle } from '../src/bundle/resolve';
import { createVocabulary, coreVocabulary } from '../src/vocabulary/view';
import type { Term } from '../src/vocabulary/types';
import { edgeKey, familyOf, nodeIdOfKey, nodeKey, pictureFamilies, pictureOf } from '../src/picture';
import { checkPicture, pictureOfRow } from './support/picture';
import { pictureRows } from './support/picture-fixtures';
import { example } from './support/mutations';

describe('picture model: what each fixture draws', () => {
  for (const row of pictureRows) {
    it(row.name, () => {
      const picture = checkPicture(row);
      assert.deepEqual(JSON.parse(JSON.stringify(picture)), picture, 'the model survives JSON unchanged');
      for (const item of picture.unsettled) assert.match(item.message, /^\S.*\S$/s, `${item.kind}: a message in words`);
    });
  }

  it('a node whose card has errors points at that card file', () => {
    const picture = pictureOfRow(pictureRows.find((row) => row.name.startsWith('a card with errors'))!);
    assert.deepEqual(picture.nodes[0].card, { ref: 'a@1.0.0', resolved: false, place: { file: 'cards/a@1.0.0.json', line: 1, column: 7, endLine: 1, endColumn: 10 } });
    assert.deepEqual(
      picture.nodes[0].findings.map((f) => [f.code, f.place?.file]),
      [
        ['card/missing-field', 'cards/a@1.0.0.json'],
        ['bundle/missing-card', 'topology.dot'],
        ['analysis/unresolved-node', 'topology.dot'],
      ],
    );
  });
});

describe('picture model: the example bundle', () => {
  const picture = pictureOf(loadBundle(example, { folderName: 'example' }));

  it('places each node at its statement and each edge at its source end, with its card', () => {
    const builder = picture.nodes.find((n) => n.id === 'code_builder')!;
    assert.deepEqual(builder.place, { file: 'topology.dot', line: 10, column: 3, endLine: 10, endColumn: 48 });
    assert.deepEqual(builder.card, { ref: 'code-builder@1.1.0', resolved: true, place: { file: 'cards/code-builder@1.1.0.yaml', line: 1, column: 5, endLine: 1, endColumn: 17 } });
    const retry = picture.edges.find((e) => e.source === 'targeted_fixer')!;
    assert.deepEqual([retry.index, retry.key, retry.closesCycle, retry.place.line, retry.place.column], [7, 'dp-e-7', true, 26, 3]);
    assert.equal(picture.edges.filter((e) => e.closesCycle).length, 1, 'one edge closes the fix loop');
  });

  it('reads the header from the analysis', () => {
    assert.deepEqual(picture.header, {
      title: 'Release line',
      slug: 'release-line',
      security: { level: 3, raw: 2.5, rationale: '4 − 1.50 (irreversible-action) → 3' },
      autonomy: { level: 2, class: 'supervised', label: 'Supervised', fraction: 0.5 },
      phases: { covered: ['planning', 'implementation', 'testing', 'debugging', 'deployment'], missing: [] },
      counts: { error: 0, warning: 3, info: 0 },
    });
    assert.deepEqual(picture.graph, { file: 'topology.dot', name: 'release_line', rankdir: 'LR', drawn: true });
  });

  it('counts columns after a byte order mark only when asked to hide it', () => {
    const files = example.map((f) => (f.path === 'topology.dot' ? { ...f, text: `\uFEFFdigraph g { a; }` } : f));
    const result = loadBundle(files, { folderName: 'example' });
    assert.equal(pictureOf(result).nodes[0].place.column, 14);
    assert.equal(pictureOf(result, { hideByteOrderMark: true }).nodes[0].place.column, 13);
  });
});

describe('picture model: families', () => {
  it('every core node type belongs to one of the families', () => {
    for (const term of coreVocabulary.terms('node-type')) {
      const family = familyOf(coreVocabulary, term.id);
      assert.ok(Object.prototype.hasOwnProperty.call(pictureFamilies, family), `${term.id} → ${family}`);
    }
  });

  const local: Term = { id: 'acme/reviewer', kind: 'node-type', label: 'Reviewer', meaning: 'Reviews.', broader: 'validation' };
  const cases: readonly [string, string | undefined, string][] = [
    ['a core type', 'shell-tool', 'tool'],
    ['a person', 'human-input', 'human-in-the-loop'],
    ['a local type under a core one', 'acme/reviewer', 'evaluative'],
    ['a type the vocabulary lacks', 'wizard', 'unknown'],
    ['a term of another kind', 'markdown', 'unknown'],
    ['no type', undefined, 'none'],
    ['a blank type', '  ', 'none'],
  ];
  const vocabulary = createVocabulary([local]).vocabulary;
  for (const [name, type, family] of cases) {
    it(name, () => assert.equal(familyOf(vocabulary, type), family));
  }
});

describe('picture model: keys', () => {
  const ids = ['plain_id', 'code-builder', 'a.b', 'has space', 'quote"d', '<tag>', 'é', '😀', '\uD800', '', '.', '.002e', '__proto__'];
  it('are distinct, safe in HTML and CSS ids, and read back', () => {
    const keys = ids.map(nodeKey);
    assert.equal(new Set(keys).size, ids.length);
    for (const [i, key] of keys.entries()) {
      assert.match(key, /^dp-n-[A-Za-z0-9_.-]*$/);
      assert.equal(nodeIdOfKey(key), ids[i]);
    }
    assert.equal(edgeKey(12), 'dp-e-12');
    assert.equal(nodeIdOfKey('dp-e-12'), undefined);
    assert.equal(nodeIdOfKey('dp-n-a.zz'), undefined);
  });
});

describe('picture model: the folder keeps to itself', () => {
  const source = path.resolve(__dirname, '../src');
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? files(path.join(dir, entry.name)) : entry.name.endsWith('.ts') ? [path.join(dir, entry.name)] : []));
  const imports = (file: string): string[] => [...readFileSync(file, 'utf8').matchAll(/(?:from|import\()\s*'([^']+)'/g)].map((m) => m[1]);

  it('no other folder of the engine imports the picture or Graphviz', () => {
    for (const file of files(source)) {
      const relative = path.relative(source, file).split(path.sep).join('/');
      // (the command draws the picture, `darkprint graph`: it is the engine's edge, as the clients are)
      if (relative.startsWith('picture/') || relative === 'index.ts' || relative === 'cli.ts') continue;
      for (const spec of imports(file)) {
        // (the protocol declares the graph answer, whose body is the picture model: its types alone)
        if (relative.startsWith('protocol/') && spec === '../picture/model') continue;
        assert.ok(!/(^|\/)picture(\/|$)/.test(spec) && !spec.startsWith('@hpcc-js/'), `${relative} imports ${spec}`);
      }
    }
  });

  it('only the renderer knows Graphviz, and nothing in the picture touches files', () => {
    for (const file of files(path.join(source, 'picture'))) {
      for (const spec of imports(file)) {
        assert.ok(!spec.startsWith('@hpcc-js/') || path.basename(file) === 'render.ts', `${path.basename(file)} imports ${spec}`);
        assert.ok(!/^(node:)?(fs|path|child_process)$/.test(spec) && spec !== 'vscode' && !spec.startsWith('vscode-'), `${path.basename(file)} imports ${spec}`);
      }
    }
  });
});
