/**
 * The ids the drawn elements carry. A node's key is `dp-n-` and its DOT id, with every code unit
 * other than an ASCII letter, digit, `_` or `-` written as `.` and four hex digits (so `.` itself
 * is escaped, and two ids never share a key); an edge's is `dp-e-` and its index. Both are valid
 * HTML ids and DOT ids without quoting trouble, and need no escaping in a CSS id selector but
 * for the `.`.
 */

export const nodeKeyPrefix = 'dp-n-';
export const edgeKeyPrefix = 'dp-e-';

export function nodeKey(id: string): string {
  if (plain.test(id)) return nodeKeyPrefix + id;
  let out = nodeKeyPrefix;
  for (let i = 0; i < id.length; i++) {
    const c = id.charCodeAt(i);
    const plain = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 45;
    out += plain ? id[i] : `.${c.toString(16).padStart(4, '0')}`;
  }
  return out;
}

/** An id that needs no escape. */
const plain = /^[A-Za-z0-9_-]*$/;

export function edgeKey(index: number): string {
  return `${edgeKeyPrefix}${index}`;
}

/** The node id a node key was made from; undefined for a string no node key reads as. */
export function nodeIdOfKey(key: string): string | undefined {
  if (!key.startsWith(nodeKeyPrefix)) return undefined;
  let out = '';
  for (let i = nodeKeyPrefix.length; i < key.length; i++) {
    const c = key[i];
    if (c !== '.') {
      if (!plain.test(c)) return undefined;
      out += c;
      continue;
    }
    const hex = key.slice(i + 1, i + 5);
    if (!/^[0-9a-f]{4}$/.test(hex)) return undefined;
    out += String.fromCharCode(parseInt(hex, 16));
    i += 4;
  }
  return out;
}
