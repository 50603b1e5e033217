/**
 * Questions about a card's or vocabulary file's located tree (../syntax/yaml.ts): which scalar
 * or key sits at an offset and by which path, which term kind a card field holds (read from the
 * vocabulary's `kindInfo` table), and how to walk an engine path such as `inputs[1].type`.
 */
import type { Span } from '../text';
import { deref, formatOf, parseData, type DataDocument, type YamlEntry, type YamlMapping, type YamlNode, type YamlScalar, type YamlSequence } from '../syntax/yaml';
import { kindInfo } from '../vocabulary/core';
import { termKinds, type TermKind } from '../vocabulary/types';
import { item } from './data-context';

const documentCache = new Map<string, DataDocument>();
const documentCacheLimit = 64;

/** The located tree of a data file (a small cache keyed by path and text keeps repeated requests cheap). */
export function dataDocument(path: string, text: string): DataDocument {
  const key = `${formatOf(path)}\u0000${text}`;
  const cached = documentCache.get(key);
  if (cached !== undefined) return cached;
  const document = parseData(text, formatOf(path));
  if (documentCache.size >= documentCacheLimit) {
    const oldest = documentCache.keys().next();
    if (oldest.done !== true) documentCache.delete(oldest.value);
  }
  documentCache.set(key, document);
  return document;
}

export interface TreeHit {
  /** Keys from the root, `-` for list items. */
  readonly path: readonly string[];
  /** The same path with indices, as the engine writes it (`inputs[1].type`). */
  readonly enginePath: string;
  readonly role: 'key' | 'value';
  readonly span: Span;
  /** The scalar, for a value. */
  readonly scalar?: YamlScalar;
  readonly entry?: YamlEntry;
}

/** The key or scalar value under `offset` (aliases are not followed). */
export function hitAt(root: YamlNode | undefined, offset: number): TreeHit | undefined {
  let node = root;
  const path: string[] = [];
  let enginePath = '';
  let guard = 0;
  while (node !== undefined && guard++ < 10_000) {
    if (node.kind === 'alias') return undefined;
    if (node.kind === 'scalar') {
      return contains(node.span, offset) ? { path, enginePath, role: 'value', span: node.span, scalar: node } : undefined;
    }
    if (!contains(node.span, offset) && node.span.end > node.span.start) return undefined;
    if (node.kind === 'mapping') {
      let next: YamlNode | undefined;
      for (const entry of node.entries.values()) {
        if (contains(entry.keySpan, offset)) {
          return { path: [...path, entry.key], enginePath: join(enginePath, entry.key), role: 'key', span: entry.keySpan, entry };
        }
        if (contains(entry.value.span, offset)) {
          path.push(entry.key);
          enginePath = join(enginePath, entry.key);
          next = entry.value;
          break;
        }
      }
      node = next;
      continue;
    }
    let next: YamlNode | undefined;
    node.items.forEach((child, i) => {
      if (next === undefined && contains(child.span, offset)) {
        next = child;
        path.push(item);
        enginePath = `${enginePath}[${i}]`;
      }
    });
    node = next;
  }
  return undefined;
}

function contains(span: Span, offset: number): boolean {
  return span.start <= offset && offset <= span.end && span.end > span.start;
}

function join(base: string, key: string): string {
  return base === '' ? key : `${base}.${key}`;
}

/** Walks an engine path (`dependencies[2]`, `inputs[0].type`, `params.tool_command`) to its entry and node. */
export function walkPath(root: YamlNode | undefined, path: string): { node?: YamlNode; entry?: YamlEntry; parent?: YamlMapping | YamlSequence; index?: number } | undefined {
  let node = root;
  let entry: YamlEntry | undefined;
  let parent: YamlMapping | YamlSequence | undefined;
  let index: number | undefined;
  const steps = path.match(/[^.[\]]+|\[\d+\]/g) ?? [];
  for (const step of steps) {
    const value = deref(node);
    if (value === undefined) return undefined;
    if (step.startsWith('[')) {
      if (value.kind !== 'sequence') return undefined;
      index = Number(step.slice(1, -1));
      parent = value;
      node = value.items[index];
      entry = undefined;
      if (node === undefined) return undefined;
    } else {
      if (value.kind !== 'mapping') return undefined;
      const found = value.entries.get(step);
      if (found === undefined) return undefined;
      parent = value;
      entry = found;
      index = undefined;
      node = found.value;
    }
  }
  return { ...(node ? { node } : {}), ...(entry ? { entry } : {}), ...(parent ? { parent } : {}), ...(index !== undefined ? { index } : {}) };
}

/**
 * Card field spellings that read as another field (docs/compatibility.md#card-fields). Only used to
 * map a field to its term kind through `kindInfo.cardFields`, which names the wire spelling.
 */
const fieldAliases: ReadonlyMap<string, string> = new Map([
  ['phases', 'phase'],
  ['riskMarkers', 'risk_markers'],
  ['willNot', 'will_not'],
]);

/** The wire spelling of a card field. */
export function wireField(field: string): string {
  return fieldAliases.get(field) ?? field;
}

/** The field a path names, written as `kindInfo.cardFields` writes it (`inputs[].type`, `tools`, `phase`). */
export function fieldOf(path: readonly string[]): string {
  const parts: string[] = [];
  for (const step of path) {
    if (step === item) {
      if (parts.length > 0) parts[parts.length - 1] += '[]';
    } else parts.push(parts.length === 0 ? wireField(step) : step);
  }
  return parts.join('.').replace(/\[\]$/, '');
}

/** The term kind a card field holds (`type` → node-type, `tools` → tool, `inputs[].type` → data-type, …). */
export function termKindOfField(path: readonly string[]): TermKind | undefined {
  const field = fieldOf(path);
  return termKinds.find((kind) => kindInfo[kind].cardFields.includes(field));
}

/** True for a card field whose value is a list (its completion inserts `[term]` after `key: `). */
export function isListField(path: readonly string[]): boolean {
  const field = fieldOf(path);
  return field !== 'type' && field !== 'phase' && !field.endsWith('.type');
}
