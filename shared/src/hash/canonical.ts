/**
 * Canonical JSON (E§6): object keys sorted by UTF-16 code units, no whitespace, members whose
 * value is undefined/function/symbol omitted (in arrays: `null`), `-0` as `0`, numbers via
 * `String(n)`, strings via JSON string escaping, `toJSON` honoured. NaN, Infinity, bigint and
 * reference cycles are programming errors here (the card reader rejects them first) and throw.
 */
export function canonicalJson(value: unknown): string {
  const parts: string[] = [];
  write(value, parts, new Set());
  return parts.join('');
}

function write(value: unknown, out: string[], stack: Set<object>): void {
  const v = toJsonValue(value);
  switch (typeof v) {
    case 'string':
      out.push(JSON.stringify(v));
      return;
    case 'boolean':
      out.push(v ? 'true' : 'false');
      return;
    case 'number':
      if (!Number.isFinite(v)) throw new Error(`canonicalJson: ${String(v)} has no JSON form`);
      out.push(Object.is(v, -0) ? '0' : String(v));
      return;
    case 'bigint':
      throw new Error('canonicalJson: bigint has no JSON form');
    case 'object': {
      if (v === null) {
        out.push('null');
        return;
      }
      if (stack.has(v)) throw new Error('canonicalJson: reference cycle');
      stack.add(v);
      if (Array.isArray(v)) {
        out.push('[');
        for (let i = 0; i < v.length; i++) {
          if (i > 0) out.push(',');
          const item = toJsonValue(v[i]);
          if (item === undefined || typeof item === 'function' || typeof item === 'symbol') out.push('null');
          else write(item, out, stack);
        }
        out.push(']');
      } else {
        const record = v as Record<string, unknown>;
        const keys = Object.keys(record).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        out.push('{');
        let first = true;
        for (const key of keys) {
          const item = toJsonValue(record[key]);
          if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
          if (!first) out.push(',');
          first = false;
          out.push(JSON.stringify(key), ':');
          write(item, out, stack);
        }
        out.push('}');
      }
      stack.delete(v);
      return;
    }
    default:
      // undefined, function, symbol at the top level: JSON.stringify gives undefined; we emit null
      out.push('null');
  }
}

function toJsonValue(value: unknown): unknown {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    return (value as { toJSON: () => unknown }).toJSON();
  }
  return value;
}
