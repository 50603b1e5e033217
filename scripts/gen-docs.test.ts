import assert from 'node:assert/strict';
import {
  cardSchemaPath,
  generatedFiles,
  readmePath,
  readRepoFile,
  spliceDiagnosticsTable,
  staleFiles,
  tableEndMarker,
  tableStartMarker,
  type GeneratedFile,
} from './gen-docs';

describe('gen-docs', () => {
  describe('the committed generated files are up to date', () => {
    const files = generatedFiles(readRepoFile(readmePath));
    for (const file of files) {
      it(file.path, () => {
        const committed = readRepoFile(file.path);
        assert.ok(committed !== undefined, `${file.path} is missing: run \`npm run gen\` and commit it`);
        assert.ok(committed === file.content, `${file.path} is stale: run \`npm run gen\` and commit the result`);
      });
    }
    it('covers both docs pages and the card schema', () => {
      assert.deepEqual(
        files.map((f) => f.path).filter((p) => !p.startsWith('README')),
        ['docs/diagnostics.md', 'docs/vocabulary.md', 'schemas/card.schema.json'],
      );
    });
  });

  describe('spliceDiagnosticsTable', () => {
    const table = '| a |\n| b |\n';
    const cases: { name: string; readme: string; expected: string | undefined }[] = [
      {
        name: 'fills empty markers',
        readme: `# R\n\n${tableStartMarker}\n${tableEndMarker}\n\nafter\n`,
        expected: `# R\n\n${tableStartMarker}\n| a |\n| b |\n${tableEndMarker}\n\nafter\n`,
      },
      {
        name: 'replaces an old table and keeps the rest',
        readme: `before\n${tableStartMarker}\n| old |\n${tableEndMarker}\nafter`,
        expected: `before\n${tableStartMarker}\n| a |\n| b |\n${tableEndMarker}\nafter`,
      },
      {
        name: 'is stable when run again',
        readme: `${tableStartMarker}\n| a |\n| b |\n${tableEndMarker}\n`,
        expected: `${tableStartMarker}\n| a |\n| b |\n${tableEndMarker}\n`,
      },
      { name: 'leaves a README without markers alone', readme: '# R\n', expected: undefined },
      { name: 'leaves a README with only the start marker alone', readme: `${tableStartMarker}\n`, expected: undefined },
      {
        name: 'leaves a README with the markers reversed alone',
        readme: `${tableEndMarker}\n${tableStartMarker}\n`,
        expected: undefined,
      },
    ];
    for (const c of cases) {
      it(c.name, () => assert.equal(spliceDiagnosticsTable(c.readme, table), c.expected));
    }
  });

  describe('generatedFiles and staleFiles', () => {
    const withMarkers = `${tableStartMarker}\n${tableEndMarker}\n`;
    const cases: { name: string; readme: string | undefined; onDisk: (files: GeneratedFile[]) => Map<string, string>; stale: string[] }[] = [
      {
        name: 'everything missing is stale',
        readme: withMarkers,
        onDisk: () => new Map(),
        stale: ['docs/diagnostics.md', 'docs/vocabulary.md', cardSchemaPath, readmePath],
      },
      {
        name: 'nothing is stale when the disk matches',
        readme: withMarkers,
        onDisk: (files) => new Map(files.map((f) => [f.path, f.content])),
        stale: [],
      },
      {
        name: 'one changed byte makes a file stale',
        readme: withMarkers,
        onDisk: (files) => new Map(files.map((f) => [f.path, f.path === 'docs/vocabulary.md' ? `${f.content} ` : f.content])),
        stale: ['docs/vocabulary.md'],
      },
      {
        name: 'a README without markers is not generated',
        readme: '# R\n',
        onDisk: () => new Map(),
        stale: ['docs/diagnostics.md', 'docs/vocabulary.md', cardSchemaPath],
      },
      {
        name: 'no README at all is not generated',
        readme: undefined,
        onDisk: () => new Map(),
        stale: ['docs/diagnostics.md', 'docs/vocabulary.md', cardSchemaPath],
      },
    ];
    for (const c of cases) {
      it(c.name, () => {
        const files = generatedFiles(c.readme);
        const disk = c.onDisk(files);
        assert.deepEqual(staleFiles(files, (p) => disk.get(p)), c.stale);
      });
    }

    it('is deterministic', () => {
      assert.deepEqual(generatedFiles(`${tableStartMarker}\n${tableEndMarker}\n`), generatedFiles(`${tableStartMarker}\n${tableEndMarker}\n`));
    });
  });
});
