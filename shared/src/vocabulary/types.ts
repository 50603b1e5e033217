import type { Span } from '../text';

export type TermKind = 'phase' | 'node-type' | 'risk-marker' | 'data-type' | 'tool';
export const termKinds: readonly TermKind[] = ['phase', 'node-type', 'risk-marker', 'data-type', 'tool'];

export interface Term {
  readonly id: string;
  readonly kind: TermKind;
  readonly label: string;
  /** What the term means (the `description` of a local term). */
  readonly meaning: string;
  readonly broader?: string;
  /** Default security weight of a risk marker (config weight wins, docs/compatibility.md#security). */
  readonly defaultWeight?: number;
  readonly impliesHuman?: boolean;
  readonly governsFlow?: boolean;
  /** Abstract categories exist for subsumption questions; a card should not use them directly. */
  readonly abstract?: boolean;
  /** The top of its kind's hierarchy (`tool-capability` for tools, `any` for data types). */
  readonly root?: boolean;
  /** How a risk marker arrives: declared on a card, inferred by the analyzer, or a category. */
  readonly arrival?: 'declared' | 'inferred' | 'category';
  readonly deprecated?: { readonly replacedBy?: string };
  /** Present for local terms: where `ontology/extensions.yaml` declares it. */
  readonly local?: LocalOrigin;
}

/** Where a local term is declared. `span` is the entry's `id` value; the others locate its fields. */
export interface LocalOrigin {
  readonly file: string;
  readonly span: Span;
  readonly since?: string;
  /** The whole `- id: ...` entry. */
  readonly entrySpan?: Span;
  /** The `kind` value. */
  readonly kindSpan?: Span;
  /** The `broader` value. */
  readonly broaderSpan?: Span;
  /** The `defaultWeight` value. */
  readonly defaultWeightSpan?: Span;
}

/** A view of the vocabulary: the 54 core terms plus a bundle's local terms (docs/compatibility.md#term-lookup). */
export interface Vocabulary {
  /** Exact lookup. */
  get(id: string): Term | undefined;
  /** Exact lookup (optionally of one kind), following `deprecated.replacedBy` while the target exists with the same kind. */
  resolve(id: string, kind?: TermKind): Term | undefined;
  /** True when a == b (even for unknown ids) or b is on a's broader chain (cycle safe). */
  isA(a: string, b: string): boolean;
  /** The term itself then its broader chain, nearest first (cycle safe; stops at an unknown id). */
  ancestors(id: string): readonly Term[];
  /** All terms (core first, then local), optionally of one kind. */
  terms(kind?: TermKind): readonly Term[];
  /** True when the term came through the extensions channel. */
  isLocal(id: string): boolean;
}
