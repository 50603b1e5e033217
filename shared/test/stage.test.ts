/**
 * The memo layer (shared/src/stage.ts) on its own: what decides reuse is the declared
 * inputs and nothing else, a computation gets exactly its inputs, and without a memo every call
 * computes. (Whether the loader declares every input its rules read is the incremental-load
 * oracle's question: shared/test/incremental-load.test.ts.)
 */
import assert from 'node:assert/strict';
import { itself, perItem, perItemOver, perKey, slot, stage, type Items, type Kept, type Keyed } from '../src/stage';

describe('the memo layer', () => {
  it('a stage computes once while its inputs are the same: objects by identity, strings by value', () => {
    const kept = slot<readonly [string, object], { n: number }>();
    const config = {};
    let runs = 0;
    const compute = ([text]: readonly [string, object]): { n: number } => ({ n: (runs++, text.length) });
    const first = stage(kept, ['abc', config], compute);
    // the same text in another string object, the same object
    assert.equal(stage(kept, [['a', 'b', 'c'].join(''), config], compute), first);
    assert.equal(runs, 1);
    // another object of the same content is another input
    const again = stage(kept, ['abc', {}], compute);
    assert.notEqual(again, first);
    assert.deepEqual(again, first);
    assert.equal(runs, 2);
  });

  it('a stage gets exactly its inputs, and its last computation to build on', () => {
    const kept = slot<readonly [number[]], string>();
    const seen: unknown[] = [];
    const compute = (inputs: readonly [number[]], last: Kept<readonly [number[]], string> | undefined): string => {
      seen.push([inputs, last === undefined ? undefined : { inputs: last.inputs, output: last.output }]);
      return `${inputs[0].length}`;
    };
    const a = [1];
    const b = [1, 2];
    stage(kept, [a], compute);
    stage(kept, [b], compute);
    assert.deepEqual(seen, [
      [[a], undefined],
      [[b], { inputs: [a], output: '1' }],
    ]);
  });

  it('without a slot, a stage just computes, every time', () => {
    let runs = 0;
    const compute = (): number[] => [runs++];
    stage(undefined, ['same'], compute);
    stage(undefined, ['same'], compute);
    assert.equal(runs, 2);
  });

  it('a slot and a kept record have one shape: both keys from creation, in one order', () => {
    const kept = slot<readonly [string], string>();
    assert.deepEqual(Object.keys(kept), ['inputs', 'output']);
    stage(kept, ['x'], ([x]) => x);
    assert.deepEqual(Object.keys(kept), ['inputs', 'output']);
    const items: Items<readonly [object, undefined], string> = [];
    perItem(items, 0, 'item', {}, undefined, () => 'r', undefined);
    assert.deepEqual(Object.keys(items[0]!), ['inputs', 'output']);
  });

  it('`itself` makes a list built anew an input that compares by identity', () => {
    const kept = slot<readonly object[], readonly object[]>();
    const x = {};
    const y = {};
    const first = stage(kept, [x, y], itself);
    assert.equal(stage(kept, [x, y], itself), first);
    assert.notEqual(stage(kept, [y, x], itself), first);
  });

  it('an item keeps its result while its declared inputs are the same; the rule gets them, the item and the context', () => {
    const items: Items<readonly [object | undefined, object | undefined], string> = [];
    const calls: unknown[] = [];
    const rule = (item: string, inputs: readonly [object | undefined, object | undefined], context: string): string => {
      calls.push([item, inputs, context]);
      return `${item}:${calls.length}`;
    };
    const a = {};
    const b = {};
    assert.equal(perItem(items, 0, 'e0', a, b, rule, 'ctx'), 'e0:1');
    assert.equal(perItem(items, 1, 'e1', a, undefined, rule, 'ctx'), 'e1:2');
    assert.equal(perItem(items, 0, 'e0', a, b, rule, 'ctx'), 'e0:1');
    assert.equal(perItem(items, 1, 'e1', a, undefined, rule, 'ctx'), 'e1:2');
    assert.equal(perItem(items, 0, 'e0', a, {}, rule, 'ctx'), 'e0:3');
    assert.deepEqual(calls[0], ['e0', [a, b], 'ctx']);
    assert.equal(calls.length, 3);
    // without kept items, every call runs the rule
    perItem(undefined, 0, 'e0', a, b, rule, 'ctx');
    assert.equal(calls.length, 4);
  });

  it('an item whose inputs are looked up keeps its result while every lookup gives the same', () => {
    const entries = [{}, {}, {}];
    const items: Items<readonly [string, ...object[]], number> = [];
    let runs = 0;
    const rule = (_item: undefined, inputs: readonly [string, ...object[]]): number => (runs++, inputs.length);
    const lookup = (key: number): object => entries[key];
    assert.equal(perItemOver(items, 0, undefined, 'head', [0, 2], lookup, rule, undefined), 3);
    assert.equal(perItemOver(items, 0, undefined, 'head', [0, 2], lookup, rule, undefined), 3);
    assert.equal(runs, 1);
    entries[2] = {};
    perItemOver(items, 0, undefined, 'head', [0, 2], lookup, rule, undefined);
    assert.equal(runs, 2);
    perItemOver(items, 0, undefined, 'head', [0], lookup, rule, undefined);
    assert.equal(runs, 3);
    assert.deepEqual(items[0]!.inputs, ['head', entries[0]]);
  });

  it('a keyed item keeps its result with the object itself while its second input is the same', () => {
    const kept: Keyed<object, object, number> = new WeakMap();
    const card = {};
    const first = {};
    let runs = 0;
    const rule = (inputs: readonly [object, object], context: number): number => (runs++, context);
    assert.equal(perKey(kept, card, first, rule, 1), 1);
    assert.equal(perKey(kept, card, first, rule, 2), 1, 'the context does not decide the result');
    assert.equal(runs, 1);
    assert.equal(perKey(kept, card, {}, rule, 3), 3);
    assert.equal(perKey(kept, {}, first, rule, 4), 4);
    assert.equal(runs, 3);
    perKey(undefined, card, first, rule, 5);
    assert.equal(runs, 4);
    assert.deepEqual(Object.keys(kept.get(card)!), ['inputs', 'output']);
  });
});
