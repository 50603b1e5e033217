/**
 * The card model (docs/compatibility.md#card-fields), in the camelCase shape DarkPrint hashes
 * (docs/compatibility.md#card-digest). Produced by
 * `readCard` in ../check/card.ts from `{ path, text }`.
 */
import type { Span } from '../text';
import type { Diagnostic } from '../diagnostics';

/** JSON values as params may hold them. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

export interface Port {
  readonly name: string;
  readonly type: string;
  readonly description?: string;
  /** Inputs only; absent means required. */
  readonly required?: boolean;
}

export interface Card {
  readonly id: string;
  readonly name: string;
  readonly type: string;
  readonly phases: readonly string[];
  readonly action: string;
  readonly spec: string;
  readonly model?: string;
  readonly agent?: string;
  readonly tools: readonly string[];
  readonly mcp: readonly string[];
  readonly skill?: string;
  readonly params: { readonly [key: string]: JsonValue };
  readonly inputs: readonly Port[];
  readonly outputs: readonly Port[];
  readonly dependencies: readonly string[];
  readonly cannot: readonly string[];
  readonly willNot: readonly string[];
  readonly riskMarkers: readonly string[];
  readonly notes?: string;
  readonly version: string;
  readonly author?: string;
  readonly provenance?: string;
}

/**
 * Locates a card path (`inputs[1].type`, `cannot[0]`, `params.tool_command`, `id`) in the file.
 * `key` gives the key's span (or the list entry for list items); `value` the value's span.
 * Falls back to the nearest existing ancestor, then to the whole document; never throws.
 */
export type CardLocator = (path: string, part?: 'key' | 'value') => Span;

export interface CardReadResult {
  readonly file: string;
  /** The text that was read (diagnostic positions are offsets into it). */
  readonly text: string;
  /** The validated model; absent when any error was found (docs/compatibility.md#field-rules). */
  readonly card?: Card;
  /**
   * Whatever could be read, even from a broken card (for completion, hover, navigation).
   * Same shape as Card with every field optional.
   */
  readonly draft: Partial<Card>;
  readonly diagnostics: readonly Diagnostic[];
  readonly locate: CardLocator;
}
