/**
 * Canonical JSON (docs/compatibility.md#canonical-json): object keys sorted by UTF-16 code units,
 * no whitespace, members whose value is undefined/function/symbol omitted (in arrays: `null`), `-0`
 * as `0`, numbers via `String(n)`, strings via JSON string escaping, `toJSON` honoured. NaN,
 * Infinity, bigint and reference cycles are programming errors here (the card reader rejects them
 * first) and throw.
 *
 * Every card is hashed on every load, so this is written for speed: one string grown by
 * concatenation (V8 ropes), the default array sort (which compares strings by UTF-16 code
 * units, exactly the order canonical JSON asks for), the JSON form of frequent keys remembered, and the
 * open containers kept on a plain array (nesting is shallow, so a linear cycle check beats a
 * Set).
 */
export function canonicalJson(value: unknown): string {
  return write(toJsonValue(value), []);
}

function write(v: unknown, open: object[]): string {
  switch (typeof v) {
    case 'string':
      return JSON.stringify(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'number':
      if (!Number.isFinite(v)) throw new Error(`canonicalJson: ${String(v)} has no JSON form`);
      return v === 0 ? '0' : String(v);
    case 'bigint':
      throw new Error('canonicalJson: bigint has no JSON form');
    case 'object': {
      if (v === null) return 'null';
      if (open.includes(v)) throw new Error('canonicalJson: reference cycle');
      open.push(v);
      let out: string;
      if (Array.isArray(v)) {
        out = '[';
        for (let i = 0; i < v.length; i++) {
          if (i > 0) out += ',';
          const item = toJsonValue(v[i]);
          out += item === undefined || typeof item === 'function' || typeof item === 'symbol' ? 'null' : write(item, open);
        }
        out += ']';
      } else {
        const record = v as Record<string, unknown>;
        const keys = Object.keys(record).sort();
        out = '{';
        let first = true;
        for (const key of keys) {
          const item = toJsonValue(record[key]);
          if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
          if (first) first = false;
          else out += ',';
          out += quotedKey(key);
          out += ':';
          out += write(item, open);
        }
        out += '}';
      }
      open.pop();
      return out;
    }
    default:
      // undefined, function, symbol at the top level: JSON.stringify gives undefined; we emit null
      return 'null';
  }
}

/** Keys repeat across cards (`id`, `inputs`, `name`, …): their JSON form is kept, up to a bound. */
const quotedKeys = new Map<string, string>();
function quotedKey(key: string): string {
  let quoted = quotedKeys.get(key);
  if (quoted === undefined) {
    quoted = JSON.stringify(key);
    if (quotedKeys.size < 4096 && key.length <= 64) quotedKeys.set(key, quoted);
  }
  return quoted;
}

function toJsonValue(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return (value as { toJSON: () => unknown }).toJSON();
  }
  return value;
}
