/**
 * String forms and names the compiler writes and reads: Attractor's quoted strings
 * (docs/compatibility.md#quoting,
 * and the unescape import applies), the topology strings DarkPrint's lexer reads back, the YAML
 * scalars of imported cards, the ids and slugs import derives from Attractor names, and the
 * `_2`/`-2` namer both directions use.
 */
import { isAttractorIdentifier, isAttractorKeyword } from '../syntax/attractor-table';

/**
 * An Attractor string literal (docs/compatibility.md#quoting): CRLF and lone CR become LF; then `\`
 * -> `\\`, `"` -> `\"`, LF -> `\n`, TAB -> `\t`, every other control character (and DEL) -> one
 * space; everything else, non-ASCII included, is written as it is.
 */
export function quoteAttractor(value: string): string {
  const text = value.replace(/\r\n?/g, '\n');
  let out = '"';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 92) out += '\\\\';
    else if (c === 34) out += '\\"';
    else if (c === 10) out += '\\n';
    else if (c === 9) out += '\\t';
    else if (c < 32 || c === 127) out += ' ';
    else out += text[i];
  }
  return `${out}"`;
}

/**
 * The half of Attractor's string escapes DarkPrint's DOT lexer leaves in place (it already turned
 * `\"` into `"`): one left-to-right pass mapping `\n` -> LF, `\t` -> TAB and `\\` -> `\`; any other
 * backslash stays.
 */
export function unescapeAttractor(value: string): string {
  if (!value.includes('\\')) return value;
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === '\\' && i + 1 < value.length) {
      const next = value[i + 1];
      if (next === 'n') {
        out += '\n';
        i++;
        continue;
      }
      if (next === 't') {
        out += '\t';
        i++;
        continue;
      }
      if (next === '\\') {
        out += '\\';
        i++;
        continue;
      }
    }
    out += c;
  }
  return out;
}

/**
 * True when `value` survives being written as `"…"` for DarkPrint's DOT lexer with only `"`
 * escaped: no backslash may stand before a quote, before a line break, or at the very end.
 */
export function isTopologyWritable(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    if (value[i] !== '\\') continue;
    const next = value[i + 1];
    if (next === undefined || next === '"' || next === '\n' || next === '\r') return false;
  }
  return true;
}

/** A topology string literal for DarkPrint's lexer (only `"` escaped); check `isTopologyWritable` first. */
export function quoteTopology(value: string): string {
  return `"${value.split('"').join('\\"')}"`;
}

/** A node id as a topology writes it: bare when it is an identifier and no DOT keyword, quoted otherwise. */
export function topologyId(id: string): string {
  return isAttractorIdentifier(id) && !isAttractorKeyword(id) ? id : quoteTopology(id);
}

/**
 * A YAML double-quoted scalar holding exactly `value`: JSON's quoting (valid YAML), with the
 * characters YAML may not carry raw (DEL, C1 controls, line and paragraph separators, BOM,
 * non-characters) escaped as well.
 */
export function yamlString(value: string): string {
  return yamlJson(value);
}

/** Any JSON value as YAML flow text (JSON is YAML), with the same extra escapes as `yamlString`. */
export function yamlJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** A card id derived from any name (docs/compatibility.md#attractor-import): lowercase, runs outside `[a-z0-9]` -> `-`, no `-` at either end, `node` when nothing is left. */
export function cardIdFrom(name: string): string {
  const id = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return id.length > 0 ? id : 'node';
}

/**
 * The graph name import writes into `topology.dot`: every character outside `[A-Za-z0-9_]` -> `_`,
 * with an `n_` prefix when the result is empty, starts with a digit, or is a DOT keyword.
 */
export function dotName(name: string): string {
  const out = name.replace(/[^A-Za-z0-9_]/g, '_');
  if (out.length === 0) return 'n_';
  const first = out.charCodeAt(0);
  return (first >= 48 && first <= 57) || isAttractorKeyword(out) ? `n_${out}` : out;
}

/**
 * A namer that hands out `base`, then `base<separator>2`, `base<separator>3`, … for names already
 * handed out. It remembers where each base's count stopped (a name once taken stays taken), so
 * many collisions on one base cost no more than a few.
 */
export function uniqueNames(separator: string): (base: string) => string {
  const used = new Set<string>();
  const next = new Map<string, number>();
  return (base) => {
    let name = base;
    let n = next.get(base) ?? 2;
    while (used.has(name)) name = `${base}${separator}${n++}`;
    next.set(base, n);
    used.add(name);
    return name;
  };
}
