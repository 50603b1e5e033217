import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseDocument, stringify } from 'yaml';
import { readManifest } from '../src/bundle/manifest';
import { deref, formatOf, locatePath, parseData, type YamlNode } from '../src/syntax/yaml';
import { readExtensions } from '../src/vocabulary/extensions';

/** The plain value of a tree, built like JSON.parse builds it (own keys, `__proto__` included). */
function plain(node: YamlNode | undefined, depth = 0): unknown {
  const value = deref(node);
  if (!value || depth > 200) return undefined;
  switch (value.kind) {
    case 'scalar':
      return value.value;
    case 'sequence':
      return value.items.map((item) => plain(item, depth + 1));
    case 'mapping': {
      const out: Record<string, unknown> = {};
      for (const [key, entry] of value.entries) Object.defineProperty(out, key, { value: plain(entry.value, depth + 1), enumerable: true, writable: true, configurable: true });
      return out;
    }
    default:
      return undefined;
  }
}

function spansInside(node: YamlNode | undefined, length: number, seen = new Set<YamlNode>()): void {
  if (!node || seen.has(node)) return;
  seen.add(node);
  assert.ok(node.span.start >= 0 && node.span.start <= node.span.end && node.span.end <= length);
  if (node.kind === 'sequence') for (const item of node.items) spansInside(item, length, seen);
  if (node.kind === 'mapping') {
    for (const entry of node.entries.values()) {
      assert.ok(entry.keySpan.start >= 0 && entry.keySpan.end <= length);
      spansInside(entry.value, length, seen);
    }
  }
}

function jsonParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** Strings that are JSON, nearly JSON, or noise. */
const jsonish = fc.oneof(
  fc.json(),
  fc.json().chain((text) =>
    fc.tuple(fc.nat({ max: Math.max(0, text.length) }), fc.constantFrom('', ',', '}', ']', '"', '\\', ' ', '\n', '\t', 'x', '-', '0', '\u0001', '/*', '\ufeff')).map(
      ([at, insert]) => text.slice(0, at) + insert + text.slice(at + 1),
    ),
  ),
  fc.string({ unit: 'binary', maxLength: 30 }),
);

describe('data reader: format', () => {
  const table: [string, 'yaml' | 'json'][] = [['a.json', 'json'], ['cards/A.JSON ', 'json'], ['a.yaml', 'yaml'], ['a.yml', 'yaml'], ['a.json.bak', 'yaml'], ['json', 'yaml']];
  for (const [path, format] of table) it(`${path} is ${format}`, () => assert.equal(formatOf(path), format));
});

describe('data reader: JSON', () => {
  it('accepts exactly what JSON.parse accepts, and yields the same value', () => {
    fc.assert(
      fc.property(jsonish, (text) => {
        const read = parseData(text, 'json');
        const reference = jsonParse(text);
        assert.equal(read.problems.length === 0, reference.ok, `validity of ${JSON.stringify(text)}`);
        if (reference.ok) assert.deepStrictEqual(plain(read.root), reference.value);
        else {
          assert.equal(read.problems.length, 1);
          const s = read.problems[0].span;
          assert.ok(s.start >= 0 && s.end <= text.length && s.start <= s.end);
        }
        spansInside(read.root, text.length);
      }),
      { numRuns: 3000 },
    );
  });

  it('reads any nesting depth without exhausting the stack', () => {
    const text = '['.repeat(100000) + ']'.repeat(100000);
    const read = parseData(text, 'json');
    assert.deepEqual(read.problems, []);
    assert.equal(read.root?.kind, 'sequence');
  });

  it('keeps key and value spans', () => {
    const text = '{"a": [1, {"b": "x"}], "a.b": null}';
    const read = parseData(text, 'json');
    const at = (path: string, part: 'key' | 'value'): string => {
      const found = locatePath(read.root, path, part);
      return found ? text.slice(found.span.start, found.span.end) : '';
    };
    assert.equal(at('a', 'key'), '"a"');
    assert.equal(at('a[1].b', 'value'), '"x"');
    assert.equal(at('a.b', 'key'), '"a.b"'); // the longest key that matches wins
    assert.equal(at('a.b', 'value'), 'null');
  });
});

describe('data reader: YAML', () => {
  it('never throws, and keeps every range inside the text', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', ':', ' ', '\n', '-', '[', ']', '{', '}', ',', '"', "'", '&', '*', '!', '#', '|', '>', '?', '\t', '1', '%', '@', '`', '\\'), maxLength: 60 }), (text) => {
        const read = parseData(text, 'yaml');
        for (const p of read.problems) assert.ok(p.span.start >= 0 && p.span.start <= p.span.end && p.span.end <= text.length);
        spansInside(read.root, text.length);
      }),
      { numRuns: 3000 },
    );
  });

  it('reads what the yaml package writes back to the same value', () => {
    fc.assert(
      fc.property(fc.jsonValue({ noUnicodeString: false }), (value) => {
        const text = stringify(value);
        const read = parseData(text, 'yaml');
        assert.deepEqual(read.problems.filter((p) => p.severity === 'error'), []);
        assert.deepStrictEqual(plain(read.root), JSON.parse(JSON.stringify(value)) as unknown);
      }),
      { numRuns: 500 },
    );
  });

  it('binds an alias to the last anchor of that name before it, including its own container', () => {
    const read = parseData('a: &x 1\nb: &x [*x]\nc: *x\n', 'yaml');
    assert.deepEqual(read.problems, []);
    const root = deref(read.root);
    assert.ok(root?.kind === 'mapping');
    const b = deref(root.entries.get('b')?.value);
    const c = deref(root.entries.get('c')?.value);
    assert.ok(b?.kind === 'sequence');
    assert.equal(deref(b.items[0]), b, 'the alias inside refers to its own container');
    assert.equal(c, b);
  });

  it('reports a repeated scalar key once per repeat, on the key, and keeps the last value', () => {
    const text = 'a: 1\nb: 2\na: 3\n1: x\n"1": y\n';
    const read = parseData(text, 'yaml');
    assert.deepEqual(read.problems.map((p) => [p.severity, text.slice(p.span.start, p.span.end)]), [['error', 'a']]);
    assert.deepEqual(plain(read.root), { a: 3, b: 2, 1: 'y' });
  });

  it('flags a repeated key where the yaml package does: scalar keys of the same value, whatever their spelling', () => {
    const keys = ['1', '"1"', '1.0', '0x1', '+1', 'null', '~', '""', "''", 'true', '"true"', 'True', '.nan', '.NaN', '-0', '0', 'a', '"a"', "'a'", 'b', '&k a', '*k ', '? [a]\n'];
    const mappings = fc.array(fc.constantFrom(...keys), { minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(mappings, fc.constantFrom('block', 'nested', 'flow'), (picked, shape) => {
        const pairs = picked.map((key, i) => `${key}: v${i}`);
        const text = shape === 'flow' ? `{ ${pairs.filter((p) => !p.startsWith('?')).join(', ')} }` : shape === 'nested' ? `m:\n${pairs.map((p) => `  ${p.replace('\n', '\n  ')}`).join('\n')}` : pairs.join('\n');
        // (a document with another error, such as an alias whose anchor comes later, is read differently
        // around it: the two readers' positions are compared on documents whose only errors are repeated keys)
        const errors = parseDocument(text).errors;
        fc.pre(errors.every((e) => e.code === 'DUPLICATE_KEY'));
        const ours = parseData(text, 'yaml').problems.filter((p) => p.message.startsWith('Map keys must be unique')).map((p) => p.span.start);
        const theirs = errors.map((e) => e.pos[0]);
        assert.deepEqual(ours, theirs, JSON.stringify(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('a document nested too deeply for the yaml package is an error, not an exception', () => {
    const text = 'a: ' + '['.repeat(20000) + ']'.repeat(20000);
    const read = parseData(text, 'yaml');
    assert.equal(read.problems[0]?.severity, 'error');
  });
});

/**
 * One YAML document per file (docs/compatibility.md#card-file-format): DarkPrint reads a card with
 * `parseDocument`, which reports MULTIPLE_DOCS at the start of the second document and nothing for
 * a lone `---` or `...` marker. Each row gives what our reader reports (severity, the text under
 * the range); the check also asks the `yaml` package itself, with DarkPrint's options, that every
 * error it reports starts where ours does and that it reports no error where we report none.
 */
describe('data reader: YAML documents', () => {
  const rows: [string, string, [string, string][]][] = [
    // a second document is an error at its `---`, at its first line, or at the `...` that ends it
    ['a second document after `---`', 'a: 1\n---\nid: z\n', [['error', '---']]],
    ['a trailing `---` line', 'a: 1\n---\n', [['error', '---']]],
    ['a trailing `---` at the very end', 'a: 1\n---', [['error', '---']]],
    ['a trailing `---` with a comment after it', 'a: 1\n---\n# only a comment\n', [['error', '---']]],
    ['a `---` with content on its line', 'a: 1\n--- b\n', [['error', '---']]],
    ['content after a `...` end marker', 'a: 1\n...\nid: z\n', [['error', 'id: z']]],
    ['indented content after `...` and a comment: from the start of its line', 'a: 1\n...\n\n  # c\n  id: z\n', [['error', '  id: z']]],
    ['a `---` after a `...` end marker', 'a: 1\n...\n---\n', [['error', '---']]],
    ['a second `...` end marker', 'a: 1\n...\n...\n', [['error', '...']]],
    ['a second document after a leading `---`', '---\na: 1\n---\nb: 2\n', [['error', '---']]],
    ['three documents: one error, at the second', 'a: 1\n---\nb: 2\n---\nc: 3\n', [['error', '---']]],
    ['a second document after a block scalar', 'a: |\n  x\n---\nb: 1\n', [['error', '---']]],
    ['a second document with CRLF line ends', 'a: 1\r\n---\r\nid: z\r\n', [['error', '---']]],
    ['a second document after directives', 'a: 1\n...\n%YAML 1.2\n---\nb: 2\n', [['error', '---']]],
    ['an empty first document', '---\n---\na: 1\n', [['error', '---']]],
    ['errors in the second document are not read', 'a: 1\n---\nb: [\n', [['error', '---']]],
    // one document, however its markers are written, is not an error
    ['a leading `---`', '---\na: 1\n', []],
    ['a leading `---` with a comment', '--- # card\na: 1\n', []],
    ['a leading `---` after a byte-order mark', '\ufeff---\na: 1\n', []],
    ['a leading comment, then `---`', '# c\n---\na: 1\n', []],
    ['a trailing `...`', 'a: 1\n...\n', []],
    ['a trailing `...` at the very end', 'a: 1\n...', []],
    ['a trailing `...` with a comment on its line', 'a: 1\n... # end\n', []],
    ['a trailing `...` followed by comments and blank lines', 'a: 1\n...\n# done\n\n  # more\n', []],
    ['a leading `---` and a trailing `...`', '---\na: 1\n...\n', []],
    ['a trailing `...` with CRLF line ends', 'a: 1\r\n...\r\n', []],
    ['an indented `---` is text, not a marker', 'a: 1\n ---\n', []],
  ];
  for (const [name, text, expected] of rows) {
    it(name, () => {
      const read = parseData(text, 'yaml');
      assert.deepEqual(read.problems.map((p) => [p.severity, text.slice(p.span.start, p.span.end)]), expected);
      for (const p of read.problems) assert.match(p.message, /\.$/);
      const reference = parseDocument(text, { prettyErrors: false });
      assert.deepEqual(
        read.problems.filter((p) => p.severity === 'error').map((p) => p.span.start),
        reference.errors.map((e) => e.pos[0]),
        'errors start where the yaml package puts them',
      );
    });
  }
});

/**
 * A lone CR ends a line, for YAML 1.2 and for the line index positions are converted with, but the
 * `yaml` package breaks lines only at LF: a file saved with CR line endings reads as its LF twin
 * (the reader gives `yaml` a copy with each lone CR as LF, one code unit for one, so every span
 * holds in the text as written).
 */
describe('data reader: lone CR line endings', () => {
  const crOnly = (text: string): string => text.replace(/\n/g, '\r');

  it('a YAML document with CR line endings reads as its LF twin: the same values, spans and problems', () => {
    const twins = [
      'id: writer\nname: Writer\ntools: [file-io,\n  web-search]\n',
      '# a card\nspec: >-\n  Writes the draft\n  from the brief.\nnotes: |\n  one\n  two\nplain: a\n  b\nquoted: "x\n  y"\n',
      'inputs:\n  - name: draft\n    type: markdown\n  - &n {name: notes,\n     type: text}\noutputs: [*n]\n',
      'a: 1\nb: 2\na: 3\n',
      'a: 1\n---\nb: 2\n',
      'a: [1, 2\nb: 3\n',
    ];
    for (const lf of twins) {
      const cr = crOnly(lf);
      assert.deepStrictEqual(parseData(cr, 'yaml'), parseData(lf, 'yaml'), JSON.stringify(cr));
    }
    assert.deepEqual(parseData(crOnly(twins[0]), 'yaml').problems, []);
  });

  it('any document the yaml package writes, with CR or mixed line endings, reads as its LF twin', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom('\r', '\r\r\n'), (value, ending) => {
        const lf = stringify(value);
        // (CR, or every other break a CR and the rest CRLF: a CRLF stays one break)
        let n = 0;
        const other = ending === '\r' ? crOnly(lf) : lf.replace(/\n/g, () => (n++ % 2 === 0 ? '\r' : '\r\n'));
        const read = parseData(other, 'yaml');
        assert.deepEqual(read.problems.filter((p) => p.severity === 'error'), []);
        assert.deepStrictEqual(plain(read.root), plain(parseData(lf, 'yaml').root));
        if (ending === '\r') assert.deepStrictEqual(read, parseData(lf, 'yaml'));
      }),
      { numRuns: 300 },
    );
  });

  it('the blueprint and the local vocabulary, read over the yaml package too, read as their LF twins', () => {
    const blueprint = 'slug: fuzz\ntitle: A bundle\nsummary: >-\n  What it\n  does.\ntags: [a,\n  b]\n';
    const cr = readManifest({ path: 'blueprint.yaml', text: crOnly(blueprint) }, 'fuzz');
    assert.deepStrictEqual(cr, readManifest({ path: 'blueprint.yaml', text: blueprint }, 'fuzz'));
    assert.deepEqual([cr.diagnostics, cr.manifest.summary, cr.manifest.tags], [[], 'What it does.', ['a', 'b']]);
    const extensions = 'terms:\n  - id: local-notes\n    kind: data-type\n    label: Local notes\n    description: Notes kept\n      by the team.\n    since: 1.0.0\n    broader: markdown\n';
    const terms = readExtensions({ path: 'ontology/extensions.yaml', text: crOnly(extensions) });
    assert.deepStrictEqual(terms, readExtensions({ path: 'ontology/extensions.yaml', text: extensions }));
    assert.deepEqual([terms.diagnostics, terms.terms.map((t) => t.id)], [[], ['local-notes']]);
  });

  it('a JSON document with CR line endings reads as its LF twin', () => {
    const lf = '{\n  "id": "writer",\n  "tools": [\n    "file-io"\n  ],\n  "params": {}\n}\n';
    assert.deepStrictEqual(parseData(crOnly(lf), 'json'), parseData(lf, 'json'));
    assert.deepEqual(parseData(crOnly(lf), 'json').problems, []);
  });
});
