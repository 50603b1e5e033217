/**
 * Inputs for the property tests (docs/architecture.md#tests): real fixture texts
 * (test-fixtures/example) mutated by a few random edits (characters inserted, deleted or
 * replaced, syntax-significant snippets and garbage such as control characters, lone surrogates
 * and a BOM spliced in, ranges duplicated, the text truncated), random text, and whole bundles
 * made of them. Shared by every suite that must hold on any input the readers accept.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import type { SourceFile } from '../../src/bundle/model';

const exampleRoot = path.resolve(__dirname, '../../../test-fixtures/example');

export function readTree(root: string, relative = ''): SourceFile[] {
  const out: SourceFile[] = [];
  for (const entry of readdirSync(path.join(root, relative), { withFileTypes: true })) {
    const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
    if (entry.isDirectory()) out.push(...readTree(root, child));
    else out.push({ path: child, text: readFileSync(path.join(root, child), 'utf8') });
  }
  return out;
}

export const example = readTree(exampleRoot);
export const exampleDot = example.filter((f) => f.path.endsWith('.dot')).map((f) => f.text);
export const exampleCards = example.filter((f) => f.path.startsWith('cards/'));
export const exampleExtensions = [
  [
    'terms:',
    '  - id: acme/pii-scrubbed',
    '    kind: data-type',
    '    label: Scrubbed text',
    '    description: Text from which personal data has been removed.',
    '    since: "0.1.0"',
    '    broader: text',
    '  - id: acme/prod-deploy',
    '    kind: risk-marker',
    '    label: Production deploy',
    '    description: Deploys to production.',
    '    since: 0.2.0',
    '    defaultWeight: 1.5',
    '',
  ].join('\n'),
];

/** Snippets that mean something to DOT or YAML, and garbage. */
export const dotSnippets = ['{', '}', '[', ']', '"', '->', '--', ';', ',', '=', '#', '//', '/*', '*/', '<', '>', '\\', ':', '+', 'digraph', 'graph', 'subgraph', 'node', 'edge', 'strict', 'card="a@1.0.0"', 'condition="outcome=', '-', '1.5s', '__proto__', 'constructor'];
export const yamlSnippets = [': ', '- ', '&a ', '*a', '!!str ', '!!binary ', '|', '>-', '"', "'", '{', '}', '[', ']', '? ', '---\n', '...\n', '%YAML 1.2\n', '\t', '#', '<<: *a', '__proto__: ', 'constructor: ', 'params:\n  ', '  - name: ', 'type: ', '0x1F', '.inf', '~', 'null'];
export const garbage = ['\u0000', '\u0007', '\u001b', '\r', '\r\n', '\n', '\uFEFF', '\uFFFD', '\uD800', '\uDC00', '\u2028', '\u00A0', '\u{1F600}', 'é'];

const fraction = fc.double({ min: 0, max: 1, noNaN: true });

export function insertions(snippets: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...snippets),
    fc.constantFrom(...garbage),
    fc.string({ unit: 'binary', maxLength: 6 }),
    fc.string({ unit: 'binary-ascii', maxLength: 6 }),
  );
}

export type Edit =
  | { readonly kind: 'insert'; readonly at: number; readonly text: string }
  | { readonly kind: 'delete'; readonly at: number; readonly length: number }
  | { readonly kind: 'replace'; readonly at: number; readonly length: number; readonly text: string }
  | { readonly kind: 'duplicate'; readonly at: number; readonly length: number }
  | { readonly kind: 'truncate'; readonly at: number };

export function edits(snippets: readonly string[]): fc.Arbitrary<Edit[]> {
  const text = insertions(snippets);
  const length = fc.integer({ min: 1, max: 24 });
  const edit: fc.Arbitrary<Edit> = fc.oneof(
    fc.record({ kind: fc.constant('insert' as const), at: fraction, text }),
    fc.record({ kind: fc.constant('delete' as const), at: fraction, length }),
    fc.record({ kind: fc.constant('replace' as const), at: fraction, length, text }),
    fc.record({ kind: fc.constant('duplicate' as const), at: fraction, length }),
    fc.record({ kind: fc.constant('truncate' as const), at: fraction }),
  );
  return fc.array(edit, { minLength: 1, maxLength: 6 });
}

export function applyEdits(text: string, list: readonly Edit[]): string {
  let out = text;
  for (const edit of list) {
    const at = Math.floor(edit.at * out.length);
    switch (edit.kind) {
      case 'insert':
        out = out.slice(0, at) + edit.text + out.slice(at);
        break;
      case 'delete':
        out = out.slice(0, at) + out.slice(at + edit.length);
        break;
      case 'replace':
        out = out.slice(0, at) + edit.text + out.slice(at + edit.length);
        break;
      case 'duplicate':
        out = out.slice(0, at + edit.length) + out.slice(at, at + edit.length) + out.slice(at + edit.length);
        break;
      case 'truncate':
        out = out.slice(0, at);
        break;
      default:
        assertNever(edit);
    }
  }
  return out;
}

/** A fixture text with random edits, or random text. */
export function mutated(bases: readonly string[], snippets: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.tuple(fc.constantFrom(...bases), edits(snippets)).map(([base, list]) => applyEdits(base, list)) },
    { weight: 1, arbitrary: fc.array(insertions(snippets), { maxLength: 40 }).map((parts) => parts.join('')) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
  );
}

/** The example bundle with one to three of its files mutated, sometimes with a local vocabulary (mutated too when picked). */
export function mutatedExampleBundles(): fc.Arbitrary<SourceFile[]> {
  const victims = fc.uniqueArray(fc.integer({ min: 0, max: example.length }), { minLength: 1, maxLength: 3 });
  return fc.tuple(victims, fc.array(edits([...dotSnippets, ...yamlSnippets]), { minLength: 3, maxLength: 3 }), fc.boolean()).map(([indexes, lists, withExtensions]) => {
    const files = example.map((f, i) => {
      const at = indexes.indexOf(i);
      return at < 0 ? f : { path: f.path, text: applyEdits(f.text, lists[at]) };
    });
    if (withExtensions) files.push({ path: 'ontology/extensions.yaml', text: indexes.includes(example.length) ? applyEdits(exampleExtensions[0], lists[0]) : exampleExtensions[0] });
    return files;
  });
}

/** Up to six files under names a bundle may or may not read, each a mutated fixture text or random text. */
export function randomFileSets(): fc.Arbitrary<SourceFile[]> {
  const name = fc.constantFrom('topology.dot', 'blueprint.dot', 'graph.gv', 'blueprint.yaml', 'ontology/extensions.yaml', 'extensions.yml', 'cards/a@1.0.0.yaml', 'cards/b.json', 'cards/blueprint.yaml', 'cards/x/y@2.0.0.yml', 'README.md');
  const file = fc.record({ path: name, text: mutated([...exampleDot, ...exampleCards.map((f) => f.text)], [...dotSnippets, ...yamlSnippets]) });
  return fc.uniqueArray(file, { selector: (f) => f.path, maxLength: 6 });
}

function assertNever(value: never): never {
  throw new Error(`unexpected value ${JSON.stringify(value)}`);
}
