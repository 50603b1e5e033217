import assert from 'node:assert/strict';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { deref, formatOf, locatePath, parseData, type YamlNode } from '../src/syntax/yaml';

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

  it('a document nested too deeply for the yaml package is an error, not an exception', () => {
    const text = 'a: ' + '['.repeat(20000) + ']'.repeat(20000);
    const read = parseData(text, 'yaml');
    assert.equal(read.problems[0]?.severity, 'error');
  });
});
