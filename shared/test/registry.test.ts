import assert from 'node:assert/strict';
import { allDiagnosticCodes, diagnosticInfo, type DiagnosticCode } from '../src/diagnostics/registry';
import {
  diagnosticFamilies,
  exampleLanguage,
  explainCode,
  familyOf,
  renderDiagnosticsMarkdown,
  renderDiagnosticsTable,
  severityWords,
} from '../src/diagnostics/render';

const families = ['dot/', 'card/', 'bundle/', 'attractor/', 'ontology/', 'analysis/'];

/** One rule every registry entry must satisfy; each runs against every code. */
interface EntryRule {
  name: string;
  check(code: DiagnosticCode): void;
}

const collapse = (text: string): string => text.replace(/\s+/g, ' ').trim();

const entryRules: EntryRule[] = [
  {
    name: 'is spelled family/kebab-name with a known family',
    check(code) {
      assert.match(code, /^[a-z]+\/[a-z]+(?:-[a-z]+)*$/);
      assert.ok(families.includes(familyOf(code)), `${code}: family ${familyOf(code)} is not one of ${families.join(' ')}`);
    },
  },
  {
    name: 'has a title',
    check(code) {
      const title = diagnosticInfo(code).title;
      assert.ok(title.trim().length > 0, `${code} has no title`);
      assert.equal(title, title.trim(), `${code}: title has surrounding blanks`);
    },
  },
  {
    name: 'has one paragraph of docs that ends a sentence',
    check(code) {
      const docs = diagnosticInfo(code).docs;
      assert.ok(docs.trim().length >= 80, `${code}: docs are missing or too short`);
      assert.ok(!docs.includes('\n'), `${code}: docs are more than one paragraph`);
      assert.match(docs, /[.)]$/, `${code}: docs do not end a sentence`);
    },
  },
  {
    name: 'has a small example',
    check(code) {
      const example = diagnosticInfo(code).example;
      assert.ok(example.trim().length > 0, `${code} has no example`);
      assert.ok(example.split('\n').length <= 6, `${code}: the example is longer than six lines`);
      assert.equal(example, example.trim(), `${code}: the example has surrounding blanks`);
    },
  },
  {
    name: 'says so in its docs when it is never reported',
    check(code) {
      const info = diagnosticInfo(code);
      if (info.emitted === true) {
        assert.ok(!/never reports it/.test(info.docs), `${code} is reported but its docs say it is not`);
      } else {
        assert.match(info.docs, /^Listed for compatibility; this engine never reports it\./);
        assert.ok(info.emitted.never.trim().length > 0, `${code}: the reason it is never reported is empty`);
      }
    },
  },
  {
    name: 'is explained with its severity, title, docs and example',
    check(code) {
      const info = diagnosticInfo(code);
      const text = explainCode(code);
      assert.equal(text.split('\n')[0], code);
      assert.ok(text.includes(`severity: ${info.severity}`), `${code}: explain omits the severity`);
      assert.ok(text.includes(info.title), `${code}: explain omits the title`);
      assert.ok(text.includes(`beyond:   ${info.beyond ? 'yes' : 'no'}`), `${code}: explain omits the beyond marker`);
      assert.ok(collapse(text).includes(collapse(info.docs)), `${code}: explain omits the docs`);
      for (const line of info.example.split('\n')) {
        assert.ok(text.includes(`    ${line}`), `${code}: explain omits the example line ${JSON.stringify(line)}`);
      }
      assert.ok(!text.endsWith('\n'), `${code}: explain ends with a newline (the CLI adds one)`);
    },
  },
  {
    name: 'has a section in docs/diagnostics.md with its example fenced in its language',
    check(code) {
      const info = diagnosticInfo(code);
      const markdown = renderDiagnosticsMarkdown();
      const heading = `### \`${code}\`\n`;
      const at = markdown.indexOf(heading);
      assert.ok(at >= 0, `${code}: no section`);
      const next = markdown.indexOf('\n### ', at + 1);
      const section = markdown.slice(at, next < 0 ? undefined : next);
      assert.ok(section.includes(`**${info.severity}**`), `${code}: section omits the severity`);
      assert.equal(section.includes('**[beyond]**'), info.beyond, `${code}: [beyond] marker`);
      assert.equal(section.includes('*never reported*'), info.emitted !== true, `${code}: never-reported marker`);
      assert.ok(section.includes(`\n${info.docs}\n`), `${code}: section omits the docs`);
      assert.ok(section.includes(`\n\`\`\`${exampleLanguage(code)}\n${info.example}\n\`\`\``), `${code}: section omits the fenced example`);
    },
  },
  {
    name: 'has one row in the README table',
    check(code) {
      const info = diagnosticInfo(code);
      const rows = renderDiagnosticsTable()
        .split('\n')
        .filter((line) => line.startsWith(`| \`${code}\` |`));
      assert.equal(rows.length, 1, `${code}: ${rows.length} rows`);
      // (its severity, then the other severities the engine reports it at, with their cases)
      assert.ok(rows[0].startsWith(`| \`${code}\` | ${severityWords(code)} | ${info.beyond ? 'yes' : ''} | `), `${code}: row ${rows[0]}`);
      assert.ok(severityWords(code).startsWith(info.severity));
    },
  },
];

describe('diagnostics registry', () => {
  for (const rule of entryRules) {
    it(`every code ${rule.name}`, () => {
      assert.ok(allDiagnosticCodes.length > 0);
      for (const code of allDiagnosticCodes) rule.check(code);
    });
  }

  const renderers: { name: string; render: () => string }[] = [
    { name: 'renderDiagnosticsMarkdown', render: renderDiagnosticsMarkdown },
    { name: 'renderDiagnosticsTable', render: renderDiagnosticsTable },
    { name: 'explainCode (all codes)', render: () => allDiagnosticCodes.map(explainCode).join('\n\n') },
  ];
  for (const { name, render } of renderers) {
    it(`${name} is deterministic and ends lines cleanly`, () => {
      const first = render();
      assert.equal(render(), first);
      assert.ok(!/[ \t]+$/m.test(first), `${name}: a line ends with blanks`);
    });
  }

  it('puts the banner first and every family in the documented order', () => {
    const markdown = renderDiagnosticsMarkdown();
    assert.match(markdown.split('\n')[0], /^<!-- Generated .*run `npm run gen`.* -->$/);
    assert.ok(markdown.endsWith('\n') && !markdown.endsWith('\n\n'));
    const positions = diagnosticFamilies.map((f) => markdown.indexOf(`\n## ${f.prefix}: `));
    for (const p of positions) assert.ok(p > 0);
    assert.deepEqual([...positions].sort((a, b) => a - b), positions);
  });
});
