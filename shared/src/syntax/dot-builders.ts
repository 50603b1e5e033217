/**
 * What the DOT parser builds the graph model with (./dot-parser.ts), and what its resume
 * (./dot-resume.ts) moves when it takes an earlier parse's statements: the node under
 * construction, a statement's own attribute list, and the read-only view of defaults with a
 * statement's attributes laid over them. The model's nodes are these builders themselves (see
 * `NodeBuilder`), and its attribute maps these lists and views, so nothing is copied when the
 * parse ends.
 */
import type { Span } from '../text';
import type { DotAttribute, DotNode } from './dot-model';

/**
 * `base` with `own` laid over it, read-only and without copying `base`: DarkPrint's
 * `{ ...defaults, ...explicit }` (base keys in their order, own values winning, then own-only
 * keys). Neither map may change afterwards; the parser never changes either.
 */
export function layered<K, V>(base: ReadonlyMap<K, V>, own: ReadonlyMap<K, V>): ReadonlyMap<K, V> {
  return new LayeredMap(base, own);
}

/**
 * The attributes one statement writes, in first-set order (a later `k=v` for the same key
 * replaced the value in place, as in a `Map`); read-only. A class, against the house style, on
 * purpose: nearly every node and edge statement has one, and one exact-size array searched in
 * order costs far less to build and to collect than a `Map` each. Past `indexFrom` keys it keeps
 * a `Map` index, so a hostile list of thousands of attributes stays linear.
 */
export class AttributeList implements ReadonlyMap<string, DotAttribute> {
  static readonly indexFrom = 8;
  private readonly index: Map<string, number> | undefined;

  /**
   * `attributes`: the attributes as read, in order, their keys distinct. `shift`: how far on the
   * list shows them. A list taken from an earlier parse after text typed before its statement
   * (see `movedBy` in ./dot-resume.ts) is the same array shown moved, not a copy: a thousand
   * statements move on an edit in the middle of a topology, most of whose attributes nothing
   * reads before the next edit, and a copy of each would live that long (the collector's old
   * generation filling up on every edit). Each read of a moved list gives a new moved attribute (equal, not the same).
   */
  constructor(
    private readonly attributes: readonly DotAttribute[],
    private readonly shift = 0,
    index?: Map<string, number>,
  ) {
    this.index = index ?? (attributes.length > AttributeList.indexFrom ? new Map(attributes.map((a, i) => [a.key, i] as const)) : undefined);
  }

  get size(): number {
    return this.attributes.length;
  }

  /** The list with `change` applied to each attribute; itself when nothing changed. */
  mapped(change: (attribute: DotAttribute) => DotAttribute): AttributeList {
    let changed = this.shift !== 0;
    const out = this.attributes.map((a) => {
      const shown = this.shown(a);
      const b = change(shown);
      if (b !== shown) changed = true;
      return b;
    });
    return changed ? new AttributeList(out) : this;
  }

  /** True when every attribute (key and value) starts at or after `offset`, as shown. */
  allFrom(offset: number): boolean {
    const at = offset - this.shift;
    for (const a of this.attributes) if (a.keySpan.start < at || a.valueSpan.start < at) return false;
    return true;
  }

  /** The same attributes shown `delta` further on. */
  moved(delta: number): AttributeList {
    return delta === 0 ? this : new AttributeList(this.attributes, this.shift + delta, this.index);
  }

  private shown(a: DotAttribute): DotAttribute {
    const shift = this.shift;
    if (shift === 0) return a;
    return {
      key: a.key,
      value: a.value,
      keySpan: { start: a.keySpan.start + shift, end: a.keySpan.end + shift },
      valueSpan: { start: a.valueSpan.start + shift, end: a.valueSpan.end + shift },
      quoted: a.quoted,
      fromDefault: a.fromDefault,
    };
  }

  private find(key: string): number {
    if (this.index !== undefined) return this.index.get(key) ?? -1;
    const attributes = this.attributes;
    for (let i = 0; i < attributes.length; i++) if (attributes[i].key === key) return i;
    return -1;
  }

  get(key: string): DotAttribute | undefined {
    const at = this.find(key);
    return at >= 0 ? this.shown(this.attributes[at]) : undefined;
  }

  has(key: string): boolean {
    return this.find(key) >= 0;
  }

  forEach(callback: (value: DotAttribute, key: string, map: ReadonlyMap<string, DotAttribute>) => void, thisArg?: unknown): void {
    for (const a of this.attributes) callback.call(thisArg, this.shown(a), a.key, this);
  }

  // (array iterators, not generators: the engine walks these maps for every node and edge, and
  // V8 runs a `for…of` over an array iterator far faster than over a generator)
  entries(): MapIterator<[string, DotAttribute]> {
    return this.attributes.map((a): [string, DotAttribute] => [a.key, this.shown(a)]).values();
  }

  keys(): MapIterator<string> {
    return this.attributes.map((a) => a.key).values();
  }

  values(): MapIterator<DotAttribute> {
    return this.shift === 0 ? this.attributes.values() : this.attributes.map((a) => this.shown(a)).values();
  }

  [Symbol.iterator](): MapIterator<[string, DotAttribute]> {
    return this.entries();
  }
}

/**
 * The view `layered` returns. A class, against the house style, on purpose: every node with
 * explicit attributes under `node [...]` defaults gets one, and methods on a shared prototype
 * keep that to one small object per node instead of a closure per method.
 */
export class LayeredMap<K, V> implements ReadonlyMap<K, V> {
  /** Counted when first asked for. */
  private counted = -1;

  /** The view over `change` of each layer; itself when neither changed. */
  remapped(change: (layer: ReadonlyMap<K, V>) => ReadonlyMap<K, V>): LayeredMap<K, V> {
    const base = change(this.base);
    const own = change(this.own);
    return base === this.base && own === this.own ? this : new LayeredMap(base, own);
  }

  constructor(
    private readonly base: ReadonlyMap<K, V>,
    private readonly own: ReadonlyMap<K, V>,
  ) {}

  get size(): number {
    if (this.counted < 0) {
      let size = this.base.size;
      for (const key of this.own.keys()) if (!this.base.has(key)) size++;
      this.counted = size;
    }
    return this.counted;
  }

  get(key: K): V | undefined {
    return this.own.has(key) ? this.own.get(key) : this.base.get(key);
  }

  has(key: K): boolean {
    return this.own.has(key) || this.base.has(key);
  }

  /** Walks the view without copying it (the lint calls this for every node). */
  forEach(callback: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: unknown): void {
    const own = this.own;
    const base = this.base;
    base.forEach((value, key) => callback.call(thisArg, own.has(key) ? (own.get(key) as V) : value, key, this));
    own.forEach((value, key) => {
      if (!base.has(key)) callback.call(thisArg, value, key, this);
    });
  }

  // (array iterators over a snapshot, not generators; see `AttributeList`)
  entries(): MapIterator<[K, V]> {
    const out: [K, V][] = [];
    for (const [key, value] of this.base) out.push([key, this.own.has(key) ? (this.own.get(key) as V) : value]);
    for (const [key, value] of this.own) if (!this.base.has(key)) out.push([key, value]);
    return out.values();
  }

  keys(): MapIterator<K> {
    const out: K[] = [];
    for (const key of this.base.keys()) out.push(key);
    for (const key of this.own.keys()) if (!this.base.has(key)) out.push(key);
    return out.values();
  }

  values(): MapIterator<V> {
    const out: V[] = [];
    for (const [key, value] of this.base) out.push(this.own.has(key) ? (this.own.get(key) as V) : value);
    for (const [key, value] of this.own) if (!this.base.has(key)) out.push(value);
    return out.values();
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }
}

/**
 * A node as the parser builds it; the model's `DotNode` is this object (the compiler checks the
 * shapes below). A node taken from an earlier parse is never changed in place: the parse copies
 * it first (`ownNode` in ./dot-resume.ts).
 */
export interface NodeBuilder {
  id: string;
  span: Span;
  quoted: boolean;
  /** The defaults in force, a view of defaults + explicit attributes, or (once re-declared) its own map. */
  attrs: ReadonlyMap<string, DotAttribute>;
  statements: Span[];
  idError?: 'hyphenated' | 'keyword';
}

// Compile-time checks that the builders are the model's shapes.
const nodeShape: (n: NodeBuilder) => DotNode = (n) => n;
void nodeShape;
