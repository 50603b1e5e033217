/**
 * Every string scalar of a card's or vocabulary file's located tree, with the path of keys that
 * leads to it (`-` for list items, as ./data-tree.ts `hitAt` writes paths), in document order.
 * Walked with an explicit stack, never by recursion, and no deeper than `scalarDepthLimit`: a card
 * holds its terms a few levels down, and no file a user writes can make the walk stall.
 */
import type { Span } from '../text';
import type { YamlNode } from '../syntax/yaml';
import { assertNever } from './context';
import { item } from './data-context';

export interface PathScalar {
  readonly path: readonly string[];
  readonly value: string;
  readonly span: Span;
}

/** How many keys and list levels deep the walk reads (card fields hold their terms at most four down). */
export const scalarDepthLimit = 8;

export function stringScalars(root: YamlNode | undefined): PathScalar[] {
  const out: PathScalar[] = [];
  const pending: { readonly node: YamlNode; readonly path: readonly string[] }[] = root === undefined ? [] : [{ node: root, path: [] }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { node, path } = next;
    switch (node.kind) {
      case 'alias':
        break;
      case 'scalar':
        if (typeof node.value === 'string') out.push({ path, value: node.value, span: node.span });
        break;
      case 'mapping': {
        if (path.length >= scalarDepthLimit) break;
        // (pushed last first, so that they come off the stack in document order)
        const entries = [...node.entries.values()];
        for (let i = entries.length - 1; i >= 0; i--) pending.push({ node: entries[i].value, path: [...path, entries[i].key] });
        break;
      }
      case 'sequence':
        if (path.length >= scalarDepthLimit) break;
        for (let i = node.items.length - 1; i >= 0; i--) pending.push({ node: node.items[i], path: [...path, item] });
        break;
      default:
        assertNever(node);
    }
  }
  // (a mapping lists a repeated key once, at its first place: keep the output in document order)
  return out.sort((a, b) => a.span.start - b.span.start);
}
